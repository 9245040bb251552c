//! The signal the protocol's reader thread raises to make a long decision end now (`?`, UCI
//! `stop`, `exit`, end of input).

/// Tells a decision in progress to end now. One atomic state, so that a stop meant for one
/// decision can never land on the next: it only turns "thinking" into "stop", and each
/// decision starts from "thinking". `close` is the exception: once the input is gone (end of
/// input, `quit`) every decision from then on is told to stop, whenever it starts.
///
/// Input lines are numbered in the order they arrive. The loop says which line it is handling
/// (`taking`), each decision remembers the line it belongs to, and a stop raised for line `n`
/// only ends a decision begun for an earlier line. Without the numbers the reader thread, which
/// queues a line before raising the stop, could stop the very analysis that line started
/// (`analyze`, UCI `go infinite`) when the loop was quicker than the reader.
#[derive(Clone, Debug, Default)]
pub struct StopSignal(std::sync::Arc<Signal>);

#[derive(Debug, Default)]
struct Signal {
    /// The decision's state in the low byte, the number of the line it belongs to above it.
    state: std::sync::atomic::AtomicU64,
    /// The line the loop is handling now.
    line: std::sync::atomic::AtomicU64,
    /// The last line raised for, open-ended decisions only and any decision: a decision that
    /// begins after a line later than its own was raised for is stopped as it begins, since the
    /// raise found nothing to stop when it came.
    raised_for_analysis: std::sync::atomic::AtomicU64,
    raised_for_any: std::sync::atomic::AtomicU64,
    /// The last line that abandoned the thinking (XBoard `force`, `new`, `result`, ...).
    abandoned_for: std::sync::atomic::AtomicU64,
}

const IDLE: u8 = 0;
/// A decision for a move in a game, within its time.
const THINKING: u8 = 1;
/// An open-ended one: analysis, UCI `go infinite` or `go ponder`.
const ANALYSING: u8 = 2;
const STOP: u8 = 3;
/// The input is closed for good: nothing is thought about at length any more.
const CLOSED: u8 = 4;
/// Thinking on the opponent's time (XBoard `hard`): any line at all ends it.
const PONDERING: u8 = 5;
/// Stopped, and the game it was for is gone: its move must not be played.
const ABANDONED: u8 = 6;

/// What the thinking is doing, as the input side sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// No decision in progress.
    Idle,
    /// A move in a game, within its time.
    Move,
    /// Open-ended: analysis, UCI `go infinite` or `go ponder`.
    Analysis,
    /// On the opponent's time (XBoard `hard`).
    Ponder,
    /// Told to stop (or abandoned), not yet returned.
    Stopping,
    /// The input is gone for good.
    Closed,
}

/// How a decision ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// On its own: its limits, its depth, or a result it cannot improve.
    Completed,
    /// Told to stop by a line (or the input closed): its move is its best so far.
    Stopped,
    /// Told to stop because the game it was for is gone (XBoard `force`, `new`, `result`, ...):
    /// its move must not be played.
    Abandoned,
}

fn pack(state: u8, line: u64) -> u64 {
    (line << 8) | state as u64
}

fn unpack(v: u64) -> (u8, u64) {
    ((v & 0xff) as u8, v >> 8)
}

impl StopSignal {
    /// The loop is handling input line `n` (numbered from 1 in arrival order): decisions begun
    /// from now on belong to it.
    pub fn taking(&self, n: u64) {
        self.0.line.store(n, std::sync::atomic::Ordering::SeqCst);
    }

    /// A decision starts; `open_ended` for analysis. A line after the loop's own that wants
    /// such a decision ended, already raised, ends it at once.
    pub fn begin(&self, open_ended: bool) {
        use std::sync::atomic::Ordering::SeqCst;
        let state = if open_ended { ANALYSING } else { THINKING };
        self.settle(state);
        let line = self.0.line.load(SeqCst);
        let raised = if open_ended { &self.0.raised_for_analysis } else { &self.0.raised_for_any };
        let ending = if self.0.abandoned_for.load(SeqCst) > line {
            ABANDONED
        } else if raised.load(SeqCst) > line {
            STOP
        } else {
            return;
        };
        let _ = self.0.state.fetch_update(SeqCst, SeqCst, |now| {
            let (s, l) = unpack(now);
            (s == state).then_some(pack(ending, l))
        });
    }

