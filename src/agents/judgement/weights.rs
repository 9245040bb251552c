//! The agents' judgement's weights, (middlegame, endgame) in centipawns, by `terms`.
//! Written by `agentchess tune` (docs/tuning.md); the tuner reads and rewrites this file.

use super::score::S;
use super::terms::COUNT;

#[rustfmt::skip]
pub const WEIGHTS: [S; COUNT] = [
    // material
    S(82, 101), S(322, 300), S(332, 319), S(469, 524), S(950, 980),
    // pawn advanced (by rank)
    S(0, 0), S(-3, 0), S(-3, 2), S(-2, 7), S(3, 9), S(8, 23), S(6, 25), S(0, 0),
    // centre pawn (d/e file, by rank)
    S(0, 0), S(-12, 0), S(2, -1), S(16, -2), S(9, -2), S(1, 0), S(0, 0), S(0, 0),
    // doubled pawn
    S(-10, -22),
    // isolated pawn
    S(-10, -10),
    // backward pawn
    S(-10, -12),
    // connected pawn (by rank)
    S(0, 0), S(4, 1), S(5, 0), S(2, 4), S(11, 6), S(20, 26), S(30, 41), S(0, 0),
    // passed pawn (by rank)
    S(0, 0), S(-1, 5), S(-1, 9), S(3, 18), S(14, 38), S(31, 72), S(51, 110), S(0, 0),
    // passed pawn with a free path (by rank)
    S(0, 0), S(0, 0), S(-1, 4), S(-1, 9), S(4, 20), S(10, 36), S(20, 60), S(0, 0),
    // passed pawn blockaded (by rank)
    S(0, 0), S(0, 0), S(0, 0), S(-2, -5), S(-5, -11), S(-9, -19), S(-15, -30), S(0, 0),
    // passed pawn: our king's distance to its way (times rank)
    S(3, -7),
    // passed pawn: their king's distance to its way (times rank)
    S(-4, 10),
    // passed pawn outside their king's square
    S(0, 300),
    // knight mobility (safe squares)
    S(-30, -30), S(-15, -20), S(-4, -10), S(2, -1), S(3, 5), S(11, 8), S(15, 9), S(19, 13),
    S(20, 14),
    // bishop mobility (safe squares)
    S(-31, -35), S(-25, -30), S(-19, -25), S(-17, -20), S(-8, -14), S(-3, -9), S(0, -6), S(6, 1),
    S(9, 5), S(15, 9), S(20, 14), S(20, 19), S(20, 20), S(20, 20),
    // rook mobility (safe squares)
    S(-24, -31), S(-20, -25), S(-14, -20), S(-12, -15), S(-4, -10), S(-4, -4), S(-3, 0), S(1, 5),
    S(4, 10), S(8, 17), S(11, 21), S(10, 26), S(10, 30), S(10, 31), S(10, 30),
    // queen mobility (safe squares)
    S(-21, -30), S(-20, -28), S(-17, -26), S(-17, -24), S(-13, -22), S(-14, -20), S(-10, -18),
    S(-11, -16), S(-8, -14), S(-6, -12), S(-4, -10), S(-4, -8), S(-2, -6), S(-1, -4), S(1, -2),
    S(2, 0), S(4, 2), S(5, 4), S(7, 6), S(8, 8), S(10, 10), S(10, 12), S(10, 14), S(10, 14),
    S(10, 14), S(10, 14), S(10, 14), S(10, 14),
    // knight centrality (edge to centre)
    S(-14, -15), S(-2, -4), S(3, 3), S(11, 11),
    // knight on an outpost
    S(21, 11),
    // bishop on an outpost
    S(11, 5),
    // bishop pair
    S(29, 50),
    // bishop: own pawns on its colour
    S(1, -1),
    // rook on an open file
    S(26, 9),
    // rook on a half-open file
    S(12, 7),
    // rook on the seventh rank
    S(11, 21),
    // knight or bishop on its home rank
    S(-9, 0),
    // king centrality (edge to centre)
    S(0, -30), S(0, -6), S(0, 9), S(0, 23),
    // king file (edge to centre, mirrored)
    S(10, 0), S(21, -1), S(-1, 2), S(-10, 0),
    // king off its back rank
    S(-9, 1),
    // king shelter pawn (one, two, no pawn ahead)
    S(11, -2), S(0, -1), S(-11, 3),
    // their pawn storming our king
    S(-7, 1),
    // open file beside our king
    S(-20, -2),
    // file beside our king without our pawn
    S(-9, 3),
    // attack on our king's zone (by weight of attackers)
    S(0, 1), S(0, 0), S(-5, -2), S(-10, -3), S(-20, -4), S(-30, -9), S(-45, -12), S(-60, -15),
    S(-80, -20), S(-100, -25), S(-125, -32), S(-150, -38), S(-180, -45), S(-210, -53),
    S(-250, -63), S(-300, -75),
    // castling right kept
    S(15, 1),
    // piece attacked by a pawn
    S(-30, -20),
    // side to move: worst threat (per 25 cp)
    S(-1, -2),
    // side to move: second threat (per 25 cp)
    S(-11, -12),
    // side to move
    S(10, 9),
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
