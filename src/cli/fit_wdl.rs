//! `fit-wdl`: the win/draw/loss model fitted to games' scores and results (see
//! `tuning::wdl`), printed as the constant the build reads, with its calibration.

use super::CliError;
use super::args::FitWdlArgs;
use crate::board::pgn_reader::read_games;
use crate::players::wdl::{MODEL, WdlModel};
use crate::tuning::wdl::{self, BAND_POSITIONS, Sample};
use std::path::PathBuf;

/// The calibration table's bands of score, in centipawns, and how far it reaches.
const TABLE_WIDTH: i32 = 100;
const TABLE_LIMIT: i32 = 800;

pub fn run(args: &FitWdlArgs) -> Result<(), CliError> {
    let samples = read_samples(&args.files, args.player.as_deref())?;
    let named = || args.files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
    let model = wdl::fit(&samples).ok_or_else(|| CliError::TooFewScores(named(), BAND_POSITIONS))?;
    outln!("{} scored moves fitted, from {}", samples.len(), named());
    for band in wdl::bands(&samples) {
        outln!("  material {:5.1}: a {:6.1}, b {:6.1} ({} moves)", band.material, band.a, band.b, band.positions);
    }
    outln!("{}", wdl::model_source(&model));
    let (check, which) = if args.check.is_empty() {
        (samples, "the games fitted")
    } else {
        (read_samples(&args.check, args.player.as_deref())?, "the held-out games")
    };
    outln!("\nOn {which} ({} scored moves):", check.len());
    report(&check, &model, "fitted");
    report(&check, &MODEL, "built in");
    Ok(())
}

fn read_samples(files: &[PathBuf], player: Option<&str>) -> Result<Vec<Sample>, CliError> {
    let mut samples = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|source| CliError::Read { path: path.clone(), source })?;
        for game in read_games(&text) {
            match game {
                Ok(g) => samples.extend(wdl::game_samples(&g, player)),
                Err(e) => errln!("{}: {e} (skipped)", path.display()),
            }
        }
    }
    Ok(samples)
}

fn report(samples: &[Sample], model: &WdlModel, name: &str) {
    outln!("{name} model: mean log-loss {:.4}", wdl::log_loss(samples, model));
    outln!("  score        moves   seen W/D/L %         expected W/D/L %");
    for row in wdl::calibration(samples, model, TABLE_WIDTH, TABLE_LIMIT) {
        let pct = |x: [f64; 3]| format!("{:5.1} {:5.1} {:5.1}", x[0] * 100.0, x[1] * 100.0, x[2] * 100.0);
        outln!("  {:5}..{:<5} {:6}   {}    {}", row.low, row.high, row.positions, pct(row.seen), pct(row.expected));
    }
}
