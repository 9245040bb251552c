//! A candidate's worth: what it wins now, less the opponent's best answer (`answer.rs`), plus
//! what it threatens next that the answer leaves standing, less what a draw or a repetition
//! costs (`weigh_from`); weighed only as far as it can still matter (`Weighed`), from the most
//! it can be worth before any answer (`ceiling_before_answer`).

use super::answer::best_answer;
use super::material::{immediate, leaves_no_mate, may_leave_no_mate, second_dearest};
use crate::agents::agent::{Agent, Estimate};
use crate::agents::features::Features;
use crate::agents::scene::Scene;
use crate::board::values::{material_balance, value};
use crate::board::{Move, Piece, Position, Square};

/// What repeating a position costs while we are ahead by at least a pawn.
pub(crate) const REPEAT_COST: i32 = 200;

/// The share of a lone threat (or a pawn's progress) a candidate keeps when the opponent has no
/// winning answer (numerator, denominator); a fork's guaranteed gain counts whole.
pub(crate) const THREAT_SHARE: (i32, i32) = (1, 2);

/// A candidate's worth: what it wins now, less the opponent's best answer; plus what it
/// threatens next that the answer leaves standing: a fork's guaranteed gain (unless the answer
/// takes the forking piece), or a share of a lone threat when they have no winning answer at all.
/// A draw it allows costs our material edge, and a repetition while we are ahead `REPEAT_COST`.
/// `est` is the agents' estimate of the move; `seen` says whether a position occurred in the game.
/// (The MasterAgent asks `weigh_from`, which may stop short once the worth cannot matter.)
#[cfg(test)]
pub(crate) fn worth(pos: &Position, est: &Estimate, features: Features, seen: &dyn Fn(u64) -> bool) -> i32 {
    weigh(pos, est, features, seen, i32::MIN).value()
}

/// A candidate's worth as far as it is known: exact, or only a ceiling (`Weighed::AtMost`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Weighed {
    Exact(i32),
    AtMost(i32),
}

impl Weighed {
    /// The worth, or the ceiling on it.
    pub(crate) fn value(self) -> i32 {
        match self {
            Weighed::Exact(w) | Weighed::AtMost(w) => w,
        }
    }
}

/// `worth`, when only a worth of `beat` or more matters: once the opponent's answer is known to
/// put the candidate below `beat`, the rest of it is not looked at and the ceiling it leaves is
/// returned. Most candidates lose to the best one on their first losing exchange, before their
/// forks and traps are asked (`pick`).
#[cfg(test)]
pub(crate) fn weigh(
    pos: &Position,
    est: &Estimate,
    features: Features,
    seen: &dyn Fn(u64) -> bool,
    beat: i32,
) -> Weighed {
    weigh_from(pos, est, features, seen, beat, None)
}

