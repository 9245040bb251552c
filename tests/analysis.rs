//! Thinking output and analysis: XBoard's analyze mode, the searcher's depth and mate distance
//! in thinking lines, its iterations streamed as soon as each completes, and the agents'
//! analysis by level 10's tree over the same agents.

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

/// With a live output, the searcher's completed iterations are shown as soon as each completes,
/// the last one too, so the move comes without repeating it. Without `post`, or for the
/// agents, nothing is streamed.
#[test]
fn thinking_lines_stream_while_the_searcher_runs() {
    use std::cell::RefCell;
    let depths = |lines: &[String]| -> Vec<String> {
        lines.iter().map(|l| l.split_whitespace().next().unwrap_or("").to_string()).collect()
    };
    for (spec, post, live_depths) in
        [("search:depth=3", true, vec!["1", "2", "3"]), ("search:depth=3", false, vec![]), ("level:7", true, vec![])]
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
        if spec.starts_with("search") {
            assert_eq!(replies.len(), 1, "the move alone: its line went out live: {replies:?}");
        }
    }

    let live = RefCell::new(Vec::new());
    let mut uci = UciSession::new(Engine::new(player("search:depth=3"), 1).unwrap().freeze_time());
    uci.set_live_output(|r| live.borrow_mut().push(r.to_string()));
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    let out: Vec<String> = uci.handle_line("go").iter().map(|r| r.to_string()).collect();
    let streamed: Vec<String> =
        live.borrow().iter().map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")).collect();
    assert_eq!(streamed, ["info depth 1", "info depth 2", "info depth 3"]);
    assert!(out.len() == 1 && out[0].starts_with("bestmove "), "{out:?}");
}

/// Analysis of a player that judges one move at a time (levels 1-9) is done by level 10's tree
/// over the same agents: each line is a depth the tree searched, one deeper than the last, every
/// line legal, and the analysis goes on until it is told to stop.
#[test]
fn agents_analysis_reports_the_depths_their_tree_searched() {
    let (_, lines) = analyse_on_a_thread("level:7", &["xboard", "protover 2", "post", "new"], 5);
    let depths: Vec<u32> = lines.iter().map(|l| l.split_whitespace().next().unwrap().parse().unwrap()).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5], "{lines:?}");
    for line in &lines {
        let mut game = agentchess::board::Game::startpos();
        for san in line.split_whitespace().skip(4) {
            let mv = game.position().parse_move(san).unwrap_or_else(|e| panic!("{san} in {line}: {e}"));
            game.play(mv);
        }
    }
}

/// UCI `MultiPV 3`: every depth level 10 completes is reported as three lines ranked 1, 2, 3
/// with three different first moves; with one line (the default) no rank is sent, and a value
/// out of range is refused in an info string.
#[test]
fn multipv_reports_the_best_lines_of_every_depth() {
    use std::cell::RefCell;
    let live = RefCell::new(Vec::new());
    let mut uci = UciSession::new(Engine::new(player("level:10"), 1).unwrap().freeze_time());
    uci.set_live_output(|r| live.borrow_mut().push(r.to_string()));
    let refused: Vec<String> =
        uci.handle_line("setoption name MultiPV value 0").iter().map(|r| r.to_string()).collect();
    assert_eq!(refused, ["info string MultiPV must be 1 to 64, got '0'"]);
    uci.handle_line("setoption name MultiPV value 3");
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    let out: Vec<String> = uci.handle_line("go depth 4").iter().map(|r| r.to_string()).collect();
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    let streamed = live.borrow().clone();
    assert_eq!(streamed.len(), 12, "{streamed:?}");
    for (depth, group) in streamed.chunks(3).enumerate() {
        let mut firsts = Vec::new();
        for (rank, line) in group.iter().enumerate() {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(
                words[2..6],
                [&*(depth + 1).to_string(), "multipv", &*(rank + 1).to_string(), "score"],
                "{line}"
            );
            let pv = words.iter().position(|w| *w == "pv").expect("a pv");
            firsts.push(words[pv + 1].to_string());
        }
        firsts.sort();
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "{group:?}");
    }
    // The move played is the first line's, and the move to ponder on its reply; the first line
    // is not sent again with the move.
    let line: Vec<&str> = streamed[9].split(" pv ").nth(1).unwrap().split_whitespace().collect();
    assert_eq!(out, [format!("bestmove {} ponder {}", line[0], line[1])]);

    live.borrow_mut().clear();
    uci.handle_line("setoption name MultiPV value 1");
    uci.handle_line("go depth 2");
    assert!(live.borrow().iter().all(|l| !l.contains("multipv")), "{:?}", live.borrow());
}

