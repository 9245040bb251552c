//! The protocol loop as a whole: lines in on a reader thread, replies out, on raw bytes, on the
//! built binary's pipes, and what a line read while the engine thinks does to the thinking.

mod common;

use agentchess::board::Game;
use agentchess::players::{Decision, Player, StopSignal};
use agentchess::protocol::{self, Engine, SearchLimits};
use common::{MIDDLEGAME, engine, player, spawn_engine};
use std::io::{BufReader, Read, Write};
use std::sync::mpsc;
use std::time::Duration;

// ---- lines in, replies out --------------------------------------------------------------------

/// The whole loop on raw bytes: CR-LF, invalid UTF-8, a 100 KB line, an empty line, EOF.
#[test]
fn the_loop_survives_hostile_bytes_and_ends_at_eof() {
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"xboard\r\nprotover 2\r\n");
    input.extend_from_slice(b"\xff\xfe\x80 bad \xc3\x28 bytes\n");
    input.extend_from_slice(b"ping 73\n\n");
    input.extend(std::iter::repeat_n(b'x', 102_400));
    input.extend_from_slice(b"\nping 74\nnew\ne2e4\nping 75\n");
    let mut output = Vec::new();
    protocol::run(std::io::Cursor::new(input), &mut output, engine(&[])).unwrap();
    let text = String::from_utf8(output).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("feature")).collect();
    assert_eq!(
        lines,
        vec![
            "Error (unknown command): \u{fffd}\u{fffd}\u{fffd}",
            "pong 73",
            &format!("Error (unknown command): {}...", "x".repeat(80)),
            "pong 74",
            "move a7a5",
            "pong 75",
        ]
    );
}

#[test]
fn quit_stops_the_loop_before_later_input() {
    let mut output = Vec::new();
    protocol::run(&b"new\nquit\nping 1\n"[..], &mut output, engine(&[])).unwrap();
    assert!(output.is_empty());
}

#[test]
fn the_loop_switches_to_uci_on_a_first_uci_command() {
    let mut output = Vec::new();
    protocol::run(&b"\nuci\nisready\nquit\nisready\n"[..], &mut output, engine(&[])).unwrap();
    let text = String::from_utf8(output).unwrap();
    assert!(text.starts_with("id name AgentChess"));
    assert!(text.ends_with("uciok\nreadyok\n"));
}

/// The built binary on real pipes: handshake, hostile input, a game move, EOF, exit status 0.
#[test]
fn binary_speaks_xboard_and_exits_cleanly_at_eof() {
    use std::io::Write;
    let mut child = spawn_engine(&["--player", "random", "--seed", "3"]);
    let mut input = b"xboard\r\nprotover 2\n\xff\xfe\x80 bad\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 102_400));
    input.extend_from_slice(b"\n\nnew\ne2e4\nping 1\n");
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "exit status {:?}", out.status);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.iter().any(|l| l.ends_with("done=1")), "{text}");
    let tail = &lines[lines.len() - 4..];
    assert_eq!(tail[0], "Error (unknown command): \u{fffd}\u{fffd}\u{fffd}");
    assert!(tail[1].starts_with("Error (unknown command): xxxx"));
    assert!(tail[2].starts_with("move "), "{text}");
    assert_eq!(tail[3], "pong 1");
}

// ---- input read while the engine thinks --------------------------------------------------------
//
// These run the loop in process around a player that thinks until it is told to stop (or, for
// a timed search, until the test lets it finish), so that what a line does to the thinking is
// seen whatever the speed of the machine: nothing ends the thinking but the line under test.

/// How long a test waits for the loop before it fails: only a broken loop takes this long.
const PATIENCE: Duration = Duration::from_secs(60);

