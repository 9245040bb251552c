//! What a decision leaves behind: the counters it adds to (thesis 3.2's request statistics and
//! level 9's forks, mates, promotions) and the words for it (the reason every decision carries
//! and the explain mode's lines, one per agent).

use super::{Best, Cand, MasterAgent, Round, Rule, Verdict};
use crate::agents::agent::{Action, Agent, Estimate, block_squares};
use crate::agents::describe::{agent_name, kind_text, mate_words, move_text, plan_text};
use crate::agents::features::Features;
use crate::agents::look_ahead;
use crate::agents::placement::Placement;
use crate::agents::scene::Scene;
use crate::board::{Move, Position, gives_check};

impl MasterAgent {
    pub(super) fn count(&mut self, pos: &Position, r: &Round, v: &Verdict, fallback: bool) {
        let mv = v.cand.est.mv;
        let c = &mut self.counters;
        c.decisions += 1;
        match v.rule {
            Rule::Attack => c.rule_attack += 1,
            Rule::Move => c.rule_move += 1,
            Rule::ThreatenedAgent => c.rule_threatened_agent += 1,
            // Counted below with their rounds.
            Rule::AttackRequest | Rule::DefenseRequest => {}
            Rule::Mate => c.rule_mate += 1,
            Rule::MatingNet => c.rule_mating_net += 1,
            Rule::LookAhead => c.rule_look_ahead += 1,
            Rule::PromotionAnswer => c.rule_promotion_answer += 1,
        }
        c.defense_consideration_fallbacks += u32::from(fallback);
        if v.attack_round {
            c.attack_request_rounds += 1;
            if v.rule == Rule::AttackRequest {
                c.attack_requests_performed += 1;
            } else if matches!(v.rule, Rule::Attack | Rule::Move | Rule::ThreatenedAgent)
                && Some(v.cand.est.agent_index()) == r.worst
            {
                // Also when W's move won as the general choice: it still moved itself.
                c.threatened_moved_itself += 1;
            }
        }
        if v.defense_round {
            c.defense_request_rounds += 1;
            if v.rule == Rule::DefenseRequest {
                c.defense_requests_used += 1;
            }
        }
        if v.cand.est.action == Action::Move && v.cand.est.plan.is_some() {
            c.move_attacks_planned += 1;
        }
        c.forks_planned += u32::from(v.cand.est.fork().is_some());
        c.promotions += u32::from(mv.promotion().is_some());
        c.mates_delivered += u32::from(gives_check(pos, mv) && pos.play(mv).is_checkmate());
        if self.features.has(Features::EXCHANGE)
            && let Some((_, richest)) = r.richest_capture
            && richest.profit < 0
            && richest.mv != mv
        {
            c.exchanges_declined += 1;
        }
    }

    /// What the reason of this decision will say (`Reason`), gathered while the round is at
    /// hand; the words are made when it is read.
    pub(super) fn reason(
        &self,
        pos: &Position,
        r: &Round,
        v: &Verdict,
        fallback: bool,
        weighed: &[(Cand, i32)],
    ) -> Reason {
        let est = v.cand.est;
        let look = match v.rule {
            Rule::LookAhead => {
                let worth = |m: Move| weighed.iter().find(|(c, _)| c.est.mv == m).map_or(0, |(_, w)| *w);
                let thesis = weighed.first().map(|(c, _)| c.est.mv).unwrap_or(est.mv);
                (worth(est.mv), thesis, worth(thesis), v.tied)
            }
            _ => (0, est.mv, 0, None),
        };
        Reason(Words::Poll(PollWords {
            label: self.features,
            pos: *pos,
            rule: v.rule,
            est,
            net: v.cand.net(),
            wounded: r.worst.map(|i| r.agents[i].agent),
            threat: r.threat,
            by_wounded: Some(est.agent_index()) == r.worst,
            look,
            fallback,
        }))
    }

    /// Explain mode's lines, logged at debug level and kept when asked for.
    pub(super) fn explain_lines(&mut self, lines: Vec<String>) {
        for line in &lines {
            log::debug!("{line}");
        }
        if self.explain {
            self.explanation = lines;
        }
    }

