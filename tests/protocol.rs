//! Transcript tests of the protocol sessions: exact replies to every command of the XBoard
//! checklist (§1.5) and to each kind of bad input (§4), plus UCI and the whole loop on bytes.
//!
//! A transcript is a list of lines: `> text` is sent to the session, `< text` is a reply the
//! previous input must produce, in order, and nothing else. The engine behind the session is a
//! deterministic test player, so the expected moves do not depend on the agents.

use agentchess::board::{Game, Move};
use agentchess::players::{Decision, Player};
use agentchess::protocol::clock::{budget, per_move_budget};
use agentchess::protocol::command::{Command, looks_like_move};
use agentchess::protocol::response::Response;
use agentchess::protocol::{self, Engine, SearchLimits, Session, UciSession};
use std::time::Duration;

/// Plays the next scripted move if it is legal, else a mating move, else the smallest move in
/// coordinate notation. Always reports score 12 and 34 nodes.
struct TestPlayer {
    script: Vec<String>,
}

impl Player for TestPlayer {
    fn name(&self) -> String {
        "test".into()
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        let pos = game.position();
        let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if moves.is_empty() {
            return None;
        }
        moves.sort_by_key(|m| m.to_string());
        let scripted = (!self.script.is_empty()).then(|| self.script.remove(0));
        let mv = scripted
            .and_then(|s| moves.iter().copied().find(|m| m.to_string() == s))
            .or_else(|| moves.iter().copied().find(|&m| pos.play(m).is_checkmate()))
            .unwrap_or(moves[0]);
        Some(Decision { mv, score: 12, mate: None, depth: 1, pv: Vec::new(), reason: "test choice".into(), nodes: 34 })
    }
}

