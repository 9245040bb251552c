//! The position: piece placement, side to move, castling, en passant, counters and Zobrist key.
//! Moves are applied copy-make: `play` returns the next position and leaves this one untouched,
//! which keeps "what if" questions (the agents ask many) free of unmake bookkeeping.

use super::{Bitboard, CastleRights, Color, Move, MoveKind, Piece, Square, attacks, zobrist};

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub(super) by_piece: [Bitboard; 6],
    pub(super) by_color: [Bitboard; 2],
    /// Piece codes, two squares a byte (low nibble = even square): 0 = empty, else
    /// 1 + colour * 6 + piece. Half a byte per square keeps the whole position within 128 bytes,
    /// which the compiler copies inline; copy-make copies it once per move, and at 152 bytes
    /// that copy was a call to memcpy.
    pub(super) board: [u8; 32],
    pub(super) side: Color,
    pub(super) castling: CastleRights,
    /// The rook each castling right castles with, by `CastleRights::slot`; a right not held
    /// keeps its standard corner, so that equal positions compare equal.
    pub(super) castle_rooks: [Square; 4],
    /// The squares a move from or onto may end a castling right: the rights' rooks' and their
    /// kings'. Most moves touch none, and one test says so.
    pub(super) castle_squares: Bitboard,
    pub(super) ep: Option<Square>,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    pub(super) hash: u64,
}

// Copied once per move by copy-make: keep it small enough for an inline copy (see `board`).
const _: () = assert!(std::mem::size_of::<Position>() <= 128);

/// The piece of each mailbox code (see `board`), and its kind: the board is read for every
/// move made and every capture weighed, and a table spares the division by six.
const PIECES: [Option<(Color, Piece)>; 16] = {
    let mut out = [None; 16];
    let mut code = 1;
    while code <= 12 {
        let color = if code <= 6 { Color::White } else { Color::Black };
        out[code] = Some((color, Piece::from_index((code - 1) % 6)));
        code += 1;
    }
    out
};
const KINDS: [Option<Piece>; 16] = {
    let mut out = [None; 16];
    let mut code = 1;
    while code <= 12 {
        out[code] = Some(Piece::from_index((code - 1) % 6));
        code += 1;
    }
    out
};

