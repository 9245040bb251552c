//! `explain`: why a player chooses its move in a position.

use super::CliError;
use super::args::{ExplainArgs, open_tables, probe_players};
use super::tournament::parse_levels;
use crate::agents::{self, Features, MasterAgent};
use crate::board::{Game, Position};
use crate::players::spec::PlayerKind;
use crate::players::{NoMove, Player, strength};

/// The position `explain` looks at: a FEN (or the start) and moves played from it.
fn explain_position(fen: Option<&str>, moves: &[String]) -> Result<Game, CliError> {
    let start = match fen {
        Some(f) => Position::from_fen(f).map_err(CliError::BadFen)?,
        None => Position::startpos(),
    };
    let mut game = Game::new(start);
    for text in moves {
        let mv = game.position().parse_move(text).map_err(|source| CliError::BadMove { text: text.clone(), source })?;
        game.play(mv);
    }
    Ok(game)
}

/// Why a player chooses its move in a position: for the agents of levels 1-9 every agent's
/// threat, best attack and best move, the worst threat, the request answers and the rule that
/// decided (the explain mode); for players that search (level 10, the searcher, an engine)
/// their decision and line: the move they play, as they would play it in a game with no clock.
/// With `--levels`, one line per level: what each would play and why.
pub fn run(args: &ExplainArgs) -> Result<(), CliError> {
    let seed = args.seed;
    // Everything that can fail is checked before the first line of the report.
    let game = explain_position(args.fen.as_deref(), &args.moves)?;
    let specs = match &args.levels {
        Some(list) => parse_levels(list)?,
        None => vec![args.player.spec().map_err(|source| CliError::BadSpec { spec: args.player.spec_text(), source })?],
    };
    if args.levels.is_none() {
        probe_players(&specs)?;
    }
    let tables = open_tables(args.syzygy.as_deref())?;
    let pos = *game.position();
    outln!("position {}", pos.to_fen());
    if pos.legal_moves().is_empty() {
        outln!("no legal move: {}", game.outcome().map_or("game over".to_string(), |o| o.reason().to_string()));
        return Ok(());
    }
    if args.levels.is_some() {
        for spec in &specs {
            if let Some(d) = spec.build(seed).decide(&game) {
                outln!("{spec:<8} {:<6} {}", pos.to_san(d.mv), d.reason);
            }
        }
        return Ok(());
    }
    let spec = &specs[0];
    if spec.resolved() != *spec {
        let gap = match spec.kind {
            PlayerKind::Elo(elo) => strength::gap_note(elo).map(|g| format!(" ({g})")),
            _ => None,
        };
        outln!("{spec} plays {}{}", spec.resolved(), gap.unwrap_or_default());
    }
    // Level 10's move is its tree's: what the agents alone would play is another move.
    match spec.agent_features().filter(|f| !f.has(Features::TREE)) {
        Some(features) => {
            let mut master = MasterAgent::new(features, seed);
            master.set_explain(true);
            // `decide` sees the game (repetitions, the moves before), as in play.
            if let Some(d) = Player::decide(&mut master, &game) {
                for line in master.explanation() {
                    outln!("{line}");
                }
                outln!("move {}", pos.to_san(d.mv));
            }
        }
        None => {
            let mut player = spec.build(seed);
            player.set_tablebase(tables);
            let Some(d) = player.decide(&game) else {
                let why = match player.no_move() {
                    Some(NoMove::Resign) => "it resigned".to_string(),
                    Some(NoMove::Fault(why)) => why,
                    None => "no reason given".to_string(),
                };
                return Err(CliError::NoMove { spec: spec.to_string(), why });
            };
            let mut at = pos;
            let line: Vec<String> =
                d.pv.iter()
                    .map(|&m| {
                        let san = at.to_san(m);
                        at = at.play(m);
                        san
                    })
                    .collect();
            outln!("{}", d.reason);
            outln!("line {}", line.join(" "));
            if spec.agent_features().is_some_and(|f| f.has(Features::AGENT_LEAVES)) {
                for text in leaf_terms(&at) {
                    outln!("{text}");
                }
            }
            outln!("move {}", pos.to_san(d.mv));
        }
    }
    Ok(())
}

/// How the agents judge the position at the end of the line, term by term (the leaf the
/// line's score comes from, before the tree's quiescence), from the side to move there.
fn leaf_terms(leaf: &Position) -> Vec<String> {
    let side = if leaf.side_to_move() == crate::board::Color::White { "White" } else { "Black" };
    let mut out = vec![format!("leaf judgement {:+} for {side} (to move)", agents::judge(leaf))];
    out.extend(agents::breakdown(leaf).into_iter().map(|(name, cp)| format!("  {cp:+5} {name}")));
    out
}
