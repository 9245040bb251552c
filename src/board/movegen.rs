//! Fully legal move generation: check evasion masks, pin rays and king-safety tests are applied
//! while generating, so no move is made and tested afterwards.

use super::{Bitboard, CastleRights, Color, Move, MoveKind, MoveList, Piece, Position, Square, attacks};

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

    /// The legal captures (en passant included) and promotions, in `legal_moves`' order,
    /// without listing the other moves.
    pub fn legal_captures_and_promotions(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_captures_and_promotions_into(&mut list);
        list
    }

    /// `legal_captures_and_promotions` appended to `list`: a list returned by value is copied
    /// whole, all its room, which a caller asking many times spares by lending its own.
    pub(crate) fn legal_captures_and_promotions_into(&self, list: &mut MoveList) {
        self.generate_into(&mut CaptureSink { list, enemies: self.by_color(!self.side) }, Bitboard::FULL);
    }

    /// Number of legal moves, counted without listing them (perft's bulk counting).
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut counter = MoveCounter(0);
        self.generate_into(&mut counter, Bitboard::FULL);
        counter.0
    }

    /// Is there any legal move? Checkmate and stalemate tests ask this many times where the
    /// answer is usually yes, and a king step usually says so: the king's steps are tried one
    /// square at a time (the first safe one answers, without the enemy's whole attack map) and
    /// the other pieces' moves are counted only when it has none. Castling is asked last: in
    /// standard chess it crosses a square the king could step to, but not always in Chess960.
    pub fn has_legal_move(&self) -> bool {
        let us = self.side;
        let ksq = self.king_square(us);
        let occ = self.occupied().without(ksq);
        for sq in attacks::king(ksq) & !self.by_color(us) {
            if self.attackers_to(sq, !us, occ).is_empty() {
                return true;
            }
        }
        let mut counter = MoveCounter(0);
        self.generate_into(&mut counter, !ksq.bb());
        counter.0 > 0 || self.has_castling_move()
    }

    /// Would the opponent have no legal move after our legal move `mv`? The same answer as
    /// `!self.play(mv).has_legal_move()`, which the mating rules ask of every check they try
    /// and which is usually "no": so the move is not made, only the bitboards after it are
    /// worked out, and a check is answered by the first king step, capture of the checker or
    /// block found. A piece pinned to the king can neither capture the checker nor block (its
    /// line and the checker's meet only at the king). Castling, en passant, promotions and
    /// double steps (which can give the opponent an en-passant capture) are played out, as is
    /// a move that does not check (a stalemate question).
    // Forced inline: the mate searches ask it of every check they try, tens of thousands of
    // times in a run of decisions, and out of line the calls cost more.
    #[inline(always)]
    pub(crate) fn leaves_no_legal_move(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.piece_kind_at(from) else { return !self.play(mv).has_legal_move() };
        if mv.kind() != MoveKind::Normal || (piece == Piece::Pawn && from.0.abs_diff(to.0) == 16) {
            return !self.play(mv).has_legal_move();
        }
        let t = attacks::tables();
        let (us, them) = (self.side, !self.side);
        // Any piece taken on `to` is struck from every set at once, which costs less than
        // looking up which one it was.
        let mut by_piece = self.by_piece.map(|b| b.without(to));
        by_piece[piece.index()] ^= from.bb() | to.bb();
        let ours = self.by_color(us) ^ (from.bb() | to.bb());
        let theirs = self.by_color(them).without(to);
        let occ = ours | theirs;
        let [pawns, knights, bishops, rooks, queens, kings] = by_piece;
        let (our_diagonal, our_straight) = ((bishops | queens) & ours, (rooks | queens) & ours);
        let ksq = (kings & theirs).lsb();
        // The king's steps: those our pawns, knights and king cover are struck out at once, and
        // only the others are asked of our sliders, on the board without the king (so that a
        // slider checking it along a line also covers the square behind it).
        let mut covered = (pawns & ours).pawn_attacks(us == Color::White) | t.king((kings & ours).lsb());
        for knight in knights & ours {
            covered |= t.knight(knight);
        }
        let around = occ.without(ksq);
        let slid = |sq: Square| t.slider_sees(sq, around, our_diagonal, our_straight);
        if Iterator::any(&mut (t.king(ksq) & !theirs & !covered), |sq| !slid(sq)) {
            return false;
        }
        let checkers = (t.pawn(them, ksq) & pawns & ours)
            | (t.knight(ksq) & knights & ours)
            | t.sliders_to(ksq, occ, our_diagonal, our_straight);
        if checkers.is_empty() {
            return !self.play(mv).has_legal_move();
        }
        if checkers.more_than_one() {
            return true;
        }
        let checker = checkers.lsb();
        let mut pinned = Bitboard::EMPTY;
        for sniper in t.sliders_to(ksq, ours, our_diagonal, our_straight) {
            let between = t.between(ksq, sniper) & occ;
            if between.any() && !between.more_than_one() {
                pinned |= between & theirs;
            }
        }
        let movers = theirs & !kings & !pinned;
        let (diagonal, straight) = ((bishops | queens) & movers, (rooks | queens) & movers);
        let reach = |sq: Square| (t.knight(sq) & knights & movers) | t.sliders_to(sq, occ, diagonal, straight);
        if (reach(checker) | (t.pawn(us, checker) & pawns & movers)).any() {
            return false;
        }
        let between = t.between(ksq, checker);
        if between.is_empty() {
            return true;
        }
        if Iterator::any(&mut between.clone(), |sq| reach(sq).any()) {
            return false;
        }
        let white = them == Color::White;
        let single = (pawns & movers).forward(white) & !occ;
        let double = (single & Bitboard::rank(if white { 2 } else { 5 })).forward(white) & !occ;
        ((single | double) & between).is_empty()
    }

    /// What `keeps_a_king_step` needs of this position, worked out once for all the moves tried
    /// in it (see `KingSteps`).
    #[inline]
    pub(crate) fn king_steps(&self) -> KingSteps {
        let t = attacks::tables();
        let (us, them) = (self.side, !self.side);
        let ours = self.by_color(us);
        let (pawns, knights) = (self.pieces(us, Piece::Pawn), self.pieces(us, Piece::Knight));
        let mut knight_cover = Bitboard::EMPTY;
        for knight in knights {
            knight_cover |= t.knight(knight);
        }
        let queens = self.by_piece(Piece::Queen);
        KingSteps {
            t,
            king: self.king_square(them),
            theirs: self.by_color(them),
            occ: self.occupied(),
            pawns,
            knights,
            diagonal: (self.by_piece(Piece::Bishop) | queens) & ours,
            straight: (self.by_piece(Piece::Rook) | queens) & ours,
            pawn_cover: pawns.pawn_attacks(us == Color::White),
            knight_cover,
            king_cover: t.king(self.king_square(us)),
        }
    }

    /// Does their king have a legal step after our legal move `mv` of our `piece`? `steps` is
    /// `king_steps()` of this position. The same question as the first one
    /// `leaves_no_legal_move` asks (and a yes answers it: they have a move), for a fraction of
    /// its cost when many moves of one position are asked: only what the moved piece changes
    /// is worked out again. Castling, en passant and promotions are not judged (false).
    #[inline(always)]
    pub(crate) fn keeps_a_king_step(&self, steps: &KingSteps, piece: Piece, mv: Move) -> bool {
        if mv.kind() != MoveKind::Normal {
            return false;
        }
        let t = steps.t;
        let (from, to) = (mv.from(), mv.to());
        let moved = from.bb() | to.bb();
        let (mut pawn_cover, mut knight_cover, mut king_cover) =
            (steps.pawn_cover, steps.knight_cover, steps.king_cover);
        let (mut diagonal, mut straight) = (steps.diagonal, steps.straight);
        match piece {
            Piece::Pawn => pawn_cover = (steps.pawns ^ moved).pawn_attacks(self.side == Color::White),
            Piece::Knight => {
                knight_cover = Bitboard::EMPTY;
                for knight in steps.knights ^ moved {
                    knight_cover |= t.knight(knight);
                }
            }
            Piece::Bishop => diagonal ^= moved,
            Piece::Rook => straight ^= moved,
            Piece::Queen => {
                diagonal ^= moved;
                straight ^= moved;
            }
            Piece::King => king_cover = t.king(to),
        }
        // A piece taken on `to` frees its square for the king (to take back, if unguarded);
        // the board is without the king, so that a slider checking it along a line also
        // covers the square behind it.
        let around = (steps.occ.without(from) | to.bb()).without(steps.king);
        let open = t.king(steps.king) & !steps.theirs.without(to) & !(pawn_cover | knight_cover | king_cover);
        let slid = |sq: Square| t.slider_sees(sq, around, diagonal, straight);
        Iterator::any(&mut open.into_iter(), |sq| !slid(sq))
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

    /// Hands the legal moves starting in `from_mask` to `sink`, in the order `generate` lists
    /// them: a sink may filter them (the checking moves, say) without a list of all of them.
    #[inline]
    pub(crate) fn generate_to<S: MoveSink>(&self, sink: &mut S, from_mask: Bitboard) {
        self.generate_into(sink, from_mask);
    }

    #[inline(always)]
    fn generate_into<S: MoveSink>(&self, list: &mut S, from_mask: Bitboard) {
        let t = attacks::tables();
        let us = self.side;
        let own = self.by_color(us);
        let occ = self.occupied();
        let ksq = self.king_square(us);
        // The tables are handed down, not asked for again: each asking checks they are built.
        let (checkers, pinned) = self.checkers_and_pinned(t, ksq);

        if from_mask.contains(ksq) {
            self.king_moves(t, list, ksq, checkers);
        }
        if checkers.more_than_one() || list.full() {
            return;
        }
        // Squares a non-king move must reach: anywhere not own, or, in check, the checker or a
        // square between it and the king.
        let target = match checkers.first() {
            Some(c) => (t.between(ksq, c) | c.bb()) & !own,
            None => !own,
        };
        // The pieces' squares the sink keeps (the pawns' promotions are kept apart).
        let kept = target & list.kept();

        for from in self.pieces(us, Piece::Knight) & from_mask & !pinned {
            list.targets(Piece::Knight, from, t.knight(from) & kept);
        }
        if list.full() {
            return;
        }
        // In check the target is a few squares, and a sink may keep few: most sliders cannot
        // reach them even on an empty board, and those are passed over without looking up their
        // moves (a sink is handed nothing for them either way).
        let few = checkers.any() || kept != target;
        let queens = self.by_piece(Piece::Queen);
        for from in (self.by_piece(Piece::Bishop) | queens) & own & from_mask {
            if few && (t.bishop_rays(from) & kept).is_empty() {
                continue;
            }
            let mut dests = t.bishop(from, occ) & kept;
            if pinned.contains(from) {
                dests &= t.line(ksq, from);
            }
            list.targets(if queens.contains(from) { Piece::Queen } else { Piece::Bishop }, from, dests);
        }
        if list.full() {
            return;
        }
        for from in (self.by_piece(Piece::Rook) | queens) & own & from_mask {
            if few && (t.rook_rays(from) & kept).is_empty() {
                continue;
            }
            let mut dests = t.rook(from, occ) & kept;
            if pinned.contains(from) {
                dests &= t.line(ksq, from);
            }
            list.targets(if queens.contains(from) { Piece::Queen } else { Piece::Rook }, from, dests);
        }
        if list.full() {
            return;
        }
        self.pawn_moves(t, list, from_mask, target, pinned, ksq);
    }

    /// The enemy pieces giving check to our king on `ksq`, and our pieces pinned to it, in one
    /// pass: every enemy slider that would see the king through our pieces alone (a "sniper")
    /// either checks (nothing between), pins (exactly one of ours between) or neither.
    #[inline(always)]
    fn checkers_and_pinned(&self, t: &attacks::Tables, ksq: Square) -> (Bitboard, Bitboard) {
        let us = self.side;
        let them = !us;
        let own = self.by_color(us);
        let theirs = self.by_color(them);
        let occ = own | theirs;
        let queens = self.by_piece(Piece::Queen);
        let diagonal = (self.by_piece(Piece::Bishop) | queens) & theirs;
        let straight = (self.by_piece(Piece::Rook) | queens) & theirs;

        // A king never gives check, so leapers are knights and pawns only.
        let mut checkers =
            (t.knight(ksq) & self.pieces(them, Piece::Knight)) | (t.pawn(us, ksq) & self.pieces(them, Piece::Pawn));
        let mut pinned = Bitboard::EMPTY;
        for sniper in t.sliders_to(ksq, theirs, diagonal, straight) {
            let between = t.between(ksq, sniper) & occ;
            if between.is_empty() {
                checkers |= sniper.bb();
            } else if !between.more_than_one() {
                pinned |= between & own;
            }
        }
        (checkers, pinned)
    }

    /// King steps onto squares the enemy does not attack, and castling when not in check.
    #[inline(always)]
    fn king_moves<S: MoveSink>(&self, t: &attacks::Tables, list: &mut S, ksq: Square, checkers: Bitboard) {
        let us = self.side;
        let occ = self.occupied();
        let steps = t.king(ksq) & !self.by_color(us) & list.kept();
        let may_castle = checkers.is_empty()
            && list.keeps_castling()
            && (self.castling.has(CastleRights::king_side(us)) || self.castling.has(CastleRights::queen_side(us)));
        if steps.is_empty() && !may_castle {
            // Boxed in (common): no need for the attack map.
            return;
        }
        // The king is left out of the occupancy so that a slider checking it along a line also
        // covers the squares behind it, where stepping back would not escape. Castling asks of
        // squares on the back rank besides the king's steps.
        let near = if may_castle { Bitboard::FULL } else { steps };
        let danger = self.attacked_squares(t, !us, occ.without(ksq), near);
        list.targets(Piece::King, ksq, steps & !danger);
        if may_castle {
            self.castling_moves(t, list, ksq, occ, danger);
        }
    }

    /// Every square of `near` a piece of `by` attacks, with the board holding `occ` (others it
    /// attacks may be left out): a slider not in line with any square of `near` on an empty
    /// board is not looked up.
    #[inline(always)]
    fn attacked_squares(&self, t: &attacks::Tables, by: Color, occ: Bitboard, near: Bitboard) -> Bitboard {
        let theirs = self.by_color(by);
        let queens = self.by_piece(Piece::Queen);
        let mut att = self.pieces(by, Piece::Pawn).pawn_attacks(by == Color::White) | t.king(self.king_square(by));
        for sq in self.by_piece(Piece::Knight) & theirs {
            att |= t.knight(sq);
        }
        for sq in (self.by_piece(Piece::Bishop) | queens) & theirs {
            if (t.bishop_rays(sq) & near).any() {
                att |= t.bishop(sq, occ);
            }
        }
        for sq in (self.by_piece(Piece::Rook) | queens) & theirs {
            if (t.rook_rays(sq) & near).any() {
                att |= t.rook(sq, occ);
            }
        }
        att
    }

    /// Pawn moves, set-wise: each kind of step (push, double push, capture towards file a,
    /// capture towards file h) is one shift of the whole pawn set, so the cost does not grow
    /// with the number of pawns and the counter only needs popcounts.
    #[inline(always)]
    fn pawn_moves<S: MoveSink>(
        &self,
        t: &attacks::Tables,
        list: &mut S,
        from_mask: Bitboard,
        target: Bitboard,
        pinned: Bitboard,
        ksq: Square,
    ) {
        let us = self.side;
        let white = us == Color::White;
        let empty = !self.occupied();
        let enemies = self.by_color(!us);
        let pawns = self.pieces(us, Piece::Pawn) & from_mask;
        let free = pawns & !pinned;

        // A pinned pawn may still push when pinned along its file (it stays on the king's file);
        // every other pin forbids pushing.
        let pushers = free | (pawns & pinned & Bitboard::file(ksq.file()));
        let single = pushers.forward(white) & empty;
        let third_rank = Bitboard::rank(if white { 2 } else { 5 });
        let double = (single & third_rank).forward(white) & empty & target;
        let (push, west, east) = if white { (8, 7, 9) } else { (-8, -9, -7) };
        list.pawn_steps(single & target, push);
        list.pawn_steps(double, 2 * push);
        list.pawn_steps(free.forward_west(white) & enemies & target, west);
        list.pawn_steps(free.forward_east(white) & enemies & target, east);

        // A pinned pawn captures only along its pin line, i.e. the pinner itself: rare, so one
        // pawn at a time.
        for from in pawns & pinned {
            for to in t.pawn(us, from) & enemies & target & t.line(ksq, from) {
                list.pawn_steps(to.bb(), to.0 as i8 - from.0 as i8);
            }
        }

        if let Some(ep) = self.ep {
            self.en_passant(list, pawns, ep, ksq);
        }
    }

    /// En-passant captures onto `ep` by any of `pawns`.
    #[inline(always)]
    fn en_passant<S: MoveSink>(&self, list: &mut S, pawns: Bitboard, ep: Square, ksq: Square) {
        let t = attacks::tables();
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        for from in t.pawn(them, ep) & pawns {
            // The full king-safety test covers every case at once: the checker captured, a pin
            // along the capture diagonal, and the rank pin that opens when both pawns leave the
            // fifth rank.
            let cap_sq = Square::new(ep.file(), from.rank());
            let after = (occ.without(from).without(cap_sq)).with(ep);
            if self.attackers_to(ksq, them, after).is_empty() {
                list.push(Move::with_kind(from, ep, MoveKind::EnPassant));
            }
        }
    }
}

