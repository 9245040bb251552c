//! Check generation without making moves: whether a legal move gives check (`gives_check`),
//! the checks among a list of legal moves (`checks`, `check_test`), the checking moves
//! generated directly, without listing the others (`for_each_check`, `checking_moves`), and the
//! replies to a check, listed only while they are few (`few_replies`). The mating rules and the
//! look-ahead ask these of nearly every position they look at, so they belong with the move
//! generator: the squares from which each kind of piece would check are looked up once a
//! position, and no move is played to find out.

use super::{
    Bitboard, CastleRights, FewMoves, Move, MoveKind, MoveList, MoveSink, PROMOTION_RANKS, Piece, Position, Square,
    attacks,
};

/// Does our legal move `mv` give check? Without playing it: the moved piece from its new square,
/// or a slider of ours whose line the move opens (castling and en passant are played out).
pub(crate) fn gives_check(pos: &Position, mv: Move) -> bool {
    if matches!(mv.kind(), MoveKind::Castle | MoveKind::EnPassant) {
        return pos.play(mv).is_check();
    }
    let us = pos.side_to_move();
    let king = pos.king_square(!us);
    let occ = pos.occupied().without(mv.from()).with(mv.to());
    let piece = mv.promotion().unwrap_or(pos.moving_piece(mv));
    attacks::piece_attacks(piece, us, mv.to(), occ).contains(king) || discovers_check(pos, mv, king, occ)
}

/// Does `mv` (not castling or en passant) uncover a slider of ours on their king on `king`?
/// `occ` is the board after the move. Only a slider behind the square the piece left can give
/// it, and only when that square is on a line from their king.
fn discovers_check(pos: &Position, mv: Move, king: Square, occ: Bitboard) -> bool {
    let t = attacks::tables();
    if !t.queen_rays(king).contains(mv.from()) {
        return false;
    }
    let us = pos.side_to_move();
    let queens = pos.pieces(us, Piece::Queen);
    let diagonal = (pos.pieces(us, Piece::Bishop) | queens) & t.bishop(king, occ);
    let straight = (pos.pieces(us, Piece::Rook) | queens) & t.rook(king, occ);
    ((diagonal | straight) & occ).any()
}

/// Their king's square, and by kind of piece the squares from which one of ours would give it
/// check on today's board.
fn check_squares(t: &attacks::Tables, pos: &Position) -> (Square, [Bitboard; 6]) {
    let us = pos.side_to_move();
    let king = pos.king_square(!us);
    let now = pos.occupied();
    let (diagonal, straight) = (t.bishop(king, now), t.rook(king, now));
    let mut from_square = [Bitboard::EMPTY; 6];
    from_square[Piece::Pawn.index()] = t.pawn(!us, king);
    from_square[Piece::Knight.index()] = t.knight(king);
    from_square[Piece::Bishop.index()] = diagonal;
    from_square[Piece::Rook.index()] = straight;
    from_square[Piece::Queen.index()] = diagonal | straight;
    (king, from_square)
}

/// The legal moves that give check. The squares from which each kind of piece would check
/// their king are looked up once for the position, not once a move: a piece that moves cannot
/// open its own line to the king (it would have been giving check already), so today's board
/// answers for every move but promotions, castling and en passant, which `gives_check` takes.
pub(crate) fn checks(pos: &Position, legal: &MoveList) -> MoveList {
    let checking = check_test(pos);
    let mut checks = MoveList::new();
    for &mv in legal.iter().filter(|&&mv| checking(mv)) {
        checks.push(mv);
    }
    checks
}

/// Whether each of our legal moves gives check, as `checks` asks it (see there).
pub(crate) fn check_test(pos: &Position) -> impl Fn(Move) -> bool + '_ {
    let t = attacks::tables();
    let (king, from_square) = check_squares(t, pos);
    let discoverers = discoverers(t, pos, king);
    move |mv: Move| {
        if mv.kind() != MoveKind::Normal {
            return gives_check(pos, mv);
        }
        let piece = pos.moving_piece(mv);
        from_square[piece.index()].contains(mv.to())
            || (discoverers.contains(mv.from()) && !t.line(king, mv.from()).contains(mv.to()))
    }
}

/// The legal moves that give check, in the order of `checks(pos, &pos.legal_moves())`, without
/// listing the others: the move generator hands each piece's destinations to `CheckSink`, which
/// keeps those `checks` would keep.
pub(crate) fn checking_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    checking_moves_into(pos, &mut list);
    list
}

