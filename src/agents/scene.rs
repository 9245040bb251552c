//! "What if" boards and the agents' threat estimate.
//!
//! A [`Scene`] is the board as it would stand after one or two of our moves, described only by
//! what threat questions need: the occupancy, which enemy pieces are still there, and where our
//! moved pieces now stand. Questions are answered with `Position::attackers_to(sq, color,
//! occupancy)` on the unchanged position, so no move is ever made: pieces missing from the
//! occupancy neither attack nor block, which also uncovers x-rays through a vacated square.

use crate::board::values::value;
use crate::board::{Bitboard, Color, Move, MoveKind, Piece, Position, Square, attacks};

/// Castling moves two of our pieces; every other move one.
const MAX_ARRIVALS: usize = 2;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Scene {
    us: Color,
    /// Every occupied square.
    pub occ: Bitboard,
    /// Their pieces still on the board.
    pub theirs: Bitboard,
    /// Our pieces standing on new squares, with their kind there (after promotion).
    arrivals: [(Square, Piece); MAX_ARRIVALS],
    n_arrivals: usize,
    /// The squares of `arrivals`, which every exchange asks (`exchange::Armies`).
    arrived: Bitboard,
    /// The enemy piece the move took, if any (an en-passant pawn is not on the move's target).
    pub captured: Option<Square>,
    king: Square,
    /// Squares their pieces may attack here, when worked out (`Eval::scene_after`); a
    /// superset, the whole board otherwise. A square outside it has no attacker of theirs.
    their_reach: Bitboard,
}

impl Scene {
    /// The board as it stands.
    pub fn now(pos: &Position) -> Scene {
        let us = pos.side_to_move();
        Scene {
            us,
            occ: pos.occupied(),
            theirs: pos.by_color(!us),
            arrivals: [(Square(0), Piece::Pawn); MAX_ARRIVALS],
            n_arrivals: 0,
            arrived: Bitboard::EMPTY,
            captured: None,
            king: pos.king_square(us),
            their_reach: Bitboard::FULL,
        }
    }

    /// This scene, knowing that their pieces attack nothing outside `reach`.
    #[inline]
    pub fn with_their_reach(self, reach: Bitboard) -> Scene {
        Scene { their_reach: reach, ..self }
    }

    /// Squares their pieces may attack in this scene (a superset; see `with_their_reach`).
    #[inline]
    pub fn their_reach(&self) -> Bitboard {
        self.their_reach
    }

    /// The board after our legal move `mv`.
    #[inline(always)]
    pub fn after(pos: &Position, mv: Move) -> Scene {
        let mut s = Scene::now(pos);
        let (from, to) = (mv.from(), mv.to());
        let piece = pos.moving_piece(mv);
        match mv.kind() {
            MoveKind::Castle => {
                // Both lifted before either lands: in Chess960 the king may stay, land on its
                // rook's square or trade squares with it.
                let (rook_from, rook_to) = pos.castling_rook(mv);
                s.occ = s.occ.without(from).without(rook_from).with(to).with(rook_to);
                s.king = to;
                s.arrivals = [(to, Piece::King), (rook_to, Piece::Rook)];
                s.n_arrivals = 2;
                s.arrived = to.bb() | rook_to.bb();
            }
            MoveKind::EnPassant => {
                let victim = Square::new(to.file(), from.rank());
                s.occ = s.occ.without(victim);
                s.theirs = s.theirs.without(victim);
                s.captured = Some(victim);
                s.relocate(from, to, Piece::Pawn);
            }
            MoveKind::Normal | MoveKind::Promotion => {
                if s.theirs.contains(to) {
                    s.captured = Some(to);
                    s.theirs = s.theirs.without(to);
                }
                s.relocate(from, to, mv.promotion().unwrap_or(piece));
            }
        }
        s
    }

    /// This scene followed by our piece on `from` capturing on `to` (a planned attack).
    pub fn then_capture(&self, from: Square, to: Square, piece: Piece) -> Scene {
        let mut s = *self;
        // Leaving a square where the first move took a piece empties one the position had
        // occupied: lines through it may open to their sliders, which the reach did not know.
        if self.captured == Some(from) {
            s.their_reach = Bitboard::FULL;
        }
        s.theirs = s.theirs.without(to);
        s.captured = Some(to);
        s.relocate(from, to, piece);
        s
    }

