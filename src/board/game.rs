//! A game: the position plus the history the draw rules need.

use super::{Color, Move, Position};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Checkmate { winner: Color },
    Stalemate,
    Threefold,
    FiftyMoves,
    InsufficientMaterial,
}

impl Outcome {
    /// The PGN result: "1-0", "0-1" or "1/2-1/2".
    pub fn result_string(self) -> &'static str {
        match self {
            Outcome::Checkmate { winner: Color::White } => "1-0",
            Outcome::Checkmate { winner: Color::Black } => "0-1",
            _ => "1/2-1/2",
        }
    }

    /// The reason as XBoard expects it in a result claim.
    pub fn reason(self) -> &'static str {
        match self {
            Outcome::Checkmate { winner: Color::White } => "White mates",
            Outcome::Checkmate { winner: Color::Black } => "Black mates",
            Outcome::Stalemate => "Stalemate",
            Outcome::Threefold => "Draw by repetition",
            Outcome::FiftyMoves => "Draw by fifty-move rule",
            Outcome::InsufficientMaterial => "Insufficient material",
        }
    }

    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    /// positions[i] is the position before moves[i]; the last one is the current position.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game { start, positions: vec![start], moves: Vec::new() }
    }

    /// This game started again from `start`, keeping its lists' room (`Game::new` allocates).
    pub fn restart(&mut self, start: Position) {
        self.start = start;
        self.positions.clear();
        self.positions.push(start);
        self.moves.clear();
    }

    pub fn startpos() -> Game {
        Game::new(Position::startpos())
    }

    #[inline]
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    pub fn start_position(&self) -> &Position {
        &self.start
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The hash of every position of the game, the start first and the current one last.
    pub fn position_hashes(&self) -> Vec<u64> {
        self.positions.iter().map(Position::hash).collect()
    }

    /// Has a position with this hash occurred in the game (the current one included)?
    pub fn has_seen(&self, hash: u64) -> bool {
        self.positions.iter().any(|p| p.hash() == hash)
    }

    /// Plays a move that must be legal in the current position.
    pub fn play(&mut self, mv: Move) {
        debug_assert!(self.position().is_legal(mv), "illegal move {mv} in {:?}", self.position());
        let next = self.position().play(mv);
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

    /// How often the current position has occurred, counting only positions since the last
    /// irreversible move (a capture or pawn move resets the half-move clock). Positions are
    /// compared by `Position::repetition_key`: an en passant square no capture can use does not
    /// make a position different.
    pub fn repetitions(&self) -> usize {
        let cur = self.position();
        let window = cur.halfmove_clock() as usize;
        let n = self.positions.len();
        let first = n.saturating_sub(window + 1);
        let key = cur.repetition_key();
        self.positions[first..n].iter().rev().step_by(2).filter(|p| p.repetition_key() == key).count()
    }

    pub fn is_threefold(&self) -> bool {
        self.repetitions() >= 3
    }

    pub fn is_fifty_moves(&self) -> bool {
        self.position().halfmove_clock() >= 100
    }

    /// The game's end if it is over now. Mate outranks the fifty-move rule when both happen on
    /// the same move, as the rules say.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if pos.legal_moves().is_empty() {
            return Some(if pos.is_check() {
                Outcome::Checkmate { winner: !pos.side_to_move() }
            } else {
                Outcome::Stalemate
            });
        }
        if pos.is_insufficient_material() {
            return Some(Outcome::InsufficientMaterial);
        }
        if self.is_fifty_moves() {
            return Some(Outcome::FiftyMoves);
        }
        if self.is_threefold() {
            return Some(Outcome::Threefold);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(game: &mut Game, moves: &str) {
        for t in moves.split_whitespace() {
            let mv = game.position().parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            game.play(mv);
        }
    }

    /// A restarted game forgets its moves and the positions they passed through, as a new one.
    #[test]
    fn a_restarted_game_is_a_new_one() {
        let mut g = Game::startpos();
        play_all(&mut g, "e2e4 e7e5 g1f3");
        let passed = g.position().hash();
        let start = Position::from_fen("7k/8/6K1/8/8/8/8/6Q1 w - - 0 1").unwrap();
        g.restart(start);
        let fresh = Game::new(start);
        assert_eq!(g.position(), fresh.position());
        assert_eq!(g.start_position(), fresh.start_position());
        assert!(g.moves().is_empty());
        assert!(!g.has_seen(passed));
        assert!(g.has_seen(start.hash()));
    }

    #[test]
    fn threefold_by_knight_dance() {
        let mut g = Game::startpos();
        play_all(&mut g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert!(!g.is_threefold());
        play_all(&mut g, "Ng8");
        assert!(g.is_threefold());
        assert_eq!(g.outcome(), Some(Outcome::Threefold));
        g.undo();
        assert!(!g.is_threefold());
    }

    #[test]
    fn irreversible_move_resets_repetition_window() {
        let mut g = Game::startpos();
        play_all(&mut g, "Nf3 Nf6 Ng1 Ng8 e4 e5 Nf3 Nf6 Ng1 Ng8");
        assert_eq!(g.repetitions(), 2);
    }

    #[test]
    fn fifty_moves() {
        let mut g = Game::new(Position::from_fen("8/8/8/8/8/8/R7/K6k w - - 99 80").unwrap());
        assert!(g.outcome().is_none());
        play_all(&mut g, "Ra3");
        assert_eq!(g.outcome(), Some(Outcome::FiftyMoves));
    }

    #[test]
    fn a_position_is_seen_once_it_has_occurred() {
        let mut g = Game::startpos();
        let after_e4 = Position::startpos().play(Position::startpos().parse_uci("e2e4").unwrap());
        assert!(g.has_seen(Position::startpos().hash()) && !g.has_seen(after_e4.hash()));
        play_all(&mut g, "e4 e5");
        assert!(g.has_seen(after_e4.hash()) && g.has_seen(g.position().hash()));
        g.undo();
        g.undo();
        assert!(!g.has_seen(after_e4.hash()));
    }

    #[test]
    fn position_hashes_follow_the_moves_and_undo() {
        let mut g = Game::startpos();
        let mut expected = vec![Position::startpos().hash()];
        let mut pos = Position::startpos();
        for uci in ["e2e4", "e7e5", "g1f3", "b8c6"] {
            let mv = pos.parse_uci(uci).unwrap();
            g.play(mv);
            pos = pos.play(mv);
            expected.push(pos.hash());
        }
        assert_eq!(g.position_hashes(), expected);
        g.undo();
        expected.pop();
        assert_eq!(g.position_hashes(), expected);
    }

    #[test]
    fn mate_beats_fifty_moves() {
        let mut g = Game::new(Position::from_fen("k7/8/1K6/8/8/8/8/7R w - - 99 80").unwrap());
        play_all(&mut g, "Rh8#");
        assert_eq!(g.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
    }

    #[test]
    fn mate_and_stalemate() {
        let mate = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
        assert!(mate.is_checkmate());
        assert!(!mate.is_stalemate());
        let stale = Position::from_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1").unwrap();
        assert!(stale.is_stalemate());
        assert_eq!(Game::new(stale).outcome(), Some(Outcome::Stalemate));
    }

    #[test]
    fn insufficient_material() {
        let dead = [
            "8/8/8/8/8/8/8/K6k w - - 0 1",
            "8/8/8/8/8/8/8/KN5k w - - 0 1",
            "8/8/8/8/8/8/8/KB5k w - - 0 1",
            "8/8/8/8/8/8/b7/KB5k w - - 0 1",
        ];
        let alive = [
            "8/8/8/8/8/8/P7/K6k w - - 0 1",
            "8/8/8/8/8/8/8/KBb4k w - - 0 1",
            "8/8/8/8/8/8/8/KNn4k w - - 0 1",
            "8/8/8/8/8/8/7k/KR6 w - - 0 1",
        ];
        for f in dead {
            assert!(Position::from_fen(f).unwrap().is_insufficient_material(), "{f}");
        }
        for f in alive {
            assert!(!Position::from_fen(f).unwrap().is_insufficient_material(), "{f}");
        }
    }
}
