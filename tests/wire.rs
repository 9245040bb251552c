//! The typed XBoard lines: commands and responses written and read back, and what looks like a
//! move.

use agentchess::protocol::command::{Command, looks_like_move};
use agentchess::protocol::response::Response;

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
