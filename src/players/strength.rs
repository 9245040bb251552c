//! Strength by Elo: `UCI_LimitStrength` with `UCI_Elo` (and XBoard's `LimitStrength` and `Elo`
//! options) choose the setting whose measured rating is nearest the one asked for.
//!
//! Two measurements make the ladder (docs/calibration.md has both runs and their tables). Up to
//! level 10 at 2,000 nodes the ratings are on Stockfish's `UCI_Elo` scale, measured by
//! `agentchess calibrate`; from there up to level 10 with no budget but the clock (the top),
//! on the public CCRL scale, measured against Fairy-Max, HoiChess and Phalanx held at their
//! CCRL ratings (and Toga II, rated against Phalanx), all playing at 10 s + 0.1 s. Where the two
//! meet (2,000 nodes) they differ by less than the games can tell. Below level 9 the settings are the levels themselves,
//! each a set of rules a player can name, and between two levels far apart (2 and 3, 7 and 9)
//! sets of rules in between: the lower level with some of level 9's rules, or level 9 without
//! some; above level 9, level 10 at a node budget, which is the same strength on every machine
//! and at every clock. Between two budgets the budget is interpolated (its logarithm in
//! proportion to the Elo), since strength grows smoothly with the nodes searched; between two
//! sets of rules the nearer one plays.

use thiserror::Error;

/// A setting the calibration rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// The agents at level 1-9, or level 10 with no budget but the clock (the top rung: full
    /// strength).
    Level(u8),
    /// Level 10 searching this many nodes a move.
    Nodes(u64),
    /// The agents with these features (`features:LIST`), between two levels.
    Features(&'static str),
}

/// A setting and its rating (`agentchess calibrate`), weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rung {
    pub setting: Setting,
    pub elo: u32,
}

const fn level(n: u8, elo: u32) -> Rung {
    Rung { setting: Setting::Level(n), elo }
}

const fn nodes(n: u64, elo: u32) -> Rung {
    Rung { setting: Setting::Nodes(n), elo }
}

const fn mix(list: &'static str, elo: u32) -> Rung {
    Rung { setting: Setting::Features(list), elo }
}

/// A set of rules rated between two levels, where one level's rules lift it far above the
/// one below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Between {
    /// `features:LIST`.
    pub list: &'static str,
    /// The levels it plays between: the calibration links it to both.
    pub levels: (u8, u8),
}

const fn between(list: &'static str, below: u8, above: u8) -> Between {
    Between { list, levels: (below, above) }
}

/// The sets of rules the calibration rates between two levels, weakest first: level 2 with one
/// of level 9's rules (levels 2 and 3 are 195 Elo apart), level 7 with some of level 9's rules
/// and level 9 without some (levels 7 and 9 are 560 apart). `LADDER` places them.
pub const BETWEEN_LEVELS: &[Between] = &[
    between("level2,placement,variety", 2, 3),
    between("level2,mating,variety", 2, 3),
    between("level7,placement,variety", 7, 9),
    between("level7,exchange,placement,variety", 7, 9),
    between("level9,-look-ahead,-exchange,-fork", 7, 9),
    between("level9,-look-ahead,-exchange", 7, 9),
    between("level9,-look-ahead", 7, 9),
    between("level9,-exchange,-fork,-mating", 7, 9),
    between("level9,-exchange", 7, 9),
    between("level9,-fork", 7, 9),
];

/// Level 10 at its lowest budgets without `leaf-checks`, rated between level 9 and level 10's
/// node budgets: with quiet checks in its leaves, level 10 plays over 200 Elo above level 9 at any
/// budget up to 250 nodes (its first iterations are searched whatever the budget), so nothing
/// else lies between. `features:LIST` with a node budget; `LADDER` places them.
pub const BELOW_BUDGETS: &[&str] = &["level10,-leaf-checks,nodes=60", "level10,-leaf-checks,nodes=120"];

