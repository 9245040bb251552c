//! perft: counts the leaf nodes of the legal move tree, the standard correctness test of a
//! move generator. The last ply is bulk-counted (the length of the move list).

use super::{Move, Position};

/// Leaf count to `depth`. On x86-64 CPUs with POPCNT (all since about 2008) a copy of the
/// generator compiled for that instruction runs; elsewhere the portable build does.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU was just checked to support the enabled feature.
        return unsafe { perft_popcnt(pos, depth) };
    }
    perft_portable(pos, depth)
}

macro_rules! perft_body {
    ($self_fn:ident, $pos:expr, $depth:expr) => {
        match $depth {
            0 => 1,
            1 => $pos.count_legal_moves() as u64,
            _ => {
                let moves = $pos.legal_moves();
                let mut total = 0;
                for &m in moves.iter() {
                    // Made in place on one local copy: `play` would return the child by value,
                    // which costs a second copy of the position per move.
                    let mut child = *$pos;
                    child.make_move(m);
                    total += $self_fn(&child, $depth - 1);
                }
                total
            }
        }
    };
}

/// The generator compiled for any CPU.
pub fn perft_portable(pos: &Position, depth: u32) -> u64 {
    perft_body!(perft_portable, pos, depth)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn perft_popcnt(pos: &Position, depth: u32) -> u64 {
    perft_body!(perft_popcnt, pos, depth)
}

/// Per-move counts at the root, in move-generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves().iter().map(|&m| (m, perft(&pos.play(m), depth - 1))).collect()
}

/// One line of an EPD perft suite: `FEN ;D1 20 ;D2 400 ...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftCase {
    pub fen: String,
    pub depths: Vec<(u32, u64)>,
}

/// Parses one suite line; blank lines and `#` comments give `Ok(None)`.
pub fn parse_suite_line(line: &str) -> Result<Option<PerftCase>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    let mut depths = Vec::new();
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let mut it = part.split_whitespace();
        let (Some(d), Some(n), None) = (it.next(), it.next(), it.next()) else {
            return Err(format!("bad depth entry '{part}'"));
        };
        let depth =
            d.strip_prefix('D').and_then(|x| x.parse::<u32>().ok()).ok_or_else(|| format!("bad depth '{d}'"))?;
        let nodes = n.parse::<u64>().map_err(|_| format!("bad node count '{n}'"))?;
        depths.push((depth, nodes));
    }
    Ok(Some(PerftCase { fen, depths }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_suite_lines() {
        let c = parse_suite_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9").unwrap().unwrap();
        assert_eq!(c.fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
        assert_eq!(c.depths, vec![(1, 3), (2, 9)]);
        assert_eq!(parse_suite_line("  ").unwrap(), None);
        assert!(parse_suite_line("x ;D1").is_err());
        assert!(parse_suite_line("x ;E1 5").is_err());
    }

    #[test]
    fn both_builds_agree() {
        let p = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(perft_portable(&p, 3), 97862);
        assert_eq!(perft(&p, 3), 97862);
    }

    #[test]
    fn startpos_shallow() {
        let p = Position::startpos();
        assert_eq!(perft(&p, 1), 20);
        assert_eq!(perft(&p, 3), 8902);
        let d = divide(&p, 2);
        assert_eq!(d.len(), 20);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 400);
    }
}
