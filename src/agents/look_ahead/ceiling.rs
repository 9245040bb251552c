//! A first ceiling on each candidate's worth, before it is weighed (`ceiling_and_before`): what
//! taking the piece that moved wins them, or taking one of our threatened pieces the move leaves
//! as it was (`Threatened`, with the squares its threat depends on), so that `pick` weighs the
//! candidates from the highest ceiling down and most of them not at all.

use super::final_check::MATE;
use super::forks::king_pin_lines;
use super::material::{immediate, may_leave_no_mate};
use super::worth::{Weighed, quiet_ceiling};
use crate::agents::agent::Estimate;
use crate::agents::eval::Eval;
use crate::agents::features::Features;
use crate::agents::scene::Scene;
use crate::board::values::material_balance;
use crate::board::{Bitboard, Move, Piece, Position, Square, attacks};

/// A first ceiling on a candidate's worth that asks the opponent only what taking the piece
/// that moved wins them, or taking one of our threatened pieces the move leaves as it was
/// (`Threatened`, as the poll found them) (`pick` weighs the candidates from the highest
/// ceiling down). A check has none: its replies may all lose them material.
#[cfg(test)]
pub(crate) fn ceiling(
    pos: &Position,
    est: &Estimate,
    features: Features,
    threatened: &[Threatened],
    check: bool,
) -> Weighed {
    ceiling_and_before(pos, est, features, threatened, check).0
}

/// `ceiling`, and for a candidate that does not check what it wins now and threatens next
/// before any answer (`ceiling_before_answer`), which `weigh_from` starts from again, when it
/// was worked out.
pub(crate) fn ceiling_and_before(
    pos: &Position,
    est: &Estimate,
    features: Features,
    threatened: &[Threatened],
    check: bool,
) -> (Weighed, Option<i32>) {
    if check {
        return (Weighed::AtMost(MATE), None);
    }
    let us = pos.side_to_move();
    let scene = Scene::after(pos, est.mv);
    // Only a move that leaves them no queen, rook or pawn can lead to a draw by their answer.
    let their_heavy_or_pawns =
        (pos.pieces(!us, Piece::Queen) | pos.pieces(!us, Piece::Rook) | pos.pieces(!us, Piece::Pawn)) & scene.theirs;
    let floor = match their_heavy_or_pawns.is_empty() {
        true => {
            let after = pos.play(est.mv);
            if may_leave_no_mate(&after, us) { -material_balance(&after, us) } else { i32::MIN }
        }
        false => i32::MIN,
    };
    // Each of these captures is one of their answers, so their best wins at least as much.
    let landed = scene.piece_on(pos, est.mv.to());
    // (The poll's estimate worked the landing threat out, on the same board.)
    let mut lost = match landed {
        Piece::King => 0,
        _ => est.landing().unwrap_or_else(|| Eval::new(pos, features).threat_at(&scene, est.mv.to(), landed)),
    };
    if landed != Piece::King {
        for t in threatened {
            if t.threat > lost && t.untouched_by(est.mv, landed) {
                lost = t.threat;
            }
        }
    }
    // Once they win something, a move that does not fork keeps only what it wins now (and
    // what it threatens is worked out only if it is weighed).
    if est.fork().is_none() && lost > 0 {
        return (Weighed::AtMost((immediate(pos, est.mv) - lost).max(floor)), None);
    }
    let before = quiet_ceiling(pos, est, &scene, features);
    (Weighed::AtMost((before - lost).max(floor)), Some(before))
}

/// One of our pieces other than the king, threatened where it stands.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Threatened {
    square: Square,
    threat: i32,
    /// The squares its threat depends on (`reach`).
    reach: Bitboard,
    /// The lines through either king: a slider landing there may pin a piece.
    king_lines: Bitboard,
}

impl Threatened {
    /// Our threatened pieces in `pos`, with their threats (the agents' estimates).
    #[cfg(test)]
    pub(crate) fn all(pos: &Position, threats: impl Iterator<Item = (Square, i32)>) -> Vec<Threatened> {
        let mut all = Vec::new();
        Threatened::all_into(pos, threats, &mut all);
        all
    }

    /// `all` into `list` (emptied first), which the MasterAgent lends from one decision to the
    /// next.
    pub(crate) fn all_into(pos: &Position, threats: impl Iterator<Item = (Square, i32)>, list: &mut Vec<Threatened>) {
        let (pins, king_lines) = pin_squares(pos);
        list.clear();
        list.extend(
            threats
                .filter(|&(sq, threat)| threat > 0 && pos.piece_kind_at(sq) != Some(Piece::King))
                .map(|(square, threat)| Threatened { square, threat, reach: reach(pos, square) | pins, king_lines }),
        );
    }