/// `weigh`, given what `ceiling_and_before` found the candidate (not a check) wins now and
/// threatens next before any answer, when it was asked: the weighing starts from the same.
pub(crate) fn weigh_from(
    pos: &Position,
    est: &Estimate,
    features: Features,
    seen: &dyn Fn(u64) -> bool,
    beat: i32,
    before: Option<i32>,
) -> Weighed {
    let (us, mv) = (pos.side_to_move(), est.mv);
    let mut after = *pos;
    after.make_move(mv);
    if after.is_insufficient_material() || after.halfmove_clock() >= 100 {
        return Weighed::Exact(-material_balance(&after, us));
    }
    // Where their answer may force a draw (taking our last mating piece), which costs our edge
    // (the more when we are behind), no answer puts the candidate below that.
    // The ceiling is only asked where the answer may stop short (never when weighing in full).
    let edge = -material_balance(&after, us);
    let floor = if may_leave_no_mate(&after, us) { edge } else { i32::MIN };
    let check = after.is_check();
    let ceiling = (floor < beat).then(|| match (check, before) {
        (false, Some(before)) => before,
        (check, _) => ceiling_before_answer(pos, est, check, features),
    });
    let enough = ceiling.map_or(i32::MAX, |c| c.saturating_sub(beat).saturating_add(1));
    // What it threatens counts only when their answer wins nothing, unless it forks: any
    // winning answer leaves a move that does not fork what it wins now, less that answer.
    let plain = (est.fork().is_none() && !check).then(|| immediate(pos, mv));
    let enough = match plain {
        Some(now) if ceiling.is_some() => enough.min(now.saturating_sub(beat).saturating_add(1).max(1)),
        _ => enough,
    };
    let answer = best_answer(pos, est, &after, check, features, enough);
    if let Some(ceiling) = ceiling
        && answer.gain >= enough
    {
        let ceiling = match plain {
            Some(now) if answer.gain > 0 => now.min(ceiling),
            _ => ceiling,
        };
        return Weighed::AtMost((ceiling - answer.gain).max(floor));
    }
    if answer.takes.is_some_and(|sq| leaves_no_mate(&after, sq, us)) {
        // Their answer takes the last piece we could mate with: the game is a draw.
        return Weighed::Exact(edge);
    }
    let mut worth = immediate(pos, mv) - answer.gain;
    if check {
        // The replies to a check were followed one step further: what it wins is counted.
        return Weighed::Exact(worth - repeat_cost(pos, &after, seen));
    }
    // Two winning captures after the move, by any of our pieces (a fork, a discovered attack,
    // a battery), cannot both be parried: the second is as good as won. Asked only where it
    // counts, as it costs an exchange on every piece of theirs we attack.
    let double = || if features.has(Features::FORK) { double_threat(pos, mv) } else { 0 };
    match est.fork() {
        Some(_) if answer.takes != Some(mv.to()) && !trades_evenly(pos, &Scene::after(pos, mv), mv.to()) => {
            worth += est.threat.max(0).max(double())
        }
        Some(_) => {}
        None if answer.gain == 0 => match double() {
            double if double > 0 => worth += double,
            _ => worth += est.threat.max(0) * THREAT_SHARE.0 / THREAT_SHARE.1,
        },
        None => {}
    }
    Weighed::Exact(worth - repeat_cost(pos, &after, seen))
}

/// The most a candidate can be worth before the opponent's answer (`after` is the position
/// after it): what it wins now, and unless it checks (then every reply may lose them material,
/// and nothing short of a mate is a ceiling) what it threatens next at most: its own threat
/// (only its share, `THREAT_SHARE`, unless it forks), or the second of its double threats,
/// which never wins more than the second dearest piece of theirs it attacks.
fn ceiling_before_answer(pos: &Position, est: &Estimate, check: bool, features: Features) -> i32 {
    if check {
        return immediate(pos, est.mv);
    }
    quiet_ceiling(pos, est, &Scene::after(pos, est.mv), features)
}

/// `ceiling_before_answer` of a candidate that does not check, `scene` being the board after it.
pub(super) fn quiet_ceiling(pos: &Position, est: &Estimate, scene: &Scene, features: Features) -> i32 {
    let double = if features.has(Features::FORK) { double_ceiling(pos, scene) } else { 0 };
    let threat = match est.fork() {
        Some(_) => est.threat.max(0),
        None => est.threat.max(0) * THREAT_SHARE.0 / THREAT_SHARE.1,
    };
    immediate(pos, est.mv) + threat.max(double)
}

/// The most `double_threat` can be: the second dearest of their pieces (not the king) that we
/// attack in `scene` (after our move), since an exchange never wins more than the piece taken
/// first.
fn double_ceiling(pos: &Position, scene: &Scene) -> i32 {
    let us = pos.side_to_move();
    let attacked = scene.theirs & !pos.pieces(!us, Piece::King) & scene.our_attacks(pos);
    second_dearest(pos, attacked)
}

