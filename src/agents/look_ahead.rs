//! Look-ahead (level 9, `Features::LOOK_AHEAD`): the MasterAgent checks its few best
//! candidates against the opponent's agents' best answers.
//!
//! Thesis 4.1: the agents look "1.5 moves" ahead: they estimate the opponent's captures with the
//! board as it stands, so "the situations missed would be seen by a traditional chess program
//! searching at the depth of 2 moves" (Figure 4.1: the rook that takes a knight and is taken by
//! a rook its own move uncovered). Chapter 6 names deeper look-ahead as the hardest extension.
//! This rule takes it one step, and no further, the agents' way:
//!
//! - the candidates are what the agents propose: the MasterAgent's own choice by the thesis's
//!   rules first, then every agent's best attack and best move, the request answers and the
//!   answers to a promotion threat, the best `CANDIDATES` of them by their estimates;
//! - for each, the position after it is handed to the opponent's agents, who report their best
//!   attack: what their best capture or promotion wins, estimated as our agents estimate (with
//!   `exchange`, the whole exchange), discovered attacks included since the board is the real
//!   one after our move, and a mate when they have one;
//! - a candidate is worth what it wins now, less their best answer, plus half of what it
//!   threatens next (its fork or lone threat, its passed pawn's progress) when they have no
//!   winning answer; a draw it allows costs our material edge, and a repetition while we are
//!   ahead costs `REPEAT_COST`;
//! - the best is played; at equal worth the earlier candidate, so that the thesis's own choice
//!   stands unless the look-ahead finds it worse.
//!
//! Only captures, promotions and mates are asked of the opponent; no move of ours is looked at
//! after theirs. That is what keeps this the agents' reasoning over a handful of moves and not
//! a search: at most `CANDIDATES` positions, one reply each.

use super::agent::{Agent, Eval};
use super::features::Features;
use super::mating::mate_in_one;
use super::scene::Scene;
use super::values::{material_balance, value};
use crate::board::{Move, Piece, Position};

/// How many candidates are looked at (the thesis's choice among them).
pub(crate) const CANDIDATES: usize = 8;

/// The worth of a reply that mates us, and of a move that mates them.
pub(crate) const MATE: i32 = 1_000_000;

/// What repeating a position costs while we are ahead by at least a pawn.
pub(crate) const REPEAT_COST: i32 = 200;

/// The share of a candidate's threat (fork, lone threat, pawn progress) it keeps when the
/// opponent has no winning answer (numerator, denominator).
pub(crate) const THREAT_SHARE: (i32, i32) = (1, 2);

/// What the opponent's agents' best answer wins after our move, from `after` (their move):
/// their best capture or promotion, never below zero, or `MATE`.
pub(crate) fn best_answer(after: &Position, features: Features) -> i32 {
    let legal = after.legal_moves();
    if features.has(Features::MATING) && mate_in_one(after, &legal).is_some() {
        return MATE;
    }
    let ev = Eval::new(after, features);
    let mut best = 0;
    for &mv in legal.iter() {
        let victim = after.captured_piece(mv);
        if victim.is_none() && mv.promotion().is_none() {
            continue;
        }
        let piece = after.piece_kind_at(mv.from()).unwrap_or(Piece::Pawn);
        let landed = mv.promotion().unwrap_or(piece);
        let scene = Scene::after(after, mv);
        let gain = victim.map_or(0, value) + value(landed) - value(piece);
        best = best.max(gain - ev.threat_at(&scene, mv.to(), landed));
    }
    best
}

/// What our legal move `mv` wins on the board now: the piece it takes and its promotion.
pub(crate) fn immediate(pos: &Position, mv: Move) -> i32 {
    let piece = pos.piece_kind_at(mv.from()).unwrap_or(Piece::Pawn);
    pos.captured_piece(mv).map_or(0, value) + mv.promotion().map_or(0, |p| value(p) - value(piece))
}

/// A candidate's worth (see the module text). `threat` is what the agents estimated it
/// threatens next; `seen` says whether the position after it has occurred in the game.
pub(crate) fn worth(pos: &Position, mv: Move, threat: i32, features: Features, seen: &dyn Fn(u64) -> bool) -> i32 {
    let us = pos.side_to_move();
    let after = pos.play(mv);
    let replies = after.legal_moves();
    if replies.is_empty() {
        return if after.is_check() { MATE } else { -material_balance(&after, us) };
    }
    if after.is_insufficient_material() || after.halfmove_clock() >= 100 {
        return -material_balance(&after, us);
    }
    let now = immediate(pos, mv);
    let answer = best_answer(&after, features);
    let mut worth = now - answer;
    if answer == 0 {
        worth += threat.max(0) * THREAT_SHARE.0 / THREAT_SHARE.1;
    }
    if material_balance(&after, us) >= value(Piece::Pawn) && seen(after.hash()) {
        worth -= REPEAT_COST;
    }
    worth
}

/// The agent standing on `mv`'s square, for estimating one move without its threat.
pub(crate) fn mover(pos: &Position, mv: Move) -> Agent {
    Agent { square: mv.from(), piece: pos.piece_kind_at(mv.from()).unwrap_or(Piece::Pawn), threat: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn worth_of(fen: &str, uci: &str) -> i32 {
        let p = pos(fen);
        let mv = p.parse_uci(uci).unwrap();
        worth(&p, mv, 0, Features::level(9).unwrap(), &|_| false)
    }

    #[test]
    fn figure_4_1_the_rook_that_takes_the_knight_is_taken() {
        // Rd5xd6 uncovers the black rook d2: the knight is won and the rook lost.
        assert_eq!(worth_of("7k/8/3n4/3R4/8/8/3r4/7K w - - 0 1", "d5d6"), 300 - 500);
        // Taking the pawn a5 instead keeps the rook.
        assert!(worth_of("7k/8/3n4/p2R4/8/8/3r4/7K w - - 0 1", "d5a5") > worth_of("7k/8/3n4/p2R4/8/8/3r4/7K w - - 0 1", "d5d6"));
    }

    #[test]
    fn a_move_that_lets_them_mate_is_the_worst() {
        // Back rank: Kg1 behind f2 g2 h2; the rook e2 leaving the e-file lets Re8-e1 mate.
        let fen = "4r2k/8/8/8/8/8/4RPPP/6K1 w - - 0 1";
        assert_eq!(worth_of(fen, "e2a2"), -MATE);
        // Making room for the king instead only loses the rook (Re8xe2).
        assert_eq!(worth_of(fen, "g2g3"), -500);
    }

    #[test]
    fn stalemate_costs_the_material_edge() {
        // Qg6 stalemates the king h8; White is a queen up.
        assert_eq!(worth_of("7k/5K2/8/8/8/8/8/6Q1 w - - 0 1", "g1g6"), -900);
    }

    #[test]
    fn a_repetition_costs_only_the_side_ahead() {
        let p = pos("7k/8/5K2/8/8/8/8/5Q2 w - - 0 1");
        let mv = p.parse_uci("f1f2").unwrap();
        let fresh = worth(&p, mv, 0, Features::level(9).unwrap(), &|_| false);
        let repeated = worth(&p, mv, 0, Features::level(9).unwrap(), &|_| true);
        assert_eq!(fresh - repeated, REPEAT_COST);
    }
}