/// Thinks until the stop signal is raised or the test releases it: it reports two completed
/// steps (depths 1 and 2) at once and waits. Stopped, it moves with what it has (depth 2);
/// released, it completes a third step first (depth 3). Only its first decision waits; later
/// ones answer at once (depth 1). It always plays the first legal move.
struct Ponderer {
    stop: Option<StopSignal>,
    release: mpsc::Receiver<()>,
    waited: bool,
}

fn step(game: &Game, depth: u32) -> Option<Decision> {
    let mv = *game.position().legal_moves().iter().next()?;
    Some(Decision {
        mv,
        score: 0,
        mate: None,
        depth,
        pv: vec![mv],
        reason: format!("step {depth}"),
        nodes: 1,
        multipv: 0,
        tbhits: 0,
    })
}

impl Player for Ponderer {
    fn name(&self) -> String {
        "ponderer".into()
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        step(game, 1)
    }

    fn decide_reporting(
        &mut self,
        game: &Game,
        _limits: &SearchLimits,
        progress: &mut dyn FnMut(&Decision),
    ) -> Option<Decision> {
        if std::mem::replace(&mut self.waited, true) {
            return step(game, 1);
        }
        progress(&step(game, 1)?);
        progress(&step(game, 2)?);
        let stop = self.stop.clone().expect("the engine gives its players the stop signal");
        loop {
            if stop.is_raised() {
                return step(game, 2);
            }
            match self.release.recv_timeout(Duration::from_millis(1)) {
                // A stop raised before the release is seen here: the release comes after it.
                Ok(()) if stop.is_raised() => return step(game, 2),
                Ok(()) => {
                    progress(&step(game, 3)?);
                    return step(game, 3);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                // The test is over.
                Err(mpsc::RecvTimeoutError::Disconnected) => return step(game, 2),
            }
        }
    }

    fn watch_stop(&mut self, signal: StopSignal) {
        self.stop = Some(signal);
    }
}

/// The loop's input, chunk by chunk as the test gives it. Before it waits for the next chunk
/// it says how many it has given: the loop's reader asks for more input only once it has
/// handled every line it has, so the test learns when a line has been read and acted on.
struct Feed {
    chunks: mpsc::Receiver<Vec<u8>>,
    asked: mpsc::Sender<usize>,
    given: usize,
    pending: Vec<u8>,
}

impl Read for Feed {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            let _ = self.asked.send(self.given);
            match self.chunks.recv() {
                Ok(chunk) => {
                    self.pending = chunk;
                    self.given += 1;
                }
                // The test hung up: end of input.
                Err(mpsc::RecvError) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// The loop's output, line by line.
struct Sink {
    lines: mpsc::Sender<String>,
    partial: Vec<u8>,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let _ = self.lines.send(String::from_utf8_lossy(&line[..end]).into_owned());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The loop in process around a [`Ponderer`].
struct Harness {
    chunks: Option<mpsc::Sender<Vec<u8>>>,
    asked: mpsc::Receiver<usize>,
    lines: mpsc::Receiver<String>,
    sent: usize,
    release: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl Harness {
    fn start() -> Harness {
        let (release, ponderer_release) = mpsc::channel();
        let ponderer = Ponderer { stop: None, release: ponderer_release, waited: false };
        let engine = Engine::with_player(Box::new(ponderer), player("random"), 1).freeze_time();
        let (chunks, feed_chunks) = mpsc::channel();
        let (feed_asked, asked) = mpsc::channel();
        let (sink_lines, lines) = mpsc::channel();
        let feed = Feed { chunks: feed_chunks, asked: feed_asked, given: 0, pending: Vec::new() };
        let sink = Sink { lines: sink_lines, partial: Vec::new() };
        let thread = std::thread::spawn(move || protocol::run(BufReader::new(feed), sink, engine));
        Harness { chunks: Some(chunks), asked, lines, sent: 0, release: Some(release), thread: Some(thread) }
    }

    /// Gives the loop `text` (whole lines) as one chunk of input.
    fn send(&mut self, text: &str) {
        self.chunks.as_ref().expect("input open").send(text.as_bytes().to_vec()).expect("the loop reads");
        self.sent += 1;
    }

    /// Waits until the loop's reader has read, queued and acted on every line sent so far.
    fn wait_until_read(&self) {
        loop {
            match self.asked.recv_timeout(PATIENCE) {
                Ok(n) if n == self.sent => return,
                Ok(_) => {}
                Err(e) => panic!("the reader did not come back for more input: {e}"),
            }
        }
    }

    /// Lets the pondering decision finish on its own.
    fn release(&self) {
        self.release.as_ref().expect("not yet dropped").send(()).expect("the player listens");
    }

    /// The lines the loop writes, up to and with the first that starts with `prefix`.
    fn lines_until(&self, prefix: &str) -> Vec<String> {
        self.lines_within(prefix, PATIENCE)
    }

    /// The same, failing when the line does not come within `wait`.
    fn lines_within(&self, prefix: &str, wait: Duration) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    let last = line.starts_with(prefix);
                    lines.push(line);
                    if last {
                        return lines;
                    }
                }
                Err(e) => panic!("no line starting with {prefix:?} ({e}) after {lines:?}"),
            }
        }
    }
}

impl Drop for Harness {
    /// End of input (and a released player, should it still wait): the loop ends.
    fn drop(&mut self) {
        drop(self.release.take());
        drop(self.chunks.take());
        if let Some(thread) = self.thread.take() {
            let ended = thread.join();
            if !std::thread::panicking() {
                assert!(matches!(ended, Ok(Ok(()))), "the loop failed: {ended:?}");
            }
        }
    }
}

/// `?` in a game: the move comes at once, with the line of the step completed before it, and
/// what was queued behind `?` follows it. The player never ends its thinking by itself, so a
/// move at all is the proof.
#[test]
fn move_now_ends_the_thinking_in_a_game() {
    let mut h = Harness::start();
    h.send("xboard\nprotover 2\npost\nnew\ngo\n");
    let before = h.lines_until("1 ");
    assert!(!before.iter().any(|l| l.starts_with("move ")), "{before:?}");
    h.send("?\nping 4\n");
    let after = h.lines_until("pong");
    assert_eq!(after.len(), 3, "{after:?}");
    assert!(after[0].starts_with("2 ") && after[1] == "move b1a3" && after[2] == "pong 4", "{after:?}");
}

/// UCI `stop` ends `go infinite`: the last info line, then the held bestmove.
#[test]
fn stop_ends_go_infinite() {
    let mut h = Harness::start();
    h.send("uci\nposition startpos\ngo infinite\n");
    let before = h.lines_until("info depth 1 ");
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "{before:?}");
    h.send("stop\n");
    let after = h.lines_until("bestmove");
    assert_eq!(after.len(), 2, "{after:?}");
    assert!(after[0].starts_with("info depth 2 ") && after[1] == "bestmove b1a3", "{after:?}");
}