/// A player spec, read.
fn player(spec: &str) -> agentchess::players::spec::PlayerSpec {
    spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn engine(script: &[&str]) -> Engine {
    let player = TestPlayer { script: script.iter().map(|s| s.to_string()).collect() };
    Engine::with_player(Box::new(player), self::player("level:7"), 1).freeze_time()
}

/// Runs a transcript against a fresh XBoard session.
fn xboard(transcript: &str) {
    xboard_with(engine(&[]), transcript);
}

fn xboard_with(engine: Engine, transcript: &str) {
    let mut session = Session::new(engine);
    run_transcript(transcript, |line| session.handle_line(line).iter().map(|r| r.to_string()).collect());
}

fn uci(transcript: &str) {
    let mut session = UciSession::new(engine(&[]));
    run_transcript(transcript, |line| session.handle_line(line).iter().map(|r| r.to_string()).collect());
}

fn run_transcript(transcript: &str, mut send: impl FnMut(&str) -> Vec<String>) {
    let mut got: Vec<String> = Vec::new();
    let mut expected: Vec<String> = Vec::new();
    let mut last_input = String::from("(start)");
    let check = |input: &str, got: &[String], expected: &[String]| {
        assert_eq!(got, expected, "replies to '{input}'");
    };
    for raw in transcript.lines() {
        let line = raw.trim_start();
        if let Some(input) = line.strip_prefix('>') {
            check(&last_input, &got, &expected);
            let input = input.strip_prefix(' ').unwrap_or(input);
            got = send(input);
            expected.clear();
            last_input = input.to_string();
        } else if let Some(reply) = line.strip_prefix('<') {
            expected.push(reply.strip_prefix(' ').unwrap_or(reply).to_string());
        } else if !line.is_empty() {
            panic!("bad transcript line: {raw}");
        }
    }
    check(&last_input, &got, &expected);
}

const FEATURES: &str = r#"
    < feature ping=1 setboard=1 playother=1 usermove=1 time=1 draw=1 sigint=0 reuse=1 analyze=1 colors=0 name=1 nps=1 debug=1 myname="AgentChess 0.1.0 level:7" variants="normal"
    < feature option="Level -spin 7 0 9"
    < feature option="Features -string foundation,threat-and-backup,move-attack,threat-move,attack-request,defense-request,defense-consideration"
    < feature option="Seed -string 1"
    < feature option="Player -string level:7"
    < feature done=1
"#;

// ---- start-up -------------------------------------------------------------------------------

#[test]
fn handshake_sends_all_features_at_once() {
    xboard(&format!(
        "> xboard
         > protover 2
         {FEATURES}
         > accepted ping
         > accepted done
         > rejected playother
         > rejected sigint
         > ping 1
         < pong 1"
    ));
}

#[test]
fn higher_or_unreadable_protover_still_gets_features() {
    xboard(&format!("> protover 3 {FEATURES}"));
    xboard(&format!("> protover {FEATURES}"));
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
fn variant_normal_only() {
    xboard(
        "> variant normal
         > variant crazyhouse
         < Error (unsupported variant): variant crazyhouse",
    );
}

// ---- time control ---------------------------------------------------------------------------

#[test]
fn time_commands_are_silent() {
    xboard(
        "> new
         > level 40 5 0
         > level 0 2:10 5
         > level 0 0:30 0.5
         > level 40 0:30 0
         > level 0 1 0.01
         > level 0 25+5 0
         > st 1
         > st 0.1
         > st 0
         > sd 3
         > nps 10000
         > time 0
         > otim 86400
         > time 8640000
         > time -5
         > time 99999999999999999999999999
         > st 99999999999999999999999999
         > level 0 9999999999:99999 99999999999999999999
         > go
         < move a2a3",
    );
}

#[test]
fn bad_time_arguments_get_errors() {
    xboard(
        "> level x 5 0
         < Error (bad moves per session): level x 5 0
         > level 40 five 0
         < Error (bad base time): level 40 five 0
         > level 40 5 x
         < Error (bad increment): level 40 5 x
         > level 1 2 3 4
         < Error (too many parameters): level 1 2 3 4
         > level 40
         < Error (missing argument): level 40
         > st abc
         < Error (bad time): st abc
         > sd
         < Error (missing argument): sd
         > sd deep
         < Error (bad depth): sd deep
         > nps fast
         < Error (bad node rate): nps fast
         > time soon
         < Error (bad time): time soon
         > otim 1 2
         < Error (too many parameters): otim 1 2
         > ping 3
         < pong 3",
    );
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
    xboard(
        "> new
         > force
         > e2e5
         < Illegal move: e2e5
         > usermove e2e5
         < Illegal move: e2e5
         > usermove garbage
         < Illegal move: garbage
         > e7e5
         < Illegal move: e7e5
         > Nf6
         < Illegal move: Nf6
         > O-O
         < Illegal move: O-O
         > e2e4
         > Nf6",
    );
    xboard(
        "> usermove
         < Error (missing argument): usermove
         > usermove e2e4 e7e5
         < Error (too many parameters): usermove e2e4 e7e5",
    );
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
    xboard(
        "> new
         > ping 1
         < pong 1
         > e2e4
         < move a7a5
         > ping 2
         < pong 2
         > ping abc
         < pong abc
         > ping
         < Error (missing argument): ping",
    );
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
    xboard(
        "> new
         > post
         > accepted debug
         > e2e4
         < 1 12 0 34 a5
         < # test choice
         < move a7a5
         > rejected debug
         > d2d4
         < 1 12 0 34 a4
         < move a5a4",
    );
}

#[test]
fn mate_is_scored_as_mate() {
    xboard(
        "> new
         > force
         > f2f3
         > e7e5
         > g2g4
         > post
         > go
         < 1 100001 0 34 Qh4#
         < move d8h4
         < 0-1 {Black mates}",
    );
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
    // The opponent mates us.
    xboard(
        "> setboard k7/8/1K6/8/8/8/8/7R w - - 0 1
         > playother
         > h1h8
         < 1-0 {White mates}",
    );
    // Stalemate.
    xboard(
        "> setboard k7/8/1K6/8/8/8/8/2Q5 w - - 0 1
         > playother
         > c1c7
         < 1/2-1/2 {Stalemate}",
    );
    // The last piece that could mate is taken.
    xboard(
        "> setboard k7/8/1K6/8/8/8/2r5/N7 w - - 0 1
         > playother
         > a1c2
         < 1/2-1/2 {Insufficient material}",
    );
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
    xboard(
        "> new
         > force
         > Nf3
         > Nf6
         > Ng1
         > Ng8
         > Nf3
         > Nf6
         > Ng1
         > Ng8
         > go
         < 1/2-1/2 {Draw by repetition}",
    );
}

#[test]
fn repetition_created_by_the_engine_is_offered_before_the_move() {
    xboard_with(
        engine(&["f6g8"]),
        "> new
         > force
         > Nf3
         > Nf6
         > Ng1
         > Ng8
         > Nf3
         > Nf6
         > Ng1
         > go
         < offer draw
         < move f6g8",
    );
}

#[test]
fn fifty_moves() {
    xboard(
        "> setboard 8/8/8/8/8/8/R7/K6k w - - 99 80
         > go
         < offer draw
         < move a1b1",
    );
    xboard(
        "> setboard 8/8/8/8/8/8/R7/K6k w - - 99 80
         > playother
         > a2a3
         < 1/2-1/2 {Draw by fifty-move rule}",
    );
}

#[test]
fn draw_offers_are_accepted_only_when_the_rules_give_one() {
    xboard(
        "> new
         > force
         > draw
         > Nf3
         > Nf6
         > Ng1
         > Ng8
         > Nf3
         > Nf6
         > Ng1
         > Ng8
         > draw
         < offer draw",
    );
}

#[test]
fn no_moves_after_result_until_new() {
    xboard(
        "> new
         > e2e4
         < move a7a5
         > result 1-0 {White resigns}
         > d2d4
         > hint
         > result *
         > result 1/2-1/2
         > new
         > e2e4
         < move a7a5",
    );
    xboard(
        "> result
         < Error (bad result): result
         > result 2-0 {?}
         < Error (bad result): result 2-0 {?}",
    );
}

/// xboard 4.9.1 resumes a finished game without `new`: EditGameEvent in EndOfGame mode sends
/// one `undo` per move taken back, then Machine White/Black or Two Machines sends `go`. An
/// engine that stays silent makes xboard wait for its move until the flag falls.
#[test]
fn go_after_result_resumes_the_game() {
    xboard(
        "> new
         > e2e4
         < move a7a5
         > result 1-0 {White resigns}
         > force
         > undo
         > undo
         > go
         < move a2a3",
    );
    xboard(
        "> new
         > e2e4
         < move a7a5
         > result 0-1 {Black mates}
         > force
         > playother
         > d2d4
         < move a5a4",
    );
    // python-chess 1.11 after send_game_result, playing on from the same root: it takes moves
    // back and sends `go`, never `new`.
    xboard(
        "> new
         > e2e4
         < move a7a5
         > force
         > result 1-0 {test over}
         > force
         > remove
         > usermove d2d4
         > st 0.1
         > go
         < move a7a5",
    );
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

#[test]
/// After a refused position nothing is played until a good one arrives, and the GUI is told so
/// at every turn: moves are illegal, and `go`, `hint` and `analyze` get an error, never silence
/// (a GUI waiting on a silent `go` loses on time).
fn bad_setboard_refuses_moves_and_answers_go_until_a_good_one() {
    xboard(
        "> new
         > force
         > e2e4
         > setboard 8/8/8/8 w - -
         < tellusererror Illegal position: board has 4 ranks, expected 8
         > e7e5
         < Illegal move: e7e5
         > go
         < Error (no legal position; send setboard with a legal FEN, or new): go
         > hint
         < Error (no legal position; send setboard with a legal FEN, or new): hint
         > analyze
         < Error (no legal position; send setboard with a legal FEN, or new): analyze
         > exit
         > ping 4
         < pong 4
         > setboard qwerty#%& !! zz 99x -- ~~
         < tellusererror Illegal position: board has 1 ranks, expected 8
         > setboard 8/8/8/8/8/8/8/K6k w - - 0 1 extra
         < tellusererror Illegal position: FEN has 7 fields, expected 4 to 6 (placement, side, castling, en passant, halfmove, fullmove)
         > setboard 8/8/8/8/8/8/8/K5rk b - - 0 1
         < tellusererror Illegal position: the side not to move (White) is in check
         > setboard
         < Error (missing argument): setboard
         > setboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2
         > go
         < move a2a3
         > new
         > e2e4
         < move a7a5",
    );
}

#[test]
fn edit_mode_sets_up_a_position() {
    xboard(
        "> new
         > force
         > edit
         > #
         > Ke1
         > Ra1
         > Pe2
         > c
         > Ke8
         > .
         > go
         < move a1a2",
    );
    // Castling is assumed where king and rook stand at home.
    xboard(
        "> new
         > force
         > edit
         > #
         > Ke1
         > Rh1
         > c
         > Ke8
         > .
         > e1g1",
    );
}

#[test]
fn edit_mode_keeps_the_side_to_move_and_rejects_bad_boards() {
    xboard(
        "> new
         > force
         > a2a3
         > edit
         > #
         > Ke1
         > c
         > Ke8
         > xe8
         > .
         < tellusererror Illegal position: Black has 0 kings, expected exactly one
         > e2e4
         < Illegal move: e2e4
         > edit
         > #
         > Ke1
         > Pe2
         > c
         > Ke8
         > Zz9
         < Error (unknown command): Zz9
         > .
         > go
         < move e8d7",
    );
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
    xboard(
        "> new
         > undo
         < Error (command not legal now): undo
         > remove
         < Error (command not legal now): remove
         > force
         > e2e4
         > remove
         < Error (command not legal now): remove
         > undo
         > e2e4
         > e7e5
         > remove
         > e2e4
         > e7e5
         > undo
         > e7e6
         > go
         < move a2a3",
    );
}

// ---- analysis ---------------------------------------------------------------------------------

#[test]
fn analyze_mode_reports_after_every_change() {
    xboard(
        "> new
         > post
         > analyze
         < 1 12 0 34 a3
         > e2e4
         < 1 12 0 34 a5
         > .
         > undo
         < 1 12 0 34 a3
         > new
         < 1 12 0 34 a3
         > setboard k7/8/1K6/8/8/8/8/7R w - - 0 1
         < 1 100001 0 34 Rh8#
         > h1h8
         < 64 -100000 0 0
         > exit
         > .
         > e7e5
         < Illegal move: e7e5",
    );
}

// ---- information and settings -----------------------------------------------------------------

#[test]
fn information_commands_are_silent() {
    xboard(
        "> name Some Opponent 1.0
         > rating 2000 1850
         > computer
         > ics -
         > ics freechess.org
         > pause
         > resume
         > memory 64
         > cores 2
         > egtpath syzygy /tmp/tb
         > random
         > hard
         > easy
         > ping 1
         < pong 1",
    );
    xboard(
        "> rating high low
         < Error (bad rating): rating high low
         > rating 1
         < Error (missing argument): rating 1
         > memory lots
         < Error (bad size): memory lots
         > cores
         < Error (missing argument): cores
         > egtpath syzygy
         < Error (missing argument): egtpath syzygy
         > name
         < Error (missing argument): name",
    );
}

/// Options: good values are taken silently; a refused one keeps the old value and is said as
/// an `Error` line (python-chess raises it from its next command) and a `tellusererror`
/// (XBoard shows it).
#[test]
fn options() {
    xboard(
        "> option Seed=5
         > option Player=random
         > option Level=10
         < Error (bad level): option Level=10
         < tellusererror option Level=10 refused: levels are 1 to 9
         > option Level=x
         < Error (bad level): option Level=x
         < tellusererror option Level=x refused: levels are 1 to 9
         > option Seed=-1
         < Error (bad seed): option Seed=-1
         < tellusererror option Seed=-1 refused: a seed is a whole number from 0 to 2^64-1
         > option Player=nonsense
         < Error (unknown player): option Player=nonsense
         < tellusererror option Player=nonsense refused: unknown player 'nonsense' (expected level:N, features:LIST, search:depth=N[,eval=E][,range=R], random)
         > option Features=flying
         < Error (unknown feature): option Features=flying
         < tellusererror option Features=flying refused: unknown agent feature 'flying' (known: foundation, threat-and-backup, move-attack, threat-move, attack-request, defense-request, restricted-defense-request, defense-consideration, exchange, fork, mating, promotion, look-ahead, defense-balance, placement)
         > option Hash=64
         < Error (unknown option): option Hash=64
         < tellusererror option Hash=64 refused: no such option
         > option Clear
         < Error (unknown option): option Clear
         < tellusererror option Clear refused: no such option
         > option
         < Error (missing argument): option
         > protover 2
         < feature ping=1 setboard=1 playother=1 usermove=1 time=1 draw=1 sigint=0 reuse=1 analyze=1 colors=0 name=1 nps=1 debug=1 myname=\"AgentChess 0.1.0 random\" variants=\"normal\"
         < feature option=\"Level -spin 0 0 9\"
         < feature option=\"Features -string -\"
         < feature option=\"Seed -string 5\"
         < feature option=\"Player -string random\"
         < feature done=1",
    );
}

/// The `Level` option shows the level a feature set is the preset of, and 0 (not a level) for
/// players that are not a preset.
#[test]
fn level_option_follows_the_player() {
    for (spec, level) in
        [("features:foundation", 1), ("level:3", 3), ("features:attack-request", 0), ("search:depth=2", 0)]
    {
        let mut s = Session::new(Engine::new(player(spec), 1).unwrap());
        let features: Vec<String> = s.handle_line("protover 2").iter().map(|r| r.to_string()).collect();
        let expected = format!("feature option=\"Level -spin {level} 0 9\"");
        assert!(features.contains(&expected), "{spec}: {features:?}");
    }
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
    xboard(
        "> garbage_command
         < Error (unknown command): garbage_command
         > bad
         < Error (unknown command): bad
         > exclude e2e4
         < Error (unknown command): exclude
         > NEW
         < Error (unknown command): NEW
         > ping 2
         < pong 2",
    );
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
    xboard(
        "> undo
         < Error (command not legal now): undo
         > go
         < move a2a3
         > result 0-1 {White resigns}
         > force
         > go
         < move a7a5
         > setboard 8/8/8/8/8/8/8/K6k w - - 0 1
         > go
         < 1/2-1/2 {Insufficient material}
         > new
         > force
         > e2e4
         > setboard k7/8/1K6/8/8/8/8/7R w - - 0 1
         > go
         < move h1h8
         < 1-0 {White mates}
         > go
         < 1-0 {White mates}",
    );
}

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

// ---- UCI --------------------------------------------------------------------------------------

#[test]
fn uci_session() {
    uci("> uci
         < id name AgentChess 0.1.0
         < id author the AgentChess developers
         < option name Level type spin default 7 min 0 max 9
         < option name Features type string default foundation,threat-and-backup,move-attack,threat-move,attack-request,defense-request,defense-consideration
         < option name Seed type string default 1
         < option name Player type string default level:7
         < uciok
         > isready
         < readyok
         > ucinewgame
         > position startpos moves e2e4
         > go wtime 1000 btime 1000 winc 10 binc 10
         < info depth 1 score cp 12 nodes 34 time 0 pv a7a5
         < bestmove a7a5
         > position fen k7/8/1K6/8/8/8/8/7R w - - 0 1
         > go movetime 100
         < info depth 1 score mate 1 nodes 34 time 0 pv h1h8
         < bestmove h1h8
         > position startpos
         > go infinite
         < info depth 1 score cp 12 nodes 34 time 0 pv a2a3
         > isready
         < readyok
         > stop
         < bestmove a2a3
         > stop
         > go depth 3
         < info depth 1 score cp 12 nodes 34 time 0 pv a2a3
         < bestmove a2a3
         > position fen k7/1Q6/1K6/8/8/8/8/8 b - - 0 1
         > go
         < bestmove 0000");
}

#[test]
fn uci_bad_input() {
    uci("> uci
         < id name AgentChess 0.1.0
         < id author the AgentChess developers
         < option name Level type spin default 7 min 0 max 9
         < option name Features type string default foundation,threat-and-backup,move-attack,threat-move,attack-request,defense-request,defense-consideration
         < option name Seed type string default 1
         < option name Player type string default level:7
         < uciok
         > xyzzy
         < info string unknown command: xyzzy
         > setoption name Level value 10
         < info string Level must be 1 to 9, got '10'
         > setoption name Hash value 16
         < info string unknown option 'Hash'
         > setoption name Seed value 42
         > position fen 8/8/8/8 w - -
         < info string illegal position: board has 4 ranks, expected 8
         > position startpos moves e2e4 e2e4 d7d5
         < info string illegal move: e2e4
         > go
         < info depth 1 score cp 12 nodes 34 time 0 pv a7a5
         < bestmove a7a5
         > position
         < info string bad position command: position
         > isready
         < readyok");
}

/// UCI: "if the engine or the GUI receives an unknown command or token it should just ignore
/// it and try to parse the rest of the string in this line". A `go` that is not answered with
/// `bestmove` leaves the GUI waiting until it forfeits the engine.
#[test]
fn uci_skips_unknown_tokens_and_always_answers_go() {
    uci("> position startpos moves e2e4
         > go wtime x btime 1000
         < info string ignored go parameter 'wtime x'
         < info depth 1 score cp 12 nodes 34 time 0 pv a7a5
         < bestmove a7a5
         > go sideways btime 1000
         < info string ignored go parameter 'sideways'
         < info depth 1 score cp 12 nodes 34 time 0 pv a7a5
         < bestmove a7a5
         > go btime
         < info string ignored go parameter 'btime'
         < info depth 1 score cp 12 nodes 34 time 0 pv a7a5
         < bestmove a7a5
         > go wtime btime 1000 mate x
         < info string ignored go parameter 'wtime'
         < info string ignored go parameter 'mate x'
         < info depth 1 score cp 12 nodes 34 time 0 pv a7a5
         < bestmove a7a5
         > joho isready
         < readyok
         > joho position startpos
         > go
         < info depth 1 score cp 12 nodes 34 time 0 pv a2a3
         < bestmove a2a3
         > xyzzy
         < info string unknown command: xyzzy
         > debug joho on
         > isready
         < readyok");
}

#[test]
fn the_loop_switches_to_uci_on_a_first_uci_command() {
    let mut output = Vec::new();
    protocol::run(&b"\nuci\nisready\nquit\nisready\n"[..], &mut output, engine(&[])).unwrap();
    let text = String::from_utf8(output).unwrap();
    assert!(text.starts_with("id name AgentChess"));
    assert!(text.ends_with("uciok\nreadyok\n"));
}

// ---- typed commands and responses ------------------------------------------------------------

#[test]
fn commands_round_trip() {
    let lines = [
        "xboard",
        "protover 2",
        "accepted ping",
        "rejected sigint",
        "new",
        "variant normal",
        "quit",
        "random",
        "force",
        "go",
        "playother",
        "white",
        "black",
        "level 40 5 0",
        "level 0 2:10 5",
        "level 0 0:30 0.5",
        "level 0 1 0.01",
        "st 1",
        "st 0.1",
        "sd 4",
        "nps 1000",
        "time 0",
        "otim 86400",
        "usermove e7e8q",
        "e2e4",
        "O-O",
        "Nf3",
        "?",
        "ping 12",
        "draw",
        "result 1-0 {White mates}",
        "result *",
        "setboard 8/8/8/8/8/8/8/K6k w - - 0 1",
        "edit",
        "hint",
        "bk",
        "undo",
        "remove",
        "hard",
        "easy",
        "post",
        "nopost",
        "analyze",
        "exit",
        ".",
        "name Fairy-Max 5.0b",
        "rating 2100 1900",
        "computer",
        "ics -",
        "pause",
        "resume",
        "memory 64",
        "cores 2",
        "egtpath syzygy /tb",
        "option Level=5",
        "option Reset",
    ];
    for line in lines {
        let cmd = Command::parse(line).unwrap().unwrap();
        assert_eq!(cmd.to_string(), line);
        assert_eq!(Command::parse(&cmd.to_string()).unwrap(), Some(cmd));
    }
}

#[test]
fn responses_round_trip() {
    let lines = [
        r#"feature ping=1 myname="AgentChess 0.1.0" done=1"#,
        "move e7e8q",
        "pong 5",
        "Illegal move: e2e5",
        "Error (unknown command): foo",
        "1-0 {White mates}",
        "1/2-1/2 {Draw by repetition}",
        "offer draw",
        "resign",
        "7 -35 120 4500 Nf3 Nc6",
        "Hint: e2e4",
        "telluser hello",
        "tellusererror Illegal position: empty FEN",
        "# note",
        " no book",
        "",
    ];
    for line in lines {
        let r = Response::parse(line).unwrap_or_else(|| panic!("{line}"));
        assert_eq!(r.to_string(), line);
    }
}

#[test]
fn move_shapes() {
    for t in [
        "e2e4", "E2E4", "e7e8q", "e7e8=q", "O-O", "O-O-O", "0-0", "Nf3", "exd5", "Qxf7#", "e4", "P@h3", "@@@@",
        "Raxd1+",
    ] {
        assert!(looks_like_move(t), "{t}");
    }
    for t in ["garbage_command", "bad", "exclude", "hello", "x", "Nope", "K", "draw", "123"] {
        assert!(!looks_like_move(t), "{t}");
    }
}

// ---- player faults ----------------------------------------------------------------------------

/// Fails in turn in each way the engine guards against (a panic, an illegal move, no move),
/// then decides properly once, choosing the last legal move so that its own choice is told
/// apart from the fallback (the first legal move). Its twin starts the cycle afresh.
struct FaultyPlayer {
    decisions: usize,
}

/// The spec the engine reports for the faulty player: one no other test uses, so that the log
/// lines naming it are this test's.
const FAULTY: &str = "random#99";

impl Player for FaultyPlayer {
    fn name(&self) -> String {
        "faulty".into()
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        self.decisions += 1;
        let legal = game.position().legal_moves();
        let mv = match self.decisions % 4 {
            1 => panic!("a test player's deliberate panic"),
            // A pawn's triple step is never legal.
            2 => Move::new("e2".parse().unwrap(), "e5".parse().unwrap()),
            3 => return None,
            _ => *legal.iter().last()?,
        };
        Some(Decision { mv, score: 0, mate: None, depth: 1, pv: vec![mv], reason: "faulty".into(), nodes: 1 })
    }

    fn twin(&self) -> Option<Box<dyn Player>> {
        Some(Box::new(FaultyPlayer { decisions: 0 }))
    }
}

/// Keeps the error-level log lines that name the faulty test player, as stderr would show them.
struct FaultLog(std::sync::Mutex<Vec<String>>);

impl log::Log for FaultLog {
    fn enabled(&self, meta: &log::Metadata) -> bool {
        meta.level() <= log::Level::Warn
    }
    fn log(&self, record: &log::Record) {
        let text = record.args().to_string();
        if self.enabled(record.metadata()) && text.contains(&format!("{FAULTY:?}")) {
            self.0.lock().unwrap().push(format!("{} {text}", record.level()));
        }
    }
    fn flush(&self) {}
}

static FAULT_LOG: FaultLog = FaultLog(std::sync::Mutex::new(Vec::new()));

/// A player that panics, chooses an illegal move or none does not cost the game: the engine
/// plays the first legal move, and each failure is counted, logged at error level (stderr, what
/// the end-to-end checks watch) and told to the GUI (XBoard `#` lines once debug is accepted,
/// UCI `info string`). A player that decides properly is not reported.
#[test]
fn player_faults_are_counted_and_reported_and_the_game_goes_on() {
    log::set_logger(&FAULT_LOG).expect("no other logger in this test binary");
    log::set_max_level(log::LevelFilter::Warn);
    let mut s = Session::new(
        Engine::with_player(Box::new(FaultyPlayer { decisions: 0 }), self::player(FAULTY), 1).freeze_time(),
    );
    for line in ["xboard", "protover 2", "accepted debug", "new", "force"] {
        s.handle_line(line);
    }
    let mut reports = Vec::new();
    for turn in 1..=8u32 {
        let first_legal = s.game().position().legal_moves()[0];
        let last_legal = *s.game().position().legal_moves().iter().last().unwrap();
        let replies: Vec<String> = s.handle_line("go").iter().map(|r| r.to_string()).collect();
        let played =
            replies.last().unwrap().strip_prefix("move ").unwrap_or_else(|| panic!("turn {turn}: {replies:?}"));
        let why = match turn % 4 {
            1 => "panicked",
            2 => "chose the illegal move e2e5",
            3 => "chose no move",
            _ => {
                assert_eq!((played, replies.len()), (last_legal.to_string().as_str(), 1), "turn {turn}: {replies:?}");
                continue;
            }
        };
        reports.push(format!(
            "player {FAULTY:?} {why}; played the first legal move {first_legal} instead (fault {} this session)",
            reports.len() + 1
        ));
        assert_eq!(
            replies,
            [format!("# fault: {}", reports.last().unwrap()), format!("move {first_legal}")],
            "turn {turn}"
        );
        s.handle_line("force");
    }
    assert_eq!(s.game().moves().len(), 8, "every decision gave a move");
    assert_eq!(s.engine().faults(), 6);
    let logged = FAULT_LOG.0.lock().unwrap().clone();
    assert_eq!(logged, reports.iter().map(|r| format!("ERROR {r}")).collect::<Vec<_>>());

    // UCI: in play, and while analysis extends the line with the player's twin.
    let start = agentchess::board::Position::startpos();
    let (first, last) = (start.legal_moves()[0], *start.legal_moves().iter().last().unwrap());
    let mut u = UciSession::new(
        Engine::with_player(Box::new(FaultyPlayer { decisions: 0 }), self::player(FAULTY), 1).freeze_time(),
    );
    u.handle_line("position startpos");
    let out: Vec<String> = u.handle_line("go movetime 10").iter().map(|r| r.to_string()).collect();
    let fault =
        format!("player {FAULTY:?} panicked; played the first legal move {first} instead (fault 1 this session)");
    assert_eq!(out[0], format!("info string fault: {fault}"), "{out:?}");
    assert_eq!(out.last().unwrap(), &format!("bestmove {first}"), "{out:?}");
    let mut u = UciSession::new(
        Engine::with_player(Box::new(FaultyPlayer { decisions: 3 }), self::player(FAULTY), 1).freeze_time(),
    );
    u.handle_line("position startpos");
    let out: Vec<String> = u.handle_line("go infinite").iter().map(|r| r.to_string()).collect();
    let fault = format!(
        "player {FAULTY:?} panicked while extending the analysis line; line cut at 1 plies (fault 1 this session)"
    );
    assert_eq!(out[0], format!("info string fault: {fault}"), "{out:?}");
    let out: Vec<String> = u.handle_line("stop").iter().map(|r| r.to_string()).collect();
    assert_eq!(out, [format!("bestmove {last}")], "the player's own move, not the fallback");
}

// ---- the budget each clock command gives -----------------------------------------------------

/// Plays the first legal move and keeps the limits each decision was given.
struct LimitsSpy(std::sync::Arc<std::sync::Mutex<Vec<SearchLimits>>>);

impl Player for LimitsSpy {
    fn name(&self) -> String {
        "spy".into()
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        let mv = *game.position().legal_moves().iter().next()?;
        Some(Decision { mv, score: 0, mate: None, depth: 1, pv: vec![mv], reason: String::new(), nodes: 1 })
    }

    fn decide_within(&mut self, game: &Game, limits: &SearchLimits) -> Option<Decision> {
        self.0.lock().unwrap().push(*limits);
        self.decide(game)
    }
}

fn spy_engine() -> (Engine, std::sync::Arc<std::sync::Mutex<Vec<SearchLimits>>>) {
    let seen = std::sync::Arc::default();
    (
        Engine::with_player(Box::new(LimitsSpy(std::sync::Arc::clone(&seen))), self::player("random"), 1).freeze_time(),
        seen,
    )
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
    let mut go = |position: &str, go: &str| -> (Vec<String>, SearchLimits) {
        u.handle_line(position);
        let out = u.handle_line(go).iter().map(|r| r.to_string()).collect();
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
    let out: Vec<String> = u.handle_line("ponderhit").iter().map(|r| r.to_string()).collect();
    assert_eq!(out, ["bestmove b8a6"]);
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

// ---- the real binary --------------------------------------------------------------------------

/// The built binary on real pipes: handshake, hostile input, a game move, EOF, exit status 0.
/// The built engine on pipes (stdin and stdout piped, stderr dropped).
fn spawn_engine(args: &[&str]) -> std::process::Child {
    use std::process::{Command as Process, Stdio};
    Process::new(env!("CARGO_BIN_EXE_agentchess"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start agentchess")
}

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

/// Sends `before`, waits for the first thinking line (the search is under way: no sleep that a
/// slow machine could outlast), sends `after`, and returns the lines read before sending it and
/// every line after, up to one starting with `until`. A watchdog kills an engine that has not
/// got there within a minute (the lines then end without it): a search that ignores `after`
/// runs for minutes at depth 8 in this middlegame.
fn interrupt_a_search(before: &str, after: &str, until: &str) -> (Vec<String>, Vec<String>) {
    use std::io::{BufRead, BufReader, Write};
    let mut child = spawn_engine(&["--player", "search:depth=8", "--seed", "1"]);
    let pid = child.id();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if done_rx.recv_timeout(std::time::Duration::from_secs(60)).is_err() {
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

const MIDDLEGAME: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Input is read while the engine thinks: `stop`, `?` and `exit` end a long search at once,
/// with the deepest completed iteration's move; without the reader thread these lines waited
/// behind a depth-8 search. Each is sent once the search has shown its first iteration, and
/// what must follow it is checked in order.
#[test]
fn a_long_search_is_interrupted_by_the_gui() {
    // `go infinite` never ends by itself: a bestmove at all, and only after `stop`, is the proof.
    let (before, after) =
        interrupt_a_search(&format!("uci\nposition fen {MIDDLEGAME}\ngo infinite\n"), "stop\n", "bestmove");
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "a bestmove before stop: {before:?}");
    assert!(after.last().is_some_and(|l| l.starts_with("bestmove ")), "no bestmove after stop: {after:?}");

    // `?` in a game: the move follows, with the line of an iteration completed before it.
    let (before, after) = interrupt_a_search(
        &format!("xboard\nprotover 2\npost\nsetboard {MIDDLEGAME}\nst 1000\ngo\n"),
        "?\nping 4\n",
        "pong",
    );
    assert!(!before.iter().any(|l| l.starts_with("move ")), "a move before ?: {before:?}");
    let at = after.iter().position(|l| l.starts_with("move ")).unwrap_or_else(|| panic!("no move after ?: {after:?}"));
    assert_eq!(&after[at + 1..], ["pong 4"], "{after:?}");
    let ply = |l: &String| -> u32 { l.split_whitespace().next().and_then(|d| d.parse().ok()).unwrap_or(0) };
    let cut = at.checked_sub(1).map_or_else(|| before.last().unwrap(), |i| &after[i]);
    assert!((1..8).contains(&ply(cut)), "the search was not cut short by ?: {after:?}");

    // `exit` ends analysis, which has no end of its own: the pong proves the loop went on.
    let (before, after) = interrupt_a_search(
        &format!("xboard\nprotover 2\npost\nsetboard {MIDDLEGAME}\nanalyze\n"),
        "exit\nping 5\n",
        "pong",
    );
    assert!(before.last().is_some_and(|l| l.starts_with("1 ")), "{before:?}");
    assert_eq!(after.last().map(String::as_str), Some("pong 5"), "{after:?}");
}

/// A script may queue its next lines behind `go`: the opponent's reply read while the engine
/// thinks must not cut the engine's search short (only analysis is ended by a new move).
#[test]
fn queued_moves_do_not_cut_a_timed_search() {
    // The reply is sent once depth 1 is shown; from the start position depth 8 takes the
    // searcher seconds more, so it is queued while the engine thinks.
    let (before, after) =
        interrupt_a_search("xboard\nprotover 2\npost\nnew\nst 1000\nsd 8\ngo\n", "e7e5\nping 2\n", "pong");
    assert!(before.last().is_some_and(|l| l.starts_with("1 ")), "{before:?}");
    // The iterations stream as they finish; the last line before the move is the decision's.
    let first_move = after.iter().position(|l| l.starts_with("move ")).expect("a move");
    assert!(first_move > 0 && after[first_move - 1].starts_with("8 "), "the queued move stopped the search: {after:?}");
    assert_eq!(after.last().unwrap(), "pong 2");
}

// ---- time budgets -----------------------------------------------------------------------------

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
    assert_eq!((ms(l.soft_time), ms(l.hard_time)), (4455, 4950));
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

#[test]
fn level_and_features_options_switch_to_the_agents() {
    xboard(
        r#"> option Level=5
         > protover 2
         < feature ping=1 setboard=1 playother=1 usermove=1 time=1 draw=1 sigint=0 reuse=1 analyze=1 colors=0 name=1 nps=1 debug=1 myname="AgentChess 0.1.0 level:5" variants="normal"
         < feature option="Level -spin 5 0 9"
         < feature option="Features -string foundation,threat-and-backup,move-attack,threat-move,attack-request"
         < feature option="Seed -string 1"
         < feature option="Player -string level:5"
         < feature done=1
         > option Features=defense-request
         > option Player=search:depth=2"#,
    );
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

// ---- short clocks -----------------------------------------------------------------------------

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
