//! Our Syzygy probes against python-chess's: every line of tests/data/syzygy_reference.txt
//! (`FEN;WDL;DTZ`, made by tests/data/make_syzygy_reference.py over the tables of
//! tests/data/syzygy) must get the same WDL and a DTZ of the same sign.
//!
//! Another reference file and its tables can be checked the same way:
//! `SYZYGY_REFERENCE=FILE SYZYGY_TABLES=DIR cargo test --release --test syzygy -- --nocapture`.

use agentchess::board::Position;
use agentchess::board::syzygy::Tablebase;

#[test]
fn probes_agree_with_python_chess() {
    let root = env!("CARGO_MANIFEST_DIR");
    let reference =
        std::env::var("SYZYGY_REFERENCE").unwrap_or_else(|_| format!("{root}/tests/data/syzygy_reference.txt"));
    let tables = std::env::var("SYZYGY_TABLES").unwrap_or_else(|_| format!("{root}/tests/data/syzygy"));
    let text = std::fs::read_to_string(&reference).expect("the reference file");
    let tb = Tablebase::open(&tables).expect("the tables");
    let (mut lines, mut exact) = (0, 0);
    let mut wrong = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split(';').collect();
        assert_eq!(fields.len(), 3, "{line}");
        let pos = Position::from_fen(fields[0]).unwrap_or_else(|e| panic!("{line}: {e}"));
        let wdl: i32 = fields[1].parse().unwrap();
        let dtz: i32 = fields[2].parse().unwrap();
        let ours_wdl = tb.probe_wdl(&pos).map(|w| w.to_i32());
        let ours_dtz = tb.probe_dtz(&pos);
        lines += 1;
        if ours_dtz == Some(dtz) {
            exact += 1;
        }
        if ours_wdl != Some(wdl) || ours_dtz.map(i32::signum) != Some(dtz.signum()) {
            wrong.push(format!("{line}: ours {ours_wdl:?} {ours_dtz:?}"));
        }
    }
    eprintln!("{lines} positions: WDL and DTZ sign agree on {}, DTZ equal on {exact}", lines - wrong.len());
    assert!(lines >= 1000 || std::env::var("SYZYGY_REFERENCE").is_ok(), "{lines} lines only");
    assert!(wrong.is_empty(), "{} disagreements:\n{}", wrong.len(), wrong.join("\n"));
}