/// `exit` ends analysis, which has no end of its own: the analysis line, then what was queued
/// behind `exit`.
#[test]
fn exit_ends_analysis() {
    let mut h = Harness::start();
    h.send("xboard\nprotover 2\npost\nnew\nanalyze\n");
    h.lines_until("1 ");
    h.send("exit\nping 5\n");
    let after = h.lines_until("pong");
    assert_eq!(after.len(), 2, "{after:?}");
    assert!(after[0].starts_with("2 ") && after[1] == "pong 5", "{after:?}");
}

/// A script may queue its next lines behind `go`: the opponent's reply read while the engine
/// thinks must not cut the engine's search short (only analysis is ended by a new move). The
/// player is let finish only once the reader has read and acted on the reply, so a stop it
/// wrongly raised would be seen: the move would come at depth 2, before the third step.
#[test]
fn a_queued_move_does_not_end_the_thinking_in_a_game() {
    let mut h = Harness::start();
    h.send("xboard\nprotover 2\npost\nnew\ngo\n");
    h.lines_until("1 ");
    h.send("e7e5\n");
    h.wait_until_read();
    h.release();
    let after = h.lines_until("move ");
    let depths: Vec<&str> = after.iter().map(|l| l.split(' ').next().unwrap_or("")).collect();
    assert_eq!(depths, ["2", "3", "move"], "the queued move stopped the thinking: {after:?}");
    // Then the queued reply is played, and the engine answers it.
    h.send("ping 2\n");
    let after = h.lines_until("pong");
    assert_eq!(after.len(), 3, "{after:?}");
    assert!(after[0].starts_with("1 ") && after[1].starts_with("move ") && after[2] == "pong 2", "{after:?}");
}