impl Position {
    /// An empty board, White to move; only for building positions (FEN, edit mode).
    pub(crate) fn empty() -> Position {
        Position {
            by_piece: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            board: [0; 32],
            side: Color::White,
            castling: CastleRights::NONE,
            castle_rooks: super::castling::CORNERS,
            castle_squares: Bitboard::EMPTY,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    pub fn startpos() -> Position {
        Position::from_fen(super::fen::STARTPOS).expect("the start position is valid")
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Piece)> {
        PIECES[self.code_at(sq) as usize]
    }

    /// The kind of piece on `sq`, either colour.
    #[inline]
    pub fn piece_kind_at(&self, sq: Square) -> Option<Piece> {
        KINDS[self.code_at(sq) as usize]
    }

    /// The kind of the piece on `sq`, which must hold one (either colour): for a square known to
    /// be occupied, such as a piece's own square or one taken from a set of pieces. Where a
    /// square may be empty, ask `piece_kind_at` and handle the `None`: an empty square is never
    /// some piece. Debug builds stop on one; release builds do not check, and answer a pawn
    /// there, as the lookups this one replaced did.
    #[inline]
    pub fn piece_on(&self, sq: Square) -> Piece {
        let kind = KINDS[self.code_at(sq) as usize];
        debug_assert!(kind.is_some(), "piece_on: {sq} is empty in {}", self.to_fen());
        kind.unwrap_or(Piece::Pawn)
    }

    /// The kind of the piece that makes the move `mv` (before any promotion): the piece on its
    /// origin, which must hold one, as it does for any legal move (see `piece_on`).
    #[inline]
    pub fn moving_piece(&self, mv: Move) -> Piece {
        self.piece_on(mv.from())
    }

    #[inline]
    pub fn pieces(&self, color: Color, piece: Piece) -> Bitboard {
        self.by_piece[piece.index()] & self.by_color[color.index()]
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_piece[piece.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, Piece::King).lsb()
    }

    #[inline]
    pub fn castling(&self) -> CastleRights {
        self.castling
    }

    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Zobrist key of placement, side, castling rights and a capturable en-passant file.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn sliders(&self, color: Color) -> (Bitboard, Bitboard) {
        let queens = self.by_piece[Piece::Queen.index()];
        let own = self.by_color[color.index()];
        ((self.by_piece[Piece::Bishop.index()] | queens) & own, (self.by_piece[Piece::Rook.index()] | queens) & own)
    }

    /// Pieces of `by` that attack `sq` when the board holds exactly `occupancy`.
    /// Pieces missing from `occupancy` neither block nor attack, so "what if this piece
    /// moved away" and x-ray questions are one call.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occupancy: Bitboard) -> Bitboard {
        let t = attacks::tables();
        let own = self.by_color[by.index()];
        let (diag, straight) = self.sliders(by);
        let att = (t.pawn(!by, sq) & self.by_piece[0] & own)
            | (t.knight(sq) & self.by_piece[1] & own)
            | (t.king(sq) & self.by_piece[5] & own)
            | (t.bishop(sq, occupancy) & diag)
            | (t.rook(sq, occupancy) & straight);
        att & occupancy
    }

    /// Every square `by` attacks when the board holds exactly `occupancy`: the squares where
    /// `attackers_to(sq, by, occupancy)` is not empty, found from the attackers' side in one pass.
    pub fn attacked_by(&self, by: Color, occupancy: Bitboard) -> Bitboard {
        let t = attacks::tables();
        let own = self.by_color[by.index()] & occupancy;
        let (diag, straight) = self.sliders(by);
        let mut att = (self.by_piece[Piece::Pawn.index()] & own).pawn_attacks(by == Color::White);
        for sq in self.by_piece[Piece::Knight.index()] & own {
            att |= t.knight(sq);
        }
        for sq in self.by_piece[Piece::King.index()] & own {
            att |= t.king(sq);
        }
        for sq in diag & occupancy {
            att |= t.bishop(sq, occupancy);
        }
        for sq in straight & occupancy {
            att |= t.rook(sq, occupancy);
        }
        att
    }

    /// Is `sq` attacked by `by` with the current occupancy?
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers_to(sq, by, self.occupied()).any()
    }

    /// Squares the piece on `sq` attacks (empty set on an empty square).
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        match self.piece_at(sq) {
            Some((c, p)) => attacks::piece_attacks(p, c, sq, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Opponent pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        self.attackers_to(self.king_square(us), !us, self.occupied())
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Pieces of `color` pinned to their own king (by any enemy slider).
    #[inline]
    pub fn pinned_of(&self, color: Color) -> Bitboard {
        let t = attacks::tables();
        let ksq = self.king_square(color);
        let (diag, straight) = self.sliders(!color);
        let theirs = self.by_color[(!color).index()];
        let snipers = (t.rook(ksq, theirs) & straight) | (t.bishop(ksq, theirs) & diag);
        let occ = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = t.between(ksq, s) & occ;
            if !b.more_than_one() {
                pinned |= b & self.by_color[color.index()];
            }
        }
        pinned
    }

    /// Pinned pieces of the side to move.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned_of(self.side)
    }

