//! The conventional searcher: the stand-in for the thesis's depth-limited Crafty and for the
//! minimax engine of seed paper 002. Negamax alpha-beta to a fixed depth, then a quiescence
//! search over captures and promotions, with a material-only evaluation. Among root moves whose
//! score lies within `range` centipawns of the best it picks one at random, as paper 002 does.

use crate::board::values;
use crate::board::{Bitboard, Game, MAX_MOVES, Move, MoveKind, MoveList, Piece, Position};
use crate::players::budget::{Budget, Spending};
use crate::players::mate::MateScores;
use crate::players::pv::PvTable;
use crate::players::repetition;
use crate::players::{Decision, Player, SearchLimits};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Material weights; the default is the thesis's Table 2.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Thesis Table 2.2: P 100, N 300, B 350, R 500, Q 900.
    Thesis,
    /// Turing's weights as paper 002 gives them: P 100, N 300, B 350, R 500, Q 1000.
    Turing,
    /// Berliner's: P 100, N 320, B 330, R 510, Q 880.
    Berliner,
}

impl Eval {
    fn weight(self, piece: Piece) -> i32 {
        match self {
            Eval::Thesis => values::value(piece),
            Eval::Turing => [100, 300, 350, 500, 1000, 0][piece.index()],
            Eval::Berliner => [100, 320, 330, 510, 880, 0][piece.index()],
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Eval::Thesis => "thesis",
            Eval::Turing => "turing",
            Eval::Berliner => "berliner",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    pub depth: u32,
    pub eval: Eval,
    /// Root moves within this many centipawns of the best are equally good (random pick).
    pub range: i32,
}

/// Why the settings after `search:` cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchConfigError {
    #[error("expected key=value, got '{0}'")]
    NotKeyValue(String),
    #[error("depth must be 1 to 8, got '{0}'")]
    Depth(String),
    #[error("unknown eval '{0}' (thesis, turing, berliner)")]
    Eval(String),
    #[error("range must be 0 to 10000 centipawns, got '{0}'")]
    Range(String),
    #[error("unknown search option '{0}' (depth, eval, range)")]
    Unknown(String),
}

impl SearchConfig {
    /// Parses the part after `search:`, e.g. `depth=2,eval=turing,range=10`.
    pub fn parse(args: &str) -> Result<SearchConfig, SearchConfigError> {
        let mut cfg = SearchConfig { depth: 1, eval: Eval::Thesis, range: 0 };
        for part in args.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| SearchConfigError::NotKeyValue(part.to_string()))?;
            match k {
                "depth" => {
                    cfg.depth = v
                        .parse()
                        .ok()
                        .filter(|d| (1..=8).contains(d))
                        .ok_or_else(|| SearchConfigError::Depth(v.to_string()))?
                }
                "eval" => {
                    cfg.eval = match v {
                        "thesis" | "material" => Eval::Thesis,
                        "turing" => Eval::Turing,
                        "berliner" => Eval::Berliner,
                        _ => return Err(SearchConfigError::Eval(v.to_string())),
                    }
                }
                "range" => {
                    cfg.range = v
                        .parse()
                        .ok()
                        .filter(|r| (0..=10_000).contains(r))
                        .ok_or_else(|| SearchConfigError::Range(v.to_string()))?
                }
                _ => return Err(SearchConfigError::Unknown(k.to_string())),
            }
        }
        Ok(cfg)
    }
}

/// A root move with its score and the line the search expects after it.
#[derive(Clone)]
struct Scored {
    score: i32,
    mv: Move,
    line: Vec<Move>,
}

const MATE: i32 = 1_000_000;
const INF: i32 = 2_000_000;
/// Scores beyond this are mates; the distance is MATE - |score| plies.
const MATE_BOUND: i32 = MATE - 1000;
/// How a decision reads mates from the scores: those beyond `MATE_BOUND`.
const MATES: MateScores = MateScores { mate: MATE, least: MATE_BOUND + 1 };
/// How deep open-ended analysis goes when nobody stops it (mates and tiny endgames get there).
const MAX_ANALYSIS_DEPTH: u32 = 64;
/// Deeper than any line the search follows: at most `MAX_ANALYSIS_DEPTH` plies, then at most
/// 46 of captures and promotions (30 pieces to take, 16 pawns to promote).
const MAX_PLY: usize = 128;
/// How often the search looks at the clock and the flags, in nodes.
const CHECK_EVERY: u64 = 1024;

