//! The win/draw/loss model behind `UCI_ShowWDL` against the results of games it was not
//! fitted to: level 10's self-play at 2 s + 0.02 s (tests/data/wdl_check.pgn, each move's
//! score in its comment; docs/tuning.md says how the model was fitted).

use agentchess::board::pgn_reader::read_games;
use agentchess::players::wdl::MODEL;
use agentchess::tuning::wdl::{self, Outcome, Sample};

fn samples() -> Vec<Sample> {
    let text = std::fs::read_to_string("tests/data/wdl_check.pgn").unwrap();
    read_games(&text).into_iter().flat_map(|g| wdl::game_samples(&g.unwrap(), None)).collect()
}

/// Where most scores fall, the chances the model gives are the shares the games had.
#[test]
fn the_model_matches_the_outcomes_of_games_it_was_not_fitted_to() {
    let samples = samples();
    assert!(samples.len() > 20_000, "{}", samples.len());
    let rows = wdl::calibration(&samples, &MODEL, 100, 300);
    assert_eq!(rows.len(), 6);
    for row in rows {
        assert!(row.positions >= 1_000, "{row:?}");
        for k in 0..3 {
            assert!((row.seen[k] - row.expected[k]).abs() < 0.07, "{row:?}");
        }
    }
}

/// The built-in model predicts these games nearly as well as a model fitted to them (which
/// learns their 200 games in part by heart), and far better than one that knows only how often
/// games are won, drawn and lost.
#[test]
fn the_model_predicts_as_well_as_a_fit_to_the_games_themselves() {
    let samples = samples();
    let own = wdl::fit(&samples).expect("enough scores for a fit");
    let built_in = wdl::log_loss(&samples, &MODEL);
    let fitted = wdl::log_loss(&samples, &own);
    assert!(built_in < fitted + 0.02, "{built_in} against {fitted} fitted to these games");
    let share = |o: Outcome| samples.iter().filter(|s| s.outcome == o).count() as f64 / samples.len() as f64;
    let blind = -[Outcome::Win, Outcome::Draw, Outcome::Loss].iter().map(|&o| share(o) * share(o).ln()).sum::<f64>();
    assert!(built_in < blind - 0.2, "{built_in} against {blind} knowing only the shares");
}
