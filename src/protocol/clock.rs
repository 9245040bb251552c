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
/// xboard and cutechess grant no margin by default, so the engine keeps its own (half the
/// clock when less than a tenth of a second is left). It is also what a late reply, a busy
/// machine's scheduling, may take without losing the game: at 1 s + 0.01 s the clock settles
/// where a thirtieth of what is left above the margin and most of the increment is what a move
/// spends, about 125 ms, of which the margin is 50. A GUI or bot may set another (the option
/// `Move Overhead`, in both protocols), as lichess-bot users do for their lag.
pub const OVERHEAD: Duration = Duration::from_millis(50);

/// The largest `Move Overhead` taken, in milliseconds.
pub const MAX_OVERHEAD_MS: u64 = 5_000;

/// Moves assumed left in a sudden-death game; larger means more cautious.
const HORIZON: u32 = 30;

/// Moves to go counted at most (a control of 100 moves is spent as if 50 were left).
const MAX_HORIZON: u32 = 50;

/// Budget for one move from a clock reading: `remaining` on our clock, `increment` per move,
/// `moves_to_go` until the next time control (None = sudden death). Returns the time to aim
/// for (`soft`) and the most the move may take (`hard`).
///
/// The aim is a fair share of what is left (about remaining/30 in sudden death, remaining over
/// the moves to go otherwise) plus three quarters of the increment. A player may run past the
/// aim (an iteration it cannot cut short, or a best move that keeps changing) up to `hard`, so
/// `hard` alone must be safe: at most a third of what is left, or three quarters on the last
/// move before the clock is refilled. Then a move never empties the clock, and once it is low a
/// move costs less than the increment brings, so the clock settles instead of running out. The
/// aim stays at most half the most: a player that found its move early still stops (an aim
/// equal to the most would be a fixed time a move, spent whole).
pub fn budget(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> (Duration, Duration) {
    budget_with(remaining, increment, moves_to_go, OVERHEAD)
}

/// [`budget`] with `overhead` kept back in place of [`OVERHEAD`].
pub fn budget_with(
    remaining: Duration,
    increment: Duration,
    moves_to_go: Option<u32>,
    overhead: Duration,
) -> (Duration, Duration) {
    let usable = remaining.saturating_sub(overhead.min(remaining / 2));
    let horizon = moves_to_go.map_or(HORIZON, |m| m.clamp(1, MAX_HORIZON));
    let ceiling = if horizon == 1 { usable * 3 / 4 } else { usable / 3 };
    let soft = (usable / horizon + increment * 3 / 4).min(ceiling / 2);
    let hard = (soft * 4).min(ceiling);
    (soft, hard.max(soft))
}

/// Budget for `st T` (UCI `movetime`): all of T minus the margin, aimed at and allowed alike,
/// since time not used does not carry over.
pub fn per_move_budget(t: Duration) -> (Duration, Duration) {
    per_move_budget_with(t, OVERHEAD)
}

/// [`per_move_budget`] with `overhead` kept back in place of [`OVERHEAD`].
pub fn per_move_budget_with(t: Duration, overhead: Duration) -> (Duration, Duration) {
    let usable = t.saturating_sub(overhead.min(t / 5));
    (usable, usable)
}

/// The XBoard-side clock state: what `level`/`st`/`sd`/`nps`/`time`/`otim` said, and the
/// margin kept back from every move (the option `Move Overhead`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub control: TimeControl,
    pub depth: Option<u32>,
    pub nps: Option<u64>,
    /// From `time`: the clock of the side the engine plays.
    pub engine_time: Option<Duration>,
    /// From `otim`.
    pub opponent_time: Option<Duration>,
    pub overhead: Duration,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            control: TimeControl::default(),
            depth: None,
            nps: None,
            engine_time: None,
            opponent_time: None,
            overhead: OVERHEAD,
        }
    }
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

    /// The time for one move under `st T`. The protocol's `st` counts whole seconds, so a GUI
    /// with a shorter move time sends what it can: cutechess-cli's `st=0.1` arrives as `st 0`,
    /// with `time 10` before every move. The clock the GUI reports is what it will enforce, so
    /// it rules when it is shorter than T or when T is zero.
    fn move_time(&self, t: Duration) -> Duration {
        match self.engine_time {
            Some(left) if t.is_zero() || left < t => left,
            _ => t,
        }
    }

    /// Limits for the engine's next move, given how many moves it has already made in the
    /// current time-control period count (for `level` with MPS > 0).
    pub fn limits(&self, engine_moves_made: u32) -> SearchLimits {
        let (soft, hard) = match self.control {
            TimeControl::Unset => match self.engine_time {
                Some(t) => budget_with(t, Duration::ZERO, None, self.overhead),
                None => (Duration::from_millis(500), Duration::from_secs(1)),
            },
            TimeControl::PerMove(t) => per_move_budget_with(self.move_time(t), self.overhead),
            TimeControl::Conventional { moves_per_session, base, increment } => {
                let remaining = self.engine_time.unwrap_or(base);
                let mtg = (moves_per_session > 0).then(|| moves_per_session - engine_moves_made % moves_per_session);
                budget_with(remaining, increment, mtg, self.overhead)
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

    /// Sudden death: about a thirtieth of the clock plus three quarters of the increment, and
    /// up to four times that when the player needs it.
    #[test]
    fn a_thirtieth_of_the_clock_and_most_of_the_increment() {
        let ms = Duration::from_millis;
        let (soft, hard) = budget(ms(10_050), ms(100), None);
        assert_eq!(soft, ms(10_000) / 30 + ms(75));
        assert_eq!(hard, soft * 4);
        // Moves to go share the clock among them; the last one may use three quarters, and
        // aims at half of that.
        assert_eq!(budget(ms(20_050), ms(0), Some(40)).0, ms(500));
        assert_eq!(budget(ms(20_050), ms(0), Some(1)), (ms(7_500), ms(15_000)));
        // Many moves to go are counted as fifty.
        assert_eq!(budget(ms(50_050), ms(0), Some(200)).0, ms(1_000));
        // Near the end of the clock the margin shrinks with it and the increment carries, the
        // aim staying below the most a move may take.
        let (soft, hard) = budget(ms(300), ms(100), None);
        assert!(soft >= ms(40) && soft < hard && hard <= ms(90), "{soft:?} {hard:?}");
    }

    /// However the clock stands, the aim is below the most a move may take (equal, a player
    /// reads it as a fixed time a move and spends it whole).
    #[test]
    fn the_aim_stays_below_the_most() {
        let ms = Duration::from_millis;
        for left in [ms(20), ms(100), ms(300), ms(1_000), ms(60_000)] {
            for inc in [ms(0), ms(10), ms(100), ms(1_000), ms(5_000)] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let (soft, hard) = budget(left, inc, mtg);
                    assert!(soft < hard || hard.is_zero(), "{left:?} + {inc:?}, {mtg:?}: {soft:?} {hard:?}");
                }
            }
        }
    }

    #[test]
    fn a_move_time_is_used_whole() {
        let (soft, hard) = per_move_budget(Duration::from_millis(500));
        assert_eq!((soft, hard), (Duration::from_millis(450), Duration::from_millis(450)));
    }

    /// At 1 s + 0.01 s a move that spends its aim leaves the clock where it settles with the
    /// margin whole, and one that spends its most leaves it above the margin.
    #[test]
    fn a_low_clock_keeps_its_margin() {
        let ms = Duration::from_millis;
        let inc = ms(10);
        let mut clock = ms(1000);
        for _ in 0..400 {
            clock = clock - budget(clock, inc, None).0 + inc;
        }
        assert!(clock >= ms(110) && clock <= ms(140), "settles at {clock:?}");
        for left in [ms(60), ms(100), ms(125), ms(200)] {
            let (_, hard) = budget(left, inc, None);
            assert!(left - hard >= OVERHEAD.min(left / 2), "{left:?}: hard {hard:?}");
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
        // 39 moves made: one to go before the clock is refilled: three quarters of it at most,
        // half that as the aim.
        let last = clock.limits(39);
        assert_eq!(last.hard_time, Some(Duration::from_micros(7_462_500)));
        assert_eq!(last.soft_time, Some(Duration::from_micros(3_731_250)));
        let first = clock.limits(0);
        assert!(first.soft_time.unwrap() < Duration::from_millis(300));
    }

    /// `st 0` (cutechess-cli's `st=0.1`, whole seconds rounded down) with `time 10`: a tenth
    /// of a second a move, not an instant move; the reported clock also caps a longer `st`.
    #[test]
    fn a_move_time_below_a_second_comes_from_the_clock() {
        let ms = Duration::from_millis;
        let with = |st: Duration, time: Option<Duration>| {
            let clock = Clock { control: TimeControl::PerMove(st), engine_time: time, ..Clock::default() };
            let limits = clock.limits(0);
            (limits.soft_time.unwrap(), limits.hard_time.unwrap())
        };
        assert_eq!(with(ms(0), Some(ms(100))), per_move_budget(ms(100)));
        assert!(with(ms(0), Some(ms(100))).1 > ms(50));
        assert_eq!(with(ms(5_000), Some(ms(3_000))), per_move_budget(ms(3_000)));
        assert_eq!(with(ms(2_000), Some(ms(9_000))), per_move_budget(ms(2_000)));
        assert_eq!(with(ms(2_000), None), per_move_budget(ms(2_000)));
    }

    /// A larger `Move Overhead` leaves more on the clock after every move, and never lets a
    /// move run past it.
    #[test]
    fn a_move_overhead_is_kept_back() {
        let ms = Duration::from_millis;
        let (soft, hard) = budget_with(ms(10_000), ms(100), None, ms(1_000));
        assert_eq!(soft, ms(9_000) / 30 + ms(75));
        assert!(hard <= ms(3_000), "{hard:?}");
        assert!(budget_with(ms(10_000), ms(100), None, ms(1_000)).0 < budget(ms(10_000), ms(100), None).0);
        assert_eq!(per_move_budget_with(ms(1_000), ms(150)), (ms(850), ms(850)));
        let clock = Clock { control: TimeControl::PerMove(ms(1_000)), overhead: ms(150), ..Clock::default() };
        assert_eq!(clock.limits(0).hard_time, Some(ms(850)));
        assert_eq!(Clock::default().overhead, OVERHEAD);
    }

    #[test]
    fn nps_turns_time_into_nodes() {
        let clock =
            Clock { control: TimeControl::PerMove(Duration::from_secs(8)), nps: Some(10_000), ..Clock::default() };
        assert_eq!(clock.limits(0).nodes, Some(80_000));
    }
}
