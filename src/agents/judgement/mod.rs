//! How the agents judge a position where level 10's tree stops looking (`agent-leaves`), and
//! what a capture wins by their exchange estimate (the tree's quiescence and move order).
//!
//! A leaf is judged piece by piece, as each agent sees its own: what its square is worth to it
//! (`squares`), the pawn agents their structure and their passed pawns (`pawns`), the knight,
//! bishop, rook and queen agents the squares they can safely use and what kind of square they
//! stand on (`pieces`), the king agent its shelter and the attack on its zone (`king`), and the
//! side to move's agents the threats they stand under by their exchange estimate (`threats`).
//! Every term is a pair of weights, for the middlegame and the endgame, blended by the material
//! left (`score`); drawn endings are scaled toward zero (`scaling`). The weights live in one
//! place (`weights`), fitted to games by `agentchess tune`; `terms` names them, so that
//! `explain` and the tuner see what a leaf got.
//!
//! Beside it, for the thesis's question, the conventional judgement (`Style::Tables`): the
//! same pawn, piece and king terms, but a piece-square table in place of the agents' knowledge
//! of their squares and no exchange estimate of the threats, with weights of its own
//! (`tables`), fitted by the same command on the same positions.

mod king;
mod pawns;
mod pieces;
mod scaling;
pub mod score;
mod squares;
pub mod tables;
pub mod terms;
mod threats;
pub mod weights;

use king::KingCache;
pub use pawns::PawnCache;
pub use score::S;
pub use squares::Placement;
pub use threats::worst_threat;

use super::exchange::exchange_threat;
use super::scene::Scene;
use crate::board::values::{material_balance, value};
use crate::board::{Bitboard, Color, Move, MoveKind, Piece, Position, Square};
use score::{Sink, Sum, Trace, blend, phase};

/// Whose judgement: the agents', or the conventional one with piece-square tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Agents,
    Tables,
}

impl Style {
    /// The weights this style judges with.
    pub fn weights(self) -> &'static [S; terms::COUNT] {
        match self {
            Style::Agents => &weights::WEIGHTS,
            Style::Tables => &tables::WEIGHTS,
        }
    }
}

/// Material alone, from the side to move (thesis Table 2.2).
pub fn material(pos: &Position) -> i32 {
    material_balance(pos, pos.side_to_move())
}

/// The side to move's worst threatened piece and its threat (`worst_threat`), where a
/// judgement worked it out: `None` when it did not (the tables' style has no threat terms).
pub type KnownThreat = Option<Option<(Square, i32)>>;

/// Every term but the pawn structure's (which `PawnCache` keeps), from White's side.
fn terms_beside_structure(pos: &Position, style: Style, passed: [Bitboard; 2], sink: &mut impl Sink) -> KnownThreat {
    squares::material(pos, sink);
    squares::squares(pos, style, sink);
    king::kings_and_pawns(pos, sink);
    terms_beyond_caches(pos, style, passed, sink)
}

/// Every term but those a judge keeps from leaf to leaf (the pawn structure, the pieces'
/// material and squares, the kings' terms of pawns and kings), from White's side.
fn terms_beyond_caches(pos: &Position, style: Style, passed: [Bitboard; 2], sink: &mut impl Sink) -> KnownThreat {
    pawns::passers(pos, passed, sink);
    let (danger, attacked) = pieces::pieces(pos, sink);
    king::kings_beside_pawns(pos, danger, sink);
    let their_attacks = attacked[(!pos.side_to_move()).index()];
    let threat = (style == Style::Agents).then(|| threats::threats(pos, their_attacks, sink));
    sink.side(pos.side_to_move(), terms::TEMPO, 1);
    threat
}

/// The two parts of a White-side score made one number from the side to move.
fn finish(pos: &Position, total: S) -> i32 {
    let strong = if total.1 >= 0 { Color::White } else { Color::Black };
    let white = blend(total, phase(pos), scaling::scale(pos, strong));
    if pos.side_to_move() == Color::White { white } else { -white }
}

/// The agents' judgement of `pos` from the side to move, in centipawns.
pub fn judge(pos: &Position) -> i32 {
    judge_as(pos, Style::Agents)
}

/// `pos` judged in `style`, from the side to move.
pub fn judge_as(pos: &Position, style: Style) -> i32 {
    let mut sum = Sum::new(style.weights());
    let passed = pawns::structure(pos, &mut sum);
    terms_beside_structure(pos, style, passed, &mut sum);
    finish(pos, sum.total)
}

/// The judgement with what it remembers between leaves (the pawn structures met, and the
/// positions judged last): what a tree keeps for its leaves. Judges exactly as `judge_as` in
/// its style.
pub struct Judge {
    style: Style,
    pawns: PawnCache,
    kings: KingCache,
    placement: Placement,
    judged: Vec<Judged>,
}

/// A position judged, by its key: a tree meets the same leaves again in each iteration and
/// through transpositions, and the judgement depends on nothing the key leaves out.
#[derive(Clone, Copy, Default)]
struct Judged {
    key: u64,
    score: i32,
    threat: KnownThreat,
}

