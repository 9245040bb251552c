//! The knight, bishop, rook and queen agents: each judges its own square by the squares it can
//! use safely (not our own, not covered by their pawns), what the square is (an outpost, an
//! open file, the seventh rank, the centre, still home), how much of their king's zone it
//! bears on and the checks it could give there unopposed, whether a pawn shields it from the
//! front; and what stands attacked by a pawn, or would be by a safe pawn push.

use super::pawns::{ATTACK_SPAN, relative_rank};
use super::score::Sink;
use super::terms::*;
use crate::board::{Bitboard, Color, Piece, Position, Square, attacks};

/// How much each kind of piece adds to an attack on the king's zone.
fn attack_weight(piece: Piece) -> i32 {
    match piece {
        Piece::Knight | Piece::Bishop => 2,
        Piece::Rook => 3,
        Piece::Queen => 5,
        _ => 0,
    }
}

/// The square is one their pawns can never attack, and one of ours guards it, in their half.
fn outpost(us: Color, sq: Square, our_pawn_attacks: Bitboard, their_pawns: Bitboard) -> bool {
    (3..=5).contains(&relative_rank(us, sq))
        && our_pawn_attacks.contains(sq)
        && (Bitboard(ATTACK_SPAN[us.index()][sq.index()]) & their_pawns).is_empty()
}

/// Our knights and bishops with a pawn, of either side, just in front of them: shielded from
/// the front.
fn minors_behind_pawns(pos: &Position, us: Color) -> i32 {
    let minors = pos.pieces(us, Piece::Knight) | pos.pieces(us, Piece::Bishop);
    (minors.forward(us == Color::White) & pos.by_piece(Piece::Pawn)).count() as i32
}

/// Their pieces (king included, pawns not) one of our pawns would attack with a push, single
/// or double, to a square their pawns do not attack and their pieces do not attack unless ours
/// defend it; `attacked` is every square each side attacks, `their_pawn_attacks` the squares
/// their pawns attack.
fn push_threats(pos: &Position, us: Color, attacked: [Bitboard; 2], their_pawn_attacks: Bitboard) -> i32 {
    let white = us == Color::White;
    let them = !us;
    let empty = !pos.occupied();
    let ours = pos.pieces(us, Piece::Pawn);
    let single = ours.forward(white) & empty;
    let third = Bitboard::rank(if white { 2 } else { 5 });
    let pushes = single | ((single & third).forward(white) & empty);
    let safe = pushes & !their_pawn_attacks & (attacked[us.index()] | !attacked[them.index()]);
    let targets = pos.by_color(them) & !pos.pieces(them, Piece::Pawn);
    (safe.pawn_attacks(white) & targets).count() as i32
}