/// Our pieces and what they cover as `keeps_a_king_step` asks it, for one position: each
/// move then works out again only what its piece changes.
pub(crate) struct KingSteps {
    /// The attack tables, asked for once (each asking checks they are built).
    t: &'static attacks::Tables,
    /// Their king, their pieces and the whole board.
    king: Square,
    theirs: Bitboard,
    occ: Bitboard,
    /// Our pawns and knights, and our sliders by the lines they move along.
    pawns: Bitboard,
    knights: Bitboard,
    diagonal: Bitboard,
    straight: Bitboard,
    /// The squares our pawns, our knights and our king attack.
    pawn_cover: Bitboard,
    knight_cover: Bitboard,
    king_cover: Bitboard,
}

/// Where generated moves go: a list, or a counter that only needs how many. `push` takes only
/// castling and en passant; `targets` every other move but the pawns'.
pub(crate) trait MoveSink {
    fn push(&mut self, mv: Move);
    /// Plain moves of our `piece` from `from` to every square of `to` (a queen's come in two
    /// calls, along its diagonals and along its lines).
    fn targets(&mut self, piece: Piece, from: Square, to: Bitboard);
    /// Pawn moves onto every square of `to`, each from the square `step` behind it (the step
    /// is the same for all). Those onto the last rank are four promotions each.
    fn pawn_steps(&mut self, to: Bitboard, step: i8);
    /// Has the sink had enough? The generator then stops between kinds of piece.
    #[inline(always)]
    fn full(&self) -> bool {
        false
    }

