//! The mating net (level 9, `mating`): against a bare king (perhaps with pawns), every legal
//! move is judged by the worst the defending king can make of it, by the box it is confined to,
//! our king's distance and the edge; without a queen or rook, by a pawn run led by our king or by
//! bishop and knight driving the king to the bishop's corner. See `mating_net`.

use super::by_checks::mate_in_one;
use crate::agents::limits::MATING_NET_PLIES;
use crate::board::values::value;
use crate::board::{Bitboard, Color, Game, Move, MoveList, Piece, Position, Square, attacks};

/// The mating net applies: the opponent has only its king and pawns, and we have a queen or a
/// rook to drive it with.
pub(crate) fn is_mating_phase(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let their_pieces = pos.by_color(them) & !(pos.pieces(them, Piece::King) | pos.pieces(them, Piece::Pawn));
    let bare = pos.by_color(them).count() == 1;
    their_pieces.is_empty()
        && (has_heavy(pos, us) || (bare && (pos.pieces(us, Piece::Pawn).any() || minor_mate(pos, us).is_some())))
}

/// Without a queen or rook against a bare king the net is first a pawn run, led by the most
/// advanced pawn (lower is better, and any position with a queen or rook, scored by
/// `net_score`, is better still):
/// - a pawn their king can no longer catch (outside its square, thesis 6's "rule of the square")
///   just runs, and each step forward counts;
/// - otherwise our king leads it in: it heads for the squares two ranks in front of the pawn on a
///   neighbouring file (from there it clears the way; standing on the pawn's own path only
///   blocks it), and a pawn nearer their king than ours with no piece to guard it is in danger;
/// - a pawn next to their king with nothing of ours guarding it is lost.
fn run_score(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let pawns = pos.pieces(us, Piece::Pawn);
    let Some(lead) = pawns.into_iter().max_by_key(|sq| sq.relative(us).rank()) else { return 2 * RUN_OFFSET };
    let rank = lead.relative(us).rank() as i32;
    let (ours, theirs) = (pos.king_square(us), pos.king_square(!us));
    let their_reach = attacks::king(theirs);
    let guarded = |p: Square| pos.attackers_to(p, us, pos.occupied()).any();
    let loose = (pawns & their_reach).into_iter().filter(|&p| !guarded(p)).count() as i32;
    let mut score = RUN_OFFSET - rank * 20 + loose * 60;
    if !runs_free(pos, lead) {
        let ahead = |df: i8| lead.relative(us).offset(df, 2.min(7 - rank as i8)).map(|s| s.relative(us));
        let key = [ahead(-1), ahead(1)].into_iter().flatten().map(|k| ours.distance(k)).min().unwrap_or(0);
        let blocks = on_path(ours, lead, us);
        let pieces = pos.by_color(us) & !(pos.pieces(us, Piece::King) | pawns);
        let guarded_by_piece = (pos.attackers_to(lead, us, pos.occupied()) & pieces).any();
        let in_danger = !guarded_by_piece && theirs.distance(lead) < ours.distance(lead);
        score += key * 6 + i32::from(blocks) * 40 + i32::from(in_danger) * 40;
    }
    score
}

/// Can the pawn on `pawn` (ours, our move) queen before their king catches it? The pawn's moves
/// to the last rank (one fewer from its first rank) against their king's steps to the queening
/// square; our own king on its path stops it.
fn runs_free(pos: &Position, pawn: Square) -> bool {
    let us = pos.side_to_move();
    let rank = pawn.relative(us).rank() as i32;
    let queening = Square::new(pawn.file(), 7).relative(us);
    let steps = if rank == 1 { 5 } else { 7 - rank };
    !on_path(pos.king_square(us), pawn, us) && pos.king_square(!us).distance(queening) > steps
}

/// Is `sq` on the path of `us`'s pawn on `pawn`, ahead of it on its file?
fn on_path(sq: Square, pawn: Square, us: Color) -> bool {
    sq.file() == pawn.file() && sq.relative(us).rank() > pawn.relative(us).rank()
}

/// What a knight's or bishop's move costs in the mating net while a queen or rook does the
/// driving: such a step is seldom progress and always a new position, so without a cost the
/// net could shuffle a minor piece until the fifty-move rule.
const MINOR_STEP_COST: i32 = 200;

/// Above any `net_score`: a pawn still running is worse than a queen or rook on the board.
const RUN_OFFSET: i32 = 1_000_000;

