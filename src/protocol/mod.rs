//! The protocol loop: XBoard/WinBoard (CECP v2) first, UCI when the first command is `uci`.
//!
//! - [`command`] / [`response`]: typed XBoard input and output lines, parse and format.
//! - [`xboard`]: the XBoard `Session`, a pure state machine from lines to replies.
//! - [`uci`]: the same for UCI.
//! - [`clock`]: time controls and the per-move `SearchLimits`.
//! - [`engine`]: the move chooser behind both protocols, with its guard rails; [`shared`]:
//!   the name, the live thinking sink, move reading and echoing that both protocols use.
//! - [`io`]: the capped, lossy line reader and the one flushing writer.

pub mod clock;
pub mod command;
pub mod engine;
pub mod io;
pub mod response;
pub mod shared;
pub mod uci;
pub mod xboard;

pub use clock::SearchLimits;
pub use engine::Engine;
pub use shared::HELP;
pub use uci::UciSession;
pub use xboard::Session;

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::sync::mpsc;

/// Speaks the protocol on `input`/`output` until `quit` or end of input.
///
/// Input is read on a thread of its own, so that a line telling the engine to stop thinking
/// (`?`, `stop`, `exit`, `quit`, ...) reaches a long decision while it runs; every line is then
/// handled in order, as before. Returns an error only when the output can no longer be written
/// (the GUI is gone) or the input fails; end of input is a normal exit.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, output: W, engine: Engine) -> std::io::Result<()> {
    let interrupt = engine.interrupt();
    let lines = spawn_reader(input, interrupt.clone());
    let taken = std::cell::Cell::new(0u64);
    let next_line = move || -> std::io::Result<Option<String>> {
        match lines.recv() {
            Ok(line) => {
                // Numbered as the reader numbered it, so that its late stop for this very line
                // does not end the thinking this line starts.
                taken.set(taken.get() + 1);
                interrupt.taking(taken.get());
                line.map(Some)
            }
            // The reader hung up: end of input.
            Err(mpsc::RecvError) => Ok(None),
        }
    };
    // Shared between the loop and the sessions' live thinking output, which writes while a
    // command is being handled; a write error there is kept and returned by the loop.
    let writer = RefCell::new(io::LineWriter::new(output));
    let live_error: RefCell<Option<std::io::Error>> = RefCell::new(None);
    let send_live = |line: String| {
        if let Err(e) = writer.borrow_mut().send(&line) {
            live_error.borrow_mut().get_or_insert(e);
        }
    };
    let send_all = |lines: &[String]| -> std::io::Result<()> {
        if let Some(e) = live_error.borrow_mut().take() {
            return Err(e);
        }
        let mut w = writer.borrow_mut();
        lines.iter().try_for_each(|l| w.send(l))
    };
    let first = loop {
        match next_line()? {
            None => return Ok(()),
            Some(line) if line.trim().is_empty() => continue,
            Some(line) => break line,
        }
    };
    if first.trim() == "uci" {
        log::info!("speaking UCI");
        let mut session = UciSession::new(engine);
        session.set_live_output(|r| send_live(r.to_string()));
        return serve(&mut session, first, next_line, send_all);
    }
    log::info!("speaking XBoard");
    let mut session = Session::new(engine);
    session.set_live_output(|r| send_live(r.to_string()));
    serve(&mut session, first, next_line, send_all)
}

/// What the loop needs of a protocol session.
trait Serve {
    fn replies(&mut self, line: &str) -> Vec<String>;
    /// Between lines, once the replies are out: think on the opponent's time where the GUI
    /// asked for it (XBoard `hard`), until the next line arrives.
    fn idle(&mut self) {}
    fn quit(&self) -> bool;
    /// The reply when handling `line` panicked (a bug), so the GUI hears something.
    fn internal_error(line: &str) -> String;
}

impl Serve for Session<'_> {
    fn replies(&mut self, line: &str) -> Vec<String> {
        self.handle_line(line).iter().map(|r| r.to_string()).collect()
    }
    fn idle(&mut self) {
        self.ponder();
    }
    fn quit(&self) -> bool {
        self.should_quit()
    }
    fn internal_error(line: &str) -> String {
        response::Response::Error { reason: "internal error".into(), command: shared::echo(line) }.to_string()
    }
}