    /// The squares the sink keeps the pieces' moves to (pawn steps and `push` aside): a sink
    /// that drops most moves says so, and the generator looks up none it would drop (a slider
    /// that sees none of them, the king's safety on a step it drops).
    #[inline(always)]
    fn kept(&self) -> Bitboard {
        Bitboard::FULL
    }

    /// Does the sink keep castling? If not, the king's safety on the back rank is not asked.
    #[inline(always)]
    fn keeps_castling(&self) -> bool {
        true
    }
}

/// The legal moves as `generate` lists them while there are at most `most`: past that the
/// generator stops, and the list holds only the first (more than `most`) of them.
pub(crate) struct FewMoves {
    pub(crate) list: MoveList,
    most: usize,
}

impl FewMoves {
    pub(crate) fn new(most: usize) -> FewMoves {
        FewMoves { list: MoveList::new(), most }
    }

    /// Were there more than `most` moves (and the list cut short)?
    pub(crate) fn too_many(&self) -> bool {
        self.list.len() > self.most
    }
}

impl MoveSink for FewMoves {
    #[inline]
    fn push(&mut self, mv: Move) {
        MoveList::push(&mut self.list, mv);
    }

    #[inline]
    fn targets(&mut self, piece: Piece, from: Square, to: Bitboard) {
        MoveSink::targets(&mut self.list, piece, from, to);
    }