pub struct Searcher {
    cfg: SearchConfig,
    rng: StdRng,
    nodes: u64,
    /// Hashes of the game so far and the current search path, for repetition draws.
    path: Vec<u64>,
    /// The budget as the search spends it: once it ran out, the iteration is thrown away.
    budget: Spending,
    /// Depth 1 is searched to its end whatever the limits say: it costs microseconds, and a
    /// move chosen with no look at all (the first one generated) is worse than a late one.
    finishing_first_iteration: bool,
    /// The best line found from the node at each ply of the current path, rebuilt as the
    /// search backs up.
    pv: PvTable<MAX_PLY>,
    /// Raised by the protocol's reader thread when the GUI wants the move now.
    stop: Option<crate::players::StopSignal>,
}

impl Searcher {
    pub fn new(cfg: SearchConfig, seed: u64) -> Searcher {
        Searcher {
            cfg,
            rng: StdRng::seed_from_u64(seed),
            nodes: 0,
            path: Vec::new(),
            budget: Spending::new(CHECK_EVERY),
            finishing_first_iteration: false,
            pv: PvTable::new(),
            stop: None,
        }
    }

    fn material(&self, pos: &Position) -> i32 {
        let us = pos.side_to_move();
        let mut score = 0;
        for piece in &Piece::ALL[..5] {
            let w = self.cfg.eval.weight(*piece);
            score += w * (pos.pieces(us, *piece).count() as i32 - pos.pieces(!us, *piece).count() as i32);
        }
        score
    }

