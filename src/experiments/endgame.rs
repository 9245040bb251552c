//! Endgame drills: a player with a winning material edge against a defender, from random legal
//! start positions, counting how often it mates before the fifty-move rule (or anything else)
//! ends the game. The measure of level 9's mating net (issue: "KQK and KRK must be mated from any
//! legal start within the 50-move rule").

use crate::board::{Color, Game, Outcome, Piece, Position, Square, placement_fen};
use crate::players::spec::{PlayerSpec, SpecError};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The pieces of each side, kings included: "KQK" is king and queen against a king.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Material {
    pub attacker: Vec<Piece>,
    pub defender: Vec<Piece>,
}

impl Material {
    /// Reads "KQK", "KRK", "KBNK", "KQKP": the attacker's pieces from the first K, the defender's
    /// from the second.
    pub fn parse(text: &str) -> Result<Material, MaterialError> {
        let upper = text.trim().to_ascii_uppercase();
        let bad = || MaterialError::Unreadable(text.to_string());
        let rest = upper.strip_prefix('K').ok_or_else(bad)?;
        let split = rest.find('K').ok_or_else(bad)?;
        let pieces = |s: &str| -> Result<Vec<Piece>, MaterialError> {
            s.chars()
                .map(|c| Piece::from_char(c.to_ascii_lowercase()).filter(|p| *p != Piece::King).ok_or_else(bad))
                .collect()
        };
        let material = Material { attacker: pieces(&rest[..split])?, defender: pieces(&rest[split + 1..])? };
        for (side, list) in [("the attacker", &material.attacker), ("the defender", &material.defender)] {
            if let Some(why) = beyond_one_side(list) {
                return Err(MaterialError::Impossible { text: text.to_string(), why: format!("{side} {why}") });
            }
        }
        if material.attacker.is_empty() {
            return Err(MaterialError::NothingToMateWith(text.to_string()));
        }
        // No position with a lone knight or bishop against a bare king is a mate.
        if material.defender.is_empty() && matches!(material.attacker[..], [Piece::Knight | Piece::Bishop]) {
            return Err(MaterialError::CannotMate(text.to_string()));
        }
        Ok(material)
    }
}

/// Why no game can give one side `pieces` (beside its king): at most eight pawns, and every
/// piece beyond the starting set (one queen, two of each other kind) a promoted pawn.
fn beyond_one_side(pieces: &[Piece]) -> Option<String> {
    let count = |kind: Piece| pieces.iter().filter(|&&p| p == kind).count();
    let pawns = count(Piece::Pawn);
    if pawns > 8 {
        return Some(format!("has {pawns} pawns, and a side has at most 8"));
    }
    let promoted: usize = [(Piece::Queen, 1), (Piece::Rook, 2), (Piece::Bishop, 2), (Piece::Knight, 2)]
        .iter()
        .map(|&(kind, start)| count(kind).saturating_sub(start))
        .sum();
    if pawns + promoted > 8 {
        return Some(format!(
            "would need {promoted} promoted pawns beside its {pawns} pawns, and a side has 8 pawns to give"
        ));
    }
    None
}

/// Material that cannot be read, that no game can reach, or that cannot make a drill.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaterialError {
    #[error("bad material '{0}' (e.g. KQK, KRK, KBNK: each side starts with its K)")]
    Unreadable(String),
    #[error("material '{text}' cannot occur in a game: {why}")]
    Impossible { text: String, why: String },
    #[error("material '{0}' leaves the attacker (the first K) nothing to mate with")]
    NothingToMateWith(String),
    #[error("material '{0}' cannot mate: a lone knight or bishop never mates a bare king")]
    CannotMate(String),
}

/// A random legal position with `material`, the attacker (White) to move: kings apart, no
/// pawn on a first or last rank, the defender not in check, a move to make, and no dead draw
/// (bishops all on one colour) unless a thousand draws give nothing else.
pub fn random_position(material: &Material, rng: &mut StdRng) -> Position {
    for tries in 0.. {
        let mut board: [Option<(Color, Piece)>; 64] = [None; 64];
        let mut place = |color: Color, piece: Piece, rng: &mut StdRng| loop {
            let sq = Square(rng.random_range(0..64u8));
            let pawn_ok = piece != Piece::Pawn || (1..=6).contains(&sq.rank());
            if board[sq.index()].is_none() && pawn_ok {
                board[sq.index()] = Some((color, piece));
                return;
            }
        };
        place(Color::White, Piece::King, rng);
        place(Color::Black, Piece::King, rng);
        for &p in &material.attacker {
            place(Color::White, p, rng);
        }
        for &p in &material.defender {
            place(Color::Black, p, rng);
        }
        let fen = format!("{} w - - 0 1", placement_fen(|sq| board[sq.index()]));
        // from_fen refuses touching kings and a side not to move in check.
        if let Ok(pos) = Position::from_fen(&fen)
            && !pos.legal_moves().is_empty()
            && (tries >= DEAD_START_TRIES || !pos.is_insufficient_material())
        {
            return pos;
        }
    }
    unreachable!("the loop returns")
}

/// How many dead starts are drawn again before one is taken (material that is always dead).
const DEAD_START_TRIES: u32 = 1000;

/// How one drill game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrillGame {
    pub start: String,
    pub outcome: Outcome,
    /// Moves the attacker made.
    pub moves: usize,
    /// The game in SAN, for looking at what went wrong.
    pub san: Vec<String>,
}

