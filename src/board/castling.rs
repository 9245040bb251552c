//! Castling from any start of king and rooks: standard chess and Chess960 (Fischer random) alike.
//! Each right remembers the square of the rook it castles with (`Position::castle_rooks`); the
//! king lands on the g- or c-file and the rook beside it on f or d, wherever both started.
//!
//! A castling move is kept as the king's move to its destination (`MoveKind::Castle`), as in
//! standard chess, so every reader of moves sees the king go where it goes; the rook's squares
//! come from the position (`castling_rook`). In Chess960 the king may already stand on its
//! destination (from == to), land on its rook's square, or trade squares with it.
//!
//! The castling field of a FEN is read in X-FEN (`KQkq`: the outermost rook on that side; a file
//! letter for another one) and in Shredder-FEN (`HAha`: the rooks' files), and written in X-FEN,
//! which for standard chess is the usual `KQkq`.

use super::{Bitboard, CastleRights, Color, FenError, Move, MoveSink, Piece, Position, Square, attacks};

/// The rooks of standard chess by right (see `CastleRights::slot`): h1, a1, h8, a8.
pub(super) const CORNERS: [Square; 4] = [Square(7), Square(0), Square(63), Square(56)];

/// By side (king side first), king's file and rook's file: the files of the back rank that must
/// be empty (all the king and the rook cross or land on, but their own two squares) and the files
/// the king crosses or lands on (its own square left out: it is not in check), as bits of a rank.
static PATHS: [[[(u8, u8); 8]; 8]; 2] = {
    let mut paths = [[[(0u8, 0u8); 8]; 8]; 2];
    let mut side = 0;
    while side < 2 {
        let (king_to, rook_to) = destinations(side == 0);
        let mut king = 0;
        while king < 8 {
            let mut rook = 0;
            while rook < 8 {
                let walk = span(king, king_to);
                let crossed = (walk | span(rook, rook_to)) & !(1 << king) & !(1 << rook);
                paths[side][king as usize][rook as usize] = (crossed, walk & !(1 << king));
                rook += 1;
            }
            king += 1;
        }
        side += 1;
    }
    paths
};

/// The files from `a` to `b`, both included, in either order, as bits of a rank.
const fn span(a: u8, b: u8) -> u8 {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    ((2u16 << high) - (1u16 << low)) as u8
}

/// Files the king and the rook land on: king side g and f, queen side c and d.
const fn destinations(king_side: bool) -> (u8, u8) {
    if king_side { (6, 5) } else { (2, 3) }
}

impl Position {
    /// The square of the rook `color` castles with on that side, while it has the right.
    #[inline]
    pub fn castling_rook_square(&self, color: Color, king_side: bool) -> Option<Square> {
        let slot = CastleRights::slot(color, king_side);
        self.castling.has(1 << slot).then_some(self.castle_rooks[slot])
    }

    /// The castling rook's origin and destination for the castling move `mv` of this position.
    #[inline]
    pub fn castling_rook(&self, mv: Move) -> (Square, Square) {
        let king_side = mv.to().file() == destinations(true).0;
        let rook = self.castle_rooks[CastleRights::slot(self.side, king_side)];
        (rook, Square::new(destinations(king_side).1, mv.from().rank()))
    }

    /// Takes away the rights a move of `piece` from `from` to `to` ends, the move being made
    /// but for the rights: any move of the king, and any move from or onto a castling rook's
    /// square (the rook moves, or is taken).
    #[inline]
    pub(super) fn take_castling_rights(&mut self, piece: Piece, from: Square, to: Square) {
        let mut rights = self.castling.0;
        for (slot, &rook) in self.castle_rooks.iter().enumerate() {
            if rook == from || rook == to {
                rights &= !(1 << slot);
            }
        }
        if piece == Piece::King {
            rights &= !CastleRights::both(self.side);
        }
        if rights != self.castling.0 {
            self.hash ^= super::zobrist::CASTLING[self.castling.0 as usize] ^ super::zobrist::CASTLING[rights as usize];
            self.castling.0 = rights;
            for (slot, rook) in self.castle_rooks.iter_mut().enumerate() {
                if rights & 1 << slot == 0 {
                    *rook = CORNERS[slot];
                }
            }
            self.castle_squares = self.castling_squares();
        }
    }