    #[inline(always)]
    fn pawn_steps(&mut self, to: Bitboard, step: i8) {
        MoveSink::pawn_steps(&mut self.list, to, step);
    }

    #[inline(always)]
    fn full(&self) -> bool {
        self.too_many()
    }
}

/// The first and last ranks: a pawn arriving there promotes (only the far one is reachable).
pub(crate) const PROMOTION_RANKS: Bitboard = Bitboard(Bitboard::RANK_1.0 | Bitboard::RANK_8.0);

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, mv: Move) {
        MoveList::push(self, mv);
    }

    #[inline]
    fn targets(&mut self, _piece: Piece, from: Square, to: Bitboard) {
        for t in to {
            MoveList::push(self, Move::new(from, t));
        }
    }

    // Forced inline: called four times a generation, mostly for a pawn or two, where the call
    // cost as much as the pushes.
    #[inline(always)]
    fn pawn_steps(&mut self, to: Bitboard, step: i8) {
        for t in to & !PROMOTION_RANKS {
            MoveList::push(self, Move::new(Square((t.0 as i8 - step) as u8), t));
        }
        for t in to & PROMOTION_RANKS {
            let from = Square((t.0 as i8 - step) as u8);
            for p in Piece::PROMOTIONS {
                MoveList::push(self, Move::promotion_to(from, t, p));
            }
        }
    }
}

