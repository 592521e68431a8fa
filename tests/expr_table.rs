//! `{{ }}` expressions give exactly what JavaScript (Node) gives, over the table in
//! tests/expr/table.json. When `node` is on PATH the table is regenerated first and must match
//! the checked-in one, so the expectations cannot drift from JavaScript.

use std::process::Command;

use logicmd::expr::eval_str;
use logicmd_tests::json_eq::first_difference;
use logicmd_tests::workspace_root;
use serde_json::Value;

fn load(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).expect("the expression table is readable");
    serde_json::from_str(&text).expect("the expression table is JSON")
}

#[test]
fn expressions_match_javascript() {
    let dir = workspace_root().join("tests/expr");
    let table = load(&dir.join("table.json"));
    let fresh =
        std::env::temp_dir().join(format!("logicmd-expr-table-{}.json", std::process::id()));
    match Command::new("node")
        .arg(dir.join("table.mjs"))
        .arg(&fresh)
        .output()
    {
        Ok(out) if out.status.success() => {
            let regenerated = load(&fresh);
            let _ = std::fs::remove_file(&fresh);
            assert_eq!(
                regenerated, table,
                "tests/expr/table.json is stale: run `node tests/expr/table.mjs`"
            );
        }
        _ => eprintln!("node is not available: using the checked-in table without regenerating it"),
    }
    let context = &table["context"];
    let cases = table["cases"].as_array().expect("cases");
    assert!(
        cases.len() >= 150,
        "the table has {} expressions",
        cases.len()
    );
    let mut failures = Vec::new();
    for case in cases {
        let expr = case["expr"].as_str().unwrap_or_default();
        let expected = &case["expected"];
        let result = std::panic::catch_unwind(|| eval_str(expr, context));
        let verdict = match (result, expected.get("error").is_some()) {
            (Err(_), _) => Some("panicked".to_owned()),
            (Ok(Err(_)), true) => None,
            (Ok(Err(e)), false) => Some(format!(
                "error `{}`, expected {}",
                e.message, expected["value"]
            )),
            (Ok(Ok(v)), true) => Some(format!("gave {v}, expected an error")),
            (Ok(Ok(v)), false) => {
                first_difference(&expected["value"], &v).map(|d| format!("gave {v}: {d}"))
            }
        };
        if let Some(why) = verdict {
            failures.push(format!("{expr:>40}  {why}"));
        }
    }
    println!(
        "{}/{} expressions match JavaScript",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