    fn relocate(&mut self, from: Square, to: Square, piece: Piece) {
        self.occ = self.occ.without(from).with(to);
        if from == self.king {
            self.king = to;
        }
        match self.arrivals[..self.n_arrivals].iter().position(|&(s, _)| s == from) {
            Some(i) => {
                self.arrivals[i] = (to, piece);
                self.arrived = self.arrived.without(from).with(to);
            }
            None if self.n_arrivals < MAX_ARRIVALS => {
                self.arrivals[self.n_arrivals] = (to, piece);
                self.n_arrivals += 1;
                self.arrived = self.arrived.with(to);
            }
            // Never reached: at most a move and one planned capture, or a castling, are chained.
            None => {}
        }
    }

    /// When this scene is `pos` after one quiet move of one piece (no capture, not castling):
    /// the square it came from.
    #[inline]
    pub fn quiet_step_origin(&self, pos: &Position) -> Option<Square> {
        let vacated = pos.occupied() & !self.occ;
        (self.captured.is_none() && self.n_arrivals == 1 && vacated.any() && !vacated.more_than_one())
            .then(|| vacated.lsb())
    }

    /// Our pieces in this scene.
    #[inline]
    pub fn our_pieces(&self) -> Bitboard {
        self.occ & !self.theirs
    }

    /// Our moved pieces: where each now stands and what it is there.
    #[inline]
    pub fn arrival_list(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.arrivals[..self.n_arrivals].iter().copied()
    }

    /// Squares our pieces arrived on.
    #[inline]
    pub fn arrivals(&self) -> Bitboard {
        self.arrived
    }

    /// Their pieces attacking `sq`.
    #[inline]
    pub fn their_attackers(&self, pos: &Position, sq: Square) -> Bitboard {
        pos.attackers_to(sq, !self.us, self.occ) & self.theirs
    }

    /// Every square their pieces attack in this scene: `sq` is in it exactly when
    /// `their_attackers(pos, sq)` is not empty.
    #[inline]
    pub fn their_attacks(&self, pos: &Position) -> Bitboard {
        let t = attacks::tables();
        let them = !self.us;
        let theirs = |p: Piece| pos.pieces(them, p) & self.theirs;
        let mut att = theirs(Piece::Pawn).pawn_attacks(them == Color::White);
        for sq in theirs(Piece::Knight) {
            att |= t.knight(sq);
        }
        for sq in theirs(Piece::Bishop) | theirs(Piece::Queen) {
            att |= t.bishop(sq, self.occ);
        }
        for sq in theirs(Piece::Rook) | theirs(Piece::Queen) {
            att |= t.rook(sq, self.occ);
        }
        for sq in theirs(Piece::King) {
            att |= t.king(sq);
        }
        att
    }

