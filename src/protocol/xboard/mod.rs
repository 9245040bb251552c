//! The XBoard (CECP v2) session: a state machine from input lines to reply lines.
//!
//! `Session::handle_line` is the whole protocol: no I/O, no threads, no clock reads except the
//! engine's own stopwatch (which tests freeze). The run loop in `mod.rs` only moves lines
//! between the pipes and this type. Because the agents answer in microseconds, the engine
//! thinks synchronously: a `ping` after a move is therefore always answered after that move, as
//! the protocol requires, and `?` never has anything to interrupt.

use super::clock::{Clock, SearchLimits, TimeControl};
use super::command::{Command, EditCommand, ParseError};
use super::engine::{Engine, Thought, max_threads};
use super::response::{GameResult, Response};
use super::shared::{HELP, LiveOutput, echo, parse_move};
use crate::board::{Bitboard, CastlingNotation, Color, Game, Move, Outcome, Piece, Position, Square, placement_fen};
use crate::players::Ending;

mod options;

/// Who the engine plays, if anyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Play neither side; only track moves.
    Force,
    /// Play this colour: move whenever it is on move and the game is on.
    Play(Color),
    /// Analyze mode: track moves and report an assessment after each position change.
    Analyze,
}

/// The chess a `variant` command asked for, until `new`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Variant {
    #[default]
    Normal,
    /// Chess960: the same moves from any start of the back rank; castling is sent as `O-O`.
    FischeRandom,
}

impl Variant {
    /// The variants `feature variants` declares, in its order.
    pub const NAMES: [&str; 2] = ["normal", "fischerandom"];

    pub fn parse(name: &str) -> Option<Variant> {
        match name {
            "normal" => Some(Variant::Normal),
            "fischerandom" => Some(Variant::FischeRandom),
            _ => None,
        }
    }

    /// How the engine writes its castling: cutechess and xboard send and read Fischer random
    /// castling as `O-O`, and normal castling as the king's two-square move.
    fn castling(self) -> CastlingNotation {
        match self {
            Variant::Normal => CastlingNotation::KingsMove,
            Variant::FischeRandom => CastlingNotation::San,
        }
    }
}

/// A board being set up with the old `edit` commands.
#[derive(Clone, Debug)]
struct EditBoard {
    squares: [Option<(Color, Piece)>; 64],
    /// Colour of the pieces `Pa4` places (`c` toggles it).
    color: Color,
    /// `edit` does not change the side to move.
    side: Color,
}

impl EditBoard {
    fn from_position(pos: &Position) -> EditBoard {
        let mut squares = [None; 64];
        for (i, sq) in squares.iter_mut().enumerate() {
            *sq = pos.piece_at(Square(i as u8));
        }
        EditBoard { squares, color: Color::White, side: pos.side_to_move() }
    }