    /// The squares of the rooks that hold rights and of their kings (see `castle_squares`).
    fn castling_squares(&self) -> Bitboard {
        let mut squares = Bitboard::EMPTY;
        for color in Color::BOTH {
            for king_side in [true, false] {
                if let Some(rook) = self.castling_rook_square(color, king_side) {
                    squares = squares.with(rook).with(self.king_square(color));
                }
            }
        }
        squares
    }

    /// Hands `list` the castling moves of the side to move, which is not in check, with its king
    /// on `ksq`, the board holding `occ`, and `danger` the squares the enemy attacks with our king
    /// off the board.
    ///
    /// Every square the king and the rook cross or land on must be empty but for those two, and
    /// no square the king crosses or lands on attacked. The rook may stand between the king's
    /// destination and an enemy rook or queen on the back rank (Chess960), shielding a square
    /// `danger` counts as safe: then the destination is asked again with the rook gone.
    #[inline(always)]
    pub(super) fn castling_moves<S: MoveSink>(
        &self,
        t: &attacks::Tables,
        list: &mut S,
        ksq: Square,
        occ: Bitboard,
        danger: Bitboard,
    ) {
        let us = self.side;
        let rank = ksq.rank();
        let row = |b: Bitboard| (b.0 >> (8 * rank)) as u8;
        let (taken, attacked) = (row(occ), row(danger));
        for king_side in [true, false] {
            let slot = CastleRights::slot(us, king_side);
            if !self.castling.has(1 << slot) {
                continue;
            }
            let rook = self.castle_rooks[slot];
            let (crossed, walk) = PATHS[usize::from(!king_side)][ksq.file() as usize][rook.file() as usize];
            if taken & crossed != 0 || attacked & walk != 0 {
                continue;
            }
            let king_to = Square::new(destinations(king_side).0, rank);
            // A rook in the corner has nothing beyond it on the rank to shield the king from.
            if rook.file() != 0 && rook.file() != 7 {
                let queens = self.by_piece(Piece::Queen);
                let straight = (self.by_piece(Piece::Rook) | queens) & self.by_color(!us);
                if (t.rook(king_to, occ.without(ksq).without(rook)) & straight).any() {
                    continue;
                }
            }
            list.push(Move::with_kind(ksq, king_to, super::MoveKind::Castle));
        }
    }