/// Bishop and knight (or two bishops on both colours) and no pawn: the colour of the corners
/// the defending king must be driven to (true: light squares; two bishops: any corner, None
/// when neither).
fn minor_mate(pos: &Position, side: Color) -> Option<Option<bool>> {
    if pos.pieces(side, Piece::Pawn).any() {
        return None; // pawns are to be queened first (`run_score`)
    }
    let bishops = pos.pieces(side, Piece::Bishop);
    let knights = pos.pieces(side, Piece::Knight);
    let light = |sq: Square| (sq.file() + sq.rank()) % 2 == 1;
    let colours = bishops.into_iter().fold((false, false), |(l, d), b| (l || light(b), d || !light(b)));
    if colours.0 && colours.1 {
        return Some(None); // bishops on both colours mate in any corner, knights or not
    }
    (bishops.any() && knights.any()).then(|| Some(light(bishops.lsb())))
}

/// The corners a bishop-and-knight mate can happen in: those of the bishop's colour (true:
/// light), or all four (None, bishops on both colours).
fn mating_corners(light: Option<bool>) -> impl Iterator<Item = Square> {
    [Square::new(0, 0), Square::new(7, 0), Square::new(0, 7), Square::new(7, 7)]
        .into_iter()
        .filter(move |&c| light.is_none_or(|l| ((c.file() + c.rank()) % 2 == 1) == l))
}

/// Distance of `sq` from the nearest corner of the colour a bishop-and-knight mate needs.
fn corner_distance(sq: Square, light: Option<bool>) -> i32 {
    mating_corners(light).map(|c| sq.distance(c)).min().unwrap_or(0)
}

fn has_heavy(pos: &Position, side: Color) -> bool {
    (pos.pieces(side, Piece::Queen) | pos.pieces(side, Piece::Rook)).any()
}

/// The squares the king of `defender` could reach, one king step at a time, through squares
/// that no piece of the attacker attacks (seen through the defending king) and that hold none of
/// its own pieces: the box it is confined to.
pub(crate) fn king_box(pos: &Position, defender: Color) -> Bitboard {
    let king = pos.king_square(defender);
    let open = !covered_for_king(pos, defender) & !pos.by_color(defender);
    let mut reach = king.bb();
    loop {
        let mut grown = reach;
        for sq in reach {
            grown |= attacks::king(sq) & open;
        }
        if grown == reach {
            return reach;
        }
        reach = grown;
    }
}

/// The squares next to the king of `defender` that it could step to: none of the attacker's
/// pieces attacks them (seen through the king) and none of its own stands there.
fn king_mobility(pos: &Position, defender: Color) -> i32 {
    let king = pos.king_square(defender);
    (attacks::king(king) & !covered_for_king(pos, defender) & !pos.by_color(defender)).count() as i32
}

/// The squares the attacker's pieces attack, seen through the king of `defender` (a king
/// stepping back along a checking line is still in check).
fn covered_for_king(pos: &Position, defender: Color) -> Bitboard {
    let occ = pos.occupied().without(pos.king_square(defender));
    let attacker = !defender;
    let mut covered = Bitboard::EMPTY;
    for sq in pos.by_color(attacker) {
        let (_, piece) = pos.piece_at(sq).expect("a piece of the attacker");
        covered |= attacks::piece_attacks(piece, attacker, sq, occ);
    }
    covered
}

/// King steps along files and ranks from `sq` to the nearest corner of the bishop's colour: unlike
/// `corner_distance` it still falls as the king is pushed along the edge toward that corner.
fn corner_steps(sq: Square, light: bool) -> i32 {
    mating_corners(Some(light))
        .map(|c| (sq.file() as i32 - c.file() as i32).abs() + (sq.rank() as i32 - c.rank() as i32).abs())
        .min()
        .unwrap_or(0)
}