    /// The FEN the edited board stands for: castling wherever king and rook are at home (as the
    /// protocol says to assume), no en passant, fresh counters.
    fn to_fen(&self) -> String {
        let fen = placement_fen(|sq| self.squares[sq.index()]);
        let at = |file: u8, rank: u8, c: Color, p: Piece| self.squares[Square::new(file, rank).index()] == Some((c, p));
        let mut castling = String::new();
        for (c, rank, k, q) in [(Color::White, 0, 'K', 'Q'), (Color::Black, 7, 'k', 'q')] {
            if at(4, rank, c, Piece::King) {
                if at(7, rank, c, Piece::Rook) {
                    castling.push(k);
                }
                if at(0, rank, c, Piece::Rook) {
                    castling.push(q);
                }
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let side = if self.side == Color::White { 'w' } else { 'b' };
        format!("{fen} {side} {castling} - 0 1")
    }
}

pub struct Session<'a> {
    engine: Engine,
    live: Option<LiveOutput<'a, Response>>,
    game: Game,
    mode: Mode,
    /// A `result` arrived: the game is over for the GUI, so never move again until `new`, or
    /// until `go`/`playother` says to play on.
    finished: bool,
    /// Why the last `setboard`/`edit` was rejected; moves are illegal until a good position.
    bad_position: Option<String>,
    edit: Option<EditBoard>,
    clock: Clock,
    /// Plies played when the last `level` arrived: a mid-game `level` counts its moves per
    /// session from there (WinBoard 4.3+).
    level_ply: usize,
    post: bool,
    ponder: bool,
    /// `#` lines are only safe once the GUI has accepted the `debug` feature.
    debug: bool,
    opponent: Option<String>,
    /// `exclude`: the moves left out of the analysis, with the hash of the position they
    /// belong to (any other position has no exclusions).
    excluded: (u64, Vec<Move>),
    /// The last `memory` value: the GUI sends it before every game, and the same value again
    /// changes nothing.
    memory: Option<u64>,
    /// In analyze mode, a line that was no reason to stop analysing (a bad line, an option, an
    /// `exclude` of an illegal move) ended the analysis: it resumes once that line is handled.
    resume_analysis: bool,
    variant: Variant,
    quit: bool,
}

impl<'a> Session<'a> {
    pub fn new(engine: Engine) -> Session<'a> {
        Session {
            engine,
            live: None,
            // Some GUIs never send `new` before the first game (pychess #625).
            game: Game::startpos(),
            mode: Mode::Play(Color::Black),
            finished: false,
            bad_position: None,
            edit: None,
            clock: Clock::default(),
            level_ply: 0,
            post: false,
            ponder: false,
            debug: false,
            opponent: None,
            excluded: (0, Vec::new()),
            memory: None,
            resume_analysis: false,
            variant: Variant::Normal,
            quit: false,
        }
    }

    /// Sends the thinking lines of a searcher's completed iterations to `sink` as soon as each
    /// is complete (with `post`); the move comes with its own line only if it differs.
    pub fn set_live_output(&mut self, sink: impl FnMut(&Response) + 'a) {
        self.live = Some(Box::new(sink));
    }

    /// Thinks, passing every completed step to the live output as soon as it is complete (with
    /// `post`). The thinking lines the caller should still send with the result are returned
    /// with it: the decision's own line, unless it went out live already.
    fn think(&mut self, limits: &SearchLimits) -> Option<(Thought, Vec<Response>)> {
        let pos = *self.game.position();
        let mut sink = if self.post { self.live.as_mut() } else { None };
        let mut last_best: Option<Response> = None;
        let thought = self.engine.think_reporting(&self.game, limits, &mut |step| {
            if let Some(out) = sink.as_mut() {
                let line = thinking_line(&pos, &step);
                out(&line);
                if step.multipv <= 1 {
                    last_best = Some(line);
                }
            }
        })?;
        let own = thinking_line(&pos, &thought);
        // The decision's own line only when it says something the last one did not (a better
        // move found in a cut iteration); its nodes and time alone are no new line.
        let told = last_best.as_ref().is_some_and(|sent| same_line(sent, &own));
        let lines = if self.post && !told { vec![own] } else { Vec::new() };
        Some((thought, lines))
    }

    /// Between lines, once nothing waits in the input: analysis that a passing line
    /// interrupted goes on, and otherwise the engine ponders where the GUI asked for it.
    pub fn idle(&mut self) -> Vec<Response> {
        if self.resume_analysis {
            self.resume_analysis = false;
            if self.mode == Mode::Analyze {
                return self.analysis();
            }
        }
        self.ponder();
        Vec::new()
    }

    /// Thinks on the opponent's time when the GUI asked for it (`hard`): in a game the engine
    /// plays, with the opponent to move, for a player that gains by it. Ends at the next line.
    pub fn ponder(&mut self) {
        let Mode::Play(color) = self.mode else { return };
        if !self.ponder || !self.playable() || self.game.position().side_to_move() == color || !self.engine.ponders() {
            return;
        }
        // Never while a board is being edited: every line then is an edit command.
        if self.edit.is_some() {
            return;
        }
        if claimable_outcome(&self.game).is_some() {
            return;
        }
        self.engine.ponder(&self.game);
    }

    /// True once `quit` has been handled: the caller should exit.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// What the engine's next move may spend, from the time control, clocks and limits so far.
    pub fn next_move_limits(&self) -> SearchLimits {
        self.clock.limits(self.engine_moves_made())
    }

