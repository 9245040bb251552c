//! Zobrist keys, generated at compile time from a fixed seed.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, v) = splitmix(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

/// Indexed by colour * 6 * 64 + piece * 64 + square.
pub static PIECE_SQUARE: [u64; 768] = keys::<768>(0x0a6e_c4e5_5000_0001);
/// Indexed by the 4-bit castling rights value.
pub static CASTLING: [u64; 16] = keys::<16>(0x0a6e_c4e5_5000_0002);
/// Indexed by the en-passant file.
pub static EP_FILE: [u64; 8] = keys::<8>(0x0a6e_c4e5_5000_0003);
pub const SIDE: u64 = 0x5d1f_0b2c_93a7_4e61;

/// The square's index is masked (a no-op on a valid square) so that the index is known to be
/// in range: every move made looks up two to four keys.
#[inline]
pub fn piece(color: super::Color, piece: super::Piece, sq: super::Square) -> u64 {
    PIECE_SQUARE[color.index() * 384 + piece.index() * 64 + (sq.index() & 63)]
}