/// How far the bare king is from being mated by bishop and knight in `pos` (the attacker to
/// move; lower is better). The box that measures the heavy pieces' net says little here (a
/// bishop and a knight cut off no rank or file), so the drive is measured by what the mate
/// needs: the king in a corner of the bishop's colour (`corner_distance`, and `corner_steps`
/// along the edge), our king near it and in front of it toward the centre, knight and bishop
/// close, and the fewest squares it would keep after our best next move. Two of our pieces
/// within its reach where one is unguarded lose one of them (the king takes the loose one, or
/// the guard when the loose one moves): that counts as a piece lost.
/// The weights were tuned on `endgame KBNK` runs (docs/agents.md, `mating`).
fn bishop_knight_score(pos: &Position, light: bool) -> i32 {
    let us = pos.side_to_move();
    let them = !us;
    let theirs = pos.king_square(them);
    let legal = pos.legal_moves();
    if mate_in_one(pos, &legal).is_some() {
        return -1000;
    }
    let reach = attacks::king(theirs);
    let near = pos.by_color(us) & !pos.pieces(us, Piece::King) & reach;
    let loose = near.into_iter().filter(|&p| !pos.attackers_to(p, us, pos.occupied()).any()).count() as i32;
    let falls = loose >= 1 && near.count() >= 2;
    let mobility = king_mobility(pos, them);
    let next = legal
        .iter()
        .filter(|&&mv| !hangs(pos, mv))
        .map(|&mv| king_mobility(&pos.play(mv), them))
        .min()
        .unwrap_or(mobility);
    let ours = pos.king_square(us);
    // Our king belongs in front of theirs, toward the centre; knight and bishop close by.
    let toward = |c: u8| if c < 4 { 2 } else { -2 };
    let in_front = theirs.offset(toward(theirs.file()), toward(theirs.rank())).unwrap_or(theirs);
    let near = |kind: Piece| pos.pieces(us, kind).into_iter().map(|sq| sq.distance(theirs)).min().unwrap_or(0);
    corner_distance(theirs, Some(light)) * 130
        + corner_steps(theirs, light) * 13
        + ours.distance(theirs) * 4
        + ours.distance(in_front) * 3
        + near(Piece::Knight) * 6
        + near(Piece::Bishop) * 3
        + next * 9
        + theirs.edge_distance() * 4
        + if falls { 30_000 } else { loose * 40 }
}

/// How far the defending king is from being mated in `pos` (the attacker to move): the box it
/// would be left after our best next move (so that a cut or a check the position allows counts
/// now, which is how the rook wins its tempo), then the box now, our king's distance to theirs,
/// and its distance from the edge. Lower is better for the attacker.
fn net_score(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let minor = if has_heavy(pos, us) { None } else { minor_mate(pos, us) };
    if let Some(Some(light)) = minor {
        return bishop_knight_score(pos, light);
    }
    let them = !us;
    let theirs = pos.king_square(them);
    let legal = pos.legal_moves();
    if mate_in_one(pos, &legal).is_some() {
        return -1000;
    }
    let region = king_box(pos, them);
    let now = region.count() as i32;
    let next = legal
        .iter()
        .filter(|&&mv| !hangs(pos, mv))
        .map(|&mv| king_box(&pos.play(mv), them).count() as i32)
        .min()
        .unwrap_or(now);
    let ours = pos.king_square(us);
    // Our king behind their king, between it and the edge it is driven to, cannot help mate.
    let behind = if in_band(ours, region) { 48 } else { 0 };
    // With bishops on both colours only the corners mate: drive the king there.
    let edge = match minor {
        Some(light) => corner_distance(theirs, light) * 60,
        None => theirs.edge_distance() * 2,
    };
    next * 16 + now * 4 + ours.distance(opposition_square(theirs, region)) * 8 + ours.distance(theirs) + edge + behind
}

/// Is `sq` within the rows (or files) that the box `region` spans along its narrow side, where
/// the edge it is pressed against lies? Only meaningful for a box against an edge.
fn in_band(sq: Square, region: Bitboard) -> bool {
    let (mut files, mut ranks) = ((8u8, 0u8), (8u8, 0u8));
    for s in region {
        files = (files.0.min(s.file()), files.1.max(s.file()));
        ranks = (ranks.0.min(s.rank()), ranks.1.max(s.rank()));
    }
    let edge_rank = ranks.0 == 0 || ranks.1 == 7;
    let edge_file = files.0 == 0 || files.1 == 7;
    if ranks.1 - ranks.0 <= files.1 - files.0 && edge_rank {
        (ranks.0..=ranks.1).contains(&sq.rank())
    } else if edge_file {
        (files.0..=files.1).contains(&sq.file())
    } else {
        false
    }
}

