//! Repetitions inside a search: where a position met before on the game's moves and the
//! searched line. Each searcher decides what a repetition is worth: the conventional searcher
//! scores any as a draw, level 10's tree one on the line or a third time in all.

use crate::board::Position;

/// Where `path` met `pos` before: `path` holds the keys of the game's positions and of the
/// searched line, `pos`'s last. The indices of the earlier positions with its key, its side to
/// move and no capture or pawn move since (within its halfmove clock), nearest first.
#[inline]
pub fn earlier(path: &[u64], pos: &Position) -> impl Iterator<Item = usize> {
    let key = pos.hash();
    let window = pos.halfmove_clock() as usize;
    let last = path.len() - 1;
    (2..=window.min(last)).step_by(2).map(move |back| last - back).filter(move |&i| path[i] == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The positions of kings stepping out and back from `fen`, the first returning after four
    /// plies, and their keys.
    fn shuffle(fen: &str, moves: &[&str]) -> (Vec<Position>, Vec<u64>) {
        let mut positions = vec![Position::from_fen(fen).unwrap()];
        for mv in moves {
            let last = *positions.last().unwrap();
            positions.push(last.play(last.parse_uci(mv).unwrap()));
        }
        let keys = positions.iter().map(|p| p.hash()).collect();
        (positions, keys)
    }

    #[test]
    fn finds_the_same_position_with_the_same_side_to_move() {
        let moves = ["g1h1", "g8h8", "h1g1", "h8g8", "g1h1", "g8h8", "h1g1", "h8g8"];
        let (positions, keys) = shuffle("6k1/8/8/8/8/8/5Q2/6K1 w - - 20 40", &moves);
        assert_eq!(earlier(&keys[..1], &positions[0]).count(), 0, "the first position repeats nothing");
        assert_eq!(earlier(&keys[..4], &positions[3]).count(), 0, "none after three plies");
        assert_eq!(earlier(&keys[..5], &positions[4]).collect::<Vec<_>>(), [0]);
        assert_eq!(earlier(&keys, &positions[8]).collect::<Vec<_>>(), [4, 0], "nearest first");
        assert_eq!(earlier(&keys[..6], &positions[5]).collect::<Vec<_>>(), [1]);
    }

    /// A capture or a pawn move since (a halfmove clock too small to reach back) ends the search.
    #[test]
    fn looks_back_only_within_the_halfmove_clock() {
        let moves = ["g1h1", "g8h8", "h1g1", "h8g8"];
        let (positions, keys) = shuffle("6k1/8/8/8/8/8/5Q2/6K1 w - - 3 40", &moves);
        assert_eq!(positions[4].halfmove_clock(), 7);
        assert_eq!(earlier(&keys, &positions[4]).count(), 1);
        let (positions, keys) = shuffle("6k1/8/8/8/8/8/5Q2/6K1 w - - 0 40", &moves);
        let clock_three = Position::from_fen(&positions[4].to_fen().replace(" 4 ", " 3 ")).unwrap();
        assert_eq!((clock_three.hash(), clock_three.halfmove_clock()), (keys[4], 3));
        assert_eq!(earlier(&keys, &clock_three).count(), 0, "four plies back is past the clock");
    }
}