/// XBoard `exclude`: with every move but e2e4 left out, the analysis of the position is about
/// e2e4 alone, and an illegal move is refused.
#[test]
fn excluded_moves_stay_out_of_the_analysis() {
    let setup = ["xboard", "protover 2", "post", "new", "exclude all", "include e2e4", "exclude e2e5"];
    let (first, lines) = analyse_on_a_thread("level:10", &setup, 4);
    assert!(first.contains(&"Error (illegal move): exclude e2e5".to_string()), "{first:?}");
    for line in &lines {
        assert_eq!(line.split_whitespace().nth(4), Some("e4"), "{lines:?}");
    }
}

/// An XBoard session with `spec` on a thread of its own: the `setup` lines, then `analyze`, whose
/// first `wanted` live lines are returned with the replies to `setup` once the analysis has been
/// told to stop (and has stopped).
fn analyse_on_a_thread(spec: &str, setup: &[&str], wanted: usize) -> (Vec<String>, Vec<String>) {
    use std::sync::mpsc;
    let engine = Engine::new(player(spec), 1).unwrap();
    let interrupt = engine.interrupt();
    let (tx, rx) = mpsc::channel::<String>();
    let setup: Vec<String> = setup.iter().map(|l| l.to_string()).collect();
    let analysis = std::thread::spawn(move || {
        let mut s = Session::new(engine);
        s.set_live_output(move |r| {
            let _ = tx.send(r.to_string());
        });
        let replies: Vec<String> = setup.iter().flat_map(|line| s.handle_line(line)).map(|r| r.to_string()).collect();
        s.handle_line("analyze");
        replies
    });
    let mut lines = Vec::new();
    while lines.len() < wanted {
        lines.push(rx.recv_timeout(std::time::Duration::from_secs(60)).expect("an analysis line"));
    }
    interrupt.raise(false);
    (analysis.join().expect("analysis ends when told"), lines)
}

/// A mate in one under analysis (UCI `go infinite`, XBoard `analyze`): a few depths, then the
/// analysis waits for `stop`/`exit` instead of pouring out a line per depth to the deepest;
/// every line has a depth of its own (the move's line is not sent twice at the same depth).
#[test]
fn a_mate_ends_the_deepening_of_analysis() {
    use std::cell::RefCell;
    let mate_in_one = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let depths = |lines: &[String], word: usize| -> Vec<u32> {
        lines.iter().filter_map(|l| l.split_whitespace().nth(word)?.parse().ok()).collect()
    };
    for spec in ["level:10", "level:5", "search:depth=3"] {
        let live = RefCell::new(Vec::new());
        let mut uci = UciSession::new(Engine::new(player(spec), 1).unwrap().freeze_time());
        uci.set_live_output(|r| live.borrow_mut().push(r.to_string()));
        uci.handle_line(&format!("position fen {mate_in_one}"));
        let out: Vec<String> = uci.handle_line("go infinite").iter().map(|r| r.to_string()).collect();
        assert!(out.is_empty(), "{spec}: {out:?}");
        let mut lines = live.borrow().clone();
        lines.extend(out);
        let seen = depths(&lines, 2);
        assert!((1..=8).contains(&seen.len()), "{spec}: {lines:?}");
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{spec}: {lines:?}");
        assert!(lines.iter().all(|l| l.contains("score mate 1")), "{spec}: {lines:?}");
        let out: Vec<String> = uci.handle_line("stop").iter().map(|r| r.to_string()).collect();
        assert_eq!(out, ["bestmove a1a8"], "{spec}");

        let live = RefCell::new(Vec::new());
        let mut s = Session::new(Engine::new(player(spec), 1).unwrap().freeze_time());
        s.set_live_output(|r| live.borrow_mut().push(r.to_string()));
        for line in ["xboard", "protover 2", "post", &format!("setboard {mate_in_one}")] {
            s.handle_line(line);
        }
        let out: Vec<String> = s.handle_line("analyze").iter().map(|r| r.to_string()).collect();
        let mut lines = live.borrow().clone();
        lines.extend(out);
        let seen = depths(&lines, 0);
        assert!((1..=8).contains(&seen.len()) && seen.windows(2).all(|w| w[0] < w[1]), "{spec}: {lines:?}");
    }
}