/// `checking_moves` appended to `list` (see `Position::legal_captures_and_promotions_into`).
pub(crate) fn checking_moves_into(pos: &Position, list: &mut MoveList) {
    for_each_check(pos, &mut |_, mv| list.push(mv));
}

/// Hands `each` the moves `checking_moves` lists, in its order, each with the kind of piece
/// that makes it.
// Out of line, with the callers' closures behind one pointer: inlined, each of its four
// callers carried its own copy of the move generator, and a decision runs through several of
// them, so the copies competed for the instruction cache: one copy serves them all.
#[inline(never)]
pub(crate) fn for_each_check(pos: &Position, each: &mut dyn FnMut(Piece, Move)) {
    // The tables asked for once (each asking checks they are built) and handed down.
    let t = attacks::tables();
    let (king, from_square) = check_squares(t, pos);
    let mut sink = CheckSink { pos, t, king, from_square, discoverers: discoverers(t, pos, king), each };
    // Our king checks only by uncovering a slider, or by castling beside its rook: otherwise its
    // steps, which need the enemy's whole attack map to generate, are not asked for.
    let us = pos.side_to_move();
    let ours = pos.king_square(us);
    let castles = pos.castling().has(CastleRights::king_side(us)) || pos.castling().has(CastleRights::queen_side(us));
    let from = if castles || sink.discoverers.contains(ours) { Bitboard::FULL } else { Bitboard::FULL.without(ours) };
    pos.generate_to(&mut sink, from);
}

/// Keeps the checking moves among those the move generator hands it (see `checking_moves`).
struct CheckSink<'a, F: FnMut(Piece, Move)> {
    pos: &'a Position,
    t: &'static attacks::Tables,
    king: Square,
    from_square: [Bitboard; 6],
    discoverers: Bitboard,
    each: F,
}

impl<F: FnMut(Piece, Move)> CheckSink<'_, F> {
    /// The squares of `to` that a piece leaving `from` uncovers a check by going to.
    #[inline]
    fn discovered(&self, from: Square, to: Bitboard) -> Bitboard {
        if self.discoverers.contains(from) { to & !self.t.line(self.king, from) } else { Bitboard::EMPTY }
    }
}

impl<F: FnMut(Piece, Move)> MoveSink for CheckSink<'_, F> {
    #[inline]
    fn push(&mut self, mv: Move) {
        // Castling and en passant.
        if gives_check(self.pos, mv) {
            (self.each)(if mv.kind() == MoveKind::Castle { Piece::King } else { Piece::Pawn }, mv);
        }
    }

    // Forced inline, as `pawn_steps`: the generator hands over one piece (or one pawn step) at
    // a time and seldom with a check among its moves, so a call cost as much as the work.
    #[inline(always)]
    fn targets(&mut self, piece: Piece, from: Square, to: Bitboard) {
        for t in (to & self.from_square[piece.index()]) | self.discovered(from, to) {
            (self.each)(piece, Move::new(from, t));
        }
    }

    #[inline(always)]
    fn pawn_steps(&mut self, to: Bitboard, step: i8) {
        let origin = |t: Square| Square((t.0 as i8 - step) as u8);
        let plain = to & !PROMOTION_RANKS;
        let mut keep = plain & self.from_square[Piece::Pawn.index()];
        if self.discoverers.any() {
            for t in plain & !keep {
                keep |= self.discovered(origin(t), t.bb());
            }
        }
        for t in keep {
            (self.each)(Piece::Pawn, Move::new(origin(t), t));
        }
        for t in to & PROMOTION_RANKS {
            for p in Piece::PROMOTIONS {
                let mv = Move::promotion_to(origin(t), t, p);
                if gives_check(self.pos, mv) {
                    (self.each)(Piece::Pawn, mv);
                }
            }
        }
    }
}

/// Our pieces that alone stand between one of our sliders and their king on `king`: moving one
/// off that line gives check.
// Inline: asked once a check generation; out of line the call cost about as much as the loop.
#[inline]
fn discoverers(t: &attacks::Tables, pos: &Position, king: Square) -> Bitboard {
    let us = pos.side_to_move();
    let queens = pos.pieces(us, Piece::Queen);
    let snipers = ((pos.pieces(us, Piece::Bishop) | queens) & t.bishop_rays(king))
        | ((pos.pieces(us, Piece::Rook) | queens) & t.rook_rays(king));
    let mut out = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = t.between(king, sniper) & pos.occupied();
        if blockers.count() == 1 && (blockers & pos.by_color(us)).any() {
            out |= blockers;
        }
    }
    out
}

