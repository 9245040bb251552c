//! The UCI session, as transcripts against the deterministic test player (tests/common); the
//! transcripts are files under tests/data/transcripts/uci.

mod common;

use agentchess::protocol::{Engine, UciSession};
use common::uci_file;

/// A UCI session with `spec` playing at seed 1, past its `uci` handshake.
fn session_after_uci(spec: &str) -> UciSession<'static> {
    let mut uci = UciSession::new(Engine::new(common::player(spec), 1).unwrap());
    uci.handle_line("uci");
    uci
}

/// The replies to one line, as text.
fn send(uci: &mut UciSession, line: &str) -> Vec<String> {
    uci.handle_line(line).iter().map(|r| r.to_string()).collect()
}

#[test]
fn uci_session() {
    uci_file("uci/session");
}

#[test]
fn uci_bad_input() {
    uci_file("uci/bad_input");
}

/// The Syzygy options: a path without tables said in an info string (the engine plays on),
/// one with tables answered with their piece count, the spins' ranges, and the values shown
/// as the options' defaults after.
#[test]
fn uci_syzygy_options() {
    uci_file("uci/syzygy");
}

/// Level 10 with the tables: at a root they cover it plays their move at once (the quickest
/// win under the fifty-move rule, here KRvK's 27 plies to zeroing) with one tbhit, and in the
/// tree it probes positions that a capture brings into them.
#[test]
fn uci_level10_plays_from_the_tables() {
    let mut uci = session_after_uci("level:10");
    let mut send = |line: &str| send(&mut uci, line);
    assert_eq!(
        send("setoption name SyzygyPath value tests/data/syzygy"),
        ["info string Syzygy tables of up to 4 pieces found in tests/data/syzygy"]
    );
    send("position fen 8/8/8/8/8/2k5/8/KR6 w - - 0 1");
    let reply = send("go depth 10");
    assert_eq!(reply.len(), 2, "{reply:?}");
    assert!(reply[0].starts_with("info depth 1 score cp 297") && reply[0].contains(" tbhits 1 "), "{reply:?}");
    let mv = reply[1].strip_prefix("bestmove ").expect("a move");
    let after = agentchess::board::Position::from_fen("8/8/8/8/8/2k5/8/KR6 w - - 0 1").unwrap();
    let mv = *after.legal_moves().iter().find(|m| m.to_uci() == mv).expect("a legal move");
    let tables = agentchess::board::syzygy::Tablebase::open("tests/data/syzygy").unwrap();
    assert_eq!(tables.probe_dtz(&after.play(mv)), Some(-26), "{reply:?}");
    // KQvKR with a knight more for the rook's side: five pieces, out of the tables, until the
    // queen takes the knight.
    send("position fen 8/8/8/3k4/8/8/1n6/KQ1r4 w - - 0 1");
    let reply = send("go depth 4");
    assert!(reply.iter().any(|l| l.contains(" tbhits ")), "{reply:?}");
    assert!(reply.last().unwrap().starts_with("bestmove "), "{reply:?}");
}

/// UCI: "if the engine or the GUI receives an unknown command or token it should just ignore
/// it and try to parse the rest of the string in this line". A `go` that is not answered with
/// `bestmove` leaves the GUI waiting until it forfeits the engine.
#[test]
fn uci_skips_unknown_tokens_and_always_answers_go() {
    uci_file("uci/unknown_tokens");
}

/// `UCI_LimitStrength` and `UCI_Elo`: offered over the calibrated range, an Elo outside it
/// refused in an info string, and the setting that plays said when the strength is limited
/// (on the option and before each `bestmove`). The chosen level comes back when the limit goes.
#[test]
fn uci_elo_chooses_the_calibrated_setting() {
    use agentchess::players::spec::PlayerSpec;
    use agentchess::players::strength::{self, DEFAULT_ELO};
    let (min, max) = strength::range();
    let mut uci = UciSession::new(Engine::new(common::player("level:10"), 1).unwrap());
    let mut send = |line: &str| send(&mut uci, line);
    let plays = |elo: u32| PlayerSpec::from_setting(strength::setting(elo).unwrap()).to_string();

    let hello = send("uci");
    assert!(hello.contains(&"option name UCI_LimitStrength type check default false".to_string()), "{hello:?}");
    let spin = format!("option name UCI_Elo type spin default {DEFAULT_ELO} min {min} max {max}");
    assert!(hello.contains(&spin), "{hello:?}");

    let refused = format!("info string UCI_Elo must be {min} to {max}, got '{}'", max + 1);
    assert_eq!(send(&format!("setoption name UCI_Elo value {}", max + 1)), [refused]);
    assert_eq!(
        send("setoption name UCI_Elo value many")[0],
        format!("info string UCI_Elo must be {min} to {max}, got 'many'")
    );
    assert_eq!(
        send("setoption name UCI_LimitStrength value maybe"),
        ["info string UCI_LimitStrength must be true or false, got 'maybe'"]
    );
    assert_eq!(
        send("setoption name UCI_LimitStrength value true"),
        [format!("info string Elo {DEFAULT_ELO} plays {}", plays(DEFAULT_ELO))]
    );
    assert_eq!(
        send(&format!("setoption name UCI_Elo value {min}")),
        [format!("info string Elo {min} plays {}", plays(min))]
    );
    // A level chosen while the strength is limited waits for the limit to go.
    assert!(send("setoption name Level value 9").is_empty());
    send("position startpos moves e2e4");
    let reply = send("go depth 1");
    assert!(reply.contains(&format!("info string Elo {min} plays {}", plays(min))), "{reply:?}");
    assert!(reply.last().unwrap().starts_with("bestmove "), "{reply:?}");
    assert_eq!(send("setoption name UCI_LimitStrength value false"), ["info string strength not limited"]);
    assert!(send("uci").contains(&"option name Player type string default level:9".to_string()));
    let reply = send("go depth 1");
    assert!(!reply.iter().any(|l| l.starts_with("info string Elo")), "{reply:?}");
}

