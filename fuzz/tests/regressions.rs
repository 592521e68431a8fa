//! Every input the fuzzer ever found a problem with (kept in `tests/fuzz/TARGET-HASH.txt`) runs
//! through its target again: no panic, no broken property.

use std::fs;
use std::path::Path;

use logicmd_fuzz::targets;

#[test]
fn every_kept_find_passes_its_target() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fuzz");
    let mut paths: Vec<_> = fs::read_dir(&dir)
        .expect("tests/fuzz exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no finds kept in {}", dir.display());
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let target = name.split('-').next().unwrap();
        assert!(targets::ALL.contains(&target), "{name}: unknown target");
        let text = fs::read_to_string(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| targets::run(target, &text));
        assert_eq!(outcome.ok(), Some(Ok(())), "{name}");
    }
}