    /// Every square our pieces attack in this scene, moved pieces from where they now stand:
    /// a square of theirs is in it exactly when `our_attackers` of it is not empty.
    pub fn our_attacks(&self, pos: &Position) -> Bitboard {
        let t = attacks::tables();
        let occ = self.occ;
        // Pieces that moved are out of the occupancy where they stood, and arrived where the
        // position has none of ours.
        let stayed = |p: Piece| pos.pieces(self.us, p) & occ;
        let mut att = stayed(Piece::Pawn).pawn_attacks(self.us == Color::White);
        for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King] {
            for sq in stayed(piece) {
                att |= t.piece_attacks(piece, self.us, sq, occ);
            }
        }
        for (sq, piece) in self.arrival_list() {
            att |= t.piece_attacks(piece, self.us, sq, occ);
        }
        att
    }

    /// Our pieces attacking (defending) `sq`, moved pieces from where they now stand.
    /// A piece on `sq` itself never counts: nothing attacks its own square.
    #[inline]
    pub fn our_attackers(&self, pos: &Position, sq: Square) -> Bitboard {
        self.our_attackers_through(pos, sq, self.occ)
    }

    /// The same with the occupancy `occ`, a subset of the scene's: pieces missing from it have
    /// been used up in an exchange, and the sliders behind them now see through.
    #[inline]
    pub fn our_attackers_through(&self, pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
        // Pieces that left a square are missing from `occ`, so attackers_to drops them; where
        // ours arrived, pos knows of no piece of ours, so they are added below.
        let mut att = pos.attackers_to(sq, self.us, occ);
        for &(s, p) in &self.arrivals[..self.n_arrivals] {
            if s != sq && occ.contains(s) && attacks::piece_attacks(p, self.us, s, occ).contains(sq) {
                att = att.with(s);
            }
        }
        att
    }

    /// The kind of the piece on `sq` in this scene (ours after a move or a promotion included).
    #[inline]
    pub fn kind_at(&self, pos: &Position, sq: Square) -> Option<Piece> {
        match self.arrivals[..self.n_arrivals].iter().find(|&&(s, _)| s == sq) {
            Some(&(_, p)) => Some(p),
            None => self.occ.contains(sq).then(|| pos.piece_kind_at(sq)).flatten(),
        }
    }

    /// The kind of the piece on `sq`, which must be occupied in this scene (ours after a move or
    /// a promotion included): `kind_at` for a square known to hold a piece (see
    /// `Position::piece_on`, which it asks of a square no piece of ours arrived on).
    #[inline]
    pub fn piece_on(&self, pos: &Position, sq: Square) -> Piece {
        debug_assert!(self.occ.contains(sq), "Scene::piece_on: {sq} is empty in the scene");
        match self.arrivals[..self.n_arrivals].iter().find(|&&(s, _)| s == sq) {
            Some(&(_, p)) => p,
            None => pos.piece_on(sq),
        }
    }

    /// The side whose pieces the scene moves.
    #[inline]
    pub fn us(&self) -> Color {
        self.us
    }

    /// Is `sq` defended? Our king only counts when a single enemy piece attacks, because it may
    /// not recapture onto a square a second attacker still covers.
    pub fn is_defended(&self, pos: &Position, sq: Square, attackers: Bitboard) -> bool {
        let defenders = self.our_attackers(pos, sq);
        defenders.without(self.king).any() || (defenders.any() && !attackers.more_than_one())
    }
}

/// The cheapest kind among `set`, a subset of `color`'s pieces in `pos`.
#[inline]
pub(crate) fn cheapest(pos: &Position, color: Color, set: Bitboard) -> Option<Piece> {
    Piece::ALL.into_iter().find(|&p| (set & pos.pieces(color, p)).any())
}