/// How long a reply that must not wait for the search's end may take before the test fails: the
/// player under test never ends its search by itself, so only a reply held behind the search
/// takes this long.
const AT_ONCE: Duration = Duration::from_secs(10);

/// UCI `isready` while the engine searches (`go infinite`, `go ponder`, `go movetime`): `readyok`
/// at once, the search going on (the player completes its third step only when let go). Sent
/// while the search runs, and sent with the `go` in one piece, before the search began.
#[test]
fn isready_is_answered_while_the_engine_searches() {
    for go in ["go infinite", "go ponder wtime 60000 btime 60000", "go movetime 60000"] {
        for together in [false, true] {
            let mut h = Harness::start();
            if together {
                h.send(&format!("uci\nposition startpos\n{go}\nisready\n"));
                h.lines_within("readyok", AT_ONCE);
            } else {
                h.send(&format!("uci\nposition startpos\n{go}\n"));
                h.lines_until("info depth 2 ");
                h.send("isready\n");
                assert_eq!(h.lines_within("readyok", AT_ONCE), ["readyok"], "{go}");
            }
            h.release();
            let rest = h.lines_until("info depth 3 ");
            assert!(!rest.iter().any(|l| l.starts_with("bestmove")), "{go}: {rest:?}");
            h.send("stop\n");
            h.lines_until("bestmove");
        }
    }
}

/// XBoard `ping` while analysing: `pong` at once, the analysis going on; and with `analyze` in
/// one piece, before the analysis began.
#[test]
fn ping_is_answered_while_analysing() {
    for together in [false, true] {
        let mut h = Harness::start();
        if together {
            h.send("xboard\nprotover 2\npost\nnew\nanalyze\nping 8\n");
            h.lines_within("pong 8", AT_ONCE);
        } else {
            h.send("xboard\nprotover 2\npost\nnew\nanalyze\n");
            h.lines_until("2 ");
            h.send(".\nping 9\n");
            assert_eq!(h.lines_within("pong", AT_ONCE), ["pong 9"]);
        }
        h.release();
        h.lines_until("3 ");
        h.send("exit\nping 10\n");
        assert_eq!(h.lines_until("pong"), ["pong 10"]);
    }
}

/// UCI `ponderhit` during `go ponder`: the pondering ends and a search on the clock the `go
/// ponder` gave begins from there (its line comes before the `bestmove`); the pondering's move
/// is not sent at once as the answer (the clock it runs on is in tests/clock.rs).
#[test]
fn ponderhit_goes_on_with_a_search_on_the_clock() {
    let mut h = Harness::start();
    h.send("uci\nposition startpos moves e2e4\ngo ponder wtime 60000 btime 60000\n");
    h.lines_until("info depth 2 ");
    h.send("ponderhit\n");
    let after = h.lines_until("bestmove");
    assert_eq!(after.len(), 2, "{after:?}");
    assert!(after[0].starts_with("info depth 1 "), "no search after ponderhit: {after:?}");
    h.send("isready\n");
    assert_eq!(h.lines_until("readyok"), ["readyok"]);
}