impl DrillGame {
    pub fn mated(&self) -> bool {
        self.outcome == Outcome::Checkmate { winner: Color::White }
    }
}

/// [`run_drill`] for players given as text, each read here.
pub fn drill(
    material: &Material,
    positions: usize,
    player: &str,
    defender: &str,
    seed: u64,
    threads: usize,
) -> Result<Vec<DrillGame>, SpecError> {
    let (player, defender) = (player.parse()?, defender.parse()?);
    Ok(run_drill(material, positions, &player, &defender, seed, threads))
}

/// Plays `positions` drill games of `player` (White, the attacker) against `defender`, from
/// random positions drawn with `seed`, on `threads` threads; game i's start and seeds depend
/// only on i, so the result is the same on any number of threads.
pub fn run_drill(
    material: &Material,
    positions: usize,
    player: &PlayerSpec,
    defender: &PlayerSpec,
    seed: u64,
    threads: usize,
) -> Vec<DrillGame> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<DrillGame>>> =
        (0..positions).map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, positions.max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= positions {
                        break;
                    }
                    let game = drill_game(material, i, player, defender, seed);
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(game);
                }
            });
        }
    });
    results.into_iter().filter_map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner())).collect()
}

/// Drill game `i`: its start position and both players' seeds come from `seed` and `i`.
fn drill_game(material: &Material, i: usize, player: &PlayerSpec, defender: &PlayerSpec, seed: u64) -> DrillGame {
    let game_seed = crate::experiments::game_seed(seed, 0xe6d, i as u64);
    let mut rng = StdRng::seed_from_u64(game_seed);
    let start = random_position(material, &mut rng);
    let mut white = player.build(game_seed);
    let mut black = defender.build(game_seed ^ 1);
    let mut game = Game::new(start);
    let outcome = loop {
        if let Some(o) = game.outcome() {
            break o;
        }
        let side = game.position().side_to_move();
        let mover = if side == Color::White { &mut white } else { &mut black };
        let Some(d) = mover.decide(&game).filter(|d| game.position().is_legal(d.mv)) else {
            // A player without a legal move to offer forfeits; never expected.
            break Outcome::Checkmate { winner: !side };
        };
        game.play(d.mv);
    };
    let mut at = start;
    let san = game
        .moves()
        .iter()
        .map(|&m| {
            let text = at.to_san(m);
            at = at.play(m);
            text
        })
        .collect();
    DrillGame { start: start.to_fen(), outcome, moves: game.moves().len().div_ceil(2), san }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_is_read_side_by_side() {
        let m = Material::parse("KQK").unwrap();
        assert_eq!((m.attacker.as_slice(), m.defender.len()), (&[Piece::Queen][..], 0));
        let m = Material::parse("kbnkp").unwrap();
        assert_eq!((m.attacker.len(), m.defender.as_slice()), (2, &[Piece::Pawn][..]));
        for bad in ["QK", "KQ", "KXK", "KKK", ""] {
            assert!(Material::parse(bad).is_err(), "{bad}");
        }
    }

    /// Material no game can hold is refused when it is read: before, nine pawns made the drill
    /// draw start positions forever (the board refuses them) and ten queens were taken.
    #[test]
    fn material_no_game_can_reach_is_refused() {
        for (text, says) in [
            ("KPPPPPPPPPK", "9 pawns"),
            ("KQKPPPPPPPPP", "9 pawns"),
            ("KQQQQQQQQQQK", "9 promoted"),
            ("KPPPPPPPPNNNK", "1 promoted"),
        ] {
            let err = Material::parse(text).expect_err(text).to_string();
            assert!(err.contains(says), "{text}: {err}");
        }
        assert!(matches!(Material::parse("KKQ"), Err(MaterialError::NothingToMateWith(_))));
        for dead in ["KNK", "KBK", "kbk"] {
            assert!(matches!(Material::parse(dead), Err(MaterialError::CannotMate(_))), "{dead}");
        }
        // Against any defender's piece a mate exists (the defender's own piece blocks its king).
        for alive in ["KNKP", "KBKN", "KNNK"] {
            assert!(Material::parse(alive).is_ok(), "{alive}");
        }
        // The most a side can have is still taken: nine queens, or eight pawns and the start set.
        for ok in ["KQQQQQQQQQK", "KPPPPPPPPQRRBBNNK", "KQKPPPPPPPP"] {
            assert!(Material::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn random_positions_are_legal_and_have_the_material() {
        let m = Material::parse("KRK").unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..200 {
            let p = random_position(&m, &mut rng);
            assert_eq!(p.side_to_move(), Color::White);
            assert_eq!(p.pieces(Color::White, Piece::Rook).count(), 1);
            assert_eq!(p.by_color(Color::Black).count(), 1);
            assert!(!p.legal_moves().is_empty());
            assert!(!p.is_attacked(p.king_square(Color::Black), Color::White), "{}", p.to_fen());
        }
    }

    #[test]
    fn two_bishops_start_on_both_colours() {
        let m = Material::parse("KBBK").unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..100 {
            let p = random_position(&m, &mut rng);
            assert!(!p.is_insufficient_material(), "{}", p.to_fen());
        }
        // Material that is always dead (which `parse` refuses) is still given a start.
        let p = random_position(&Material { attacker: vec![Piece::Bishop], defender: Vec::new() }, &mut rng);
        assert!(p.is_insufficient_material());
    }
}