/// Keeps the captures and promotions (`legal_captures_and_promotions`).
struct CaptureSink<'a> {
    list: &'a mut MoveList,
    enemies: Bitboard,
}

impl MoveSink for CaptureSink<'_> {
    #[inline]
    fn push(&mut self, mv: Move) {
        // Castling and en passant: only the latter takes.
        if mv.kind() == MoveKind::EnPassant {
            MoveList::push(self.list, mv);
        }
    }

    #[inline]
    fn targets(&mut self, piece: Piece, from: Square, to: Bitboard) {
        MoveSink::targets(self.list, piece, from, to & self.enemies);
    }

    // Forced inline: handed the pawns' four kinds of step one by one, out of line each call
    // cost about as much as its work.
    #[inline(always)]
    fn pawn_steps(&mut self, to: Bitboard, step: i8) {
        MoveSink::pawn_steps(self.list, to & (self.enemies | PROMOTION_RANKS), step);
    }

    #[inline(always)]
    fn kept(&self) -> Bitboard {
        self.enemies
    }

    #[inline(always)]
    fn keeps_castling(&self) -> bool {
        false
    }
}

struct MoveCounter(usize);

impl MoveSink for MoveCounter {
    #[inline]
    fn push(&mut self, _mv: Move) {
        self.0 += 1;
    }

