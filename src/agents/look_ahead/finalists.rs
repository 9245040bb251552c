//! Which candidate is played: the best worth, the earlier at equal worth, weighing a candidate
//! known only by a ceiling when its ceiling leads, and the finalist's own check asked last
//! (`pick`); then the tie-breaks among candidates of equal worth: the fewest checks left to
//! them when a perpetual is feared (`fewest_checks_at_equal_worth`), else the placement
//! (`placement_at_equal_worth`).

use super::final_check::final_check;
use super::worth::Weighed;
use crate::agents::features::Features;
use crate::agents::limits::PERPETUAL_EDGE;
use crate::agents::placement::Placement;
use crate::agents::variety;
use crate::board::values::material_balance;
use crate::board::{Move, Position, checking_moves};

/// The candidates `final_check` has asked about (`pick`).
pub(crate) type Checked = [u64; crate::board::MAX_MOVES / 64];

/// The candidate to play: the best worth, the earlier at equal worth, after the finalist has
/// passed `final_check` (a failed finalist takes its real worth and the choice is made again).
///
/// A candidate known only by a ceiling is weighed (`weigh`: its index, and the worth it must
/// reach to beat every candidate already weighed) when its ceiling leads; weighing may stop
/// early with a lower ceiling that no longer does. As no ceiling is below its worth, the
/// finalists, their order and the choice are those of weighing every candidate in full first.
///
/// `checked` marks the candidates that have passed `final_check` (one bit a candidate: they are
/// distinct legal moves, at most `MAX_MOVES`): a second pick over the same candidates and more
/// does not ask it again.
pub(crate) fn pick(
    pos: &Position,
    worths: &mut [(Move, Weighed)],
    features: Features,
    checked: &mut Checked,
    weigh: &mut dyn FnMut(usize, i32) -> Weighed,
) -> usize {
    loop {
        let mut best = 0;
        for (i, (_, w)) in worths.iter().enumerate() {
            if w.value() > worths[best].1.value() {
                best = i;
            }
        }
        if let Weighed::AtMost(_) = worths[best].1 {
            // An earlier candidate wins at equal worth: a later one must do better than it.
            let beat = worths
                .iter()
                .enumerate()
                .filter_map(|(i, (_, w))| match w {
                    Weighed::Exact(w) if i < best => Some(w.saturating_add(1)),
                    Weighed::Exact(w) => Some(*w),
                    Weighed::AtMost(_) => None,
                })
                .max()
                .unwrap_or(i32::MIN);
            worths[best].1 = weigh(best, beat);
            continue;
        }
        let (word, bit) = (best / 64, 1u64 << (best % 64));
        if checked[word] & bit != 0 {
            return best;
        }
        checked[word] |= bit;
        if let Some(real) = final_check(pos, worths[best].0, features) {
            worths[best].1 = Weighed::Exact(real);
        }
    }
}

/// `perpetual_escape`: in check with a piece or more in hand (`PERPETUAL_EDGE`), the check may
/// be the first of a perpetual, the side behind's last way to a draw. Every evasion is then
/// weighed.
pub(crate) fn fears_perpetual(pos: &Position) -> bool {
    pos.is_check() && material_balance(pos, pos.side_to_move()) >= PERPETUAL_EDGE
}

/// How many checks they have after our `mv`.
pub(crate) fn checks_left(pos: &Position, mv: Move) -> usize {
    checking_moves(&pos.play(mv)).len()
}

/// `perpetual_escape`: among the evasions worth exactly as much as `best` (the one `pick`
/// chose), the one that leaves them the fewest checks; at equal count `best` stays, then the
/// earliest (`best_of_the_tied`).
///
/// The draws level 9 lets slip while ahead are mostly perpetual checks, where another king
/// step would often keep the win: the evasions all lose nothing to the next check, so the
/// thesis's choice or the king's placement picks among them, often the step back into the
/// corner the checks came from. Counting their checks is the agents' way of seeing which king
/// walks out of the net.
pub(crate) fn fewest_checks_at_equal_worth(
    pos: &Position,
    worths: &mut [(Move, Weighed)],
    best: usize,
    features: Features,
    weigh: &mut dyn FnMut(usize, i32) -> Weighed,
) -> usize {
    best_of_the_tied(pos, worths, best, features, weigh, &mut |mv| -(checks_left(pos, mv) as i32))
}

