//! No subcommand: the engine, speaking XBoard (or UCI) on stdin/stdout.

use super::CliError;
use super::args::EngineArgs;
use crate::protocol::engine::OwnPlayerError;
use crate::protocol::{self, Engine, HELP};

/// Speaks the protocol on stdin/stdout until `quit` or the end of input.
pub fn run(args: &EngineArgs) -> Result<(), CliError> {
    let spec = args.player.spec().map_err(OwnPlayerError::from)?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut engine = match args.seed {
        Some(_) => Engine::new(spec.clone(), seed)?,
        None => Engine::new(spec.clone(), seed)?.fresh_seed_every_game(),
    };
    if let Some(n) = args.threads {
        let most = crate::protocol::engine::max_threads();
        if n as usize > most {
            return Err(CliError::TooManyThreads { asked: n, cores: most });
        }
        engine.set_threads(n as usize);
    }
    log::info!("player {spec}, seed {seed}, {} search threads", engine.threads());
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        // A person, not a GUI: say what this is and how to leave (`help` repeats it).
        errln!("{} -- type `help` for more, `quit` to leave.", HELP[0]);
    }
    // The input goes to a reader thread and the output to a writer thread, which need owned,
    // sendable handles.
    match protocol::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout(), engine) {
        Ok(()) => Ok(()),
        // The GUI closed our output: nobody is left to play for, which is not an engine failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::ProtocolIo(e)),
    }
}
