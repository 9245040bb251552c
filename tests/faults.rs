//! A player that fails (panics, chooses an illegal move or none) never costs the game: the
//! engine plays a legal move, counts the fault, logs it and tells the GUI. In a test binary of
//! its own, since it installs the process's logger.

mod common;

use agentchess::board::{Game, Move};
use agentchess::players::{Decision, Player};
use agentchess::protocol::{Engine, Session, UciSession};
use common::player;

/// Fails in turn in each way the engine guards against (a panic, an illegal move, no move),
/// then decides properly once, choosing the last legal move so that its own choice is told
/// apart from the fallback (the first legal move). Its analyst starts the cycle afresh.
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
        Some(Decision {
            mv,
            score: 0,
            mate: None,
            depth: 1,
            pv: vec![mv],
            reason: "faulty".into(),
            nodes: 1,
            multipv: 0,
            tbhits: 0,
        })
    }

    fn analyst(&self) -> Option<Box<dyn Player>> {
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
    let mut s =
        Session::new(Engine::with_player(Box::new(FaultyPlayer { decisions: 0 }), player(FAULTY), 1).freeze_time());
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

    // UCI: in play, and while the player's analyst analyses.
    let start = agentchess::board::Position::startpos();
    let (first, last) = (start.legal_moves()[0], *start.legal_moves().iter().last().unwrap());
    let mut u =
        UciSession::new(Engine::with_player(Box::new(FaultyPlayer { decisions: 0 }), player(FAULTY), 1).freeze_time());
    u.handle_line("position startpos");
    let out: Vec<String> = u.handle_line("go movetime 10").iter().map(|r| r.to_string()).collect();
    let fault =
        format!("player {FAULTY:?} panicked; played the first legal move {first} instead (fault 1 this session)");
    assert_eq!(out[0], format!("info string fault: {fault}"), "{out:?}");
    assert_eq!(out.last().unwrap(), &format!("bestmove {first}"), "{out:?}");
    let mut u =
        UciSession::new(Engine::with_player(Box::new(FaultyPlayer { decisions: 3 }), player(FAULTY), 1).freeze_time());
    u.handle_line("position startpos");
    let out: Vec<String> = u.handle_line("go infinite").iter().map(|r| r.to_string()).collect();
    let fault =
        format!("player {FAULTY:?} panicked while analysing; the player's own move stands (fault 1 this session)");
    assert_eq!(out[0], format!("info string fault: {fault}"), "{out:?}");
    let out: Vec<String> = u.handle_line("stop").iter().map(|r| r.to_string()).collect();
    assert_eq!(out, [format!("bestmove {last}")], "the player's own move, not the fallback");
}
