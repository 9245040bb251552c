//! The agents' estimator context: one position under one feature set ([`Eval`]), the "what
//! if" boards it makes for a move ([`Scene`]s, knowing where their pieces may attack when the
//! poll has asked), and the threat on a piece of ours on such a board, estimated as the active
//! level does (the whole exchange with `exchange`, else the thesis's estimate). The agents'
//! estimates of their moves (`agent.rs`) and the forks they make (`fork.rs`) both ask it, so it
//! is a module of its own that both use.

use super::exchange::exchange_threat;
use super::features::Features;
use super::placement::Placement;
use super::scene::{Scene, threat};
use crate::board::{Bitboard, Move, Piece, Position, Square, attacks};

/// The agents' view of one position under one feature set.
pub(crate) struct Eval<'a> {
    pub pos: &'a Position,
    pub features: Features,
    /// With `exchange`, when the poll asks (`knowing_their_attacks`): every square their pieces
    /// attack in the position, from which its scenes know where their pieces may attack.
    their_attacks: Option<Bitboard>,
    /// With `placement`: where our pieces stand now, weighed when first asked.
    pub(super) placement: std::cell::OnceCell<Placement>,
    /// The poll's (`with_memo`): threats on boards where one piece of ours has moved.
    memo: Option<&'a ArrivalMemo>,
    /// The last squares emptied that `scene_after` asked `newly_attackable` about, and its
    /// answer: the moves of one piece empty the same square, and the poll asks them in a row.
    newly: std::cell::Cell<(Bitboard, Bitboard)>,
}

/// Threats worked out on boards where one piece of ours has moved from `from` to `to`, taking
/// what stood there if anything, and nothing else has changed: the board after its capture on
/// `to`, and after any quiet move of it followed by its planned capture on `to`, are the same
/// one, so the poll works the exchange there out once for all of the piece's moves.
pub(crate) struct ArrivalMemo {
    /// Direct-mapped: `from | to << 6 | kind << 12` (never 0: `from` is not `to`) and the
    /// threat; a slot holds the last board asked of those that share it.
    slots: [std::cell::Cell<(u16, i16)>; 256],
}

impl ArrivalMemo {
    pub fn new() -> ArrivalMemo {
        ArrivalMemo { slots: [const { std::cell::Cell::new((0, 0)) }; 256] }
    }

    /// The threat on our `piece` come from `from` to `to`, from `work` unless already known.
    #[inline(always)]
    fn get_or(&self, from: Square, to: Square, piece: Piece, work: impl FnOnce() -> i32) -> i32 {
        let key = (from.index() | to.index() << 6 | piece.index() << 12) as u16;
        let slot = &self.slots[(from.index() ^ to.index() << 2 ^ piece.index() << 5) & 255];
        let (k, threat) = slot.get();
        if k == key {
            return i32::from(threat);
        }
        let threat = work();
        // A threat on a piece other than the king never exceeds its value, which fits.
        if let Ok(kept) = i16::try_from(threat) {
            slot.set((key, kept));
        }
        threat
    }
}

impl<'a> Eval<'a> {
    pub fn new(pos: &'a Position, features: Features) -> Eval<'a> {
        Eval {
            pos,
            features,
            their_attacks: None,
            placement: std::cell::OnceCell::new(),
            memo: None,
            newly: std::cell::Cell::new((Bitboard::EMPTY, Bitboard::EMPTY)),
        }
    }

    /// This view with their attacks taken once, so that the scenes it makes know where their
    /// pieces can attack (`scene_now`, `scene_after`): with the exchange a square they do not
    /// attack has no threat, and most squares the poll asks about are such.
    pub fn knowing_their_attacks(self) -> Eval<'a> {
        let their_attacks = self.features.has(Features::EXCHANGE).then(|| Scene::now(self.pos).their_attacks(self.pos));
        Eval { their_attacks, ..self }
    }

