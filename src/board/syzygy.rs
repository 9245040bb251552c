//! Syzygy endgame tablebases: win/draw/loss (`.rtbw`) and distance-to-zeroing (`.rtbz`) probes
//! for positions of few pieces, and the choice of a root move that keeps a won result won
//! within the fifty-move rule.
//!
//! The table decoding is the `pyrrhic-rs` crate's; it asks for attack sets through its
//! `EngineAdapter`, answered here from our own tables (`attacks.rs`). That prober keeps its
//! tables in process-wide state and allows one set open at a time, so a [`Tablebase`] is a
//! shared handle: opening the same path again gives another handle to the same tables, and a
//! different path can be opened once every handle of the first one has been dropped.

use super::{Color, Move, Piece, Position, Square, attacks};
use pyrrhic_rs::{DtzProbeValue, EngineAdapter, TBError, TableBases, WdlProbeResult};
use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex, Weak};
use thiserror::Error;

/// A tablebase result from the side to move's view. `CursedWin` and `BlessedLoss` are the
/// wins and losses that the fifty-move rule turns into draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    BlessedLoss,
    Draw,
    CursedWin,
    Win,
}

impl Wdl {
    /// -2 (loss) to 2 (win), the numbers python-chess and Stockfish use.
    pub const fn to_i32(self) -> i32 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }

    /// The same result from the other side's view.
    pub const fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    fn from_probe(result: WdlProbeResult) -> Wdl {
        match result {
            WdlProbeResult::Loss => Wdl::Loss,
            WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
            WdlProbeResult::Draw => Wdl::Draw,
            WdlProbeResult::CursedWin => Wdl::CursedWin,
            WdlProbeResult::Win => Wdl::Win,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TbError {
    #[error("no Syzygy table file (*.rtbw) in '{0}'")]
    NoTables(String),
    #[error("other Syzygy tables ('{0}') are still open in this process")]
    OtherPathOpen(String),
    #[error("the Syzygy prober could not start on '{0}'")]
    InitFailed(String),
    #[error("incomplete Syzygy table file '{0}'")]
    Incomplete(String),
}

/// Attack sets for the prober, from our tables. Squares are 0 (a1) to 63 (h8), as ours.
#[derive(Clone, Copy)]
struct Attacks;

fn square(index: u64) -> Square {
    Square::from_index((index & 63) as usize)
}

impl EngineAdapter for Attacks {
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        attacks::pawn(color, square(sq)).0
    }

    fn knight_attacks(sq: u64) -> u64 {
        attacks::knight(square(sq)).0
    }

    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::bishop(square(sq), super::Bitboard(occupied)).0
    }

    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::rook(square(sq), super::Bitboard(occupied)).0
    }

    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::queen(square(sq), super::Bitboard(occupied)).0
    }

    fn king_attacks(sq: u64) -> u64 {
        attacks::king(square(sq)).0
    }
}

struct Inner {
    tables: TableBases<Attacks>,
    path: String,
    found: Found,
    max_pieces: u32,
    /// The prober's root probe is not safe to run on two threads at once.
    root: Mutex<()>,
}

/// The tables open in this process, if any handle to them is still alive.
static OPEN: Mutex<Weak<Inner>> = Mutex::new(Weak::new());

/// A handle to open Syzygy tables; clones share them.
#[derive(Clone)]
pub struct Tablebase {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase").field("path", &self.inner.path).field("max_pieces", &self.inner.max_pieces).finish()
    }
}

/// The material of a table file name (`KRvK` of `KRvK.rtbw`) and whether it is a
/// win/draw/loss table (else distance to zeroing), for names of at most 7 pieces.
fn table_name(name: &str) -> Option<(&str, bool)> {
    let (stem, wdl) =
        if let Some(stem) = name.strip_suffix(".rtbw") { (stem, true) } else { (name.strip_suffix(".rtbz")?, false) };
    let (white, black) = stem.split_once('v')?;
    let side = |s: &str| s.starts_with('K') && s[1..].chars().all(|c| "QRBNP".contains(c));
    (side(white) && side(black) && white.len() + black.len() <= 7).then_some((stem, wdl))
}

/// The table files found in a ':'-separated list of directories.
#[derive(Default)]
struct Found {
    wdl: HashSet<String>,
    dtz: HashSet<String>,
    /// A table file cut short, if any.
    incomplete: Option<String>,
}

