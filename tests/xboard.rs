//! The XBoard session, command by command: exact replies to every command of the XBoard
//! checklist (§1.5) and to each kind of bad input (§4), as transcripts against a deterministic
//! test player (tests/common); the long transcripts are files under tests/data/transcripts/xboard.

mod common;

use agentchess::protocol::response::Response;
use agentchess::protocol::{Engine, Session, UciSession};
use common::{engine, player, transcripts, xboard, xboard_file, xboard_file_with};

// ---- start-up -------------------------------------------------------------------------------

#[test]
fn handshake_sends_all_features_at_once() {
    xboard_file("xboard/handshake");
}

#[test]
fn higher_or_unreadable_protover_still_gets_features() {
    let features = transcripts("xboard/features").concat();
    xboard(&format!("> protover 3\n{features}"));
    xboard(&format!("> protover\n{features}"));
}

#[test]
fn starts_in_the_initial_position_without_new() {
    xboard(
        "> xboard
         > e2e4
         < move a7a5",
    );
}

// ---- game set-up and modes -----------------------------------------------------------------

#[test]
fn new_then_opponent_move_makes_the_engine_answer_as_black() {
    xboard(
        "> new
         > e2e4
         < move a7a5
         > usermove d2d4
         < move a5a4",
    );
}

#[test]
fn go_plays_the_side_to_move() {
    xboard(
        "> new
         > go
         < move a2a3
         > a7a6
         < move a1a2",
    );
}

#[test]
fn force_mode_never_moves_but_checks_moves() {
    xboard(
        "> new
         > force
         > e2e4
         > e7e5
         > e2e4
         < Illegal move: e2e4
         > go
         < move a2a3",
    );
}

#[test]
fn playother_plays_the_side_not_on_move() {
    xboard(
        "> new
         > force
         > e2e4
         > playother
         > e7e5
         < move a2a3",
    );
}

#[test]
fn white_and_black_set_the_side_to_move() {
    xboard(
        "> new
         > force
         > e2e4
         > white
         > go
         < move a2a3",
    );
    xboard(
        "> new
         > black
         > go
         < move a7a5",
    );
}

#[test]
fn new_resets_everything() {
    xboard(
        "> new
         > force
         > e2e4
         > setboard 8/8/8/8/8/8/8/K6k w - - 0 1
         > new
         > e2e4
         < move a7a5",
    );
}

#[test]
fn variants_normal_and_fischerandom_only() {
    xboard(
        "> variant normal
         > variant fischerandom
         > variant crazyhouse
         < Error (unsupported variant): variant crazyhouse",
    );
}

/// Chess960 (`variant fischerandom`): castling sent as O-O and read in every form, X-FEN and
/// Shredder-FEN set-ups, `new` back to normal chess (see the transcript's comments).
#[test]
fn fischerandom_castles_with_o_o() {
    xboard_file_with("xboard/fischerandom", || engine(&["g1g1", "a2a3", "e1g1"]));
}

/// Each form of the GUI's castling makes the same castling: king and rook where the rules put
/// them, the variant normal or fischerandom.
#[test]
fn fischerandom_reads_castling_in_every_form() {
    const START: &str = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1";
    const CASTLED: &str = "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2";
    for variant in ["normal", "fischerandom"] {
        for (white, black) in [("g1h1", "g8b8"), ("g1g1", "g8c8"), ("O-O", "O-O-O"), ("usermove O-O", "usermove g8b8")]
        {
            let mut session = Session::new(engine(&[]));
            for line in ["new", &format!("variant {variant}"), "force", &format!("setboard {START}"), white, black] {
                assert_eq!(common::replies(&mut session, line), Vec::<String>::new(), "{variant}: {line}");
            }
            assert_eq!(session.game().position().to_fen(), CASTLED, "{variant}: {white} {black}");
        }
    }
}

// ---- time control ---------------------------------------------------------------------------

#[test]
fn time_commands_are_silent() {
    xboard_file("xboard/time_commands");
}

