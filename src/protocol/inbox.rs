//! The lines read and not yet handled, and the few the engine answers at once while it thinks.
//!
//! The loop handles lines one at a time, and a search runs inside the handling of the line
//! that started it. Most lines that arrive meanwhile wait for it (a move queued by a script
//! behind `go`), some end it (`?`, `stop`, `exit`, a move in analysis), and a few are answered
//! by the reader thread at once, the search going on: UCI `isready` whenever the engine
//! searches, and during analysis or pondering XBoard `ping` and any line that is no command at
//! all (both protocols say so: a GUI that pings an analysing engine and hears nothing decides it
//! hung). Sorting a line and beginning a search happen under one lock, so a line can never slip
//! in between and wait behind a search that has no end of its own.

use super::command::Command;
use super::engine::{Interrupt, Thinking};
use super::response::Response;
use super::uci::{UciCommand, UciParseError, UciResponse};
use crate::players::Activity;
use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Which protocol the session speaks: the first line that is not blank decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Xboard,
    Uci,
}

impl Protocol {
    /// The protocol a session whose first non-blank line is `first` speaks.
    pub fn of_first(first: &str) -> Protocol {
        if first.trim() == "uci" { Protocol::Uci } else { Protocol::Xboard }
    }
}

/// What a line that arrives while the engine thinks means for the thinking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgency {
    /// The input ends (`quit`): stop thinking now and never think at length again.
    Closing,
    /// Move now: `?`, UCI `stop`, `ponderhit`, ...
    Now,
    /// The game the engine thinks about is gone (XBoard `force`, `new`, `result`, `undo`,
    /// `remove`, `setboard`, `edit`): stop, and play no move.
    Abandon,
    /// Ends open-ended thinking (analysis) but not a move in a game: in analysis a move or a new
    /// position means "analyse this instead", while in a game a line queued behind `go` by a
    /// script must not cut the search short.
    EndsAnalysis,
    /// Waits for the thinking to end: clock updates, display toggles, options.
    InPassing,
}

/// What becomes of a line as it arrives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sorted {
    /// Answered at once with this line, by the reader; the session never sees it.
    Answer(String),
    /// Waits for the session, doing `urgency` to a search in progress. `silent`: handling it
    /// writes nothing, so a line answered at once may overtake it.
    Queue { urgency: Urgency, silent: bool },
}

/// Sorts a line: `activity` is what the thinking does, `loud_waiting` whether a line that
/// writes something waits before this one.
pub fn sort(protocol: Protocol, line: &str, activity: Activity, loud_waiting: bool) -> Sorted {
    match protocol {
        Protocol::Uci => sort_uci(line, activity),
        Protocol::Xboard => sort_xboard(line, activity, loud_waiting),
    }
}

fn queue(urgency: Urgency, silent: bool) -> Sorted {
    Sorted::Queue { urgency, silent }
}

/// UCI answers `isready` at once whenever it searches ("without stopping the search"), and a
/// line that is no command is ignored as the protocol asks, with an `info string` saying so.
/// Only the lines that replace the search end it: nothing else is allowed during a search, and
/// a GUI's stray `setoption` waits for the search's end instead of ending it.
fn sort_uci(line: &str, activity: Activity) -> Sorted {
    let searching = matches!(activity, Activity::Move | Activity::Analysis);
    match UciCommand::parse(line) {
        Ok(None) => queue(Urgency::InPassing, true),
        Ok(Some(UciCommand::IsReady)) if searching => Sorted::Answer(UciResponse::ReadyOk.to_string()),
        Ok(Some(UciCommand::Quit)) => queue(Urgency::Closing, false),
        Ok(Some(UciCommand::Stop | UciCommand::PonderHit | UciCommand::UciNewGame)) => queue(Urgency::Now, false),
        Ok(Some(UciCommand::Position { .. } | UciCommand::Go(_))) | Err(UciParseError::BadPosition(_)) => {
            queue(Urgency::EndsAnalysis, false)
        }
        Ok(Some(UciCommand::Debug(_) | UciCommand::Register)) => queue(Urgency::InPassing, true),
        Ok(Some(_)) | Err(UciParseError::NoOptionName(_)) => queue(Urgency::InPassing, false),
        Err(e @ UciParseError::UnknownCommand(_)) if searching => {
            Sorted::Answer(UciResponse::InfoString(e.to_string()).to_string())
        }
        Err(UciParseError::UnknownCommand(_)) => queue(Urgency::InPassing, false),
    }
}

