//! The agents' judgement's weights, (middlegame, endgame) in centipawns, by `terms`.
//! Written by `agentchess tune` (docs/tuning.md); the tuner reads and rewrites this file.

use super::score::S;
use super::terms::COUNT;

#[rustfmt::skip]
pub const WEIGHTS: [S; COUNT] = [
    // material
    S(80, 100), S(320, 300), S(334, 320), S(468, 526), S(950, 980),
    // pawn advanced (by rank)
    S(0, 0), S(-6, 3), S(0, 0), S(-4, 4), S(-1, 10), S(10, 22), S(6, 25), S(0, 0),
    // centre pawn (d/e file, by rank)
    S(0, 0), S(-10, 2), S(2, 3), S(16, -6), S(7, -3), S(1, -1), S(0, 0), S(0, 0),
    // doubled pawn
    S(-8, -22),
    // isolated pawn
    S(-8, -14),
    // backward pawn
    S(-7, -10),
    // connected pawn (by rank)
    S(0, 0), S(6, 1), S(5, -1), S(5, 4), S(8, 8), S(21, 27), S(30, 41), S(0, 0),
    // passed pawn (by rank)
    S(0, 0), S(0, 7), S(-1, 7), S(3, 19), S(14, 40), S(30, 68), S(51, 110), S(0, 0),
    // passed pawn with a free path (by rank)
    S(0, 0), S(0, 1), S(-1, 3), S(-1, 10), S(4, 21), S(10, 34), S(20, 60), S(0, 0),
    // passed pawn blockaded (by rank)
    S(0, 0), S(0, 0), S(0, -1), S(-2, -5), S(-5, -11), S(-9, -19), S(-15, -30), S(0, 0),
    // passed pawn: our king's distance to its way (times rank)
    S(2, -6),
    // passed pawn: their king's distance to its way (times rank)
    S(-4, 10),
    // passed pawn outside their king's square
    S(0, 300),
    // rook behind a passed pawn (ours, theirs)
    S(5, 15), S(-5, -16),
    // space behind our pawns
    S(1, -1),
    // knight mobility (safe squares)
    S(-28, -30), S(-12, -20), S(-4, -10), S(0, -1), S(2, 6), S(9, 9), S(13, 10), S(19, 13),
    S(20, 13),
    // bishop mobility (safe squares)
    S(-30, -35), S(-25, -30), S(-18, -25), S(-13, -20), S(-8, -14), S(-4, -8), S(2, -5), S(4, 0),
    S(9, 5), S(14, 8), S(20, 13), S(20, 19), S(20, 20), S(20, 20),
    // rook mobility (safe squares)
    S(-27, -32), S(-21, -26), S(-14, -21), S(-10, -14), S(-5, -10), S(-4, -3), S(-2, 1), S(2, 5),
    S(4, 10), S(8, 17), S(12, 23), S(10, 26), S(10, 30), S(10, 31), S(10, 30),
    // queen mobility (safe squares)
    S(-21, -30), S(-21, -28), S(-18, -26), S(-17, -24), S(-14, -22), S(-14, -20), S(-10, -18),
    S(-11, -16), S(-8, -14), S(-6, -12), S(-4, -10), S(-4, -8), S(-2, -6), S(-1, -4), S(1, -2),
    S(2, 0), S(4, 2), S(5, 4), S(7, 6), S(8, 8), S(10, 10), S(10, 12), S(10, 14), S(10, 14),
    S(10, 14), S(10, 14), S(10, 14), S(10, 14),
    // knight centrality (edge to centre)
    S(-11, -16), S(-1, -3), S(-1, 3), S(9, 11),
    // knight on an outpost
    S(22, 13),
    // bishop on an outpost
    S(11, 6),
    // bishop pair
    S(30, 51),
    // bishop: own pawns on its colour
    S(2, 0),
    // rook on an open file
    S(27, 7),
    // rook on a half-open file
    S(13, 10),
    // rook on the seventh rank
    S(12, 22),
    // knight or bishop on its home rank
    S(-7, -1),
    // knight or bishop behind a pawn
    S(7, 1),
    // king centrality (edge to centre)
    S(2, -27), S(0, -6), S(0, 9), S(0, 20),
    // king file (edge to centre, mirrored)
    S(9, 1), S(22, 0), S(-1, 3), S(-10, -3),
    // king off its back rank
    S(-9, 3),
    // king shelter pawn (one, two, no pawn ahead)
    S(9, -4), S(1, -1), S(-9, 4),
    // their pawn storming our king
    S(-7, 0),
    // open file beside our king
    S(-20, -7),
    // file beside our king without our pawn
    S(-8, 3),
    // attack on our king's zone (by weight of attackers)
    S(-2, 1), S(0, 0), S(-5, -3), S(-10, -3), S(-20, -3), S(-30, -9), S(-45, -12), S(-58, -15),
    S(-80, -20), S(-100, -25), S(-125, -32), S(-150, -38), S(-180, -45), S(-210, -53),
    S(-250, -63), S(-300, -75),
    // safe check on their king (by knight, bishop, rook, queen)
    S(10, 3), S(6, 3), S(11, 7), S(11, 5),
    // king's distance to the nearest pawn
    S(0, 0), S(2, 3), S(-1, 1), S(-1, -3), S(0, -2), S(0, 0), S(0, 0), S(0, 0),
    // castling right kept
    S(11, 1),
    // piece attacked by a pawn
    S(-29, -20),
    // piece a safe pawn push would attack
    S(10, 8),
    // side to move: worst threat (per 25 cp)
    S(-1, -1),
    // side to move: second threat (per 25 cp)
    S(-10, -11),
    // side to move
    S(13, 8),
    // piece-square table (by piece and square)
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
];