    #[inline]
    fn targets(&mut self, _piece: Piece, _from: Square, to: Bitboard) {
        self.0 += to.count() as usize;
    }

    #[inline]
    fn pawn_steps(&mut self, to: Bitboard, _step: i8) {
        // A promotion is four moves: counted once with the rest, plus three.
        self.0 += (to.count() + 3 * (to & PROMOTION_RANKS).count()) as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::perft::parse_suite_line;

    /// Every suite position and the positions one move after it, so that checks, pins, en
    /// passant and promotions all occur.
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        for line in include_str!("../../tests/data/perft.epd").lines() {
            if let Some(case) = parse_suite_line(line).unwrap() {
                let pos = Position::from_fen(&case.fen).unwrap();
                out.extend(pos.legal_moves().iter().map(|&m| pos.play(m)));
                out.push(pos);
            }
        }
        out
    }

    /// Including mates and stalemates, where the king has no move and the rest must be asked.
    #[test]
    fn has_legal_move_agrees_with_listing() {
        let mut none = 0;
        let ends = [
            "7k/5K2/8/8/8/8/8/6Q1 b - - 0 1",
            "k7/2Q5/K7/8/8/8/8/8 b - - 0 1",
            "k7/P7/K7/8/8/8/8/8 b - - 0 1",
            "7k/5KQ1/8/8/8/8/8/8 b - - 0 1",
        ];
        for pos in positions().into_iter().chain(ends.iter().map(|f| Position::from_fen(f).unwrap())) {
            assert_eq!(pos.has_legal_move(), !pos.legal_moves().is_empty(), "{}", pos.to_fen());
            none += usize::from(!pos.has_legal_move());
        }
        assert!(none >= 3, "only {none} positions without a legal move");
    }