impl Found {
    fn scan(path: &str) -> Found {
        let mut found = Found::default();
        for dir in path.split(':').filter(|dir| !dir.is_empty()) {
            let Ok(entries) = std::fs::read_dir(Path::new(dir)) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some((material, wdl)) = name.to_str().and_then(table_name) else {
                    continue;
                };
                // A whole table file is 16 bytes past a multiple of 64.
                if entry.metadata().is_ok_and(|m| m.len() % 64 != 16) {
                    found.incomplete.get_or_insert_with(|| entry.path().display().to_string());
                    continue;
                }
                let set = if wdl { &mut found.wdl } else { &mut found.dtz };
                set.insert(material.to_string());
            }
        }
        found
    }

    /// The most pieces of any win/draw/loss table, kings included.
    fn max_pieces(&self) -> u32 {
        self.wdl.iter().map(|m| m.len() as u32 - 1).max().unwrap_or(0)
    }
}

/// The two names a position's material may have in a table file (`KRvK` and `KvKR`).
fn material_names(pos: &Position) -> [String; 2] {
    let side = |color: Color| {
        let mut s = String::from("K");
        for (piece, letter) in
            [(Piece::Queen, 'Q'), (Piece::Rook, 'R'), (Piece::Bishop, 'B'), (Piece::Knight, 'N'), (Piece::Pawn, 'P')]
        {
            for _ in 0..pos.pieces(color, piece).count() {
                s.push(letter);
            }
        }
        s
    };
    let (white, black) = (side(Color::White), side(Color::Black));
    [format!("{white}v{black}"), format!("{black}v{white}")]
}