/// The same Seed replays a game move for move (the agents' random choices and level 10's
/// variety at a node budget alike); a different seed varies it.
#[test]
fn the_same_seed_replays_a_game() {
    let game = |spec: &str, seed: u64| {
        let mut uci = UciSession::new(Engine::new(common::player(spec), 99).unwrap().fresh_seed_every_game());
        let mut send = |line: &str| send(&mut uci, line);
        send(&format!("setoption name Seed value {seed}"));
        let mut moves: Vec<String> = Vec::new();
        send("ucinewgame");
        for _ in 0..16 {
            send(&format!("position startpos moves {}", moves.join(" ")));
            let reply = send("go");
            let best = reply.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
            moves.push(best);
        }
        moves
    };
    for spec in ["level:3", "level:9", "level:10,nodes=300"] {
        let first = game(spec, 7);
        assert_eq!(first, game(spec, 7), "{spec}: the same seed, the same game");
        let others: Vec<_> = (8..16).map(|seed| game(spec, seed)).collect();
        assert!(others.iter().any(|g| *g != first), "{spec}: eight other seeds, all the same game {first:?}");
    }
}

/// The move of the last line, `bestmove MOVE [ponder REPLY]`.
fn best_move(replies: &[String]) -> &str {
    let last = replies.last().map(String::as_str).unwrap_or("");
    last.strip_prefix("bestmove ").and_then(|rest| rest.split_whitespace().next()).unwrap_or(last)
}

/// `go searchmoves`: the move comes from the moves given, whoever plays (level 10 searches only
/// those; the agents of levels 1-9 hand the search to level 10's tree); a move that is not legal
/// is said in an info string, and with no legal move given every move is searched.
#[test]
fn searchmoves_restricts_the_root() {
    for spec in ["level:10", "level:3", "search:depth=2"] {
        let mut uci = session_after_uci(spec);
        let mut send = |line: &str| send(&mut uci, line);
        // White takes the queen on d5 with the rook unless told to look at king moves only.
        send("position fen 4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
        let free = send("go nodes 20000");
        assert_eq!(best_move(&free), "d2d5", "{spec}: {free:?}");
        let told = send("go searchmoves e1f1 e1f2 h7h8 nodes 20000");
        assert!(told.contains(&"info string searchmoves: 'h7h8' is not a legal move here".to_string()), "{told:?}");
        let best = best_move(&told);
        assert!(best == "e1f1" || best == "e1f2", "{spec}: {told:?}");
        let none = send("go searchmoves a1a8 depth 1");
        assert!(none.contains(&"info string searchmoves: no legal move given; every move is searched".to_string()));
        assert!(none.last().unwrap().starts_with("bestmove "), "{none:?}");
    }
}

/// A `go` sent while a `go infinite` holds its `bestmove` (no `stop` between) ends it: the old
/// search's `bestmove` comes before anything of the new search, its live `info` lines too.
#[test]
fn a_go_during_go_infinite_answers_the_old_search_first() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let mut uci = session_after_uci("level:10");
    let live = Rc::new(RefCell::new(Vec::new()));
    let sink = live.clone();
    uci.set_live_output(move |r| sink.borrow_mut().push(r.to_string()));
    let mut said = |line: &str| {
        let out: Vec<String> = uci.handle_line(line).iter().map(|r| r.to_string()).collect();
        let mut lines = live.take();
        lines.extend(out);
        lines
    };
    said("position startpos");
    let first = said("go infinite depth 2");
    assert!(first.iter().any(|l| l.starts_with("info depth")), "{first:?}");
    assert!(!first.iter().any(|l| l.starts_with("bestmove")), "held until stop: {first:?}");
    let second = said("go depth 2");
    assert!(second[0].starts_with("bestmove"), "{second:?}");
    assert_eq!(second.iter().filter(|l| l.starts_with("bestmove")).count(), 2, "{second:?}");
    assert!(second[1..].iter().any(|l| l.starts_with("info depth")), "{second:?}");
}