    /// The replies to one input line, in order.
    pub fn handle_line(&mut self, line: &str) -> Vec<Response> {
        log::debug!(">> {line}");
        if self.edit.is_some()
            && let Some(cmd) = EditCommand::parse(line)
        {
            return self.handle_edit(cmd);
        }
        match Command::parse(line) {
            Ok(Some(cmd)) => self.handle(cmd),
            Ok(None) => Vec::new(),
            Err(ParseError { reason, command }) => vec![Response::Error { reason, command }],
        }
    }

    pub fn handle(&mut self, cmd: Command) -> Vec<Response> {
        let mut out = Vec::new();
        match cmd {
            Command::Xboard => {}
            Command::Protover(_) => out = self.features(),
            Command::Accepted(f) => {
                if f == "debug" {
                    self.debug = true;
                }
            }
            Command::Rejected(f) => {
                log::info!("GUI rejected feature {f}");
                if f == "debug" {
                    self.debug = false;
                }
            }
            Command::New => {
                self.game = Game::startpos();
                self.variant = Variant::Normal;
                self.level_ply = 0;
                self.finished = false;
                self.bad_position = None;
                self.edit = None;
                self.clock.reset_for_new_game();
                self.engine.new_game();
                if self.mode == Mode::Analyze {
                    out = self.analysis();
                } else {
                    self.mode = Mode::Play(Color::Black);
                }
            }
            Command::Variant(v) => match Variant::parse(&v) {
                Some(variant) => self.variant = variant,
                None => out.push(Response::Error {
                    reason: "unsupported variant".into(),
                    command: echo(&format!("variant {v}")),
                }),
            },
            Command::Quit => self.quit = true,
            Command::Random | Command::MoveNow | Command::Computer | Command::Pause | Command::Resume => {}
            Command::Force => {
                if self.mode != Mode::Analyze {
                    self.mode = Mode::Force;
                }
            }
            Command::Go => {
                if self.mode == Mode::Analyze {
                    return out;
                }
                if let Some(error) = self.no_position("go") {
                    return vec![error];
                }
                // An explicit order to play ends the wait after `result`: xboard resumes a
                // finished game with `undo`s and `go`, without `new` (EditGameEvent, EndOfGame).
                self.finished = false;
                self.mode = Mode::Play(self.game.position().side_to_move());
                out = self.move_if_due();
            }
            Command::PlayOther => {
                if self.mode != Mode::Analyze {
                    // As for `go`: the GUI wants the game to go on.
                    self.finished = false;
                    self.mode = Mode::Play(!self.game.position().side_to_move());
                }
            }
            Command::White => self.give_move_to(Color::White),
            Command::Black => self.give_move_to(Color::Black),
            Command::Level { moves_per_session, base, increment } => {
                self.clock.control = TimeControl::Conventional { moves_per_session, base, increment };
                self.level_ply = self.game.moves().len();
            }
            Command::St(t) => self.clock.control = TimeControl::PerMove(t),
            Command::Sd(d) => self.clock.depth = Some(d.max(1)),
            Command::Nps(n) => self.clock.nps = (n > 0).then_some(n),
            Command::Time(cs) => self.clock.engine_time = Some(std::time::Duration::from_millis(cs.saturating_mul(10))),
            Command::Otim(cs) => {
                self.clock.opponent_time = Some(std::time::Duration::from_millis(cs.saturating_mul(10)))
            }
            Command::UserMove(text) | Command::Move(text) => out = self.user_move(&text),
            Command::Ping(n) => out.push(Response::Pong(n)),
            Command::Draw => {
                // Accept only what the rules already grant; otherwise decline by saying nothing.
                if matches!(self.game.outcome(), Some(o) if o.winner().is_none()) && self.bad_position.is_none() {
                    out.push(Response::OfferDraw);
                }
            }
            Command::Result { result, comment } => {
                log::info!("game over: {result} {{{comment}}}");
                self.finished = true;
            }
            Command::SetBoard(fen) => {
                self.edit = None;
                match Position::from_fen(&fen) {
                    Ok(pos) => self.set_position(pos, &mut out),
                    Err(e) => out.push(self.reject_position(e.to_string())),
                }
            }
            Command::Edit => self.edit = Some(EditBoard::from_position(self.game.position())),
            Command::Hint => {
                if let Some(error) = self.no_position("hint") {
                    out.push(error);
                } else if self.playable() {
                    let limits = self.next_move_limits();
                    if let Some(t) = self.engine.think(&self.game, &limits)
                        && self.engine.last_ending() != Ending::Abandoned
                    {
                        out.push(Response::Hint(self.game.position().coordinate(t.mv, self.variant.castling())));
                    }
                }
            }
            Command::Exclude(text) => out = self.exclude(&text, true),
            Command::Include(text) => out = self.exclude(&text, false),
            Command::Help => out.extend(HELP.iter().map(|l| Response::Debug(l.to_string()))),
            Command::Bk => {
                out.push(Response::BookLine("AgentChess has no opening book.".into()));
                out.push(Response::Blank);
            }
            Command::Undo => {
                if self.game.undo().is_none() {
                    out.push(Response::Error { reason: "command not legal now".into(), command: "undo".into() });
                } else if self.mode == Mode::Analyze {
                    out = self.analysis();
                }
            }
            Command::Remove => {
                if self.game.moves().len() < 2 {
                    out.push(Response::Error { reason: "command not legal now".into(), command: "remove".into() });
                } else {
                    self.game.undo();
                    self.game.undo();
                    if self.mode == Mode::Analyze {
                        out = self.analysis();
                    }
                }
            }
            Command::Hard => self.ponder = true,
            Command::Easy => self.ponder = false,
            Command::Post => self.post = true,
            Command::NoPost => self.post = false,
            Command::Analyze => {
                self.mode = Mode::Analyze;
                out = self.analysis();
                out.extend(self.no_position("analyze"));
            }
            Command::Exit => {
                if self.mode == Mode::Analyze {
                    self.mode = Mode::Force;
                }
            }
            // XBoard's analysis status poll gets no `stat01`: the analysis is complete by the time
            // `.` is read, its post lines already carry depth, time and nodes, and python-chess
            // logs `stat01` as unexpected output. The reply is optional (§13).
            Command::Dot => {}
            Command::Name(n) => self.opponent = Some(n),
            Command::Rating { engine, opponent } => log::info!("ratings: engine {engine}, opponent {opponent}"),
            Command::Ics(host) => log::info!("ics {host}"),
            Command::Memory(mb) => out = self.memory(mb),
            // The most the GUI lets the engine use; more than this machine has would only
            // make the threads take turns.
            Command::Cores(n) => {
                let took = self.engine.set_threads((n as usize).min(max_threads()));
                log::info!("cores {n}: {took} search threads");
            }
            Command::EgtPath { kind, path } if kind == "syzygy" => out = self.egt_path(&path),
            Command::EgtPath { kind, path } => log::info!("egtpath {kind} {path}: only syzygy tables are read"),
            Command::Option { name, value } => out = self.set_option(&name, value.as_deref()),
        }
        out
    }

