//! The judgement's vocabulary: every term a leaf can get, each a run of weights (one per
//! rank, count or square) in one flat list, so that the tuner can fit them all as one vector
//! and `explain` can name what a position got.

/// Declares each term's first index in the flat list, its length and its name, in order.
macro_rules! terms {
    ($($name:ident: $len:expr, $label:expr;)*) => {
        terms!(@index 0usize; $($name: $len,)*);
        /// Every term as (first index, length, name), in the order of the weights.
        pub const TERMS: &[(usize, usize, &str)] = &[$(($name, $len, $label)),*];
        /// How many weights there are.
        pub const COUNT: usize = 0 $(+ $len)*;
    };
    (@index $at:expr; $name:ident: $len:expr, $($rest:tt)*) => {
        pub const $name: usize = $at;
        terms!(@index $at + $len; $($rest)*);
    };
    (@index $at:expr;) => {};
}

terms! {
    // Material, by piece: pawn, knight, bishop, rook, queen.
    MATERIAL: 5, "material";

    // The pawn agents.
    PAWN_ADVANCE: 8, "pawn advanced (by rank)";
    PAWN_CENTRE: 8, "centre pawn (d/e file, by rank)";
    PAWN_DOUBLED: 1, "doubled pawn";
    PAWN_ISOLATED: 1, "isolated pawn";
    PAWN_BACKWARD: 1, "backward pawn";
    PAWN_CONNECTED: 8, "connected pawn (by rank)";
    PASSED: 8, "passed pawn (by rank)";
    PASSED_FREE: 8, "passed pawn with a free path (by rank)";
    PASSED_BLOCKED: 8, "passed pawn blockaded (by rank)";
    PASSED_OUR_KING: 1, "passed pawn: our king's distance to its way (times rank)";
    PASSED_THEIR_KING: 1, "passed pawn: their king's distance to its way (times rank)";
    PASSED_UNSTOPPABLE: 1, "passed pawn outside their king's square";
    PASSED_ROOK_BEHIND: 2, "rook behind a passed pawn (ours, theirs)";
    SPACE: 1, "space behind our pawns";

    // The knight, bishop, rook and queen agents.
    KNIGHT_MOBILITY: 9, "knight mobility (safe squares)";
    BISHOP_MOBILITY: 14, "bishop mobility (safe squares)";
    ROOK_MOBILITY: 15, "rook mobility (safe squares)";
    QUEEN_MOBILITY: 28, "queen mobility (safe squares)";
    KNIGHT_CENTRE: 4, "knight centrality (edge to centre)";
    KNIGHT_OUTPOST: 1, "knight on an outpost";
    BISHOP_OUTPOST: 1, "bishop on an outpost";
    BISHOP_PAIR: 1, "bishop pair";
    BISHOP_OWN_PAWNS: 1, "bishop: own pawns on its colour";
    ROOK_OPEN_FILE: 1, "rook on an open file";
    ROOK_HALF_OPEN_FILE: 1, "rook on a half-open file";
    ROOK_SEVENTH: 1, "rook on the seventh rank";
    MINOR_UNDEVELOPED: 1, "knight or bishop on its home rank";
    MINOR_BEHIND_PAWN: 1, "knight or bishop behind a pawn";

    // The king agent.
    KING_CENTRE: 4, "king centrality (edge to centre)";
    KING_FILE: 4, "king file (edge to centre, mirrored)";
    KING_OFF_BACK_RANK: 1, "king off its back rank";
    KING_SHELTER: 3, "king shelter pawn (one, two, no pawn ahead)";
    KING_STORM: 1, "their pawn storming our king";
    KING_OPEN_FILE: 1, "open file beside our king";
    KING_HALF_OPEN_FILE: 1, "file beside our king without our pawn";
    KING_DANGER: 16, "attack on our king's zone (by weight of attackers)";
    SAFE_CHECK: 4, "safe check on their king (by knight, bishop, rook, queen)";
    KING_PAWN_DISTANCE: 8, "king's distance to the nearest pawn";
    CASTLING_RIGHT: 1, "castling right kept";

    // What the agents see pending on the board.
    THREAT_BY_PAWN: 1, "piece attacked by a pawn";
    PAWN_PUSH_THREAT: 1, "piece a safe pawn push would attack";
    WORST_THREAT: 1, "side to move: worst threat (per 25 cp)";
    SECOND_THREAT: 1, "side to move: second threat (per 25 cp)";
    TEMPO: 1, "side to move";

    // The conventional judgement's piece-square tables (`Style::Tables`), by piece (pawn to
    // king) and square as its side sees the board.
    TABLE: 384, "piece-square table (by piece and square)";
}

/// The name and offset of the term that weight `index` belongs to.
pub fn term_of(index: usize) -> (&'static str, usize) {
    TERMS
        .iter()
        .find(|(at, len, _)| index >= *at && index < at + len)
        .map(|&(at, _, name)| (name, index - at))
        .unwrap_or(("?", 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_tile_the_list_without_gaps() {
        let mut next = 0;
        for &(at, len, name) in TERMS {
            assert_eq!(at, next, "{name}");
            assert!(len > 0, "{name}");
            next = at + len;
        }
        assert_eq!(next, COUNT);
        assert_eq!(term_of(PASSED + 3), ("passed pawn (by rank)", 3));
    }
}
