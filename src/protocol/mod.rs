//! The protocol loop: XBoard/WinBoard (CECP v2) first, UCI when the first command is `uci`.
//!
//! - [`command`] / [`response`]: typed XBoard input and output lines, parse and format.
//! - [`xboard`]: the XBoard `Session`, a pure state machine from lines to replies.
//! - [`uci`]: the same for UCI.
//! - [`clock`]: time controls and the per-move `SearchLimits`.
//! - [`engine`]: the move chooser behind both protocols, with its guard rails.
//! - [`io`]: the capped, lossy line reader and the one flushing writer.

pub mod clock;
pub mod command;
pub mod engine;
pub mod io;
pub mod response;
pub mod uci;
pub mod xboard;

pub use clock::SearchLimits;
pub use engine::Engine;
pub use uci::UciSession;
pub use xboard::Session;

use std::io::{BufRead, Write};

/// Speaks the protocol on `input`/`output` until `quit` or end of input.
///
/// Returns an error only when the output can no longer be written (the GUI is gone); end of
/// input is a normal exit.
pub fn run<R: BufRead, W: Write>(input: R, output: W, engine: Engine) -> std::io::Result<()> {
    let mut reader = io::LineReader::new(input);
    let mut writer = io::LineWriter::new(output);
    let first = loop {
        match reader.next_line()? {
            None => return Ok(()),
            Some(line) if line.trim().is_empty() => continue,
            Some(line) => break line,
        }
    };
    if first.trim() == "uci" {
        log::info!("speaking UCI");
        let mut session = UciSession::new(engine);
        let mut line = first;
        loop {
            let replies = guarded(&line, || session.handle_line(&line)).unwrap_or_else(|| {
                vec![uci::UciResponse::InfoString(format!("internal error on '{}'", command::echo(&line)))]
            });
            writer.send_all(&replies)?;
            if session.should_quit() {
                return Ok(());
            }
            match reader.next_line()? {
                Some(next) => line = next,
                None => return Ok(()),
            }
        }
    }
    log::info!("speaking XBoard");
    let mut session = Session::new(engine);
    let mut line = first;
    loop {
        let replies = guarded(&line, || session.handle_line(&line)).unwrap_or_else(|| {
            vec![response::Response::Error { reason: "internal error".into(), command: command::echo(&line) }]
        });
        writer.send_all(&replies)?;
        if session.should_quit() {
            return Ok(());
        }
        match reader.next_line()? {
            Some(next) => line = next,
            None => return Ok(()),
        }
    }
}

/// Runs one command, turning a panic (a bug) into `None` so that the engine stays up for the
/// rest of the game instead of dying in front of the GUI.
fn guarded<T>(line: &str, f: impl FnOnce() -> T) -> Option<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => Some(v),
        Err(_) => {
            log::error!("internal error while handling {:?}", command::echo(line));
            None
        }
    }
}
