//! The CLI's part of the cross-driver test (`tests/cross-driver/README.md`): each document there,
//! run with its script, writes exactly the trace the npm package and the studio's driver write.
//! `LOGICMD_BLESS=1` writes the expected traces from this run.

mod harness;

use std::fs;
use std::path::{Path, PathBuf};

use harness::{run_in, stderr, Scratch};

fn cases() -> Vec<(String, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cross-driver");
    let mut cases: Vec<(String, PathBuf)> = fs::read_dir(&dir)
        .expect("the cross-driver cases exist")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_name()?.to_str()?.to_owned();
            let stem = name
                .strip_suffix(".logic.md")
                .or_else(|| name.strip_suffix(".drtl.yaml"))?;
            Some((stem.to_owned(), path))
        })
        .collect();
    cases.sort();
    cases
}

#[test]
fn each_case_writes_the_shared_trace_byte_for_byte() {
    let scratch = Scratch::new("cross-driver");
    let cases = cases();
    assert_eq!(cases.len(), 3, "{cases:?}");
    for (name, document) in cases {
        let dir = document.parent().unwrap();
        let script = dir.join(format!("{name}.script.yaml"));
        let expected = dir.join(format!("{name}.trace.jsonl"));
        let trace = scratch.0.join(format!("{name}.jsonl"));
        let output = run_in(
            &scratch.0,
            &[
                "run",
                document.to_str().unwrap(),
                "--provider",
                &format!("scripted:{}", script.display()),
                "--trace",
                trace.to_str().unwrap(),
                "--progress",
                "off",
            ],
            None,
        );
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{name}: {}",
            stderr(&output)
        );
        let written = fs::read(&trace).expect("the trace is written");
        if std::env::var_os("LOGICMD_BLESS").is_some() {
            fs::write(&expected, &written).expect("the expected trace is writable");
            continue;
        }
        let wanted = fs::read(&expected).expect("the expected trace exists (LOGICMD_BLESS=1)");
        assert!(
            written == wanted,
            "{name}: the CLI's trace differs from {}:\n{}",
            expected.display(),
            String::from_utf8_lossy(&written)
        );
    }
}
