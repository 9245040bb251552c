//! Level 9's limits in one place: how many candidates the look-ahead weighs and when it weighs
//! every legal move, how deep, how wide and how long the mates by checks look, and how deep the
//! mating net looks against a bare king. Everything level 9 looks at beyond the thesis's one pass
//! over the legal moves is bounded by one of these (docs/agents.md has them as a table).
//!
//! A depth that the code's shape fixes (the mate in two, three and four are three searches, the
//! mating net two nested loops) is named here too, and the code that has that shape asserts it
//! at compile time, so that this table cannot drift from it.

use crate::board::values::ROOK_VALUE;

// The look-ahead (`look_ahead/`).

/// The candidates the look-ahead weighs at first, the thesis's choice among them: the agents'
/// proposals fill the list up to this many, by their estimates.
pub(crate) const CANDIDATES: usize = 8;

/// Captures and checks go in first, up to this many candidates (then the other proposals fill
/// up to `CANDIDATES`).
pub(crate) const FORCING: usize = 12;

/// When the best candidate loses this much or more (a rook, or a mate), every legal move is
/// weighed, not only the threatened pieces' moves: the rescue is then often a move no agent
/// proposed for itself (a rook stepping in to guard the mating square).
pub(crate) const EVERY_MOVE_WHEN_LOSING: i32 = ROOK_VALUE;

/// How far ahead (our material less theirs) the side in check must be for `perpetual_escape`
/// to weigh every evasion and tell them apart by the checks they leave: a minor piece.
pub(crate) const PERPETUAL_EDGE: i32 = 300;

/// The longest mate by checks of theirs the look-ahead asks of the candidate about to be played
/// (`final_check`), in their moves: in one, two or three.
pub(crate) const THEIR_MATE_BY_CHECKS: u32 = 3;

// The mates by checks (`mating/by_checks.rs`).

/// The longest mate by checks the MasterAgent looks for before the poll, in our moves: mate in
/// one, then two, three and four (`mate_in_two_to_four`).
pub(crate) const OUR_MATE_BY_CHECKS: u32 = 4;

/// Checks that leave more replies than this are not followed up for a mate in two or three.
pub(crate) const MATE_IN_TWO_REPLIES: usize = 4;

/// A mate in three's second check must leave the king at most this many replies (its first
/// check, as a mate in two's, `MATE_IN_TWO_REPLIES`): the look-ahead asks every finalist
/// whether the opponent then mates in three, so the search is kept to the narrow lines such
/// mates take.
pub(crate) const MATE_IN_THREE_LATER_REPLIES: usize = 2;

/// A mate in four's first check must leave the king at most this many replies (its later
/// checks, as a mate in three's, `MATE_IN_THREE_LATER_REPLIES`): the sacrifice that opens the
/// king, which leaves it few ways out; a first check leaving more replies adds few mates for
/// much more work.
pub(crate) const MATE_IN_FOUR_FIRST_REPLIES: usize = 2;

/// The most positions a mate in two by checks may look at before it gives up, so that its cost
/// stays bounded in a position with many checks, each met in few ways and followed by many
/// more (two queens against a king). Far above what any mate in two seen in play needs.
pub(crate) const MATE_IN_TWO_BUDGET: u32 = 1_000;

/// The most positions a mate in three by checks may look at before it gives up, so that its
/// cost stays bounded even in the rare position with many checks each met in few ways.
pub(crate) const MATE_IN_THREE_BUDGET: u32 = 200;

/// The most positions a mate in four by checks may look at, after the mate in three's.
pub(crate) const MATE_IN_FOUR_BUDGET: u32 = 200;

// The mating net (`mating/net.rs`).

/// The mating net's full-width depth against a bare king, in plies: every legal move of ours
/// and every reply to it, each position then scored by the box our best next move leaves (a
/// one-ply look that weighs no replies).
pub(crate) const MATING_NET_PLIES: u32 = 2;