impl Serve for UciSession<'_> {
    fn replies(&mut self, line: &str) -> Vec<String> {
        self.handle_line(line).iter().map(|r| r.to_string()).collect()
    }
    fn quit(&self) -> bool {
        self.should_quit()
    }
    fn internal_error(line: &str) -> String {
        uci::UciResponse::InfoString(format!("internal error on '{}'", shared::echo(line))).to_string()
    }
}

/// One line in, its replies out, until `quit` or the end of input.
fn serve<S: Serve>(
    session: &mut S,
    first: String,
    next_line: impl Fn() -> std::io::Result<Option<String>>,
    send_all: impl Fn(&[String]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut line = first;
    loop {
        let replies = guarded(&line, || session.replies(&line)).unwrap_or_else(|| vec![S::internal_error(&line)]);
        send_all(&replies)?;
        if session.quit() {
            return Ok(());
        }
        if guarded(&line, || session.idle()).is_none() {
            log::error!("pondering failed after {:?}", shared::echo(&line));
        }
        match next_line()? {
            Some(next) => line = next,
            None => return Ok(()),
        }
    }
}

/// Reads lines on a detached thread (it may stay blocked on a terminal after `quit`; the process
/// ends with the main thread) and raises the stop signal for lines that want the engine's
/// attention now.
fn spawn_reader<R: BufRead + Send + 'static>(
    input: R,
    interrupt: engine::Interrupt,
) -> mpsc::Receiver<std::io::Result<String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = io::LineReader::new(input);
        let mut queued_lines = 0u64;
        loop {
            let line = reader.next_line();
            let failed = line.is_err();
            // The line is queued before the thinking is told to stop, so that the loop finds it
            // waiting when the decision returns.
            let urgency = match &line {
                Ok(Some(text)) => urgency(text),
                // End of input is `quit` from a GUI that is gone (crashed, or a script that
                // ended): a search must not go on for minutes to write into a closed pipe.
                Ok(None) | Err(_) => Urgency::Closing,
            };
            let queued = match line {
                Ok(Some(text)) => tx.send(Ok(text)).is_ok(),
                Ok(None) => false,
                Err(e) => tx.send(Err(e)).is_ok(),
            };
            queued_lines += u64::from(queued);
            if queued {
                interrupt.queued(queued_lines);
            }
            match urgency {
                Urgency::Closing => interrupt.close(),
                Urgency::Now => interrupt.raise_for_line(queued_lines, true),
                Urgency::EndsAnalysis => interrupt.raise_for_line(queued_lines, false),
                Urgency::InPassing => {}
            }
            if !queued || failed || urgency == Urgency::Closing {
                return;
            }
        }
    });
    rx
}

/// What a line that arrives while the engine thinks means for the thinking.
#[derive(Debug, PartialEq, Eq)]
enum Urgency {
    /// The input ends (`quit`, end of input): stop thinking now and never think at length
    /// again.
    Closing,
    /// Move now, or the game the engine thinks about is gone: `?`, `stop`, `quit`, `new`, ...
    Now,
    /// Ends open-ended thinking (analysis) but not a move in a game: in analysis a move or a new
    /// position means "analyse this instead", while in a game a line queued behind `go` by a
    /// script must not cut the search short.
    EndsAnalysis,
    /// What a GUI sends in passing during a search: clock updates, `.` (XBoard's analysis
    /// status request), `ping` (answered after the move), display toggles, `isready`.
    InPassing,
}

fn urgency(line: &str) -> Urgency {
    const NOW: [&str; 11] =
        ["?", "stop", "exit", "new", "force", "result", "undo", "remove", "setboard", "edit", "ucinewgame"];
    const IN_PASSING: [&str; 16] = [
        ".", "ping", "time", "otim", "post", "nopost", "hard", "easy", "computer", "name", "rating", "ics", "accepted",
        "rejected", "isready", "debug",
    ];
    match line.split_whitespace().next() {
        Some("quit") => Urgency::Closing,
        Some(word) if NOW.contains(&word) => Urgency::Now,
        Some(word) if IN_PASSING.contains(&word) => Urgency::InPassing,
        Some(_) => Urgency::EndsAnalysis,
        None => Urgency::InPassing,
    }
}

/// Runs one command, turning a panic (a bug) into `None` so that the engine stays up for the
/// rest of the game instead of dying in front of the GUI.
fn guarded<T>(line: &str, f: impl FnOnce() -> T) -> Option<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => Some(v),
        Err(_) => {
            log::error!("internal error while handling {:?}", shared::echo(line));
            None
        }
    }
}
