//! Levels 1-10 play Chess960: games from Chess960 start positions, every move legal and chosen
//! by the player itself (no fallback), and level 10 castling in them.

use agentchess::board::{Game, MoveKind, Piece, Position};
use agentchess::protocol::{Engine, SearchLimits};

/// The back rank of Chess960 start position `n` (0-959) in Scharnagl's numbering, in which 518
/// is standard chess: the light-squared bishop, the dark-squared one, the queen on one of the
/// six squares left, the knights on two of the five left (in the order of `KNIGHTS`), then rook,
/// king and rook on the last three.
fn back_rank(n: u32) -> [Piece; 8] {
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let mut rank: [Option<Piece>; 8] = [None; 8];
    let (light, rest) = (n % 4, n / 4);
    let (dark, rest) = (rest % 4, rest / 4);
    let (queen, knights) = (rest % 6, rest / 6);
    rank[2 * light as usize + 1] = Some(Piece::Bishop);
    rank[2 * dark as usize] = Some(Piece::Bishop);
    let empty = |rank: &[Option<Piece>; 8]| (0..8).filter(|&f| rank[f].is_none()).collect::<Vec<usize>>();
    rank[empty(&rank)[queen as usize]] = Some(Piece::Queen);
    let free = empty(&rank);
    let (a, b) = KNIGHTS[knights as usize];
    rank[free[a]] = Some(Piece::Knight);
    rank[free[b]] = Some(Piece::Knight);
    for (f, piece) in empty(&rank).into_iter().zip([Piece::Rook, Piece::King, Piece::Rook]) {
        rank[f] = Some(piece);
    }
    rank.map(|p| p.expect("every square filled"))
}

/// Chess960 start position `n`, every castling right held (`KQkq`: the outermost rooks).
fn start(n: u32) -> Position {
    let white: String = back_rank(n).iter().map(|p| p.to_char().to_ascii_uppercase()).collect();
    let fen = format!("{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1", white.to_ascii_lowercase());
    Position::from_fen(&fen).unwrap_or_else(|e| panic!("start {n}: {fen}: {e}"))
}

#[test]
fn the_960_starts_are_distinct_and_518_is_standard_chess() {
    let mut seen = std::collections::HashSet::new();
    for n in 0..960 {
        let pos = start(n);
        let rank = back_rank(n);
        let files = |piece| (0..8).filter(|&f| rank[f] == piece).collect::<Vec<usize>>();
        let (bishops, rooks, king) = (files(Piece::Bishop), files(Piece::Rook), files(Piece::King)[0]);
        assert_ne!(bishops[0] % 2, bishops[1] % 2, "start {n}: bishops on one colour");
        assert!(rooks[0] < king && king < rooks[1], "start {n}: the king not between its rooks");
        assert_eq!(pos.castling().0, 15, "start {n}");
        assert!(seen.insert(pos.to_fen()), "start {n} repeats another");
    }
    assert_eq!(start(518), Position::startpos());
}

/// Plays `plies` plies of `spec` against itself from start `n`: each move must be the player's
/// own (no fallback) and legal. The castling moves played.
fn play(spec: &str, n: u32, plies: usize) -> usize {
    let mut engine = Engine::new(spec.parse().unwrap(), u64::from(n)).unwrap();
    let mut game = Game::new(start(n));
    let mut castles = 0;
    for _ in 0..plies {
        let pos = *game.position();
        let Some(thought) = engine.think(&game, &SearchLimits::default()) else { break };
        assert_eq!(thought.fault, None, "{spec} from start {n}, at {}", pos.to_fen());
        assert!(pos.is_legal(thought.mv), "{spec} from start {n}: {} at {}", thought.mv, pos.to_fen());
        castles += usize::from(thought.mv.kind() == MoveKind::Castle);
        game.play(thought.mv);
        if game.outcome().is_some() {
            break;
        }
    }
    castles
}

#[test]
fn every_level_plays_chess960_legally() {
    for level in 1..=9 {
        for n in [0, 191, 518, 707, 959] {
            play(&format!("level:{level}"), n, 60);
        }
    }
}

/// Level 10 at a small node budget castles in its Chess960 games, king and rook wherever they
/// started.
#[test]
fn level_ten_castles_in_chess960() {
    let castles: usize = [0, 191, 333, 707, 959].into_iter().map(|n| play("level:10,nodes=2000", n, 40)).sum();
    assert!(castles > 0, "no castling in five games");
}
