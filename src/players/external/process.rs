//! A running engine process: its stdin, and its stdout's lines from a reader thread.

use super::EngineError;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine whose pipe closed is given to finish exiting (see [`Process::gone`]).
const EXIT_GRACE: Duration = Duration::from_secs(2);

pub(super) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    exit_grace: Duration,
}

impl Process {
    pub(super) fn spawn(command: &[String]) -> Result<Process, EngineError> {
        let start_error = |source| EngineError::Start { command: command.join(" "), source };
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(start_error)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(start_error(std::io::Error::other("no pipes to the process")));
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, stdin, lines, exit_grace: EXIT_GRACE })
    }

    pub(super) fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::trace!("engine <- {line}");
        // A write to an engine that has exited can still succeed while a process forked at
        // that moment (before its exec) holds the pipe's other end, so an exit is checked first.
        if let Ok(Some(status)) = self.child.try_wait() {
            return Err(EngineError::Exited(status));
        }
        match writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()) {
            Ok(()) => Ok(()),
            Err(_) => Err(self.gone()),
        }
    }

    /// Why the engine stopped talking, once a pipe to it has closed. A process closes its pipes
    /// as it exits, a moment before its exit can be collected, so its status is polled for
    /// (`try_wait`, pausing 1 ms, then longer, up to 50 ms) until it has exited or the grace
    /// period is over: an engine that exited within it is [`EngineError::Exited`] with its
    /// status, one still running then closed its output ([`EngineError::ClosedOutput`]).
    fn gone(&mut self) -> EngineError {
        let deadline = Instant::now() + self.exit_grace;
        let mut pause = Duration::from_millis(1);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return EngineError::Exited(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                _ => return EngineError::ClosedOutput,
            }
        }
    }

    /// Lines already sent and not read (left from an earlier game or turn), dropped.
    pub(super) fn drain(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            log::trace!("engine -> {line} (dropped)");
        }
    }

    /// The next line before `deadline`.
    pub(super) fn line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                log::trace!("engine -> {line}");
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::NoReply { waiting_for: waiting_for.to_string(), wait }),
            Err(RecvTimeoutError::Disconnected) => Err(self.gone()),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // A polite engine leaves at once; one that does not is not waited for.
        for _ in 0..10 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Process {
        Process::spawn(&["sh".to_string(), "-c".to_string(), script.to_string()]).unwrap()
    }

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    /// A process that ends is reported with its exit status, however slowly its exit is
    /// collected after its output closed.
    #[test]
    fn an_engine_that_exits_is_reported_with_its_status() {
        let mut p = shell("echo hello; exit 3");
        assert_eq!(p.line(far(), "hello").unwrap(), "hello");
        match p.line(far(), "more") {
            Err(EngineError::Exited(status)) => assert_eq!(status.code(), Some(3)),
            other => panic!("expected the exit status, got {other:?}"),
        }
        // Writing to it fails the same way.
        assert!(matches!(p.send("isready"), Err(EngineError::Exited(_))));
        assert!(p.line(far(), "x").unwrap_err().to_string().starts_with("engine process ended ("));
    }

    /// One that closes its output and lives on is not mistaken for one that exited.
    #[test]
    fn an_engine_that_only_closes_its_output_is_told_apart() {
        let mut p = shell("exec >&-; sleep 30");
        p.exit_grace = Duration::from_millis(200);
        let err = p.line(far(), "uciok").unwrap_err();
        assert!(matches!(err, EngineError::ClosedOutput), "{err:?}");
        assert_eq!(err.to_string(), "engine closed its output");
    }

    #[test]
    fn silence_is_no_reply() {
        let mut p = shell("sleep 30");
        let err = p.line(Instant::now() + Duration::from_millis(50), "readyok").unwrap_err();
        assert!(matches!(&err, EngineError::NoReply { waiting_for, .. } if waiting_for == "readyok"), "{err:?}");
        assert!(err.to_string().starts_with("no reply: no readyok within "), "{err}");
    }
}
