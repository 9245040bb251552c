//! `agentchess annotate`: the reasons name the right piece, square and motif on a set of
//! positions with one known reason each (tests/data/annotate_reasons.txt, checked against
//! Stockfish by tests/data/verify_annotate_reasons.py), and bad input is reported game by game
//! while the rest is annotated.

use agentchess::agents::Motif;
use agentchess::board::{Game, Position};
use agentchess::players::SearchLimits;
use agentchess::players::spec::PlayerSpec;
use agentchess::review::chances::Scale;
use agentchess::review::{note, view};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Nodes of level 10 a position for the reason set: enough to see each mistake's point.
const NODES: u64 = 100_000;

/// One line of the reason set.
struct Case {
    line: usize,
    fen: String,
    played: String,
    motif: String,
    piece: char,
    square: String,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/annotate_reasons.txt");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 5, "line {}: {l}", i + 1);
            Case {
                line: i + 1,
                fen: f[0].into(),
                played: f[1].into(),
                motif: f[2].into(),
                piece: f[3].chars().next().unwrap(),
                square: f[3][1..].into(),
            }
        })
        .collect()
}

/// The motif a set line names, and the word its sentence must use for it.
fn expected(motif: &str) -> (fn(Motif) -> bool, &'static str) {
    match motif {
        "hanging" => (|m| m == Motif::Hanging, "hanging"),
        "threat" => (|m| m == Motif::ThreatIgnored, "threat"),
        "fork" => (|m| m == Motif::ForkAllowed, "fork"),
        "mate" => (|m| matches!(m, Motif::MateMissed { .. }), "mate"),
        "passed-pawn" => (|m| m == Motif::PassedPawn, "passed pawn"),
        "exchange" => (|m| m == Motif::LosingExchange, "exchange"),
        other => panic!("unknown motif {other}"),
    }
}

fn piece_word(letter: char) -> &'static str {
    match letter {
        'P' => "pawn",
        'N' => "knight",
        'B' => "bishop",
        'R' => "rook",
        'Q' => "queen",
        'K' => "king",
        other => panic!("unknown piece {other}"),
    }
}

/// The reason `annotate` gives for the line's move, judged by level 10 at `NODES`, or why
/// there is none.
fn reason(case: &Case) -> Result<(Motif, char, String, String), String> {
    let pos = Position::from_fen(&case.fen).map_err(|e| e.to_string())?;
    let mv = pos.parse_san(&case.played).map_err(|e| e.to_string())?;
    let spec: PlayerSpec = "level:10".parse().unwrap();
    let mut judge = spec.build(1);
    let limits = SearchLimits { nodes: Some(NODES), ..SearchLimits::default() };
    let mut game = Game::new(pos);
    let now = view(judge.as_mut(), &game, &limits);
    game.play(mv);
    let next = view(judge.as_mut(), &game, &limits);
    let n = note(0, pos, mv, &now, &next, Scale::AGENTS);
    let mark = n.mark.ok_or_else(|| format!("not marked (loss {:.2}, {} to {})", n.loss, n.before, n.after))?;
    let c = n.critique.ok_or_else(|| format!("{mark:?} with no reason"))?;
    let letter = c.piece.to_char().to_ascii_uppercase();
    Ok((c.motif, letter, c.square.to_string(), c.to_string()))
}

#[test]
fn the_reasons_name_the_right_piece_square_and_motif() {
    let cases = cases();
    assert!(cases.len() >= 40, "{} positions", cases.len());
    let mut wrong = Vec::new();
    for case in &cases {
        let (is_motif, word) = expected(&case.motif);
        let verdict = match reason(case) {
            Ok((motif, piece, square, words)) => {
                let named = words.contains(piece_word(case.piece)) && words.contains(&case.square);
                if is_motif(motif) && piece == case.piece && square == case.square && named && words.contains(word) {
                    None
                } else {
                    Some(format!("{motif:?} {piece}{square}: {words}"))
                }
            }
            Err(why) => Some(why),
        };
        if let Some(v) = verdict {
            wrong.push(format!(
                "line {} {} {} (expected {} {}{}): {v}",
                case.line, case.fen, case.played, case.motif, case.piece, case.square
            ));
        }
    }
    let right = cases.len() - wrong.len();
    // At least 90% right, as issue 43 asks; the ones that are not are listed.
    assert!(right * 10 >= cases.len() * 9, "{right} of {} right:\n{}", cases.len(), wrong.join("\n"));
    eprintln!("{right} of {} reasons right", cases.len());
    for w in &wrong {
        eprintln!("not right: {w}");
    }
}

