//! Fully legal move generation: check evasion masks, pin rays and king-safety tests are applied
//! while generating, so no move is made and tested afterwards.

use super::{attacks, Bitboard, CastleRights, Color, Move, MoveKind, MoveList, Piece, Position, Square};

impl Position {
    /// All legal moves of the side to move.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, Bitboard::FULL);
        list
    }

    /// Legal moves whose origin lies in `from_mask`: "the moves of this one piece" for an agent.
    #[inline]
    pub fn legal_moves_from(&self, from_mask: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, from_mask);
        list
    }

    /// Number of legal moves, counted without listing them (perft's bulk counting).
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut counter = MoveCounter(0);
        self.generate_into(&mut counter, Bitboard::FULL);
        counter.0
    }

    /// Is `mv` one of the legal moves here?
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves_from(mv.from().bb()).contains(mv)
    }

    /// Appends the legal moves starting in `from_mask` to `list`.
    #[inline]
    pub fn generate(&self, list: &mut MoveList, from_mask: Bitboard) {
        self.generate_into(list, from_mask);
    }

    #[inline(always)]
    fn generate_into<S: MoveSink>(&self, list: &mut S, from_mask: Bitboard) {
        let us = self.side;
        let them = !us;
        let own = self.by_color(us);
        let occ = self.occupied();
        let ksq = self.king_square(us);
        let checkers = self.attackers_to(ksq, them, occ);

        if from_mask.contains(ksq) {
            let occ_no_king = occ.without(ksq);
            let mut safe = Bitboard::EMPTY;
            for to in attacks::king(ksq) & !own {
                if self.attackers_to(to, them, occ_no_king).is_empty() {
                    safe |= to.bb();
                }
            }
            list.targets(ksq, safe);
            if checkers.is_empty() {
                self.castling_moves(list, ksq, occ);
            }
        }
        if checkers.more_than_one() {
            return;
        }
        // Squares a non-king move must reach: anywhere not own, or, in check, the checker or a
        // square between it and the king.
        let target = match checkers.first() {
            Some(c) => (attacks::between(ksq, c) | c.bb()) & !own,
            None => !own,
        };
        let pinned = self.pinned_of(us);

        for from in self.pieces(us, Piece::Knight) & from_mask & !pinned {
            list.targets(from, attacks::knight(from) & target);
        }
        let queens = self.by_piece(Piece::Queen);
        for from in (self.by_piece(Piece::Bishop) | queens) & own & from_mask {
            let mut dests = attacks::bishop(from, occ) & target;
            if pinned.contains(from) {
                dests &= attacks::line(ksq, from);
            }
            list.targets(from, dests);
        }
        for from in (self.by_piece(Piece::Rook) | queens) & own & from_mask {
            let mut dests = attacks::rook(from, occ) & target;
            if pinned.contains(from) {
                dests &= attacks::line(ksq, from);
            }
            list.targets(from, dests);
        }
        self.pawn_moves(list, from_mask, target, pinned, ksq);
    }

    #[inline(always)]
    fn castling_moves<S: MoveSink>(&self, list: &mut S, ksq: Square, occ: Bitboard) {
        let us = self.side;
        let rank = us.back_rank();
        if ksq != Square::new(4, rank) {
            return;
        }
        let them = !us;
        // (right, rook file, squares that must be empty, squares the king crosses or lands on)
        let sides = [
            (CastleRights::king_side(us), 7u8, 0b0110_0000u64, 0b0110_0000u64, 6u8),
            (CastleRights::queen_side(us), 0u8, 0b0000_1110u64, 0b0000_1100u64, 2u8),
        ];
        for (right, rook_file, empty, safe, king_to) in sides {
            if !self.castling.has(right) {
                continue;
            }
            if !self.pieces(us, Piece::Rook).contains(Square::new(rook_file, rank)) {
                continue;
            }
            let shift = 8 * rank as u32;
            if (occ & Bitboard(empty << shift)).any() {
                continue;
            }
            if Bitboard(safe << shift).any_attacked(self, them, occ) {
                continue;
            }
            list.push(Move::with_kind(ksq, Square::new(king_to, rank), MoveKind::Castle));
        }
    }

    #[inline(always)]
    fn pawn_moves<S: MoveSink>(&self, list: &mut S, from_mask: Bitboard, target: Bitboard, pinned: Bitboard, ksq: Square) {
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let enemies = self.by_color(them);
        let white = us == Color::White;
        let double_rank = if white { 3 } else { 4 };
        let pawns = self.pieces(us, Piece::Pawn) & from_mask;

        for from in pawns {
            let ray = if pinned.contains(from) { attacks::line(ksq, from) } else { Bitboard::FULL };
            let mut dests = attacks::pawn(us, from) & enemies;
            let one = Square((from.0 as i8 + if white { 8 } else { -8 }) as u8);
            if !occ.contains(one) {
                dests |= one.bb();
                let two = Square((one.0 as i8 + if white { 8 } else { -8 }) as u8);
                if two.rank() == double_rank && !occ.contains(two) {
                    dests |= two.bb();
                }
            }
            dests &= target & ray;
            if from.rank() == if white { 6 } else { 1 } {
                list.promotions(from, dests);
            } else {
                list.targets(from, dests);
            }
            if let Some(ep) = self.ep {
                if attacks::pawn(us, from).contains(ep) {
                    // The full king-safety test covers every case at once: the checker captured,
                    // a pin along the capture diagonal, and the rank pin that opens when both
                    // pawns leave the fifth rank.
                    let cap_sq = Square::new(ep.file(), from.rank());
                    let after = (occ.without(from).without(cap_sq)).with(ep);
                    if self.attackers_to(ksq, them, after).is_empty() {
                        list.push(Move::with_kind(from, ep, MoveKind::EnPassant));
                    }
                }
            }
        }
    }
}

impl Bitboard {
    /// Is any square of this set attacked by `by` under occupancy `occ`?
    #[inline]
    fn any_attacked(self, pos: &Position, by: Color, occ: Bitboard) -> bool {
        Iterator::any(&mut self.into_iter(), |sq| pos.attackers_to(sq, by, occ).any())
    }
}

/// Where generated moves go: a list, or a counter that only needs how many.
trait MoveSink {
    fn push(&mut self, mv: Move);
    /// Plain moves from `from` to every square of `to`.
    fn targets(&mut self, from: Square, to: Bitboard);
    /// Pawn moves onto the last rank, four promotions each.
    fn promotions(&mut self, from: Square, to: Bitboard);
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, mv: Move) {
        MoveList::push(self, mv);
    }

    #[inline]
    fn targets(&mut self, from: Square, to: Bitboard) {
        for t in to {
            MoveList::push(self, Move::new(from, t));
        }
    }

    #[inline]
    fn promotions(&mut self, from: Square, to: Bitboard) {
        for t in to {
            for p in Piece::PROMOTIONS {
                MoveList::push(self, Move::promotion_to(from, t, p));
            }
        }
    }
}

struct MoveCounter(usize);

impl MoveSink for MoveCounter {
    #[inline]
    fn push(&mut self, _mv: Move) {
        self.0 += 1;
    }

    #[inline]
    fn targets(&mut self, _from: Square, to: Bitboard) {
        self.0 += to.count() as usize;
    }

    #[inline]
    fn promotions(&mut self, _from: Square, to: Bitboard) {
        self.0 += 4 * to.count() as usize;
    }
}