/// With `placement`, when the look-ahead overrides the thesis's choice (`best`, the candidate
/// `pick` chose, is not the first): among the candidates worth exactly as much as `best`, the
/// one whose piece gains most in placement; at equal placement `best` stays, then the
/// earliest (`best_of_the_tied`).
///
/// Many candidates are worth the same after the opponent's answer (nothing won, nothing lost),
/// and the earliest of them would stand: the captures and checks first, then the proposals by
/// their agents' estimates, whatever the squares they lead to. The thesis's choice itself is
/// not second-guessed at equal worth: its defense and attack requests see what placement does
/// not.
pub(crate) fn placement_at_equal_worth(
    pos: &Position,
    worths: &mut [(Move, Weighed)],
    best: usize,
    features: Features,
    weigh: &mut dyn FnMut(usize, i32) -> Weighed,
) -> usize {
    if best == 0 || !features.has(Features::PLACEMENT) {
        return best;
    }
    // Worked out only when some candidate may tie (most decisions have none).
    let mut placement = None;
    best_of_the_tied(pos, worths, best, features, weigh, &mut |mv| {
        placement.get_or_insert_with(|| Placement::of(pos)).gain(pos, mv)
    })
}

/// `variety`, in the opening: among the candidates worth exactly as much as `best`, one drawn
/// by the game's `salt`, the more likely the higher its agent rated it (`estimate`, the
/// agents' own profit with placement; `variety::tie_key`).
pub(crate) fn varied_at_equal_worth(
    pos: &Position,
    worths: &mut [(Move, Weighed)],
    best: usize,
    features: Features,
    weigh: &mut dyn FnMut(usize, i32) -> Weighed,
    estimate: &dyn Fn(Move) -> i32,
    salt: u64,
) -> usize {
    best_of_the_tied(pos, worths, best, features, weigh, &mut |mv| {
        variety::tie_key(salt, u64::from(mv.raw()), estimate(mv))
    })
}

/// Among the candidates worth exactly as much as `best` (the one `pick` chose), the one whose
/// `key` is highest; at equal key `best` stays, then the earliest. A candidate known only by a
/// ceiling that reaches that worth is weighed when its key would win the tie, so the choice is
/// the one explain mode makes, which weighs every candidate (the same argument as `pick`'s: the
/// others cannot be chosen). The finalist's own check (a mate it allows, a stalemate) is asked
/// of a new choice too.
fn best_of_the_tied(
    pos: &Position,
    worths: &mut [(Move, Weighed)],
    best: usize,
    features: Features,
    weigh: &mut dyn FnMut(usize, i32) -> Weighed,
    key: &mut dyn FnMut(Move) -> i32,
) -> usize {
    let Weighed::Exact(worth) = worths[best].1 else { return best };
    let may_tie = |i: usize, w: Weighed| {
        i != best
            && match w {
                Weighed::Exact(w) => w == worth,
                Weighed::AtMost(ceiling) => ceiling >= worth,
            }
    };
    if !worths.iter().enumerate().any(|(i, &(_, w))| may_tie(i, w)) {
        return best;
    }
    let mut chosen = (best, key(worths[best].0));
    for (i, (mv, w)) in worths.iter_mut().enumerate() {
        // In order, and only a better key than the chosen so far wins: a candidate that could
        // not win is not weighed.
        if !may_tie(i, *w) {
            continue;
        }
        let k = key(*mv);
        if k <= chosen.1 {
            continue;
        }
        if let Weighed::AtMost(_) = *w {
            *w = weigh(i, worth);
        }
        if *w == Weighed::Exact(worth) {
            chosen = (i, k);
        }
    }
    match chosen.0 != best && final_check(pos, worths[chosen.0].0, features).is_none_or(|real| real >= worth) {
        true => chosen.0,
        false => best,
    }
}