    /// Explain mode: one line per agent, the worst threat, the request answers, the
    /// look-ahead's candidates with their worth (level 9), the reason.
    pub(super) fn explain_round(&mut self, pos: &Position, r: &Round, reason: &Reason, weighed: &[(Cand, i32)]) {
        let mut lines = Vec::with_capacity(r.n + 4);
        let describe = |b: Option<Cand>| match b {
            Some(c) => match c.est.plan {
                Some((target, victim)) => {
                    let piece = c.est.mv.promotion().unwrap_or(pos.moving_piece(c.est.mv));
                    let plan = plan_text(piece, c.est.mv.to(), target, victim);
                    format!("{} ({:+}, plans {plan})", move_text(pos, c.est.mv), c.est.profit)
                }
                None => format!("{} ({:+})", move_text(pos, c.est.mv), c.est.profit),
            },
            None => "-".to_string(),
        };
        for rep in &r.agents[..r.n] {
            let a = rep.agent;
            lines.push(format!(
                "agent {}: threat {}, best attack {}, best move {}",
                agent_name(a.piece, a.square),
                a.threat,
                describe(rep.attack.map(|b| b.cand)),
                describe(rep.mv.map(|b| b.cand)),
            ));
        }
        match r.worst.map(|i| r.agents[i].agent) {
            Some(w) => {
                lines.push(format!("worst threat: {} ({})", agent_name(w.piece, w.square), r.threat));
                let answer = |b: Option<Best<i32>>| match b {
                    Some(b) => {
                        format!("{} (net {}, leaves {})", move_text(pos, b.cand.est.mv), b.cand.net(), b.cand.residual)
                    }
                    None => "none".to_string(),
                };
                if self.features.has(Features::ATTACK_REQUEST) {
                    lines.push(format!("attack request answer: {}", answer(r.attack_answer)));
                }
                if self.features.any_defense_request() {
                    lines.push(format!("defense request answer: {}", answer(r.defense_answer)));
                }
            }
            None => lines.push("worst threat: none".to_string()),
        }
        if !weighed.is_empty() {
            let list: Vec<String> =
                weighed.iter().map(|(c, w)| format!("{} {w:+}{}", move_text(pos, c.est.mv), mate_words(*w))).collect();
            lines.push(format!("look-ahead (worth after the best answer): {}", list.join(", ")));
        }
        lines.push(format!("decision: {reason}"));
        self.explain_lines(lines);
    }
}

/// Why a decision was made ("L5 attack request: Nf3xe5 removes attacker of Qd4 (net 300)"),
/// put into words only when read (`Display`, `to_string`): decisions are made far more often
/// than their reasons are read (the XBoard protocol shows them only in debug mode, the decide
/// benchmark never), and wording one is work a decision need not do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason(Words);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Words {
    /// The `mating` rules' mate in one, two or three of our moves.
    Mate { label: Features, pos: Position, mv: Move, moves: u32 },
    /// Words made at once (the mating net describes its own choice).
    Text(String),
    /// A decision of the poll's rules, or of level 9's after it.
    Poll(PollWords),
}

/// What a poll's reason says, as the round left it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PollWords {
    label: Features,
    pos: Position,
    rule: Rule,
    est: Estimate,
    net: i32,
    /// The worst threatened agent and its threat.
    wounded: Option<Agent>,
    threat: i32,
    /// The move is the worst threatened agent's own.
    by_wounded: bool,
    /// Look-ahead: the move's worth, and the thesis's choice with its worth.
    look: (i32, Move, i32, Option<Move>),
    fallback: bool,
}

impl Reason {
    /// A mate by the `mating` rules in `moves` of our moves, starting with `mv`.
    pub(super) fn mate(label: Features, pos: &Position, mv: Move, moves: u32) -> Reason {
        Reason(Words::Mate { label, pos: *pos, mv, moves })
    }

    /// Words already made.
    pub(super) fn text(words: String) -> Reason {
        Reason(Words::Text(words))
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match &self.0 {
            Words::Text(words) => f.write_str(words),
            Words::Mate { label, pos, mv, moves } => {
                let (label, mv) = (label.label(), move_text(pos, *mv));
                match moves {
                    1 => write!(f, "{label} mate: {mv}"),
                    2 => write!(f, "{label} mate in two: {mv} (every reply allows mate)"),
                    3 => write!(f, "{label} mate in three: {mv} (checks that leave every reply a mate)"),
                    _ => write!(f, "{label} mate in four: {mv} (checks that leave every reply a mate)"),
                }
            }
            Words::Poll(w) => w.fmt(f),
        }
    }
}