    /// `leaves_no_legal_move` (no move made) answers as making the move and asking
    /// `has_legal_move`, for every legal move of the perft, WAC, ECM and mate suites, the
    /// positions one move later, and a few mates and stalemates by hand (a block by a double
    /// step, a pinned blocker, a double check, a capture of the checker en passant).
    #[test]
    fn leaves_no_legal_move_agrees_with_playing() {
        let suites = [
            include_str!("../../tests/data/wac.epd"),
            include_str!("../../tests/data/ecm.epd"),
            include_str!("../../tests/data/mate1.epd"),
        ];
        let by_hand = [
            "7k/5K2/8/8/8/8/8/6Q1 w - - 0 1",
            "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1",
            "4k3/8/8/8/8/8/3PPP2/3QKB2 b - - 0 1",
            "3rkr2/3p1p2/8/8/8/8/6B1/R3K3 w - - 0 1",
            // Ra8# although Bc8 would block: the bishop is pinned.
            "6k1/6pp/4b1P1/8/2B5/8/8/R6K w - - 0 1",
            // Qa5+ is met only by b2-b4.
            "q2r3k/8/8/8/8/8/1P2PP2/4KB2 b - - 0 1",
            "k7/8/1K6/8/8/8/8/1R5R w - - 0 1",
            "8/8/8/2k5/4p3/8/3P4/4K3 w - - 0 1",
        ];
        let roots: Vec<Position> = positions()
            .into_iter()
            .chain(suites.iter().flat_map(|s| crate::board::epd_positions(s)))
            .chain(by_hand.iter().map(|f| Position::from_fen(f).unwrap()))
            .collect();
        let (mut none, mut checks) = (0, 0);
        for root in roots {
            for pos in std::iter::once(root).chain(root.legal_moves().iter().map(|&m| root.play(m))) {
                for &mv in pos.legal_moves().iter() {
                    let after = pos.play(mv);
                    let want = !after.has_legal_move();
                    assert_eq!(pos.leaves_no_legal_move(mv), want, "{} {mv}", pos.to_fen());
                    none += usize::from(want);
                    checks += usize::from(after.is_check());
                }
            }
        }
        assert!(none > 300 && checks > 50_000, "{none} moves leave no move, {checks} check");
    }