#[test]
fn bad_time_arguments_get_errors() {
    xboard_file("xboard/bad_time_arguments");
}

// ---- moves ----------------------------------------------------------------------------------

#[test]
fn promotion_forms() {
    for mv in ["e7e8q", "e7e8=q", "E7E8Q", "e7e8Q", "usermove e7e8q", "e8=Q", "e8Q"] {
        xboard(&format!(
            "> new
             > force
             > setboard 7k/4P3/8/8/8/8/8/K7 w - - 0 1
             > {mv}
             > undo
             > e7e8n
             > ping 9
             < pong 9"
        ));
    }
}

#[test]
fn castling_forms() {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    for (white, black) in [("e1g1", "e8c8"), ("O-O", "O-O-O"), ("0-0", "0-0-0"), ("usermove O-O", "usermove e8g8")] {
        xboard(&format!(
            "> new
             > force
             > setboard {fen}
             > {white}
             > {black}
             > e1c1
             < Illegal move: e1c1"
        ));
    }
}

#[test]
fn illegal_and_malformed_moves() {
    xboard_file("xboard/illegal_moves");
}

#[test]
fn move_now_is_ignored() {
    xboard(
        "> new
         > ?
         > e2e4
         < move a7a5
         > ?",
    );
}

// ---- ping -----------------------------------------------------------------------------------

#[test]
fn pong_follows_the_move_it_was_queued_behind() {
    xboard_file("xboard/ping");
}

// ---- thinking output -------------------------------------------------------------------------

#[test]
fn post_shows_thinking_before_the_move() {
    xboard(
        "> new
         > post
         > e2e4
         < 1 12 0 34 a5
         < move a7a5
         > nopost
         > d2d4
         < move a5a4",
    );
}

#[test]
fn debug_lines_only_after_accepted_debug() {
    xboard_file("xboard/debug_lines");
}

#[test]
fn mate_is_scored_as_mate() {
    xboard_file("xboard/mate_score");
}

// ---- game end ---------------------------------------------------------------------------------

#[test]
fn engine_claims_its_own_mate() {
    xboard(
        "> new
         > force
         > setboard k7/8/1K6/8/8/8/8/7R w - - 0 1
         > go
         < move h1h8
         < 1-0 {White mates}",
    );
}

#[test]
fn engine_claims_when_the_opponent_ends_the_game() {
    xboard_file("xboard/opponent_ends_the_game");
}

#[test]
fn insufficient_material_is_claimed_only_in_the_protocol_cases() {
    // KBB v K with both bishops on one colour is dead, but not one of the claimable cases.
    xboard(
        "> setboard k7/8/1K6/8/8/8/8/B1B5 w - - 0 1
         > force
         > go
         < move a1b2",
    );
}

#[test]
fn repetition_created_by_the_opponent_is_claimed() {
    xboard_file("xboard/repetition_by_opponent");
}

#[test]
fn repetition_created_by_the_engine_is_offered_before_the_move() {
    xboard_file_with("xboard/repetition_by_engine", || engine(&["f6g8"]));
}

#[test]
fn fifty_moves() {
    xboard_file("xboard/fifty_moves");
}

/// A dead position the protocol does not let us claim (KBBK, bishops on one colour) is played
/// on, and the fifty-move rule still ends it: the engine offers the draw its move makes.
#[test]
fn fifty_moves_are_claimed_in_an_unclaimable_dead_position() {
    xboard(
        "> new
         > force
         > setboard 8/8/8/7k/8/3B4/8/KB6 w - - 99 80
         > go
         < offer draw
         < move a1a2",
    );
}

#[test]
fn draw_offers_are_accepted_only_when_the_rules_give_one() {
    xboard_file("xboard/draw_offers");
}

#[test]
fn no_moves_after_result_until_new() {
    xboard_file("xboard/result");
}

/// xboard 4.9.1 resumes a finished game without `new`: EditGameEvent in EndOfGame mode sends
/// one `undo` per move taken back, then Machine White/Black or Two Machines sends `go`. An
/// engine that stays silent makes xboard wait for its move until the flag falls.
#[test]
fn go_after_result_resumes_the_game() {
    xboard_file("xboard/go_after_result");
}

