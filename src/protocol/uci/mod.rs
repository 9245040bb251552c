//! UCI, for tools that speak nothing else. Entered when the first command is `uci`.
//!
//! Like the XBoard session it is a pure state machine from lines to replies. Moves are decided
//! synchronously; `go infinite` holds the `bestmove` back until `stop`, and `go ponder` until
//! `stop` or, after `ponderhit`, a search on the clock, as UCI requires.

use super::clock::{OVERHEAD, SearchLimits, budget_with, per_move_budget_with};
use super::engine::Engine;
use super::shared::{ENGINE_NAME, HELP, LiveOutput, VERSION, echo, parse_move};
use crate::board::{CastlingNotation, Color, Game, Position};
use std::time::Duration;

mod command;
mod options;
mod response;

pub use command::{GoParams, UciCommand, UciParseError};
pub use options::OptionError;
pub use response::UciResponse;
use response::{best_move, info_line, same_line};

pub struct UciSession<'a> {
    engine: Engine,
    live: Option<LiveOutput<'a, UciResponse>>,
    game: Game,
    /// A `bestmove` held back until `stop`/`ponderhit`.
    pending: Option<UciResponse>,
    /// The `go ponder` being held: after `ponderhit` the same `go` runs on the clock.
    pondering: Option<GoParams>,
    /// The `Ponder` option: the GUI may send `go ponder`. Nothing else changes with it.
    ponder: bool,
    /// How castling is written (`UCI_Chess960`: the king takes its own rook); every form is
    /// read whatever it says.
    castling: CastlingNotation,
    /// `UCI_ShowWDL`: `info` lines carry the win, draw and loss chances.
    show_wdl: bool,
    /// `Move Overhead`: the time kept back from every move for the GUI's and the network's lag.
    overhead: Duration,
    /// Why the last `position` was refused: until a good one, `go` searches nothing (the GUI
    /// expects a move for the position it sent, which the engine does not have).
    refused: Option<String>,
    quit: bool,
}