const JUDGED_SLOTS: usize = 1 << 15;

impl Judge {
    pub fn new(style: Style) -> Judge {
        Judge {
            style,
            pawns: PawnCache::new(style.weights()),
            kings: KingCache::new(style.weights()),
            placement: Placement::new(style),
            judged: vec![Judged::default(); JUDGED_SLOTS],
        }
    }

    /// What the pieces' material and squares weigh in this judgement's style: the part of a
    /// judgement a tree can keep up to date move by move (`Placement::after`).
    pub fn placement(&self) -> &Placement {
        &self.placement
    }

    /// `judge_as(pos, style)`, the pawn structure looked up when it was met before.
    pub fn judge(&mut self, pos: &Position) -> i32 {
        self.judge_with_threat(pos).0
    }

    /// `judge`, and the worst threat on the side to move where the judgement worked it out
    /// on the way, which a tree asks of the same node next.
    pub fn judge_with_threat(&mut self, pos: &Position) -> (i32, KnownThreat) {
        self.judge_placed(pos, None)
    }

    /// `judge_with_threat`, given what the pieces' material and squares of `pos` weigh
    /// (`placement().sum(pos)`, kept up to date by the caller) when it is known.
    pub fn judge_placed(&mut self, pos: &Position, placed: Option<S>) -> (i32, KnownThreat) {
        let key = pos.hash();
        let slot = (key as usize) & (JUDGED_SLOTS - 1);
        let known = self.judged[slot];
        // A zero key is the empty slot's; such a position is judged every time.
        if known.key == key && key != 0 {
            return (known.score, known.threat);
        }
        debug_assert!(placed.is_none_or(|p| p == self.placement.sum(pos)), "a placement kept wrong");
        let (structure, passed) = self.pawns.structure(pos);
        let mut sum = Sum::new(self.style.weights());
        sum.total = structure + placed.unwrap_or_else(|| self.placement.sum(pos)) + self.kings.score(pos);
        let threat = terms_beyond_caches(pos, self.style, passed, &mut sum);
        let score = finish(pos, sum.total);
        self.judged[slot] = Judged { key, score, threat };
        (score, threat)
    }
}

/// What a leaf got, term by term: the counts (White's less Black's), the phase and the scale
/// of its endgame part, as the tuner fits them and `explain` shows them.
#[derive(Clone, Debug)]
pub struct Traced {
    pub trace: Trace,
    pub phase: i32,
    pub scale: i32,
    pub white_to_move: bool,
}

impl Traced {
    /// The judgement under `weights`, from the side to move (with the style's own weights, what
    /// `judge_as` says).
    pub fn score(&self, weights: &[S]) -> i32 {
        let white = blend(self.trace.score(weights), self.phase, self.scale);
        if self.white_to_move { white } else { -white }
    }
}

/// The agents' judgement of `pos` traced term by term.
pub fn trace(pos: &Position) -> Traced {
    trace_as(pos, Style::Agents)
}

/// The judgement of `pos` in `style` traced term by term.
pub fn trace_as(pos: &Position, style: Style) -> Traced {
    let mut trace = Trace::default();
    let passed = pawns::structure(pos, &mut trace);
    terms_beside_structure(pos, style, passed, &mut trace);
    let total = trace.score(style.weights());
    let strong = if total.1 >= 0 { Color::White } else { Color::Black };
    Traced {
        trace,
        phase: phase(pos),
        scale: scaling::scale(pos, strong),
        white_to_move: pos.side_to_move() == Color::White,
    }
}

