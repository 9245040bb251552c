//! The agents as a player: a [`MasterAgent`] decides, and its choice becomes a [`Decision`].
//! The agents know nothing of players; this is where the two meet.

use super::level10::{self, Level10};
use super::{Decision, Player};
use crate::agents::{CounterLog, Counters, DEFAULT_SEED, Features, MasterAgent};
use crate::board::Game;

impl Player for MasterAgent {
    fn name(&self) -> String {
        self.title()
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        let pos = game.position();
        let choice = self.choose_in_game(game)?;
        let after = pos.play(choice.mv);
        Some(Decision {
            mv: choice.mv,
            // The agents' own profit values a check like the capture of a king (100,000), which
            // reads as nonsense in a GUI and misleads score-based adjudication; the material
            // after the move is what they know for sure.
            score: crate::board::values::material_balance(&after, pos.side_to_move()),
            mate: after.is_checkmate().then_some(1),
            depth: 1,
            pv: vec![choice.mv],
            reason: choice.reason.to_string(),
            nodes: choice.evaluated as u64,
            multipv: 0,
            tbhits: 0,
        })
    }

    fn set_seed(&mut self, seed: u64) {
        MasterAgent::set_seed(self, seed);
    }

    fn analyst(&self) -> Option<Box<dyn Player>> {
        let features = self.features() | Features::LEVEL_10_PARTS;
        Some(Box::new(Level10::new(features, DEFAULT_SEED, level10::DEFAULT_MB)))
    }

    fn new_game(&mut self) {
        self.reset_counters();
    }

    fn counters(&self) -> Option<Counters> {
        Some(*MasterAgent::counters(self))
    }

    fn counter_log(&self) -> Option<CounterLog> {
        Some(MasterAgent::counter_log(self).clone())
    }
}