/// What our second-best winning capture is worth after our move `mv`: the gain of every
/// capture we could then make, each by the whole exchange on its square, the best one being the
/// one the opponent will parry.
fn double_threat(pos: &Position, mv: Move) -> i32 {
    let scene = Scene::after(pos, mv);
    let us = pos.side_to_move();
    // Each threat with the square of the piece that would capture first.
    // Only the pieces of theirs that we attack can be taken (`our_attacks`, one attack map
    // instead of their attackers asked piece by piece), and fewer than two leave no second.
    let attacked = scene.theirs & !pos.pieces(!us, Piece::King) & scene.our_attacks(pos);
    if !attacked.more_than_one() {
        return 0;
    }
    let (mut best, mut second) = ((0, None), (0, None));
    for target in attacked {
        let victim = pos.piece_on(target);
        // The exchange never wins more than the piece taken first: one worth no more than the
        // second threat so far can change neither of the two.
        if value(victim) <= second.0 {
            continue;
        }
        let attackers = scene.our_attackers(pos, target);
        if attackers.is_empty() {
            continue;
        }
        let gain = crate::agents::exchange::swap(pos, &scene, target, value(victim), us);
        let first = attackers.into_iter().min_by_key(|&a| scene.kind_at(pos, a).map_or(0, value));
        if gain > best.0 {
            second = best;
            best = (gain, first);
        } else if gain > second.0 {
            second = (gain, first);
        }
    }
    // A piece making one of the threats that they can take in an even trade is no threat left
    // standing: the trade is their answer to both.
    let traded = |sq: Option<Square>| sq.is_some_and(|sq| trades_evenly(pos, &scene, sq));
    if traded(best.1) || traded(second.1) { 0 } else { second.0 }
}

/// Can they take our piece on `sq` in `scene` without losing on the exchange (an even trade
/// at least)? A threat made by that piece does not stand after their answer.
fn trades_evenly(pos: &Position, scene: &Scene, sq: Square) -> bool {
    let piece = scene.piece_on(pos, sq);
    piece != Piece::King
        && scene.their_attackers(pos, sq).any()
        && crate::agents::exchange::swap(pos, scene, sq, value(piece), !scene.us()) >= 0
}

/// Does our move `mv` lead back to a position of the game (`seen`) while we are ahead, which
/// `repeat_cost` charges?
pub(crate) fn repeats_while_ahead(pos: &Position, mv: Move, seen: &dyn Fn(u64) -> bool) -> bool {
    repeat_cost(pos, &pos.play(mv), seen) > 0
}

/// What repeating a position costs: `REPEAT_COST` when we are a pawn or more ahead after the
/// move and the position after it has occurred before.
fn repeat_cost(pos: &Position, after: &Position, seen: &dyn Fn(u64) -> bool) -> i32 {
    let ahead = material_balance(after, pos.side_to_move()) >= value(Piece::Pawn);
    if ahead && seen(after.hash()) { REPEAT_COST } else { 0 }
}

/// The agent standing on `mv`'s square, for estimating one move without its threat.
pub(crate) fn mover(pos: &Position, mv: Move) -> Agent {
    Agent { square: mv.from(), piece: pos.moving_piece(mv), threat: 0 }
}

#[cfg(test)]
mod tests {
    use super::super::final_check::{MATE, final_check};
    use super::*;
    use crate::agents::eval::Eval;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// Level 9 without `placement`, so that the worths below are material alone.
    fn level9_material() -> Features {
        Features::level(9).unwrap().without(Features::PLACEMENT)
    }

    fn estimate(p: &Position, uci: &str) -> Estimate {
        let mv = p.parse_uci(uci).unwrap();
        let ev = Eval::new(p, level9_material());
        ev.estimate(0, &mover(p, mv), mv).0
    }

    /// A candidate's worth as the MasterAgent finally sees it (the final check included).
    fn worth_of(fen: &str, uci: &str) -> i32 {
        let p = pos(fen);
        let est = estimate(&p, uci);
        let features = level9_material();
        final_check(&p, est.mv, features).unwrap_or_else(|| worth(&p, &est, features, &|_| false))
    }