/// `force`, `result` or `new` while the engine thinks on its own move: the search ends and no
/// move comes, and the engine's board is the GUI's (the GUI's move for White is legal).
#[test]
fn no_move_after_force_result_or_new_during_a_search() {
    for line in ["force", "result 1-0 {White resigns}", "new"] {
        let mut h = Harness::start();
        h.send("xboard\nprotover 2\npost\nnew\ngo\n");
        h.lines_until("2 ");
        h.send(&format!("{line}\nping 1\n"));
        assert_eq!(h.lines_until("pong"), ["pong 1"], "after {line}");
        h.send("force\ne2e4\nping 2\n");
        assert_eq!(h.lines_until("pong"), ["pong 2"], "after {line}");
    }
}

/// A line that is no command during analysis gets its error at once and the analysis goes on
/// (its third step comes when the player is let go); one that needs the position (`exclude` of
/// an illegal move) ends it, is answered, and the analysis starts again.
#[test]
fn bad_lines_during_analysis_do_not_end_it() {
    let mut h = Harness::start();
    h.send("xboard\nprotover 2\npost\nnew\nanalyze\n");
    h.lines_until("2 ");
    h.send("xyzzy\n");
    assert_eq!(h.lines_within("Error", AT_ONCE), ["Error (unknown command): xyzzy"]);
    h.release();
    h.lines_until("3 ");

    let mut h = Harness::start();
    h.send("xboard\nprotover 2\npost\nnew\nanalyze\n");
    h.lines_until("2 ");
    h.send("exclude zz\n");
    assert_eq!(h.lines_until("Error"), ["Error (illegal move): exclude zz"]);
    // The player's next decision answers at once, at depth 1.
    assert!(h.lines_until("1 ")[0].starts_with("1 "), "the analysis starts again");

    let mut h = Harness::start();
    h.send("uci\nposition startpos\ngo infinite\n");
    h.lines_until("info depth 2 ");
    h.send("xyzzy\n");
    assert_eq!(h.lines_within("info string", AT_ONCE), ["info string unknown command: xyzzy"]);
    // Not allowed during a search: it waits for the search's end, which it does not bring.
    h.send("setoption name Hash value 8\nisready\n");
    assert_eq!(h.lines_within("readyok", AT_ONCE), ["readyok"]);
    h.release();
    h.lines_until("info depth 3 ");
    h.send("stop\n");
    h.lines_until("bestmove");
}

/// The GUI closes the engine's output during `go infinite`: the search ends at once and the
/// loop with an error, though the input stays open and no `stop` comes.
#[test]
fn closed_output_ends_the_search() {
    /// Takes 13 lines (the handshake and the first info line), then fails as a closed pipe does.
    struct Closing(usize);
    impl Write for Closing {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            }
            self.0 -= buf.iter().filter(|&&b| b == b'\n').count().min(self.0);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let (release, ponderer_release) = mpsc::channel();
    let ponderer = Ponderer { stop: None, release: ponderer_release, waited: false };
    let engine = Engine::with_player(Box::new(ponderer), player("random"), 1).freeze_time();
    let (chunks, feed_chunks) = mpsc::channel::<Vec<u8>>();
    let (feed_asked, _asked) = mpsc::channel();
    let feed = Feed { chunks: feed_chunks, asked: feed_asked, given: 0, pending: Vec::new() };
    chunks.send(b"uci\nposition startpos\ngo infinite\n".to_vec()).unwrap();
    let (done, ended) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(protocol::run(BufReader::new(feed), Closing(13), engine));
    });
    let result = ended.recv_timeout(PATIENCE).expect("the search went on into a closed output");
    assert_eq!(result.map_err(|e| e.kind()), Err(std::io::ErrorKind::BrokenPipe));
    drop((chunks, release));
}

