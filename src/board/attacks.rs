//! Attack tables: leapers by lookup, sliders by magic bitboards, and between/line tables.
//!
//! Everything is computed once, at first use, by our own code. The magic multipliers are found by
//! a deterministic search (fixed PRNG seed), so every run builds the same tables.

use super::{Bitboard, Color, Square};
use std::sync::LazyLock;

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// Fixed-size arrays (no length to check, no pointer to follow), indexed by `ix`.
pub struct Tables {
    knight: [u64; 64],
    king: [u64; 64],
    pawn: [[u64; 64]; 2],
    rook: [Magic; 64],
    bishop: [Magic; 64],
    /// Each slider's lines on an empty board: cheaper than a magic lookup with no occupancy.
    rook_rays: [u64; 64],
    bishop_rays: [u64; 64],
    /// Each magic index's attack set, as an index into `attack_sets` (the distinct sets, a
    /// few thousand): 200 KB of indices and 50 KB of sets instead of 860 KB of sets, which
    /// stay in the level-2 cache beside everything else a decision touches.
    slider: Box<[u16]>,
    attack_sets: Box<[u64]>,
    between: Box<[[u64; 64]; 64]>,
    line: Box<[[u64; 64]; 64]>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(build_tables);

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Slow reference: walk each ray until the first blocker (included).
fn ray_attacks(sq: Square, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut att = 0u64;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            att |= 1 << next.0;
            if occ >> next.0 & 1 != 0 {
                break;
            }
            cur = next;
        }
    }
    att
}

/// The relevant occupancy mask: the rays without their last square (an edge blocker changes nothing).
fn relevant_mask(sq: Square, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0u64;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            if next.offset(df, dr).is_none() {
                break;
            }
            mask |= 1 << next.0;
            cur = next;
        }
    }
    mask
}

/// Multipliers found once by `find_magic` below (same seed), kept so start-up needs no search.
/// `build_tables` still checks each one and searches again should one ever fail.
const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000a00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040a00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xc100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000a0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
];

const BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100,
    0x006082020a002900,
    0x6810010619200000,
    0x08281a0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040a0210245280,
    0x000200210808a402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202c0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208b0542109008a2,
    0x0080084a08040204,
    0x0040e2a80811244c,
    0x2505022008008108,
    0x0430220100420040,
    0x010a040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000a62048043004,
    0x280120048a015004,
    0x006090002a020814,
    0x44042000240800d0,
    0x01102800040a4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500c05021,
    0x0088611002080200,
    0x0116080a00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002e00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221c0400,
    0x0422014022009020,
    0x0210046102100c00,
    0xc004008082029102,
    0x00aa461801101200,
    0x0404080080201108,
    0x020542108c205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400c0,
    0x0200100410a42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800c262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012a02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Every subset of `mask` with its true attack set.
fn occupancy_subsets(sq: Square, mask: u64, dirs: &[(i8, i8); 4]) -> Vec<(u64, u64)> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    // Carry-rippler enumeration of every subset of the mask.
    let mut sub = 0u64;
    loop {
        out.push((sub, ray_attacks(sq, sub, dirs)));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            return out;
        }
    }
}

/// Fills `table` (one square's slice) for `magic`; false on a destructive collision.
fn try_magic(subsets: &[(u64, u64)], magic: u64, shift: u32, table: &mut [u64], filled: &mut [bool]) -> bool {
    filled.iter_mut().for_each(|f| *f = false);
    for &(occ, att) in subsets {
        let idx = (occ.wrapping_mul(magic) >> shift) as usize;
        if !filled[idx] {
            filled[idx] = true;
            table[idx] = att;
        } else if table[idx] != att {
            return false;
        }
    }
    true
}

fn find_magic(
    subsets: &[(u64, u64)],
    mask: u64,
    shift: u32,
    table: &mut [u64],
    filled: &mut [bool],
    rng: &mut XorShift,
) -> u64 {
    loop {
        let candidate = rng.sparse();
        if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
            continue;
        }
        if try_magic(subsets, candidate, shift, table, filled) {
            return candidate;
        }
    }
}

