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
pub mod inbox;
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

use inbox::{Inbox, Out, Protocol};
use std::io::{BufRead, Write};
use std::sync::mpsc;

/// Speaks the protocol on `input`/`output` until `quit` or end of input.
///
/// Input is read on a thread of its own, so that a line telling the engine to stop thinking
/// (`?`, `stop`, `exit`, `quit`, ...) reaches a long decision while it runs, and the lines a GUI
/// expects answered during a search (`isready`, `ping` in analysis) are answered then
/// (`inbox`); every other line is handled in order. Output is written by a thread of its own,
/// which both the loop and the reader hand lines to. Returns an error only when the output can
/// no longer be written (the GUI is gone) or the input fails; end of input is a normal exit.
pub fn run<R: BufRead + Send + 'static, W: Write + Send>(
    input: R,
    output: W,
    mut engine: Engine,
) -> std::io::Result<()> {
    let interrupt = engine.interrupt();
    let (out, lines_out) = mpsc::channel();
    let inbox = Inbox::new(interrupt, out.clone());
    let hook = inbox.clone();
    engine.set_begin_hook(Box::new(move |interrupt, kind| hook.begin(interrupt, kind)));
    std::thread::scope(|scope| {
        let writer_inbox = inbox.clone();
        scope.spawn(move || write_lines(output, lines_out, &writer_inbox));
        spawn_reader(input, inbox.clone());
        let served = speak(engine, &inbox, &out);
        // Everything handed over is written before the loop returns.
        let _ = out.send(Out::End);
        served
    })
}

/// Writes the lines handed over, flushing each, until `Out::End`. A failed write (the GUI
/// closed our output) ends every search at once, and the loop with the error; the lines still
/// coming are dropped.
fn write_lines<W: Write>(output: W, lines: mpsc::Receiver<Out>, inbox: &Inbox) {
    let mut writer = io::LineWriter::new(output);
    let mut failed = false;
    while let Ok(Out::Line(line)) = lines.recv() {
        if failed {
            continue;
        }
        if let Err(e) = writer.send(&line) {
            failed = true;
            inbox.output_failed(e);
        }
    }
}

/// The session the first line asks for, served line by line.
fn speak(engine: Engine, inbox: &Inbox, out: &mpsc::Sender<Out>) -> std::io::Result<()> {
    let send_live = |line: String| {
        let _ = out.send(Out::Line(line));
    };
    let send_all = |lines: Vec<String>| {
        for line in lines {
            let _ = out.send(Out::Line(line));
        }
    };
    let first = loop {
        match inbox.take()? {
            None => return Ok(()),
            Some(line) if line.trim().is_empty() => continue,
            Some(line) => break line,
        }
    };
    if Protocol::of_first(&first) == Protocol::Uci {
        log::info!("speaking UCI");
        let mut session = UciSession::new(engine);
        session.set_live_output(|r| send_live(r.to_string()));
        return serve(&mut session, first, inbox, send_all);
    }
    log::info!("speaking XBoard");
    let mut session = Session::new(engine);
    session.set_live_output(|r| send_live(r.to_string()));
    serve(&mut session, first, inbox, send_all)
}

/// What the loop needs of a protocol session.
trait Serve {
    fn replies(&mut self, line: &str) -> Vec<String>;
    /// Between lines, once the replies are out and no line waits: analysis goes on, or the
    /// engine thinks on the opponent's time where the GUI asked for it (XBoard), until the next
    /// line arrives.
    fn idle(&mut self) -> Vec<String> {
        Vec::new()
    }
    fn quit(&self) -> bool;
    /// The reply when handling `line` panicked (a bug), so the GUI hears something.
    fn internal_error(line: &str) -> String;
}

impl Serve for Session<'_> {
    fn replies(&mut self, line: &str) -> Vec<String> {
        self.handle_line(line).iter().map(|r| r.to_string()).collect()
    }
    fn idle(&mut self) -> Vec<String> {
        Session::idle(self).iter().map(|r| r.to_string()).collect()
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
    inbox: &Inbox,
    send_all: impl Fn(Vec<String>),
) -> std::io::Result<()> {
    let mut line = first;
    loop {
        let replies = guarded(&line, || session.replies(&line)).unwrap_or_else(|| vec![S::internal_error(&line)]);
        send_all(replies);
        if session.quit() {
            return Ok(());
        }
        if !inbox.has_waiting() {
            match guarded(&line, || session.idle()) {
                Some(replies) => send_all(replies),
                None => log::error!("thinking between lines failed after {:?}", shared::echo(&line)),
            }
        }
        match inbox.take()? {
            Some(next) => line = next,
            None => return Ok(()),
        }
    }
}

/// Reads lines on a detached thread (it may stay blocked on a terminal after `quit`; the process
/// ends with the main thread) into the inbox, which answers, queues and raises the stop signal
/// for each.
fn spawn_reader<R: BufRead + Send + 'static>(input: R, inbox: Inbox) {
    std::thread::spawn(move || {
        let mut reader = io::LineReader::new(input);
        loop {
            match reader.next_line() {
                Ok(Some(text)) => inbox.arrive(text),
                Ok(None) => return inbox.end(Ok(())),
                Err(e) => return inbox.end(Err(e)),
            }
        }
    });
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