/// The built binary: the searcher's `go infinite` and its analysis, which go on until they are
/// told to stop (they deepen to 64 plies, beyond any machine's reach in this middlegame),
/// stop on `stop` and `exit`. Each line is sent once the search has shown an iteration.
#[test]
fn the_searcher_in_the_binary_stops_when_told() {
    let (before, after) =
        interrupt_a_search(&format!("uci\nposition fen {MIDDLEGAME}\ngo infinite\n"), "stop\n", "bestmove");
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "a bestmove before stop: {before:?}");
    assert!(after.last().is_some_and(|l| l.starts_with("bestmove ")), "no bestmove after stop: {after:?}");

    let (before, after) = interrupt_a_search(
        &format!("xboard\nprotover 2\npost\nsetboard {MIDDLEGAME}\nanalyze\n"),
        "exit\nping 5\n",
        "pong",
    );
    assert!(before.last().is_some_and(|l| l.starts_with("1 ")), "{before:?}");
    assert_eq!(after.last().map(String::as_str), Some("pong 5"), "{after:?}");
}

/// Sends `before` to the built binary playing the searcher, waits for the first thinking line
/// (the search is under way), sends `after`, and returns the lines read before sending it and
/// every line after, up to one starting with `until`. A watchdog kills an engine that has not
/// got there within a minute (the lines then end without it).
fn interrupt_a_search(before: &str, after: &str, until: &str) -> (Vec<String>, Vec<String>) {
    use std::io::BufRead;
    let mut child = spawn_engine(&["--player", "search:depth=8", "--seed", "1"]);
    let pid = child.id();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if done_rx.recv_timeout(PATIENCE).is_err() {
            let _ = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(before.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let thinking = |l: &str| l.starts_with("info depth ") || l.starts_with(|c: char| c.is_ascii_digit());
    let mut reader = BufReader::new(child.stdout.take().unwrap()).lines().map_while(Result::ok);
    let mut sent_at = Vec::new();
    for line in reader.by_ref() {
        let first_thought = thinking(&line);
        sent_at.push(line);
        if first_thought {
            break;
        }
    }
    // A write error means the engine is gone; the assertions on what it printed say why.
    let _ = stdin.write_all(after.as_bytes()).and_then(|()| stdin.flush());
    let mut lines = Vec::new();
    for line in reader {
        let done = line.starts_with(until);
        lines.push(line);
        if done {
            break;
        }
    }
    let _ = done_tx.send(());
    let _ = child.kill();
    let _ = child.wait();
    let _ = watchdog.join();
    (sent_at, lines)
}

// ---- end of input -----------------------------------------------------------------------------

/// Writes `input` to a fresh engine, closes its stdin, and collects its output until it exits.
/// A watchdog kills an engine still running after a minute (then `None`): end of input must
/// end every search, so a live process at that point is the bug under test.
fn run_until_eof(args: &[&str], input: &str) -> Option<(std::process::ExitStatus, Vec<String>)> {
    use std::io::Write;
    let mut child = spawn_engine(args);
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let pid = child.id();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if done_rx.recv_timeout(std::time::Duration::from_secs(60)).is_err() {
            let _ = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status();
            return true;
        }
        false
    });
    let out = child.wait_with_output().unwrap();
    let _ = done_tx.send(());
    let killed = watchdog.join().unwrap();
    let lines = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
    (!killed).then_some((out.status, lines))
}