/// The calibrations' ratings (docs/calibration.md; rounded), by rating: up to 2,000 nodes
/// against Stockfish 15.1 at 1 s + 0.01 s; from 4,000 nodes up the line in the logarithm of the
/// nodes that best explains the budgets' games against Fairy-Max, HoiChess, Phalanx and Toga II
/// at 10 s + 0.1 s (1902 at 4,000 nodes, 159 Elo a doubling). A budget rated above a larger
/// one (within their intervals) is left off, so that more Elo always plays more nodes. The top
/// is level 10 unlimited, rated by its own games against Phalanx and Toga II.
pub const LADDER: &[Rung] = &[
    level(1, 417),
    level(2, 472),
    mix("level2,placement,variety", 540),
    mix("level2,mating,variety", 612),
    level(3, 679),
    level(4, 680),
    level(5, 684),
    level(6, 711),
    level(8, 719),
    level(7, 724),
    mix("level7,placement,variety", 773),
    mix("level7,exchange,placement,variety", 801),
    mix("level9,-look-ahead,-exchange,-fork", 851),
    mix("level9,-look-ahead,-exchange", 906),
    mix("level9,-look-ahead", 982),
    mix("level9,-exchange,-fork,-mating", 1050),
    mix("level9,-exchange", 1149),
    mix("level9,-fork", 1238),
    level(9, 1286),
    mix("level10,-leaf-checks,nodes=60", 1382),
    mix("level10,-leaf-checks,nodes=120", 1449),
    nodes(60, 1543),
    nodes(120, 1566),
    nodes(250, 1582),
    nodes(500, 1654),
    nodes(1000, 1711),
    nodes(2000, 1777),
    nodes(4000, 1902),
    nodes(8000, 2061),
    nodes(16000, 2219),
    nodes(64000, 2537),
    nodes(128000, 2695),
    nodes(256000, 2854),
    nodes(512000, 3013),
    level(10, 3033),
];

/// The lowest and highest Elo a player can ask for.
pub fn range() -> (u32, u32) {
    (LADDER[0].elo, LADDER[LADDER.len() - 1].elo)
}

/// The Elo `UCI_Elo` offers until a GUI sets another.
pub const DEFAULT_ELO: u32 = 1500;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("Elo {elo} is outside the calibrated range {min} to {max}")]
pub struct EloError {
    pub elo: u32,
    pub min: u32,
    pub max: u32,
}

/// The setting that plays at `elo` on this ladder (sorted by rating).
pub fn setting_on(ladder: &[Rung], elo: u32) -> Result<Setting, EloError> {
    let (min, max) = (ladder[0].elo, ladder[ladder.len() - 1].elo);
    if !(min..=max).contains(&elo) {
        return Err(EloError { elo, min, max });
    }
    // The first rung at or above `elo`, and the one below it.
    let above = ladder.iter().position(|r| r.elo >= elo).expect("elo is within the ladder");
    let hi = ladder[above];
    if hi.elo == elo || above == 0 {
        return Ok(hi.setting);
    }
    let lo = ladder[above - 1];
    Ok(match (lo.setting, hi.setting) {
        (Setting::Nodes(a), Setting::Nodes(b)) => {
            let t = f64::from(elo - lo.elo) / f64::from(hi.elo - lo.elo);
            let ln = (a as f64).ln() + t * ((b as f64).ln() - (a as f64).ln());
            Setting::Nodes(ln.exp().round() as u64)
        }
        // Nearer wins; halfway, the weaker (a player who asks for less should not get more).
        _ if elo - lo.elo <= hi.elo - elo => lo.setting,
        _ => hi.setting,
    })
}

/// The setting that plays at `elo`.
pub fn setting(elo: u32) -> Result<Setting, EloError> {
    setting_on(LADDER, elo)
}

/// How far from the Elo asked a setting may be rated before the engine says so.
pub const NEAR: u32 = 50;

/// When nothing on this ladder is rated within `NEAR` of `elo`: the ratings of the rungs either
/// side, between which nothing is rated (the setting that plays is the nearer of the two).
/// Between two node budgets the budget is interpolated, so there is no gap there.
pub fn gap_on(ladder: &[Rung], elo: u32) -> Option<(u32, u32)> {
    let above = ladder.iter().position(|r| r.elo >= elo)?;
    let hi = ladder[above];
    let lo = ladder[above.checked_sub(1)?];
    let interpolated = matches!((lo.setting, hi.setting), (Setting::Nodes(_), Setting::Nodes(_)));
    let nearest = (elo - lo.elo).min(hi.elo - elo);
    (!interpolated && nearest > NEAR).then_some((lo.elo, hi.elo))
}

/// `gap_on` the calibrated ladder.
pub fn gap(elo: u32) -> Option<(u32, u32)> {
    gap_on(LADDER, elo)
}

