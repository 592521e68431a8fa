//! `logicmd graph` loads workflow nodes as `lint` does: an edge is drawn incompatible exactly where
//! `lint` reports a contract mismatch.

use std::fs;
use std::path::PathBuf;
use std::process::Command;

use serde_json::{json, Value};

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("logicmd-graph-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("nodes")).unwrap();
        Scratch(dir)
    }

    fn write(&self, name: &str, contents: &str) -> String {
        let path = self.0.join(name);
        fs::write(&path, contents).unwrap();
        path.display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn run_json(args: &[&str], root: &str) -> Value {
    let mut all = args.to_vec();
    all.extend(["--root", root]);
    let out = Command::new(env!("CARGO_BIN_EXE_logicmd"))
        .args(&all)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
}

/// (kind, source, target, compatible) of every edge.
fn wires(graph: &Value) -> Value {
    graph["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| json!([e["kind"], e["source"], e["target"], e["compatible"]]))
        .collect()
}

#[test]
fn graph_compatibility_agrees_with_lint() {
    let dir = Scratch::new("agree");
    let root = dir.0.display().to_string();
    dir.write(
        "nodes/researcher.logic.md",
        "---\nspec_version: \"1.0\"\nname: researcher\ncontracts:\n  outputs:\n    - {name: findings, type: string}\n---\n",
    );
    dir.write(
        "nodes/synthesizer.logic.md",
        "---\nspec_version: \"1.0\"\nname: synthesizer\ncontracts:\n  inputs:\n    - {name: findings, type: array, required: true}\n---\n",
    );
    let main = dir.write(
        "main.logic.md",
        "---\nspec_version: \"1.0\"\nname: flow\nsteps:\n  gather: {description: g, output_schema: {type: integer}}\n  rank: {description: r, needs: [gather], input_schema: {type: number}}\n  report: {description: s, needs: [rank], input_schema: {type: object}, output_schema: {type: string}}\n  publish: {description: p, needs: [report], input_schema: {type: object}}\nnodes:\n  researcher: {logic_ref: ./nodes/researcher.logic.md}\n  synthesizer: {logic_ref: ./nodes/synthesizer.logic.md, depends_on: [researcher]}\nedges:\n  - {from: researcher, to: synthesizer}\n---\n",
    );
    let graph = run_json(&["graph", &main], &root);
    assert_eq!(
        wires(&graph),
        json!([
            ["needs", "step:gather", "step:rank", true],
            ["needs", "step:rank", "step:report", true],
            ["needs", "step:report", "step:publish", false],
            ["depends_on", "agent:researcher", "agent:synthesizer", true],
            ["edge", "agent:researcher", "agent:synthesizer", false]
        ])
    );
    let lint = run_json(&["lint", "--format", "json", &main], &root);
    let mismatches: Vec<Value> = lint[0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "contract-mismatch")
        .map(|d| json!([d["path"], d["message"]]))
        .collect();
    assert_eq!(
        mismatches,
        [
            json!(["/steps/publish/needs/0", "needs report -> publish: step `publish` expects object input, but step `report` outputs string"]),
            json!(["/edges/0", "edge researcher -> synthesizer: node `synthesizer` requires `findings` as array, but node `researcher` provides string"]),
        ]
    );
}