#[cfg(test)]
mod tests {
    use super::super::ceiling::{Threatened, ceiling};
    use super::super::worth::{mover, weigh, worth};
    use super::*;
    use crate::agents::agent::Estimate;
    use crate::agents::eval::Eval;
    use crate::agents::scene::Scene;
    use crate::agents::wac_and_one_move_on;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// The ties of `placement_at_equal_worth`: weighed when only a ceiling is known, told
    /// apart by placement, and never asked when the thesis's choice (the first) stands.
    #[test]
    fn placement_breaks_a_tie_only_against_another_candidate() {
        let p = pos("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        let mv = |uci: &str| p.parse_uci(uci).unwrap();
        // b1-c3 is the thesis's choice (-100); pick chose a2-a3 (100); g1-f3 may be as good,
        // known only by a ceiling until weighed. Placement prefers the knight in the centre.
        let features = Features::level(9).unwrap();
        let list = || {
            vec![
                (mv("b1c3"), Weighed::Exact(-100)),
                (mv("a2a3"), Weighed::Exact(100)),
                (mv("g1f3"), Weighed::AtMost(150)),
            ]
        };
        let mut asked = Vec::new();
        let mut worths = list();
        let chosen = placement_at_equal_worth(&p, &mut worths, 1, features, &mut |i, beat| {
            asked.push((i, beat));
            Weighed::Exact(100)
        });
        assert_eq!((chosen, asked), (2, vec![(2, 100)]));
        // A rook's pawn step is placed no better than a2-a3: it is not even weighed.
        let mut worths = vec![
            (mv("b1c3"), Weighed::Exact(-100)),
            (mv("a2a3"), Weighed::Exact(100)),
            (mv("h2h3"), Weighed::AtMost(150)),
        ];
        assert_eq!(placement_at_equal_worth(&p, &mut worths, 1, features, &mut |_, _| unreachable!()), 1);
        // Weighed below the worth, the knight is no tie.
        let mut worths = list();
        assert_eq!(placement_at_equal_worth(&p, &mut worths, 1, features, &mut |_, _| Weighed::AtMost(50)), 1);
        // The thesis's choice stands at equal worth, and without placement nothing changes.
        let mut worths = vec![(mv("a2a3"), Weighed::Exact(100)), (mv("g1f3"), Weighed::Exact(100))];
        assert_eq!(placement_at_equal_worth(&p, &mut worths, 0, features, &mut |_, _| unreachable!()), 0);
        let mut worths = list();
        assert_eq!(
            placement_at_equal_worth(&p, &mut worths, 1, features.without(Features::PLACEMENT), &mut |_, _| {
                Weighed::Exact(100)
            }),
            1
        );
    }

    #[test]
    fn a_perpetual_is_feared_only_in_check_and_a_piece_ahead() {
        // In check, eight points ahead; the same material edge out of check; in check, even.
        assert!(fears_perpetual(&pos("2b1rnnr/4k1p1/7p/2Qp4/5P2/1B6/P1p2P1P/2K5 b - - 9 38")));
        assert!(!fears_perpetual(&pos("2b1rnnr/4k1p1/7p/3p4/2Q2P2/1B6/P1p2P1P/2K5 b - - 9 38")));
        assert!(!fears_perpetual(&pos("4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1")));
        // Two pawns ahead is not enough.
        assert!(!fears_perpetual(&pos("4k3/8/8/8/8/8/4r1PP/R3K3 w - - 0 1")));
    }

    #[test]
    fn weighing_from_ceilings_picks_what_weighing_everything_picks() {
        // Every legal move as a candidate (more than the MasterAgent ever has), in the agents'
        // order: the lazy pick must choose the same move at the same worth, every ceiling must
        // be at least the worth, and a weighing cut short must leave a ceiling below `beat`.
        let sets =
            ["level9", "level9,-exchange", "level9,-fork", "level9,-promotion"].map(|s| Features::parse(s).unwrap());
        let (mut cut, mut changed) = (0, 0);
        for (n, p) in wac_and_one_move_on().into_iter().step_by(7).enumerate() {
            let features = sets[n % sets.len()];
            let ev = Eval::new(&p, features);
            let ests: Vec<Estimate> = p.legal_moves().iter().map(|&mv| ev.estimate(0, &mover(&p, mv), mv).0).collect();
            if ests.is_empty() {
                continue;
            }
            let exact: Vec<i32> = ests.iter().map(|e| worth(&p, e, features, &|_| false)).collect();
            let now = Scene::now(&p);
            let threatened =
                Threatened::all(&p, p.by_color(p.side_to_move()).into_iter().map(|sq| (sq, ev.agent(&now, sq).threat)));
            for (e, &w) in ests.iter().zip(&exact) {
                assert!(
                    ceiling(&p, e, features, &threatened, p.play(e.mv).is_check()).value() >= w,
                    "{p:?} {:?}",
                    e.mv
                );
                for beat in [-300, 0, 100, 400] {
                    match weigh(&p, e, features, &|_| false, beat) {
                        Weighed::Exact(x) => assert_eq!(x, w, "{p:?} {:?}", e.mv),
                        Weighed::AtMost(c) => {
                            assert!(c >= w && c < beat, "{p:?} {:?} {c} {w} {beat}", e.mv);
                            cut += 1;
                        }
                    }
                }
            }
            let mut full: Vec<(Move, Weighed)> =
                ests.iter().zip(&exact).map(|(e, &w)| (e.mv, Weighed::Exact(w))).collect();
            let a = pick(&p, &mut full, features, &mut Checked::default(), &mut |_, _| {
                unreachable!("every candidate is weighed")
            });
            let mut lazy: Vec<(Move, Weighed)> = ests
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    (
                        e.mv,
                        if i == 0 {
                            Weighed::Exact(exact[0])
                        } else {
                            ceiling(&p, e, features, &threatened, p.play(e.mv).is_check())
                        },
                    )
                })
                .collect();
            let b = pick(&p, &mut lazy, features, &mut Checked::default(), &mut |i, beat| {
                weigh(&p, &ests[i], features, &|_| false, beat)
            });
            assert_eq!((a, full[a].1), (b, lazy[b].1), "{p:?}");
            changed += usize::from(a != 0);
        }
        assert!(cut > 10_000 && changed > 500, "{cut} {changed}");
    }
}
