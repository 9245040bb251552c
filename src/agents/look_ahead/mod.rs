//! Look-ahead (level 9, `Features::LOOK_AHEAD`): the MasterAgent checks its few best
//! candidates against the opponent's agents' best answers.
//!
//! Thesis 4.1: the agents look "1.5 moves" ahead: they estimate the opponent's captures with the
//! board as it stands, so "the situations missed would be seen by a traditional chess program
//! searching at the depth of 2 moves" (Figure 4.1: the rook that takes a knight and is taken by
//! a rook its own move uncovered). Chapter 6 names deeper look-ahead as the hardest extension.
//! This rule takes it one move further, the opponent's answer, the agents' way:
//!
//! - the candidates are what the agents propose: the MasterAgent's own choice by the thesis's
//!   rules first, then every capture and check (they force the opponent's hand) up to
//!   `FORCING` candidates, then every agent's best attack and best move, the request answers
//!   and the answers to a promotion threat, by their estimates, up to `CANDIDATES`; and when
//!   the best of those still loses material, the threatened pieces' other moves and our
//!   king's (every legal move when it loses `EVERY_MOVE_WHEN_LOSING` or more, or repeats a
//!   position while we are ahead);
//! - for each, the position after it is handed to the opponent's agents, who report their best
//!   attack: what their best capture or promotion wins, estimated as our agents estimate (with
//!   `exchange`, the whole exchange), discovered attacks included since the board is the real
//!   one after our move, a pawn's step to promote that we cannot answer, their best fork,
//!   their best trap (a quiet step up to a piece of ours that has no way out), and their best
//!   check (what it wins once we have answered it); after a check of ours, their best reply to
//!   it instead; and for the candidate about to be played, a mate in one, two or three by
//!   checks when they have one (`final_check`);
//! - a candidate is worth what it wins now, less their best answer, plus what it threatens
//!   next that the answer leaves standing: a fork's guaranteed gain whole (unless the answer
//!   takes the forking piece or trades it off evenly), or, when they have no winning answer, a
//!   second winning capture after the move or `THREAT_SHARE` of a lone threat (or of a passed
//!   pawn's progress); a draw it allows costs our material edge, and a repetition while we are
//!   ahead costs `REPEAT_COST`;
//! - in check with a piece or more in hand, every evasion is weighed, and of those worth the
//!   same the one that leaves them the fewest checks is played (`perpetual_escape`): a
//!   perpetual check is the last resource of the side behind;
//! - the best is played; at equal worth the earlier candidate, so that the thesis's own choice
//!   stands unless the look-ahead finds it worse; when it does, the candidates of equal worth
//!   are told apart by `placement` (`placement_at_equal_worth`). A candidate whose ceiling
//!   (what it wins now and threatens next, before any answer) cannot beat the best one
//!   weighed is not weighed, and one whose answer already puts it below the best is not
//!   weighed further (`pick`): the choice is the same, only cheaper.
//!
//! Only captures, promotions, forks, traps, checks and mates are asked of the opponent; no move
//! of ours is looked at after theirs, except the trapped piece's ways out and our replies to
//! their check (and theirs to ours), and the mates by checks asked of the finalist.
//! That is what keeps this the agents' reasoning over a handful of moves and not a search: at
//! most `FORCING` candidates, unless the best of them loses, repeats a position while we are
//! ahead, or a perpetual is feared (then more, up to every legal move, as above), each asked
//! for the opponent's best answer, not for their every reply.
//!
//! The rule's parts, one concern a file: the opponent's answer (`answer.rs`), with what we win
//! back after a check (`captures.rs`) and their forks and traps (`forks.rs`, `traps.rs`); a
//! candidate's worth (`worth.rs`) and the ceilings that spare weighing most candidates
//! (`ceiling.rs`); the finalist's own check (`final_check.rs`), and the pick among the
//! candidates with its tie-breaks (`finalists.rs`); `material.rs` holds what they all ask of
//! the pieces on the board. The candidate caps and the widening rules (`CANDIDATES`,
//! `FORCING`, `EVERY_MOVE_WHEN_LOSING`, `PERPETUAL_EDGE`) are in `limits.rs` with level 9's
//! other limits.

mod answer;
mod captures;
mod ceiling;
mod final_check;
mod finalists;
mod forks;
mod material;
mod traps;
mod worth;

pub(crate) use ceiling::{Threatened, ceiling_and_before};
pub(crate) use final_check::MATE;
pub(crate) use finalists::{
    Checked, checks_left, fears_perpetual, fewest_checks_at_equal_worth, pick, placement_at_equal_worth,
    varied_at_equal_worth,
};
pub(crate) use material::immediate;
pub(crate) use worth::{Weighed, mover, repeats_while_ahead, weigh_from};