impl<'a> UciSession<'a> {
    pub fn new(engine: Engine) -> UciSession<'a> {
        UciSession {
            engine,
            live: None,
            game: Game::startpos(),
            pending: None,
            pondering: None,
            ponder: false,
            castling: CastlingNotation::KingsMove,
            overhead: OVERHEAD,
            show_wdl: false,
            refused: None,
            quit: false,
        }
    }

    /// Sends an `info` line for each of a searcher's completed iterations to `sink` as soon as
    /// it is complete; `bestmove` comes with the decision's own line only if it differs.
    pub fn set_live_output(&mut self, sink: impl FnMut(&UciResponse) + 'a) {
        self.live = Some(Box::new(sink));
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn handle_line(&mut self, line: &str) -> Vec<UciResponse> {
        log::debug!(">> {line}");
        match UciCommand::parse(line) {
            Ok(Some(cmd)) => self.handle(cmd),
            Ok(None) => Vec::new(),
            Err(e @ UciParseError::BadPosition(_)) => {
                // The GUI's next `go` is for the position it meant to send, which the engine
                // does not have: refused like a bad FEN.
                let why = e.to_string();
                self.refused = Some(why.clone());
                vec![UciResponse::InfoString(why)]
            }
            Err(e) => vec![UciResponse::InfoString(e.to_string())],
        }
    }

    pub fn handle(&mut self, cmd: UciCommand) -> Vec<UciResponse> {
        let mut out = Vec::new();
        match cmd {
            UciCommand::Uci => {
                out.push(UciResponse::IdName(format!("{ENGINE_NAME} {VERSION}")));
                out.push(UciResponse::IdAuthor("the AgentChess developers".into()));
                out.extend(self.option_lines());
                out.push(UciResponse::UciOk);
            }
            UciCommand::Debug(_) | UciCommand::Register => {}
            UciCommand::IsReady => out.push(UciResponse::ReadyOk),
            // The tables' path is said back: how many pieces they hold, or why none opened
            // (the engine plays on without them).
            UciCommand::SetOption { name, value } if name.eq_ignore_ascii_case("syzygypath") => {
                match self.engine.set_syzygy_path(value.as_deref().unwrap_or("")) {
                    Ok(Some(pieces)) => out.push(UciResponse::InfoString(format!(
                        "Syzygy tables of up to {pieces} pieces found in {}",
                        self.engine.syzygy_path()
                    ))),
                    Ok(None) => {}
                    Err(e) => out.push(UciResponse::InfoString(format!("{e}; playing without tables"))),
                }
            }
            UciCommand::SetOption { name, value } => match self.set_option(&name, value.as_deref()) {
                Err(e) => out.push(UciResponse::InfoString(e.to_string())),
                Ok(()) if matches!(name.to_ascii_lowercase().as_str(), "uci_limitstrength" | "uci_elo") => {
                    let note = self.engine.strength_note();
                    out.push(UciResponse::InfoString(note.unwrap_or_else(|| "strength not limited".into())));
                }
                Ok(()) => {}
            },
            UciCommand::UciNewGame => {
                self.game = Game::startpos();
                self.refused = None;
                self.engine.new_game();
            }
            UciCommand::Position { fen, moves } => {
                let start = match fen {
                    None => Position::startpos(),
                    Some(f) => match Position::from_fen(&f) {
                        Ok(p) => p,
                        Err(e) => {
                            let why = format!("illegal position: {e}");
                            out.push(UciResponse::InfoString(why.clone()));
                            self.refused = Some(why);
                            return out;
                        }
                    },
                };
                let mut game = Game::new(start);
                self.refused = None;
                for m in &moves {
                    match parse_move(game.position(), m) {
                        Some(mv) => game.play(mv),
                        None => {
                            let why = format!("illegal move: {}", echo(m));
                            out.push(UciResponse::InfoString(why.clone()));
                            self.refused = Some(why);
                            break;
                        }
                    }
                }
                self.game = game;
            }
            UciCommand::Go(params) => {
                // A `go` without `stop` ends the held search: its `bestmove` goes first, before
                // the new search's live `info` lines.
                if let Some(best) = self.pending.take() {
                    match self.live.as_mut() {
                        Some(sink) => sink(&best),
                        None => out.push(best),
                    }
                }
                self.pondering = params.ponder.then(|| params.clone());
                out.extend(self.go(&params));
            }
            UciCommand::Stop => {
                self.pondering = None;
                out.extend(self.pending.take());
            }
            // The GUI's move is the one pondered on: the search goes on, now on the clock the
            // `go ponder` gave, counted from here. It starts again on the same position with
            // the table the pondering filled, so the depths pondered come back at once.
            UciCommand::PonderHit => match self.pondering.take() {
                Some(params) => {
                    self.pending = None;
                    out.extend(self.go(&GoParams { ponder: false, ..params }));
                }
                None => out.extend(self.pending.take()),
            },
            UciCommand::Quit => self.quit = true,
            UciCommand::Help => out.extend(HELP.iter().map(|l| UciResponse::InfoString(l.to_string()))),
        }
        out
    }

    /// A `go`: the search and its `bestmove`, held back (in `pending`) for `go infinite` and
    /// `go ponder`.
    fn go(&mut self, params: &GoParams) -> Vec<UciResponse> {
        let mut out = Vec::new();
        let held = params.infinite || params.ponder;
        if let Some(why) = &self.refused {
            out.push(UciResponse::InfoString(format!(
                "no search: the last position was refused ({why}); send a legal one"
            )));
            out.push(UciResponse::BestMove { mv: "0000".into(), ponder: None });
            self.pondering = None;
            return out;
        }
        if let Some(note) = self.engine.strength_note() {
            out.push(UciResponse::InfoString(note));
        }
        for token in &params.ignored {
            out.push(UciResponse::InfoString(format!("ignored go parameter '{token}'")));
        }
        let mut limits = self.limits(params);
        let (moves, notes) = search_moves(self.game.position(), &params.searchmoves);
        limits.root_moves = moves;
        out.extend(notes.into_iter().map(UciResponse::InfoString));
        let mut sink = self.live.as_mut();
        let mut last_best: Option<UciResponse> = None;
        let (pos, castling, show_wdl) = (*self.game.position(), self.castling, self.show_wdl);
        let thought = self.engine.think_reporting(&self.game, &limits, &mut |step| {
            if let Some(live) = sink.as_mut() {
                let line = info_line(&pos, castling, &step, show_wdl);
                live(&line);
                if step.multipv <= 1 {
                    last_best = Some(line);
                }
            }
        });
        let best = match thought {
            // Mate or stalemate on the board: the score says which, and there is no move.
            None => {
                let pos = self.game.position();
                let score = if pos.is_checkmate() { "mate 0" } else { "cp 0" };
                out.push(UciResponse::Info {
                    depth: 0,
                    multipv: 0,
                    score: score.into(),
                    wdl: None,
                    nodes: 0,
                    tbhits: 0,
                    time_ms: 0,
                    pv: String::new(),
                });
                UciResponse::BestMove { mv: "0000".into(), ponder: None }
            }
            Some(t) => {
                // UCI lets an engine say anything in an info string: a player failure is said
                // there as well as on stderr.
                if let Some(fault) = &t.fault {
                    out.push(UciResponse::InfoString(format!("fault: {fault}")));
                }
                // The decision's own line only when it says something the last one did not (a
                // better move found in a cut iteration); its nodes and time alone are no new line.
                let own = info_line(&pos, castling, &t, show_wdl);
                if !last_best.as_ref().is_some_and(|sent| same_line(sent, &own)) {
                    out.push(own);
                }
                best_move(&pos, castling, &t)
            }
        };
        if held {
            self.pending = Some(best);
        } else {
            out.push(best);
        }
        out
    }

    fn limits(&self, p: &GoParams) -> SearchLimits {
        let mut limits = SearchLimits {
            depth: p.depth,
            nodes: p.nodes,
            infinite: p.infinite || p.ponder,
            mate: p.mate,
            ..Default::default()
        };
        if limits.infinite {
            return limits;
        }
        let (time, inc) = match self.game.position().side_to_move() {
            Color::White => (p.wtime, p.winc),
            Color::Black => (p.btime, p.binc),
        };
        let times = match (p.movetime, time) {
            (Some(t), _) => Some(per_move_budget_with(t, self.overhead)),
            (None, Some(t)) => Some(budget_with(t, inc.unwrap_or_default(), p.movestogo, self.overhead)),
            (None, None) => None,
        };
        if let Some((soft, hard)) = times {
            limits.soft_time = Some(soft);
            limits.hard_time = Some(hard);
        }
        limits
    }
}

