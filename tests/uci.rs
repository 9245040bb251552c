//! The UCI session, as transcripts against the deterministic test player (tests/common); the
//! transcripts are files under tests/data/transcripts/uci.

mod common;

use common::uci_file;

#[test]
fn uci_session() {
    uci_file("uci/session");
}

#[test]
fn uci_bad_input() {
    uci_file("uci/bad_input");
}

/// UCI: "if the engine or the GUI receives an unknown command or token it should just ignore
/// it and try to parse the rest of the string in this line". A `go` that is not answered with
/// `bestmove` leaves the GUI waiting until it forfeits the engine.
#[test]
fn uci_skips_unknown_tokens_and_always_answers_go() {
    uci_file("uci/unknown_tokens");
}
