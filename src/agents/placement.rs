//! Placement (level 9, `Features::PLACEMENT`): where an agent stands is worth something.
//!
//! Thesis chapter 5: AgentChess is "only using material difference to base its decision";
//! "position evaluation, piece co-operation and game strategy modifications during game play
//! is completely missed by the logic of the agents", and against Crafty it "was not able to
//! compete with Crafty's extra opening, positional and end game evaluations" (3.2.6). With
//! material alone every quiet move is worth the same, and the agents chose among them at
//! random: a knight to the rim, the pawns in front of their own king, the king walking out
//! while the queens are on.
//!
//! With this feature each agent also knows what its square is worth to it, and a move's
//! estimate gains the difference between the square it goes to and the one it leaves
//! (`gain`). The worths are small beside material (a few tenths of a pawn), so they decide
//! between moves that win or lose the same; what an agent wants is its own:
//! - a knight: the centre, off the back rank;
//! - a bishop, rook or queen: the squares it sees from where it stands (mobility), a rook an
//!   open file or the seventh rank, a queen its home until the minor pieces are out;
//! - the king: while their queen or enough of their pieces are on, a castled corner behind its
//!   pawns (and castling rights are kept until it castles); later, the centre;
//! - a pawn: the centre pawns forward early, the pawns in front of our king at home while it
//!   needs them, and every pawn forward once the pieces are off.

use crate::board::{Bitboard, CastleRights, Color, Move, MoveKind, Piece, Position, Square, attacks};

/// Non-pawn material of `side` (knight 3, bishop 3, rook 5, queen 9).
fn pieces_weight(pos: &Position, side: Color) -> i32 {
    3 * (pos.pieces(side, Piece::Knight) | pos.pieces(side, Piece::Bishop)).count() as i32
        + 5 * pos.pieces(side, Piece::Rook).count() as i32
        + 9 * pos.pieces(side, Piece::Queen).count() as i32
}

/// What the side to move knows about the game's stage when it weighs squares.
#[derive(Clone, Copy, Debug)]
struct Stage {
    us: Color,
    /// Their queen or enough of their pieces are on: our king wants shelter.
    king_danger: bool,
    /// Our knights and bishops still on their home rank.
    undeveloped: u32,
    /// Few pieces left: pawns run and the king comes out.
    endgame: bool,
}

impl Stage {
    fn of(pos: &Position) -> Stage {
        Stage::of_side(pos, pos.side_to_move())
    }

    /// The stage as `us` sees it, whoever is to move.
    fn of_side(pos: &Position, us: Color) -> Stage {
        let theirs = pieces_weight(pos, !us);
        let back = Bitboard::rank(us.back_rank());
        let minors = pos.pieces(us, Piece::Knight) | pos.pieces(us, Piece::Bishop);
        Stage {
            us,
            king_danger: pos.pieces(!us, Piece::Queen).any() || theirs >= 13,
            undeveloped: (minors & back).count(),
            endgame: theirs + pieces_weight(pos, us) <= 26,
        }
    }
}

/// What standing on `sq` is worth to our `piece`, `occ` being the board's occupancy and
/// `own` our pieces (mobility counts the squares it sees that are not ours).
// Inline: the poll asks it of every legal move, and out of line the call is a good part of
// the placement gain's cost.
#[inline(always)]
fn worth(pos: &Position, stage: &Stage, piece: Piece, sq: Square, occ: Bitboard, own: Bitboard) -> i32 {
    let us = stage.us;
    let rel = sq.relative(us);
    let (file, rank) = (rel.file() as i32, rel.rank() as i32);
    let t = attacks::tables();
    match piece {
        Piece::Knight => {
            let home = if rank == 0 { -10 } else { 0 };
            [-20, -5, 5, 15][sq.edge_distance() as usize] + home
        }
        Piece::Bishop => {
            let home = if rank == 0 && !stage.endgame { -10 } else { 0 };
            3 * (t.bishop(sq, occ) & !own).count() as i32 + home
        }
        Piece::Rook => {
            let file_bb = Bitboard::file(sq.file());
            let open =
                match ((pos.pieces(us, Piece::Pawn) & file_bb).any(), (pos.pieces(!us, Piece::Pawn) & file_bb).any()) {
                    (false, false) => 15,
                    (false, true) => 8,
                    _ => 0,
                };
            let seventh = if rank == 6 { 15 } else { 0 };
            2 * (t.rook(sq, occ) & !own).count() as i32 + open + seventh
        }
        Piece::Queen => {
            let early = if stage.undeveloped >= 2 && rel != Square::new(3, 0) { -15 } else { 0 };
            (t.queen(sq, occ) & !own).count() as i32 + early
        }
        Piece::King if stage.king_danger => match rank {
            0 => [10, 20, 15, 0, 0, 5, 20, 10][file as usize],
            1 => -15,
            _ => -40,
        },
        Piece::King => [-15, 0, 10, 20][sq.edge_distance() as usize],
        Piece::Pawn => {
            if stage.endgame {
                return 8 * (rank - 1);
            }
            let king = pos.king_square(us).relative(us);
            let sheltering = stage.king_danger
                && king.rank() <= 1
                && match king.file() {
                    5..=7 => file >= 5,
                    0..=2 => file <= 2,
                    // An uncastled king: the f- and g-pawns guard the way in.
                    _ => file == 5 || file == 6,
                };
            if sheltering {
                -15 * (rank - 1).min(2)
            } else if file == 3 || file == 4 {
                10 * (rank - 1).min(2)
            } else {
                0
            }
        }
    }
}

