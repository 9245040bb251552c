//! Board-level properties checked over every suite position: per-piece generation, SAN and FEN
//! round trips, incremental hashing, and the parsers' robustness against hostile input.

use agentchess::board::perft::parse_suite_line;
use agentchess::board::{Bitboard, Color, Move, Piece, Position, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn suite_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for line in include_str!("data/perft.epd").lines() {
        if let Some(case) = parse_suite_line(line).unwrap() {
            out.push(Position::from_fen(&case.fen).unwrap());
        }
    }
    for text in [include_str!("data/wac.epd"), include_str!("data/ecm.epd")] {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen: Vec<&str> = line.split_whitespace().take(4).collect();
            out.push(Position::from_fen(&format!("{} 0 1", fen.join(" "))).unwrap());
        }
    }
    out
}

/// A few positions further into each suite game, so that captures and promotions occur.
fn with_children(positions: &[Position]) -> Vec<Position> {
    let mut out = positions.to_vec();
    for p in positions {
        for &m in p.legal_moves().iter().take(3) {
            out.push(p.play(m));
        }
    }
    out
}

#[test]
fn moves_of_every_piece_together_equal_all_moves() {
    for pos in with_children(&suite_positions()) {
        let mut all: Vec<Move> = pos.legal_moves().to_vec();
        let mut union: Vec<Move> = Vec::new();
        for sq in pos.by_color(pos.side_to_move()) {
            let own = pos.legal_moves_from(sq.bb());
            assert!(own.iter().all(|m| m.from() == sq));
            union.extend(own.iter());
        }
        all.sort_by_key(|m| m.raw());
        union.sort_by_key(|m| m.raw());
        assert_eq!(all, union, "{}", pos.to_fen());
    }
}

#[test]
fn san_and_coordinate_round_trip_every_legal_move() {
    let mut n = 0;
    for pos in with_children(&suite_positions()) {
        for &m in pos.legal_moves().iter() {
            let san = pos.to_san(m);
            assert_eq!(pos.parse_san(&san), Ok(m), "{san} in {}", pos.to_fen());
            assert_eq!(pos.parse_move(&san), Ok(m), "{san} in {}", pos.to_fen());
            assert_eq!(pos.parse_uci(&m.to_string()), Ok(m), "{m} in {}", pos.to_fen());
            let after = pos.play(m);
            assert_eq!(san.ends_with('+') || san.ends_with('#'), after.is_check(), "{san}");
            assert_eq!(san.ends_with('#'), after.is_checkmate(), "{san}");
            n += 1;
        }
    }
    assert!(n > 30_000, "only {n} moves checked");
}