/// The replies to a check, listed into `list` until there are too many to follow up (see
/// `FewMoves`). Out of line for the reason `for_each_check` is: one copy of the generator for the
/// mate search's three places that list replies.
#[inline(never)]
pub(crate) fn few_replies(after: &Position, list: &mut FewMoves) {
    after.generate_to(list, Bitboard::FULL);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn checks_are_seen_without_playing() {
        for fen in [
            "7k/8/6K1/8/8/8/8/6Q1 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/4B3/R3K2R w KQ - 0 1",
            "4k3/4r3/8/8/8/4N3/8/4K3 b - - 0 1",
            "8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1",
        ] {
            let p = pos(fen);
            for &mv in p.legal_moves().iter() {
                assert_eq!(gives_check(&p, mv), p.play(mv).is_check(), "{fen} {mv}");
            }
        }
        // Every move of the perft suite's 178 positions (promotions, castling, en passant and
        // discovered checks among them) and of the positions one move later.
        let mut checks = 0;
        for line in include_str!("../../tests/data/perft.epd").lines() {
            let Some(fen) = line.split(';').next().filter(|f| !f.trim().is_empty()) else { continue };
            let p = pos(fen.trim());
            for &mv in p.legal_moves().iter() {
                assert_eq!(gives_check(&p, mv), p.play(mv).is_check(), "{fen} {mv}");
                checks += usize::from(p.play(mv).is_check());
                let q = p.play(mv);
                for &reply in q.legal_moves().iter() {
                    assert_eq!(gives_check(&q, reply), q.play(reply).is_check(), "{} {reply}", q.to_fen());
                }
            }
        }
        assert!(checks > 100, "only {checks} checking moves in the suite");
    }

    /// `checks` (squares looked up once a position) lists exactly the moves that check, over
    /// the perft suite and one move later.
    #[test]
    fn the_list_of_checks_is_exact() {
        let mut seen = 0;
        for line in include_str!("../../tests/data/perft.epd").lines() {
            let Some(fen) = line.split(';').next().filter(|f| !f.trim().is_empty()) else { continue };
            let p = pos(fen.trim());
            for q in std::iter::once(p).chain(p.legal_moves().iter().map(|&m| p.play(m))) {
                let legal = q.legal_moves();
                let mut want = legal.clone();
                want.retain(|m| q.play(m).is_check());
                assert_eq!(checks(&q, &legal).as_slice(), want.as_slice(), "{}", q.to_fen());
                seen += want.len();
            }
        }
        assert!(seen > 1000, "only {seen} checks seen");
    }

    /// The check generator lists the same checks as `checks` over the whole legal list, in the
    /// same order (the first mate in that order is the one played): the perft, WAC, ECM and
    /// mate suites, every position one move later, and random games from each.
    #[test]
    fn checking_moves_are_the_checks_in_order() {
        let suites = [
            include_str!("../../tests/data/perft.epd"),
            include_str!("../../tests/data/wac.epd"),
            include_str!("../../tests/data/ecm.epd"),
            include_str!("../../tests/data/mate1.epd"),
        ];
        let roots: Vec<Position> = suites.iter().flat_map(|s| crate::board::epd_positions(s)).collect();
        assert!(roots.len() > 1000, "only {} positions", roots.len());
        let same = |q: &Position| {
            let want = checks(q, &q.legal_moves());
            assert_eq!(checking_moves(q).as_slice(), want.as_slice(), "{}", q.to_fen());
            want.len()
        };
        let (mut seen, mut state) = (0, 0x9e37_79b9_7f4a_7c15u64);
        for root in roots {
            for &mv in root.legal_moves().iter() {
                seen += same(&root.play(mv));
            }
            let mut q = root;
            for _ in 0..60 {
                seen += same(&q);
                let legal = q.legal_moves();
                if legal.is_empty() {
                    break;
                }
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                q = q.play(legal[(state >> 33) as usize % legal.len()]);
            }
        }
        assert!(seen > 10_000, "only {seen} checks seen");
    }
}
