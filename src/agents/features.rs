//! The agent logic as named feature flags (thesis Table 2.1, and the thesis's future work for
//! level 9). A level is only a preset of flags: the rules ask
//! `features.has(Features::ATTACK_REQUEST)`, never `level >= 5`.

use std::fmt;
use thiserror::Error;

/// A set of agent-logic features. `Copy`, four bytes; a tiny hand-made bitflag type.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Features(u32);

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FeatureError {
    #[error("unknown agent feature '{name}' (known: {known})")]
    Unknown { name: String, known: String },
    #[error("agent level {0} does not exist (levels are 1 to 10)")]
    Level(u32),
}

impl Features {
    /// Level 1: agents see their own threat, moves and attacks (thesis 2.2.2, level 1).
    pub const FOUNDATION: Features = Features(1 << 0);
    /// Level 2: threats count one defender and the cheapest attacker; attacks and planned
    /// attacks subtract the threat on the square captured on.
    pub const THREAT_AND_BACKUP: Features = Features(1 << 1);
    /// Level 3: a move onto a threatened square loses its planned attack; equal move-attacks
    /// rank above plain moves.
    pub const MOVE_ATTACK: Features = Features(1 << 2);
    /// Level 4: the threatened agent's options and everyone else's are compared by net result.
    pub const THREAT_MOVE: Features = Features(1 << 3);
    /// Level 5: other agents may capture an attacker of the worst threatened agent.
    pub const ATTACK_REQUEST: Features = Features(1 << 4);
    /// Level 6 and 7: other agents may guard the worst threatened agent or block its attacker.
    pub const DEFENSE_REQUEST: Features = Features(1 << 5);
    /// Level 8: defense requests only when all of the threatened agent's own options lose.
    pub const RESTRICTED_DEFENSE_REQUEST: Features = Features(1 << 6);
    /// Level 7 and 8: a move may not leave another agent worse off than the worst threat.
    pub const DEFENSE_CONSIDERATION: Features = Features(1 << 7);

    // Level 9: the thesis's future work (chapter 6), one flag per rule (docs/agents.md).

    /// Threats and profits from the whole exchange on the square: every attacker and defender,
    /// cheapest first, x-ray backups, the king only last (`exchange.rs`; thesis 3.2.5, 6).
    pub const EXCHANGE: Features = Features(1 << 8);
    /// Double move-attacks: a move that attacks two targets the opponent cannot both save is
    /// worth the smaller gain (`fork.rs`; thesis 3.2.4, 6).
    pub const FORK: Features = Features(1 << 9);
    /// Mate in one first, no free credit for checks, and a mating net against a bare king
    /// (`mating/`; thesis 3.1.3, 6).
    pub const MATING: Features = Features(1 << 10);
    /// Passed pawns go for promotion; the opponent's promotion threats are answered
    /// (`promotion.rs`).
    pub const PROMOTION: Features = Features(1 << 11);
    /// The few best candidates are checked against the opponent's agents' best answers
    /// (`look_ahead/`; thesis 4.1, 6).
    pub const LOOK_AHEAD: Features = Features(1 << 12);
    /// Defense requests are answered only when the answer saves more than it exposes
    /// (`defense_balance` in `agent.rs`; thesis 3.2.3, 4.3).
    pub const DEFENSE_BALANCE: Features = Features(1 << 13);
    /// Where an agent stands is worth something beside material: the centre, mobility, a
    /// sheltered king, castling (`placement.rs`; thesis 3.2.6, 5).
    pub const PLACEMENT: Features = Features(1 << 14);
    /// Games that vary: in the opening, moves the rules rate alike are chosen by the game's
    /// seed, not always the same way (`variety.rs`).
    pub const VARIETY: Features = Features(1 << 21);

    // Level 10: the agents think ahead with the clock (`players::level10`), one flag per part.

