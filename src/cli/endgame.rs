//! `endgame`: the endgame drill.

use super::CliError;
use super::args::{EndgameArgs, threads};
use crate::experiments::endgame::{Material, run_drill};
use crate::players::spec::PlayerSpec;
use std::time::Instant;

/// The endgame drill: mates, moves and every failure with its start position.
pub fn run(args: &EndgameArgs) -> Result<(), CliError> {
    let material = Material::parse(&args.material)?;
    let (player, defender) = (args.player.parse::<PlayerSpec>()?, args.defender.parse::<PlayerSpec>()?);
    let start = Instant::now();
    let games = run_drill(&material, args.positions as usize, &player, &defender, args.seed, threads(args.threads));
    let mated: Vec<_> = games.iter().filter(|g| g.mated()).collect();
    let longest = mated.iter().map(|g| g.moves).max().unwrap_or(0);
    let mean = mated.iter().map(|g| g.moves).sum::<usize>() as f64 / mated.len().max(1) as f64;
    for g in games.iter().filter(|g| !g.mated()) {
        outln!("not mated: {} ({}, {} moves): {}", g.start, g.outcome.reason(), g.moves, g.san.join(" "));
    }
    outln!(
        "{} {player} vs {defender}: {} of {} mated ({:.1}%), mean {mean:.1} moves, longest {longest}, {:.1} s",
        args.material.to_ascii_uppercase(),
        mated.len(),
        games.len(),
        100.0 * mated.len() as f64 / games.len().max(1) as f64,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