/// What each term gave a position in the agents' judgement, from the side to move: its name
/// and centipawns (blended by the phase as the leaf is), the largest first, terms that gave
/// nothing left out. The sum is the judgement, but for rounding.
pub fn breakdown(pos: &Position) -> Vec<(&'static str, i32)> {
    let traced = trace(pos);
    let weights = Style::Agents.weights();
    let sign = if traced.white_to_move { 1 } else { -1 };
    let mut terms: Vec<(&'static str, i32)> = Vec::new();
    for &(at, len, name) in terms::TERMS {
        let part = (at..at + len).fold(S::default(), |acc, i| acc + weights[i] * traced.trace.counts[i]);
        let cp = sign * blend(part, traced.phase, traced.scale);
        if cp != 0 {
            terms.push((name, cp));
        }
    }
    terms.sort_by_key(|&(name, cp)| (std::cmp::Reverse(cp.abs()), name));
    terms
}

/// What the capture or promotion `mv` wins for the side to move when the opponent answers on
/// the square as the agents' exchange estimate expects: what it takes, what the promotion adds,
/// less what the opponent then wins from the piece that took (never more than it, as the
/// opponent need not recapture). Negative: the capture loses material.
pub fn capture_gain(pos: &Position, mv: Move) -> i32 {
    let mover = pos.moving_piece(mv);
    let taken = pos.captured_piece(mv).map_or(0, value);
    let (arrives, promoted) = match (mv.kind(), mv.promotion()) {
        (MoveKind::Promotion, Some(p)) => (p, value(p) - value(Piece::Pawn)),
        _ => (mover, 0),
    };
    let scene = Scene::after(pos, mv);
    taken + promoted - exchange_threat(pos, &scene, mv.to(), arrives)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The threat a judgement hands on is `worst_threat`'s, and its score `judge_as`'s; the
    /// tables' style works none out.
    #[test]
    fn the_threat_handed_on_is_the_worst_threat() {
        for fen in [
            "4k3/8/8/5q2/3N4/1r6/8/K7 b - - 0 1",
            "4k3/8/2r1q3/8/3N4/8/8/K7 b - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let (score, threat) = Judge::new(Style::Agents).judge_with_threat(&pos);
            assert_eq!(score, judge_as(&pos, Style::Agents), "{fen}");
            assert_eq!(threat, Some(worst_threat(&pos)), "{fen}");
            assert_eq!(Judge::new(Style::Tables).judge_with_threat(&pos).1, None, "{fen}");
        }
        let forked = Position::from_fen("4k3/8/8/5q2/3N4/1r6/8/K7 b - - 0 1").unwrap();
        assert_eq!(
            Judge::new(Style::Agents).judge_with_threat(&forked).1,
            Some(Some((Square::parse("f5").unwrap(), 900)))
        );
    }

    fn gain(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        capture_gain(&pos, pos.parse_uci(uci).unwrap())
    }

    #[test]
    fn a_capture_gains_what_the_exchange_leaves() {
        // A free pawn.
        assert_eq!(gain("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100);
        // A pawn defended by a pawn: the queen is lost for it.
        assert_eq!(gain("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100 - 900);
        // A knight for a defended pawn: still a loss.
        assert_eq!(gain("4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"), 100 - 300);
        // Rook takes rook; their rook and then their king take back, our second rook between:
        // a rook for a rook.
        assert_eq!(gain("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 0);
        // With their king far away the second rook wins the exchange.
        assert_eq!(gain("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 500);
    }

    #[test]
    fn a_promotion_gains_the_new_piece() {
        assert_eq!(gain("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 800);
        // Promoting where a rook takes the queen at once wins nothing.
        assert_eq!(gain("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), 800 - 900);
    }

    /// Over WAC and every position one move on: the mirrored position gets every term the other
    /// side got (but the threats: the exchange estimate takes the lower square first among
    /// equal attackers, which a mirror changes); the cached judgement and the trace weighed by
    /// the weights agree with the plain one.
    #[test]
    fn mirrored_cached_and_traced_judgements_agree() {
        for style in [Style::Agents, Style::Tables] {
            let mut judge_cached = Judge::new(style);
            for pos in crate::agents::wac_and_one_move_on() {
                let (here, there) = (trace_as(&pos, style), trace_as(&pos.mirrored(), style));
                for i in (0..terms::COUNT).filter(|&i| i != terms::WORST_THREAT && i != terms::SECOND_THREAT) {
                    let name = terms::term_of(i);
                    assert_eq!(here.trace.counts[i], -there.trace.counts[i], "{name:?} in {}", pos.to_fen());
                }
                let plain = judge_as(&pos, style);
                assert_eq!(plain, judge_cached.judge(&pos), "{}", pos.to_fen());
                assert_eq!(plain, judge_cached.judge(&pos), "judged again: {}", pos.to_fen());
                assert_eq!(plain, here.score(style.weights()), "{}", pos.to_fen());
            }
        }
    }

    /// The breakdown names the terms a position got and adds up to its judgement.
    #[test]
    fn the_breakdown_adds_up() {
        for fen in
            ["r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "8/5k2/3p4/8/2P5/8/4K3/8 b - - 0 1"]
        {
            let pos = Position::from_fen(fen).unwrap();
            let parts = breakdown(&pos);
            let sum: i32 = parts.iter().map(|p| p.1).sum();
            assert!((sum - judge(&pos)).abs() <= parts.len() as i32, "{fen}: {parts:?}");
        }
        let passer = Position::from_fen("8/5k2/1P6/8/8/8/4K3/8 w - - 0 1").unwrap();
        assert!(breakdown(&passer).iter().any(|p| p.0 == "passed pawn (by rank)" && p.1 > 0));
    }

    /// The judgement is the same for both colours in mirrored positions (from the side to move).
    #[test]
    fn the_colours_are_judged_alike() {
        let pairs = [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
            ),
            ("8/5k2/3p4/8/2P5/8/4K3/8 w - - 0 1", "8/4k3/8/2p5/8/3P4/5K2/8 b - - 0 1"),
        ];
        for (a, b) in pairs {
            let (a, b) = (Position::from_fen(a).unwrap(), Position::from_fen(b).unwrap());
            assert_eq!(judge(&a), judge(&b));
        }
    }
}