impl PollWords {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let (pos, est) = (&self.pos, &self.est);
        let mover_piece = pos.moving_piece(est.mv);
        let mv = move_text(pos, est.mv);
        let w_name = self.wounded.map(|a| agent_name(a.piece, a.square)).unwrap_or_default();
        write!(f, "{} ", self.label.label())?;
        match self.rule {
            Rule::Attack | Rule::Move | Rule::ThreatenedAgent => {
                match (self.rule, est.action, est.plan.is_some()) {
                    (Rule::ThreatenedAgent, _, _) => {
                        write!(f, "threatened {w_name} (threat {}) acts itself: ", self.threat)?
                    }
                    (_, Action::Attack, _) => f.write_str("attack: ")?,
                    (_, Action::Move, true) => f.write_str("move-attack: ")?,
                    (_, Action::Move, false) => f.write_str("move: ")?,
                }
                match (est.action, est.plan) {
                    // An attack takes a piece; were it to take none, it is not named.
                    (Action::Attack, _) => match pos.captured_piece(est.mv) {
                        Some(victim) => write!(f, "{mv} takes {} (profit {})", kind_text(victim), est.profit)?,
                        None => write!(f, "{mv} (profit {})", est.profit)?,
                    },
                    (Action::Move, Some((target, victim))) => {
                        let piece = est.mv.promotion().unwrap_or(mover_piece);
                        write!(
                            f,
                            "{mv} plans {} (profit {})",
                            plan_text(piece, est.mv.to(), target, victim),
                            est.profit
                        )?
                    }
                    (Action::Move, None) => write!(f, "{mv} (profit {})", est.profit)?,
                }
            }
            Rule::AttackRequest => write!(f, "attack request: {mv} removes attacker of {w_name} (net {})", self.net)?,
            Rule::DefenseRequest => {
                let w = self.wounded.expect("a defense request has a requester");
                let attackers = Scene::now(pos).their_attackers(pos, w.square);
                let blocked = attackers.into_iter().find(|&a| block_squares(a.bb(), w.square).contains(est.mv.to()));
                match blocked.and_then(|a| pos.piece_kind_at(a).map(|p| (p, a))) {
                    Some((p, a)) => {
                        write!(f, "defense request: {mv} blocks {} from {w_name} (net {})", agent_name(p, a), self.net)?
                    }
                    None => write!(f, "defense request: {mv} guards {w_name} (net {})", self.net)?,
                }
            }
            Rule::LookAhead => {
                let (worth, thesis, thesis_worth, tied) = self.look;
                write!(
                    f,
                    "look-ahead: {mv} (worth {worth}{}; the thesis's rules chose {}, worth {thesis_worth}{})",
                    mate_words(worth),
                    move_text(pos, thesis),
                    mate_words(thesis_worth)
                )?;
                if let Some(tied) = tied {
                    write!(f, "; as good as {}", move_text(pos, tied))?;
                    if look_ahead::fears_perpetual(pos) {
                        write!(f, ", leaves them fewer checks ({})", look_ahead::checks_left(pos, est.mv))?;
                    }
                }
            }
            Rule::PromotionAnswer => {
                write!(f, "promotion answer: {mv} stops a pawn from queening (profit {})", est.profit)?
            }
            // Decided before the poll (`mating_rules`), which words them itself.
            Rule::Mate | Rule::MatingNet => f.write_str(&mv)?,
        }
        if est.fork().is_some() {
            write!(f, "; forks (guaranteed {})", est.threat)?;
        }
        if self.label.has(Features::PLACEMENT) && !matches!(self.rule, Rule::Mate | Rule::MatingNet) {
            // Worked out again only when the reason is read.
            let placed = Placement::of(pos).gain(pos, est.mv);
            if placed != 0 {
                write!(f, "; placement {placed:+}")?;
            }
        }
        if matches!(self.rule, Rule::Attack | Rule::Move) && self.threat > 0 && !self.by_wounded {
            write!(f, "; leaves {w_name} threatened ({})", self.threat)?;
        }
        if self.fallback {
            f.write_str("; every move failed defense consideration")?;
        }
        Ok(())
    }
}