/// The agents' threat estimate for our `piece` standing on `sq` in `scene`: what the opponent
/// stands to win by capturing it next move.
///
/// - foundation (level 1): the piece's value when any enemy attacks it (thesis 2.2.2, level 1).
/// - `backup` (threat and backup consideration, level 2): when one of ours defends the square,
///   the opponent is assumed to capture with its cheapest attacker and lose it, so the threat is
///   the piece's value minus that attacker's, never below zero. Their king never captures a
///   defended piece (the rules forbid it), so a defended piece attacked only by the king is safe.
/// - The king's threat is always its full ("infinite") value: it cannot be traded.
pub(crate) fn threat(pos: &Position, scene: &Scene, sq: Square, piece: Piece, backup: bool) -> i32 {
    let attackers = scene.their_attackers(pos, sq);
    if attackers.is_empty() {
        return 0;
    }
    let v = value(piece);
    if !backup || piece == Piece::King || !scene.is_defended(pos, sq, attackers) {
        return v;
    }
    let them = !scene.us;
    match cheapest(pos, them, attackers.without(pos.king_square(them))) {
        Some(attacker) => (v - value(attacker)).max(0),
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn level_one_threat_is_the_full_value() {
        // White knight d4 attacked by the black knight f5, defended by the c3 pawn.
        let p = pos("4k3/8/8/5n2/3N4/2P5/8/4K3 w - - 0 1");
        let s = Scene::now(&p);
        assert_eq!(threat(&p, &s, sq("d4"), Piece::Knight, false), 300);
        // Defended by c3, attacked by a knight: 300 - 300.
        assert_eq!(threat(&p, &s, sq("d4"), Piece::Knight, true), 0);
    }

    #[test]
    fn backup_uses_the_cheapest_attacker() {
        // Rook d4 defended by the e3 pawn, attacked by the c5 pawn and the d8 rook.
        let p = pos("3rk3/8/8/2p5/3R4/4P3/8/4K3 w - - 0 1");
        let s = Scene::now(&p);
        assert_eq!(threat(&p, &s, sq("d4"), Piece::Rook, true), 400);
        assert_eq!(threat(&p, &s, sq("d4"), Piece::Rook, false), 500);
    }

    #[test]
    fn vacating_a_square_uncovers_an_x_ray() {
        // Rd5xd6 lets the black rook d2 see d6 through the empty d5 (thesis Figure 4.1).
        let p = pos("7k/8/3n4/3R4/8/8/3r4/7K w - - 0 1");
        let mv = p.parse_uci("d5d6").unwrap();
        let s = Scene::after(&p, mv);
        assert_eq!(s.captured, Some(sq("d6")));
        assert_eq!(threat(&p, &s, sq("d6"), Piece::Rook, true), 500);
        assert_eq!(threat(&p, &Scene::now(&p), sq("d5"), Piece::Rook, true), 500);
    }

    #[test]
    fn a_moved_piece_defends_from_its_new_square() {
        // Nb1-d2 guards the e4 bishop that the e8 rook attacks.
        let p = pos("4r1k1/8/8/8/4B3/8/8/1N2K3 w - - 0 1");
        let now = Scene::now(&p);
        assert_eq!(threat(&p, &now, sq("e4"), Piece::Bishop, true), 350);
        let s = Scene::after(&p, p.parse_uci("b1d2").unwrap());
        assert_eq!(threat(&p, &s, sq("e4"), Piece::Bishop, true), 0);
    }

    #[test]
    fn the_king_alone_cannot_recapture_against_two_attackers() {
        // Pawn f2 next to the king, attacked by the rook f8 and the bishop c5.
        let p = pos("5rk1/8/8/2b5/8/8/5P2/6K1 w - - 0 1");
        let s = Scene::now(&p);
        assert_eq!(threat(&p, &s, sq("f2"), Piece::Pawn, true), 100);
        // With only the rook attacking (bishop gone) the king's guard counts: 100 - 500 < 0.
        let p = pos("5rk1/8/8/8/8/8/5P2/6K1 w - - 0 1");
        assert_eq!(threat(&p, &Scene::now(&p), sq("f2"), Piece::Pawn, true), 0);
    }

    #[test]
    fn their_king_does_not_take_defended_pieces() {
        let p = pos("8/8/8/4k3/4P3/3P4/8/4K3 w - - 0 1");
        let s = Scene::now(&p);
        assert_eq!(threat(&p, &s, sq("e4"), Piece::Pawn, true), 0);
        assert_eq!(threat(&p, &s, sq("e4"), Piece::Pawn, false), 100);
    }

    #[test]
    fn their_attacks_are_the_squares_with_attackers() {
        let wac = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wac.epd"));
        for p in crate::agents::epd_positions(wac) {
            let legal = p.legal_moves();
            for s in std::iter::once(Scene::now(&p)).chain(legal.iter().map(|&mv| Scene::after(&p, mv))) {
                let map = s.their_attacks(&p);
                for sq in Square::all() {
                    assert_eq!(map.contains(sq), s.their_attackers(&p, sq).any(), "{p:?} {sq}");
                }
            }
        }
    }

    #[test]
    fn our_attacks_are_the_squares_our_attackers_see() {
        let mut checked = 0;
        for p in crate::agents::epd_positions(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wac.epd")))
        {
            for &mv in p.legal_moves().iter() {
                let scene = Scene::after(&p, mv);
                let att = scene.our_attacks(&p);
                for sq in scene.theirs {
                    assert_eq!(att.contains(sq), scene.our_attackers(&p, sq).any(), "{p:?} {mv:?} {sq}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    /// The board after a castling is the board the castling leaves, in Chess960 too, where the
    /// king may stay, land on its rook's square or trade squares with it.
    #[test]
    fn a_castling_scene_is_the_board_after_it() {
        let suites = [
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/chess960-corners.epd")),
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/chess960.epd")),
        ];
        let mut castles = 0;
        for p in suites.iter().flat_map(|s| crate::agents::epd_positions(s)) {
            let us = p.side_to_move();
            for &mv in p.legal_moves().iter().filter(|m| m.kind() == MoveKind::Castle) {
                let (scene, after) = (Scene::after(&p, mv), p.play(mv));
                assert_eq!(scene.occ, after.occupied(), "{p:?} {mv}");
                assert_eq!(scene.theirs, after.by_color(!us), "{p:?} {mv}");
                assert_eq!(scene.king, after.king_square(us), "{p:?} {mv}");
                for sq in Square::all() {
                    assert_eq!(scene.kind_at(&p, sq), after.piece_kind_at(sq), "{p:?} {mv} {sq}");
                }
                castles += 1;
            }
        }
        assert!(castles > 200, "{castles}");
    }
}
