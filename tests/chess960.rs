//! Chess960 (Fischer random) move generation: the 960 positions of tests/data/chess960.epd to
//! depth 5, and the hand-made castling cases of chess960-corners.epd (see SOURCES-chess960.md).
//! The test profile is optimised (Cargo.toml), so plain `cargo test` runs these at full speed.

use agentchess::board::Position;
use agentchess::board::perft::{parse_suite_line, perft};

const POSITIONS: &str = include_str!("data/chess960.epd");
const CORNERS: &str = include_str!("data/chess960-corners.epd");

/// Every (position, depth) count of `suite` up to `max_depth`, split over the machine's cores:
/// the mismatches, and how many counts were checked.
fn check_suite(suite: &str, max_depth: u32) -> (Vec<String>, usize) {
    let cases: Vec<_> = suite.lines().filter_map(|l| parse_suite_line(l).expect("suite line parses")).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = cases.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = cases
            .chunks(chunk.max(1))
            .map(|part| {
                scope.spawn(move || {
                    let (mut failures, mut checked) = (Vec::new(), 0);
                    for case in part {
                        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
                        for &(depth, expected) in case.depths.iter().filter(|d| d.0 <= max_depth) {
                            let got = perft(&pos, depth);
                            checked += 1;
                            if got != expected {
                                failures.push(format!("{} depth {depth}: expected {expected}, got {got}", case.fen));
                            }
                        }
                    }
                    (failures, checked)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a perft worker panicked")).fold(
            (Vec::new(), 0),
            |(mut failures, checked), (more, n)| {
                failures.extend(more);
                (failures, checked + n)
            },
        )
    })
}

#[test]
fn chess960_positions_to_depth_five() {
    let (failures, checked) = check_suite(POSITIONS, 5);
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    assert_eq!(checked, 960 * 5);
}

#[test]
fn chess960_castling_corner_cases() {
    let (failures, checked) = check_suite(CORNERS, 4);
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    assert_eq!(checked, 20 * 4);
}

/// The same position with colours and ranks swapped has the same tree: Black's castling is
/// generated and made as White's.
#[test]
fn mirrored_chess960_positions_count_the_same() {
    for line in POSITIONS.lines().step_by(7) {
        let case = parse_suite_line(line).unwrap().unwrap();
        let pos = Position::from_fen(&case.fen).unwrap();
        let mirror = pos.mirrored();
        assert_eq!(mirror.castling().0.count_ones(), pos.castling().0.count_ones(), "{}", mirror.to_fen());
        assert_eq!(perft(&mirror, 3), perft(&pos, 3), "{} / {}", case.fen, mirror.to_fen());
    }
}
