//! UCI output: the lines the engine sends, and how a thought becomes them.

use crate::board::values::material_points;
use crate::board::{CastlingNotation, Position};
use crate::players::wdl::{MODEL, Wdl, mate_wdl};
use crate::protocol::engine::Thought;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciResponse {
    IdName(String),
    IdAuthor(String),
    /// The text after `option `.
    Option(String),
    UciOk,
    ReadyOk,
    /// `bestmove MOVE [ponder MOVE]`: the move, and the reply the engine expects if it knows one.
    BestMove {
        mv: String,
        ponder: Option<String>,
    },
    /// `info depth D [multipv K] score cp S|mate M [wdl W D L] nodes N [tbhits H] time T [pv MOVE...]`
    Info {
        depth: u32,
        /// The line's rank when more than one was asked for (`MultiPV`), else 0 (not sent).
        multipv: u32,
        score: String,
        /// Win, draw and loss chances per mille (sent with `UCI_ShowWDL`).
        wdl: Option<Wdl>,
        nodes: u64,
        /// Endgame tablebase probes that answered (sent when any did).
        tbhits: u64,
        time_ms: u64,
        pv: String,
    },
    InfoString(String),
}

impl fmt::Display for UciResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciResponse::IdName(n) => write!(f, "id name {n}"),
            UciResponse::IdAuthor(a) => write!(f, "id author {a}"),
            UciResponse::Option(o) => write!(f, "option {o}"),
            UciResponse::UciOk => f.write_str("uciok"),
            UciResponse::ReadyOk => f.write_str("readyok"),
            UciResponse::BestMove { mv, ponder: None } => write!(f, "bestmove {mv}"),
            UciResponse::BestMove { mv, ponder: Some(reply) } => write!(f, "bestmove {mv} ponder {reply}"),
            UciResponse::Info { depth, multipv, score, wdl, nodes, tbhits, time_ms, pv } => {
                write!(f, "info depth {depth}")?;
                if *multipv > 0 {
                    write!(f, " multipv {multipv}")?;
                }
                write!(f, " score {score}")?;
                if let Some(w) = wdl {
                    write!(f, " wdl {} {} {}", w.win, w.draw, w.loss)?;
                }
                write!(f, " nodes {nodes}")?;
                if *tbhits > 0 {
                    write!(f, " tbhits {tbhits}")?;
                }
                write!(f, " time {time_ms}")?;
                if !pv.is_empty() {
                    write!(f, " pv {pv}")?;
                }
                Ok(())
            }
            UciResponse::InfoString(s) => write!(f, "info string {s}"),
        }
    }
}

/// `bestmove` for a thought, with the reply its line expects as the move to ponder on.
pub(super) fn best_move(pos: &Position, castling: CastlingNotation, t: &Thought) -> UciResponse {
    let mut line = pos.coordinate_line(&t.pv[..t.pv.len().min(2)], castling).into_iter();
    let mv = line.next().unwrap_or_else(|| pos.coordinate(t.mv, castling));
    UciResponse::BestMove { mv, ponder: line.next() }
}

/// Two `info` lines that say the same (depth, rank, score and line), whatever their nodes and
/// time.
pub(super) fn same_line(a: &UciResponse, b: &UciResponse) -> bool {
    match (a, b) {
        (
            UciResponse::Info { depth, multipv, score, pv, .. },
            UciResponse::Info { depth: depth_b, multipv: multipv_b, score: score_b, pv: pv_b, .. },
        ) => (depth, multipv, score, pv) == (depth_b, multipv_b, score_b, pv_b),
        _ => a == b,
    }
}

/// The `info` line for a thought; with `show_wdl`, the chances level 10's model gives its score
/// with the material of `pos` (a mate found is all win or all loss).
pub(super) fn info_line(pos: &Position, castling: CastlingNotation, t: &Thought, show_wdl: bool) -> UciResponse {
    let score = match t.mate {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", t.score),
    };
    UciResponse::Info {
        depth: t.depth.max(1),
        multipv: t.multipv,
        score,
        wdl: show_wdl.then(|| t.mate.map_or_else(|| MODEL.wdl(t.score, material_points(pos)), mate_wdl)),
        nodes: t.nodes,
        tbhits: t.tbhits,
        time_ms: t.elapsed.as_millis() as u64,
        pv: pos.coordinate_line(&t.pv, castling).join(" "),
    }
}
