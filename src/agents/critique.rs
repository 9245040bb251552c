//! Critique: why a move was a mistake, in the agents' words (`agentchess annotate`).
//!
//! A judge that looks ahead (level 10's tree) says *that* a move lost winning chances, which
//! move was better and what the opponent answers. Why, the agents say, from the same facts
//! their explain mode shows: an agent's threat where it stands after the move (the whole
//! exchange on its square, `exchange`), the worst threat it was under before, the fork a move
//! makes (`fork`, through the agent's estimate of the move), a mate by checks (`mating`), a
//! passed pawn on its way (`promotion`), and what a capture wins or loses by the exchange.
//!
//! Every reason names one piece and its square and rests on one of those facts; where none
//! holds there is no reason (the judge's better move and line still stand). What the move let
//! the opponent do and what it missed are both looked for; the larger in material is told,
//! a mate before anything.

use super::counters::captured_square;
use super::describe::{move_text, piece_word};
use super::eval::Eval;
use super::exchange::exchange_threat;
use super::features::Features;
use super::mating::mate_among;
use super::promotion::{is_passed, unstoppable};
use super::scene::Scene;
use crate::board::values::{PAWN_VALUE, QUEEN_VALUE, value};
use crate::board::{Bitboard, Color, Move, MoveKind, Piece, Position, Square, checks};
use std::fmt;

/// Mates in at most this many moves are the reason before anything else.
pub const SHORT_MATE: u32 = 3;

/// What a judge found about a move, for the agents to explain.
#[derive(Clone, Copy, Debug)]
pub struct Hindsight<'a> {
    /// The position before the move.
    pub pos: Position,
    pub played: Move,
    /// The judge's line from `pos`, its best move first.
    pub better: &'a [Move],
    /// The mover mates in this many moves along `better`, as the judge sees it.
    pub better_mate: Option<u32>,
    /// The judge's line after the move played, the opponent's answer first.
    pub reply: &'a [Move],
    /// The opponent mates in this many moves along `reply`, as the judge sees it.
    pub reply_mate: Option<u32>,
}

/// The kind of reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motif {
    /// The mover had a mate and did not play it.
    MateMissed { moves: u32 },
    /// The move lets the opponent mate.
    MateAllowed { moves: u32 },
    /// A capture that loses material once the exchange on its square is played out.
    LosingExchange,
    /// The move leaves a piece to a capture (the moved piece, or one it stops guarding).
    Hanging,
    /// A piece already threatened before the move is still threatened after it, and taken.
    ThreatIgnored,
    /// The opponent's answer is a fork (a double move-attack).
    ForkAllowed,
    /// The opponent's passed pawn runs through and promotes.
    PassedPawn,
    /// The better move was a capture that wins material.
    CaptureMissed,
    /// The better move was a fork.
    ForkMissed,
    /// The better move was a promotion.
    PromotionMissed,
}

impl Motif {
    /// The motif in one or two words, as the sentences use it.
    pub fn name(self) -> &'static str {
        match self {
            Motif::MateMissed { .. } => "mate missed",
            Motif::MateAllowed { .. } => "mate allowed",
            Motif::LosingExchange => "losing exchange",
            Motif::Hanging => "left hanging",
            Motif::ThreatIgnored => "threat ignored",
            Motif::ForkAllowed => "fork allowed",
            Motif::PassedPawn => "passed pawn",
            Motif::CaptureMissed => "capture missed",
            Motif::ForkMissed => "fork missed",
            Motif::PromotionMissed => "promotion missed",
        }
    }
}

/// Why a move was a mistake: the motif, the piece it is about, and the words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Critique {
    pub motif: Motif,
    /// The piece the reason is about: the piece left hanging or threatened, the piece that
    /// forks or mates, the pawn that runs through, the piece a missed capture would take.
    pub piece: Piece,
    pub color: Color,
    pub square: Square,
    /// The mover's pieces in danger (the piece left, the fork's targets, the king to be mated).
    pub danger: Bitboard,
    /// The move the reason turns on: the opponent's capture, fork or mate (after the move
    /// played), or the better move the mover missed.
    pub key_move: Move,
    /// `key_move` is the opponent's, played after the move played (else the mover's, instead).
    pub key_is_reply: bool,
    words: String,
}

impl Critique {
    /// The moves to the mate the reason is about, if it is about one.
    pub fn mate_moves(&self) -> Option<u32> {
        match self.motif {
            Motif::MateMissed { moves } | Motif::MateAllowed { moves } => Some(moves),
            _ => None,
        }
    }
}

