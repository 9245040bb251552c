//! The judgement's weights, (middlegame, endgame) in centipawns, in the order of `terms`.
//! Written by `agentchess tune` (docs/tuning.md); the tuner reads and rewrites this file.

use super::score::S;
use super::terms::COUNT;

#[rustfmt::skip]
pub const WEIGHTS: [S; COUNT] = [
    // material
    S(90, 110), S(320, 300), S(330, 320), S(470, 520), S(950, 980),
    // pawn advanced (by rank)
    S(0, 0), S(0, 0), S(0, 5), S(2, 10), S(5, 15), S(5, 20), S(5, 25), S(0, 0),
    // centre pawn (d/e file, by rank)
    S(0, 0), S(-10, 0), S(5, 0), S(15, 0), S(10, 0), S(0, 0), S(0, 0), S(0, 0),
    // doubled pawn
    S(-10, -20),
    // isolated pawn
    S(-10, -10),
    // backward pawn
    S(-8, -8),
    // connected pawn (by rank)
    S(0, 0), S(0, 0), S(5, 0), S(8, 5), S(12, 10), S(20, 25), S(30, 40), S(0, 0),
    // passed pawn (by rank)
    S(0, 0), S(0, 5), S(0, 10), S(5, 20), S(15, 40), S(30, 70), S(50, 110), S(0, 0),
    // passed pawn with a free path (by rank)
    S(0, 0), S(0, 0), S(0, 5), S(0, 10), S(5, 20), S(10, 35), S(20, 60), S(0, 0),
    // passed pawn blockaded (by rank)
    S(0, 0), S(0, 0), S(0, 0), S(-2, -5), S(-5, -10), S(-10, -20), S(-15, -30), S(0, 0),
    // passed pawn: our king's distance to its way (times rank)
    S(0, -2),
    // passed pawn: their king's distance to its way (times rank)
    S(0, 4),
    // passed pawn outside their king's square
    S(0, 300),
    // knight mobility (safe squares)
    S(-30, -30), S(-15, -20), S(-5, -10), S(0, 0), S(5, 5), S(10, 8), S(15, 10), S(18, 12),
    S(20, 14),
    // bishop mobility (safe squares)
    S(-30, -35), S(-25, -30), S(-20, -25), S(-15, -20), S(-10, -15), S(-5, -10), S(0, -5), S(5, 0),
    S(10, 5), S(15, 10), S(20, 15), S(20, 20), S(20, 20), S(20, 20),
    // rook mobility (safe squares)
    S(-20, -30), S(-17, -25), S(-14, -20), S(-11, -15), S(-8, -10), S(-5, -5), S(-2, 0), S(1, 5),
    S(4, 10), S(7, 15), S(10, 20), S(10, 25), S(10, 30), S(10, 30), S(10, 30),
    // queen mobility (safe squares)
    S(-20, -30), S(-19, -28), S(-17, -26), S(-16, -24), S(-14, -22), S(-13, -20), S(-11, -18),
    S(-10, -16), S(-8, -14), S(-7, -12), S(-5, -10), S(-4, -8), S(-2, -6), S(-1, -4), S(1, -2),
    S(2, 0), S(4, 2), S(5, 4), S(7, 6), S(8, 8), S(10, 10), S(10, 12), S(10, 14), S(10, 14),
    S(10, 14), S(10, 14), S(10, 14), S(10, 14),
    // knight centrality (edge to centre)
    S(-15, -15), S(-5, -5), S(5, 5), S(10, 10),
    // knight on an outpost
    S(20, 10),
    // bishop on an outpost
    S(10, 5),
    // bishop pair
    S(30, 50),
    // bishop: own pawns on its colour
    S(-2, -4),
    // rook on an open file
    S(25, 10),
    // rook on a half-open file
    S(10, 5),
    // rook on the seventh rank
    S(10, 20),
    // knight or bishop on its home rank
    S(-10, 0),
    // king centrality (edge to centre)
    S(0, -30), S(0, -10), S(0, 10), S(0, 25),
    // king file (edge to centre, mirrored)
    S(10, 0), S(20, 0), S(0, 0), S(-10, 0),
    // king off its back rank
    S(-10, 0),
    // king shelter pawn (one, two, no pawn ahead)
    S(10, 0), S(5, 0), S(-15, 0),
    // their pawn storming our king
    S(-5, 0),
    // open file beside our king
    S(-20, 0),
    // file beside our king without our pawn
    S(-10, 0),
    // attack on our king's zone (by weight of attackers)
    S(0, 0), S(0, 0), S(-5, -2), S(-10, -3), S(-20, -5), S(-30, -8), S(-45, -12), S(-60, -15),
    S(-80, -20), S(-100, -25), S(-125, -32), S(-150, -38), S(-180, -45), S(-210, -53),
    S(-250, -63), S(-300, -75),
    // castling right kept
    S(10, 0),
    // piece attacked by a pawn
    S(-30, -20),
    // side to move: worst threat (per 25 cp)
    S(-2, -2),
    // side to move: second threat (per 25 cp)
    S(-12, -12),
    // side to move
    S(10, 10),
];
