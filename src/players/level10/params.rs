//! Every margin, depth limit and reduction constant of level 10's tree, in one table beside the
//! search, each with the range a tuner may move it in (as `agentchess tune-search` and an SPSA
//! run read them).
//!
//! The tree reads its values from a `Params` it owns, so that a test can switch one technique
//! off (a depth limit of 0) and a tuner can try other values without a rebuild; the defaults
//! are what level 10 plays with.

/// Declares `Params` with one `i32` field a row, its default, and the table of all of them.
macro_rules! params {
    ($($(#[doc = $doc:expr])* $name:ident: $default:expr, $min:expr, $max:expr;)*) => {
        /// The search's tunable values (see the module's description).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: i32,)*
        }

        impl Default for Params {
            fn default() -> Params {
                Params { $($name: $default,)* }
            }
        }

        /// Every value by name: its default, the least and the most a tuner may set.
        pub const TABLE: &[Param] = &[$(Param { name: stringify!($name), default: $default, min: $min, max: $max },)*];

        impl Params {
            /// Sets the value called `name`; false when there is no such value or `value` lies
            /// outside its range.
            pub fn set(&mut self, name: &str, value: i32) -> bool {
                match name {
                    $(stringify!($name) if ($min..=$max).contains(&value) => { self.$name = value; true })*
                    _ => false,
                }
            }

            /// The value called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($name) => Some(self.$name),)*
                    _ => None,
                }
            }
        }
    };
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

params! {
    /// Aspiration windows from this depth on.
    aspiration_depth: 5, 1, 12;
    /// The first window's half width around the last iteration's score, in centipawns.
    aspiration_window: 14, 5, 60;
    /// The window grows to this many sixteenths of itself at each failure.
    aspiration_growth: 24, 17, 48;

    /// Reverse futility: a node this many plies or fewer from the leaves whose judgement stands
    /// `rfp_margin` a ply (less one ply when improving) above beta returns it.
    rfp_depth: 8, 0, 12;
    rfp_margin: 75, 30, 150;

    /// Null move: tried from this depth, reduced by `nmp_base` + depth / `nmp_depth_div` +
    /// (judgement - beta) / `nmp_eval_div` (that part at most 3) plies.
    nmp_depth: 2, 1, 6;
    nmp_base: 4, 2, 6;
    nmp_depth_div: 6, 3, 10;
    nmp_eval_div: 200, 80, 400;

    /// Internal iterative reduction: a node this deep with no table move is searched a ply
    /// shallower.
    iir_depth: 4, 2, 10;

    /// Late-move pruning to this depth: after (`lmp_base` / 100 + depth²) / 2 quiet moves
    /// (twice that when improving) the others are not tried.
    lmp_depth: 8, 0, 12;
    lmp_base: 300, 0, 800;

    /// Futility pruning of quiet moves to this depth: the judgement `futility_base` +
    /// `futility_margin` a ply below alpha, for a move whose histories together stay below
    /// `futility_history`.
    futility_depth: 8, 0, 12;
    futility_base: 80, 0, 250;
    futility_margin: 65, 30, 200;
    futility_history: 12_000, 0, 40_000;

    /// Continuation-history pruning to this depth (a ply less when improving): a quiet move
    /// whose score after the move before stays below `-cmh_prune_limit`, or after the move two
    /// plies before below twice that, is not tried.
    cmh_prune_depth: 3, 0, 6;
    cmh_prune_limit: 1_000, 0, 8_000;

    /// Static exchange pruning to this depth: a quiet move that loses `see_quiet_margin` a ply
    /// or more is not tried, nor a capture that loses `see_capture_margin` times the depth
    /// squared.
    see_depth: 9, 0, 14;
    see_quiet_margin: 60, 20, 150;
    see_capture_margin: 20, 5, 60;

    /// Singular extensions from this depth (0: none): the table's move, stored at least three
    /// plies less deep as a lower bound, is searched a ply deeper when every other move,
    /// searched half as deep, stays below its score less `singular_margin` / 16 cp a ply; two
    /// plies deeper when they stay `singular_double` further below (at most
    /// `singular_doubles` times on a line).
    singular_depth: 8, 0, 14;
    singular_margin: 16, 4, 64;
    singular_double: 20, 0, 80;
    singular_doubles: 6, 0, 12;

    /// Late-move reductions: `lmr_base` + ln(depth) ln(moves) / `lmr_divisor`, both in
    /// hundredths.
    lmr_base: 75, 0, 150;
    lmr_divisor: 225, 150, 350;
    /// A quiet move's histories together worth a ply of reduction less (more, below zero).
    lmr_history: 5_000, 1_000, 16_000;

    /// Time: the next iteration is not begun past `time_next_iteration` hundredths of the
    /// move's aim. The aim grows by `time_stability` hundredths for each iteration below four
    /// that the best move stayed the same (shrinks above), by `time_score_fall` hundredths for
    /// each centipawn the score fell over the last three iterations, and with the share of the
    /// nodes the other root moves took (`time_node_share` hundredths of it, plus one half).
    time_next_iteration: 60, 30, 90;
    time_stability: 6, 0, 15;
    time_score_fall: 2, 0, 8;
    time_node_share: 150, 50, 250;

    /// Quiescence: a capture that cannot bring the score within this much of alpha is left out.
    delta_margin: 200, 50, 400;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range() {
        let p = Params::default();
        for row in TABLE {
            assert!(row.min <= row.default && row.default <= row.max, "{}", row.name);
            assert_eq!(p.get(row.name), Some(row.default), "{}", row.name);
        }
        let names: std::collections::HashSet<&str> = TABLE.iter().map(|r| r.name).collect();
        assert_eq!(names.len(), TABLE.len(), "no name twice");
    }

    #[test]
    fn a_value_is_set_only_within_its_range() {
        let mut p = Params::default();
        assert!(p.set("rfp_margin", 100));
        assert_eq!(p.rfp_margin, 100);
        assert!(!p.set("rfp_margin", 1_000));
        assert_eq!(p.rfp_margin, 100);
        assert!(!p.set("no_such_value", 1));
    }
}