// ---- positions --------------------------------------------------------------------------------

#[test]
fn setboard_sets_the_position() {
    xboard(
        "> new
         > force
         > setboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2
         > go
         < move a2a3",
    );
}

/// After a refused position nothing is played until a good one arrives, and the GUI is told so
/// at every turn: moves are illegal, and `go`, `hint` and `analyze` get an error, never silence
/// (a GUI waiting on a silent `go` loses on time).
#[test]
fn bad_setboard_refuses_moves_and_answers_go_until_a_good_one() {
    xboard_file("xboard/bad_setboard");
}

#[test]
fn edit_mode_sets_up_a_position() {
    xboard_file("xboard/edit");
}

#[test]
fn edit_mode_keeps_the_side_to_move_and_rejects_bad_boards() {
    xboard_file("xboard/edit_bad_boards");
}

// ---- hint, book, undo, remove -----------------------------------------------------------------

#[test]
fn hint_and_bk() {
    xboard(
        "> new
         > hint
         < Hint: a2a3
         > bk
         <  AgentChess has no opening book.
         < ",
    );
}

#[test]
fn undo_and_remove() {
    xboard_file("xboard/undo_remove");
}

// ---- information and settings -----------------------------------------------------------------

#[test]
fn information_commands_are_silent() {
    xboard_file("xboard/information");
}

/// Options: good values are taken silently; a refused one keeps the old value and is said as
/// an `Error` line (python-chess raises it from its next command) and a `tellusererror`
/// (XBoard shows it).
#[test]
fn options() {
    xboard_file("xboard/options");
}

/// The `Level` option shows the level a feature set is the preset of, and the default level
/// for players that are not a preset (the `Player` option names them); its range is the
/// levels there are, so that every value a GUI offers is accepted.
#[test]
fn level_option_follows_the_player() {
    for (spec, level) in
        [("features:foundation", 1), ("level:3", 3), ("features:attack-request", 10), ("search:depth=2", 10)]
    {
        let mut s = Session::new(Engine::new(player(spec), 1).unwrap());
        let features: Vec<String> = s.handle_line("protover 2").iter().map(|r| r.to_string()).collect();
        let expected = format!("feature option=\"Level -spin {level} 1 10\"");
        assert!(features.contains(&expected), "{spec}: {features:?}");
    }
}

#[test]
fn level_and_features_options_switch_to_the_agents() {
    xboard_file("xboard/level_option");
    // Each option's effect: the player it makes, and the move that player chooses where the
    // levels differ. The white queen is attacked by the c6 knight: the foundation alone takes a
    // pawn with it (g7 or b2, by the seed), level 4 takes the b2 pawn that is about to promote,
    // the attack request (level 5 up) plays dxc6.
    let mut s = Session::new(engine(&[]));
    s.handle_line("protover 2");
    let cases: [(&str, &str, &[&str]); 6] = [
        ("option Level=1", "level:1", &["d4g7", "d4b2"]),
        ("option Level=8", "level:8", &["d5c6"]),
        ("option Level=4", "level:4", &["d4b2"]),
        ("option Features=attack-request", "features:attack-request", &["d5c6"]),
        ("option Features=foundation", "features:foundation", &["d4g7", "d4b2"]),
        ("option Player=search:depth=2", "search:depth=2", &["d4b2"]),
    ];
    for (option, spec, moves) in cases {
        assert!(s.handle_line(option).is_empty(), "{option}");
        assert_eq!(s.engine().spec().to_string(), spec, "{option}");
        s.handle_line("force");
        s.handle_line("setboard 7k/6pp/2n5/3P4/3Q4/8/1p6/6K1 w - - 0 1");
        let reply: Vec<String> = s.handle_line("go").iter().map(|r| r.to_string()).collect();
        let played =
            reply.last().and_then(|l| l.strip_prefix("move ")).unwrap_or_else(|| panic!("{option}: {reply:?}"));
        assert!(moves.contains(&played), "{option}: {played}, expected one of {moves:?}");
    }
    assert_eq!(s.engine().level(), None, "the searcher is no level");
}