/// What to say when nothing is rated near `elo`: `rated 746: nothing is rated between 746 and
/// 1292`.
pub fn gap_note(elo: u32) -> Option<String> {
    let (lo, hi) = gap(elo)?;
    // The nearer plays; halfway, the weaker (as `setting_on` chooses).
    let rated = if elo - lo <= hi - elo { lo } else { hi };
    Some(format!("rated {rated}: nothing is rated between {lo} and {hi}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST_LADDER: &[Rung] = &[level(1, 300), level(2, 400), level(9, 1300), nodes(100, 1400), nodes(400, 1600)];

    /// Nothing rated within 50 of the Elo asked is said: between two levels, not between two
    /// budgets (interpolated), nor at a rung.
    #[test]
    fn a_gap_in_the_ladder_is_found() {
        assert_eq!(gap_on(TEST_LADDER, 800), Some((400, 1300)));
        assert_eq!(gap_on(TEST_LADDER, 451), Some((400, 1300)));
        assert_eq!(gap_on(TEST_LADDER, 450), None);
        assert_eq!(gap_on(TEST_LADDER, 1250), None);
        assert_eq!(gap_on(TEST_LADDER, 1500), None, "budgets are interpolated");
        assert_eq!(gap_on(TEST_LADDER, 400), None);
        assert_eq!(gap_on(TEST_LADDER, 299), None);
    }

    #[test]
    fn both_ends_and_outside() {
        assert_eq!(setting_on(TEST_LADDER, 300), Ok(Setting::Level(1)));
        assert_eq!(setting_on(TEST_LADDER, 1600), Ok(Setting::Nodes(400)));
        assert_eq!(setting_on(TEST_LADDER, 299), Err(EloError { elo: 299, min: 300, max: 1600 }));
        assert_eq!(setting_on(TEST_LADDER, 1601), Err(EloError { elo: 1601, min: 300, max: 1600 }));
        assert_eq!(
            setting_on(TEST_LADDER, 0).unwrap_err().to_string(),
            "Elo 0 is outside the calibrated range 300 to 1600"
        );
    }

    #[test]
    fn between_levels_the_nearer_plays() {
        assert_eq!(setting_on(TEST_LADDER, 340), Ok(Setting::Level(1)));
        assert_eq!(setting_on(TEST_LADDER, 350), Ok(Setting::Level(1)), "halfway: the weaker");
        assert_eq!(setting_on(TEST_LADDER, 360), Ok(Setting::Level(2)));
        assert_eq!(setting_on(TEST_LADDER, 1000), Ok(Setting::Level(9)));
        // Between level 9 and the first budget: nearest too (they are different players).
        assert_eq!(setting_on(TEST_LADDER, 1340), Ok(Setting::Level(9)));
        assert_eq!(setting_on(TEST_LADDER, 1360), Ok(Setting::Nodes(100)));
    }

    #[test]
    fn between_budgets_the_budget_is_interpolated_geometrically() {
        // Halfway from 100 to 400 nodes in Elo is 200 nodes (the geometric mean).
        assert_eq!(setting_on(TEST_LADDER, 1500), Ok(Setting::Nodes(200)));
        let budgets: Vec<u64> = (1400..=1600)
            .step_by(10)
            .map(|e| match setting_on(TEST_LADDER, e) {
                Ok(Setting::Nodes(n)) => n,
                other => panic!("{e}: {other:?}"),
            })
            .collect();
        assert!(budgets.windows(2).all(|w| w[0] <= w[1]), "more Elo, never fewer nodes: {budgets:?}");
    }

    /// The shipped ladder: sorted, levels 1-9 once each, level 10 unlimited at the top, and every
    /// Elo in range playable.
    #[test]
    fn the_ladder_is_usable() {
        assert!(LADDER.windows(2).all(|w| w[0].elo <= w[1].elo), "sorted by rating");
        for n in 1..=10 {
            assert_eq!(LADDER.iter().filter(|r| r.setting == Setting::Level(n)).count(), 1, "level {n}");
        }
        assert_eq!(LADDER[LADDER.len() - 1].setting, Setting::Level(10), "the top is full strength");
        let rated = BETWEEN_LEVELS.iter().map(|b| b.list).chain(BELOW_BUDGETS.iter().copied());
        for list in rated {
            assert_eq!(LADDER.iter().filter(|r| r.setting == Setting::Features(list)).count(), 1, "{list}");
        }
        let budgets: Vec<u64> =
            LADDER.iter().filter_map(|r| if let Setting::Nodes(n) = r.setting { Some(n) } else { None }).collect();
        assert!(budgets.windows(2).all(|w| w[0] < w[1]), "more Elo, more nodes: {budgets:?}");
        let (min, max) = range();
        assert!((min..=max).contains(&DEFAULT_ELO));
        for elo in min..=max {
            assert_eq!(gap(elo), None, "{elo}: every Elo plays a setting rated within {NEAR} of it");
            match setting(elo).unwrap() {
                Setting::Level(n) => assert!((1..=9).contains(&n) || elo + NEAR >= max, "level {n} at {elo}"),
                Setting::Nodes(n) => assert!(n >= 1),
                Setting::Features(list) => {
                    let rated = BETWEEN_LEVELS.iter().any(|b| b.list == list) || BELOW_BUDGETS.contains(&list);
                    assert!(rated, "{list} is rated")
                }
            }
        }
    }
}