    /// Pondering starts: it ends at the next line, whatever it says, or at once when a line is
    /// already `waiting`.
    pub fn begin_pondering(&self, waiting: bool) {
        use std::sync::atomic::Ordering::SeqCst;
        self.settle(PONDERING);
        if waiting {
            let _ = self.0.state.fetch_update(SeqCst, SeqCst, |now| {
                let (s, l) = unpack(now);
                (s == PONDERING).then_some(pack(STOP, l))
            });
        }
    }

    /// The reader has queued input line `n`: pondering ends.
    pub fn queued(&self, n: u64) {
        use std::sync::atomic::Ordering::SeqCst;
        let _ = self.0.state.fetch_update(SeqCst, SeqCst, |now| {
            let (s, l) = unpack(now);
            (s == PONDERING && l < n).then_some(pack(STOP, l))
        });
    }

    /// The decision is over: how it ended.
    pub fn end(&self) -> Ending {
        use std::sync::atomic::Ordering::SeqCst;
        let line = self.0.line.load(SeqCst);
        let was =
            self.0.state.fetch_update(SeqCst, SeqCst, |now| (unpack(now).0 != CLOSED).then_some(pack(IDLE, line)));
        match unpack(was.unwrap_or_else(|closed| closed)).0 {
            ABANDONED => Ending::Abandoned,
            STOP | CLOSED => Ending::Stopped,
            _ => Ending::Completed,
        }
    }

    /// Moves to `state` unless the signal is closed.
    fn settle(&self, state: u8) {
        use std::sync::atomic::Ordering::SeqCst;
        let line = self.0.line.load(SeqCst);
        let _ = self.0.state.fetch_update(SeqCst, SeqCst, |now| (unpack(now).0 != CLOSED).then_some(pack(state, line)));
    }

    /// Asks the decision in progress to end now: any decision when `always`, otherwise only an
    /// open-ended one. Does nothing between decisions.
    pub fn raise(&self, always: bool) {
        self.raise_now(u64::MAX >> 8, always);
    }

    /// `raise` on behalf of input line `n`: a decision that line itself (or a later one)
    /// started is left alone.
    pub fn raise_for_line(&self, n: u64, always: bool) {
        use std::sync::atomic::Ordering::SeqCst;
        self.0.raised_for_analysis.fetch_max(n, SeqCst);
        if always {
            self.0.raised_for_any.fetch_max(n, SeqCst);
        }
        self.raise_now(n, always);
    }

    fn raise_now(&self, n: u64, always: bool) {
        use std::sync::atomic::Ordering::SeqCst;
        let _ = self.0.state.fetch_update(SeqCst, SeqCst, |now| {
            let (state, line) = unpack(now);
            let stoppable = state == ANALYSING || (always && state == THINKING);
            (stoppable && line < n).then_some(pack(STOP, line))
        });
    }

    /// Input line `n` takes away the game the decision in progress is for (XBoard `force`,
    /// `new`, `result`, ...): it stops, and its move is not to be played. A decision that line
    /// itself (or a later one) started is left alone.
    pub fn abandon_for_line(&self, n: u64) {
        use std::sync::atomic::Ordering::SeqCst;
        self.0.abandoned_for.fetch_max(n, SeqCst);
        self.0.raised_for_analysis.fetch_max(n, SeqCst);
        self.0.raised_for_any.fetch_max(n, SeqCst);
        let _ = self.0.state.fetch_update(SeqCst, SeqCst, |now| {
            let (state, line) = unpack(now);
            let stoppable = matches!(state, THINKING | ANALYSING | PONDERING | STOP);
            (stoppable && line < n).then_some(pack(ABANDONED, line))
        });
    }

    /// The input is gone (end of input or `quit`): the decision in progress and any later one
    /// end at once, with what they have (a searcher still completes depth 1).
    pub fn close(&self) {
        self.0.state.store(pack(CLOSED, 0), std::sync::atomic::Ordering::SeqCst);
    }

    pub fn is_raised(&self) -> bool {
        matches!(unpack(self.0.state.load(std::sync::atomic::Ordering::Relaxed)).0, STOP | CLOSED | ABANDONED)
    }

    pub fn is_thinking(&self) -> bool {
        matches!(
            unpack(self.0.state.load(std::sync::atomic::Ordering::Relaxed)).0,
            THINKING | ANALYSING | PONDERING | STOP | ABANDONED
        )
    }

