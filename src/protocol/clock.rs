//! Time controls and the per-move budget handed to a player.
//!
//! The agents decide in microseconds, so for them this is advisory. A searching player must obey
//! it: `SearchLimits` (defined with the `Player` trait) is what the protocol promises the GUI
//! (st, sd, nps, level and the clocks), turned into one budget per move.

use std::time::Duration;

pub use crate::players::SearchLimits;

/// The time control set by `level` or `st` (or none yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeControl {
    /// No control received: the GUI did not say, so move promptly.
    #[default]
    Unset,
    /// `level MPS BASE INC`: MPS moves in BASE (0 = whole game), INC added after each move.
    Conventional { moves_per_session: u32, base: Duration, increment: Duration },
    /// `st T`: T per move, not accumulating.
    PerMove(Duration),
}

/// Time kept back from every budget for pipes, scheduling and the GUI's own bookkeeping.
/// xboard and cutechess grant no margin by default, so the engine keeps its own.
const OVERHEAD: Duration = Duration::from_millis(50);

/// Moves assumed left in a sudden-death game; larger means more cautious.
const HORIZON: u32 = 30;

/// Budget for one move from a clock reading: `remaining` on our clock, `increment` per move,
/// `moves_to_go` until the next time control (None = sudden death).
///
/// A searcher may run past `soft` up to `hard` (an iteration it cannot cut short), so `hard`
/// alone must be safe: at most a third of what is left. Then every move leaves at least two
/// thirds of the clock, and once the clock is low a move costs less than the increment brings,
/// so the clock settles instead of running out (1 s + 0.01 s games included).
pub fn budget(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> (Duration, Duration) {
    let usable = remaining.saturating_sub(OVERHEAD.min(remaining / 4));
    let mtg = moves_to_go.map_or(HORIZON, |m| m.max(1));
    let soft = (usable / mtg + increment / 2).min(usable / 4);
    let hard = (soft * 3).min(usable / 3);
    (soft, hard.max(soft))
}

/// Budget for `st T`: the whole T minus the margin, since unused time does not carry over.
pub fn per_move_budget(t: Duration) -> (Duration, Duration) {
    let usable = t.saturating_sub(OVERHEAD.min(t / 5));
    (usable * 9 / 10, usable)
}

/// The XBoard-side clock state: what `level`/`st`/`sd`/`nps`/`time`/`otim` said.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub control: TimeControl,
    pub depth: Option<u32>,
    pub nps: Option<u64>,
    /// From `time`: the clock of the side the engine plays.
    pub engine_time: Option<Duration>,
    /// From `otim`.
    pub opponent_time: Option<Duration>,
}

impl Clock {
    /// `new`: clocks and the `sd`/`nps` limits go; the time control stays until the GUI sends
    /// another (xboard and cutechess both resend it for every game anyway).
    pub fn reset_for_new_game(&mut self) {
        self.depth = None;
        self.nps = None;
        self.engine_time = None;
        self.opponent_time = None;
    }

    /// Limits for the engine's next move, given how many moves it has already made in the
    /// current time-control period count (for `level` with MPS > 0).
    pub fn limits(&self, engine_moves_made: u32) -> SearchLimits {
        let (soft, hard) = match self.control {
            TimeControl::Unset => match self.engine_time {
                Some(t) => budget(t, Duration::ZERO, None),
                None => (Duration::from_millis(500), Duration::from_secs(1)),
            },
            TimeControl::PerMove(t) => per_move_budget(t),
            TimeControl::Conventional { moves_per_session, base, increment } => {
                let remaining = self.engine_time.unwrap_or(base);
                let mtg = (moves_per_session > 0).then(|| moves_per_session - engine_moves_made % moves_per_session);
                budget(remaining, increment, mtg)
            }
        };
        let mut limits =
            SearchLimits { soft_time: Some(soft), hard_time: Some(hard), depth: self.depth, ..SearchLimits::default() };
        if let Some(nps) = self.nps.filter(|&n| n > 0) {
            // With nps the GUI measures time in nodes (`st 8` + `nps 10000` = 80 000 nodes).
            let secs = match self.control {
                TimeControl::PerMove(t) => t.as_secs_f64(),
                _ => soft.as_secs_f64(),
            };
            limits.nodes = Some(((nps as f64 * secs) as u64).max(1));
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_plans_past_the_clock() {
        for cs in [0u64, 1, 5, 100, 6000, 8_640_000] {
            let remaining = Duration::from_millis(cs * 10);
            for inc in [0u64, 10, 2000] {
                let (soft, hard) = budget(remaining, Duration::from_millis(inc), None);
                assert!(soft <= hard);
                assert!(hard <= remaining, "{cs} cs, inc {inc}: hard {hard:?}");
            }
        }
    }

    #[test]
    fn one_second_game_with_small_increment() {
        let (soft, hard) = budget(Duration::from_secs(1), Duration::from_millis(10), None);
        assert!(soft < Duration::from_millis(50));
        assert!(hard < Duration::from_millis(200));
    }

    #[test]
    fn moves_to_go_spreads_the_time() {
        let clock = Clock {
            control: TimeControl::Conventional {
                moves_per_session: 40,
                base: Duration::from_secs(60),
                increment: Duration::ZERO,
            },
            engine_time: Some(Duration::from_secs(10)),
            ..Clock::default()
        };
        // 39 moves made: one to go before the clock is refilled, but never more than a quarter.
        let last = clock.limits(39);
        assert_eq!(last.soft_time, Some(Duration::from_micros(2_487_500)));
        let first = clock.limits(0);
        assert!(first.soft_time.unwrap() < Duration::from_millis(300));
    }

    #[test]
    fn nps_turns_time_into_nodes() {
        let clock =
            Clock { control: TimeControl::PerMove(Duration::from_secs(8)), nps: Some(10_000), ..Clock::default() };
        assert_eq!(clock.limits(0).nodes, Some(80_000));
    }
}
