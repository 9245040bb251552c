//! Where level 9's rules hook into the MasterAgent: `mating` before the poll (mate in one, or
//! in two to four by checks, the mating net), and `look_ahead` and `promotion` after the thesis's
//! decision (which candidate is finally played). The rules themselves live in their own modules
//! (`mating/`, `look_ahead/`, `promotion.rs`); this is only the MasterAgent's side of them.

use super::{Cand, Choice, MasterAgent, Reason, Round, Rule, Scratch, Verdict};
use crate::agents::agent::{Action, Estimate, NO_LANDING};
use crate::agents::describe::move_text;
use crate::agents::eval::Eval;
use crate::agents::features::Features;
use crate::agents::look_ahead::Weighed;
use crate::agents::{limits, look_ahead, mating, promotion, variety};
use crate::board::{Bitboard, Game, Move, MoveList, Position, Square};
use rand::Rng;

impl MasterAgent {
    /// Level 9's `mating` rules, before the agents are polled: a mate in one is played, and
    /// against a bare king the mating net decides.
    pub(super) fn mating_rules(&mut self, game: &Game, legal: &MoveList, checks: &MoveList) -> Option<Choice> {
        let pos = game.position();
        let (mv, rule, reason) = if let Some(mv) = mating::mate_among(pos, checks) {
            (mv, Rule::Mate, Reason::mate(self.features, pos, mv, 1))
        } else if let Some((mv, moves)) = mating::mate_in_two_to_four(pos, checks) {
            (mv, Rule::Mate, Reason::mate(self.features, pos, mv, moves))
        } else if mating::is_mating_phase(pos) {
            let rng = &mut self.rng;
            let (mv, words) = mating::mating_net(game, legal, &mut |n| rng.random_range(0..n))?;
            let label = self.features.label();
            (mv, Rule::MatingNet, Reason::text(format!("{label} mating net: {} ({words})", move_text(pos, mv))))
        } else {
            return None;
        };
        let action = if pos.is_capture(mv) { Action::Attack } else { Action::Move };
        let est = Estimate {
            mv,
            agent: 0,
            action,
            profit: look_ahead::immediate(pos, mv),
            plan: None,
            threat: 0,
            fork_targets: Bitboard::EMPTY,
            landing: NO_LANDING,
        };
        let verdict =
            Verdict { cand: Cand { est, residual: 0 }, rule, attack_round: false, defense_round: false, tied: None };
        let round = Round::empty();
        self.count(pos, &round, &verdict, false);
        Some(Choice {
            mv,
            rule,
            profit: est.profit,
            net: est.profit,
            fallback: false,
            reason,
            plan: None,
            evaluated: legal.len() as u32,
            fork: None,
        })
    }