/// `help` is not XBoard, but a person at the prompt types it.
#[test]
fn help_answers_a_person() {
    let mut s = Session::new(engine(&[]));
    let lines: Vec<String> = s.handle_line("help").iter().map(|r| r.to_string()).collect();
    assert!(lines.len() >= 3 && lines.iter().all(|l| l.starts_with("# ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("quit")), "{lines:?}");
    let mut u = UciSession::new(engine(&[]));
    let lines: Vec<String> = u.handle_line("help").iter().map(|r| r.to_string()).collect();
    assert!(!lines.is_empty() && lines.iter().all(|l| l.starts_with("info string ")), "{lines:?}");
}

#[test]
fn quit_ends_the_session() {
    let mut s = Session::new(engine(&[]));
    assert!(s.handle_line("quit").is_empty());
    assert!(s.should_quit());
}

// ---- bad input --------------------------------------------------------------------------------

#[test]
fn unknown_commands() {
    xboard_file("xboard/unknown_commands");
}

#[test]
fn long_lines_are_answered_briefly() {
    let mut s = Session::new(engine(&[]));
    let junk = "x".repeat(100_000);
    let reply = s.handle_line(&junk);
    assert_eq!(
        reply,
        vec![Response::Error { reason: "unknown command".into(), command: format!("{}...", "x".repeat(80)) }]
    );
    let long_move = format!("e2e4{}", "1".repeat(5000));
    assert_eq!(s.handle_line(&long_move)[0].to_string(), format!("Illegal move: e2e4{}...", "1".repeat(76)));
    assert_eq!(s.handle_line("ping 71")[0].to_string(), "pong 71");
}

#[test]
fn blank_lines_and_line_endings() {
    xboard(
        "> 
         >    
         > ping 1\r
         < pong 1
         > \tping\t2\t
         < pong 2",
    );
}

#[test]
fn odd_command_orders() {
    xboard_file("xboard/odd_orders");
}

/// `memory N` (XBoard) and `setoption name Hash` (UCI) size the player's table, and the size
/// sticks for a player chosen later. The same size again is left alone (XBoard sends `memory`
/// before every game); a size beyond the table's is said, as is one the memory does not allow,
/// and the table is then as large as it can be.
#[test]
fn memory_and_hash_size_the_table() {
    use agentchess::board::Game;
    use agentchess::players::{Decision, Player};
    use std::sync::{Arc, Mutex};
    /// Keeps the sizes asked, and gets at most `room` megabytes.
    struct Sized(Arc<Mutex<Vec<usize>>>, usize);
    impl Player for Sized {
        fn name(&self) -> String {
            "sized".into()
        }
        fn decide(&mut self, _game: &Game) -> Option<Decision> {
            None
        }
        fn set_table_mb(&mut self, mb: usize) -> Option<usize> {
            self.0.lock().unwrap().push(mb);
            Some(mb.min(self.1))
        }
    }
    let sized = |room: usize| {
        let asked = Arc::new(Mutex::new(Vec::new()));
        (Engine::with_player(Box::new(Sized(asked.clone(), room)), player("level:10"), 1), asked)
    };
    let (engine, asked) = sized(1024);
    let mut s = Session::new(engine);
    let mut send = |line: &str| s.handle_line(line).iter().map(|r| r.to_string()).collect::<Vec<_>>();
    assert!(send("protover 2").iter().any(|f| f.contains(" memory=1 ")));
    assert!(send("memory 48").is_empty());
    assert!(send("new").is_empty());
    assert!(send("memory 48").is_empty());
    assert_eq!(*asked.lock().unwrap(), [48], "the same size again is left alone");
    assert_eq!(
        send("memory 999999"),
        [
            "telluser memory 999999: the table takes 1 to 4096 MB; it has 4096 MB",
            "telluser memory 4096: not that much memory to be had; the table has 1024 MB"
        ]
    );
    assert!(send("memory 999999").is_empty(), "said once");
    assert_eq!(send("memory 2048"), ["telluser memory 2048: not that much memory to be had; the table has 1024 MB"]);
    assert_eq!(*asked.lock().unwrap(), [48, 4096, 2048]);

    let (engine, asked) = sized(1024);
    let mut u = agentchess::protocol::UciSession::new(engine);
    assert!(u.handle_line("setoption name Hash value 32").is_empty());
    assert!(!u.handle_line("setoption name Hash value 0").is_empty(), "0 MB is refused");
    assert!(u.handle_line("setoption name Hash value 32").is_empty());
    let short: Vec<String> = u.handle_line("setoption name Hash value 4096").iter().map(|r| r.to_string()).collect();
    assert_eq!(short, ["info string Hash 4096: not that much memory to be had; the table has 1024 MB"]);
    assert_eq!(*asked.lock().unwrap(), [32, 4096]);
}

/// XBoard's `LimitStrength` and `Elo` options: offered over the calibrated range, a value
/// outside it refused with `tellusererror`, and the setting that plays said in a `#` line.
#[test]
fn xboard_elo_chooses_the_calibrated_setting() {
    use agentchess::players::strength::{self, DEFAULT_ELO};
    let (min, max) = strength::range();
    let mut s = Session::new(Engine::new(player("level:10"), 1).unwrap());
    let mut send = |line: &str| s.handle_line(line).iter().map(|r| r.to_string()).collect::<Vec<_>>();
    let features = send("protover 2").join("\n");
    assert!(features.contains("feature option=\"LimitStrength -check 0\""), "{features}");
    assert!(features.contains(&format!("feature option=\"Elo -spin {DEFAULT_ELO} {min} {max}\"")), "{features}");
    let refused = send(&format!("option Elo={}", min - 1));
    assert!(
        refused.iter().any(|l| l.starts_with("tellusererror ") && l.contains(&format!("Elo must be {min} to {max}"))),
        "{refused:?}"
    );
    let plays =
        |elo: u32| agentchess::players::spec::PlayerSpec::from_setting(strength::setting(elo).unwrap()).to_string();
    assert_eq!(send("option LimitStrength=1"), [format!("# Elo {DEFAULT_ELO} plays {}", plays(DEFAULT_ELO))]);
    assert_eq!(send(&format!("option Elo={max}")), [format!("# Elo {max} plays {}", plays(max))]);
    assert!(send("option LimitStrength=2")[0].starts_with("Error (bad value)"));
    assert!(send("protover 2").join("\n").contains(&format!("feature option=\"Player -string {}\"", plays(max))));
    assert_eq!(send("option LimitStrength=0"), ["# strength not limited"]);
    assert!(send("protover 2").join("\n").contains("feature option=\"Player -string level:10\""));
}

/// `cores N` (announced by `feature smp=1`) gives level 10 N search threads, at most one a core
/// of this machine and at least one; UCI's `Threads` sets the same.
#[test]
fn cores_and_threads_set_the_search_threads() {
    let most = agentchess::protocol::engine::max_threads();
    let mut xb = Session::new(Engine::new(player("level:10"), 1).unwrap());
    assert!(xb.features().iter().any(|f| f.to_string().contains(" smp=1 ")));
    assert_eq!(xb.engine().threads(), 1);
    for (cores, threads) in [(2, 2.min(most)), (1000, most), (0, 1), (1, 1)] {
        assert!(xb.handle_line(&format!("cores {cores}")).is_empty());
        assert_eq!(xb.engine().threads(), threads, "cores {cores}");
    }
    let mut uci = UciSession::new(Engine::new(player("level:10"), 1).unwrap());
    uci.handle_line("uci");
    assert!(uci.handle_line(&format!("setoption name Threads value {most}")).is_empty());
    assert_eq!(uci.engine().threads(), most);
    let refused = uci.handle_line(&format!("setoption name Threads value {}", most + 1));
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!(uci.engine().threads(), most, "a refused count changes nothing");
}