impl fmt::Display for Critique {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.words)
    }
}

/// Why the move played was a mistake, if the agents' facts say.
pub fn critique(h: &Hindsight) -> Option<Critique> {
    let after = h.pos.play(h.played);
    if after.legal_moves().is_empty() {
        // It mated or stalemated: whatever it gave up, nothing follows to explain.
        return None;
    }
    // A short mate is the reason whatever else; a long one, which the judge found deep in its
    // line, gives way to what the move did to the material (a pawn let through to queen
    // before the mate, say).
    let (missed_mate, allowed_mate) = (mate_missed(h), mate_allowed(h, &after));
    for mate in [&missed_mate, &allowed_mate] {
        if let Some(c) = mate.as_ref().filter(|c| c.mate_moves().is_some_and(|n| n <= SHORT_MATE)) {
            return Some(c.clone());
        }
    }
    let allowed =
        [losing_exchange(h, &after), left_to_capture(h, &after), fork_allowed(h, &after), pawn_let_through(h, &after)]
            .into_iter()
            .flatten()
            .max_by_key(|(size, _)| *size);
    let missed = [capture_missed(h), fork_missed(h), promotion_missed(h)].into_iter().flatten().max_by_key(|(s, _)| *s);
    let chosen = match (allowed, missed) {
        (Some(a), Some(m)) => Some(if m.0 > a.0 { m } else { a }),
        (a, m) => a.or(m),
    };
    chosen.map(|(_, c)| c).or(missed_mate).or(allowed_mate)
}

/// "the knight on e5"
fn noun(piece: Piece, sq: Square) -> String {
    format!("the {} on {sq}", piece_word(piece))
}

/// The mover's threat on its piece on `sq`, in `pos` with the mover to move: what the opponent
/// wins by starting the exchange there (level 9's agents' threat, as explain shows it).
fn threat_on(pos: &Position, sq: Square) -> i32 {
    match pos.piece_kind_at(sq) {
        Some(piece) if piece != Piece::King => exchange_threat(pos, &Scene::now(pos), sq, piece),
        _ => 0,
    }
}

/// The agents' estimate of `mv` in `pos` (level 9's), for its fork.
fn fork_of(pos: &Position, mv: Move) -> Option<(Bitboard, i32)> {
    let ev = Eval::new(pos, Features::level(9).expect("level 9 exists"));
    let agent = ev.agent(&Scene::now(pos), mv.from());
    let (est, _) = ev.estimate(0, &agent, mv);
    est.fork().filter(|t| t.more_than_one() && est.threat > 0).map(|t| (t, est.threat))
}

/// What the capture `mv` wins by the exchange on its square: what it takes (and a
/// promotion's gain) less what the opponent then wins from the piece that took.
fn exchange_gain(pos: &Position, mv: Move) -> i32 {
    let taken = pos.captured_piece(mv).map_or(0, value);
    let arrives = mv.promotion().unwrap_or(pos.moving_piece(mv));
    let promoted = value(arrives) - value(pos.moving_piece(mv));
    taken + promoted - exchange_threat(pos, &Scene::after(pos, mv), mv.to(), arrives)
}

