//! Win, draw and loss chances of a level-10 score: UCI's `wdl` field (`UCI_ShowWDL`).
//!
//! A score of `x` centipawns wins with `1 / (1 + e^((a - x) / b))` and loses with
//! `1 / (1 + e^((a + x) / b))`; the rest is a draw. `a` is the score at which a win is as likely
//! as not and `b` how fast the chances turn. Both are cubics in the material on the board: the
//! same score wins less often with few pieces left (a pawn up in a rook ending is not a pawn up
//! with the queens on). The coefficients are fitted to games' scores and results by
//! `agentchess fit-wdl` (docs/tuning.md). The material is `board::values::material_points`.

/// The material of the initial position (`material_points`).
pub const MAX_MATERIAL: u32 = 78;

/// Below this the material is read as this: the fit's games have few positions with less, and
/// a cubic would run wild there.
pub const MIN_MATERIAL: u32 = 6;

/// `a` and `b` as cubics in the material's share of the initial (`t` in 0..1): `[c0, c1, c2,
/// c3]` is `c0 + c1 t + c2 t² + c3 t³`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub a: [f64; 4],
    pub b: [f64; 4],
}

/// Chances per mille, summing to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// Level 10's model, as `agentchess fit-wdl` printed it for level 10's self-play games at
/// 2 s + 0.02 s (docs/tuning.md has the command and the check against other games).
pub const MODEL: WdlModel =
    WdlModel { a: [493.428, -1941.062, 2954.761, -1440.768], b: [89.463, -185.190, 294.810, -114.036] };

fn cubic(c: &[f64; 4], t: f64) -> f64 {
    ((c[3] * t + c[2]) * t + c[1]) * t + c[0]
}

impl WdlModel {
    /// `a` and `b` at `material`. `a` is kept positive (else a draw would be less than
    /// impossible) and `b` at least 1.
    pub fn params(&self, material: u32) -> (f64, f64) {
        let t = f64::from(material.clamp(MIN_MATERIAL, MAX_MATERIAL)) / f64::from(MAX_MATERIAL);
        (cubic(&self.a, t).max(1.0), cubic(&self.b, t).max(1.0))
    }

    /// Win, draw and loss probabilities of `cp` with `material` on the board.
    pub fn chances(&self, cp: f64, material: u32) -> (f64, f64, f64) {
        let (a, b) = self.params(material);
        chances(cp, a, b)
    }

    /// The chances per mille.
    pub fn wdl(&self, cp: i32, material: u32) -> Wdl {
        let (w, _, l) = self.chances(f64::from(cp), material);
        let (win, loss) = ((w * 1000.0).round() as u32, (l * 1000.0).round() as u32);
        Wdl { win, draw: 1000 - win - loss, loss }
    }
}

/// Win, draw and loss probabilities of `cp` for the model's `a` and `b` (`a` > 0, `b` > 0).
pub fn chances(cp: f64, a: f64, b: f64) -> (f64, f64, f64) {
    let win = 1.0 / (1.0 + ((a - cp) / b).exp());
    let loss = 1.0 / (1.0 + ((a + cp) / b).exp());
    (win, (1.0 - win - loss).max(0.0), loss)
}

/// The chances of a mate found: `moves` > 0 mates, < 0 is mated.
pub fn mate_wdl(moves: i32) -> Wdl {
    if moves > 0 { Wdl { win: 1000, draw: 0, loss: 0 } } else { Wdl { win: 0, draw: 0, loss: 1000 } }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::values::material_points as material;
    use crate::board::{Position, STARTPOS};

    #[test]
    fn the_initial_position_holds_all_the_material_and_a_bare_board_none() {
        assert_eq!(material(&Position::from_fen(STARTPOS).unwrap()), MAX_MATERIAL);
        assert_eq!(material(&Position::from_fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1").unwrap()), 0);
        assert_eq!(material(&Position::from_fen("8/8/4k3/8/8/3K4/1P6/7R w - - 0 1").unwrap()), 6);
    }

    #[test]
    fn chances_sum_to_a_thousand_rise_with_the_score_and_mirror() {
        for material in [0, 20, 50, MAX_MATERIAL] {
            let mut last_win = 0;
            for cp in (-1500..=1500).step_by(50) {
                let w = MODEL.wdl(cp, material);
                assert_eq!(w.win + w.draw + w.loss, 1000, "{cp} {material}: {w:?}");
                assert!(w.win >= last_win, "{cp} {material}: the win chance fell");
                last_win = w.win;
                let mirrored = MODEL.wdl(-cp, material);
                assert_eq!((w.win, w.loss), (mirrored.loss, mirrored.win), "{cp} {material}");
            }
        }
        // An even score is more often a draw than a win; a queen up is won.
        let even = MODEL.wdl(0, MAX_MATERIAL);
        assert!(even.draw > even.win && even.win.abs_diff(even.loss) <= 1, "{even:?}");
        assert!(MODEL.wdl(900, 40).win > 950);
    }

    /// A pawn up wins less often with fewer pieces left.
    #[test]
    fn the_same_score_wins_less_often_in_an_ending() {
        assert!(MODEL.wdl(100, 12).win < MODEL.wdl(100, 60).win);
    }

    #[test]
    fn a_mate_is_all_win_or_all_loss() {
        assert_eq!(mate_wdl(3), Wdl { win: 1000, draw: 0, loss: 0 });
        assert_eq!(mate_wdl(-1), Wdl { win: 0, draw: 0, loss: 1000 });
    }
}