/// End of input is `quit` from a GUI that went away: a search in progress stops at once (after
/// depth 1, which always completes) and the engine exits with status 0. Before, a depth-8
/// search ran on for 13 s to write its move into a closed pipe, and analysis never ended.
#[test]
fn end_of_input_ends_every_search() {
    let searcher = ["--player", "search:depth=8", "--seed", "1"];
    let (status, lines) =
        run_until_eof(&searcher, &format!("xboard\nprotover 2\npost\nsetboard {MIDDLEGAME}\nlevel 0 60 0\ngo\n"))
            .expect("a timed search outlived its input");
    assert!(status.success(), "{status:?}");
    let at = lines.iter().position(|l| l.starts_with("move ")).expect("the move is still written");
    let ply: u32 = lines[at - 1].split_whitespace().next().and_then(|d| d.parse().ok()).unwrap();
    assert!(ply < 8, "the search ran to depth 8 after the input closed: {lines:?}");

    let (status, lines) =
        run_until_eof(&searcher, &format!("xboard\nprotover 2\npost\nsetboard {MIDDLEGAME}\nanalyze\n"))
            .expect("analysis outlived its input");
    assert!(status.success() && lines.iter().any(|l| l.starts_with("1 ")), "{status:?} {lines:?}");

    let (status, lines) = run_until_eof(&searcher, &format!("uci\nposition fen {MIDDLEGAME}\ngo infinite\n"))
        .expect("go infinite outlived its input");
    assert!(status.success(), "{status:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 1 ")), "{lines:?}");
}

/// `quit` queued behind a long search ends it too, whenever the search starts.
#[test]
fn quit_behind_a_search_ends_it() {
    let (status, lines) = run_until_eof(
        &["--player", "search:depth=8", "--seed", "1"],
        &format!("uci\nposition fen {MIDDLEGAME}\ngo infinite\nquit\n"),
    )
    .expect("quit did not end the analysis");
    assert!(status.success(), "{status:?} {lines:?}");
}

// ---- the built binary: its output closed, its memory short, its stderr ---------------------------

/// The GUI closes the engine's output during `go infinite` and keeps its input open: the
/// engine stops searching and exits (it used to search on, a core busy, until `stop`).
#[test]
fn the_binary_exits_when_its_output_is_closed() {
    use std::io::BufRead;
    let mut child = spawn_engine(&["--player", "search:depth=8", "--seed", "1"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("uci\nposition fen {MIDDLEGAME}\ngo infinite\n").as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while out.read_line(&mut line).unwrap() > 0 && !line.starts_with("info depth") {
        line.clear();
    }
    drop(out);
    let pid = child.id();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let killed = done_rx.recv_timeout(PATIENCE).is_err();
        if killed {
            let _ = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
        killed
    });
    let status = child.wait().unwrap();
    let _ = done_tx.send(());
    assert!(!watchdog.join().unwrap(), "still searching a minute after its output closed");
    assert!(status.success(), "{status:?}");
    drop(stdin);
}

/// The built binary with its stdin, stdout and stderr, `input` written and the input closed.
fn run_binary(shell_prefix: Option<&str>, args: &[&str], input: &str) -> (std::process::ExitStatus, String, String) {
    use std::process::{Command, Stdio};
    let binary = env!("CARGO_BIN_EXE_agentchess");
    let mut command = match shell_prefix {
        // `sh -c 'PREFIX; exec "$0" "$@"' BINARY ARGS...`
        Some(prefix) => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("{prefix}; exec \"$0\" \"$@\"")).arg(binary);
            c
        }
        None => Command::new(binary),
    };
    let mut child = command
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start agentchess");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status, String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A table larger than the memory to be had (here a limit of 3,000,000 KB of address space on
/// the process, as `ulimit -v` sets): the engine says so, takes the largest table it can have,
/// and plays on, over both protocols. It used to abort ("memory allocation of 4294967296 bytes
/// failed").
#[test]
fn a_table_too_large_for_the_memory_is_made_smaller() {
    let limit = Some("ulimit -v 3000000");
    let (status, out, err) =
        run_binary(limit, &[], "uci\nsetoption name Hash value 4096\nisready\nposition startpos\ngo depth 3\n");
    assert!(status.success(), "{status:?} {err}");
    let said = out.lines().find(|l| l.starts_with("info string Hash 4096")).unwrap_or_else(|| panic!("{out}"));
    let got: usize = said.rsplit(' ').nth(1).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{said}"));
    assert!(said.contains("not that much memory") && (1..4096).contains(&got), "{said}");
    assert!(out.contains("\nreadyok\n") && out.contains("\nbestmove "), "{out}");

    let (status, out, err) = run_binary(limit, &[], "xboard\nprotover 2\nmemory 4096\nnew\nsd 3\ngo\nping 1\n");
    assert!(status.success(), "{status:?} {err}");
    assert!(out.contains("\ntelluser memory 4096: not that much memory to be had; the table has "), "{out}");
    assert!(out.contains("\nmove ") && out.ends_with("pong 1\n"), "{out}");
}