fn names(pos: &Position, squares: Bitboard) -> String {
    let list: Vec<String> = squares.into_iter().map(|sq| noun(pos.piece_on(sq), sq)).collect();
    match list.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A mate the mover had: in one by the agents' own check (`mating`), longer by the judge.
fn mate_missed(h: &Hindsight) -> Option<Critique> {
    let pos = &h.pos;
    let legal = pos.legal_moves();
    let (mv, moves) = match mate_among(pos, &checks(pos, &legal)) {
        Some(mv) => (mv, 1),
        None => (*h.better.first()?, h.better_mate?),
    };
    let piece = mv.promotion().unwrap_or(pos.moving_piece(mv));
    let (played, text) = (move_text(pos, h.played), move_text(pos, mv));
    let words = match moves {
        1 => format!("{played} misses mate in 1: {text} mates with {}", noun(piece, mv.to())),
        n => format!("{played} misses mate in {n}, which begins {text} ({} to {})", piece_word(piece), mv.to()),
    };
    Some(Critique {
        motif: Motif::MateMissed { moves },
        piece,
        color: pos.side_to_move(),
        square: mv.to(),
        danger: Bitboard::EMPTY,
        key_move: mv,
        key_is_reply: false,
        words,
    })
}

/// A mate the move lets the opponent give: in one by the agents' check, longer by the judge.
fn mate_allowed(h: &Hindsight, after: &Position) -> Option<Critique> {
    let legal = after.legal_moves();
    let (mv, moves) = match mate_among(after, &checks(after, &legal)) {
        Some(mv) => (mv, 1),
        None => (*h.reply.first()?, h.reply_mate?),
    };
    let piece = mv.promotion().unwrap_or(after.moving_piece(mv));
    let (played, text) = (move_text(&h.pos, h.played), move_text(after, mv));
    let words = match moves {
        1 => format!("{played} allows mate in 1: {text}, {} mates", noun(piece, mv.to())),
        n => format!("{played} allows mate in {n}, which begins {text} ({} to {})", piece_word(piece), mv.to()),
    };
    Some(Critique {
        motif: Motif::MateAllowed { moves },
        piece,
        color: after.side_to_move(),
        square: mv.to(),
        danger: after.pieces(h.pos.side_to_move(), Piece::King),
        key_move: mv,
        key_is_reply: true,
        words,
    })
}

/// A capture that the exchange on its square makes a loss, taken back at once.
fn losing_exchange(h: &Hindsight, after: &Position) -> Option<(i32, Critique)> {
    let (pos, mv) = (&h.pos, h.played);
    let victim = pos.captured_piece(mv)?;
    let gain = exchange_gain(pos, mv);
    let reply = *h.reply.first()?;
    if gain >= 0 || captured_square(after, reply) != Some(mv.to()) {
        return None;
    }
    let piece = mv.promotion().unwrap_or(pos.moving_piece(mv));
    let words = format!(
        "{} loses the exchange on {}: {} takes {} {} ({}) and {} takes it back; the exchange comes to {gain}",
        move_text(pos, mv),
        mv.to(),
        piece_word(piece),
        article(victim),
        piece_word(victim),
        value(victim),
        move_text(after, reply),
    );
    let c = Critique {
        motif: Motif::LosingExchange,
        piece,
        color: pos.side_to_move(),
        square: mv.to(),
        danger: mv.to().bb(),
        key_move: reply,
        key_is_reply: true,
        words,
    };
    Some((-gain, c))
}

fn article(piece: Piece) -> &'static str {
    if piece == Piece::Pawn { "a" } else { "the" }
}

/// The opponent's answer takes a piece of ours that stands under a threat after the move: one
/// the move put there or left unguarded (hanging), or one threatened already (threat ignored).
fn left_to_capture(h: &Hindsight, after: &Position) -> Option<(i32, Critique)> {
    let (pos, us) = (&h.pos, h.pos.side_to_move());
    let reply = *h.reply.first()?;
    let sq = captured_square(after, reply)?;
    let piece = after.piece_kind_at(sq)?;
    // Our threats after the move as our agents would see them were it our move again.
    let ours_again = after.null_move();
    let threat = threat_on(&ours_again, sq);
    if threat <= 0 {
        return None;
    }
    let taker = move_text(after, reply);
    let moved_here = h.played.to() == sq;
    if moved_here && h.pos.is_capture(h.played) {
        // A capture taken back: the exchange on the square says what it cost (or that it
        // was an even trade).
        return None;
    }
    let before = if moved_here { 0 } else { threat_on(pos, sq) };
    let (motif, words) = if before > 0 {
        let worst = (pos.by_color(us) & !pos.pieces(us, Piece::King)).into_iter().all(|s| threat_on(pos, s) <= before);
        let which = if worst { ", the worst threat" } else { "" };
        let words = format!(
            "{} ignores the threat to {} ({before}{which}): {taker} takes it",
            move_text(pos, h.played),
            noun(piece, sq)
        );
        (Motif::ThreatIgnored, words)
    } else if moved_here {
        let words = format!(
            "{} puts the {} where {taker} takes it (threat {threat})",
            move_text(pos, h.played),
            piece_word(piece)
        );
        (Motif::Hanging, format!("{words}: {} is left hanging", noun(piece, sq)))
    } else {
        let words =
            format!("{} leaves {} hanging to {taker} (threat {threat})", move_text(pos, h.played), noun(piece, sq));
        (Motif::Hanging, words)
    };
    let c =
        Critique { motif, piece, color: us, square: sq, danger: sq.bb(), key_move: reply, key_is_reply: true, words };
    Some((threat, c))
}