/// SAN written by hand (each checked against python-chess's `board.san()` on a valid board when
/// written): every
/// disambiguation rule, and the marks that are easy to get wrong. The round trip above cannot see
/// a wrong SAN that the parser reads back the same way; this table can.
#[test]
fn san_cases_written_by_hand() {
    let cases = [
        // Two rooks on one rank: the file tells them apart.
        ("2k5/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"),
        // Two rooks on one file: the rank.
        ("2k5/8/8/R7/8/8/8/R6K w - - 0 1", "a1a3", "R1a3"),
        // A rival on the same file and one on the same rank: the full square.
        ("4k3/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "a1b2", "Qa1b2"),
        // Two knights that both reach the square, on different files and ranks: the file.
        ("7k/8/8/8/8/8/1N3N2/K7 w - - 0 1", "b2d3", "Nbd3"),
        ("3k4/8/8/8/8/8/3N4/4K1N1 w - - 0 1", "g1f3", "Ngf3"),
        // The c3 knight is pinned by the b4 bishop, so it is no rival: no disambiguation.
        ("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "g1e2", "Ne2"),
        // A pawn capture names the pawn's file in lower case, a bishop's is upper case.
        ("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1", "b2c3", "bxc3"),
        ("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1", "d2c3", "Bxc3"),
        // A capturing promotion, with check and without.
        ("4k2r/6P1/8/8/8/8/8/4K3 w - - 0 1", "g7h8q", "gxh8=Q+"),
        ("4k2r/6P1/8/8/8/8/8/4K3 w - - 0 1", "g7h8n", "gxh8=N"),
        // Castling, plain, with check and with mate; Black's too.
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", "O-O-O"),
        ("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "e8c8", "O-O-O"),
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+"),
        ("4rkr1/4p1p1/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O#"),
        ("2rkr3/2p1p3/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O#"),
    ];
    for (fen, coordinate, san) in cases {
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos.parse_uci(coordinate).unwrap();
        assert_eq!(pos.to_san(mv), san, "{coordinate} in {fen}");
        assert_eq!(pos.parse_san(san), Ok(mv), "{san} in {fen}");
    }
}

#[test]
fn fen_round_trips_and_hash_is_incremental() {
    for pos in with_children(&suite_positions()) {
        let fen = pos.to_fen();
        let back = Position::from_fen(&fen).unwrap();
        assert_eq!(back.to_fen(), fen);
        assert_eq!(back.hash(), pos.hash(), "{fen}");
        assert_eq!(back, pos, "{fen}");
    }
}

#[test]
fn attackers_to_respects_the_given_occupancy() {
    // Rook a1 behind rook a2 attack a8 only once a2 is taken out of the occupancy (an x-ray).
    let pos = Position::from_fen("7k/8/8/8/8/8/R7/R6K w - - 0 1").unwrap();
    let a8 = Square::parse("a8").unwrap();
    let a2 = Square::parse("a2").unwrap();
    let occ = pos.occupied();
    assert_eq!(pos.attackers_to(a8, Color::White, occ), a2.bb());
    let xray = pos.attackers_to(a8, Color::White, occ.without(a2));
    assert_eq!(xray, Square::parse("a1").unwrap().bb());
    assert_eq!(pos.pieces(Color::White, Piece::Rook).count(), 2);
}

#[test]
fn pins_and_checkers() {
    let pos = Position::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
    assert_eq!(pos.pinned(), Square::parse("e2").unwrap().bb());
    assert!(pos.legal_moves_from(Square::parse("e2").unwrap().bb()).is_empty());
    let check = Position::from_fen("4k3/8/8/8/8/5n2/8/4K3 w - - 0 1").unwrap();
    assert_eq!(check.checkers(), Square::parse("f3").unwrap().bb());
    assert!(check.is_check());
    assert_eq!(Bitboard::EMPTY.count(), 0);
}

fn mutate(rng: &mut StdRng, s: &str) -> String {
    const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ -wbKQkqabcdefgh0123456789x=+#O";
    let mut bytes = s.as_bytes().to_vec();
    for _ in 0..rng.random_range(1..4) {
        match rng.random_range(0..4) {
            0 if !bytes.is_empty() => {
                let i = rng.random_range(0..bytes.len());
                bytes.remove(i);
            }
            1 => {
                let i = rng.random_range(0..=bytes.len());
                bytes.insert(i, ALPHABET[rng.random_range(0..ALPHABET.len())]);
            }
            2 if !bytes.is_empty() => {
                let i = rng.random_range(0..bytes.len());
                bytes[i] = ALPHABET[rng.random_range(0..ALPHABET.len())];
            }
            _ => {
                let i = rng.random_range(0..=bytes.len());
                bytes.insert(i, rng.random::<u8>());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn parsers_never_panic_on_random_and_mutated_input() {
    let mut rng = StdRng::seed_from_u64(0xA6E7);
    let seeds: Vec<String> = suite_positions().iter().take(400).map(|p| p.to_fen()).collect();
    let start = Position::startpos();
    let mut accepted = 0;
    for i in 0..120_000 {
        let text = if i % 5 == 0 {
            let len = rng.random_range(0..90);
            let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            mutate(&mut rng, &seeds[i % seeds.len()])
        };
        if let Ok(pos) = Position::from_fen(&text) {
            accepted += 1;
            // Anything accepted must be playable: generate, play and print without panicking.
            for &m in pos.legal_moves().iter().take(4) {
                let _ = pos.to_san(m);
                let _ = pos.play(m).to_fen();
            }
        }
        let mv_text = mutate(&mut rng, ["e2e4", "Nf3", "O-O", "e7e8=Q", "exd5"][i % 5]);
        if let Ok(m) = start.parse_move(&mv_text) {
            assert!(start.is_legal(m), "parser returned illegal {m} for {mv_text:?}");
        }
    }
    assert!(accepted > 1000, "mutations too destructive: only {accepted} FENs accepted");
}

// ---- game-level rules: repetition and dead positions ------------------------------------------

fn play_line(game: &mut agentchess::board::Game, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game.position().parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.play(mv);
    }
}

/// FIDE 9.2.3: positions are the same when the same moves are possible, so an en passant square
/// whose only capturer is pinned (here along the fifth rank by the h5 rook) does not make the
/// position after the double step a different one. python-chess agrees: threefold at the end.
#[test]
fn an_en_passant_square_nobody_can_use_does_not_break_a_repetition() {
    use agentchess::board::{Game, Outcome};
    let mut g = Game::new(Position::from_fen("4k1n1/2p5/8/KP5r/8/8/8/6N1 b - - 0 1").unwrap());
    play_line(&mut g, "c7c5");
    assert!(g.position().legal_moves().iter().all(|m| m.to().to_string() != "c6"), "bxc6 e.p. is pinned");
    play_line(&mut g, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(g.repetitions(), 2);
    play_line(&mut g, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), Some(Outcome::Threefold));
}

/// ...while castling rights lost do make a different position: the rook's trip a1-b1-a1 leaves
/// the same squares but not the same moves, so only what follows it repeats.
#[test]
fn castling_rights_lost_break_a_repetition() {
    use agentchess::board::Game;
    let mut g = Game::new(Position::from_fen("r3k1nr/8/8/8/8/8/8/R3K1NR w KQkq - 0 1").unwrap());
    play_line(&mut g, "a1b1 g8f6 b1a1 f6g8");
    assert_eq!(g.position().to_fen().split(' ').nth(2), Some("Kkq"));
    assert_eq!(g.repetitions(), 1, "the start had the queen-side right");
    play_line(&mut g, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(g.repetitions(), 2);
    assert!(g.outcome().is_none());
    play_line(&mut g, "g1f3 g8f6 f3g1 f6g8");
    assert!(g.is_threefold());
}

/// Dead positions at the Game level (FIDE 5.2.2: no sequence of legal moves mates): K+N v K and
/// K+B v K+B on one colour are dead; K+N+N v K and K+B v K+N are not (a helpmate exists), so
/// the game goes on. python-chess's `is_insufficient_material` agrees on all four.
#[test]
fn dead_material_at_the_game_level() {
    use agentchess::board::{Game, Outcome};
    for (fen, dead) in [
        ("8/8/8/4k3/8/8/8/NN2K3 w - - 0 1", false),
        ("8/8/8/4k1n1/8/8/8/1B2K3 w - - 0 1", false),
        ("8/8/8/4k3/8/8/8/N3K3 w - - 0 1", true),
        ("8/8/8/4k1b1/8/8/8/2B1K3 w - - 0 1", true),
    ] {
        let g = Game::new(Position::from_fen(fen).unwrap());
        assert_eq!(g.outcome(), dead.then_some(Outcome::InsufficientMaterial), "{fen}");
    }
}
