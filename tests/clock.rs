//! What each clock command gives a decision: the time budgets of XBoard's `level`, `st`,
//! `time`, `sd` and `nps` and of UCI's `go` parameters, as the player receives them; and a
//! searcher with no time left still searches depth 1.

mod common;

use agentchess::board::Game;
use agentchess::players::{Decision, Player};
use agentchess::protocol::clock::{budget, per_move_budget};
use agentchess::protocol::{Engine, SearchLimits, Session, UciSession};
use common::{engine, player};
use std::time::Duration;

/// Plays the first legal move and keeps the limits each decision was given.
struct LimitsSpy(std::sync::Arc<std::sync::Mutex<Vec<SearchLimits>>>);

impl Player for LimitsSpy {
    fn name(&self) -> String {
        "spy".into()
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        let mv = *game.position().legal_moves().iter().next()?;
        Some(Decision {
            mv,
            score: 0,
            mate: None,
            depth: 1,
            pv: vec![mv],
            reason: String::new(),
            nodes: 1,
            multipv: 0,
            tbhits: 0,
        })
    }

    fn decide_within(&mut self, game: &Game, limits: &SearchLimits) -> Option<Decision> {
        self.0.lock().unwrap().push(limits.clone());
        self.decide(game)
    }
}

fn spy_engine() -> (Engine, std::sync::Arc<std::sync::Mutex<Vec<SearchLimits>>>) {
    let seen = std::sync::Arc::default();
    (Engine::with_player(Box::new(LimitsSpy(std::sync::Arc::clone(&seen))), player("random"), 1).freeze_time(), seen)
}

/// Limits with the times of a clock budget and nothing else.
fn timed((soft, hard): (Duration, Duration)) -> SearchLimits {
    SearchLimits { soft_time: Some(soft), hard_time: Some(hard), ..SearchLimits::default() }
}

/// UCI: the mover's clock and increment (Black's with Black to move), `movestogo`, `movetime`
/// over the clocks, `nodes`, and `go ponder` held until `ponderhit`.
#[test]
fn uci_go_parameters_reach_the_player() {
    let (engine, seen) = spy_engine();
    let mut u = UciSession::new(engine);
    let mut send = |line: &str| -> Vec<String> { u.handle_line(line).iter().map(|r| r.to_string()).collect() };
    let mut go = |position: &str, go: &str| -> (Vec<String>, SearchLimits) {
        send(position);
        let out = send(go);
        (out, seen.lock().unwrap().pop().expect("a decision"))
    };
    let ms = Duration::from_millis;
    let clocks = "go wtime 1000 btime 60000 winc 10 binc 2000";
    assert_eq!(
        go("position startpos moves e2e4", clocks).1,
        timed(budget(ms(60_000), ms(2000), None)),
        "Black's clock"
    );
    assert_eq!(go("position startpos", clocks).1, timed(budget(ms(1000), ms(10), None)), "White's clock");
    let (_, limits) = go("position startpos", "go wtime 10000 btime 10000 movestogo 5");
    assert_eq!(limits, timed(budget(ms(10_000), Duration::ZERO, Some(5))));
    assert_ne!(limits, timed(budget(ms(10_000), Duration::ZERO, None)), "movestogo must matter here");
    assert_eq!(
        go("position startpos", "go movetime 300 wtime 100000").1,
        timed(per_move_budget(ms(300))),
        "movetime wins"
    );
    assert_eq!(
        go("position startpos", "go nodes 5000").1,
        SearchLimits { nodes: Some(5000), ..SearchLimits::default() }
    );
    let (out, limits) = go("position startpos moves e2e4", "go ponder wtime 1000 btime 1000");
    assert!(limits.infinite && limits.soft_time.is_none(), "{limits:?}");
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "a bestmove while pondering: {out:?}");
    // `ponderhit`: the GUI's move is the one pondered on, and the engine's clock runs. The
    // search goes on, now on that clock (Black's second), not the pondering's answer at once.
    let (out, limits) = go("", "ponderhit");
    assert_eq!(out.last().map(String::as_str), Some("bestmove b8a6"), "{out:?}");
    assert_eq!(limits, timed(budget(ms(1000), Duration::ZERO, None)), "no search on the clock");
    // `stop` instead: the opponent played another move, and the pondering's answer is all.
    go("position startpos moves e2e4", "go ponder wtime 1000 btime 1000");
    assert_eq!(send("stop"), ["bestmove b8a6"]);
    assert!(seen.lock().unwrap().is_empty(), "no search after stop");
}