    /// True once the budget ran out, except in the first iteration (which always finishes).
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        !self.finishing_first_iteration && self.budget.spent(self.nodes)
    }

    /// Puts captures and promotions first, the most valuable victim by the cheapest attacker
    /// first; equal keys keep the generator's order. In place and without allocating, as it
    /// runs at every node: an insertion sort, cheap because only the few tactical moves move.
    fn order(&self, pos: &Position, moves: &mut [Move]) {
        // Left unset: zeroing 1 KB at every node cost more than the sort itself.
        let mut keys = [std::mem::MaybeUninit::<i32>::uninit(); MAX_MOVES];
        for i in 0..moves.len() {
            let m = moves[i];
            let victim = pos.captured_piece(m).map_or(0, |p| values::value(p) * 16);
            let attacker = pos.piece_kind_at(m.from()).map_or(0, |p| p.index() as i32);
            let promo = if m.kind() == MoveKind::Promotion { m.promotion().map_or(0, values::value) * 16 } else { 0 };
            let key = if victim + promo > 0 { victim + promo - attacker } else { -1_000_000 };
            let mut j = i;
            // SAFETY: keys[..i] were all written by earlier rounds of this loop.
            while j > 0 && unsafe { keys[j - 1].assume_init() } < key {
                keys[j] = keys[j - 1];
                moves[j] = moves[j - 1];
                j -= 1;
            }
            keys[j].write(key);
            moves[j] = m;
        }
    }

    /// `path` ends with `pos`; one earlier occurrence (same side to move, within the reversible
    /// window) is scored as a draw inside the search, as engines usually do.
    fn is_repetition(&self, pos: &Position) -> bool {
        repetition::earlier(&self.path, pos).next().is_some()
    }

    /// What every node does first: forget its line, stop when out of budget (scored 0, the
    /// result is thrown away), count itself, and score mate or stalemate. `Some` is the node's
    /// score when nothing is left to search; otherwise `moves` holds the legal moves (filled in
    /// place: a move list is 500 bytes, and this runs at every node).
    #[inline]
    fn enter(&mut self, pos: &Position, ply: i32, moves: &mut MoveList) -> Option<i32> {
        self.pv.clear(ply as usize);
        if self.out_of_budget() {
            return Some(0);
        }
        self.nodes += 1;
        pos.generate(moves, Bitboard::FULL);
        if moves.is_empty() {
            return Some(if pos.is_check() { -(MATE - ply) } else { 0 });
        }
        None
    }

    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        let mut moves = MoveList::new();
        if let Some(score) = self.enter(pos, ply, &mut moves) {
            return score;
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        let stand = self.material(pos);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        moves.retain(|m| pos.is_capture(m) || m.kind() == MoveKind::Promotion);
        self.order(pos, moves.as_mut_slice());
        for &m in moves.iter() {
            let score = -self.quiesce(&pos.play(m), -beta, -alpha, ply + 1);
            if score >= beta {
                return score;
            }
            if score > alpha {
                alpha = score;
                self.pv.set(ply as usize, m);
            }
        }
        alpha
    }

    fn negamax(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        let mut moves = MoveList::new();
        if let Some(score) = self.enter(pos, ply, &mut moves) {
            return score;
        }
        if pos.halfmove_clock() >= 100 || pos.is_insufficient_material() || self.is_repetition(pos) {
            return 0;
        }
        if depth == 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        let mut best = -INF;
        self.order(pos, moves.as_mut_slice());
        for &m in moves.iter() {
            let next = pos.play(m);
            self.path.push(next.hash());
            let score = -self.negamax(&next, depth - 1, -beta, -alpha, ply + 1);
            self.path.pop();
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                self.pv.set(ply as usize, m);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Scores the root moves at `depth`: moves within `range` of the best get exact scores,
    /// the others only a bound below that window (they are never picked).
    fn root(&mut self, pos: &Position, depth: u32) -> Option<Vec<Scored>> {
        let mut moves = pos.legal_moves();
        let mut scored = Vec::with_capacity(moves.len());
        let mut best = -INF;
        self.order(pos, moves.as_mut_slice());
        for &m in moves.iter() {
            let next = pos.play(m);
            self.path.push(next.hash());
            let alpha = if best == -INF { -INF } else { best - self.cfg.range - 1 };
            let score = -self.negamax(&next, depth - 1, -INF, -alpha, 1);
            self.path.pop();
            if self.budget.stopped() {
                return None;
            }
            best = best.max(score);
            let mut line = vec![m];
            line.extend_from_slice(self.pv.line(1));
            scored.push(Scored { score, mv: m, line });
        }
        Some(scored)
    }

    /// Best move and its score, by iterative deepening up to the configured depth (or the
    /// limits' depth), keeping the last completed iteration when time runs out.
    pub fn search(&mut self, game: &Game, limits: &SearchLimits) -> Option<Decision> {
        self.search_reporting(game, limits, &mut |_| {})
    }

    /// `search`, telling `progress` the best move, score and line of every completed iteration
    /// (for thinking output while the search runs).
    pub fn search_reporting(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        progress: &mut dyn FnMut(&Decision),
    ) -> Option<Decision> {
        let pos = *game.position();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let start = Instant::now();
        self.nodes = 0;
        self.budget.start(Budget::within(limits, start, self.stop.clone()));
        self.path = game.position_hashes();
        // Open-ended analysis searches on past the configured depth until it is told to stop,
        // as a GUI (or python-chess with a depth limit) expects of an analysing engine.
        let cap = if limits.infinite { MAX_ANALYSIS_DEPTH } else { self.cfg.depth.max(1) };
        let max_depth = limits.depth.map_or(cap, |d| d.clamp(1, cap));
        let mut result: Option<Vec<Scored>> = None;
        let mut completed = 0;
        for depth in 1..=max_depth {
            // A stop is seen between depths too, however small the tree (the search looks only
            // every 1024 nodes).
            if depth > 1 && self.stop.as_ref().is_some_and(|s| s.is_raised()) {
                break;
            }
            self.finishing_first_iteration = depth == 1;
            let iteration = self.root(&pos, depth);
            self.finishing_first_iteration = false;
            match iteration {
                Some(mut scored) => {
                    // `go searchmoves`: only the moves asked for (all when none of them is legal).
                    if scored.iter().any(|s| limits.root_moves.contains(&s.mv)) {
                        scored.retain(|s| limits.root_moves.contains(&s.mv));
                    }
                    if let Some(top) = scored.iter().max_by_key(|s| s.score) {
                        let (mate, score) = MATES.reported(top.score);
                        let reason = format!("iteration {depth}");
                        progress(&Decision {
                            mv: top.mv,
                            score,
                            mate,
                            depth,
                            pv: top.line.clone(),
                            reason,
                            nodes: self.nodes,
                            multipv: 0,
                            tbhits: 0,
                        });
                    }
                    let mates_within = |n: u32| {
                        scored.iter().any(|s| matches!(MATES.moves(s.score), Some(m) if m > 0 && m <= n as i32))
                    };
                    let found = limits.mate.is_some_and(mates_within);
                    result = Some(scored);
                    completed = depth;
                    if found {
                        break;
                    }
                }
                None => break,
            }
            if limits.soft_time.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
        }
        // Depth 1 always completes, so this fallback is only a guard.
        let scored = result.unwrap_or_else(|| vec![Scored { score: 0, mv: moves[0], line: vec![moves[0]] }]);
        let best = scored.iter().map(|s| s.score).max().unwrap_or(0);
        let pool: Vec<&Scored> = scored.iter().filter(|s| s.score >= best - self.cfg.range).collect();
        let Scored { score, mv, line } = pool[self.rng.random_range(0..pool.len())].clone();
        let (mate, shown) = MATES.reported(score);
        let reason = match mate {
            Some(n) if n > 0 => format!("mate in {n}"),
            Some(n) => format!("mated in {}", -n),
            None => format!(
                "score {score:+} at depth {completed}; {} of {} moves within {} cp of the best",
                pool.len(),
                scored.len(),
                self.cfg.range
            ),
        };
        Some(Decision {
            mv,
            score: shown,
            mate,
            depth: completed,
            pv: line,
            reason,
            nodes: self.nodes,
            multipv: 0,
            tbhits: 0,
        })
    }
}

impl Player for Searcher {
    fn name(&self) -> String {
        format!("search:depth={},eval={},range={}", self.cfg.depth, self.cfg.eval.name(), self.cfg.range)
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        self.search(game, &SearchLimits::default())
    }

    fn decide_within(&mut self, game: &Game, limits: &SearchLimits) -> Option<Decision> {
        self.search(game, limits)
    }

    fn decide_reporting(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        progress: &mut dyn FnMut(&Decision),
    ) -> Option<Decision> {
        self.search_reporting(game, limits, progress)
    }

    fn set_seed(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }

    fn watch_stop(&mut self, signal: crate::players::StopSignal) {
        self.stop = Some(signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(fen: &str, spec: &str) -> String {
        let game = Game::new(Position::from_fen(fen).unwrap());
        let mut s = Searcher::new(SearchConfig::parse(spec).unwrap(), 1);
        s.decide(&game).unwrap().mv.to_string()
    }

    #[test]
    fn finds_mate_in_one_at_depth_one() {
        assert_eq!(best("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "depth=1"), "a1a8");
    }

    /// The decision says how deep it looked and how far the mate is, for thinking output.
    #[test]
    fn reports_depth_and_mate_distance() {
        let decide = |fen: &str, spec: &str, limits: SearchLimits| {
            let game = Game::new(Position::from_fen(fen).unwrap());
            Searcher::new(SearchConfig::parse(spec).unwrap(), 1).search(&game, &limits).unwrap()
        };
        let d = decide("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "depth=3", SearchLimits::default());
        assert_eq!((d.mv.to_string().as_str(), d.mate, d.depth), ("a1a8", Some(1), 3));
        // Mate in two (Kf7 Kh7 Rh1#), seen at depth 3; the side to be mated knows it too.
        let d = decide("7k/8/5K2/8/8/8/8/1R6 w - - 0 1", "depth=3", SearchLimits::default());
        assert_eq!(d.mate, Some(2), "{}", d.reason);
        let line: Vec<String> = d.pv.iter().map(|m| m.to_string()).collect();
        assert_eq!(line, ["f6f7", "h8h7", "b1h1"]);
        let d = decide("k7/8/1K6/8/8/8/8/7R b - - 0 1", "depth=2", SearchLimits::default());
        assert_eq!(d.mate, Some(-1), "{}", d.reason);
        let d = decide(
            "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1",
            "depth=4",
            SearchLimits { depth: Some(2), ..Default::default() },
        );
        assert_eq!((d.depth, d.mate), (2, None));
    }

    /// A raised stop flag ends the search at once, with a legal move.
    #[test]
    fn a_stop_flag_ends_the_search() {
        let game = Game::startpos();
        let mut s = Searcher::new(SearchConfig::parse("depth=8").unwrap(), 1);
        let signal = crate::players::StopSignal::default();
        // Between decisions a raise does nothing; a timed decision ignores a raise meant only
        // for analysis; an open-ended one takes it.
        signal.raise(true);
        assert!(!signal.is_raised());
        signal.begin(false);
        signal.raise(false);
        assert!(!signal.is_raised());
        signal.end();
        signal.begin(true);
        signal.raise(false);
        assert!(signal.is_raised());
        s.watch_stop(signal);
        let d = s.search(&game, &SearchLimits { infinite: true, ..Default::default() }).unwrap();
        assert!(game.position().is_legal(d.mv));
        assert!(d.nodes < 1024, "{} nodes after the stop", d.nodes);
    }

    /// A node budget is exact, except that depth 1 always runs to its end: with no budget at
    /// all the searcher still looks one ply (and its quiescence) deep.
    #[test]
    fn a_node_budget_is_exact_beyond_depth_one() {
        let game = Game::new(
            Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap(),
        );
        let depth_one =
            Searcher::new(SearchConfig::parse("depth=1").unwrap(), 1).search(&game, &SearchLimits::default()).unwrap();
        assert!(depth_one.nodes > 1);
        for budget in [0, 1, 100, 1500, 5000, 20_000] {
            let mut s = Searcher::new(SearchConfig::parse("depth=4").unwrap(), 1);
            let d = s.search(&game, &SearchLimits { nodes: Some(budget), ..Default::default() }).unwrap();
            assert!(d.nodes <= budget.max(depth_one.nodes), "{} nodes for a budget of {budget}", d.nodes);
            assert!(d.depth >= 1, "budget {budget}: depth {}", d.depth);
            if budget <= depth_one.nodes {
                assert_eq!((d.mv, d.nodes, d.depth), (depth_one.mv, depth_one.nodes, 1), "budget {budget}");
            }
            assert!(game.position().is_legal(d.mv));
        }
    }

    /// No time at all still buys the depth-1 search, which sees a hanging queen.
    #[test]
    fn depth_one_runs_with_no_time_left() {
        let game = Game::new(Position::from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap());
        let zero = std::time::Duration::ZERO;
        let limits = SearchLimits { soft_time: Some(zero), hard_time: Some(zero), ..Default::default() };
        let d = Searcher::new(SearchConfig::parse("depth=3").unwrap(), 1).search(&game, &limits).unwrap();
        assert_eq!((d.mv.to_string(), d.depth), ("d2d5".to_string(), 1));
        assert!(d.nodes > 1);
    }

    #[test]
    fn takes_a_hanging_queen_and_avoids_a_defended_pawn() {
        assert_eq!(best("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "depth=1"), "d2d5");
        // Qxd6 loses the queen to exd6: quiescence sees the recapture. Whatever the move, the
        // queen is kept: the score is the material as it stands, queen against two pawns.
        let game = Game::new(Position::from_fen("4k3/4p3/3p4/8/8/8/3Q4/4K3 w - - 0 1").unwrap());
        let d = Searcher::new(SearchConfig::parse("depth=1").unwrap(), 1).decide(&game).unwrap();
        assert_ne!(d.mv.to_string(), "d2d6");
        assert_eq!(d.score, values::value(Piece::Queen) - 2 * values::value(Piece::Pawn), "{d:?}");
    }

    #[test]
    fn sees_stalemate_as_a_draw() {
        // Up a queen, the searcher must not stalemate: Qb6 would be stalemate (black king a8).
        // Qb7 mates at once, and a depth-2 search sees it.
        let pos = Position::from_fen("k7/8/2K5/8/8/8/8/1Q6 w - - 0 1").unwrap();
        let d = Searcher::new(SearchConfig::parse("depth=2").unwrap(), 1).decide(&Game::new(pos)).unwrap();
        assert!(!pos.play(d.mv).is_stalemate(), "{d:?}");
        assert_eq!((d.mv.to_string(), d.mate), ("b1b7".to_string(), Some(1)), "{d:?}");
    }

    #[test]
    fn parses_specs() {
        assert_eq!(
            SearchConfig::parse(" depth=3, eval=berliner,range=5"),
            Ok(SearchConfig { depth: 3, eval: Eval::Berliner, range: 5 })
        );
        for (bad, error) in [
            ("depth=0", SearchConfigError::Depth("0".into())),
            ("depth=9", SearchConfigError::Depth("9".into())),
            ("deep=3", SearchConfigError::Unknown("deep".into())),
            ("eval=nobody", SearchConfigError::Eval("nobody".into())),
            ("range=-1", SearchConfigError::Range("-1".into())),
            ("depth", SearchConfigError::NotKeyValue("depth".into())),
        ] {
            assert_eq!(SearchConfig::parse(bad), Err(error), "{bad}");
        }
        assert_eq!(SearchConfig::parse("depth=x").unwrap_err().to_string(), "depth must be 1 to 8, got 'x'");
    }
}