    /// Does `mv` capture something (en passant included)?
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        mv.kind() == MoveKind::EnPassant
            || (mv.kind() != MoveKind::Castle && self.by_color[(!self.side).index()].contains(mv.to()))
    }

    /// The piece `mv` captures, if any.
    pub fn captured_piece(&self, mv: Move) -> Option<Piece> {
        match mv.kind() {
            MoveKind::EnPassant => Some(Piece::Pawn),
            MoveKind::Castle => None,
            _ => self.piece_kind_at(mv.to()),
        }
    }

    /// The mailbox code of `sq` (see `board`).
    #[inline]
    fn code_at(&self, sq: Square) -> u8 {
        self.board[sq.index() / 2] >> (4 * (sq.0 & 1)) & 15
    }

    #[inline]
    fn set_code(&mut self, sq: Square, code: u8) {
        let shift = 4 * (sq.0 & 1);
        let byte = &mut self.board[sq.index() / 2];
        *byte = (*byte & !(15 << shift)) | code << shift;
    }

    #[inline]
    pub(super) fn put(&mut self, color: Color, piece: Piece, sq: Square) {
        let b = sq.bb();
        self.by_piece[piece.index()] |= b;
        self.by_color[color.index()] |= b;
        self.set_code(sq, 1 + (color.index() * 6 + piece.index()) as u8);
        self.hash ^= zobrist::piece(color, piece, sq);
    }

    #[inline]
    pub(super) fn remove(&mut self, color: Color, piece: Piece, sq: Square) {
        let b = sq.bb();
        self.by_piece[piece.index()] ^= b;
        self.by_color[color.index()] ^= b;
        self.set_code(sq, 0);
        self.hash ^= zobrist::piece(color, piece, sq);
    }

    #[inline]
    fn shift(&mut self, color: Color, piece: Piece, from: Square, to: Square) {
        let b = from.bb() | to.bb();
        self.by_piece[piece.index()] ^= b;
        self.by_color[color.index()] ^= b;
        // The mover's code from its colour and kind (see `board`), not read back from `from`.
        self.set_code(to, 1 + (color.index() * 6 + piece.index()) as u8);
        self.set_code(from, 0);
        self.hash ^= zobrist::piece(color, piece, from) ^ zobrist::piece(color, piece, to);
    }

    /// Would an en-passant capture onto `ep` be available to the side to move (pseudo-legally)?
    /// Only then does the square count for the hash, so transpositions repeat as the rules intend.
    #[inline]
    pub(super) fn ep_capturable(&self, ep: Square) -> bool {
        (attacks::pawn(!self.side, ep) & self.pieces(self.side, Piece::Pawn)).any()
    }

    /// The key for the repetition rule (FIDE 9.2.3: the same position is the same placement,
    /// side, castling rights and possible moves): `hash`, except that an en passant square none
    /// of whose captures is legal (the capturer pinned) is left out, as if no double step had
    /// been made. The hash keeps it, since the search never needs this finer test.
    pub fn repetition_key(&self) -> u64 {
        match self.ep {
            Some(ep)
                if self.ep_capturable(ep) && !self.legal_moves().iter().any(|m| m.kind() == MoveKind::EnPassant) =>
            {
                self.hash ^ zobrist::EP_FILE[ep.file() as usize]
            }
            _ => self.hash,
        }
    }

    /// The Zobrist key computed from scratch.
    pub(super) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in self.occupied() {
            let (c, p) = self.piece_at(sq).expect("occupied");
            h ^= zobrist::piece(c, p, sq);
        }
        if self.side == Color::Black {
            h ^= zobrist::SIDE;
        }
        h ^= zobrist::CASTLING[self.castling.0 as usize];
        if let Some(ep) = self.ep
            && self.ep_capturable(ep)
        {
            h ^= zobrist::EP_FILE[ep.file() as usize];
        }
        h
    }

    /// Applies a legal move in place. The move must come from this position's legal moves.
    #[inline]
    pub fn make_move(&mut self, mv: Move) {
        let us = self.side;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let piece = self.piece_kind_at(from).expect("a move starts on an own piece");

        if let Some(ep) = self.ep.take()
            && self.ep_capturable(ep)
        {
            self.hash ^= zobrist::EP_FILE[ep.file() as usize];
        }
        self.halfmove += 1;

        match mv.kind() {
            MoveKind::Normal => {
                if let Some(cap) = self.piece_kind_at(to) {
                    self.remove(them, cap, to);
                    self.halfmove = 0;
                }
                self.shift(us, piece, from, to);
                if piece == Piece::Pawn {
                    self.halfmove = 0;
                    if (to.0 as i8 - from.0 as i8).abs() == 16 {
                        let ep = Square((from.0 + to.0) / 2);
                        // Record the square only when an enemy pawn could take: this matches
                        // how repetition is judged and keeps FEN output canonical.
                        if (attacks::pawn(us, ep) & self.pieces(them, Piece::Pawn)).any() {
                            self.ep = Some(ep);
                            self.hash ^= zobrist::EP_FILE[ep.file() as usize];
                        }
                    }
                }
            }
            MoveKind::Promotion => {
                if let Some(cap) = self.piece_kind_at(to) {
                    self.remove(them, cap, to);
                }
                self.remove(us, Piece::Pawn, from);
                self.put(us, mv.promotion().unwrap_or(Piece::Queen), to);
                self.halfmove = 0;
            }
            MoveKind::EnPassant => {
                let cap_sq = Square::new(to.file(), from.rank());
                self.remove(them, Piece::Pawn, cap_sq);
                self.shift(us, Piece::Pawn, from, to);
                self.halfmove = 0;
            }
            MoveKind::Castle => {
                // Both taken off before either is put down: in Chess960 the king may stay where
                // it is, land on the rook's square, or trade squares with it.
                let (rook_from, rook_to) = self.castling_rook(mv);
                self.remove(us, Piece::King, from);
                self.remove(us, Piece::Rook, rook_from);
                self.put(us, Piece::King, to);
                self.put(us, Piece::Rook, rook_to);
            }
        }

        // Most moves leave the castling rights (and their key) as they were.
        if (self.castle_squares & (from.bb() | to.bb())).any() {
            self.take_castling_rights(piece, from, to);
        }
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = them;
        self.hash ^= zobrist::SIDE;
    }

    /// Copy-make: the position after the legal move `mv`. The position is copied twice, once
    /// before the move and once more on the way out (not elided around the out-of-line
    /// `make_move`): the mate search and the look-ahead, which make tens of thousands of moves
    /// a run, copy and move in place instead (`let mut next = *pos; next.make_move(mv)`).
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let mut next = *self;
        next.make_move(mv);
        next
    }

    /// The position with the other side to move and no en-passant square ("pass").
    /// Only valid when the side to move is not in check; the agents use it to ask what the
    /// opponent would do if it were its turn.
    pub fn null_move(&self) -> Position {
        let mut next = *self;
        if let Some(ep) = next.ep.take()
            && next.ep_capturable(ep)
        {
            next.hash ^= zobrist::EP_FILE[ep.file() as usize];
        }
        next.side = !next.side;
        next.hash ^= zobrist::SIDE;
        next
    }

    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// Neither side can ever mate: K v K, K+minor v K, and kings with bishops all on one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_piece(Piece::Pawn) | self.by_piece(Piece::Rook) | self.by_piece(Piece::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.by_piece(Piece::Knight);
        let bishops = self.by_piece(Piece::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        // Only bishops, all on squares of one colour: no mate is possible.
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty() || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl std::fmt::Display for Position {
    /// An ASCII diagram, rank 8 at the top.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::new(file, rank);
                let c = match self.piece_at(sq) {
                    Some((color, p)) => p.fen_char(color),
                    None => '.',
                };
                write!(f, "{c}")?;
                if file < 7 {
                    write!(f, " ")?;
                }
            }
            writeln!(f)?;
        }
        write!(f, "{}", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `attacked_by` is the set of squares `attackers_to` finds attackers for, on the suites'
    /// positions, with the whole board and with each of a few pieces taken out.
    #[test]
    fn attacked_squares_are_the_squares_with_attackers() {
        let suites = [include_str!("../../tests/data/perft.epd"), include_str!("../../tests/data/wac.epd")];
        let mut checked = 0;
        for pos in suites.iter().flat_map(|s| crate::board::epd_positions(s)) {
            let occ = pos.occupied();
            for occupancy in std::iter::once(occ).chain(occ.take(4).map(|sq| occ.without(sq))) {
                for by in Color::BOTH {
                    let expected = Square::all()
                        .filter(|&sq| pos.attackers_to(sq, by, occupancy).any())
                        .fold(Bitboard::EMPTY, Bitboard::with);
                    assert_eq!(pos.attacked_by(by, occupancy), expected, "{} {by:?}", pos.to_fen());
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// The key kept move by move is the key computed from scratch, over every legal move of
    /// the suites' positions and random games from them (castling rights lost by king and rook
    /// moves and by captures on the corners, en passant, promotions).
    #[test]
    fn the_hash_kept_move_by_move_is_the_hash_from_scratch() {
        let suites = [include_str!("../../tests/data/perft.epd"), include_str!("../../tests/data/wac.epd")];
        let (mut moves, mut rights_lost, mut state) = (0, 0, 0x2545_f491_4f6c_dd1du64);
        for root in suites.iter().flat_map(|s| crate::board::epd_positions(s)) {
            let mut pos = root;
            for _ in 0..40 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for &mv in legal.iter() {
                    let after = pos.play(mv);
                    assert_eq!(after.hash(), after.compute_hash(), "{} {mv}", pos.to_fen());
                    moves += 1;
                    rights_lost += usize::from(after.castling() != pos.castling());
                }
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                pos = pos.play(legal[(state >> 33) as usize % legal.len()]);
            }
        }
        assert!(moves > 100_000 && rights_lost > 1_000, "{moves} moves, {rights_lost} losing castling rights");
    }

    /// The mailbox (read through its tables) and the bitboards say the same of every square,
    /// over the suites' positions and those one move later (captures, promotions, castling and
    /// en passant made).
    #[test]
    fn the_mailbox_agrees_with_the_bitboards() {
        let suites = [include_str!("../../tests/data/perft.epd"), include_str!("../../tests/data/wac.epd")];
        let mut pieces = 0;
        for root in suites.iter().flat_map(|s| crate::board::epd_positions(s)) {
            for pos in std::iter::once(root).chain(root.legal_moves().iter().map(|&m| root.play(m))) {
                for sq in Square::all() {
                    let want = Color::BOTH
                        .into_iter()
                        .flat_map(|c| Piece::ALL.into_iter().map(move |p| (c, p)))
                        .find(|&(c, p)| pos.pieces(c, p).contains(sq));
                    assert_eq!(pos.piece_at(sq), want, "{sq} {}", pos.to_fen());
                    assert_eq!(pos.piece_kind_at(sq), want.map(|(_, p)| p), "{sq} {}", pos.to_fen());
                    pieces += usize::from(want.is_some());
                }
            }
        }
        assert!(pieces > 100_000, "only {pieces} pieces seen");
    }

    /// `piece_on` names the kind the bitboards hold on every occupied square (never a pawn for a
    /// knight, nor any kind for another), and `moving_piece` the kind on every legal move's
    /// origin, over the suites' positions and those one move later; every kind of either colour
    /// is seen on many squares.
    #[test]
    fn piece_on_and_moving_piece_name_the_piece_there() {
        let suites = [include_str!("../../tests/data/perft.epd"), include_str!("../../tests/data/wac.epd")];
        let mut seen = [[0usize; 6]; 2];
        let mut moves = 0;
        for root in suites.iter().flat_map(|s| crate::board::epd_positions(s)) {
            for pos in std::iter::once(root).chain(root.legal_moves().iter().map(|&m| root.play(m))) {
                let kind_there = |sq: Square| {
                    Color::BOTH
                        .into_iter()
                        .flat_map(|c| Piece::ALL.into_iter().map(move |p| (c, p)))
                        .find(|&(c, p)| pos.pieces(c, p).contains(sq))
                };
                for sq in pos.occupied() {
                    let (color, kind) = kind_there(sq).expect("an occupied square holds a piece");
                    assert_eq!(pos.piece_on(sq), kind, "{sq} {}", pos.to_fen());
                    seen[color.index()][kind.index()] += 1;
                }
                for &mv in pos.legal_moves().iter() {
                    assert_eq!(
                        Some(pos.moving_piece(mv)),
                        kind_there(mv.from()).map(|(_, p)| p),
                        "{mv} {}",
                        pos.to_fen()
                    );
                    moves += 1;
                }
            }
        }
        assert!(seen.iter().flatten().all(|&n| n > 1_000), "{seen:?}");
        assert!(moves > 100_000, "only {moves} moves");
    }

    /// An empty square is no piece: asking `piece_on` about one stops a debug build.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "is empty")]
    fn piece_on_an_empty_square_is_a_bug() {
        Position::startpos().piece_on(Square::parse("e4").unwrap());
    }
}