impl Tablebase {
    /// Opens the tables in a list of directories separated by ':' (as Stockfish's
    /// `SyzygyPath`). An error when none of them holds a table, or when tables of another
    /// path are still open in this process.
    pub fn open(path: &str) -> Result<Tablebase, TbError> {
        let path = path.trim();
        // pyrrhic-rs 0.2.0 takes every table name for present (its file test's "missing" is
        // -1, compared with 0) and so reports 7 pieces whatever it found, and it gives up on a
        // material for good once a probe has asked for a missing file. The files are
        // therefore listed here, and only materials whose tables exist are asked for.
        let found = Found::scan(path);
        // The prober reports a cut file on standard output, which would break the protocol.
        if let Some(file) = found.incomplete {
            return Err(TbError::Incomplete(file));
        }
        if found.wdl.is_empty() {
            return Err(TbError::NoTables(path.to_string()));
        }
        let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(inner) = open.upgrade() {
            return if inner.path == path {
                Ok(Tablebase { inner })
            } else {
                Err(TbError::OtherPathOpen(inner.path.clone()))
            };
        }
        // The last handle of earlier tables may be in the middle of closing them: give it a
        // moment.
        let mut attempts = 0;
        let tables = loop {
            match TableBases::<Attacks>::new(path) {
                Ok(tables) => break tables,
                Err(TBError::AlreadyInitialized) if attempts < 200 => {
                    attempts += 1;
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(TBError::BadPath) => return Err(TbError::NoTables(path.to_string())),
                Err(_) => return Err(TbError::InitFailed(path.to_string())),
            }
        };
        let max_pieces = found.max_pieces();
        let inner = Arc::new(Inner { tables, path: path.to_string(), found, max_pieces, root: Mutex::new(()) });
        *open = Arc::downgrade(&inner);
        Ok(Tablebase { inner })
    }

    /// The path list the tables were opened from.
    pub fn path(&self) -> &str {
        &self.inner.path
    }

    /// The most pieces (kings included) of any table found.
    pub fn max_pieces(&self) -> u32 {
        self.inner.max_pieces
    }

    /// Whether a position is in the tables: few enough pieces, no castling right, and the
    /// win/draw/loss table of its material found.
    pub fn covers(&self, pos: &Position) -> bool {
        pos.castling().0 == 0
            && pos.occupied().count() <= self.inner.max_pieces
            && material_names(pos).iter().any(|name| self.inner.found.wdl.contains(name))
    }

    /// Whether the distance-to-zeroing table of a covered position's material was found.
    fn has_dtz(&self, pos: &Position) -> bool {
        material_names(pos).iter().any(|name| self.inner.found.dtz.contains(name))
    }

    /// Win, draw or loss for the side to move, the fifty-move rule counted from a zeroed
    /// clock; `None` when the position is not covered or a table is missing.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        if !self.covers(pos) {
            return None;
        }
        let b = Boards::of(pos);
        self.inner
            .tables
            .probe_wdl(
                b.white,
                b.black,
                b.kings,
                b.queens,
                b.rooks,
                b.bishops,
                b.knights,
                b.pawns,
                b.ep,
                b.white_to_move,
            )
            .ok()
            .map(Wdl::from_probe)
    }

    /// Distance to zeroing in plies, as python-chess and Stockfish count it: positive when the
    /// side to move wins, negative when it loses, 0 for a draw; more than 100 in absolute value
    /// for a cursed win or a blessed loss. Checkmated: -1. `None` as `probe_wdl`.
    pub fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        let root = self.probe_root(pos, 0)?;
        match root.root {
            DtzProbeValue::Checkmate => Some(-1),
            DtzProbeValue::Stalemate => Some(0),
            DtzProbeValue::Failed => None,
            DtzProbeValue::DtzResult(r) => Some(signed_dtz(Wdl::from_probe(r.wdl), r.dtz)),
        }
    }

    /// The move to play from a covered root, its result for the side to move (with the
    /// fifty-move rule counted from `halfmove_clock`) and its distance to zeroing (signed as
    /// `probe_dtz`, the move included). Among the moves of the best result: for a win the
    /// mate, else the least distance (a winning capture or pawn move counts 1); for a loss the
    /// greatest. `None` when not covered, on a missing table, or with no legal move.
    pub fn best_root_move(&self, pos: &Position, halfmove_clock: u32) -> Option<(Move, Wdl, i32)> {
        let root = self.probe_root(pos, halfmove_clock)?;
        if !matches!(root.root, DtzProbeValue::DtzResult(_)) {
            return None;
        }
        let legal = pos.legal_moves();
        let mut best: Option<(Move, Wdl, i32, bool)> = None;
        for value in &root.moves[..root.num_moves] {
            let DtzProbeValue::DtzResult(r) = value else {
                return None;
            };
            let promotion = match r.promotion {
                pyrrhic_rs::Piece::Queen => Some(Piece::Queen),
                pyrrhic_rs::Piece::Rook => Some(Piece::Rook),
                pyrrhic_rs::Piece::Bishop => Some(Piece::Bishop),
                pyrrhic_rs::Piece::Knight => Some(Piece::Knight),
                _ => None,
            };
            let mv = legal.iter().copied().find(|m| {
                m.from().index() == usize::from(r.from_square)
                    && m.to().index() == usize::from(r.to_square)
                    && m.promotion() == promotion
            })?;
            let wdl = Wdl::from_probe(r.wdl);
            let dtz = signed_dtz(wdl, r.dtz);
            let mates = wdl == Wdl::Win && pos.play(mv).is_checkmate();
            let better = match best {
                None => true,
                Some((_, best_wdl, best_dtz, best_mates)) => {
                    if wdl != best_wdl {
                        wdl > best_wdl
                    } else if wdl > Wdl::Draw {
                        (mates, -dtz) > (best_mates, -best_dtz)
                    } else {
                        // Losing: the longest resistance (dtz is negative).
                        dtz < best_dtz
                    }
                }
            };
            if better {
                best = Some((mv, wdl, dtz, mates));
            }
        }
        best.map(|(mv, wdl, dtz, _)| (mv, wdl, dtz))
    }

    fn probe_root(&self, pos: &Position, halfmove_clock: u32) -> Option<pyrrhic_rs::DtzProbeResult> {
        if !self.covers(pos) || !self.has_dtz(pos) {
            return None;
        }
        let b = Boards::of(pos);
        let rule50 = halfmove_clock.min(255);
        let _only_one = self.inner.root.lock().unwrap_or_else(|e| e.into_inner());
        self.inner
            .tables
            .probe_root(
                b.white,
                b.black,
                b.kings,
                b.queens,
                b.rooks,
                b.bishops,
                b.knights,
                b.pawns,
                rule50,
                b.ep,
                b.white_to_move,
            )
            .ok()
    }
}

fn signed_dtz(wdl: Wdl, distance: u16) -> i32 {
    let distance = i32::from(distance);
    match wdl {
        Wdl::Win | Wdl::CursedWin => distance,
        Wdl::Draw => 0,
        Wdl::Loss | Wdl::BlessedLoss => -distance,
    }
}

/// A position as the prober takes it.
struct Boards {
    white: u64,
    black: u64,
    kings: u64,
    queens: u64,
    rooks: u64,
    bishops: u64,
    knights: u64,
    pawns: u64,
    /// The en-passant target square, 0 for none.
    ep: u32,
    white_to_move: bool,
}

