//! The agents of AgentChess (thesis chapter 2): one [`Agent`] per own piece estimates its
//! threat, moves and attacks; the [`MasterAgent`] polls them, runs the request rounds and
//! decides. What each level does is set by [`Features`] (thesis Table 2.1); docs/agents.md
//! states every rule as implemented.
//!
//! Levels 1-8 are the thesis's (`agent.rs`, with the estimator context in `eval.rs`,
//! `scene.rs`, `master/`). Level 9's rules, the thesis's future work, each live in a module
//! named after their feature: `exchange`, `fork`, `mating`, `promotion`, `look_ahead`,
//! `placement`, and `defense_balance` (in `agent.rs`, beside the defense request it restricts).
//! Level 9's limits (candidates, reply caps, budgets, depths) are gathered in `limits.rs`. The
//! words for reasons and explain mode are in `describe.rs`, the per-game counters in
//! `counters.rs`.

mod agent;
mod counters;
mod critique;
mod describe;
mod eval;
mod exchange;
mod features;
mod fork;
pub mod judgement;
mod limits;
mod look_ahead;
mod master;
mod mating;
mod placement;
mod promotion;
mod scene;
pub mod variety;

pub use agent::{Action, Agent, Estimate};
pub use counters::{CounterLog, Counters};
pub use critique::{Critique, Hindsight, Motif, critique};
pub use features::{FeatureError, Features};
pub use judgement::{Judge, Traced, breakdown, capture_gain, judge, material, trace, worst_threat};
pub use master::{Choice, DEFAULT_SEED, MasterAgent, Reason, Rule};

/// The positions of an EPD text, for the agents' tests over the suites (see the board's).
#[cfg(test)]
pub(crate) use crate::board::epd_positions;

/// The WAC positions and those after each of their legal moves, for the agents' tests.
#[cfg(test)]
pub(crate) fn wac_and_one_move_on() -> Vec<crate::board::Position> {
    let wac = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wac.epd"));
    let mut positions = Vec::new();
    for p in crate::agents::epd_positions(wac) {
        positions.extend(p.legal_moves().iter().map(|&mv| p.play(mv)));
        positions.push(p);
    }
    positions
}