fn build_magics(dirs: &[(i8, i8); 4], known: &[u64; 64], slider: &mut Vec<u64>, rng: &mut XorShift) -> [Magic; 64] {
    let mut magics = [Magic::default(); 64];
    let mut filled = vec![false; 4096];
    for sq in Square::all() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        let shift = 64 - bits;
        let subsets = occupancy_subsets(sq, mask, dirs);
        let offset = slider.len();
        slider.resize(offset + size, 0);
        let table = &mut slider[offset..];
        let mut magic = known[sq.index()];
        if !try_magic(&subsets, magic, shift, table, &mut filled[..size]) {
            magic = find_magic(&subsets, mask, shift, table, &mut filled[..size], rng);
        }
        magics[sq.index()] = Magic { mask, magic, shift, offset: offset as u32 };
    }
    magics
}

fn leaper(sq: Square, deltas: &[(i8, i8)]) -> u64 {
    deltas.iter().filter_map(|&(df, dr)| sq.offset(df, dr)).fold(0, |acc, s| acc | 1 << s.0)
}

fn build_tables() -> Tables {
    let mut knight = [0u64; 64];
    let mut king = [0u64; 64];
    let mut pawn = [[0u64; 64]; 2];
    for sq in Square::all() {
        let i = sq.index();
        knight[i] = leaper(sq, &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
        king[i] = leaper(sq, &[(1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)]);
        pawn[0][i] = leaper(sq, &[(-1, 1), (1, 1)]);
        pawn[1][i] = leaper(sq, &[(-1, -1), (1, -1)]);
    }
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut slider = Vec::with_capacity(107_648);
    let rook = build_magics(&ROOK_DIRS, &ROOK_MAGICS, &mut slider, &mut rng);
    let bishop = build_magics(&BISHOP_DIRS, &BISHOP_MAGICS, &mut slider, &mut rng);

    let mut between = Box::new([[0u64; 64]; 64]);
    let mut line = Box::new([[0u64; 64]; 64]);
    let (mut rook_rays, mut bishop_rays) = ([0u64; 64], [0u64; 64]);
    for a in Square::all() {
        rook_rays[a.index()] = ray_attacks(a, 0, &ROOK_DIRS);
        bishop_rays[a.index()] = ray_attacks(a, 0, &BISHOP_DIRS);
        for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
            for &(df, dr) in dirs.iter() {
                let mut cur = a;
                let mut path = 0u64;
                while let Some(next) = cur.offset(df, dr) {
                    between[a.index()][next.index()] = path;
                    path |= 1 << next.0;
                    cur = next;
                }
            }
            let empty_attacks = ray_attacks(a, 0, dirs);
            for b in Bitboard(empty_attacks) {
                line[a.index()][b.index()] = (empty_attacks & ray_attacks(b, 0, dirs)) | (1 << a.0) | (1 << b.0);
            }
        }
    }
    let (slider, attack_sets) = distinct(&slider);
    Tables { knight, king, pawn, rook, bishop, rook_rays, bishop_rays, slider, attack_sets, between, line }
}

/// `table` as indices into its distinct values (in order of first appearance).
fn distinct(table: &[u64]) -> (Box<[u16]>, Box<[u64]>) {
    // A multiplicative hash: the default one is slow enough here to show in start-up time.
    #[derive(Default)]
    struct SetHasher(u64);
    impl std::hash::Hasher for SetHasher {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.write_u64(u64::from(b));
            }
        }
        fn write_u64(&mut self, n: u64) {
            self.0 = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
        }
    }
    let mut ids: std::collections::HashMap<u64, u16, std::hash::BuildHasherDefault<SetHasher>> = Default::default();
    let mut sets = Vec::new();
    let index = table
        .iter()
        .map(|&set| {
            *ids.entry(set).or_insert_with(|| {
                sets.push(set);
                u16::try_from(sets.len() - 1).expect("fewer than 65,536 distinct attack sets")
            })
        })
        .collect();
    (index, sets.into_boxed_slice())
}

/// Forces the tables to be built now (at start-up) instead of on the first move.
pub fn init() {
    LazyLock::force(&TABLES);
}

#[inline(always)]
fn magic_lookup(m: &Magic, slider: &[u16], sets: &[u64], occ: Bitboard) -> Bitboard {
    let idx = ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // SAFETY: idx < 2^(64-shift) = the size of this square's slice, and every stored index is
    // one of `sets`, by construction.
    Bitboard(unsafe { *sets.get_unchecked(*slider.get_unchecked(m.offset as usize + idx) as usize) })
}

/// A square's index into the 64-entry tables; the mask (a no-op on a valid square) spares the
/// bounds check.
#[inline(always)]
fn ix(sq: Square) -> usize {
    sq.index() & 63
}