fn agentchess(args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_agentchess"));
    cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run agentchess");
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all(stdin.unwrap_or("").as_bytes());
    }
    child.wait_with_output().expect("agentchess ends")
}

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agentchess-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Games of every kind of bad input, with good games between them.
const MIXED: &str = "[Event \"good\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
[Event \"illegal\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n\
[Event \"unknown tag\"]\n[MyOwnTag \"kept as it is\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
[Event \"from a FEN\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n[Result \"*\"]\n\n40... Kd7 41. e4 Ke6 *\n\n\
[Event \"truncated\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4";

#[test]
fn bad_games_are_named_and_the_others_annotated() {
    let file = temp("mixed.pgn", MIXED);
    let out = agentchess(&["annotate", file.to_str().unwrap(), "--nodes", "3000", "--threads", "2"], None);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("game 2 (line 11): move 2. Ke3: illegal in the position"), "{stderr}");
    assert!(stderr.contains("game 5 (line 29): truncated"), "{stderr}");
    assert!(stderr.contains("2 game(s) could not be read"), "{stderr}");
    // The three good games, in the input's order, each with its own tags and moves.
    let events: Vec<&str> = stdout.lines().filter(|l| l.starts_with("[Event ")).collect();
    assert_eq!(events, ["[Event \"good\"]", "[Event \"unknown tag\"]", "[Event \"from a FEN\"]"], "{stdout}");
    assert!(stdout.contains("[MyOwnTag \"kept as it is\"]"), "{stdout}");
    assert!(stdout.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]"), "{stdout}");
    assert!(stdout.contains("40... Kd7"), "{stdout}");
    assert!(stdout.contains("[%eval"), "{stdout}");
    // 3... Nf6?? allows the mate: marked, explained, the better move given.
    let flat = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("3... Nf6??"), "{stdout}");
    assert!(flat.contains("Ng8-f6 allows mate in 1: Qh5xf7"), "{stdout}");
}

/// A judge that does not search gives no scores to judge by: refused before any game (it wrote
/// a review of zeros and exited 0).
#[test]
fn a_judge_that_does_not_search_is_refused() {
    let game = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let out = agentchess(&["annotate", "-", "--player", "random"], Some(game));
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not search"), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
}

#[test]
fn an_empty_input_exits_2() {
    let file = temp("empty.pgn", "");
    let out = agentchess(&["annotate", file.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game in"), "{out:?}");
    assert!(out.stdout.is_empty());
    // Standard input that holds nothing either.
    let out = agentchess(&["annotate"], Some("\n"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game in standard input"), "{out:?}");
    // A file that is not there.
    let out = agentchess(&["annotate", "/nonexistent/games.pgn"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn games_from_standard_input_and_a_page_in_a_folder() {
    let dir = std::env::temp_dir().join(format!("agentchess-annotate-out-{}", std::process::id()));
    let game = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let out = agentchess(&["annotate", "-", "--nodes", "3000", "--out", dir.to_str().unwrap()], Some(game));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let pgn = std::fs::read_to_string(dir.join("annotated.pgn")).unwrap();
    assert_eq!(pgn, String::from_utf8_lossy(&out.stdout));
    assert!(page.contains("<svg class=\"chart\""));
    assert!(page.contains("Nf6??"));
    let csv = std::fs::read_to_string(dir.join("moves.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 7, "{csv}");
    assert!(csv.lines().any(|l| l.starts_with("1,6,Nf6,Black,") && l.contains(",??,")), "{csv}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--syzygy`: the judge takes the tables' word where they cover the position. KRvK with the
/// rook thrown away: with the tables the position before is scored as a tablebase win and the
/// better move is the tables' quickest one (Rd1, 27 plies to mate's zeroing); without them
/// it is the tree's score. A folder without tables is refused before any game.
#[test]
fn annotate_and_explain_judge_by_the_tables_when_given_them() {
    let game = "[FEN \"8/8/8/8/8/2k5/8/KR6 w - - 0 1\"]\n[SetUp \"1\"]\n[Result \"1/2-1/2\"]\n\n1. Rb3+ Kxb3 1/2-1/2\n";
    let file = temp("krk.pgn", game);
    let first_row = |tables: bool| -> Vec<String> {
        let out_dir = std::env::temp_dir().join(format!("agentchess-annotate-tb-{}-{tables}", std::process::id()));
        let mut args = vec!["annotate", file.to_str().unwrap(), "--nodes", "5000", "--out", out_dir.to_str().unwrap()];
        if tables {
            args.extend(["--syzygy", "tests/data/syzygy"]);
        }
        let out = agentchess(&args, None);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let csv = std::fs::read_to_string(out_dir.join("moves.csv")).unwrap();
        let words = String::from_utf8_lossy(&out.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
        // The words say what the tables say, not a lead of hundreds of pawns.
        assert_eq!(tables, words.contains("White's score went from a tablebase win to +0.00"), "{words}");
        csv.lines().nth(1).unwrap().split(',').map(String::from).collect()
    };
    // game,ply,move,mover,before,after,loss,mark,judge_move,better,...
    let with = first_row(true);
    let before: i32 = with[4].parse().unwrap();
    assert!(before > 20_000, "{with:?}");
    assert_eq!((with[7].as_str(), with[9].as_str()), ("??", "Rd1"), "{with:?}");
    let without = first_row(false);
    assert!(without[4].parse::<i32>().unwrap() < 5_000, "{without:?}");
    assert_eq!(without[7], "??", "{without:?}");

    let explain =
        agentchess(&["explain", "--fen", "8/8/8/8/8/2k5/8/KR6 w - - 0 1", "--syzygy", "tests/data/syzygy"], None);
    let text = String::from_utf8_lossy(&explain.stdout);
    assert!(text.contains("tablebase: a win, 27 plies"), "{text}");
    assert!(text.trim_end().ends_with("move Rd1"), "{text}");

    for args in
        [&["annotate", file.to_str().unwrap(), "--syzygy", "/nowhere"][..], &["explain", "--syzygy", "/nowhere"]]
    {
        let out = agentchess(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--syzygy /nowhere: no Syzygy table file"), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let engine = agentchess(
        &["annotate", file.to_str().unwrap(), "--player", "uci:/nonexistent", "--syzygy", "tests/data/syzygy"],
        None,
    );
    assert_eq!(engine.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&engine.stderr).contains("option.SyzygyPath=DIR"));
}