    /// What the thinking is doing now.
    pub fn activity(&self) -> Activity {
        match unpack(self.0.state.load(std::sync::atomic::Ordering::SeqCst)).0 {
            THINKING => Activity::Move,
            ANALYSING => Activity::Analysis,
            PONDERING => Activity::Ponder,
            STOP | ABANDONED => Activity::Stopping,
            CLOSED => Activity::Closed,
            _ => Activity::Idle,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pondering yields to any line, one that was waiting when it began too.
    #[test]
    fn pondering_ends_at_any_line() {
        let signal = StopSignal::default();
        signal.taking(2);
        signal.begin_pondering(false);
        assert!(!signal.is_raised(), "no line since line 2");
        signal.queued(3);
        assert!(signal.is_raised(), "line 3 (say `time`) ends pondering");
        assert_eq!(signal.end(), Ending::Stopped);
        signal.begin_pondering(true);
        assert!(signal.is_raised(), "a line is waiting: no pondering");
        signal.end();
    }

    /// `force`, `new` or `result` during a search: it stops, and says its move is not for
    /// playing; `?` stops it with a move to play. A line queued before the search began counts.
    #[test]
    fn an_abandoned_decision_says_so() {
        let signal = StopSignal::default();
        signal.taking(4);
        signal.begin(false);
        assert_eq!(signal.activity(), Activity::Move);
        signal.abandon_for_line(5);
        assert!(signal.is_raised());
        assert_eq!(signal.activity(), Activity::Stopping);
        assert_eq!(signal.end(), Ending::Abandoned);
        signal.taking(6);
        signal.begin(false);
        signal.raise_for_line(7, true);
        assert_eq!(signal.end(), Ending::Stopped, "`?` stops with a move");
        signal.taking(7);
        signal.begin(true);
        assert_eq!(signal.end(), Ending::Completed);
        signal.abandon_for_line(9);
        signal.taking(8);
        signal.begin(false);
        assert_eq!(signal.end(), Ending::Abandoned, "line 9 came before the search for line 8 began");
        signal.taking(9);
        signal.begin(false);
        assert_eq!(signal.end(), Ending::Completed, "line 9's own search");
        assert_eq!(signal.activity(), Activity::Idle);
    }

    /// A line raised for before the decision it should end has begun still ends it: the reader
    /// may queue `analyze` and `exit` (or our move and the opponent's) before the loop starts
    /// thinking about the first.
    #[test]
    fn a_raise_that_came_before_the_decision_still_ends_it() {
        let signal = StopSignal::default();
        signal.taking(3);
        signal.raise_for_line(4, false);
        signal.begin(true);
        assert!(signal.is_raised(), "analysis begun for line 3 after line 4 asked to end it");
        signal.end();
        signal.begin(false);
        assert!(!signal.is_raised(), "a line that ends analysis does not end a timed decision");
        signal.end();
        signal.raise_for_line(5, true);
        signal.begin(false);
        assert!(signal.is_raised(), "`?` queued behind the line that started the search");
        signal.end();
        signal.taking(5);
        signal.begin(false);
        assert!(!signal.is_raised(), "line 5's own decision is not ended by its raise");
    }

    #[test]
    fn a_closed_signal_stops_every_later_decision() {
        let signal = StopSignal::default();
        signal.begin(false);
        signal.raise(true);
        assert!(signal.is_raised());
        signal.end();
        signal.begin(false);
        assert!(!signal.is_raised(), "a stop must not carry over to the next decision");
        signal.close();
        assert!(signal.is_raised());
        signal.end();
        signal.begin(true);
        assert!(signal.is_raised(), "after close every decision is told to stop");
    }

    /// The line that started a decision cannot stop it, however late the reader raises for it;
    /// a later line can.
    #[test]
    fn a_line_never_stops_the_decision_it_started() {
        let signal = StopSignal::default();
        signal.taking(5);
        signal.begin(true);
        signal.raise_for_line(5, true);
        assert!(!signal.is_raised(), "analysis stopped by the line that began it");
        signal.raise_for_line(4, true);
        assert!(!signal.is_raised());
        signal.raise_for_line(6, false);
        assert!(signal.is_raised());
        signal.end();
        signal.taking(7);
        signal.begin(false);
        signal.raise_for_line(8, false);
        assert!(!signal.is_raised(), "a timed decision ignores a raise meant for analysis");
        signal.raise_for_line(8, true);
        assert!(signal.is_raised());
    }
}
