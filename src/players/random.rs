//! The random mover: a baseline and a test opponent.

use super::{Decision, Player};
use crate::board::Game;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Plays a uniformly random legal move; a baseline and a test opponent.
pub struct RandomPlayer {
    rng: StdRng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: StdRng::seed_from_u64(seed) }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mv = moves[self.rng.random_range(0..moves.len())];
        let mate = game.position().play(mv).is_checkmate().then_some(1);
        Some(Decision {
            mv,
            score: 0,
            mate,
            depth: 1,
            pv: vec![mv],
            reason: "random".to_string(),
            nodes: 0,
            multipv: 0,
            tbhits: 0,
        })
    }

    fn set_seed(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_player_is_reproducible_and_legal() {
        let game = Game::startpos();
        let a = RandomPlayer::new(7).decide(&game).unwrap();
        let b = RandomPlayer::new(7).decide(&game).unwrap();
        assert_eq!(a, b);
        assert!(game.position().is_legal(a.mv));
    }
}