/// The squares our pieces stand on now, weighed once a decision (`Eval` keeps it), so that a
/// move's gain needs only its new square's worth.
#[derive(Clone, Debug)]
pub(crate) struct Placement {
    stage: Stage,
    /// The worth of our piece on each square now (0 where none stands).
    here: [i16; 64],
    /// Castling rights we still have: king side, queen side.
    rights: (bool, bool),
}

impl Placement {
    pub(crate) fn of(pos: &Position) -> Placement {
        let stage = Stage::of(pos);
        let us = stage.us;
        let (occ, own) = (pos.occupied(), pos.by_color(us));
        let mut here = [0i16; 64];
        for sq in own {
            let piece = pos.piece_on(sq);
            here[sq.index()] = worth(pos, &stage, piece, sq, occ, own) as i16;
        }
        let rights = pos.castling();
        let rights = (rights.has(CastleRights::king_side(us)), rights.has(CastleRights::queen_side(us)));
        Placement { stage, here, rights }
    }

    /// What our legal move `mv` gains in placement: the moved piece's new square's worth less
    /// its old one's (both the king's and the rook's for castling), less what giving up castling
    /// costs while our king needs shelter.
    pub(crate) fn gain(&self, pos: &Position, mv: Move) -> i32 {
        match pos.piece_kind_at(mv.from()) {
            Some(piece) => self.gain_moving(pos, mv, piece),
            None => 0,
        }
    }

    /// `gain`, given the kind of the piece `mv` moves (the poll knows it from the agent).
    // Inline: the poll asks it of every legal move.
    #[inline(always)]
    pub(crate) fn gain_moving(&self, pos: &Position, mv: Move, piece: Piece) -> i32 {
        let (stage, us) = (&self.stage, self.stage.us);
        let (from, to) = (mv.from(), mv.to());
        let occ = pos.occupied().without(from).with(to);
        let own = pos.by_color(us).without(from).with(to);
        let mut gain = match mv.kind() {
            MoveKind::Castle => {
                // The king's and the rook's squares all cleared before any is filled again: in
                // Chess960 the king may land on its rook's square.
                let (rook_from, rook_to) = pos.castling_rook(mv);
                let lift = |b: Bitboard| b.without(from).without(rook_from).with(to).with(rook_to);
                let (occ, own) = (lift(pos.occupied()), lift(pos.by_color(us)));
                worth(pos, stage, Piece::King, to, occ, own) + worth(pos, stage, Piece::Rook, rook_to, occ, own)
                    - i32::from(self.here[rook_from.index()])
            }
            _ => worth(pos, stage, piece, to, occ, own),
        } - i32::from(self.here[from.index()]);
        let (king_side, queen_side) = self.rights;
        if stage.king_danger && mv.kind() != MoveKind::Castle {
            let castles_with = |king_side| pos.castling_rook_square(us, king_side) == Some(from);
            gain -= match piece {
                Piece::King if king_side || queen_side => 20,
                Piece::Rook if castles_with(true) || castles_with(false) => 10,
                _ => 0,
            };
        }
        gain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gain_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos.parse_uci(uci).unwrap();
        Placement::of(&pos).gain(&pos, mv)
    }

    /// The position with the board turned around and the colours swapped (castling rights too).
    fn mirror(fen: &str) -> String {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        let board: Vec<String> = f[0].split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let castling: String = if f[2] == "-" { "-".into() } else { f[2].chars().map(swap).collect() };
        format!("{} {side} {castling} - 0 1", board.join("/"))
    }

    fn mirror_move(uci: &str) -> String {
        uci.chars()
            .enumerate()
            .map(|(i, c)| if i == 1 || i == 3 { (b'9' - c as u8 + b'0') as char } else { c })
            .collect()
    }

