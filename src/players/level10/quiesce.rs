//! The leaves of level 10's tree: the side to move may stand on the judgement or capture,
//! trying the captures and promotions that do not lose by static exchange; in check,
//! every evasion. At the first ply of the leaves (`checks`) the quiet checks that do not lose
//! the checking piece come after the captures: a mate or a double attack begun with a check
//! lies just past where the search stops.

use super::order::Scored;
use super::tree::{INFINITY, MATE, MAX_PLY, Tree, draw_score, from_table, settles};
use crate::board::values::value;
use crate::board::{Bitboard, MoveKind, MoveList, Piece, Position, see_at_least};

impl Tree {
    pub(super) fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, checks: bool) -> i32 {
        self.pv.clear(ply);
        if self.out_of_budget() {
            return 0;
        }
        // A quiet check and a quiet evasion can bring back a position of the line or the game
        // (`search` looked at the first ply of the leaves; after a capture nothing repeats).
        if !checks && pos.halfmove_clock() > 0 && self.is_draw(pos) {
            return draw_score(pos, ply);
        }
        self.nodes += 1;
        if ply >= MAX_PLY - 2 {
            return self.judge(pos, ply);
        }
        // What the table knows of this position from any depth settles a leaf as well, and
        // its stored judgement saves judging again.
        let entry = if self.parts.transposition { self.table.probe(pos.hash()) } else { None };
        if let Some(e) = entry
            && beta - alpha == 1
        {
            let score = from_table(e.score, ply);
            if settles(score, e.bound, alpha, beta) {
                return score;
            }
        }
        let in_check = pos.is_check();
        let mut moves = MoveList::new();
        let stand = if in_check {
            pos.generate(&mut moves, Bitboard::FULL);
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            -INFINITY
        } else {
            if pos.is_insufficient_material() {
                return 0;
            }
            let stand = match entry {
                Some(e) => e.eval,
                _ => self.judge(pos, ply),
            };
            if stand >= beta || !self.parts.quiescence {
                return stand;
            }
            alpha = alpha.max(stand);
            pos.legal_captures_and_promotions_into(&mut moves);
            if checks {
                for &mv in crate::board::checking_moves(pos).iter() {
                    if !pos.is_capture(mv) && mv.kind() != MoveKind::Promotion {
                        moves.push(mv);
                    }
                }
            }
            stand
        };
        let mut scored = Scored::new();
        for &mv in moves.iter() {
            let key = if in_check {
                pos.captured_piece(mv).map_or(0, |p| 1000 + value(p))
            } else {
                if !pos.is_capture(mv) && mv.kind() != MoveKind::Promotion {
                    // A quiet check: after every capture, unless the checker is lost.
                    if !see_at_least(pos, mv, 0) {
                        continue;
                    }
                    scored.push((-1, mv));
                    continue;
                }
                // Promotions to a knight, bishop or rook are left to the full search.
                if mv.kind() == MoveKind::Promotion && mv.promotion() != Some(Piece::Queen) {
                    continue;
                }
                let victim = pos.captured_piece(mv).map_or(0, value);
                // Even winning everything it takes would leave it below alpha.
                if stand + victim + self.params.delta_margin <= alpha && mv.kind() != MoveKind::Promotion {
                    continue;
                }
                // A capture that loses material by static exchange is left to the full search.
                if !see_at_least(pos, mv, 0) {
                    continue;
                }
                // The most valuable victim first, by the least valuable attacker.
                (victim + mv.promotion().map_or(0, value)) * 8 - pos.moving_piece(mv).index() as i32
            };
            scored.push((key, mv));
        }
        let scored = scored.as_mut_slice();
        scored.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
        let mut best = stand;
        for &(_, mv) in scored.iter() {
            let mut next = *pos;
            next.make_move(mv);
            self.enter(pos, &next, mv, ply);
            let score = -self.quiesce(&next, -beta, -alpha, ply + 1, false);
            self.leave();
            if self.aborted() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.pv.set(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::budget::Budget;
    use crate::players::level10::tree::MATE_BOUND;
    use crate::players::level10::tree::tests::plain_tree;

    /// The first ply of the leaves tries quiet checks after the captures, so a mate by a quiet
    /// check is seen where the search ends; deeper leaves (and `checks` off) stand on the
    /// judgement.
    #[test]
    fn the_leaves_see_a_mate_by_a_quiet_check() {
        let mut tree = plain_tree(false);
        // Ra8 mates on the back rank; nothing can be taken.
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        tree.start(vec![pos.hash()], Budget::default());
        tree.place(&pos, 0);
        assert_eq!(tree.quiesce(&pos, -INFINITY, INFINITY, 0, true), MATE - 1);
        let standing = tree.quiesce(&pos, -INFINITY, INFINITY, 0, false);
        assert!(standing < MATE_BOUND, "{standing}");
    }

    /// A quiet check and a quiet evasion in the leaves can come back to the root: a draw there,
    /// as in the search, not a position judged and played on.
    #[test]
    fn the_leaves_see_a_repetition_by_quiet_checks() {
        let mut tree = plain_tree(false);
        let root = Position::from_fen("6k1/p7/4Q3/8/8/8/1R6/K7 b - - 10 60").unwrap();
        let mut line = vec![root];
        for mv in ["g8f8", "e6d6", "f8g8", "d6e6"] {
            let last = *line.last().unwrap();
            line.push(last.play(last.parse_uci(mv).unwrap()));
        }
        let back = line[4];
        assert_eq!(back.hash(), root.hash());
        // Without the line, the position is judged: White is a queen and a rook up.
        tree.start(vec![root.hash()], Budget::default());
        tree.place(&back, 4);
        let judged = tree.quiesce(&back, -INFINITY, INFINITY, 4, false);
        assert!(judged < -500, "{judged}");
        // Reached by the line from the root, it is a draw.
        tree.start(vec![root.hash()], Budget::default());
        tree.path.extend(line[1..].iter().map(|p| p.hash()));
        assert_eq!(tree.quiesce(&back, -INFINITY, INFINITY, 4, false), 0);
    }
}