/// The tables, once checked to be built: each free function below checks on every call, so
/// code that looks up many attacks in a row takes this handle once and asks it instead.
#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}

impl Tables {
    #[inline(always)]
    pub fn knight(&self, sq: Square) -> Bitboard {
        Bitboard(self.knight[ix(sq)])
    }

    #[inline(always)]
    pub fn king(&self, sq: Square) -> Bitboard {
        Bitboard(self.king[ix(sq)])
    }

    /// The squares a pawn of `color` on `sq` attacks.
    #[inline(always)]
    pub fn pawn(&self, color: Color, sq: Square) -> Bitboard {
        Bitboard(self.pawn[color.index() & 1][ix(sq)])
    }

    #[inline(always)]
    pub fn rook(&self, sq: Square, occ: Bitboard) -> Bitboard {
        magic_lookup(&self.rook[ix(sq)], &self.slider, &self.attack_sets, occ)
    }

    #[inline(always)]
    pub fn bishop(&self, sq: Square, occ: Bitboard) -> Bitboard {
        magic_lookup(&self.bishop[ix(sq)], &self.slider, &self.attack_sets, occ)
    }

    #[inline(always)]
    pub fn queen(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }

    /// A rook's squares from `sq` on an empty board: `rook(sq, Bitboard::EMPTY)`.
    #[inline(always)]
    pub fn rook_rays(&self, sq: Square) -> Bitboard {
        Bitboard(self.rook_rays[ix(sq)])
    }

    /// A bishop's squares from `sq` on an empty board: `bishop(sq, Bitboard::EMPTY)`.
    #[inline(always)]
    pub fn bishop_rays(&self, sq: Square) -> Bitboard {
        Bitboard(self.bishop_rays[ix(sq)])
    }

    /// A queen's squares from `sq` on an empty board.
    #[inline(always)]
    pub fn queen_rays(&self, sq: Square) -> Bitboard {
        self.rook_rays(sq) | self.bishop_rays(sq)
    }

    /// Squares strictly between `a` and `b` when they share a line, else empty.
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        Bitboard(self.between[ix(a)][ix(b)])
    }

    /// The whole line (edge to edge) through `a` and `b`, or empty when they share none.
    #[inline(always)]
    pub fn line(&self, a: Square, b: Square) -> Bitboard {
        Bitboard(self.line[ix(a)][ix(b)])
    }

    /// Those of the sliders `diagonal` (moving as bishops) and `straight` (as rooks) that
    /// attack `sq` with occupancy `occ`. Lines holding none of them on an empty board are not
    /// looked up: near a king that is most of them.
    #[inline(always)]
    pub fn sliders_to(&self, sq: Square, occ: Bitboard, diagonal: Bitboard, straight: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        if (self.bishop_rays(sq) & diagonal).any() {
            out |= self.bishop(sq, occ) & diagonal;
        }
        if (self.rook_rays(sq) & straight).any() {
            out |= self.rook(sq, occ) & straight;
        }
        out
    }

    /// Does any of `sliders_to`'s sliders attack `sq`? Asked along the diagonals first, and
    /// the lines only when none does there.
    #[inline(always)]
    pub fn slider_sees(&self, sq: Square, occ: Bitboard, diagonal: Bitboard, straight: Bitboard) -> bool {
        ((self.bishop_rays(sq) & diagonal).any() && (self.bishop(sq, occ) & diagonal).any())
            || ((self.rook_rays(sq) & straight).any() && (self.rook(sq, occ) & straight).any())
    }

    /// Attacks of a piece of the given kind and colour on `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn piece_attacks(&self, piece: super::Piece, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
        use super::Piece::*;
        match piece {
            Pawn => self.pawn(color, sq),
            Knight => self.knight(sq),
            Bishop => self.bishop(sq, occ),
            Rook => self.rook(sq, occ),
            Queen => self.queen(sq, occ),
            King => self.king(sq),
        }
    }
}

#[inline]
pub fn knight(sq: Square) -> Bitboard {
    tables().knight(sq)
}

#[inline]
pub fn king(sq: Square) -> Bitboard {
    tables().king(sq)
}

/// The squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    tables().pawn(color, sq)
}

#[inline]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    tables().rook(sq, occ)
}

#[inline]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    tables().bishop(sq, occ)
}

#[inline]
pub fn queen(sq: Square, occ: Bitboard) -> Bitboard {
    tables().queen(sq, occ)
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    tables().between(a, b)
}