impl Boards {
    fn of(pos: &Position) -> Boards {
        Boards {
            white: pos.by_color(Color::White).0,
            black: pos.by_color(Color::Black).0,
            kings: pos.by_piece(Piece::King).0,
            queens: pos.by_piece(Piece::Queen).0,
            rooks: pos.by_piece(Piece::Rook).0,
            bishops: pos.by_piece(Piece::Bishop).0,
            knights: pos.by_piece(Piece::Knight).0,
            pawns: pos.by_piece(Piece::Pawn).0,
            ep: pos.ep_square().map_or(0, |sq| u32::from(sq.0)),
            white_to_move: pos.side_to_move() == Color::White,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> Tablebase {
        Tablebase::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy")).expect("the test tables")
    }

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn krk_win_and_its_distance() {
        let tb = tables();
        let p = pos("8/8/8/8/8/2k5/8/KR6 w - - 0 1");
        assert_eq!(tb.probe_wdl(&p), Some(Wdl::Win));
        assert_eq!(tb.probe_dtz(&p), Some(27));
    }

    #[test]
    fn the_other_side_loses() {
        let tb = tables();
        let p = pos("8/8/8/8/8/2k5/8/KR6 b - - 0 1");
        assert_eq!(tb.probe_wdl(&p), Some(Wdl::Loss));
        assert_eq!(tb.probe_dtz(&p), Some(-30));
    }

    #[test]
    fn draws() {
        let tb = tables();
        // KPvK with the defending king in front of the pawn.
        let p = pos("6k1/8/8/3P4/4K3/8/8/8 b - - 0 1");
        assert_eq!(tb.probe_wdl(&p), Some(Wdl::Draw));
        assert_eq!(tb.probe_dtz(&p), Some(0));
        // KRvKB, the bishop's side to move, nothing hanging.
        let p = pos("8/8/4k3/8/3b4/8/2K5/7R b - - 0 1");
        assert_eq!(tb.probe_wdl(&p), Some(Wdl::Draw));
    }

    #[test]
    fn pawn_endings() {
        let tb = tables();
        let p = pos("6k1/8/8/3P4/4K3/8/8/8 w - - 0 1");
        assert_eq!(tb.probe_wdl(&p), Some(Wdl::Win));
        assert_eq!(tb.probe_dtz(&p), Some(1));
        // KQvKP: the pawn one step from queening, and White still wins.
        let p = pos("8/8/8/8/8/8/1pk5/K6Q w - - 0 1");
        assert_eq!(tb.probe_wdl(&p), Some(Wdl::Win));
        assert_eq!(tb.probe_dtz(&p), Some(5));
        // The same material, Black to move: queening (b1=Q) wins at once.
        let p = pos("8/8/8/8/8/2k5/1p6/3K3Q b - - 0 1");
        assert_eq!(tb.probe_wdl(&p), Some(Wdl::Win));
        assert_eq!(tb.probe_dtz(&p), Some(1));
    }

    #[test]
    fn out_of_reach() {
        let tb = tables();
        assert_eq!(tb.max_pieces(), 4);
        // Five pieces, six, the start position: none in the tables.
        for fen in ["7k/8/8/8/8/8/8/KRRB4 w - - 0 1", "7k/8/8/8/8/6n1/8/KRRB4 w - - 0 1", crate::board::STARTPOS] {
            let p = pos(fen);
            assert_eq!(tb.probe_wdl(&p), None, "{fen}");
            assert_eq!(tb.probe_dtz(&p), None, "{fen}");
            assert_eq!(tb.best_root_move(&p, 0), None, "{fen}");
        }
        // Four pieces whose table is not among the test files.
        let p = pos("8/8/8/8/8/2kr4/8/KR6 w - - 0 1");
        assert_eq!(tb.probe_wdl(&p), None);
        // Castling rights: never probed.
        let p = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        assert_eq!(tb.probe_wdl(&p), None);
    }

    #[test]
    fn opening_nothing_is_an_error() {
        assert!(matches!(Tablebase::open("/nonexistent/syzygy"), Err(TbError::NoTables(_))));
        assert!(matches!(Tablebase::open(""), Err(TbError::NoTables(_))));
        assert!(matches!(Tablebase::open(env!("CARGO_MANIFEST_DIR")), Err(TbError::NoTables(_))));
    }

    #[test]
    fn a_cut_table_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("agentchess-syzygy-cut-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let whole = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy/KRvK.rtbw")).unwrap();
        std::fs::write(dir.join("KRvK.rtbw"), &whole[..whole.len() - 1]).unwrap();
        let opened = Tablebase::open(dir.to_str().unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(opened, Err(TbError::Incomplete(f)) if f.ends_with("KRvK.rtbw")));
    }

