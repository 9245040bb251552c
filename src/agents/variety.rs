//! `variety` (level 9, and level 10 at a chosen strength): games that vary.
//!
//! Against an opponent that always answers the same way, a player whose rules single out one
//! move replays one game: level 9 as Black played the same line in every game of a match
//! against Fairy-Max. In the opening, where many moves are worth the same, this rule lets the
//! game's seed choose among them: level 9 draws among the finalists its look-ahead rates equal
//! (by worth), the better square by `placement` the more likely (`tie_key`);
//! level 10 at a node budget adds a few centipawns, fixed per position for the game, to its
//! leaves, so that moves within that margin of each other change places from game to game.
//! Nothing that wins or loses material is traded for variety. With the same seed a game is
//! replayed move for move.

use crate::board::Position;

/// The opening, for this rule: the first full moves of the game.
pub const OPENING_MOVES: u32 = 5;

/// Level 9: how far apart in placement (centipawns) two tied finalists may be and still be
/// chosen alike often: one `TEMPERATURE` behind the other is chosen e⁻¹ ≈ 0.37 times as often.
pub const TEMPERATURE: f64 = 15.0;

/// Level 10: a leaf's judgement moves by at most this many centipawns either way, in the
/// opening only. A search of a few thousand nodes settles on one move unless the margin is
/// about a sixth of a pawn.
pub const LEAF_SPREAD: i32 = 16;

/// Whether `pos` is still in the opening.
pub fn in_opening(pos: &Position) -> bool {
    pos.fullmove_number() <= OPENING_MOVES
}

/// A number in `0..spread` that depends only on `salt` (the game's) and `key` (a move, a
/// position's hash): the same question gets the same answer throughout a game.
pub fn noise(salt: u64, key: u64, spread: i32) -> i32 {
    if spread <= 0 {
        return 0;
    }
    // splitmix64's finaliser: every bit of the input reaches every bit of the output.
    let mut z = salt ^ key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z % spread as u64) as i32
}

/// Level 9's key for a tied finalist: its placement `gain` plus a Gumbel draw at
/// `TEMPERATURE`, in hundredths of a centipawn. The highest key then falls on each finalist
/// with probability proportional to exp(gain / TEMPERATURE): a better square is chosen more
/// often, never always.
pub fn tie_key(salt: u64, key: u64, gain: i32) -> i32 {
    const STEPS: i32 = 1 << 20;
    // u in (0, 1), never 0 or 1, so that the logarithms are finite.
    let u = (f64::from(noise(salt, key, STEPS)) + 0.5) / f64::from(STEPS);
    let gumbel = -(-u.ln()).ln();
    ((f64::from(gain) + TEMPERATURE * gumbel) * 100.0).round() as i32
}

/// Level 10's leaf offset: `-spread..=spread` centipawns.
pub fn leaf_offset(salt: u64, hash: u64) -> i32 {
    noise(salt, hash, 2 * LEAF_SPREAD + 1) - LEAF_SPREAD
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_stays_in_range_and_depends_on_the_salt() {
        let mut seen = [false; 12];
        for key in 0..1000 {
            let n = noise(7, key, 12);
            assert!((0..12).contains(&n));
            seen[n as usize] = true;
            assert_eq!(n, noise(7, key, 12), "the same question, the same answer");
            let o = leaf_offset(7, key);
            assert!((-LEAF_SPREAD..=LEAF_SPREAD).contains(&o));
        }
        assert!(seen.iter().all(|&s| s), "every value in range is drawn");
        let differ = (0..100).filter(|&k| noise(1, k, 1000) != noise(2, k, 1000)).count();
        assert!(differ > 90, "another salt, other draws ({differ} of 100 differ)");
        assert_eq!(noise(1, 2, 0), 0);
    }

    /// Two finalists a temperature apart in placement: the better one is chosen about
    /// 1/(1+e⁻¹) ≈ 73% of the time; equal ones half the time each.
    #[test]
    fn tie_keys_choose_in_proportion_to_exp_placement() {
        let share = |gain_a: i32, gain_b: i32| {
            let wins = (0..4000u64).filter(|&salt| tie_key(salt, 1, gain_a) > tie_key(salt, 2, gain_b)).count();
            wins as f64 / 4000.0
        };
        let better = share(TEMPERATURE as i32, 0);
        assert!((better - 0.731).abs() < 0.03, "{better}");
        assert!((share(10, 10) - 0.5).abs() < 0.03);
        assert!(share(200, 0) > 0.99, "a square far better is (almost) always chosen");
    }

    #[test]
    fn the_opening_is_the_first_moves() {
        assert!(in_opening(&Position::startpos()));
        let at = |n: u32| Position::from_fen(&format!("4k3/8/8/8/8/8/8/4K2R w K - 0 {n}")).unwrap();
        assert!(in_opening(&at(OPENING_MOVES)));
        assert!(!in_opening(&at(OPENING_MOVES + 1)));
    }
}