/// Where our king belongs to help mate the king on `king` confined to `region`: two steps in
/// front of it, toward the centre, across the narrow side of its box (the king that will be
/// checked along the edge must face ours there, in opposition).
fn opposition_square(king: Square, region: Bitboard) -> Square {
    let (mut files, mut ranks) = ((8u8, 0u8), (8u8, 0u8));
    for sq in region {
        files = (files.0.min(sq.file()), files.1.max(sq.file()));
        ranks = (ranks.0.min(sq.rank()), ranks.1.max(sq.rank()));
    }
    let toward = |c: u8| if c < 4 { 2 } else { -2 };
    let along_ranks = ranks.1 - ranks.0 <= files.1 - files.0;
    let (df, dr) = if along_ranks { (0, toward(king.rank())) } else { (toward(king.file()), 0) };
    king.offset(df, dr).unwrap_or(king)
}

/// Would our move leave the moved piece next to their king with nothing of ours guarding it?
fn hangs(pos: &Position, mv: Move) -> bool {
    let us = pos.side_to_move();
    let piece = pos.moving_piece(mv);
    if piece == Piece::King || !attacks::king(pos.king_square(!us)).contains(mv.to()) {
        return false;
    }
    let occ = pos.occupied().without(mv.from()).with(mv.to());
    !pos.attackers_to(mv.to(), us, occ).without(mv.from()).any()
}

/// Material of `side` (thesis values, kings left out).
fn material(pos: &Position, side: Color) -> i32 {
    Piece::ALL[..5].iter().map(|&p| value(p) * pos.pieces(side, p).count() as i32).sum()
}

// Our every move and their every reply: the two loops of `mating_net`.
const _: () = assert!(MATING_NET_PLIES == 2, "mating_net weighs every move of ours against every reply");

/// Our move in the mating phase, and a few words on it, or None when no legal move is left.
/// `game` gives the positions so far, so that none is repeated.
pub(crate) fn mating_net(
    game: &Game,
    legal: &MoveList,
    pick: &mut dyn FnMut(usize) -> usize,
) -> Option<(Move, String)> {
    let pos = game.position();
    if let Some(mv) = mate_in_one(pos, legal) {
        return Some((mv, "mate".to_string()));
    }
    let us = pos.side_to_move();
    let seen: Vec<u64> = game_hashes(game);
    let times = |hash: u64| seen.iter().filter(|&&h| h == hash).count();
    // (rank, score): rank 0 is a sound move, 1 one that repeats a position, 2 one that
    // stalemates or lets the defender repeat a position a third time; only the best rank is
    // chosen from, and within it the lowest worst-reply score (a piece lost counts heavily).
    let mut best: Option<((u8, i32), Vec<Move>)> = None;
    for &mv in legal.iter() {
        let after = pos.play(mv);
        let replies = after.legal_moves();
        // No reply is stalemate (mate was found above): a draw, as is a reply that repeats a
        // position a third time.
        let rank = if replies.is_empty()
            || times(after.hash()) >= 2
            || replies.iter().any(|&r| times(after.play(r).hash()) >= 2)
        {
            2
        } else if times(after.hash()) >= 1 || after.halfmove_clock() >= 100 {
            1
        } else {
            0
        };
        // A reply that takes a piece of ours or promotes a pawn of theirs outweighs any box.
        let mut worst = i32::MIN;
        let mut loses = false;
        for &reply in replies.iter() {
            let next = after.play(reply);
            let lost = material(&after, us) - material(&next, us) + material(&next, !us) - material(&after, !us);
            loses |= lost > 0;
            let net = has_heavy(&next, us) || (next.by_color(!us).count() == 1 && minor_mate(&next, us).is_some());
            let score = if net { net_score(&next) } else { run_score(&next) } + lost * 100;
            worst = worst.max(score);
        }
        // Losing material is worse than repeating a position once (with bishop and knight it
        // is the draw itself).
        let rank = if loses { rank.max(1) } else { rank };
        // Beside a queen or rook a minor piece's step is seldom progress, and always a new
        // position: without a cost the net could shuffle it until the fifty-move rule.
        let minor = matches!(pos.piece_kind_at(mv.from()), Some(Piece::Knight | Piece::Bishop));
        let worst = if minor && has_heavy(pos, us) { worst + MINOR_STEP_COST } else { worst };
        let key = (rank, worst);
        match &mut best {
            Some((k, moves)) if key == *k => moves.push(mv),
            Some((k, _)) if key > *k => {}
            _ => best = Some((key, vec![mv])),
        }
    }
    let ((rank, score), moves) = best?;
    let mv = moves[pick(moves.len())];
    let after = pos.play(mv);
    let words = format!(
        "box {} squares, worst reply {score}{}",
        king_box(&after, !us).count(),
        if rank > 0 { " (no sound move)" } else { "" }
    );
    Some((mv, words))
}