    /// `keeps_a_king_step` says whether their king has a legal step after the move, as making
    /// it and listing their moves says, for every ordinary move (castling, en passant and
    /// promotions are not judged: false) of the perft, WAC and mate suites and the positions
    /// one move later.
    #[test]
    fn a_kept_king_step_agrees_with_playing() {
        let suites = [include_str!("../../tests/data/wac.epd"), include_str!("../../tests/data/mate1.epd")];
        let roots: Vec<Position> =
            positions().into_iter().chain(suites.iter().flat_map(|s| crate::board::epd_positions(s))).collect();
        let (mut kept, mut not) = (0, 0);
        for root in roots {
            for pos in std::iter::once(root).chain(root.legal_moves().iter().map(|&m| root.play(m))) {
                let steps = pos.king_steps();
                for &mv in pos.legal_moves().iter() {
                    let after = pos.play(mv);
                    let king = after.king_square(after.side_to_move());
                    let want = mv.kind() == MoveKind::Normal && after.legal_moves().iter().any(|m| m.from() == king);
                    let piece = pos.piece_kind_at(mv.from()).unwrap();
                    assert_eq!(pos.keeps_a_king_step(&steps, piece, mv), want, "{} {mv}", pos.to_fen());
                    kept += usize::from(want);
                    not += usize::from(!want);
                }
            }
        }
        assert!(kept > 100_000 && not > 10_000, "{kept} moves keep a king step, {not} do not");
    }

    /// `FewMoves` lists what `legal_moves` lists, in its order, when there are few enough, and
    /// otherwise says there were too many (and lists at least one more than `most`).
    #[test]
    fn few_moves_are_the_legal_moves_or_too_many() {
        let (mut few, mut many) = (0, 0);
        for pos in positions() {
            let all = pos.legal_moves();
            for most in [0, 1, 4, 30] {
                let mut sink = FewMoves::new(most);
                pos.generate_to(&mut sink, Bitboard::FULL);
                assert_eq!(sink.too_many(), all.len() > most, "{} {most}", pos.to_fen());
                if all.len() <= most {
                    assert_eq!(sink.list.as_slice(), all.as_slice(), "{} {most}", pos.to_fen());
                    few += 1;
                } else {
                    assert_eq!(sink.list.as_slice(), &all.as_slice()[..sink.list.len()], "{} {most}", pos.to_fen());
                    many += 1;
                }
            }
        }
        assert!(few > 100 && many > 100, "{few} few, {many} too many");
    }

    #[test]
    fn captures_and_promotions_agree_with_listing() {
        let mut seen = 0;
        for pos in positions() {
            let mut want = pos.legal_moves();
            want.retain(|m| pos.captured_piece(m).is_some() || m.promotion().is_some());
            assert_eq!(pos.legal_captures_and_promotions().as_slice(), want.as_slice(), "{}", pos.to_fen());
            seen += want.len();
        }
        assert!(seen > 3_000, "only {seen} captures and promotions");
    }

    #[test]
    fn counting_agrees_with_listing() {
        for pos in positions() {
            assert_eq!(pos.count_legal_moves(), pos.legal_moves().len(), "{}", pos.to_fen());
        }
    }

    /// On the squares asked of (all of them, or a king's steps) the attack map agrees with
    /// `attackers_to`.
    #[test]
    fn attack_map_agrees_with_attackers_to() {
        for pos in positions() {
            for by in Color::BOTH {
                let king = pos.king_square(!by);
                let occ = pos.occupied().without(king);
                for near in [Bitboard::FULL, attacks::king(king)] {
                    let map = pos.attacked_squares(attacks::tables(), by, occ, near);
                    for sq in near {
                        assert_eq!(map.contains(sq), pos.attackers_to(sq, by, occ).any(), "{sq} {}", pos.to_fen());
                    }
                }
            }
        }
    }

    #[test]
    fn checkers_and_pins_agree_with_position() {
        for pos in positions() {
            let ksq = pos.king_square(pos.side_to_move());
            assert_eq!(
                pos.checkers_and_pinned(attacks::tables(), ksq),
                (pos.checkers(), pos.pinned()),
                "{}",
                pos.to_fen()
            );
        }
    }

    #[test]
    fn set_wise_pawn_attacks_match_the_table() {
        for color in Color::BOTH {
            for sq in Square::all() {
                let white = color == Color::White;
                assert_eq!(sq.bb().pawn_attacks(white), attacks::pawn(color, sq), "{sq}");
            }
        }
    }
}