    /// A game position is loaded and not known to be broken, and no `result` ended the game.
    fn playable(&self) -> bool {
        self.bad_position.is_none() && !self.finished
    }

    /// After a refused `setboard`/`edit` there is no game to play until a good position
    /// arrives: a command that needs one is answered with an error rather than silence, so a
    /// GUI waiting for a move learns why none comes.
    fn no_position(&self, command: &str) -> Option<Response> {
        self.bad_position.as_ref().map(|_| Response::Error {
            reason: "no legal position; send setboard with a legal FEN, or new".into(),
            command: command.into(),
        })
    }

    fn reject_position(&mut self, reason: String) -> Response {
        // Not a warning: the GUI hears of it (`tellusererror`), and a log line at warning level
        // is what match runners count as the engine's fault.
        log::info!("rejected position: {reason}");
        self.bad_position = Some(reason.clone());
        Response::TellUserError(format!("Illegal position: {reason}"))
    }

    fn set_position(&mut self, pos: Position, out: &mut Vec<Response>) {
        self.game = Game::new(pos);
        self.level_ply = 0;
        self.bad_position = None;
        if self.mode == Mode::Analyze {
            out.extend(self.analysis());
        }
    }

    /// `white`/`black` (sent only by colors=1 GUIs): that side is on move, the engine plays
    /// the other one, and nothing moves yet.
    fn give_move_to(&mut self, side: Color) {
        self.set_side_to_move(side);
        if self.mode != Mode::Analyze {
            self.mode = Mode::Play(!side);
        }
    }