/// `go searchmoves`: the moves read against `pos`, and an `info string` for each one that is
/// not a legal move there (and when none is, that every move is searched).
fn search_moves(pos: &Position, texts: &[String]) -> (Vec<crate::board::Move>, Vec<String>) {
    let mut moves = Vec::new();
    let mut notes = Vec::new();
    for text in texts {
        match parse_move(pos, text) {
            Some(mv) if !moves.contains(&mv) => moves.push(mv),
            Some(_) => {}
            None => notes.push(format!("searchmoves: '{}' is not a legal move here", echo(text))),
        }
    }
    if moves.is_empty() && !texts.is_empty() {
        notes.push("searchmoves: no legal move given; every move is searched".into());
    }
    (moves, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use command::parse_go;

    /// `Move Overhead` keeps that much more back from every move's time; out of range, it is
    /// refused and the margin stays.
    #[test]
    fn a_move_overhead_shortens_every_move() {
        let engine = Engine::new("level:1".parse().unwrap(), 1).unwrap();
        let mut session = UciSession::new(engine);
        let go = parse_go(&["wtime", "2000", "btime", "2000", "movetime", "1000"]);
        let clock = parse_go(&["wtime", "2000", "btime", "2000"]);
        let before = (session.limits(&go).hard_time, session.limits(&clock).hard_time);
        assert!(session.set_option("Move Overhead", Some("150")).is_ok());
        let after = (session.limits(&go).hard_time, session.limits(&clock).hard_time);
        assert_eq!(after.0, Some(Duration::from_millis(850)));
        assert!(after.0 < before.0 && after.1 < before.1, "{before:?} {after:?}");
        assert!(session.set_option("Move Overhead", Some("-1")).is_err());
        assert!(session.set_option("Move Overhead", Some("5001")).is_err());
        assert_eq!(session.limits(&go).hard_time, after.0);
        assert!(session.set_option("UCI_AnalyseMode", Some("true")).is_ok());
        assert!(session.set_option("UCI_AnalyseMode", Some("maybe")).is_err());
        assert!(session.set_option("Clear Hash", None).is_ok());
    }
}
