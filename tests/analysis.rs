//! Thinking output and analysis: XBoard's analyze mode, the searcher's depth and mate distance
//! in thinking lines, its iterations streamed while it runs, and the agents' analysis line
//! growing ply by ply.

mod common;

use agentchess::protocol::{Engine, Session, UciSession};
use common::{MIDDLEGAME, player, xboard_file};

#[test]
fn analyze_mode_reports_after_every_change() {
    xboard_file("xboard/analyze");
}

/// The searcher's thinking line carries its depth and XBoard's mate convention (100000 + N for
/// mate in N); UCI gets `depth` and `score mate N`.
#[test]
fn searcher_thinking_shows_depth_and_mate_distance() {
    let engine = Engine::new(player("search:depth=3"), 1).unwrap().freeze_time();
    let mut session = Session::new(engine);
    let mut replies = Vec::new();
    for line in ["xboard", "protover 2", "post", "setboard 7k/8/5K2/8/8/8/8/1R6 w - - 0 1", "go"] {
        replies.extend(session.handle_line(line).iter().map(|r| r.to_string()));
    }
    let thinking = replies.iter().find(|l| l.starts_with(|c: char| c.is_ascii_digit())).expect("a thinking line");
    let fields: Vec<&str> = thinking.split_whitespace().collect();
    assert_eq!((fields[0], fields[1]), ("3", "100002"), "{thinking}");
    assert_eq!(fields[4..], ["Kf7", "Kh7", "Rh1#"], "{thinking}");
    assert!(replies.iter().any(|l| l == "move f6f7"), "{replies:?}");

    let mut uci = UciSession::new(Engine::new(player("search:depth=3"), 1).unwrap().freeze_time());
    uci.handle_line("position fen 7k/8/5K2/8/8/8/8/1R6 w - - 0 1");
    let out: Vec<String> = uci.handle_line("go").iter().map(|r| r.to_string()).collect();
    assert!(out[0].starts_with("info depth 3 score mate 2 "), "{out:?}");
    assert!(out[0].ends_with(" pv f6f7 h8h7 b1h1"), "{out:?}");
}

/// With a live output, the searcher's completed iterations are shown while it thinks; the last
/// one comes with the move, as before. Without `post`, or for the agents, nothing extra.
#[test]
fn thinking_lines_stream_while_the_searcher_runs() {
    use std::cell::RefCell;
    let depths = |lines: &[String]| -> Vec<String> {
        lines.iter().map(|l| l.split_whitespace().next().unwrap_or("").to_string()).collect()
    };
    for (spec, post, live_depths) in
        [("search:depth=3", true, vec!["1", "2"]), ("search:depth=3", false, vec![]), ("level:7", true, vec![])]
    {
        let live = RefCell::new(Vec::new());
        let mut s = Session::new(Engine::new(player(spec), 1).unwrap().freeze_time());
        s.set_live_output(|r| live.borrow_mut().push(r.to_string()));
        let mut replies = Vec::new();
        let setup = format!("setboard {MIDDLEGAME}");
        for line in ["xboard", "protover 2", if post { "post" } else { "nopost" }, &setup, "go"] {
            replies = s.handle_line(line).iter().map(|r| r.to_string()).collect();
        }
        assert_eq!(depths(&live.borrow()), live_depths, "{spec} post={post}");
        assert!(replies.last().unwrap().starts_with("move "), "{replies:?}");
        if post && spec.starts_with("search") {
            assert!(replies[0].starts_with("3 "), "{replies:?}");
        }
    }

    let live = RefCell::new(Vec::new());
    let mut uci = UciSession::new(Engine::new(player("search:depth=3"), 1).unwrap().freeze_time());
    uci.set_live_output(|r| live.borrow_mut().push(r.to_string()));
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    let out: Vec<String> = uci.handle_line("go").iter().map(|r| r.to_string()).collect();
    let streamed: Vec<String> =
        live.borrow().iter().map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")).collect();
    assert_eq!(streamed, ["info depth 1", "info depth 2"]);
    assert!(out[0].starts_with("info depth 3 ") && out[1].starts_with("bestmove "), "{out:?}");
}

/// Analysis of a player that judges one move at a time reports its line ply by ply, so that a
/// client analysing to a depth gets there (python-chess waited forever for depth 2).
#[test]
fn agents_analysis_reaches_any_depth() {
    use std::cell::RefCell;
    let live = RefCell::new(Vec::new());
    let mut s = Session::new(Engine::new(player("level:7"), 1).unwrap().freeze_time());
    s.set_live_output(|r| live.borrow_mut().push(r.to_string()));
    let mut last = Vec::new();
    for line in ["xboard", "protover 2", "post", "new", "analyze"] {
        last = s.handle_line(line).iter().map(|r| r.to_string()).collect();
    }
    let mut lines = live.borrow().clone();
    lines.extend(last);
    let mut depths: Vec<u32> = lines.iter().map(|l| l.split_whitespace().next().unwrap().parse().unwrap()).collect();
    if depths.len() >= 2 && depths[depths.len() - 1] == 64 && depths[depths.len() - 2] < 63 {
        // The game ended in the line: its last line is repeated at depth 64.
        assert_eq!(
            lines[lines.len() - 1].split_whitespace().skip(4).collect::<Vec<_>>(),
            lines[lines.len() - 2].split_whitespace().skip(4).collect::<Vec<_>>()
        );
        depths.pop();
        lines.pop();
    }
    assert_eq!(depths, (1..=depths.len() as u32).collect::<Vec<_>>(), "one more ply a line: {lines:?}");
    let longest = lines.last().unwrap();
    assert_eq!(longest.split_whitespace().count(), 4 + depths.len(), "the line has one move a ply: {longest}");
    // The line goes on until the game ends in it or it is 64 plies long.
    let mut game = agentchess::board::Game::startpos();
    for san in longest.split_whitespace().skip(4) {
        let mv = game.position().parse_move(san).unwrap_or_else(|e| panic!("{san} in {longest}: {e}"));
        game.play(mv);
    }
    let plies = depths.len() as u32;
    assert!(plies == 64 || game.outcome().is_some(), "the line stopped early: {longest}");
    // A line that ends the game is complete at any depth: one more line says so at depth 64.
    assert_eq!(s.handle_line("exit").len(), 0);
    // The first move of every line is the move the agents would play.
    let first = |l: &String| l.split_whitespace().nth(4).unwrap().to_string();
    assert!(lines.iter().all(|l| first(l) == first(&lines[0])), "{lines:?}");
}