/// The hashes of every position of the game with the side to move of the current one's
/// opponent, i.e. the positions our move could repeat.
fn game_hashes(game: &Game) -> Vec<u64> {
    game.position_hashes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn bishop_and_knight_drive_to_the_bishops_corner() {
        // The bishop on c1 (dark): a1 and h8 are the mating corners.
        let p = pos("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1");
        assert!(is_mating_phase(&p));
        assert_eq!(minor_mate(&p, Color::White), Some(Some(false)));
        assert_eq!(corner_distance(Square::parse("b2").unwrap(), Some(false)), 1);
        assert_eq!(corner_distance(Square::parse("b7").unwrap(), Some(false)), 6);
        // Two bishops on both colours: any corner.
        let p = pos("8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1");
        assert_eq!(minor_mate(&p, Color::White), Some(None));
        assert_eq!(corner_distance(Square::parse("b7").unwrap(), None), 1);
        // With a knight beside them too: still any corner, not the first bishop's.
        assert_eq!(minor_mate(&pos("8/8/8/4k3/8/8/8/2B1KBN1 w - - 0 1"), Color::White), Some(None));
        // Two knights cannot force mate, and with a pawn the pawn is queened first.
        assert!(!is_mating_phase(&pos("8/8/8/4k3/8/8/8/2N1KN2 w - - 0 1")));
        assert_eq!(minor_mate(&pos("8/8/8/4k3/8/8/4P3/2B1KN2 w - - 0 1"), Color::White), None);
    }

    #[test]
    fn a_pawn_outside_the_kings_square_runs_free() {
        let a3 = Square::parse("a3").unwrap();
        // Five moves to queen (the first a double step would be four) against seven king steps.
        assert!(runs_free(&pos("8/8/8/8/8/P7/8/K6k w - - 0 1"), a3));
        // Their king on e5 reaches a8 in four.
        assert!(!runs_free(&pos("8/8/8/4k3/8/P7/8/K7 w - - 0 1"), a3));
        // Our own king on its path stops it.
        assert!(!runs_free(&pos("K7/8/8/8/8/P7/8/7k w - - 0 1"), a3));
        // Black's pawn runs down the board.
        assert!(runs_free(&pos("k6K/8/p7/8/8/8/8/8 b - - 0 1"), Square::parse("a6").unwrap()));
        assert!(!runs_free(&pos("k7/8/p7/8/4K3/8/8/8 b - - 0 1"), Square::parse("a6").unwrap()));
    }

    #[test]
    fn corner_steps_fall_along_the_edge_toward_the_bishops_corner() {
        // Dark corners a1 and h8: from a8 (a light corner) seven steps, fewer each step down.
        let steps: Vec<i32> =
            ["a8", "a7", "a6", "a2", "a1"].iter().map(|s| corner_steps(Square::parse(s).unwrap(), false)).collect();
        assert_eq!(steps, vec![7, 6, 5, 1, 0]);
        assert_eq!(corner_steps(Square::parse("b1").unwrap(), true), 6);
    }

    #[test]
    fn the_box_is_where_the_king_can_still_go() {
        // The rook d1 cuts the king a5 off on the a-c files and covers the first rank: 21 squares.
        let p = pos("8/8/8/k7/8/8/8/3RK3 b - - 0 1");
        assert_eq!(king_box(&p, Color::Black).count(), 21);
        // The queen c6 (giving check) leaves the king a8 with a7 and b8 only.
        let p = pos("k7/8/2Q5/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(king_box(&p, Color::Black).count(), 3);
    }

    #[test]
    fn the_net_never_stalemates_and_mates_when_it_can() {
        let game = Game::new(pos("7k/5K2/8/8/8/8/8/6Q1 w - - 0 1"));
        let (mv, _) = mating_net(&game, &game.position().legal_moves(), &mut |_| 0).unwrap();
        assert!(game.position().play(mv).is_checkmate());
        // Qf7 would stalemate the king h8: the net never plays it, whatever the tie-break.
        let game = Game::new(pos("7k/8/8/6K1/8/8/8/5Q2 w - - 0 1"));
        for seed in 0..8 {
            let (mv, _) = mating_net(&game, &game.position().legal_moves(), &mut |n| seed % n).unwrap();
            let after = game.position().play(mv);
            assert!(!after.is_stalemate(), "{mv}");
        }
    }
}
