//! The agents of AgentChess (thesis chapter 2): one [`Agent`] per own piece estimates its
//! threat, moves and attacks; the [`MasterAgent`] polls them, runs the request rounds and
//! decides. What each level does is set by [`Features`] (thesis Table 2.1); docs/agents.md
//! states every rule as implemented.

mod agent;
mod counters;
mod describe;
mod features;
mod master;
mod scene;
pub mod values;

pub use agent::{Action, Agent, Estimate};
pub use counters::{CounterLog, Counters};
pub use features::{FeatureError, Features};
pub use master::{Choice, MasterAgent, Rule, DEFAULT_SEED};