/// `go mate N`: level 10 (and the agents through it) stops with the mate when it finds one in N
/// moves; here a mate in three whose first move is quiet (WAC 191).
#[test]
fn go_mate_finds_the_mate() {
    for spec in ["level:10", "level:7"] {
        let mut uci = session_after_uci(spec);
        let mut send = |line: &str| send(&mut uci, line);
        send("position fen 2r1Rn1k/1p1q2pp/p7/5p2/3P4/1B4P1/P1P1QP1P/6K1 w - - 0 1");
        let reply = send("go mate 3");
        assert_eq!(best_move(&reply), "e2c4", "{spec}: {reply:?}");
        let info = reply.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
        assert!(info.contains("score mate 3"), "{spec}: {info}");
    }
}

/// `--player elo:N` is the strength limited at N: the options say so (not their defaults of
/// 1500 and off), the setting that plays is said before each `bestmove` (UCI) and move (XBoard,
/// with `post` and `debug`), and an Elo with nothing rated near it says how near the nearest
/// is.
#[test]
fn elo_on_the_command_line_limits_the_strength() {
    use agentchess::players::strength;
    use agentchess::protocol::Session;
    // An Elo with nothing rated near it, if the ladder has one (the note's wording is
    // checked on a ladder with gaps in strength.rs); else any Elo, which gets no note.
    let (min, max) = strength::range();
    let far = (min..=max).find(|&e| strength::gap(e).is_some());
    let elo = far.unwrap_or((min + max) / 2);
    let mut uci = UciSession::new(Engine::new(common::player(&format!("elo:{elo}")), 1).unwrap());
    let mut send = |line: &str| send(&mut uci, line);
    let hello = send("uci");
    assert!(hello.contains(&"option name UCI_LimitStrength type check default true".to_string()), "{hello:?}");
    let spin = format!("option name UCI_Elo type spin default {elo} ");
    assert!(hello.iter().any(|l| l.starts_with(&spin)), "{hello:?}");
    send("position startpos");
    let reply = send("go depth 1");
    let said = format!("info string Elo {elo} plays ");
    let note = reply.iter().find(|l| l.starts_with(&said)).expect("the setting said");
    match far.and_then(strength::gap) {
        Some((lo, hi)) => assert!(note.ends_with(&format!(": nothing is rated between {lo} and {hi})")), "{note}"),
        None => assert!(!note.contains("nothing is rated"), "{note}"),
    }

    let mut s = Session::new(Engine::new(common::player("elo:1600"), 1).unwrap());
    let mut send = |line: &str| s.handle_line(line).iter().map(|r| r.to_string()).collect::<Vec<_>>();
    let features = send("protover 2").join("\n");
    assert!(features.contains("feature option=\"LimitStrength -check 1\""), "{features}");
    assert!(features.contains("feature option=\"Elo -spin 1600 "), "{features}");
    send("accepted debug");
    send("post");
    send("new");
    let reply = send("go");
    assert!(reply.iter().any(|l| l.starts_with("# Elo 1600 plays level:10,nodes=")), "{reply:?}");
    assert!(reply.last().unwrap().starts_with("move "), "{reply:?}");
}