/// XBoard: `level 0 2:10 5` with its increment, `time` as the engine's clock and `otim` never
/// taken for it, and `time` still the engine's own after `playother` and after `white`/`black`
/// hand it the other colour.
#[test]
fn xboard_clock_commands_reach_the_player() {
    let (engine, seen) = spy_engine();
    let mut s = Session::new(engine);
    let last = |s: &mut Session, lines: &[&str]| -> SearchLimits {
        for line in lines {
            s.handle_line(line);
        }
        seen.lock().unwrap().pop().expect("a decision")
    };
    let ms = Duration::from_millis;
    for line in ["xboard", "protover 2", "new", "level 0 2:10 5"] {
        s.handle_line(line);
    }
    // The engine plays Black: its clock is `time` (130 s), not `otim` (90 s).
    assert_eq!(last(&mut s, &["time 13000", "otim 9000", "e2e4"]), timed(budget(ms(130_000), ms(5000), None)));
    // playother with Black to move: the engine takes White; `time` is still its own clock.
    assert_eq!(
        last(&mut s, &["force", "d2d4", "playother", "time 4000", "otim 20000", "d7d5"]),
        timed(budget(ms(40_000), ms(5000), None))
    );
    assert_eq!(s.game().moves().len(), 5, "the engine replied as White");
    // `white` then `black` (protocol 1): Black to move, the engine plays White.
    assert_eq!(
        last(&mut s, &["force", "white", "black", "time 700", "otim 50000", "g8f6"]),
        timed(budget(ms(7000), ms(5000), None))
    );
    // (`white`/`black` restart the game from the edited position: count from there.)
    assert_eq!(
        (s.game().moves().len(), s.game().position().side_to_move()),
        (2, agentchess::board::Color::Black),
        "the engine replied as White"
    );
    assert!(seen.lock().unwrap().is_empty());
}

#[test]
fn budgets_follow_the_time_control() {
    use std::time::Duration;
    let mut s = Session::new(engine(&[]));
    let ms = |d: Option<Duration>| d.unwrap().as_millis();
    for line in ["new", "level 40 1 0", "time 6000", "otim 6000"] {
        s.handle_line(line);
    }
    // 60 s for 40 moves, less the safety margin.
    assert_eq!(ms(s.next_move_limits().soft_time), 1498);
    s.handle_line("st 5");
    let l = s.next_move_limits();
    assert_eq!((ms(l.soft_time), ms(l.hard_time)), (4950, 4950));
    s.handle_line("sd 4");
    s.handle_line("nps 1000");
    assert_eq!(s.next_move_limits().depth, Some(4));
    assert_eq!(s.next_move_limits().nodes, Some(5000));
    s.handle_line("new");
    assert_eq!(s.next_move_limits().depth, None);
    assert_eq!(s.next_move_limits().nodes, None);
    // One second for the game with a 10 ms increment: tiny budgets that still end in time.
    for line in ["level 0 0:01 0.01", "time 100"] {
        s.handle_line(line);
    }
    let l = s.next_move_limits();
    assert!(ms(l.hard_time) < 500 && ms(l.soft_time) <= ms(l.hard_time));
    // A clock at zero still gets an answer at once.
    s.handle_line("time 0");
    assert_eq!(ms(s.next_move_limits().hard_time), 0);
    // With moves per session, each move made brings the next time control nearer.
    for line in ["new", "level 10 1 0", "time 6000"] {
        s.handle_line(line);
    }
    assert_eq!(ms(s.next_move_limits().soft_time), 5995);
    assert_eq!(s.handle_line("e2e4").len(), 1);
    assert_eq!(ms(s.next_move_limits().soft_time), 6661);
}

/// No time, a negative clock, `st 0`, a zero time control or a zero node budget: the searcher
/// still completes depth 1 and so takes a hanging queen, instead of answering the first move
/// generated with "depth 1, nodes 0".
#[test]
fn the_searcher_searches_depth_one_with_no_time() {
    let hanging_queen = "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1";
    for clock in ["time 0", "time -5", "st 0", "level 0 0 0"] {
        let mut s = Session::new(Engine::new(player("search:depth=4"), 1).unwrap().freeze_time());
        let mut replies = Vec::new();
        for line in ["xboard", "protover 2", "post", "force", &format!("setboard {hanging_queen}"), clock, "go"] {
            replies = s.handle_line(line).iter().map(|r| r.to_string()).collect();
        }
        assert!(replies.contains(&"move d2d5".to_string()), "{clock}: {replies:?}");
        let nodes: u64 = replies[0].split_whitespace().nth(3).and_then(|n| n.parse().ok()).unwrap();
        assert!(nodes > 0, "{clock}: {replies:?}");
    }
    for go in ["go wtime 0 btime 0", "go movetime 0", "go nodes 0"] {
        let mut u = UciSession::new(Engine::new(player("search:depth=4"), 1).unwrap().freeze_time());
        u.handle_line(&format!("position fen {hanging_queen}"));
        let out: Vec<String> = u.handle_line(go).iter().map(|r| r.to_string()).collect();
        assert_eq!(out.last().unwrap(), "bestmove d2d5", "{go}: {out:?}");
        assert!(!out[0].contains(" nodes 0 "), "{go}: {out:?}");
    }
}
