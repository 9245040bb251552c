//! Mating (level 9, `Features::MATING`): the end of the game as a goal.
//!
//! Thesis 6: "Currently any attack of the opponent king is prioritized which often can cause a
//! disorganized witch-hunt of the king. Logic considering which move-attack of the king is most
//! promising to lead to check mate could be introduced." And 3.1.3: with a bare king left, the
//! stronger side "looses most of its pieces while trying to attack the opponent's king until the
//! rule is executed". Levels 3-8 often strip the opponent to a bare king and then fail to mate
//! it; in `7k/8/6K1/8/8/8/8/6Q1 w` every level plays Qh1+ instead of Qg7#. Three rules:
//!
//! 1. **Mate in one is always played** (`mate_in_one`, `by_checks.rs`): the MasterAgent asks
//!    every check whether it leaves the king a move, before anything else; then whether a mate
//!    in two, three or four by checks is there (`mate_in_two_to_four`).
//! 2. **A check is not a free attack on the king**: with this feature a planned capture of the
//!    king earns nothing by itself (`Eval::plan_attack`); a check counts only as one of a
//!    fork's targets (`fork.rs`), where it forces the opponent's hand.
//! 3. **The mating net** (`mating_net`, `net.rs`): when the opponent has nothing but its king (and
//!    perhaps pawns) and we have a queen or a rook, the king's agent and the heavy pieces' agents
//!    work together. Every legal move is judged by the worst the defending king can make of it:
//!    the squares its king could still reach (the "box": a flood fill through squares none of
//!    ours attacks), then our king's distance to it, then its distance from the edge. Moves
//!    that stalemate, leave a piece for the king to take, or repeat a position are never chosen
//!    while another move is left; a reply after which we mate in one ends the search for a move.
//!    Without a queen or rook the same judgement uses other measures: a pawn run led by our king
//!    (`run_score`), or bishop and knight driving the king to the bishop's corner
//!    (`bishop_knight_score`).
//!
//! The checks these rules try are generated without making moves by the board
//! (`board/checks.rs`): that is move generation, not a rule.

mod by_checks;
mod net;

pub(crate) use by_checks::{mate_among, mate_in_two_or_three, mate_in_two_to_four};
pub(crate) use net::{is_mating_phase, mating_net};
