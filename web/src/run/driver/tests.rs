use serde_json::json;

use super::*;

const FAN: &str = "---\nspec_version: \"1.0\"\nname: fan\nsteps:\n  gather:\n    description: Gather\n  m1:\n    description: One\n    needs: [gather]\n  m2:\n    description: Two\n    needs: [gather]\n  m3:\n    description: Three\n    needs: [gather]\n  m4:\n    description: Four\n    needs: [gather]\n  report:\n    description: Report\n    needs: [m1, m2, m3, m4]\n---\n";

fn slice(driver: &mut Driver) -> Slice {
    driver.slice(f64::INFINITY, usize::MAX, &BTreeSet::new(), || 0.0)
}

fn nodes(calls: &[Action]) -> Vec<&str> {
    calls
        .iter()
        .map(|c| c.kind.node().unwrap_or_default())
        .collect()
}

#[test]
fn a_model_call_the_script_does_not_answer_fails_with_a_provider_error_as_in_the_cli() {
    let script = ProviderChoice::Scripted("- {node: gather, text: fine}\n".to_owned());
    let mut driver = Driver::start(FAN, json!({}), &script, Pins::new()).unwrap();
    let done = slice(&mut driver);
    assert_eq!(done.halt, Some(Halt::Finished));
    let failure = done
        .events
        .iter()
        .find(|e| e["event"] == "model_responded" && e["node"] == "m1")
        .expect("m1 was answered");
    assert_eq!(
        failure["error"],
        json!({"kind": "ProviderError", "message": "the script has no answer for `m1` attempt 1", "retryable": false})
    );
    assert_eq!(
        done.events.last().unwrap()["status"],
        json!("failed"),
        "the run fails by the step's policy, it is not stuck"
    );
}

#[test]
fn a_servers_calls_of_one_level_are_handed_out_together_and_answered_in_any_order() {
    let endpoint = ProviderChoice::OpenAi(Endpoint {
        base_url: "http://127.0.0.1:9/v1".to_owned(),
        model: "m".to_owned(),
        key: None,
    });
    let mut driver = Driver::start(FAN, json!({}), &endpoint, Pins::new()).unwrap();
    let first = slice(&mut driver);
    assert_eq!(nodes(&first.calls), ["gather"]);
    assert_eq!(first.halt, Some(Halt::Waiting));
    driver
        .feed(&first.calls[0].id, Observation::text("facts"))
        .unwrap();
    let members = slice(&mut driver);
    assert_eq!(nodes(&members.calls), ["m1", "m2", "m3", "m4"]);
    assert_eq!(members.halt, Some(Halt::Waiting));
    for call in members.calls.iter().rev() {
        driver.feed(&call.id, Observation::text("yes")).unwrap();
    }
    let report = slice(&mut driver);
    let answered: Vec<&str> = report
        .events
        .iter()
        .filter(|e| e["event"] == "model_responded")
        .map(|e| e["node"].as_str().unwrap())
        .collect();
    assert_eq!(answered, ["m1", "m2", "m3", "m4"], "fed in the order asked");
    assert_eq!(nodes(&report.calls), ["report"]);
}

#[test]
fn a_tool_nothing_checks_is_unverifiable_with_the_clis_words() {
    let topology = "name: t\nnodes:\n  - id: extract\n    type: generate\n    prompt: List them\n    output_format: json\n    output_key: claims\n  - id: verify\n    type: verify\n    input: extract.claims\n    rules:\n      - {id: std.check_existence, target: names, mode: warn}\n    output_key: report\nedges:\n  - {from: extract, to: verify}\n";
    let script = ProviderChoice::Scripted("- {node: extract, json: {names: [a]}}\n".to_owned());
    let mut driver = Driver::start(topology, json!({}), &script, Pins::new()).unwrap();
    let done = slice(&mut driver);
    let obligation = done
        .events
        .iter()
        .find(|e| e["event"] == "obligation_updated")
        .expect("the rule was checked");
    assert_eq!(obligation["evidence"], json!("no facts to check against"));
}

/// The studio's part of the cross-driver test (`tests/cross-driver/README.md`): each case run
/// through this driver writes exactly the trace the CLI and the npm package write.
#[test]
fn each_cross_driver_case_writes_the_shared_trace_byte_for_byte() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cross-driver");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("the cases exist") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let Some(stem) = name
            .strip_suffix(".logic.md")
            .or_else(|| name.strip_suffix(".drtl.yaml"))
        else {
            continue;
        };
        let read = |file: String| std::fs::read_to_string(dir.join(file)).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let script = ProviderChoice::Scripted(read(format!("{stem}.script.yaml")));
        let mut driver = Driver::start(&text, json!({}), &script, Pins::new()).unwrap();
        let mut trace = String::new();
        loop {
            let done = slice(&mut driver);
            for event in &done.events {
                trace.push_str(&serde_json::to_string(event).unwrap());
                trace.push('\n');
            }
            match done.halt {
                Some(Halt::Finished) => break,
                None => {}
                other => panic!("{stem}: a scripted run needs no person: {other:?}"),
            }
        }
        assert_eq!(trace, read(format!("{stem}.trace.jsonl")), "{stem}");
        checked += 1;
    }
    assert_eq!(checked, 3);
}
