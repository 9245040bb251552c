//! The command line as a user meets it: every subcommand accepts only the options it uses,
//! meaningless numbers are refused with one line and exit status 2, and a run that names the
//! same player twice tells the two apart.

use std::process::{Command, Output};

fn agentchess(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agentchess")).args(args).output().expect("run agentchess")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Before, `--level`, `--features`, `--seed` and `--player` were global: `suite FILE --level 3`
/// played level 7 and `bench --seed 5` ignored the seed, silently.
#[test]
fn options_a_subcommand_does_not_use_are_refused() {
    for args in [
        &["suite", "tests/data/mate1.epd", "--level", "3"][..],
        &["match", "level:1", "level:2", "--level", "3"],
        &["match", "level:1", "level:2", "--player", "random"],
        &["thesis", "--level", "3"],
        &["bench", "--seed", "5"],
        &["perft", "1", "--level", "2"],
        // A suite carries its own depths and positions; --max-depth is how to cut them.
        &["perft", "5", "--suite", "tests/data/perft.epd"],
        &["perft", "--suite", "tests/data/perft.epd", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"],
        &["perft", "3", "--max-depth", "2"],
        &["tournament", "--levels", "1-2", "--features", "foundation"],
        &["--level", "3", "match", "level:1", "level:2"],
    ] {
        let out = agentchess(args);
        assert_eq!(out.status.code(), Some(2), "{args:?} was accepted: {}", stdout(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
    // Where they do mean something they are taken.
    let out = agentchess(&["explain", "--level", "2", "--seed", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("decision: L2 "), "{}", stdout(&out));
    let out = agentchess(&["suite", "tests/data/mate1.epd", "--player", "level:3", "--seed", "2"]);
    assert!(out.status.success() && stdout(&out).contains("level:3"), "{}", stderr(&out));
    // The time a position reaches the players that think ahead.
    let out = agentchess(&["suite", "tests/data/mate1.epd", "--player", "level:10", "--time", "0.01"]);
    assert!(out.status.success() && stdout(&out).contains("level:10"), "{}", stderr(&out));
}

/// Each meaningless value gets one line naming it, and exit status 2, before any work.
#[test]
fn meaningless_values_are_errors() {
    for (args, says) in [
        (&["match", "level:1", "level:2", "--games", "0"][..], "--games"),
        (&["match", "level:1", "level:2", "--move-cap", "0"], "--move-cap"),
        (&["match", "level:1", "level:2", "--threads", "0"], "--threads"),
        (&["match", "features:", "level:2"], "features:"),
        (&["tournament", "--levels", "8-1"], "8-1"),
        (&["tournament", "--levels", "0-3"], "0-3"),
        (&["suite", "tests/data/mate1.epd", "--threads", "0"], "--threads"),
        (&["suite", "tests/data/mate1.epd", "--time", "0"], "--time"),
        (&["endgame", "KPPPPPPPPPK", "--positions", "1"], "9 pawns"),
        (&["endgame", "KQKPPPPPPPPP", "--positions", "1"], "9 pawns"),
        (&["endgame", "KQQQQQQQQQQK", "--positions", "1"], "promoted"),
        (&["endgame", "KKQ", "--positions", "1"], "nothing to mate with"),
        (&["perft", "9999", "--fen", "7k/8/8/8/8/8/8/K7 w - - 0 1"], "9999"),
        (&["suite", "tests/data/mate1.epd", "--time", "soon"], "--time"),
        (&["--threads", "0"], "--threads"),
        (&["--threads", "257"], "--threads 257: this machine has"),
    ] {
        let out = agentchess(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("4294967295"), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
    let help = stdout(&agentchess(&["help", "perft"]));
    assert!(help.contains("--max-depth") && !help.contains("4294967295"), "{help}");
}

/// `explain` checks everything before it writes its report: an error leaves stdout empty.
#[test]
fn explain_writes_nothing_before_an_error() {
    for args in
        [&["explain", "--levels", "1-99"][..], &["explain", "--player", "nobody"], &["explain", "--moves", "e2e5"]]
    {
        let out = agentchess(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?} wrote: {}", stdout(&out));
    }
}

/// A perft suite line that cannot be read is an input error (status 2), told apart from a
/// count that is wrong (status 1).
#[test]
fn perft_suite_exit_status_says_what_went_wrong() {
    let dir = std::env::temp_dir().join(format!("agentchess-cli-perft-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20\n8/8/8 w - - ;D1 3\n").unwrap();
    let out = agentchess(&["perft", "--suite", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains("line 2"), "{}", stderr(&out));
    let wrong = dir.join("wrong.epd");
    std::fs::write(&wrong, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 21\n").unwrap();
    let out = agentchess(&["perft", "--suite", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("MISMATCH"), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `match level:7 level:7` used to print empty tables and "games 0" beside real draws: both
/// players had one name. Now they are level:7#1 and level:7#2 in every table and the PGN.
#[test]
fn the_same_player_twice_is_told_apart() {
    let dir = std::env::temp_dir().join(format!("agentchess-cli-self-{}", std::process::id()));
    let out = agentchess(&["match", "level:7", "level:7", "--games", "6", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let row = text
        .lines()
        .find(|l| l.starts_with("level:7#1 ") && l.split_whitespace().nth(1) == Some("6"))
        .expect("a player row with 6 games");
    let fields: Vec<u32> = row.split_whitespace().skip(1).take(4).map(|f| f.parse().unwrap()).collect();
    assert_eq!(fields[0], 6);
    assert_eq!(fields[1] + fields[2] + fields[3], 6, "{row}");
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[White \"level:7#1\"]").count(), 3, "{pgn}");
    assert_eq!(pgn.matches("[White \"level:7#2\"]").count(), 3, "{pgn}");
    let _ = std::fs::remove_dir_all(&dir);

    let out = agentchess(&["tournament", "--levels", "1,1,2", "--games", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("level:1#2 vs level:2"), "{}", stdout(&out));
}

/// With openings, a pairing plays each opening used with both colours; a --games that would
/// break that is raised to what balances, and the run says so.
#[test]
fn games_are_balanced_over_the_openings() {
    use agentchess::cli::balanced_games;
    assert_eq!(balanced_games(100, 0), 100);
    assert_eq!(balanced_games(7, 0), 8);
    assert_eq!(balanced_games(10, 3), 12);
    assert_eq!(balanced_games(4, 3), 4);
    assert_eq!(balanced_games(6, 3), 6);
    assert_eq!(balanced_games(13, 3), 18);
    let dir = std::env::temp_dir().join(format!("agentchess-cli-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("three.epd");
    std::fs::write(
        &file,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let out = agentchess(&["match", "level:1", "level:2", "--games", "10", "--openings", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("playing 12 games"), "{}", stderr(&out));
    assert!(stdout(&out).contains("Games: 12"), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--version` names the target the binary was built for.
#[test]
fn version_names_the_target() {
    let out = agentchess(&["--version"]);
    let text = stdout(&out);
    assert!(out.status.success());
    assert!(text.starts_with(&format!("agentchess {} (", env!("CARGO_PKG_VERSION"))), "{text}");
    assert!(text.contains(std::env::consts::ARCH), "{text}");
}

/// The name and version a GUI shows (XBoard `myname`, UCI `id name`) are the ones `--version`
/// prints, so a WinBoard user can tell which build a GUI started from its engine list.
#[test]
fn the_version_is_in_myname_and_id_name() {
    let version = stdout(&agentchess(&["--version"]));
    let number = version.split_whitespace().nth(1).expect("agentchess VERSION (TARGET)").to_string();
    let session = |input: &str| -> String {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_agentchess"))
            .args(["--level", "4"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("run agentchess");
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        stdout(&child.wait_with_output().unwrap())
    };
    let xboard = session("xboard\nprotover 2\nquit\n");
    assert!(xboard.contains(&format!("myname=\"AgentChess {number} level:4\"")), "{version} / {xboard}");
    let uci = session("uci\nquit\n");
    assert!(uci.lines().any(|l| l == format!("id name AgentChess {number}")), "{version} / {uci}");
}

/// OpenBench's client takes `bench`'s last line matching `\d+ nodes` and `\d+ nps`; the node
/// count must be the same on every run.
#[test]
fn bench_ends_with_an_openbench_line() {
    let last_line = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_agentchess")).arg("bench").output().unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).lines().last().unwrap_or("").to_string()
    };
    let (first, second) = (last_line(), last_line());
    let words: Vec<&str> = first.split(' ').collect();
    assert_eq!(words.len(), 4, "{first}");
    assert!(words[0].parse::<u64>().unwrap() > 0 && words[1] == "nodes" && words[3] == "nps", "{first}");
    assert!(words[2].parse::<u64>().unwrap() > 0, "{first}");
    assert_eq!(words[0], second.split(' ').next().unwrap(), "the node count changes between runs");
}

/// A reader that goes away (`agentchess suite x.epd 2>&1 | head -1`) ends a subcommand quietly
/// with its own status, never a panic (status 101). Both streams go to a pipe whose reading end
/// is closed before the program starts, so that every write fails whatever the machine's speed.
#[test]
fn subcommands_end_quietly_when_their_reader_goes_away() {
    for args in [
        &["suite", "README.md"][..],
        &["suite", "tests/data/mate1.epd", "--player", "level:9"],
        &["perft", "3"],
        &["perft", "--suite", "tests/data/perft.epd", "--max-depth", "1"],
        &["match", "level:1", "level:2", "--games", "2"],
        &["explain"],
        &["endgame", "KQK", "--positions", "2"],
        &["endgame", "KKQ"],
        &["--help"],
    ] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let status = Command::new(env!("CARGO_BIN_EXE_agentchess"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(writer.try_clone().expect("a second writer"))
            .stderr(writer)
            .status()
            .expect("run agentchess");
        assert!(matches!(status.code(), Some(0..=2)), "{args:?} ended with {status:?}");
    }
}

/// A match whose games are all drawn (a dead-draw start) reads as level with an interval, in
/// every table: before, `Elo -0.0 [-0.0, -0.0]`, the rating list `[+0.0, +0.0]` and the pairs
/// `+0.0 [+0.0, +0.0]`, a certainty four games cannot give.
#[test]
fn an_all_drawn_match_is_level_with_an_interval() {
    let dir = std::env::temp_dir().join(format!("agentchess-draws-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("bare-kings.epd");
    std::fs::write(&openings, "8/8/8/4k3/8/8/8/4K3 w - - 0 1\n").unwrap();
    let out = agentchess(&["match", "level:1", "level:2", "--games", "4", "--openings", openings.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(report.contains("0-0-4"), "{report}");
    assert!(!report.contains("-0.0") && !report.contains("[+0.0, +0.0]"), "{report}");
    let pairing = report.lines().find(|l| l.starts_with("level:1 vs level:2") && l.contains("0-0-4")).unwrap();
    assert!(pairing.contains("+0.0 [") && !pairing.contains("[   +0.0"), "{pairing}");
}

/// An output path that cannot be written is an error before any game or position is played:
/// before, `thesis --out /proc/x` played every game and suite, then failed.
#[test]
fn output_paths_are_checked_before_the_work() {
    for (args, path) in [
        (&["thesis", "--games", "2", "--out", "/proc/agentchess-x"][..], "/proc/agentchess-x"),
        (&["match", "level:1", "level:2", "--games", "2", "--pgn", "/proc/x.pgn"], "/proc/x.pgn"),
        (&["tournament", "--levels", "1-2", "--games", "2", "--out", "/proc/y"], "/proc/y"),
        (&["suite", "tests/data/mate1.epd", "--csv", "/proc/x.csv"], "/proc/x.csv"),
    ] {
        let out = agentchess(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?} worked first: {}", stdout(&out));
        assert!(stderr(&out).contains(path) && !stderr(&out).contains("games/s"), "{args:?}: {}", stderr(&out));
    }
}

/// An output that names an input is refused before any work, and the input is left as it was:
/// `suite s.epd --csv s.epd` and `match --openings o.epd --pgn o.epd` wrote over their input.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = std::env::temp_dir().join(format!("agentchess-clash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("s.epd");
    let text = std::fs::read_to_string("tests/data/mate1.epd").unwrap();
    std::fs::write(&epd, &text).unwrap();
    let e = epd.to_str().unwrap();
    let dotted = dir.join(".").join("s.epd");
    for args in [
        &["suite", e, "--csv", e][..],
        &["suite", e, "--csv", dotted.to_str().unwrap()],
        &["match", "level:1", "level:2", "--games", "2", "--openings", e, "--pgn", e],
    ] {
        let out = agentchess(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("also read as input"), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?} worked first: {}", stdout(&out));
        assert_eq!(std::fs::read_to_string(&epd).unwrap(), text, "{args:?} changed its input");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The help says what the program does: the engines among the player specs, no SPRT where
/// there is none, as many signatures as bench prints.
#[test]
fn help_texts_match_what_the_commands_do() {
    for args in [&["--help"][..], &["match", "--help"]] {
        let help = stdout(&agentchess(args));
        assert!(
            help.contains("uci:CMD") && help.contains("xboard:CMD") && help.contains("nodes=N"),
            "{args:?}: {help}"
        );
    }
    for sub in ["tournament", "thesis"] {
        let help = stdout(&agentchess(&[sub, "--help"]));
        let no_option = help.lines().all(|l| !l.trim_start().starts_with("--sprt"));
        assert!(no_option && !help.contains("cap of an SPRT"), "{sub}: {help}");
    }
    let bench = stdout(&agentchess(&["bench", "--help"]));
    assert!(bench.contains("three signatures") && !bench.contains("one signature"), "{bench}");
    let seed = stdout(&agentchess(&["match", "--help"]));
    assert!(!seed.contains("(default 1) [default: 1]"), "{seed}");
    let bad = stderr(&agentchess(&["match", "level:10,nodes=0", "level:9", "--games", "2"]));
    assert!(bad.contains("1 or more"), "{bad}");
}

/// What the last pass over the commands found, each said and refused as what it is: an empty
/// suite, material that can never mate, a time control with no time, a time too large, and
/// help that names another command's options or defaults.
#[test]
fn empty_dead_and_misnamed_inputs_are_said_as_they_are() {
    let dir = std::env::temp_dir().join(format!("agentchess-cli-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "\n# nothing here\n").unwrap();
    let empty = empty.to_str().unwrap();
    for (args, says) in [
        (&["perft", "--suite", empty][..], "no positions"),
        (&["suite", empty], "no positions"),
        (&["endgame", "KNK", "--positions", "2"], "never mates a bare king"),
        (&["endgame", "KBK", "--positions", "2"], "never mates a bare king"),
        (&["calibrate", "--tc", "garbage"], "'garbage' is not MOVES/SECS+INC"),
        (&["calibrate", "--tc", "0+0"], "'0+0' leaves no time on the clock"),
        (&["suite", "tests/data/mate1.epd", "--time", "1e300"], "below a day"),
    ] {
        let out = agentchess(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("bad player spec"), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
    }
    // Depth 0 counts the position itself, divided or not.
    assert_eq!(stdout(&agentchess(&["perft", "0", "--divide"])).trim(), "1");
    assert_eq!(stdout(&agentchess(&["perft", "0"])).trim(), "1");
    for (sub, default) in [("tournament", "default 100"), ("thesis", "default 100"), ("calibrate", "default 200")] {
        let help = stdout(&agentchess(&[sub, "--help"]));
        let at = help.find("--games <GAMES>").unwrap_or_else(|| panic!("{sub}: {help}"));
        let games: String = help[at..].chars().take(300).collect();
        assert!(games.contains(default) && !help.contains("--sprt"), "{sub}: {help}");
    }
    // One suite with one player: split over the threads, the same rows, each line ended.
    let csv = |threads: &str| {
        let path = dir.join(format!("rows-{threads}.csv"));
        let out = agentchess(&[
            "suite",
            "tests/data/wac.epd",
            "--player",
            "level:10,nodes=300",
            "--threads",
            threads,
            "--csv",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::read_to_string(path).unwrap()
    };
    let (one, two) = (csv("1"), csv("2"));
    assert_eq!(one, two);
    assert_eq!(one.lines().count(), 301);
    assert!(one.ends_with("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fit-wdl` prints the model as the constant the build reads; games without scores, or a
/// file it cannot read, are one line and exit status 2.
#[test]
fn fit_wdl_prints_the_constant_or_says_why_not() {
    let out = agentchess(&["fit-wdl", "tests/data/wdl_check.pgn"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("pub const MODEL: WdlModel = WdlModel { a: ["), "{text}");
    assert!(text.contains("built in model: mean log-loss"), "{text}");
    for (file, why) in [("tests/data/mate1.epd", "too few scored moves"), ("tests/data/none.pgn", "cannot read")] {
        let out = agentchess(&["fit-wdl", file]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert!(stderr(&out).contains(why), "{file}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{file}");
    }
}

/// `rate` rates the players of a PGN against anchors held at the ratings given: the same games
/// with the anchor 100 higher put the player 100 higher; an anchor that is not NAME=ELO is one
/// line and exit status 2.
#[test]
fn rate_holds_the_anchors_fixed() {
    let elo = |anchor: &str| {
        let out = agentchess(&["rate", "tests/data/wdl_check.pgn", "--anchor", anchor]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains("from 200 games"), "{text}");
        let row = text.lines().find(|l| l.starts_with("new ")).unwrap_or_else(|| panic!("{text}"));
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields[1], "200", "{row}");
        fields[3].parse::<f64>().unwrap_or_else(|_| panic!("{row}"))
    };
    let (low, high) = (elo("old=2000"), elo("old=2100"));
    assert!((high - low - 100.0).abs() < 1.0, "{low} {high}");
    assert!((low - 2000.0).abs() < 200.0, "{low}");
    for bad in ["old", "old=strong", "=2000"] {
        let out = agentchess(&["rate", "tests/data/wdl_check.pgn", "--anchor", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stderr(&out).contains("NAME=ELO") || stderr(&out).contains("not an Elo"), "{bad}: {}", stderr(&out));
    }
}