    /// Our piece on `square` (not the king), threatened `threat` there.
    pub(crate) fn one(pos: &Position, square: Square, threat: i32) -> Threatened {
        let (pins, king_lines) = pin_squares(pos);
        Threatened { square, threat, reach: reach(pos, square) | pins, king_lines }
    }

    /// Does our move `mv` of `piece` (not the king) leave the threat on this piece as it was?
    // Inline: the poll asks it of most moves, and out of line the call is a good part of its cost.
    #[inline]
    pub(crate) fn untouched_by(&self, mv: Move, piece: Piece) -> bool {
        let tables = attacks::tables();
        // A slider arriving on a line through the square may join the exchange there (and on
        // a king's line, pin); an en-passant capture also empties the taken pawn's square.
        let lands_on_a_line = match piece {
            Piece::Bishop => tables.bishop_rays(mv.to()).contains(self.square),
            Piece::Rook => tables.rook_rays(mv.to()).contains(self.square),
            Piece::Queen => tables.queen_rays(mv.to()).contains(self.square),
            _ => false,
        };
        let slider = matches!(piece, Piece::Bishop | Piece::Rook | Piece::Queen);
        let touched = mv.from() == self.square
            || self.reach.contains(mv.from())
            || self.reach.contains(mv.to())
            || lands_on_a_line
            || (slider && self.king_lines.contains(mv.to()))
            || mv.kind() == crate::board::MoveKind::EnPassant;
        !touched
    }
}

/// The squares from which a piece could take part in an exchange on `sq`, or change it: its
/// knight squares and neighbours (knights, pawns, kings), and each line through it that holds
/// a slider of either side able to move along it (those sliders, and the pieces between them
/// and `sq`, are the attackers, defenders and x-ray backups there). A line with no such slider
/// comes into play only when one arrives (`Threatened::untouched_by`).
fn reach(pos: &Position, sq: Square) -> Bitboard {
    let tables = attacks::tables();
    let queens = pos.by_piece(Piece::Queen);
    let sliders = (tables.rook_rays(sq) & (pos.by_piece(Piece::Rook) | queens))
        | (tables.bishop_rays(sq) & (pos.by_piece(Piece::Bishop) | queens));
    let mut lines = Bitboard::EMPTY;
    for slider in sliders {
        lines |= tables.line(sq, slider);
    }
    lines | tables.knight(sq) | tables.king(sq)
}

/// Where a move changes which pieces are pinned (the exchange lets a pinned piece take only
/// along its pin): each king's enemy sliders on its lines and the squares between (a piece
/// leaving or arriving there pins or unpins), and the lines through the kings themselves
/// (where a slider that arrives may pin).
fn pin_squares(pos: &Position) -> (Bitboard, Bitboard) {
    let tables = attacks::tables();
    let mut lines = Bitboard::EMPTY;
    for color in [crate::board::Color::White, crate::board::Color::Black] {
        lines |= tables.queen_rays(pos.king_square(color));
    }
    (king_pin_lines(pos, crate::board::Color::White) | king_pin_lines(pos, crate::board::Color::Black), lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::wac_and_one_move_on;

    #[test]
    fn a_move_off_a_squares_reach_leaves_its_threat_as_it_was() {
        // Every threatened piece of ours, before and after each legal move that is not a king's
        // and touches none of the squares of its `reach`, at levels that estimate threats
        // differently (the thesis's one attacker, with backup, the whole exchange).
        let mut same = 0;
        for (n, p) in wac_and_one_move_on().into_iter().enumerate() {
            let features = Features::level([4, 6, 9][n % 3]).unwrap();
            let ev = Eval::new(&p, features);
            let now = Scene::now(&p);
            let threatened =
                Threatened::all(&p, p.by_color(p.side_to_move()).into_iter().map(|sq| (sq, ev.agent(&now, sq).threat)));
            for t in &threatened {
                let piece = p.piece_kind_at(t.square).unwrap();
                for &mv in p.legal_moves().iter().filter(|m| p.piece_kind_at(m.from()) != Some(Piece::King)) {
                    if t.untouched_by(mv, mv.promotion().unwrap_or(p.piece_kind_at(mv.from()).unwrap())) {
                        assert_eq!(
                            ev.threat_at(&Scene::after(&p, mv), t.square, piece),
                            t.threat,
                            "{p:?} {mv:?} {}",
                            t.square
                        );
                        same += 1;
                    }
                }
            }
        }
        assert!(same > 20_000, "{same}");
    }
}