/// The opponent's answer is a fork by its agents' estimate: a move from a safe square with two
/// or more winning captures next (or a check and one).
fn fork_allowed(h: &Hindsight, after: &Position) -> Option<(i32, Critique)> {
    let reply = *h.reply.first()?;
    let (targets, gain) = fork_of(after, reply)?;
    let piece = reply.promotion().unwrap_or(after.moving_piece(reply));
    let ours = targets & after.by_color(h.pos.side_to_move());
    let words = format!(
        "{} allows the fork {}: {} attacks {} (a double move-attack, {gain} guaranteed)",
        move_text(&h.pos, h.played),
        move_text(after, reply),
        noun(piece, reply.to()),
        names(after, ours),
    );
    let c = Critique {
        motif: Motif::ForkAllowed,
        piece,
        color: after.side_to_move(),
        square: reply.to(),
        danger: ours,
        key_move: reply,
        key_is_reply: true,
        words,
    };
    Some((gain, c))
}

/// A passed pawn of theirs promotes in the judge's line after the move (within their first
/// three moves), or is unstoppable after it by the rule of the square and was not before.
fn pawn_let_through(h: &Hindsight, after: &Position) -> Option<(i32, Critique)> {
    let them = after.side_to_move();
    // Their moves in the line are the even ones; follow the promoting pawn back to where it
    // stands after the move played.
    let promoting = h.reply.iter().enumerate().step_by(2).take(3).find(|(_, m)| m.kind() == MoveKind::Promotion);
    let start = match promoting {
        Some((k, promo)) => {
            let mut sq = promo.from();
            for m in h.reply[..k].iter().step_by(2).rev() {
                if m.to() == sq {
                    sq = m.from();
                }
            }
            sq
        }
        None => (after.pieces(them, Piece::Pawn)).into_iter().find(|&sq| {
            // After the move the pawn's side moves first; before it, the defender did.
            unstoppable(after, them, sq, after.occupied(), false)
                && !(h.pos.pieces(them, Piece::Pawn).contains(sq)
                    && unstoppable(&h.pos, them, sq, h.pos.occupied(), true))
        })?,
    };
    if !after.pieces(them, Piece::Pawn).contains(start) || !is_passed(after, them, start) {
        return None;
    }
    let key = h.reply.first().copied().filter(|_| promoting.is_some()).unwrap_or(h.played);
    let how = match promoting {
        Some((_, promo)) => format!("it promotes on {} in the line {}", promo.to(), line_text(after, h.reply, 6)),
        None => "no piece can catch it any more (the rule of the square)".to_string(),
    };
    let words = format!("{} lets the passed pawn on {start} through: {how}", move_text(&h.pos, h.played));
    let c = Critique {
        motif: Motif::PassedPawn,
        piece: Piece::Pawn,
        color: them,
        square: start,
        danger: Bitboard::EMPTY,
        key_move: key,
        key_is_reply: promoting.is_some(),
        words,
    };
    Some((QUEEN_VALUE - PAWN_VALUE, c))
}

/// The first `plies` moves of `line` from `pos`, in the agents' notation.
fn line_text(pos: &Position, line: &[Move], plies: usize) -> String {
    let mut at = *pos;
    let mut words = Vec::new();
    for &m in line.iter().take(plies) {
        if !at.is_legal(m) {
            break;
        }
        words.push(move_text(&at, m));
        at = at.play(m);
    }
    words.join(" ")
}

/// The better move is a capture that wins material by the exchange on its square, more than
/// the move played wins by its own (b7xc6 does not miss Nb8xc6 when both take the queen).
fn capture_missed(h: &Hindsight) -> Option<(i32, Critique)> {
    let pos = &h.pos;
    let mv = *h.better.first()?;
    let sq = captured_square(pos, mv)?;
    let gain = exchange_gain(pos, mv);
    let played_gain = captured_square(pos, h.played).map_or(0, |_| exchange_gain(pos, h.played));
    if gain <= played_gain.max(0) || mv == h.played {
        return None;
    }
    let victim = pos.piece_on(sq);
    let words = format!(
        "{} misses {}, which wins {} (the exchange on {} comes to +{gain})",
        move_text(pos, h.played),
        move_text(pos, mv),
        noun(victim, sq),
        mv.to()
    );
    let c = Critique {
        motif: Motif::CaptureMissed,
        piece: victim,
        color: !pos.side_to_move(),
        square: sq,
        danger: sq.bb(),
        key_move: mv,
        key_is_reply: false,
        words,
    };
    Some((gain, c))
}

