//! Plays one game between two players in-process, by the rules, and records what the thesis's
//! statistics need.

use crate::board::values;
use crate::board::{Color, Game, Move, Outcome, Position};
use crate::players::{NoMove, Player};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Rules(Outcome),
    /// The optional hard cap on moves was reached (reported apart from the rules' draws).
    MoveCap,
    /// A player returned no move or an illegal one (counted as a loss; the game record says
    /// why).
    PlayerFault(Color),
    /// A player resigned (external engines may).
    Resigned(Color),
}

impl Termination {
    pub fn result(self) -> &'static str {
        match self {
            Termination::Rules(o) => o.result_string(),
            Termination::MoveCap => "1/2-1/2",
            Termination::PlayerFault(Color::White) => "0-1",
            Termination::PlayerFault(Color::Black) => "1-0",
            Termination::Resigned(Color::White) => "0-1",
            Termination::Resigned(Color::Black) => "1-0",
        }
    }

    pub fn describe(self) -> String {
        match self {
            Termination::Rules(o) => o.reason().to_string(),
            Termination::MoveCap => "Move cap reached".to_string(),
            Termination::PlayerFault(c) => format!("{c} made no legal move"),
            Termination::Resigned(c) => format!("{c} resigns"),
        }
    }

    pub fn winner(self) -> Option<Color> {
        match self {
            Termination::Rules(o) => o.winner(),
            Termination::MoveCap => None,
            Termination::PlayerFault(c) | Termination::Resigned(c) => Some(!c),
        }
    }
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub index: usize,
    pub seed: u64,
    pub white: String,
    pub black: String,
    pub start_fen: String,
    /// Every move, in order (two bytes each: a long round robin keeps them all; `san()` gives
    /// the notation).
    pub moves: Vec<Move>,
    /// Why each move was played, in the player's words (the agents' reason, the searcher's
    /// line summary), for PGN comments.
    pub reasons: Vec<String>,
    pub termination: Termination,
    /// Material of White minus Black (thesis values) after each ply; index 0 = before move 1.
    pub material: Vec<i32>,
    /// The side reduced to a bare king first, and when (ply), if any.
    pub bare_king: Option<(Color, usize)>,
    /// The agents' counters by decision, White's and Black's (`None` for players without agents).
    pub counters: [Option<crate::agents::CounterLog>; 2],
    /// With [`Termination::PlayerFault`]: what went wrong, in words.
    pub fault: Option<String>,
}

impl GameRecord {
    pub fn result(&self) -> &'static str {
        self.termination.result()
    }

    /// Why the game ended, with a faulty player's fault spelled out.
    pub fn termination_text(&self) -> String {
        match (&self.termination, &self.fault) {
            (Termination::PlayerFault(c), Some(reason)) => format!("{c} fault: {reason}"),
            (t, _) => t.describe(),
        }
    }

    /// Full moves played.
    pub fn full_moves(&self) -> usize {
        self.moves.len().div_ceil(2)
    }

    /// The moves in SAN, replayed from the start position.
    pub fn san(&self) -> Vec<String> {
        let Ok(mut pos) = Position::from_fen(&self.start_fen) else { return Vec::new() };
        self.moves
            .iter()
            .map(|&m| {
                let san = pos.to_san(m);
                pos = pos.play(m);
                san
            })
            .collect()
    }
}

/// White's material minus Black's (thesis values).
pub fn material_balance(pos: &Position) -> i32 {
    values::material_balance(pos, Color::White)
}

fn bare(pos: &Position, c: Color) -> bool {
    pos.by_color(c).count() == 1
}

/// What `play_game` records; `GameRecord` adds who played and the counters.
pub struct Played {
    pub termination: Termination,
    pub moves: Vec<Move>,
    pub reasons: Vec<String>,
    pub material: Vec<i32>,
    pub bare_king: Option<(Color, usize)>,
    /// With [`Termination::PlayerFault`]: what went wrong.
    pub fault: Option<String>,
}

/// Plays a game to its end by the rules (or the optional move cap, in full moves).
pub fn play_game(white: &mut dyn Player, black: &mut dyn Player, start: Position, move_cap: Option<usize>) -> Played {
    let mut game = Game::new(start);
    white.new_game();
    black.new_game();
    let mut moves = Vec::new();
    let mut reasons = Vec::new();
    let mut material = vec![material_balance(&start)];
    let mut bare_king = None;
    let mut fault = None;
    let termination = loop {
        if let Some(outcome) = game.outcome() {
            break Termination::Rules(outcome);
        }
        if move_cap.is_some_and(|cap| moves.len() >= 2 * cap) {
            break Termination::MoveCap;
        }
        let pos = *game.position();
        let side = pos.side_to_move();
        let player: &mut dyn Player = if side == Color::White { &mut *white } else { &mut *black };
        let decision = match player.decide(&game) {
            Some(d) if pos.is_legal(d.mv) => d,
            Some(d) => {
                fault = Some(format!("illegal move {}", d.mv));
                break Termination::PlayerFault(side);
            }
            None => match player.no_move() {
                Some(NoMove::Resign) => break Termination::Resigned(side),
                Some(NoMove::Fault(reason)) => {
                    fault = Some(reason);
                    break Termination::PlayerFault(side);
                }
                None => {
                    fault = Some("no move".to_string());
                    break Termination::PlayerFault(side);
                }
            },
        };
        moves.push(decision.mv);
        reasons.push(decision.reason);
        game.play(decision.mv);
        let next = game.position();
        material.push(material_balance(next));
        if bare_king.is_none() {
            for c in Color::BOTH {
                if bare(next, c) && !bare(next, !c) {
                    bare_king = Some((c, moves.len()));
                }
            }
        }
    };
    Played { termination, moves, reasons, material, bare_king, fault }
}
