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

use super::agent::{Agent, Estimate, Eval};
use super::features::Features;
use super::fork::fork;
use super::mating::{mate_in_one, mate_in_two};
use super::scene::Scene;
use super::values::{material_balance, value};
use crate::board::{attacks, Move, Piece, Position};

/// How many candidates are looked at (the thesis's choice among them).
pub(crate) const CANDIDATES: usize = 12;

/// The worth of a reply that mates us, and of a move that mates them.
pub(crate) const MATE: i32 = 1_000_000;

/// What repeating a position costs while we are ahead by at least a pawn.
pub(crate) const REPEAT_COST: i32 = 200;

/// The share of a lone threat (or a pawn's progress) a candidate keeps when the opponent has no
/// winning answer (numerator, denominator); a fork's guaranteed gain counts whole.
pub(crate) const THREAT_SHARE: (i32, i32) = (1, 2);

/// The opponent's agents' best answer to our move, from `after` (their move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Answer {
    /// What it wins them (never below zero), or `MATE`.
    pub gain: i32,
    /// The square of ours it takes, if it is a capture.
    pub takes: Option<crate::board::Square>,
}

/// Their best attack (a capture or promotion, estimated as our agents estimate theirs: with
/// `exchange`, the whole exchange) and their best move-attack (a fork, with `fork`), after our
/// move; a mate in one beats both. The board is the real one after our move, so discovered
/// attacks are seen.
pub(crate) fn best_answer(after: &Position, features: Features) -> Answer {
    let legal = after.legal_moves();
    if features.has(Features::MATING) && (mate_in_one(after, &legal).is_some() || mate_in_two(after, &legal).is_some()) {
        return Answer { gain: MATE, takes: None };
    }
    let ev = Eval::new(after, features);
    let ours = after.by_color(!after.side_to_move());
    let mut best = Answer { gain: 0, takes: None };
    for &mv in legal.iter() {
        let victim = after.captured_piece(mv);
        let piece = after.piece_kind_at(mv.from()).unwrap_or(Piece::Pawn);
        let landed = mv.promotion().unwrap_or(piece);
        let gain = if victim.is_some() || mv.promotion().is_some() {
            let scene = Scene::after(after, mv);
            victim.map_or(0, value) + value(landed) - value(piece) - ev.threat_at(&scene, mv.to(), landed)
        } else if features.has(Features::FORK) {
            // Only a piece that lands next to two of ours can fork them.
            let occ = after.occupied().without(mv.from()).with(mv.to());
            if !(attacks::piece_attacks(landed, after.side_to_move(), mv.to(), occ) & ours).more_than_one() {
                continue;
            }
            let scene = Scene::after(after, mv);
            if piece != Piece::King && ev.threat_at(&scene, mv.to(), landed) > 0 {
                continue;
            }
            fork(&ev, &scene, mv.to(), landed).map_or(0, |f| f.gain)
        } else {
            continue;
        };
        if gain > best.gain {
            best = Answer { gain, takes: crate::agents::counters::captured_square(after, mv) };
        }
    }
    best
}

/// What our legal move `mv` wins on the board now: the piece it takes and its promotion.
pub(crate) fn immediate(pos: &Position, mv: Move) -> i32 {
    let piece = pos.piece_kind_at(mv.from()).unwrap_or(Piece::Pawn);
    pos.captured_piece(mv).map_or(0, value) + mv.promotion().map_or(0, |p| value(p) - value(piece))
}

/// A candidate's worth: what it wins now, less the opponent's best answer; plus what it
/// threatens next that the answer leaves standing: a fork's guaranteed gain (unless the answer
/// takes the forking piece), or a share of a lone threat when they have no winning answer at all.
/// A draw it allows costs our material edge, and a repetition while we are ahead `REPEAT_COST`.
/// `est` is the agents' estimate of the move; `seen` says whether a position occurred in the game.
pub(crate) fn worth(pos: &Position, est: &Estimate, features: Features, seen: &dyn Fn(u64) -> bool) -> i32 {
    let (us, mv) = (pos.side_to_move(), est.mv);
    let after = pos.play(mv);
    if after.legal_moves().is_empty() {
        return if after.is_check() { MATE } else { -material_balance(&after, us) };
    }
    if after.is_insufficient_material() || after.halfmove_clock() >= 100 {
        return -material_balance(&after, us);
    }
    let answer = best_answer(&after, features);
    let mut worth = immediate(pos, mv) - answer.gain;
    match est.fork {
        Some(_) if answer.takes != Some(mv.to()) => worth += est.threat.max(0),
        Some(_) => {}
        None if answer.gain == 0 => worth += est.threat.max(0) * THREAT_SHARE.0 / THREAT_SHARE.1,
        None => {}
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

    fn estimate(p: &Position, uci: &str) -> Estimate {
        let mv = p.parse_uci(uci).unwrap();
        let ev = Eval::new(p, Features::level(9).unwrap());
        ev.estimate(0, &mover(p, mv), mv).0
    }

    fn worth_of(fen: &str, uci: &str) -> i32 {
        let p = pos(fen);
        worth(&p, &estimate(&p, uci), Features::level(9).unwrap(), &|_| false)
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
    fn a_fork_counts_whole_and_their_fork_is_an_answer() {
        // Nd5-c7+ forks king and rook: the rook is as good as won.
        assert_eq!(worth_of("r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1", "d5c7"), 500);
        // Black's knight b4 forks king e1 and rook a1 from c2: a pawn move allows it, moving
        // the rook away does not.
        let fen = "4k3/8/8/8/1n6/8/7P/R3K3 w - - 0 1";
        assert_eq!(worth_of(fen, "h2h3"), -500);
        assert_eq!(worth_of(fen, "a1d1"), 0);
    }

    #[test]
    fn stalemate_costs_the_material_edge() {
        // Qg6 stalemates the king h8; White is a queen up.
        assert_eq!(worth_of("7k/5K2/8/8/8/8/8/6Q1 w - - 0 1", "g1g6"), -900);
    }

    #[test]
    fn a_repetition_costs_only_the_side_ahead() {
        let p = pos("7k/8/5K2/8/8/8/8/5Q2 w - - 0 1");
        let est = estimate(&p, "f1f2");
        let fresh = worth(&p, &est, Features::level(9).unwrap(), &|_| false);
        let repeated = worth(&p, &est, Features::level(9).unwrap(), &|_| true);
        assert_eq!(fresh - repeated, REPEAT_COST);
    }
}