/// `UCI_Chess960`: on, castling is written as the king taking its own rook (`e1h1`, and `g1h1`
/// for a king already on g1); off, as the king's two-square move (`e1g1`), but a king that moves
/// fewer than two files still takes its rook, as nothing else reads unambiguously. Every form is
/// read either way; a refused value and a bad castling field are said in an info string.
#[test]
fn uci_chess960_writes_castling_as_the_king_taking_its_rook() {
    const STANDARD: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    const KING_ON_G1: &str = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1";
    let mut uci = UciSession::new(common::engine(&["e1g1", "g1g1", "e1g1", "g1g1"]));
    let transcript = format!(
        "> setoption name UCI_Chess960 value maybe
         < info string UCI_Chess960 must be true or false, got 'maybe'
         > setoption name UCI_Chess960 value true
         > position fen {STANDARD}
         > go depth 1
         < info depth 1 score cp 12 nodes 34 time 0 pv e1h1
         < bestmove e1h1
         > position fen {KING_ON_G1}
         > go depth 1
         < info depth 1 score cp 12 nodes 34 time 0 pv g1h1
         < bestmove g1h1
         > setoption name UCI_Chess960 value false
         > position fen {STANDARD}
         > go depth 1
         < info depth 1 score cp 12 nodes 34 time 0 pv e1g1
         < bestmove e1g1
         > position fen {KING_ON_G1}
         > go depth 1
         < info depth 1 score cp 12 nodes 34 time 0 pv g1h1
         < bestmove g1h1
         > position fen 4k3/8/8/8/8/8/8/R3K3 w G - 0 1
         < info string illegal position: castling right 'G' without its king on its back rank and a rook there on that side
         > go depth 1
         < info string no search: the last position was refused (illegal position: castling right 'G' without its king on its back rank and a rook there on that side); send a legal one
         < bestmove 0000"
    );
    common::run_transcript(&transcript, |line| send(&mut uci, line));
    let hello = send(&mut session_after_uci("level:1"), "uci");
    assert!(hello.contains(&"option name UCI_Chess960 type check default false".to_string()), "{hello:?}");
}

/// A GUI's castling is read as the king taking its rook, as the king's move or as O-O, with
/// UCI_Chess960 on or off, in X-FEN and Shredder-FEN positions alike.
#[test]
fn uci_reads_every_form_of_castling() {
    let after = |chess960: bool, fen: &str, moves: &str| {
        let mut uci = session_after_uci("level:1");
        send(&mut uci, &format!("setoption name UCI_Chess960 value {chess960}"));
        assert_eq!(send(&mut uci, &format!("position fen {fen} moves {moves}")), Vec::<String>::new(), "{moves}");
        uci.game().position().to_fen()
    };
    let standard = ["e1a1 e8h8", "e1c1 e8g8", "O-O-O O-O"];
    let cases = [
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", standard, "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", standard, "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2"),
        (
            "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
            ["g1h1 g8b8", "g1g1 g8c8", "O-O O-O-O"],
            "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2",
        ),
    ];
    for chess960 in [false, true] {
        for (fen, forms, want) in cases {
            for moves in forms {
                assert_eq!(after(chess960, fen, moves), want, "{fen} {moves} (UCI_Chess960 {chess960})");
            }
        }
    }
}

/// `UCI_ShowWDL`: with it on, every `info` line carries win, draw and loss chances per mille
/// that sum to a thousand and lean the way the score does (a mate all one way); off, none.
#[test]
fn show_wdl_adds_the_chances_to_every_info_line() {
    let mut uci = session_after_uci("level:10");
    let mut send = |line: &str| send(&mut uci, line);
    assert!(send("uci").iter().any(|l| l == "option name UCI_ShowWDL type check default false"));
    let chances = |line: &str| -> Option<(i64, [u32; 3])> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "wdl")?;
        let wdl = [1, 2, 3].map(|k| words[at + k].parse::<u32>().unwrap());
        let score = match words[at - 2] {
            "cp" => words[at - 1].parse::<i64>().unwrap(),
            _ => words[at - 1].parse::<i64>().unwrap().signum() * 100_000,
        };
        Some((score, wdl))
    };
    send("position fen 8/8/4k3/8/8/3K4/1P6/7R w - - 0 1");
    assert!(send("go depth 4").iter().filter(|l| l.starts_with("info depth")).all(|l| chances(l).is_none()));
    assert!(send("setoption name UCI_ShowWDL value true").is_empty());
    for (fen, depth) in [
        ("8/8/4k3/8/8/3K4/1P6/7R w - - 0 1", 4),
        ("8/8/4k3/8/8/3K4/1P6/7R b - - 0 1", 4),
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 5),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 4),
    ] {
        send(&format!("position fen {fen}"));
        let infos: Vec<String> =
            send(&format!("go depth {depth}")).into_iter().filter(|l| l.starts_with("info depth")).collect();
        assert!(!infos.is_empty(), "{fen}");
        for line in &infos {
            let (score, [w, d, l]) = chances(line).unwrap_or_else(|| panic!("no wdl in '{line}'"));
            assert_eq!(w + d + l, 1000, "{line}");
            if score > 50 {
                assert!(w > l, "{line}");
            } else if score < -50 {
                assert!(l > w, "{line}");
            }
            if score.abs() >= 100_000 {
                assert!(w == 1000 || l == 1000, "{line}");
            }
        }
    }
    assert_eq!(
        send("setoption name UCI_ShowWDL value maybe"),
        ["info string UCI_ShowWDL must be true or false, got 'maybe'"]
    );
    send("setoption name UCI_ShowWDL value false");
    send("position startpos");
    assert!(send("go depth 3").iter().all(|l| chances(l).is_none()));
}