    #[test]
    fn table_file_names() {
        assert_eq!(table_name("KRvK.rtbw"), Some(("KRvK", true)));
        assert_eq!(table_name("KQRBvKNP.rtbz"), Some(("KQRBvKNP", false)));
        assert_eq!(table_name("README.md"), None);
        assert_eq!(table_name("KQRBNPvKQ.rtbw"), None);
        assert_eq!(table_name("KXvK.rtbw"), None);
        assert_eq!(material_names(&pos("8/8/8/8/8/2kb4/8/KR6 w - - 0 1")), ["KRvKB".to_string(), "KBvKR".to_string()]);
    }

    #[test]
    fn root_move_wins_fastest() {
        let tb = tables();
        let p = pos("8/8/8/8/8/2k5/8/KR6 w - - 0 1");
        let (mv, wdl, dtz) = tb.best_root_move(&p, 0).unwrap();
        assert_eq!(wdl, Wdl::Win);
        assert_eq!(dtz, 27);
        let after = p.play(mv);
        assert_eq!(tb.probe_wdl(&after), Some(Wdl::Loss));
        assert_eq!(tb.probe_dtz(&after), Some(-26));
        // Mate in one is played as such.
        let p = pos("k7/8/1K6/8/8/8/8/7R w - - 0 1");
        let (mv, wdl, dtz) = tb.best_root_move(&p, 0).unwrap();
        assert_eq!((mv.to_uci().as_str(), wdl, dtz), ("h1h8", Wdl::Win, 1));
        // A capture that wins is taken: KQvKR, the rook hangs.
        let p = pos("7k/8/8/8/3r4/8/3Q4/K7 w - - 0 1");
        let (mv, wdl, dtz) = tb.best_root_move(&p, 0).unwrap();
        assert_eq!((mv.to_uci().as_str(), wdl, dtz), ("d2d4", Wdl::Win, 1));
    }

    #[test]
    fn root_move_with_the_clock_run_down() {
        let tb = tables();
        // 27 plies to zeroing with 80 already gone: still a win by the tables, drawn by the
        // fifty-move rule.
        let p = pos("8/8/8/8/8/2k5/8/KR6 w - - 80 1");
        let (_, wdl, dtz) = tb.best_root_move(&p, 80).unwrap();
        assert_eq!((wdl, dtz), (Wdl::CursedWin, 27));
        let (_, wdl, _) = tb.best_root_move(&p, 0).unwrap();
        assert_eq!(wdl, Wdl::Win);
    }

    /// Both sides playing the tables' root move: the first capture, pawn move or mate comes
    /// after exactly the distance to zeroing (KRvK: mate is its only zeroing), the distance
    /// falling by one each ply.
    #[test]
    fn root_moves_convert_the_win() {
        let tb = tables();
        for (fen, plies) in [("8/8/8/8/8/2k5/8/KR6 w - - 0 1", 27), ("8/8/8/8/8/8/1pk5/K6Q w - - 0 1", 5)] {
            let mut p = pos(fen);
            let mut played = 0;
            while let Some((mv, wdl, dtz)) = tb.best_root_move(&p, p.halfmove_clock()) {
                let expected = if played % 2 == 0 { plies - played } else { -(plies - played) };
                assert_eq!(dtz, expected, "{fen} after {played} plies");
                assert!(matches!(wdl, Wdl::Win | Wdl::Loss));
                p = p.play(mv);
                played += 1;
                if p.halfmove_clock() == 0 {
                    break;
                }
            }
            assert_eq!(played, plies, "{fen}: {}", p.to_fen());
            assert!(p.is_checkmate() || p.halfmove_clock() == 0, "{fen}: {}", p.to_fen());
        }
    }

    #[test]
    fn losing_side_resists_longest() {
        let tb = tables();
        let p = pos("8/8/8/8/8/2k5/8/KR6 b - - 0 1");
        let (mv, wdl, dtz) = tb.best_root_move(&p, 0).unwrap();
        assert_eq!(wdl, Wdl::Loss);
        assert_eq!(Some(dtz), tb.probe_dtz(&p));
        assert_eq!(tb.probe_dtz(&p.play(mv)).map(|d| d + 1), Some(-dtz));
    }

    #[test]
    fn no_moves_no_root_move() {
        let tb = tables();
        let mated = pos("k6R/8/1K6/8/8/8/8/8 b - - 0 1");
        assert_eq!(tb.probe_wdl(&mated), Some(Wdl::Loss));
        assert_eq!(tb.probe_dtz(&mated), Some(-1));
        assert_eq!(tb.best_root_move(&mated, 0), None);
        let stalemate = pos("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1");
        assert_eq!(tb.probe_wdl(&stalemate), Some(Wdl::Draw));
        assert_eq!(tb.probe_dtz(&stalemate), Some(0));
    }
}