/// XBoard answers `ping` at once while analysing or pondering ("reply immediately and keep
/// pondering"); during a search for its own move it answers after the move. A line that is no
/// command gets its error at once in the same cases, the analysis going on. Either only when no
/// line that writes something waits before it, so that replies keep the order of the lines.
fn sort_xboard(line: &str, activity: Activity, loud_waiting: bool) -> Sorted {
    let open_ended = matches!(activity, Activity::Analysis | Activity::Ponder) && !loud_waiting;
    let command = match Command::parse(line) {
        Ok(None) => return queue(Urgency::InPassing, true),
        Ok(Some(command)) => command,
        Err(e) if open_ended => {
            return Sorted::Answer(Response::Error { reason: e.reason, command: e.command }.to_string());
        }
        Err(_) => return queue(Urgency::InPassing, false),
    };
    match command {
        Command::Ping(n) if open_ended => Sorted::Answer(Response::Pong(n).to_string()),
        Command::Ping(_) => queue(Urgency::InPassing, false),
        Command::Quit => queue(Urgency::Closing, false),
        Command::MoveNow | Command::Exit => queue(Urgency::Now, false),
        Command::Force
        | Command::New
        | Command::Result { .. }
        | Command::Undo
        | Command::Remove
        | Command::SetBoard(_)
        | Command::Edit => queue(Urgency::Abandon, false),
        Command::Dot
        | Command::Time(_)
        | Command::Otim(_)
        | Command::Post
        | Command::NoPost
        | Command::Hard
        | Command::Easy
        | Command::Computer
        | Command::Name(_)
        | Command::Rating { .. }
        | Command::Ics(_)
        | Command::Accepted(_)
        | Command::Rejected(_)
        | Command::Random
        | Command::Xboard => queue(Urgency::InPassing, true),
        _ => queue(Urgency::EndsAnalysis, false),
    }
}

/// A line waiting for the session.
struct Waiting {
    /// Its number, in the order the lines were queued, from 1.
    number: u64,
    text: String,
    silent: bool,
}

struct State {
    protocol: Option<Protocol>,
    waiting: VecDeque<Waiting>,
    queued: u64,
    /// End of input (or a read error): no line will come after those waiting.
    ended: Option<std::io::Result<()>>,
    /// The output failed (the GUI closed it): nobody hears anything any more.
    output_failed: Option<std::io::Error>,
}

/// The lines between the reader thread and the loop, and the way to the writer for the lines
/// the reader answers itself.
#[derive(Clone)]
pub struct Inbox(Arc<Shared>);

struct Shared {
    state: Mutex<State>,
    arrived: Condvar,
    interrupt: Interrupt,
    out: mpsc::Sender<Out>,
}

/// What goes to the writer thread.
pub enum Out {
    Line(String),
    /// The loop is done: write nothing more.
    End,
}