    /// Level 9's `look_ahead`: the thesis's choice and the agents' other proposals, each weighed
    /// against the opponent's best answer; the best is played, the thesis's choice at equal worth.
    /// Returns the verdict and every candidate weighed, with its worth (in explain mode all of
    /// them), for the reason and the explain lines.
    pub(super) fn look_ahead(
        &mut self,
        game: &Game,
        r: &Round,
        verdict: Verdict,
        legal: &MoveList,
        checks: &MoveList,
        explain: bool,
    ) -> (Verdict, Vec<(Cand, i32)>) {
        let pos = game.position();
        // The lists below are the last decision's, emptied (`Scratch`); they go back at the end.
        let Scratch {
            mut proposals,
            mut forcing,
            mut candidates,
            mut worths,
            mut weighed,
            mut befores,
            mut threatened,
            ..
        } = std::mem::take(&mut self.scratch);
        befores.clear();
        proposals.clear();
        forcing.clear();
        candidates.clear();
        worths.clear();
        weighed.clear();
        for rep in &r.agents[..r.n] {
            proposals.extend(rep.attack.map(|b| b.cand));
            proposals.extend(rep.mv.map(|b| b.cand));
        }
        proposals.extend(r.attack_answer.map(|b| b.cand));
        proposals.extend(r.defense_answer.map(|b| b.cand));
        if self.features.has(Features::PROMOTION) {
            proposals.extend(promotion_answers(pos, self.features, legal));
        }
        // The thesis's choice first; then every capture and check, which force the opponent's
        // hand (where a look one move further pays most), however the agents rated them; then
        // the agents' other proposals by their own estimates, up to `CANDIDATES` in all.
        proposals.sort_by_key(|c| std::cmp::Reverse(c.est.profit));
        forcing.extend(r.forcing.iter().map(|&est| Cand { est, residual: 0 }));
        forcing.sort_by_key(|c| std::cmp::Reverse(c.est.profit));
        candidates.push(verdict.cand);
        for (c, limit) in
            forcing.iter().map(|&c| (c, limits::FORCING)).chain(proposals.iter().map(|&c| (c, limits::CANDIDATES)))
        {
            if candidates.len() < limit && candidates.iter().all(|k| k.est.mv != c.est.mv) {
                candidates.push(c);
            }
        }
        let is_seen = |hash: u64| game.has_seen(hash);
        // `variety`: the game's draw for this decision, taken only when the rule applies, so
        // that the random choices of a player without it are the ones they always were.
        let salt = (self.features.has(Features::VARIETY) && variety::in_opening(pos)).then(|| self.rng.random::<u64>());
        // The thesis's choice, and in explain mode every candidate, is weighed in full; the
        // others start from a ceiling and are weighed only as far as they could be the best.
        let features = self.features;
        // A ceiling keeps what the candidate wins and threatens before any answer (`befores`),
        // which its weighing starts from again.
        let weigh = |est: &Estimate, beat: i32, before: Option<i32>| {
            look_ahead::weigh_from(pos, est, features, &is_seen, beat, before)
        };
        look_ahead::Threatened::all_into(
            pos,
            r.agents[..r.n].iter().map(|rep| (rep.agent.square, rep.agent.threat)),
            &mut threatened,
        );
        let first = |i: usize, est: &Estimate| match i == 0 || explain {
            true => (weigh(est, i32::MIN, None), None),
            false => look_ahead::ceiling_and_before(pos, est, features, &threatened, checks.contains(est.mv)),
        };
        for (i, c) in candidates.iter().enumerate() {
            let (worth, before) = first(i, &c.est);
            worths.push((c.est.mv, worth));
            befores.push(before);
        }
        let mut checked = look_ahead::Checked::default();
        let mut best = look_ahead::pick(pos, &mut worths, features, &mut checked, &mut |i, beat| {
            weigh(&candidates[i].est, beat, befores[i])
        });
        // The agents propose one attack and one move each, so when the best candidate still
        // loses material, a threatened piece's other moves are weighed too: its quiet retreat
        // may be no agent's proposal, its move-attack having been rated higher. A check is no
        // exception: one that loses the checker (an interposition that hands them our queen) is
        // as bad as any other loss. When the best loses a rook's worth or more (or allows a
        // mate), the answer is rarely a threatened piece's move (a rook guarding the mating
        // square, a piece taking the attacker), so every legal move is weighed. And when the
        // best repeats a position while we are ahead (a piece chased back and forth proposes
        // the move-attack that leads home again), every legal move is too, so that one that
        // does not repeat is found if it exists.
        let best_mv = candidates[best].est.mv;
        let worth = worths[best].1.value();
        let losing = worth < 0;
        let perpetual = look_ahead::fears_perpetual(pos);
        let every = worth <= -limits::EVERY_MOVE_WHEN_LOSING
            || look_ahead::repeats_while_ahead(pos, best_mv, &is_seen)
            || perpetual;
        if losing || every {
            // Our king's moves too: a step aside may leave their check (and the fork it
            // carries) no square to be given from.
            let king = pos.king_square(pos.side_to_move());
            let threatened_from = r.agents[..r.n]
                .iter()
                .filter(|rep| rep.agent.threat > 0)
                .fold(Bitboard::EMPTY.with(king), |b, rep| b.with(rep.agent.square));
            for &est in &r.estimates {
                if (every || threatened_from.contains(est.mv.from())) && candidates.iter().all(|c| c.est.mv != est.mv) {
                    let (worth, before) = first(candidates.len(), &est);
                    worths.push((est.mv, worth));
                    befores.push(before);
                    candidates.push(Cand { est, residual: 0 });
                }
            }
            best = look_ahead::pick(pos, &mut worths, features, &mut checked, &mut |i, beat| {
                weigh(&candidates[i].est, beat, befores[i])
            });
        }
        if salt.is_some() {
            // `variety`: the chosen piece's other moves may be worth as much (a knight chased
            // has several safe squares, and its agent proposed one of them).
            let from = candidates[best].est.mv.from();
            for &est in &r.estimates {
                if est.mv.from() == from && candidates.iter().all(|c| c.est.mv != est.mv) {
                    let (worth, before) = first(candidates.len(), &est);
                    worths.push((est.mv, worth));
                    befores.push(before);
                    candidates.push(Cand { est, residual: 0 });
                }
            }
        }
        let picked = best;
        let mut weigh_again = |i: usize, beat: i32| weigh(&candidates[i].est, beat, befores[i]);
        best = match (perpetual, salt) {
            (true, _) => look_ahead::fewest_checks_at_equal_worth(pos, &mut worths, best, features, &mut weigh_again),
            (false, Some(salt)) => {
                let estimate = |mv: Move| candidates.iter().find(|c| c.est.mv == mv).map_or(0, |c| c.est.profit);
                look_ahead::varied_at_equal_worth(pos, &mut worths, best, features, &mut weigh_again, &estimate, salt)
            }
            (false, None) => look_ahead::placement_at_equal_worth(pos, &mut worths, best, features, &mut weigh_again),
        };
        let tied = (best != picked).then(|| candidates[picked].est.mv);
        // Only what was weighed is reported: a ceiling is no worth.
        weighed.extend(candidates.iter().zip(&worths).filter_map(|(c, (_, w))| match w {
            Weighed::Exact(w) => Some((*c, *w)),
            Weighed::AtMost(_) => None,
        }));
        let chosen = if best == 0 {
            verdict
        } else {
            Verdict { cand: candidates[best], rule: Rule::LookAhead, tied, ..verdict }
        };
        self.scratch = Scratch {
            proposals,
            forcing,
            candidates,
            worths,
            befores,
            threatened,
            ..std::mem::take(&mut self.scratch)
        };
        (chosen, weighed)
    }
}