    #[test]
    fn figure_4_1_the_rook_that_takes_the_knight_is_taken() {
        // Rd5xd6 uncovers the black rook d2: the knight is won and the rook lost.
        assert_eq!(worth_of("7k/8/3n4/3R4/8/8/3r4/7K w - - 0 1", "d5d6"), 300 - 500);
        // Taking the pawn a5 instead keeps the rook.
        assert!(
            worth_of("7k/8/3n4/p2R4/8/8/3r4/7K w - - 0 1", "d5a5")
                > worth_of("7k/8/3n4/p2R4/8/8/3r4/7K w - - 0 1", "d5d6")
        );
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
    fn a_move_that_lets_them_mate_in_three_by_checks_is_next_to_worst() {
        // Rf1? lets the rooks mate: Rxg2+ Kh1 Rh2+ Kg1 Rbg2#. Nc6 leaves them no mate.
        let fen = "6k1/p6p/1p4p1/8/3NP2P/P1P5/1r3rP1/R5K1 w - - 4 30";
        assert_eq!(worth_of(fen, "a1f1"), -MATE + 2);
        assert!(worth_of(fen, "d4c6") > -MATE + 2);
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
    fn a_double_threat_by_a_piece_they_can_trade_is_no_threat() {
        // WAC.038: Rd2-c2 opens the queen's line to e1, so Qc3 attacks the queen e1 and the rook
        // g7; but the queen e1 takes the queen c3 (Rxc3 back): the trade answers both threats.
        let fen = "4k3/p4prp/1p6/2b5/8/2Q3P1/P2R1PKP/4q3 w - - 0 1";
        assert_eq!(worth_of(fen, "d2c2"), 0);
        assert_eq!(worth_of("4Q3/p2r1pkp/2q3p1/8/2B5/1P6/P4PRP/4K3 b - - 0 1", "d7c7"), 0);
        // Nc7+ still forks king and rook: a knight they cannot take keeps its fork.
        assert_eq!(worth_of("r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1", "d5c7"), 500);
    }

    #[test]
    fn a_check_met_by_a_block_that_hits_back_wins_nothing() {
        // Qd1-a4+ Bc8-d7: cxd5 would win a pawn, but the bishop that blocked attacks the queen,
        // and taking leaves it to Bxa4 (a game against Stockfish at depth 1). Both colours.
        assert_eq!(worth_of("r1bqkb1r/pp2ppp1/n4n2/2pp3p/2P5/2N2P2/PP1PP1PP/R1BQKBNR w KQkq - 0 2", "d1a4"), 0);
        assert_eq!(worth_of("r1bqkbnr/pp1pp1pp/2n2p2/2p5/2PP3P/N4N2/PP2PPP1/R1BQKB1R b KQkq - 0 2", "d8a5"), 0);
        // With no bishop to block (it stands on e6), the check still wins the pawn: Bd7 is
        // gone, and every block (Qd7, Nd7) leaves d5 to cxd5 without a blow back worth more.
        assert!(worth_of("r2qkb1r/pp2ppp1/n3bn2/2pp3p/2P5/2N2P2/PP1PP1PP/R1BQKBNR w KQkq - 0 2", "d1a4") >= 0);
    }

    #[test]
    fn a_piece_a_pawn_can_trap_is_not_put_there() {
        // Be7-h4? g7-g5 and the bishop has no square (g3 is ours, g5 is guarded by h6): it is
        // lost for the pawn (Bxg5 hxg5). Be7-d6 is safe.
        let fen = "6k1/4B1p1/7p/8/8/6P1/5P2/6K1 w - - 0 1";
        assert_eq!(worth_of(fen, "e7h4"), 100 - 350);
        assert_eq!(worth_of(fen, "e7d6"), 0);
        // With the g3 pawn gone, the bishop steps back to g3: no trap.
        assert_eq!(worth_of("6k1/4B1p1/7p/8/8/8/5P2/6K1 w - - 0 1", "e7h4"), 0);
        // Mirrored colours.
        let mirrored = "6k1/5p2/6p1/8/8/7P/4b1P1/6K1 b - - 0 1";
        assert_eq!(worth_of(mirrored, "e2h5"), 100 - 350);
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
        let fresh = worth(&p, &est, level9_material(), &|_| false);
        let repeated = worth(&p, &est, level9_material(), &|_| true);
        assert_eq!(fresh - repeated, REPEAT_COST);
    }
}