    /// The agents' tree: iterative deepening alpha-beta over the agents' moves, within the
    /// clock. Without it the other level 10 flags do nothing.
    pub const TREE: Features = Features(1 << 15);
    /// The tree asks the agents at its nodes and tries the quiet moves they propose before the
    /// others. Off: quiet moves by how often they refuted a position before, the traditional way.
    pub const AGENT_SELECTION: Features = Features(1 << 16);
    /// The tree's leaves are judged by the agents, each of its own piece (`judgement`). Off: by
    /// a conventional evaluation with piece-square tables, tuned the same way.
    pub const AGENT_LEAVES: Features = Features(1 << 17);
    /// At the leaves, the captures the agents' exchange estimate does not lose are played out.
    pub const QUIESCENCE: Features = Features(1 << 18);
    /// Positions met again are looked up in a table instead of searched again.
    pub const TRANSPOSITION: Features = Features(1 << 19);
    /// A side still ahead after passing its move is not searched deeper.
    pub const NULL_MOVE: Features = Features(1 << 20);
    /// Quiet moves the agents did not propose are searched a ply shallower, and near the leaves
    /// not at all (the tree blinded to what the agents do not see). Needs `agent-selection`.
    pub const AGENT_PRUNING: Features = Features(1 << 22);
    /// The agents' knowledge shapes how deep a late quiet move is searched: a proposed move or
    /// one that takes the worst threatened piece away a ply deeper, a move onto a square the
    /// exchange estimate loses a ply shallower. Not in level 10: asking costs more time than
    /// the reductions give.
    pub const AGENT_REDUCTIONS: Features = Features(1 << 23);
    /// While the side to move has a piece the exchange estimate says it loses, the tree does
    /// not pass (null move) or cut the node on its static judgement. Not in level 10: the
    /// larger trees cost more time than the guard gives.
    pub const THREAT_GUARD: Features = Features(1 << 24);
    /// The first ply of the leaves also plays out the quiet checks that do not lose the
    /// checking piece, so that a mate by a quiet check is seen where the search ends.
    pub const LEAF_CHECKS: Features = Features(1 << 25);

    pub const NONE: Features = Features(0);