/// The better move is a fork by the mover's agents' estimate.
fn fork_missed(h: &Hindsight) -> Option<(i32, Critique)> {
    let pos = &h.pos;
    let mv = *h.better.first()?;
    if mv == h.played {
        return None;
    }
    let (targets, gain) = fork_of(pos, mv)?;
    let piece = mv.promotion().unwrap_or(pos.moving_piece(mv));
    let words = format!(
        "{} misses the fork {}: {} would attack {} (a double move-attack, {gain} guaranteed)",
        move_text(pos, h.played),
        move_text(pos, mv),
        noun(piece, mv.to()),
        names(pos, targets)
    );
    let c = Critique {
        motif: Motif::ForkMissed,
        piece,
        color: pos.side_to_move(),
        square: mv.to(),
        danger: targets & pos.by_color(!pos.side_to_move()),
        key_move: mv,
        key_is_reply: false,
        words,
    };
    Some((gain, c))
}

/// The better move promotes a pawn that is not lost on its square at once.
fn promotion_missed(h: &Hindsight) -> Option<(i32, Critique)> {
    let pos = &h.pos;
    let mv = *h.better.first()?;
    let promoted = mv.promotion().filter(|_| mv != h.played)?;
    let gain = exchange_gain(pos, mv) - pos.captured_piece(mv).map_or(0, value);
    if gain <= 0 {
        return None;
    }
    let words = format!(
        "{} misses the promotion {}: the pawn on {} becomes {}",
        move_text(pos, h.played),
        move_text(pos, mv),
        mv.from(),
        piece_word(promoted)
    );
    let c = Critique {
        motif: Motif::PromotionMissed,
        piece: Piece::Pawn,
        color: pos.side_to_move(),
        square: mv.from(),
        danger: Bitboard::EMPTY,
        key_move: mv,
        key_is_reply: false,
        words,
    };
    Some((gain, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(pos: &Position, list: &[&str]) -> Vec<Move> {
        let mut at = *pos;
        list.iter()
            .map(|t| {
                let m = at.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
                at = at.play(m);
                m
            })
            .collect()
    }

    /// The critique of `played` in `fen`, the judge having found `better` and `reply`.
    fn judge(fen: &str, played: &str, better: &[&str], reply: &[&str], mates: (Option<u32>, Option<u32>)) -> Critique {
        let pos = Position::from_fen(fen).unwrap();
        let played = pos.parse_move(played).unwrap();
        let better = moves(&pos, better);
        let reply = moves(&pos.play(played), reply);
        let h = Hindsight { pos, played, better: &better, better_mate: mates.0, reply: &reply, reply_mate: mates.1 };
        critique(&h).expect("a reason")
    }

    fn at(c: &Critique) -> (Motif, Piece, String) {
        (c.motif, c.piece, c.square.to_string())
    }

    #[test]
    fn a_piece_moved_where_it_is_taken_is_left_hanging() {
        // Nf3-g5 puts the knight where the h6 pawn takes it.
        let c = judge("4k3/8/7p/8/8/5N2/8/4K3 w - - 0 1", "Ng5", &["Kd2"], &["hxg5"], (None, None));
        assert_eq!(at(&c), (Motif::Hanging, Piece::Knight, "g5".into()), "{c}");
        assert!(c.to_string().contains("knight on g5"), "{c}");
    }

    #[test]
    fn a_threat_left_standing_is_ignored() {
        // The rook a1 is attacked by the bishop; White pushes a pawn instead.
        let c = judge("4k3/8/8/8/3b4/8/7P/R3K3 w - - 0 1", "h3", &["Rd1"], &["Bxa1"], (None, None));
        assert_eq!(at(&c), (Motif::ThreatIgnored, Piece::Rook, "a1".into()), "{c}");
        assert_eq!(
            c.to_string(),
            "h2-h3 ignores the threat to the rook on a1 (500, the worst threat): Bd4xa1 takes it"
        );
    }

    #[test]
    fn a_capture_taken_back_at_a_loss_is_a_losing_exchange() {
        // Qd1xd5 takes a pawn the e6 pawn guards.
        let c = judge("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "Qxd5", &["Ke2"], &["exd5"], (None, None));
        assert_eq!(at(&c), (Motif::LosingExchange, Piece::Queen, "d5".into()), "{c}");
        assert!(c.to_string().contains("comes to -800"), "{c}");
    }

    #[test]
    fn a_knight_fork_allowed_names_the_knight_and_its_targets() {
        // The queen stops guarding c2: the knight d4 jumps there with check, attacking the king
        // e1, the rook a1 and the queen e3.
        let c = judge("7k/8/8/8/3n4/8/4Q3/R3K3 w - - 0 1", "Qe3", &["Qd3"], &["Nc2+"], (None, None));
        assert_eq!(at(&c), (Motif::ForkAllowed, Piece::Knight, "c2".into()), "{c}");
        assert!(c.danger.contains(Square::parse("a1").unwrap()), "{c:?}");
        assert!(c.to_string().contains("fork"), "{c}");
    }

    #[test]
    fn mates_missed_and_allowed() {
        // Back-rank mate in one: Ra1-a8.
        let c = judge("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Kf1", &["Ra8#"], &["Kf8"], (Some(1), None));
        assert_eq!(at(&c), (Motif::MateMissed { moves: 1 }, Piece::Rook, "a8".into()), "{c}");
        // White lets Black mate on the back rank.
        let c = judge("r5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", "Kf1", &["h3"], &["Ra1#"], (None, Some(1)));
        assert_eq!(at(&c), (Motif::MateAllowed { moves: 1 }, Piece::Rook, "a1".into()), "{c}");
        assert!(c.to_string().starts_with("Kg1-f1 allows mate in 1: Ra8-a1"), "{c}");
    }

    #[test]
    fn a_passed_pawn_promoting_in_the_line_is_let_through() {
        // The king walks away from the b-pawn, which queens.
        let c = judge("8/8/8/8/8/1p6/2K5/7k w - - 0 1", "Kd2", &["Kb2"], &["b2", "Kc2", "b1=Q+"], (None, None));
        assert_eq!(at(&c), (Motif::PassedPawn, Piece::Pawn, "b3".into()), "{c}");
    }

    #[test]
    fn a_long_mate_gives_way_to_the_pawn_that_queens_first() {
        // The bishop leaves b1's diagonal: the pawn queens, and the judge sees mate in 5.
        let fen = "8/8/8/8/8/4k3/1pB5/6K1 w - - 0 1";
        let c = judge(fen, "Bd1", &["Kf1"], &["b1=Q"], (None, Some(5)));
        assert_eq!(at(&c), (Motif::PassedPawn, Piece::Pawn, "b2".into()), "{c}");
        // A mate in 3 is the reason itself.
        let c = judge(fen, "Bd1", &["Kf1"], &["b1=Q"], (None, Some(3)));
        assert_eq!(c.motif, Motif::MateAllowed { moves: 3 }, "{c}");
    }

    #[test]
    fn a_winning_capture_not_played_is_missed() {
        // The rook d8 hangs to the bishop; White moves the king.
        let c = judge("3r2k1/8/8/B7/8/8/8/K7 w - - 0 1", "Ka2", &["Bxd8"], &["Rd2+"], (None, None));
        assert_eq!((c.motif, c.piece), (Motif::CaptureMissed, Piece::Rook), "{c}");
    }

    #[test]
    fn a_capture_that_takes_the_same_piece_misses_nothing() {
        // Both b7xc6 and Nb8xc6 take the queen: the judge's preference is no missed capture.
        let fen = "rnbk1bnr/ppp1pppp/2Q5/8/4P3/8/PP1P1PPP/RNB1KBNR b KQ - 0 5";
        let pos = Position::from_fen(fen).unwrap();
        let (played, better) = (pos.parse_move("b7c6").unwrap(), moves(&pos, &["b8c6", "g1f3"]));
        let reply = moves(&pos.play(played), &["g1f3"]);
        let h = Hindsight { pos, played, better: &better, better_mate: None, reply: &reply, reply_mate: None };
        assert!(critique(&h).is_none_or(|c| c.motif != Motif::CaptureMissed), "{:?}", critique(&h));
        // Taking a pawn instead of the queen still misses it.
        let played = pos.parse_move("e7e5").unwrap();
        let h = Hindsight { played, reply: &[], ..h };
        assert_eq!(critique(&h).map(|c| (c.motif, c.piece)), Some((Motif::CaptureMissed, Piece::Queen)));
    }
}
