//! Output paths checked before the work that fills them: a report directory or file that cannot
//! be written is an error at once, not after every game has been played.

use super::CliError;
use std::path::Path;

/// `dir` exists (or is made) and a file can be created in it.
pub(super) fn check_dir(dir: &Path) -> Result<(), CliError> {
    let wrap = |source| CliError::WriteDir { dir: dir.to_path_buf(), source };
    std::fs::create_dir_all(dir).map_err(wrap)?;
    let probe = dir.join(format!(".agentchess-probe-{}", std::process::id()));
    std::fs::File::create(&probe).map_err(wrap)?;
    std::fs::remove_file(&probe).map_err(wrap)
}

/// `path` can be written: an existing file is opened to append (nothing in it changes), a new one
/// is created and removed again.
pub(super) fn check_file(path: &Path) -> Result<(), CliError> {
    let wrap = |source| CliError::Write { path: path.to_path_buf(), source };
    if path.exists() {
        std::fs::OpenOptions::new().append(true).open(path).map(drop).map_err(wrap)
    } else {
        std::fs::File::create(path).map_err(wrap)?;
        std::fs::remove_file(path).map_err(wrap)
    }
}

/// `output` (`what` says which: `--csv`, `--pgn`) names none of `inputs`, compared as the
/// files they are (a relative path, `./`, a link), so that a run never writes over what it reads.
pub(super) fn check_not_input(output: &Path, inputs: &[&Path], what: &'static str) -> Result<(), CliError> {
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    let clash = match real(output) {
        Some(out) => inputs.iter().any(|i| real(i).as_ref() == Some(&out)),
        None => inputs.contains(&output),
    };
    match clash {
        true => Err(CliError::OutputIsInput { path: output.to_path_buf(), what }),
        false => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_is_an_input_is_refused() {
        let dir = std::env::temp_dir().join(format!("agentchess-clash-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("suite.epd");
        std::fs::write(&input, "kept").unwrap();
        let same = dir.join(".").join("suite.epd");
        assert!(check_not_input(&same, &[Path::new("other.epd"), &input], "--csv").is_err());
        assert!(check_not_input(&input, &[&input], "--csv").is_err());
        assert!(check_not_input(&dir.join("out.csv"), &[&input], "--csv").is_ok());
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "kept");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn paths_that_cannot_be_written_are_found_at_once() {
        assert!(check_dir(Path::new("/proc/agentchess-report")).is_err());
        assert!(check_file(Path::new("/proc/agentchess.pgn")).is_err());
        assert!(check_file(Path::new("/nonexistent-dir/agentchess.pgn")).is_err());
        let dir = std::env::temp_dir().join(format!("agentchess-output-{}", std::process::id()));
        check_dir(&dir).unwrap();
        let file = dir.join("games.pgn");
        check_file(&file).unwrap();
        assert!(!file.exists(), "the probe of a new file is removed");
        std::fs::write(&file, "kept").unwrap();
        check_file(&file).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