impl Inbox {
    pub fn new(interrupt: Interrupt, out: mpsc::Sender<Out>) -> Inbox {
        let state = State { protocol: None, waiting: VecDeque::new(), queued: 0, ended: None, output_failed: None };
        Inbox(Arc::new(Shared { state: Mutex::new(state), arrived: Condvar::new(), interrupt, out }))
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held left whole lines behind, never half of one.
        self.0.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn answer(&self, line: String) {
        log::debug!("<< {line} (at once)");
        // The writer is gone only once the loop is over.
        let _ = self.0.out.send(Out::Line(line));
    }

    /// The reader has read `line`: it is answered at once, or queued and acted on.
    pub fn arrive(&self, line: String) {
        let mut state = self.lock();
        if state.protocol.is_none() && !line.trim().is_empty() {
            state.protocol = Some(Protocol::of_first(&line));
        }
        let protocol = state.protocol.unwrap_or(Protocol::Xboard);
        let loud_waiting = state.waiting.iter().any(|w| !w.silent);
        let (urgency, silent) = match sort(protocol, &line, self.0.interrupt.activity(), loud_waiting) {
            Sorted::Answer(reply) => return self.answer(reply),
            Sorted::Queue { urgency, silent } => (urgency, silent),
        };
        state.queued += 1;
        let n = state.queued;
        state.waiting.push_back(Waiting { number: n, text: line, silent });
        self.0.arrived.notify_all();
        // The line is queued before the thinking is told to stop, so that the loop finds it
        // waiting when the decision returns.
        let interrupt = &self.0.interrupt;
        interrupt.queued(n);
        match urgency {
            Urgency::Closing => interrupt.close(),
            Urgency::Now => interrupt.raise_for_line(n, true),
            Urgency::Abandon => interrupt.abandon_for_line(n),
            Urgency::EndsAnalysis => interrupt.raise_for_line(n, false),
            Urgency::InPassing => {}
        }
    }

    /// The input is over: end of input (`Ok`) or a read error. A GUI that is gone must not
    /// leave a search running for minutes to write into a closed pipe.
    pub fn end(&self, how: std::io::Result<()>) {
        let mut state = self.lock();
        state.ended.get_or_insert(how);
        self.0.interrupt.close();
        self.0.arrived.notify_all();
    }

    /// The output failed: searches end, and the loop with the error.
    pub fn output_failed(&self, error: std::io::Error) {
        let mut state = self.lock();
        state.output_failed.get_or_insert(error);
        self.0.interrupt.close();
        self.0.arrived.notify_all();
    }

    /// The next line for the session, waiting for one; None at the end of input.
    pub fn take(&self) -> std::io::Result<Option<String>> {
        let mut state = self.lock();
        loop {
            if let Some(e) = state.output_failed.take() {
                return Err(e);
            }
            if let Some(line) = state.waiting.pop_front() {
                // Numbered as the reader numbered it, so that its late stop for this very line
                // does not end the thinking this line starts.
                self.0.interrupt.taking(line.number);
                return Ok(Some(line.text));
            }
            match state.ended.take() {
                Some(Ok(())) => {
                    state.ended = Some(Ok(()));
                    return Ok(None);
                }
                Some(Err(e)) => {
                    state.ended = Some(Ok(()));
                    return Err(e);
                }
                None => state = self.0.arrived.wait(state).unwrap_or_else(|poisoned| poisoned.into_inner()),
            }
        }
    }

    /// Whether a line waits for the session.
    pub fn has_waiting(&self) -> bool {
        !self.lock().waiting.is_empty()
    }

    /// Begins a decision (the engine's `BeginHook`): first answers the waiting lines that are
    /// answered at once during such a decision, then begins it, both under the lock `arrive`
    /// sorts under.
    pub fn begin(&self, interrupt: &Interrupt, kind: Thinking) {
        let mut state = self.lock();
        let activity = match kind {
            Thinking::Move => Activity::Move,
            Thinking::Analysis => Activity::Analysis,
            Thinking::Ponder => Activity::Ponder,
        };
        let protocol = state.protocol.unwrap_or(Protocol::Xboard);
        let mut loud_waiting = false;
        // Behind a line that ends this very search (a `stop` queued with the `go`), the search
        // is as good as stopping: what waits behind it is answered after it, in order.
        let mut activity = activity;
        let mut kept = VecDeque::with_capacity(state.waiting.len());
        for line in std::mem::take(&mut state.waiting) {
            match sort(protocol, &line.text, activity, loud_waiting) {
                Sorted::Answer(reply) => self.answer(reply),
                Sorted::Queue { urgency, silent } => {
                    loud_waiting |= !silent;
                    let ends = match urgency {
                        Urgency::Closing | Urgency::Now | Urgency::Abandon => true,
                        Urgency::EndsAnalysis => kind != Thinking::Move,
                        Urgency::InPassing => false,
                    };
                    if ends {
                        activity = Activity::Stopping;
                    }
                    kept.push_back(line);
                }
            }
        }
        state.waiting = kept;
        match kind {
            Thinking::Ponder => interrupt.begin_pondering(!state.waiting.is_empty()),
            _ => interrupt.begin(kind == Thinking::Analysis),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(s: &str) -> Sorted {
        Sorted::Answer(s.into())
    }

    #[test]
    fn uci_answers_isready_and_unknown_lines_while_it_searches() {
        for activity in [Activity::Move, Activity::Analysis] {
            assert_eq!(sort(Protocol::Uci, "isready", activity, true), answer("readyok"));
            assert_eq!(sort(Protocol::Uci, "xyzzy", activity, false), answer("info string unknown command: xyzzy"));
            assert_eq!(
                sort(Protocol::Uci, "setoption name Hash value 8", activity, false),
                queue(Urgency::InPassing, false)
            );
        }
        for activity in [Activity::Idle, Activity::Stopping, Activity::Closed] {
            assert_eq!(sort(Protocol::Uci, "isready", activity, false), queue(Urgency::InPassing, false));
        }
        assert_eq!(sort(Protocol::Uci, "stop", Activity::Analysis, false), queue(Urgency::Now, false));
        assert_eq!(
            sort(Protocol::Uci, "position startpos", Activity::Analysis, false),
            queue(Urgency::EndsAnalysis, false)
        );
        assert_eq!(sort(Protocol::Uci, "position", Activity::Analysis, false), queue(Urgency::EndsAnalysis, false));
        assert_eq!(sort(Protocol::Uci, "quit", Activity::Move, false), queue(Urgency::Closing, false));
    }

    #[test]
    fn xboard_answers_ping_and_bad_lines_at_once_only_in_analysis_and_pondering() {
        for activity in [Activity::Analysis, Activity::Ponder] {
            assert_eq!(sort(Protocol::Xboard, "ping 7", activity, false), answer("pong 7"));
            assert_eq!(sort(Protocol::Xboard, "xyzzy", activity, false), answer("Error (unknown command): xyzzy"));
            // Behind a line that writes something, the order of the replies holds.
            assert_eq!(sort(Protocol::Xboard, "ping 7", activity, true), queue(Urgency::InPassing, false));
        }
        // Thinking on its own move, XBoard answers `ping` after the move.
        assert_eq!(sort(Protocol::Xboard, "ping 7", Activity::Move, false), queue(Urgency::InPassing, false));
        assert_eq!(sort(Protocol::Xboard, "ping 7", Activity::Idle, false), queue(Urgency::InPassing, false));
        for line in
            ["force", "new", "result 1-0 {White mates}", "undo", "remove", "setboard 8/8/8/8/8/8/8/8 w - - 0 1", "edit"]
        {
            assert_eq!(sort(Protocol::Xboard, line, Activity::Move, false), queue(Urgency::Abandon, false), "{line}");
        }
        assert_eq!(sort(Protocol::Xboard, "?", Activity::Move, false), queue(Urgency::Now, false));
        assert_eq!(sort(Protocol::Xboard, "time 100", Activity::Move, false), queue(Urgency::InPassing, true));
        assert_eq!(sort(Protocol::Xboard, ".", Activity::Analysis, false), queue(Urgency::InPassing, true));
        assert_eq!(sort(Protocol::Xboard, "e2e4", Activity::Analysis, false), queue(Urgency::EndsAnalysis, false));
        assert_eq!(sort(Protocol::Xboard, "", Activity::Analysis, false), queue(Urgency::InPassing, true));
    }

    /// A line that arrived before the search began is answered as it begins, if it is one that
    /// would have been answered during the search; the others keep waiting, in order.
    #[test]
    fn a_search_that_begins_answers_what_waits_for_it() {
        let (tx, rx) = mpsc::channel();
        let interrupt = Interrupt::default();
        let inbox = Inbox::new(interrupt.clone(), tx);
        for line in ["uci", "position startpos", "go infinite", "isready", "setoption name Hash value 2", "isready"] {
            inbox.arrive(line.into());
        }
        for _ in 0..3 {
            inbox.take().unwrap();
        }
        inbox.begin(&interrupt, Thinking::Analysis);
        assert!(!interrupt.is_raised());
        let answered: Vec<String> = rx
            .try_iter()
            .map(|o| match o {
                Out::Line(l) => l,
                Out::End => "end".into(),
            })
            .collect();
        assert_eq!(answered, ["readyok", "readyok"]);
        assert_eq!(inbox.take().unwrap().as_deref(), Some("setoption name Hash value 2"));
        assert!(!inbox.has_waiting());
        inbox.arrive("isready".into());
        assert_eq!(rx.try_recv().ok().map(|o| matches!(o, Out::Line(l) if l == "readyok")), Some(true));
        // A `stop` queued with the `go`: the search ends at once, and `isready` is answered
        // after its `bestmove`, not before.
        for line in ["go depth 9", "stop", "isready"] {
            inbox.arrive(line.into());
        }
        interrupt.end();
        assert_eq!(inbox.take().unwrap().as_deref(), Some("go depth 9"));
        inbox.begin(&interrupt, Thinking::Move);
        assert!(interrupt.is_raised(), "the queued stop ends it as it begins");
        assert!(rx.try_recv().is_err(), "isready answered before the stopped search's bestmove");
        interrupt.end();
        assert_eq!(inbox.take().unwrap().as_deref(), Some("stop"));
        assert_eq!(inbox.take().unwrap().as_deref(), Some("isready"));
        inbox.end(Ok(()));
        assert_eq!(inbox.take().unwrap(), None);
    }
}