    /// The castling field of the FEN in X-FEN: `K`/`Q` (`k`/`q`) for a right whose rook is the
    /// outermost on its side of the king, the rook's file letter for another one; `-` for none.
    pub(super) fn castling_fen(&self) -> String {
        let mut s = String::new();
        for color in Color::BOTH {
            for king_side in [true, false] {
                let Some(rook) = self.castling_rook_square(color, king_side) else { continue };
                let letter = match self.outermost_rook(color, king_side) == Some(rook) {
                    true if king_side => 'k',
                    true => 'q',
                    false => rook.file_char(),
                };
                s.push(if color == Color::White { letter.to_ascii_uppercase() } else { letter });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// `color`'s rook on its back rank farthest from its king on that side, if any.
    fn outermost_rook(&self, color: Color, king_side: bool) -> Option<Square> {
        let king = self.king_square(color);
        let back = Bitboard::rank(color.back_rank());
        let rooks = self.pieces(color, Piece::Rook) & back;
        let beyond = |sq: Square| if king_side { sq.file() > king.file() } else { sq.file() < king.file() };
        let side = rooks.into_iter().filter(|&sq| beyond(sq)).fold(Bitboard::EMPTY, Bitboard::with);
        if king_side { side.last() } else { side.first() }
    }

    /// Reads the castling field of a FEN into this position, whose pieces are placed: X-FEN or
    /// Shredder-FEN letters, or `-`. A right needs its king on its back rank and a rook of its
    /// colour beside it on that rank on the side it names.
    pub(super) fn read_castling(&mut self, field: &str) -> Result<(), FenError> {
        self.castling = CastleRights::NONE;
        self.castle_rooks = CORNERS;
        self.castle_squares = Bitboard::EMPTY;
        if field == "-" {
            return Ok(());
        }
        let bad = || FenError::BadCastling(field.chars().take(16).collect());
        if field.is_empty() || field.chars().count() > 4 {
            return Err(bad());
        }
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
            let king = self.king_square(color);
            let rank = color.back_rank();
            let missing = FenError::CastlingWithoutPieces { right: c };
            let rook = match c.to_ascii_lowercase() {
                'k' => self.outermost_rook(color, true),
                'q' => self.outermost_rook(color, false),
                f @ 'a'..='h' => {
                    let sq = Square::new(f as u8 - b'a', rank);
                    self.pieces(color, Piece::Rook).contains(sq).then_some(sq)
                }
                _ => return Err(bad()),
            };
            let rook = rook.filter(|_| king.rank() == rank).ok_or(missing)?;
            let king_side = rook.file() > king.file();
            let slot = CastleRights::slot(color, king_side);
            if self.castling.has(1 << slot) {
                return Err(bad());
            }
            self.castling.0 |= 1 << slot;
            self.castle_rooks[slot] = rook;
        }
        self.castle_squares = self.castling_squares();
        Ok(())
    }

    /// Whether the side to move, which has no other legal move, may castle: in Chess960 a
    /// castling that leaves the king where it is, or takes it onto its rook's square, is no
    /// step the king could make instead.
    #[inline]
    pub(super) fn has_castling_move(&self) -> bool {
        if self.castling.0 & CastleRights::both(self.side) == 0 {
            return false;
        }
        let ksq = self.king_square(self.side);
        self.legal_moves_from(ksq.bb()).iter().any(|m| m.kind() == super::MoveKind::Castle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{CastlingNotation, MoveKind};

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// The suites' Chess960 positions, the corner cases and, for each, the positions one move
    /// later.
    fn positions() -> Vec<Position> {
        let suites =
            [include_str!("../../tests/data/chess960.epd"), include_str!("../../tests/data/chess960-corners.epd")];
        let roots: Vec<Position> = suites.iter().flat_map(|s| crate::board::epd_positions(s)).collect();
        assert_eq!(roots.len(), 980);
        let mut out = Vec::new();
        for p in roots {
            out.push(p);
            out.extend(p.legal_moves().iter().map(|&m| p.play(m)));
        }
        out
    }

    /// X-FEN and Shredder-FEN name the same rights; X-FEN is written, `KQkq` for standard chess
    /// and a file letter for a rook that is not the outermost on its side.
    #[test]
    fn castling_fields_are_read_in_both_notations_and_written_in_x_fen() {
        let pairs = [
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"),
            ("1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1", "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"),
            ("4k3/8/8/8/8/8/8/4KR1R w F - 0 1", "4k3/8/8/8/8/8/8/4KR1R w F - 0 1"),
            ("rr2k3/8/8/8/8/8/8/4K3 b b - 0 1", "rr2k3/8/8/8/8/8/8/4K3 b b - 0 1"),
            ("4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1", "4k3/8/8/8/8/8/8/RR2K3 w A - 0 1"),
        ];
        for (x_fen, shredder) in pairs {
            let (a, b) = (pos(x_fen), pos(shredder));
            assert_eq!(a, b, "{x_fen} / {shredder}");
            assert_eq!(a.to_fen(), x_fen);
        }
        let standard = pos(crate::board::STARTPOS);
        assert_eq!(standard.castling_rook_square(Color::White, true), Square::parse("h1"));
        assert_eq!(standard.castling_rook_square(Color::Black, false), Square::parse("a8"));
        let inner = pos("4k3/8/8/8/8/8/8/4KR1R w F - 0 1");
        assert_eq!(inner.castling_rook_square(Color::White, true), Square::parse("f1"));
        assert_eq!(inner.castling_rook_square(Color::White, false), None);
    }

    /// Every suite position reads back from the FEN it writes, and writes it again unchanged.
    #[test]
    fn chess960_fens_round_trip() {
        for p in positions() {
            let fen = p.to_fen();
            let again = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(again, p, "{fen}");
            assert_eq!(again.to_fen(), fen);
        }
    }

    #[test]
    fn bad_castling_fields_are_errors() {
        use FenError::*;
        type Case = (&'static str, fn(&FenError) -> bool);
        let cases: &[Case] = &[
            // No rook on the file named, or on the side named.
            ("4k3/8/8/8/8/8/8/R3K3 w G - 0 1", |e| matches!(e, CastlingWithoutPieces { right: 'G' })),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", |e| matches!(e, CastlingWithoutPieces { right: 'K' })),
            ("4k3/8/8/8/8/8/8/K6R w Q - 0 1", |e| matches!(e, CastlingWithoutPieces { right: 'Q' })),
            // The king's own file; a black rook for a white right.
            ("4k3/8/8/8/8/8/8/R3K2R w E - 0 1", |e| matches!(e, CastlingWithoutPieces { right: 'E' })),
            ("4k3/8/8/8/8/8/8/r3K2R w A - 0 1", |e| matches!(e, CastlingWithoutPieces { right: 'A' })),
            // The king off its back rank.
            ("4k3/8/8/8/8/8/4K3/R6R w H - 0 1", |e| matches!(e, CastlingWithoutPieces { right: 'H' })),
            ("r6r/4k3/8/8/8/8/8/4K3 b k - 0 1", |e| matches!(e, CastlingWithoutPieces { right: 'k' })),
            // Two rights for one side, a letter that is no file, too long.
            ("4k3/8/8/8/8/8/8/R3KR1R w HF - 0 1", |e| matches!(e, BadCastling(_))),
            ("4k3/8/8/8/8/8/8/R3K2R w KH - 0 1", |e| matches!(e, BadCastling(_))),
            ("4k3/8/8/8/8/8/8/R3K2R w X - 0 1", |e| matches!(e, BadCastling(_))),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", |e| matches!(e, BadCastling(_))),
            ("4k3/8/8/8/8/8/8/R3K2R w é - 0 1", |e| matches!(e, BadCastling(_))),
        ];
        for (fen, check) in cases {
            let err = Position::from_fen(fen).expect_err(fen);
            assert!(check(&err), "{fen}: got {err:?}");
        }
    }

    /// Each castling move leaves the king on its destination and the rook beside it (king side
    /// f, queen side d), takes away that colour's rights and keeps the key and the mailbox in
    /// step with the board.
    #[test]
    fn castling_moves_put_king_and_rook_on_their_files() {
        let mut castles = [0usize; 2];
        for p in positions() {
            let us = p.side_to_move();
            for &mv in p.legal_moves().iter().filter(|m| m.kind() == MoveKind::Castle) {
                let (rook_from, rook_to) = p.castling_rook(mv);
                let king_side = mv.to().file() == 6;
                assert_eq!(p.castling_rook_square(us, king_side), Some(rook_from), "{} {mv}", p.to_fen());
                assert_eq!(rook_to.file(), if king_side { 5 } else { 3 });
                let after = p.play(mv);
                assert_eq!(after.piece_at(mv.to()), Some((us, Piece::King)), "{} {mv}", p.to_fen());
                assert_eq!(after.piece_at(rook_to), Some((us, Piece::Rook)), "{} {mv}", p.to_fen());
                for gone in [mv.from(), rook_from].into_iter().filter(|&sq| sq != mv.to() && sq != rook_to) {
                    assert_eq!(after.piece_at(gone), None, "{} {mv}", p.to_fen());
                }
                assert_eq!(after.occupied().count(), p.occupied().count());
                assert_eq!(after.castling().0 & CastleRights::both(us), 0);
                assert_eq!(after.hash(), after.compute_hash(), "{} {mv}", p.to_fen());
                castles[usize::from(!king_side)] += 1;
            }
        }
        assert!(castles.iter().all(|&n| n > 500), "{castles:?} castlings (king side, queen side)");
    }

    /// Rights go with the king's and the rook's moves and with the rook's capture, over random
    /// games from the Chess960 positions; the key and the squares kept for the rights stay those
    /// worked out from scratch.
    #[test]
    fn rights_follow_the_king_and_the_rooks() {
        let (mut state, mut lost) = (0x2545_f491_4f6c_dd1du64, 0);
        for root in crate::board::epd_positions(include_str!("../../tests/data/chess960.epd")) {
            let mut p = root;
            for _ in 0..60 {
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let mv = legal[(state >> 33) as usize % legal.len()];
                let next = p.play(mv);
                for color in Color::BOTH {
                    for king_side in [true, false] {
                        let Some(rook) = next.castling_rook_square(color, king_side) else { continue };
                        assert_eq!(next.piece_at(rook), Some((color, Piece::Rook)), "{} {mv}", p.to_fen());
                        assert_eq!(p.castling_rook_square(color, king_side), Some(rook), "{} {mv}", p.to_fen());
                        let king = next.king_square(color);
                        assert_eq!((king.rank(), king == p.king_square(color)), (color.back_rank(), true));
                    }
                }
                assert_eq!(next.castle_squares, next.castling_squares(), "{} {mv}", p.to_fen());
                assert_eq!(next.hash(), next.compute_hash(), "{} {mv}", p.to_fen());
                assert_eq!(Position::from_fen(&next.to_fen()).as_ref(), Ok(&next), "{} {mv}", p.to_fen());
                lost += (p.castling().0 & !next.castling().0).count_ones();
                p = next;
            }
        }
        assert!(lost > 2_000, "only {lost} rights lost");
    }

    /// Where no other move is left, a castling that leaves the king where it stands is still a
    /// move: no stalemate.
    #[test]
    fn castling_alone_is_no_stalemate() {
        let p = pos("k7/8/8/8/8/5p1b/5P1P/6KR w H - 0 1");
        assert_eq!(p.legal_moves().len(), 1);
        assert!(p.has_legal_move() && !p.is_stalemate());
        for q in positions() {
            assert_eq!(q.has_legal_move(), !q.legal_moves().is_empty(), "{}", q.to_fen());
            assert_eq!(q.count_legal_moves(), q.legal_moves().len(), "{}", q.to_fen());
        }
    }

    /// The checks and the mate test without making moves agree with making them, castling too.
    #[test]
    fn checks_and_mates_agree_with_playing() {
        let mut checking_castles = 0;
        for p in positions() {
            let checks = crate::board::checking_moves(&p);
            for &mv in p.legal_moves().iter() {
                let after = p.play(mv);
                assert_eq!(crate::board::gives_check(&p, mv), after.is_check(), "{} {mv}", p.to_fen());
                assert_eq!(checks.contains(mv), after.is_check(), "{} {mv}", p.to_fen());
                assert_eq!(p.leaves_no_legal_move(mv), !after.has_legal_move(), "{} {mv}", p.to_fen());
                checking_castles += usize::from(mv.kind() == MoveKind::Castle && after.is_check());
            }
        }
        let p = pos("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(crate::board::gives_check(&p, p.parse_uci("O-O").unwrap()));
        assert!(checking_castles > 0);
    }

    /// Each notation of a castling move reads back as that move; every other move is written
    /// as before.
    #[test]
    fn castling_notations_read_back() {
        let notations = [CastlingNotation::KingsMove, CastlingNotation::KingTakesRook, CastlingNotation::San];
        for p in positions() {
            for &mv in p.legal_moves().iter() {
                for notation in notations {
                    let text = p.coordinate(mv, notation);
                    assert_eq!(p.parse_uci(&text), Ok(mv), "{} {text}", p.to_fen());
                    if mv.kind() != MoveKind::Castle {
                        assert_eq!(text, mv.to_string());
                    }
                }
            }
        }
        let standard = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let short = standard.parse_uci("e1h1").unwrap();
        assert_eq!(standard.parse_uci("e1g1"), Ok(short));
        assert_eq!(standard.parse_uci("O-O"), Ok(short));
        assert_eq!(standard.coordinate(short, CastlingNotation::KingsMove), "e1g1");
        assert_eq!(standard.coordinate(short, CastlingNotation::KingTakesRook), "e1h1");
        assert_eq!(standard.coordinate(short, CastlingNotation::San), "O-O");
        // The king on g1 already: its castling is written as taking the rook, even by king's move.
        let stays = pos("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1");
        let short = stays.parse_uci("O-O").unwrap();
        assert_eq!((short.from(), short.to()), (Square::parse("g1").unwrap(), Square::parse("g1").unwrap()));
        assert_eq!(stays.coordinate(short, CastlingNotation::KingsMove), "g1h1");
        assert_eq!(stays.parse_uci("g1g1"), Ok(short));
        let long = stays.parse_uci("g1b1").unwrap();
        assert_eq!(stays.coordinate(long, CastlingNotation::KingsMove), "g1c1");
        assert_eq!(stays.to_san(long), "O-O-O");
        // A king's step to c1 stays a step; the castling there is read from the rook's square.
        let step = pos("4k3/8/8/8/8/8/8/RK5R w AH - 0 1");
        assert_eq!(step.parse_uci("b1c1").unwrap().kind(), MoveKind::Normal);
        assert_eq!(step.parse_uci("b1a1").unwrap().kind(), MoveKind::Castle);
        assert!(step.parse_uci("b1a1q").is_err());
    }
}