    /// Every flag with its command-line name, in the order of Table 2.1, then level 9's.
    pub const NAMED: [(Features, &'static str); 26] = [
        (Features::FOUNDATION, "foundation"),
        (Features::THREAT_AND_BACKUP, "threat-and-backup"),
        (Features::MOVE_ATTACK, "move-attack"),
        (Features::THREAT_MOVE, "threat-move"),
        (Features::ATTACK_REQUEST, "attack-request"),
        (Features::DEFENSE_REQUEST, "defense-request"),
        (Features::RESTRICTED_DEFENSE_REQUEST, "restricted-defense-request"),
        (Features::DEFENSE_CONSIDERATION, "defense-consideration"),
        (Features::EXCHANGE, "exchange"),
        (Features::FORK, "fork"),
        (Features::MATING, "mating"),
        (Features::PROMOTION, "promotion"),
        (Features::LOOK_AHEAD, "look-ahead"),
        (Features::DEFENSE_BALANCE, "defense-balance"),
        (Features::PLACEMENT, "placement"),
        (Features::VARIETY, "variety"),
        (Features::TREE, "tree"),
        (Features::AGENT_SELECTION, "agent-selection"),
        (Features::AGENT_LEAVES, "agent-leaves"),
        (Features::QUIESCENCE, "quiescence"),
        (Features::TRANSPOSITION, "transposition"),
        (Features::NULL_MOVE, "null-move"),
        (Features::AGENT_PRUNING, "agent-pruning"),
        (Features::AGENT_REDUCTIONS, "agent-reductions"),
        (Features::THREAT_GUARD, "threat-guard"),
        (Features::LEAF_CHECKS, "leaf-checks"),
    ];

    /// Level 9's new rules, each usable alone (the ablation removes one at a time).
    pub const LEVEL_9_RULES: Features = Features(
        Features::EXCHANGE.0
            | Features::FORK.0
            | Features::MATING.0
            | Features::PROMOTION.0
            | Features::LOOK_AHEAD.0
            | Features::DEFENSE_BALANCE.0
            | Features::PLACEMENT.0
            | Features::VARIETY.0,
    );

    /// Level 10's parts on top of level 9.
    pub const LEVEL_10_PARTS: Features = Features(
        Features::TREE.0
            | Features::AGENT_SELECTION.0
            | Features::AGENT_LEAVES.0
            | Features::QUIESCENCE.0
            | Features::TRANSPOSITION.0
            | Features::NULL_MOVE.0
            | Features::LEAF_CHECKS.0,
    );

    /// The parts of the tree level 10 leaves out, which `level10,X` adds.
    pub const LEFT_OUT_OF_LEVEL_10: Features =
        Features(Features::AGENT_PRUNING.0 | Features::AGENT_REDUCTIONS.0 | Features::THREAT_GUARD.0);

    /// Every part of the tree, level 10's and the ones it leaves out.
    pub const TREE_PARTS: Features = Features(Features::LEVEL_10_PARTS.0 | Features::LEFT_OUT_OF_LEVEL_10.0);

    /// The highest level.
    pub const MAX_LEVEL: u32 = 10;

    /// The preset of thesis Table 2.1 for level `n` (1..=8); level 9: level 7's tier (full
    /// defense requests with defense consideration) with the seven rules of the thesis's future
    /// work and `variety`; level 10: level 9 thinking ahead with every part of the tree.
    pub fn level(n: u32) -> Result<Features, FeatureError> {
        let f = |bits: &[Features]| bits.iter().fold(Features::NONE, |acc, &b| acc | b);
        let base =
            f(&[Features::FOUNDATION, Features::THREAT_AND_BACKUP, Features::MOVE_ATTACK, Features::THREAT_MOVE]);
        Ok(match n {
            1 => Features::FOUNDATION,
            2 => f(&[Features::FOUNDATION, Features::THREAT_AND_BACKUP]),
            3 => f(&[Features::FOUNDATION, Features::THREAT_AND_BACKUP, Features::MOVE_ATTACK]),
            4 => base,
            5 => base | Features::ATTACK_REQUEST,
            6 => base | Features::ATTACK_REQUEST | Features::DEFENSE_REQUEST,
            7 => base | Features::ATTACK_REQUEST | Features::DEFENSE_REQUEST | Features::DEFENSE_CONSIDERATION,
            8 => {
                base | Features::ATTACK_REQUEST | Features::RESTRICTED_DEFENSE_REQUEST | Features::DEFENSE_CONSIDERATION
            }
            9 => {
                base | Features::ATTACK_REQUEST
                    | Features::DEFENSE_REQUEST
                    | Features::DEFENSE_CONSIDERATION
                    | Features::LEVEL_9_RULES
            }
            10 => Features::level(9)? | Features::LEVEL_10_PARTS,
            _ => return Err(FeatureError::Level(n)),
        })
    }

    /// Parses a comma-separated list of kebab-case names ("attack-request,defense-consideration").
    /// The foundation is always included: every other feature extends it. Underscores are
    /// accepted for the code's own spelling (`threat_and_backup`). `levelN` adds a level's
    /// preset and `-name` takes a feature away, so `level9,-fork` is level 9 without forks
    /// (the ablation's players).
    pub fn parse(list: &str) -> Result<Features, FeatureError> {
        let mut set = Features::FOUNDATION;
        for raw in list.split(',') {
            let name = raw.trim().to_ascii_lowercase().replace('_', "-");
            let (remove, name) = match name.strip_prefix('-') {
                Some(rest) => (true, rest.to_string()),
                None => (false, name),
            };
            if name.is_empty() {
                continue;
            }
            let flag = match name.strip_prefix("level").and_then(|n| n.parse::<u32>().ok()) {
                Some(n) => Features::level(n)?,
                None => match Features::NAMED.iter().find(|(_, n)| *n == name) {
                    Some((flag, _)) => *flag,
                    None => {
                        let known = Features::NAMED.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(", ");
                        return Err(FeatureError::Unknown { name: raw.trim().to_string(), known });
                    }
                },
            };
            set = if remove { set.without(flag) } else { set | flag };
        }
        // Every rule extends the foundation, so it cannot be taken away.
        Ok(set | Features::FOUNDATION)
    }

    #[inline]
    pub const fn has(self, flag: Features) -> bool {
        self.0 & flag.0 == flag.0 && flag.0 != 0
    }

    #[inline]
    pub const fn without(self, flag: Features) -> Features {
        Features(self.0 & !flag.0)
    }

    /// Whether defense requests are answered at all (plain or restricted).
    #[inline]
    pub const fn any_defense_request(self) -> bool {
        self.has(Features::DEFENSE_REQUEST) || self.has(Features::RESTRICTED_DEFENSE_REQUEST)
    }

    /// The level this set is a preset of, if any.
    pub fn as_level(self) -> Option<u32> {
        (1..=Features::MAX_LEVEL).find(|&n| Features::level(n).ok() == Some(self))
    }

    /// "L5" for a preset, "F" for a custom set: the prefix of every decision reason.
    pub fn label(self) -> String {
        match self.as_level() {
            Some(n) => format!("L{n}"),
            None => "F".to_string(),
        }
    }

    pub fn bits(self) -> u32 {
        self.0
    }
}

impl std::ops::BitOr for Features {
    type Output = Features;
    #[inline]
    fn bitor(self, rhs: Features) -> Features {
        Features(self.0 | rhs.0)
    }
}

impl fmt::Display for Features {
    /// The kebab-case list `parse` accepts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (flag, name) in Features::NAMED {
            if self.has(flag) {
                if !first {
                    f.write_str(",")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Features({self})")
    }
}

impl std::str::FromStr for Features {
    type Err = FeatureError;
    fn from_str(s: &str) -> Result<Features, FeatureError> {
        Features::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Level 9 is level 7's tier with the seven new rules; the thesis's levels have none of them.
    #[test]
    fn level_9_adds_the_seven_rules_to_level_7() {
        let l9 = Features::level(9).unwrap();
        assert_eq!(l9.without(Features::LEVEL_9_RULES), Features::level(7).unwrap());
        for (flag, name) in &Features::NAMED[8..15] {
            assert!(l9.has(*flag), "{name}");
            for n in 1..=8 {
                assert!(!Features::level(n).unwrap().has(*flag), "level {n} has {name}");
            }
        }
        assert_eq!(l9.as_level(), Some(9));
        assert_eq!(l9.label(), "L9");
        let no_fork = Features::parse("level9,-fork").unwrap();
        assert_eq!(no_fork, l9.without(Features::FORK));
        assert_eq!(no_fork.label(), "F");
        assert_eq!(Features::parse("level3").unwrap(), Features::level(3).unwrap());
        assert_eq!(Features::parse("-foundation,move-attack").unwrap(), Features::parse("move-attack").unwrap());
        assert!(Features::parse("level11").is_err());
    }

    /// Level 10 is level 9 with the parts of the tree but the ones it leaves out; no lower
    /// level has any of them.
    #[test]
    fn level_10_adds_the_tree_to_level_9() {
        let l10 = Features::level(10).unwrap();
        assert_eq!(l10.without(Features::LEVEL_10_PARTS), Features::level(9).unwrap());
        let left_out = Features::LEFT_OUT_OF_LEVEL_10;
        for flag in [Features::AGENT_PRUNING, Features::AGENT_REDUCTIONS, Features::THREAT_GUARD] {
            assert!(left_out.has(flag) && !l10.has(flag));
        }
        for (flag, name) in Features::NAMED[16..].iter() {
            assert!(Features::TREE_PARTS.has(*flag), "{name}");
            if left_out.has(*flag) {
                assert!(!Features::LEVEL_10_PARTS.has(*flag), "{name}");
                continue;
            }
            assert!(l10.has(*flag), "{name}");
            assert!(Features::LEVEL_10_PARTS.has(*flag), "{name}");
            for n in 1..=9 {
                assert!(!Features::level(n).unwrap().has(*flag), "level {n} has {name}");
            }
        }
        assert_eq!(l10.as_level(), Some(10));
        let full_width = Features::parse("level10,-agent-selection").unwrap();
        assert!(full_width.has(Features::TREE) && !full_width.has(Features::AGENT_SELECTION));
    }

    /// Table 2.1 row by row: which levels carry each feature.
    #[test]
    fn levels_are_table_2_1() {
        let rows: [(Features, [bool; 8]); 8] = [
            (Features::FOUNDATION, [true; 8]),
            (Features::THREAT_AND_BACKUP, [false, true, true, true, true, true, true, true]),
            (Features::MOVE_ATTACK, [false, false, true, true, true, true, true, true]),
            (Features::THREAT_MOVE, [false, false, false, true, true, true, true, true]),
            (Features::ATTACK_REQUEST, [false, false, false, false, true, true, true, true]),
            (Features::DEFENSE_REQUEST, [false, false, false, false, false, true, true, false]),
            (Features::RESTRICTED_DEFENSE_REQUEST, [false, false, false, false, false, false, false, true]),
            (Features::DEFENSE_CONSIDERATION, [false, false, false, false, false, false, true, true]),
        ];
        for (flag, levels) in rows {
            for (i, &expected) in levels.iter().enumerate() {
                let set = Features::level(i as u32 + 1).unwrap();
                assert_eq!(set.has(flag), expected, "level {} feature {flag}", i + 1);
            }
        }
        assert!(Features::level(0).is_err());
        assert!(Features::level(11).is_err());
    }

    #[test]
    fn parse_and_display_round_trip() {
        let f = Features::parse("attack-request, defense-consideration").unwrap();
        assert!(f.has(Features::FOUNDATION));
        assert!(f.has(Features::ATTACK_REQUEST) && f.has(Features::DEFENSE_CONSIDERATION));
        assert!(!f.has(Features::DEFENSE_REQUEST));
        assert_eq!(f.to_string(), "foundation,attack-request,defense-consideration");
        assert_eq!(Features::parse(&f.to_string()).unwrap(), f);
        assert_eq!(Features::parse("threat_and_backup").unwrap(), Features::level(2).unwrap());
        assert_eq!(Features::parse("").unwrap(), Features::level(1).unwrap());
        for n in 1..=10 {
            let set = Features::level(n).unwrap();
            assert_eq!(Features::parse(&set.to_string()).unwrap(), set);
            assert_eq!(set.as_level(), Some(n));
        }
    }

    #[test]
    fn unknown_names_are_reported() {
        let err = Features::parse("attack-request,teleport").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("'teleport'"), "{text}");
        assert!(text.contains("defense-consideration"), "{text}");
    }
}
