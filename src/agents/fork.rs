//! Fork (level 9, `Features::FORK`): double move-attacks.
//!
//! Thesis 3.2.4 and chapter 6: "When choosing which move-attack to prioritize the one with the
//! highest profitable attack possibility is prioritized … However, this attack is not
//! guaranteed as the opponent can decide to move the piece. Instead, prioritizing moves with two
//! or more less profitable attacks could prove to be a wise choice. This strategy can guarantee
//! an attack possibility, as the opponent is only able to move one piece."
//!
//! After a move, the agent looks at every capture it could make next from its new square and
//! what each would win (the target less the threat on the square taken on; with `exchange`,
//! the whole exchange there). The opponent saves the target it values most, so two or more
//! winning captures guarantee the second best; a check with one winning capture guarantees that
//! capture, since the check must be answered first. A lone threat guarantees nothing: it is
//! worth `SINGLE_THREAT_SHARE` of its gain, so that a guaranteed smaller gain beats a larger one
//! the opponent can simply step away from. The agent only forks from a square where it is not
//! itself threatened (the caller checks the landing square), and the opponent's commonest move
//! that answers both threats at once, taking the forker, is counted (`unless_taken`); other
//! such moves (a counter-check, a guard of both) are not looked for, as the thesis accepts
//! ("even though it is sometimes possible to protect two pieces with one move").

use super::eval::Eval;
use super::exchange::swap;
use super::scene::Scene;
use crate::board::values::value;
use crate::board::{Bitboard, Piece, Position, Square, attacks};

/// A lone planned capture counts for this share of its gain (numerator, denominator).
pub(crate) const SINGLE_THREAT_SHARE: (i32, i32) = (1, 2);

/// What a fork guarantees, and the squares it attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fork {
    /// The gain the opponent cannot prevent: the second-best capture, or with check the best.
    pub gain: i32,
    /// The targets with a winning capture, and the king when it gives check.
    pub targets: Bitboard,
}

/// The fork our `piece` would make standing on `from` in `scene`, if any.
pub(crate) fn fork(ev: &Eval, scene: &Scene, from: Square, piece: Piece) -> Option<Fork> {
    let pos = ev.pos;
    let targets = attacks::piece_attacks(piece, pos.side_to_move(), from, scene.occ) & scene.theirs;
    if !targets.more_than_one() {
        return None;
    }
    let mut tally = Tally::default();
    for target in targets {
        let victim = pos.piece_on(target);
        if victim == Piece::King {
            tally.check(target);
            continue;
        }
        let after = scene.then_capture(from, target, piece);
        // Our king may never capture a defended piece.
        if piece == Piece::King && after.their_attackers(pos, target).any() {
            continue;
        }
        tally.capture(target, value(victim) - ev.threat_at(&after, target, piece));
    }
    tally.fork()
}

/// The fork `fork` made by `piece` standing on `sq` in `scene`, once the opponent's answer of
/// taking the forker is counted: that one capture answers every threat at once (the commonest
/// of the thesis's "protect two pieces with one move"), so the fork guarantees no more than the
/// capture costs the taker, the whole exchange on `sq` (`exchange::swap`). A forker they can
/// trade off evenly forks nothing. (`safe` landing squares only rule out a forker they win:
/// one defended as well as it is attacked, which they can trade, passed for safe.) The same
/// holds for their forks: one that a trade answers (Nc2+ met by Nxc2 Bxc2) is not to be feared.
pub(crate) fn unless_taken(scene: &Scene, pos: &Position, sq: Square, piece: Piece, fork: Fork) -> Option<Fork> {
    if !scene.their_attackers(pos, sq).any() {
        return Some(fork);
    }
    let taker = !pos.side_to_move();
    let gain = fork.gain.min(-swap(pos, scene, sq, value(piece), taker));
    (gain > 0).then_some(Fork { gain, ..fork })
}

/// A fork's targets as they are looked at one by one (`fork`, and `Eval`'s planned attacks,
/// which look at the same captures): the two best winning captures and whether it checks.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tally {
    best: i32,
    second: i32,
    check: bool,
    hit: Bitboard,
}

impl Tally {
    /// The target on `target` is their king.
    #[inline]
    pub(crate) fn check(&mut self, target: Square) {
        self.check = true;
        self.hit = self.hit.with(target);
    }

    /// Taking the piece on `target` wins `gain` (the target less the threat on the square).
    #[inline]
    pub(crate) fn capture(&mut self, target: Square, gain: i32) {
        if gain <= 0 {
            return;
        }
        self.hit = self.hit.with(target);
        if gain > self.best {
            self.second = self.best;
            self.best = gain;
        } else if gain > self.second {
            self.second = gain;
        }
    }