    fn set_side_to_move(&mut self, side: Color) {
        let pos = *self.game.position();
        if pos.side_to_move() == side {
            return;
        }
        let fen = pos.to_fen();
        let mut fields: Vec<&str> = fen.split(' ').collect();
        fields[1] = if side == Color::White { "w" } else { "b" };
        fields[3] = "-";
        match Position::from_fen(&fields.join(" ")) {
            Ok(p) => {
                self.game = Game::new(p);
                self.level_ply = 0;
            }
            Err(e) => log::info!("cannot give the move to {side}: {e}"),
        }
    }

    fn handle_edit(&mut self, cmd: EditCommand) -> Vec<Response> {
        let Some(board) = self.edit.as_mut() else { return Vec::new() };
        match cmd {
            EditCommand::SwitchColor => board.color = !board.color,
            EditCommand::Clear => board.squares = [None; 64],
            EditCommand::Place { piece, file, rank } => {
                let p = Piece::from_char(piece.to_ascii_lowercase()).unwrap_or(Piece::Pawn);
                board.squares[Square::new(file, rank).index()] = Some((board.color, p));
            }
            EditCommand::Empty { file, rank } => board.squares[Square::new(file, rank).index()] = None,
            EditCommand::Done => {
                let fen = board.to_fen();
                self.edit = None;
                let mut out = Vec::new();
                match Position::from_fen(&fen) {
                    Ok(pos) => self.set_position(pos, &mut out),
                    Err(e) => out.push(self.reject_position(e.to_string())),
                }
                return out;
            }
        }
        Vec::new()
    }

    fn user_move(&mut self, text: &str) -> Vec<Response> {
        if self.bad_position.is_some() {
            return vec![Response::IllegalMove(echo(text))];
        }
        let Some(mv) = parse_move(self.game.position(), text) else {
            return vec![Response::IllegalMove(echo(text))];
        };
        self.game.play(mv);
        match self.mode {
            Mode::Analyze => self.analysis(),
            Mode::Force => Vec::new(),
            // Outside force mode a move means "your turn" (cutechess sends no `go`): the engine
            // takes whichever side is now on move.
            Mode::Play(_) => {
                self.mode = Mode::Play(self.game.position().side_to_move());
                self.move_if_due()
            }
        }
    }

    /// Plays the engine's move if it is on move and the game is on; claims the result instead
    /// if the game is already over by rule.
    fn move_if_due(&mut self) -> Vec<Response> {
        let Mode::Play(color) = self.mode else { return Vec::new() };
        if !self.playable() || self.game.position().side_to_move() != color {
            return Vec::new();
        }
        if let Some(outcome) = claimable_outcome(&self.game) {
            return claim(&self.game, outcome).into_iter().collect();
        }
        let limits = self.next_move_limits();
        let Some((thought, lines)) = self.think(&limits) else { return Vec::new() };
        // `force`, `new` or `result` came during the search: the game it was for is gone.
        if self.engine.last_ending() == Ending::Abandoned {
            return Vec::new();
        }
        let mut out = self.fault_report(&thought);
        out.extend(lines);
        if self.post && self.debug {
            out.extend(self.engine.strength_note().map(Response::Debug));
        }
        if self.post && self.debug && !thought.reason.is_empty() {
            out.push(Response::Debug(echo_reason(&thought.reason)));
        }
        let text = self.game.position().coordinate(thought.mv, self.variant.castling());
        self.game.play(thought.mv);
        let after = claimable_outcome(&self.game);
        // A draw that our own move creates is claimed by offering it before the move (§9).
        if matches!(after, Some(Outcome::Threefold | Outcome::FiftyMoves)) {
            out.push(Response::OfferDraw);
        }
        out.push(Response::Move(text));
        if let Some(o @ (Outcome::Checkmate { .. } | Outcome::Stalemate | Outcome::InsufficientMaterial)) = after {
            out.extend(claim(&self.game, o));
        }
        out
    }