/// The whole line (edge to edge) through `a` and `b`, or empty when they share none.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    tables().line(a, b)
}

/// Attacks of a piece of the given kind and colour on `sq` with occupancy `occ`.
#[inline]
pub fn piece_attacks(piece: super::Piece, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    tables().piece_attacks(piece, color, sq, occ)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_ray_walk() {
        let mut rng = XorShift(12345);
        for sq in Square::all() {
            for _ in 0..200 {
                let occ = rng.next() & rng.next();
                assert_eq!(rook(sq, Bitboard(occ)).0, ray_attacks(sq, occ, &ROOK_DIRS));
                assert_eq!(bishop(sq, Bitboard(occ)).0, ray_attacks(sq, occ, &BISHOP_DIRS));
            }
        }
    }

    #[test]
    fn empty_board_rays_are_the_lookups_with_no_occupancy() {
        let t = tables();
        for sq in Square::all() {
            assert_eq!(t.rook_rays(sq), t.rook(sq, Bitboard::EMPTY), "{sq}");
            assert_eq!(t.bishop_rays(sq), t.bishop(sq, Bitboard::EMPTY), "{sq}");
            assert_eq!(t.queen_rays(sq), t.queen(sq, Bitboard::EMPTY), "{sq}");
        }
        assert_eq!(t.rook_rays(Square::new(0, 0)).count(), 14);
    }

    /// `sliders_to` (lines without a slider not looked up) is the plain union of lookups, for
    /// random occupancies and sliders sparse and dense.
    #[test]
    fn sliders_to_is_the_union_of_lookups() {
        let (t, mut rng) = (tables(), XorShift(777));
        for sq in Square::all() {
            for _ in 0..100 {
                let occ = Bitboard(rng.next() & rng.next());
                let (diagonal, straight) =
                    (Bitboard(rng.next() & rng.next() & rng.next()), Bitboard(rng.next() & rng.next() & rng.next()));
                let want = (t.bishop(sq, occ) & diagonal) | (t.rook(sq, occ) & straight);
                assert_eq!(t.sliders_to(sq, occ, diagonal, straight), want, "{sq}");
                assert_eq!(t.slider_sees(sq, occ, diagonal, straight), want.any(), "{sq}");
            }
        }
    }

    #[test]
    fn magic_search_finds_working_multipliers() {
        // The fallback path: a fresh search must give collision-free tables too.
        let mut rng = XorShift(42);
        for sq in [Square::new(0, 0), Square::new(3, 4), Square::new(7, 7)] {
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                let mask = relevant_mask(sq, dirs);
                let bits = mask.count_ones();
                let subsets = occupancy_subsets(sq, mask, dirs);
                let mut table = vec![0u64; 1 << bits];
                let mut filled = vec![false; 1 << bits];
                let magic = find_magic(&subsets, mask, 64 - bits, &mut table, &mut filled, &mut rng);
                for &(occ, att) in &subsets {
                    assert_eq!(table[(occ.wrapping_mul(magic) >> (64 - bits)) as usize], att);
                }
            }
        }
    }

    #[test]
    fn embedded_magics_are_valid() {
        for sq in Square::all() {
            for (dirs, known) in [(&ROOK_DIRS, &ROOK_MAGICS), (&BISHOP_DIRS, &BISHOP_MAGICS)] {
                let mask = relevant_mask(sq, dirs);
                let bits = mask.count_ones();
                let subsets = occupancy_subsets(sq, mask, dirs);
                let mut table = vec![0u64; 1 << bits];
                let mut filled = vec![false; 1 << bits];
                assert!(try_magic(&subsets, known[sq.index()], 64 - bits, &mut table, &mut filled), "{sq}");
            }
        }
    }

    #[test]
    fn between_and_line() {
        let a1 = Square::new(0, 0);
        let h8 = Square::new(7, 7);
        let b2 = Square::new(1, 1);
        assert_eq!(between(a1, h8).count(), 6);
        assert!(between(a1, b2).is_empty());
        assert_eq!(line(a1, b2).count(), 8);
        assert!(line(a1, Square::new(1, 2)).is_empty());
    }

    #[test]
    fn leapers() {
        assert_eq!(knight(Square::new(0, 0)).count(), 2);
        assert_eq!(king(Square::new(4, 4)).count(), 8);
        assert_eq!(pawn(Color::White, Square::new(0, 1)), Square::new(1, 2).bb());
    }
}