    /// This view keeping the threats on boards where one piece of ours has moved in `memo`
    /// (`ArrivalMemo`), for as long as it is asked about this position.
    pub fn with_memo(self, memo: &'a ArrivalMemo) -> Eval<'a> {
        Eval { memo: Some(memo), ..self }
    }

    /// `threat_at(scene, to, piece)` where `scene` is the position with our piece from `from`
    /// standing on `to` as `piece`, having taken what stood there, and nothing else changed
    /// (see `ArrivalMemo`).
    #[inline(always)]
    pub(super) fn arrival_threat(&self, scene: &Scene, from: Square, to: Square, piece: Piece) -> i32 {
        match self.memo {
            Some(memo) if self.features.has(Features::EXCHANGE) && scene.their_reach().contains(to) => {
                memo.get_or(from, to, piece, || self.threat_at(scene, to, piece))
            }
            _ => self.threat_at(scene, to, piece),
        }
    }

    /// The board as it stands, knowing their attacks when this view does.
    pub fn scene_now(&self) -> Scene {
        let now = Scene::now(self.pos);
        self.their_attacks.map_or(now, |attacked| now.with_their_reach(attacked))
    }

    /// The board after our move `mv`, knowing where their pieces may attack when this view
    /// knows their attacks now: there, and along the lines our move opens to their sliders.
    #[inline(always)]
    pub fn scene_after(&self, mv: Move) -> Scene {
        let scene = Scene::after(self.pos, mv);
        match self.their_attacks {
            Some(attacked) => {
                // A move always empties its origin, so an empty key is never asked.
                let opened = self.pos.occupied() & !scene.occ;
                let (last, lines) = self.newly.get();
                let lines = if opened == last {
                    lines
                } else {
                    let lines = self.newly_attackable(opened);
                    self.newly.set((opened, lines));
                    lines
                };
                scene.with_their_reach(attacked | lines)
            }
            None => scene,
        }
    }

    #[inline]
    pub(super) fn backup(&self) -> bool {
        self.features.has(Features::THREAT_AND_BACKUP)
    }

    /// The threat on our `piece` at `sq` in `scene`, estimated as the active level does: the
    /// whole exchange with `exchange` (level 9), else the thesis's estimate.
    #[inline(always)]
    pub fn threat_at(&self, scene: &Scene, sq: Square, piece: Piece) -> i32 {
        if self.features.has(Features::EXCHANGE) {
            if !scene.their_reach().contains(sq) {
                return 0;
            }
            return exchange_threat(self.pos, scene, sq, piece);
        }
        threat(self.pos, scene, sq, piece, self.backup())
    }

    /// The squares their sliders may attack once `opened` is empty that they do not attack
    /// now (a superset): those on the lines through an emptied square from their sliders that
    /// see it. (A slider's new line runs through the first emptied square on it, from which it
    /// is seen across empty or emptied squares; leapers attack where they did, and our pieces
    /// arriving only block.)
    #[inline(always)]
    fn newly_attackable(&self, opened: Bitboard) -> Bitboard {
        let (pos, t) = (self.pos, attacks::tables());
        let them = !pos.side_to_move();
        let occ = pos.occupied() & !opened;
        let queens = pos.pieces(them, Piece::Queen);
        let (diag, straight) = (pos.pieces(them, Piece::Bishop) | queens, pos.pieces(them, Piece::Rook) | queens);
        let mut lines = Bitboard::EMPTY;
        for sq in opened {
            for slider in (t.bishop(sq, occ) & diag) | (t.rook(sq, occ) & straight) {
                lines |= t.line(slider, sq);
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knowing_their_attacks_changes_no_threat_and_no_exposure() {
        // WAC and every position one move on, every move: where the scene says their pieces
        // cannot attack, the exchange finds no threat, so the answers are the plain ones.
        let wac = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wac.epd"));
        let roots = crate::agents::epd_positions(wac);
        let (mut passed_over, mut exposed, mut planned) = (0, 0, 0);
        for p in roots
            .iter()
            .flat_map(|r| std::iter::once(*r).chain(r.legal_moves().iter().map(|&mv| r.play(mv)).collect::<Vec<_>>()))
        {
            let plain = Eval::new(&p, Features::level(9).unwrap());
            let mapped = Eval::new(&p, Features::level(9).unwrap()).knowing_their_attacks();
            let ours = p.by_color(p.side_to_move());
            for (scene, known) in p
                .legal_moves()
                .iter()
                .map(|&mv| (Scene::after(&p, mv), mapped.scene_after(mv)))
                .chain([(Scene::now(&p), mapped.scene_now())])
            {
                for sq in ours & scene.occ {
                    let piece = scene.kind_at(&p, sq).unwrap();
                    assert_eq!(mapped.threat_at(&known, sq, piece), plain.threat_at(&scene, sq, piece), "{p:?} {sq}");
                    passed_over += usize::from(!known.their_reach().contains(sq));
                }
                for (sq, piece) in scene.arrival_list() {
                    assert_eq!(mapped.threat_at(&known, sq, piece), plain.threat_at(&scene, sq, piece), "{p:?} {sq}");
                    // The captures it plans from there (`plan_and_fork`, `fork`).
                    for target in attacks::piece_attacks(piece, p.side_to_move(), sq, scene.occ) & scene.theirs {
                        let (then, known_then) =
                            (scene.then_capture(sq, target, piece), known.then_capture(sq, target, piece));
                        assert_eq!(
                            mapped.threat_at(&known_then, target, piece),
                            plain.threat_at(&then, target, piece),
                            "{p:?} {sq} {target}"
                        );
                        planned += 1;
                    }
                }
            }
            for &mv in p.legal_moves().iter() {
                let whole = plain.exposure(&Scene::after(&p, mv), mv.from());
                assert_eq!(mapped.exposure(&mapped.scene_after(mv), mv.from()), whole, "{p:?} {mv}");
                exposed += usize::from(whole > 0);
            }
        }
        assert!(passed_over > 100_000 && exposed > 10_000 && planned > 10_000, "{passed_over} {exposed} {planned}");
    }

    #[test]
    fn the_arrival_memo_changes_no_estimate() {
        // Every estimate of every legal move, in the poll's order, from one memo a position.
        let wac = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wac.epd"));
        let features = Features::level(9).unwrap();
        let mut recalled = 0;
        for p in crate::agents::epd_positions(wac) {
            let memo = ArrivalMemo::new();
            let (kept, plain) =
                (Eval::new(&p, features).knowing_their_attacks().with_memo(&memo), Eval::new(&p, features));
            let now = Scene::now(&p);
            for &mv in p.legal_moves().iter() {
                let agent = plain.agent(&now, mv.from());
                assert_eq!(kept.estimate(0, &agent, mv).0, plain.estimate(0, &agent, mv).0, "{p:?} {mv}");
            }
            recalled += memo.slots.iter().filter(|s| s.get().0 != 0).count();
        }
        assert!(recalled > 1000, "{recalled}");
    }
}