/// Bad input is answered on stdout, and nothing is said on stderr: match runners count a
/// warning there as the engine's fault (an illegal `setboard` used to log one beside its
/// `tellusererror`).
#[test]
fn bad_input_leaves_stderr_silent() {
    let long = "x".repeat(20_000);
    let (status, out, err) = run_binary(
        None,
        &[],
        &format!(
            "xboard\nprotover 2\nsetboard garbage\nsetboard 8/8/8/8/8/8/8/8 w - - 0 1\n{long}\nblack\nnew\ne2e5\nping 1\n"
        ),
    );
    assert!(status.success(), "{status:?}");
    assert!(out.contains("tellusererror Illegal position") && out.ends_with("pong 1\n"), "{out}");
    assert_eq!(err, "", "stderr");
    let (status, out, err) =
        run_binary(None, &[], &format!("uci\njoho debug on\nposition fen garbage\nposition\n{long}\nisready\n"));
    assert!(status.success() && out.ends_with("readyok\n"), "{status:?} {out}");
    assert_eq!(err, "", "stderr");
}

/// The threads of a running process (Linux's /proc).
#[cfg(target_os = "linux")]
fn threads_of(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status.lines().find_map(|l| l.strip_prefix("Threads:")).and_then(|n| n.trim().parse().ok()).unwrap()
}

/// Level 10 on two threads over UCI (`Threads`): the helper thread searches while the engine
/// thinks, and is gone when `bestmove` comes, however the search ended (`stop`, its depth, its
/// clock); a search after many never finds more threads than the first did.
#[cfg(target_os = "linux")]
#[test]
fn every_search_thread_is_joined_when_the_move_is_given() {
    use std::io::BufRead;
    if agentchess::protocol::engine::max_threads() < 2 {
        eprintln!("one core: Threads 2 is refused here, nothing to check");
        return;
    }
    let mut child = spawn_engine(&["--seed", "1"]);
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut say = |text: &str| {
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    let mut until = |prefix: &str| {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(out.read_line(&mut line).unwrap() > 0, "the engine ended before {prefix:?}");
            assert!(!line.starts_with("info string Threads"), "{line}");
            if line.starts_with(prefix) {
                return line.clone();
            }
        }
    };
    say("uci\nsetoption name Threads value 2\nposition startpos\ngo depth 3\n");
    until("bestmove");
    say("isready\n");
    until("readyok");
    let idle = threads_of(pid);
    for (go, end) in
        [("go infinite", Some("stop")), ("go depth 9", None), ("go movetime 300", None), ("go infinite", Some("stop"))]
    {
        say(&format!("position fen {MIDDLEGAME}\n{go}\n"));
        until("info depth 5 ");
        let searching = threads_of(pid);
        assert!(searching > idle, "{go}: {searching} threads searching, {idle} idle: no helper");
        if let Some(end) = end {
            say(&format!("{end}\n"));
        }
        until("bestmove");
        say("isready\n");
        until("readyok");
        // The system counts a joined thread for a moment after its join returns.
        let mut left = threads_of(pid);
        for _ in 0..100 {
            if left == idle {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
            left = threads_of(pid);
        }
        assert_eq!(left, idle, "{go}: threads left after the move");
    }
    say("quit\n");
    assert!(child.wait().unwrap().success());
}