/// Level 9's `promotion`: the legal moves that answer an enemy pawn about to promote (take it,
/// stand on its queening square, guard that square), each estimated by its agent.
fn promotion_answers(pos: &Position, features: Features, legal: &MoveList) -> Vec<Cand> {
    let threats = promotion::threats(pos);
    if threats.is_empty() {
        return Vec::new();
    }
    let ev = Eval::new(pos, features);
    legal
        .iter()
        .filter(|&&mv| threats.iter().any(|&(pawn, queening)| promotion::answers(pos, mv, pawn, queening)))
        .map(|&mv| Cand { est: ev.estimate(0, &look_ahead::mover(pos, mv), mv).0, residual: 0 })
        .collect()
}

/// Level 9's `promotion` without look-ahead: an enemy pawn that would queen on a square we do
/// not guard is the worst threat of all (a queen for a pawn); unless the thesis's choice answers
/// it, the best-estimated answer is played instead.
pub(super) fn answer_promotion(pos: &Position, features: Features, legal: &MoveList, verdict: Verdict) -> Verdict {
    let open: Vec<(Square, Square)> = promotion::threats(pos)
        .into_iter()
        .filter(|&(_, queening)| !pos.attackers_to(queening, pos.side_to_move(), pos.occupied()).any())
        .collect();
    let answers_all = |mv: Move| open.iter().all(|&(pawn, queening)| promotion::answers(pos, mv, pawn, queening));
    if open.is_empty() || answers_all(verdict.cand.est.mv) || verdict.cand.est.profit >= promotion::promotion_gain() {
        return verdict;
    }
    let best = promotion_answers(pos, features, legal)
        .into_iter()
        .filter(|c| answers_all(c.est.mv))
        .max_by_key(|c| c.est.profit);
    match best {
        Some(cand) => Verdict { cand, rule: Rule::PromotionAnswer, tied: None, ..verdict },
        None => verdict,
    }
}