/// The pieces' terms of both sides into `sink`; returned, the weight of the attack each side's
/// king's zone is under and the squares each side attacks (White's first).
pub(super) fn pieces(pos: &Position, sink: &mut impl Sink) -> ([i32; 2], [Bitboard; 2]) {
    let t = attacks::tables();
    let occ = pos.occupied();
    let attacked = [pos.attacked_by(Color::White, occ), pos.attacked_by(Color::Black, occ)];
    let mut danger = [0; 2];
    for us in Color::BOTH {
        let them = !us;
        let white = us == Color::White;
        let our_pawns = pos.pieces(us, Piece::Pawn);
        let their_pawns = pos.pieces(them, Piece::Pawn);
        let our_pawn_attacks = our_pawns.pawn_attacks(white);
        let their_pawn_attacks = their_pawns.pawn_attacks(!white);
        let safe = !pos.by_color(us) & !their_pawn_attacks;
        let their_king = pos.king_square(them);
        let zone = t.king(their_king).with(their_king);
        // Squares a piece would check their king from that nothing of theirs covers: a check
        // there costs the attacker nothing.
        let uncovered = !pos.by_color(us) & !attacked[them.index()];
        let (diagonal_checks, straight_checks) = (t.bishop(their_king, occ), t.rook(their_king, occ));
        let mut weight = 0;
        let mut attackers = 0;
        sink.side(us, MINOR_BEHIND_PAWN, minors_behind_pawns(pos, us));
        sink.side(us, PAWN_PUSH_THREAT, push_threats(pos, us, attacked, their_pawn_attacks));
        for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
            for sq in pos.pieces(us, piece) {
                let reach = match piece {
                    Piece::Knight => t.knight(sq),
                    Piece::Bishop => t.bishop(sq, occ),
                    Piece::Rook => t.rook(sq, occ),
                    _ => t.queen(sq, occ),
                };
                let mobility = (reach & safe).count() as usize;
                let rank = relative_rank(us, sq);
                if (reach & zone).any() {
                    weight += attack_weight(piece);
                    attackers += 1;
                }
                if their_pawn_attacks.contains(sq) {
                    sink.side(us, THREAT_BY_PAWN, 1);
                }
                let checks = match piece {
                    Piece::Knight => t.knight(their_king),
                    Piece::Bishop => diagonal_checks,
                    Piece::Rook => straight_checks,
                    _ => diagonal_checks | straight_checks,
                };
                let safe_checks = (reach & checks & uncovered).count() as i32;
                if safe_checks > 0 {
                    sink.side(us, SAFE_CHECK + piece.index() - Piece::Knight.index(), safe_checks);
                }
                match piece {
                    Piece::Knight => {
                        sink.side(us, KNIGHT_MOBILITY + mobility.min(8), 1);
                        if outpost(us, sq, our_pawn_attacks, their_pawns) {
                            sink.side(us, KNIGHT_OUTPOST, 1);
                        }
                    }
                    Piece::Bishop => {
                        sink.side(us, BISHOP_MOBILITY + mobility.min(13), 1);
                        if outpost(us, sq, our_pawn_attacks, their_pawns) {
                            sink.side(us, BISHOP_OUTPOST, 1);
                        }
                        let colour = if Bitboard::LIGHT_SQUARES.contains(sq) {
                            Bitboard::LIGHT_SQUARES
                        } else {
                            Bitboard::DARK_SQUARES
                        };
                        sink.side(us, BISHOP_OWN_PAWNS, (our_pawns & colour).count() as i32);
                    }
                    Piece::Rook => {
                        sink.side(us, ROOK_MOBILITY + mobility.min(14), 1);
                        let file = Bitboard::file(sq.file());
                        if (file & our_pawns).is_empty() {
                            let open = (file & their_pawns).is_empty();
                            sink.side(us, if open { ROOK_OPEN_FILE } else { ROOK_HALF_OPEN_FILE }, 1);
                        }
                        let their_back = relative_rank(us, their_king) == 7;
                        let pawns_on_seventh =
                            (their_pawns & Bitboard::rank(Square::new(0, 6).relative(us).rank())).any();
                        if rank == 6 && (their_back || pawns_on_seventh) {
                            sink.side(us, ROOK_SEVENTH, 1);
                        }
                    }
                    _ => sink.side(us, QUEEN_MOBILITY + mobility.min(27), 1),
                }
            }
        }
        if pos.pieces(us, Piece::Bishop).more_than_one() {
            sink.side(us, BISHOP_PAIR, 1);
        }
        // A lone piece near the king is no attack yet.
        danger[them.index()] = if attackers >= 2 { weight } else { 0 };
        // Without a queen an attack on the king rarely mates: half its weight.
        if pos.pieces(us, Piece::Queen).is_empty() {
            danger[them.index()] /= 2;
        }
    }
    (danger, attacked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::judgement::score::Trace;

    fn trace(fen: &str) -> (Trace, [i32; 2]) {
        let pos = Position::from_fen(fen).unwrap();
        let mut t = Trace::default();
        let (danger, _) = pieces(&pos, &mut t);
        (t, danger)
    }

    #[test]
    fn mobility_counts_the_squares_not_covered_by_pawns() {
        // The knight on d4 reaches 8 squares; Black's pawn on e6 covers f5, one of them.
        let (t, _) = trace("4k3/8/3pp3/8/3N4/8/8/4K3 w - - 0 1");
        assert_eq!(t.counts[KNIGHT_MOBILITY + 7], 1);
    }

    #[test]
    fn an_outpost_an_open_file_and_the_seventh() {
        // Knight e5 guarded by d4, no black pawn on d or f files to chase it: an outpost. The
        // rook on the a-file (no pawns) on the seventh, Black's king on its back rank.
        let (t, _) = trace("4k3/R7/8/4N3/3P4/8/8/4K3 w - - 0 1");
        assert_eq!(t.counts[KNIGHT_OUTPOST], 1);
        assert_eq!(t.counts[ROOK_OPEN_FILE], 1);
        assert_eq!(t.counts[ROOK_SEVENTH], 1);
        // A black pawn on f7 can come to f6 and chase the knight.
        let (t, _) = trace("4k3/R4p2/8/4N3/3P4/8/8/4K3 w - - 0 1");
        assert_eq!(t.counts[KNIGHT_OUTPOST], 0);
    }

    #[test]
    fn a_check_from_a_square_they_do_not_cover_is_safe() {
        // The rook on d1 can check on d8, which Black's king on g8 does not cover.
        let (t, _) = trace("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        assert_eq!(t.counts[SAFE_CHECK + 2], 1);
        // With a black rook on a8 covering d8 the check is no longer safe.
        let (t, _) = trace("r5k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        assert_eq!(t.counts[SAFE_CHECK + 2], 0);
        // The knight on g4 can check on f6 and h6, both covered by the pawn on g7.
        let (t, _) = trace("6k1/6pp/8/8/6N1/8/8/6K1 w - - 0 1");
        assert_eq!(t.counts[SAFE_CHECK], 0);
        let (t, _) = trace("6k1/7p/8/8/6N1/8/8/6K1 w - - 0 1");
        assert_eq!(t.counts[SAFE_CHECK], 2, "f6 and h6 uncovered once g7's pawn is gone");
    }

    #[test]
    fn a_minor_behind_a_pawn_of_either_side() {
        // The knight on e4 behind Black's pawn on e5, the bishop on d3 behind White's on d4;
        // the knight on b1 has nothing in front.
        let pos = Position::from_fen("4k3/8/8/4p3/3PN3/3B4/8/1N2K3 w - - 0 1").unwrap();
        assert_eq!(minors_behind_pawns(&pos, Color::White), 2);
        assert_eq!(minors_behind_pawns(&pos, Color::Black), 0);
    }

    #[test]
    fn a_pawn_push_that_would_attack_a_piece() {
        let threats = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let occ = pos.occupied();
            let attacked = [pos.attacked_by(Color::White, occ), pos.attacked_by(Color::Black, occ)];
            push_threats(&pos, Color::White, attacked, pos.pieces(Color::Black, Piece::Pawn).pawn_attacks(false))
        };
        // d2-d4 (double) would attack the knights on c5 and e5.
        assert_eq!(threats("4k3/8/8/2n1n3/8/8/3P4/4K3 w - - 0 1"), 2);
        // With Black's pawn on c5 instead of the knight, d4 is covered by a pawn: no push.
        assert_eq!(threats("4k3/8/8/2p1n3/8/8/3P4/4K3 w - - 0 1"), 0);
        // A rook on d8 covers d4 and nothing of White's defends it; a bishop on f2 does.
        assert_eq!(threats("3rk3/8/8/4n3/8/8/3P4/4K3 w - - 0 1"), 0);
        assert_eq!(threats("3rk3/8/8/4n3/8/8/3P1B2/4K3 w - - 0 1"), 1);
    }

    #[test]
    fn an_attack_without_a_queen_weighs_half() {
        // Two rooks bear on the black king's zone (3 + 3), with and without the queen on b2
        // (which adds 5).
        let (_, danger) = trace("6k1/5ppp/8/8/8/8/8/K5RR w - - 0 1");
        assert_eq!(danger, [0, 3]);
        let (_, danger) = trace("6k1/5ppp/8/8/8/8/1Q6/K5RR w - - 0 1");
        assert_eq!(danger, [0, 11]);
    }

    #[test]
    fn two_pieces_near_the_king_are_an_attack() {
        // Queen and rook bear on the black king's zone; one queen alone is no attack.
        let (_, danger) = trace("6k1/5ppp/8/8/8/8/1Q6/K5R1 w - - 0 1");
        assert_eq!(danger, [0, 8]);
        let (_, danger) = trace("6k1/5ppp/8/8/8/8/1Q6/K7 w - - 0 1");
        assert_eq!(danger, [0, 0]);
    }
}