    /// The number of moves the engine's colour has made since the time control was set; with
    /// `level MPS …` this says how far into the current period we are.
    fn engine_moves_made(&self) -> u32 {
        let Mode::Play(color) = self.mode else { return 0 };
        let first = self.game.start_position().side_to_move();
        let plies = self.game.moves().len();
        let from = self.level_ply.min(plies);
        (from..plies).filter(|i| (if i % 2 == 0 { first } else { !first }) == color).count() as u32
    }

    /// Analyze mode's report on the current position: the agents' choice and its value.
    fn analysis(&mut self) -> Vec<Response> {
        self.resume_analysis = false;
        // While a board is edited there is no position yet: the analysis starts at `.`.
        if self.bad_position.is_some() || self.edit.is_some() {
            return Vec::new();
        }
        // A position without moves is analysed to the end at once: mated or drawn, at full
        // depth, with no line (a client waiting for some depth must not wait forever). A drawn
        // position that could be claimed (a repetition, fifty moves) is analysed as usual.
        let pos = *self.game.position();
        if pos.legal_moves().is_empty() {
            let score = if pos.is_checkmate() { -100_000 } else { 0 };
            return vec![Response::Thinking {
                ply: super::engine::FINISHED_DEPTH,
                score,
                time_cs: 0,
                nodes: 0,
                pv: Vec::new(),
            }];
        }
        let excluded = self.excluded_here();
        let root_moves: Vec<Move> = pos.legal_moves().iter().copied().filter(|m| !excluded.contains(m)).collect();
        if root_moves.is_empty() {
            return vec![Response::Debug("every move is excluded: include one to analyse".into())];
        }
        let restricted = !excluded.is_empty();
        let limits = SearchLimits {
            infinite: true,
            root_moves: if restricted { root_moves } else { Vec::new() },
            ..Default::default()
        };
        match self.think(&limits) {
            Some((t, lines)) => {
                // Stopped by a line: unless that line starts an analysis of its own (a move, a
                // new position) or ends analyze mode, the analysis goes on once it is handled.
                let ending = self.engine.last_ending();
                self.resume_analysis = ending != Ending::Completed;
                if ending == Ending::Abandoned {
                    return Vec::new();
                }
                let mut out = self.fault_report(&t);
                out.extend(lines);
                // Analysis reports whether or not `post` was sent (the GUI asked for it).
                if !self.post {
                    out.push(thinking_line(self.game.position(), &t));
                }
                out
            }
            None => Vec::new(),
        }
    }

    /// The moves `exclude` left out in the current position.
    fn excluded_here(&self) -> &[Move] {
        let (key, moves) = &self.excluded;
        if *key == self.game.position().hash() { moves } else { &[] }
    }

    /// `exclude`/`include` MOVE or `all` (`leave` says which), then in analyze mode the
    /// analysis again over the moves left. Exclusions hold for the position they were made in.
    fn exclude(&mut self, text: &str, leave: bool) -> Vec<Response> {
        let pos = *self.game.position();
        let mut moves = self.excluded_here().to_vec();
        if text == "all" {
            moves = if leave { pos.legal_moves().iter().copied().collect() } else { Vec::new() };
        } else {
            let Some(mv) = parse_move(&pos, text) else {
                let verb = if leave { "exclude" } else { "include" };
                return vec![Response::Error {
                    reason: "illegal move".into(),
                    command: echo(&format!("{verb} {text}")),
                }];
            };
            moves.retain(|&m| m != mv);
            if leave {
                moves.push(mv);
            }
        }
        self.excluded = (pos.hash(), moves);
        if self.mode == Mode::Analyze { self.analysis() } else { Vec::new() }
    }