    /// The fork, if the targets make one.
    #[inline]
    pub(crate) fn fork(&self) -> Option<Fork> {
        let gain = if self.check { self.best } else { self.second };
        (gain > 0).then_some(Fork { gain, targets: self.hit })
    }
}

/// A move's worth from what it threatens next, with forks: a fork's guaranteed gain, or a share
/// of a lone threat's gain, whichever is more.
pub(crate) fn threat_value(fork: Option<Fork>, single_gain: i32) -> i32 {
    let single = single_gain.max(0) * SINGLE_THREAT_SHARE.0 / SINGLE_THREAT_SHARE.1;
    fork.map_or(single, |f| f.gain.max(single))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::features::Features;

    fn fork_after(fen: &str, uci: &str) -> Option<Fork> {
        let pos = Position::from_fen(fen).unwrap();
        let ev = Eval::new(&pos, Features::level(9).unwrap());
        let mv = pos.parse_uci(uci).unwrap();
        let scene = Scene::after(&pos, mv);
        let piece = pos.piece_kind_at(mv.from()).unwrap();
        fork(&ev, &scene, mv.to(), piece)
    }

    #[test]
    fn a_knight_fork_of_king_and_rook_guarantees_the_rook() {
        // Nd5-c7+ forks the king e8 and the rook a8.
        let f = fork_after("r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1", "d5c7").expect("a fork");
        assert_eq!(f.gain, 500);
        assert_eq!(f.targets.count(), 2);
    }

    #[test]
    fn two_targets_guarantee_the_smaller() {
        // Nd4-c6 attacks the rook a7 and the bishop e5, both undefended: the bishop is
        // guaranteed (Black saves the rook).
        let f = fork_after("7k/r7/8/4b3/3N4/8/8/4K3 w - - 0 1", "d4c6").expect("a fork");
        assert_eq!(f.gain, 350);
    }

    #[test]
    fn defended_targets_count_net_of_the_exchange() {
        // As above with the rook a7 defended by the rook a8 (Nxa7 Rxa7: +200) and the bishop
        // by the king f8 (Nxe7 Kxe7: +50): 50 is guaranteed.
        let f = fork_after("r4k2/r3b3/8/8/3N4/8/8/4K3 w - - 0 1", "d4c6").expect("a fork");
        assert_eq!(f.gain, 50);
        // Two defended pawns (and a check) win nothing: no fork.
        assert!(fork_after("1k6/p2rp3/8/8/3N4/8/8/4K3 w - - 0 1", "d4c6").is_none());
    }

    #[test]
    fn a_forker_traded_off_evenly_forks_nothing() {
        // Nd5-c7+ forks the king e8 and the rook a8, and the bishop a5 guards c7. The knight a6
        // takes it and the bishop takes back: an even trade that answers both threats.
        let fen = "r3k3/8/n7/B2N4/8/8/8/4K3 w - - 0 1";
        let (scene, pos) = scene_after(fen, "d5c7");
        let f = fork_after(fen, "d5c7").expect("a fork before the capture is counted");
        assert_eq!(f.gain, 500);
        assert_eq!(unless_taken(&scene, &pos, "c7".parse().unwrap(), Piece::Knight, f), None);
        // With the queen d8 the only taker, taking costs Black 600: the rook is still won.
        let fen = "r2qk3/8/8/B2N4/8/8/8/4K3 w - - 0 1";
        let (scene, pos) = scene_after(fen, "d5c7");
        let f = fork_after(fen, "d5c7").expect("a fork");
        assert_eq!(unless_taken(&scene, &pos, "c7".parse().unwrap(), Piece::Knight, f), Some(f));
        // The bishop b8 takes and is taken: a knight for a bishop, 50 the most Black loses.
        let fen = "rb2k3/8/8/B2N4/8/8/8/4K3 w - - 0 1";
        let (scene, pos) = scene_after(fen, "d5c7");
        let f = fork_after(fen, "d5c7").expect("a fork");
        assert_eq!(unless_taken(&scene, &pos, "c7".parse().unwrap(), Piece::Knight, f).map(|f| f.gain), Some(50));
    }

    fn scene_after(fen: &str, uci: &str) -> (Scene, Position) {
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos.parse_uci(uci).unwrap();
        (Scene::after(&pos, mv), pos)
    }

    #[test]
    fn a_lone_threat_is_worth_a_share() {
        assert_eq!(threat_value(None, 500), 500 * SINGLE_THREAT_SHARE.0 / SINGLE_THREAT_SHARE.1);
        let f = Fork { gain: 300, targets: Bitboard::EMPTY };
        assert_eq!(threat_value(Some(f), 500), 300.max(500 * SINGLE_THREAT_SHARE.0 / SINGLE_THREAT_SHARE.1));
    }
}