    /// Both colours weigh the same move the same: every legal move of a few positions against
    /// its mirror image.
    #[test]
    fn the_colours_weigh_alike() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r3k2r/pp3ppp/2n5/3q4/3P4/2P5/P4PPP/R2QK2R b KQkq - 0 1",
            "8/5k2/3p4/8/2P5/8/4K3/8 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for mv in pos.legal_moves().iter() {
                let uci = mv.to_string();
                assert_eq!(gain_of(fen, &uci), gain_of(&mirror(fen), &mirror_move(&uci)), "{fen} {uci}");
            }
        }
    }

    /// A knight wants the centre: b1-c3 gains, b1-a3 (the rim) does not.
    #[test]
    fn a_knight_goes_to_the_centre_not_the_rim() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(gain_of(start, "b1c3") > 0);
        assert!(gain_of(start, "b1c3") > gain_of(start, "b1a3"));
        assert!(gain_of(start, "g1f3") > gain_of(start, "g1h3"));
    }

    /// While their queen is on, castling gains and a king step that gives up castling loses.
    #[test]
    fn the_king_castles_rather_than_steps() {
        let fen = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        assert!(gain_of(fen, "e1g1") > 0, "{}", gain_of(fen, "e1g1"));
        assert!(gain_of(fen, "e1f1") < 0);
        assert!(gain_of(fen, "h1f1") < 0);
    }

    /// The pawns in front of the castled king stay home while their queen is on; the centre
    /// pawns go forward.
    #[test]
    fn shelter_pawns_stay_and_centre_pawns_advance() {
        let fen = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 w - - 0 6";
        assert!(gain_of(fen, "g2g4") < 0);
        assert!(gain_of(fen, "h2h3") < 0);
        assert!(gain_of(fen, "c2c3") == 0);
        assert!(gain_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4") > 0);
    }

    /// With the pieces off, the king heads for the centre and every pawn forward.
    #[test]
    fn in_the_endgame_the_king_centralises_and_pawns_run() {
        let fen = "8/5k2/3p4/8/2P5/8/8/K7 w - - 0 1";
        assert!(gain_of(fen, "a1b2") > 0);
        assert!(gain_of(fen, "c4c5") > 0);
        // The same king step with queens on is no gain: it leaves the corner.
        assert!(gain_of("3qk3/8/8/8/8/8/8/K2Q4 w - - 0 1", "a1b2") < 0);
    }

    /// A castling's gain weighs king and rook on the board the castling leaves, whichever
    /// squares they shared before (Chess960: the king staying, landing on its rook's square,
    /// trading squares with it).
    #[test]
    fn a_castling_weighs_the_board_after_it() {
        let mut seen = 0;
        for pos in crate::agents::epd_positions(include_str!("../../tests/data/chess960-corners.epd")) {
            let placement = Placement::of(&pos);
            let stage = &placement.stage;
            for &mv in pos.legal_moves().iter().filter(|m| m.kind() == MoveKind::Castle) {
                let after = pos.play(mv);
                let (rook_from, rook_to) = pos.castling_rook(mv);
                let (occ, own) = (after.occupied(), after.by_color(pos.side_to_move()));
                let want = worth(&pos, stage, Piece::King, mv.to(), occ, own)
                    + worth(&pos, stage, Piece::Rook, rook_to, occ, own)
                    - i32::from(placement.here[rook_from.index()])
                    - i32::from(placement.here[mv.from().index()]);
                assert_eq!(placement.gain(&pos, mv), want, "{} {mv}", pos.to_fen());
                seen += 1;
            }
        }
        assert!(seen >= 20, "{seen}");
    }

    /// The judgement's placement sum kept move by move (`judgement::Placement::after`) is the
    /// sum of the position after the move, for every move of the Chess960 positions, castling
    /// with the rook on any file among them.
    #[test]
    fn the_judgement_follows_chess960_moves() {
        use crate::agents::judgement::{Placement as Sums, Style};
        let suites =
            [include_str!("../../tests/data/chess960-corners.epd"), include_str!("../../tests/data/chess960.epd")];
        let mut castles = 0;
        for style in [Style::Agents, Style::Tables] {
            let sums = Sums::new(style);
            for pos in suites.iter().flat_map(|s| crate::agents::epd_positions(s)) {
                let here = sums.sum(&pos);
                for &mv in pos.legal_moves().iter() {
                    assert_eq!(sums.after(&pos, mv, here), sums.sum(&pos.play(mv)), "{mv} in {}", pos.to_fen());
                    castles += usize::from(mv.kind() == MoveKind::Castle);
                }
            }
        }
        assert!(castles > 200, "{castles}");
    }
}