    /// A player failure, told to a GUI that reads debug lines (it is on stderr in any case).
    fn fault_report(&self, thought: &Thought) -> Vec<Response> {
        match &thought.fault {
            // Not `echo_reason`: that cuts long text, and the whole report matters here.
            Some(fault) if self.debug => vec![Response::Debug(format!("fault: {}", fault.replace("Draw", "draw")))],
            _ => Vec::new(),
        }
    }
}

/// The result line for a finished game, if it is one the GUI will accept as a claim.
/// The game's outcome as this engine may claim it: a dead position outside the claimable
/// insufficient-material cases (say KBBK, bishops on one colour) is played on, and then the
/// fifty-move rule or a repetition still ends it, which `Game::outcome` would report behind the
/// dead position.
fn claimable_outcome(game: &Game) -> Option<Outcome> {
    match game.outcome()? {
        Outcome::InsufficientMaterial if !claimable_insufficient(game.position()) => {
            if game.is_fifty_moves() {
                Some(Outcome::FiftyMoves)
            } else if game.is_threefold() {
                Some(Outcome::Threefold)
            } else {
                None
            }
        }
        outcome => Some(outcome),
    }
}

fn claim(game: &Game, outcome: Outcome) -> Option<Response> {
    if outcome == Outcome::InsufficientMaterial && !claimable_insufficient(game.position()) {
        return None;
    }
    let result = GameResult::parse(outcome.result_string()).unwrap_or(GameResult::Unknown);
    Some(Response::Result { result, comment: outcome.reason().to_string() })
}

/// The protocol allows the insufficient-material claim only for KK, KNK, KBK and KBKB with
/// bishops on one colour; anything wider (say KBBK) risks xboard's "False draw claim".
fn claimable_insufficient(pos: &Position) -> bool {
    let heavy = pos.by_piece(Piece::Pawn) | pos.by_piece(Piece::Rook) | pos.by_piece(Piece::Queen);
    if heavy.any() {
        return false;
    }
    let minors = pos.by_piece(Piece::Knight) | pos.by_piece(Piece::Bishop);
    match minors.count() {
        0 | 1 => true,
        2 => {
            let bishops = pos.by_piece(Piece::Bishop);
            let one_each = pos.pieces(Color::White, Piece::Bishop).count() == 1
                && pos.pieces(Color::Black, Piece::Bishop).count() == 1;
            one_each
                && ((bishops & Bitboard::LIGHT_SQUARES).is_empty() || (bishops & Bitboard::DARK_SQUARES).is_empty())
        }
        _ => false,
    }
}

/// Debug text must stay one line and never look like a claim to xboard's parser.
fn echo_reason(reason: &str) -> String {
    echo(reason).replace("Draw", "draw")
}

/// Two thinking lines that say the same (depth, score and line), whatever their time and nodes.
fn same_line(a: &Response, b: &Response) -> bool {
    match (a, b) {
        (
            Response::Thinking { ply, score, pv, .. },
            Response::Thinking { ply: ply_b, score: score_b, pv: pv_b, .. },
        ) => (ply, score, pv) == (ply_b, score_b, pv_b),
        _ => a == b,
    }
}

/// The `post` line for a thought about `pos`.
fn thinking_line(pos: &Position, thought: &Thought) -> Response {
    Response::Thinking {
        ply: thought.depth.max(1),
        // XBoard's convention for mates: 100000 + N for mate in N, -100000 - N when mated.
        score: match thought.mate {
            Some(n) if n > 0 => 100_000 + n,
            Some(n) => -100_000 + n,
            None => thought.score.clamp(-99_999, 99_999),
        },
        time_cs: thought.elapsed.as_millis() as u64 / 10,
        nodes: thought.nodes,
        pv: san_line(pos, &thought.pv),
    }
}

/// A line of moves in SAN, each in the position it is played from (the line is legal: see
/// `Engine::think`).
fn san_line(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut at = *pos;
    line.iter()
        .map(|&m| {
            let san = at.to_san(m);
            at = at.play(m);
            san
        })
        .collect()
}
