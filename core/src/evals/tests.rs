use serde_json::{json, Value};

use super::*;

fn no_files(file: &str) -> Result<String, String> {
    Err(format!("{file}: no files in this test"))
}

fn scorer(spec: &str) -> Scorer {
    Scorer::parse(spec, &no_files).unwrap()
}

fn case(expected: Option<Value>) -> Case {
    Case {
        id: "c1".into(),
        input: json!({"q": "capital of France"}),
        expected,
        metadata: None,
    }
}

fn verdicts(scorers: &[&str], case: &Case, output: &Value, events: &[Value]) -> String {
    scorers
        .iter()
        .map(|spec| {
            let score = scorer(spec).score(case, output, events, None);
            format!("{spec}: {}", serde_json::to_string(&score).unwrap())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn jsonl_cases_and_their_errors_at_line_and_column() {
    let good = "{\"id\": \"a\", \"input\": {\"x\": 1}, \"expected\": 2}\n\n{\"id\": 7, \"input\": \"hi\", \"metadata\": {\"tag\": \"t\"}}\n";
    insta::assert_snapshot!(serde_json::to_string(&read_jsonl(good).unwrap()).unwrap(), @r#"[{"id":"a","input":{"x":1},"expected":2},{"id":"7","input":"hi","metadata":{"tag":"t"}}]"#);
    let errors: Vec<String> = [
        "{\"id\": \"a\", \"input\": 1}\n{\"id\": \"b\", \"input\": }",
        "{\"id\": \"a\", \"input\": 1}\n  [1, 2]",
        "{\"input\": 1}",
        "{\"id\": \"a\"}",
        "{\"id\": \"a\", \"input\": 1, \"expect\": 2}",
        "{\"id\": \"a\", \"input\": 1}\n{\"id\": \"a\", \"input\": 2}",
        "{\"id\": true, \"input\": 1}",
    ]
    .iter()
    .map(|text| read_jsonl(text).unwrap_err().to_string())
    .collect();
    insta::assert_snapshot!(errors.join("\n"), @r#"
    2:22: invalid JSON: expected value
    2:3: expected a JSON object {"id", "input", "expected"?, "metadata"?}
    1:1: the case has no `id`
    1:1: case `a` has no `input`
    1:1: unknown field `expect`: expected id, input, expected, metadata
    2:1: the id `a` is used by an earlier case
    1:1: `id` must be a non-empty string or a number
    "#);
}

#[test]
fn csv_cases_cells_as_json_or_text_and_errors_at_line_and_column() {
    let text = "id,input,expected\r\nq1,\"{\"\"city\"\": \"\"Paris\"\"}\",Paris\nq2,\"two\nlines\",42\nq3,plain text,\"\"\"42\"\"\"\n";
    insta::assert_snapshot!(serde_json::to_string(&read_csv(text).unwrap()).unwrap(), @r#"[{"id":"q1","input":{"city":"Paris"},"expected":"Paris"},{"id":"q2","input":"two\nlines","expected":42},{"id":"q3","input":"plain text","expected":"42"}]"#);
    let errors: Vec<String> = [
        "id,input,answer\n",
        "id,expected\n",
        "id,input\na,1\nb\n",
        "id,input\na,\"open\n",
        "id,input\na,b\"c\n",
        "id,input\na,1\na,2\n",
    ]
    .iter()
    .map(|text| read_csv(text).unwrap_err().to_string())
    .collect();
    insta::assert_snapshot!(errors.join("\n"), @r#"
    1:10: unknown column `answer`: expected one of id, input, expected, metadata
    1:1: the header has no `input` column
    3:1: expected 2 cells as in the header, found 1
    2:3: a quoted cell is never closed: expected `"`
    2:4: a `"` inside an unquoted cell: quote the whole cell and double the quote
    3:1: the id `a` is used by an earlier case
    "#);
    assert_eq!(
        read_cases("cases.CSV", "id,input\na,1\n").unwrap()[0].input,
        json!(1)
    );
}

#[test]
fn comparing_scorers_say_where_the_output_differs() {
    let expected = case(Some(json!({"city": "Paris", "facts": [{"pop": 2.1}]})));
    let right = json!({"facts": [{"pop": 2.1, "unit": "M"}], "city": "Paris"});
    let wrong = json!({"city": "Lyon", "facts": [{"pop": 2.1}]});
    let scorers = ["exact", "equal", "subset"];
    insta::assert_snapshot!(verdicts(&scorers, &expected, &right, &[]), @r#"
    exact: {"pass":false,"reason":"expected {\"city\":\"Paris\",\"facts\":[{\"pop\":2.1}]}, got {\"facts\":[{\"pop\":2.1,\"unit\":\"M\"}],\"city\":\"Paris\"}"}
    equal: {"pass":false,"reason":"/facts/0/unit: not expected"}
    subset: {"pass":true}
    "#);
    insta::assert_snapshot!(verdicts(&scorers, &expected, &wrong, &[]), @r#"
    exact: {"pass":false,"reason":"expected {\"city\":\"Paris\",\"facts\":[{\"pop\":2.1}]}, got {\"city\":\"Lyon\",\"facts\":[{\"pop\":2.1}]}"}
    equal: {"pass":false,"reason":"/city: expected \"Paris\", got \"Lyon\""}
    subset: {"pass":false,"reason":"/city: expected \"Paris\", got \"Lyon\""}
    "#);
    let text = case(Some(json!("Paris")));
    insta::assert_snapshot!(verdicts(&scorers, &text, &json!("Paris"), &[]), @r#"
    exact: {"pass":true}
    equal: {"pass":true}
    subset: {"pass":true}
    "#);
    insta::assert_snapshot!(verdicts(&["exact", "equal"], &case(Some(json!(1))), &json!(1.0), &[]), @r#"
    exact: {"pass":false,"reason":"expected 1, got 1.0"}
    equal: {"pass":true}
    "#);
    insta::assert_snapshot!(verdicts(&scorers, &case(None), &json!("Paris"), &[]), @r#"
    exact: {"pass":false,"reason":"the case gives no `expected`"}
    equal: {"pass":false,"reason":"the case gives no `expected`"}
    subset: {"pass":false,"reason":"the case gives no `expected`"}
    "#);
}

#[test]
fn schema_expression_and_trace_scorers() {
    let schema = |_: &str| {
        Ok(r#"{"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}"#.to_owned())
    };
    let by_schema = Scorer::parse("schema:answer.json", &schema).unwrap();
    let c = case(Some(json!({"city": "Paris"})));
    let events = vec![
        json!({"seq": 0, "event": "run_started", "t": 0}),
        json!({"seq": 1, "event": "node_finished", "t": 1, "node": "a", "status": "failed"}),
        json!({"seq": 2, "event": "run_finished", "t": 2, "status": "failed"}),
    ];
    let line = |s: &Scorer, output: Value| {
        format!(
            "{}: {}",
            s.name(),
            serde_json::to_string(&s.score(&c, &output, &events, None)).unwrap()
        )
    };
    let lines = [
        line(&by_schema, json!({"city": "Paris"})),
        line(&by_schema, json!({"city": 3})),
        line(
            &scorer("expr:{{ output.city == expected.city }}"),
            json!({"city": "Paris"}),
        ),
        line(
            &scorer("expr:{{ output.city == expected.city }}"),
            json!({"city": "Rome"}),
        ),
        line(&scorer("expr:{{ output.city }}"), json!({"city": "Rome"})),
        line(
            &scorer("expr:{{ trace.length == 3 && input.q != '' }}"),
            json!(null),
        ),
        line(
            &scorer("trace:no-failure = G !node_finished(status=failed)"),
            json!(null),
        ),
        line(&scorer("trace:F run_finished"), json!(null)),
    ];
    insta::assert_snapshot!(lines.join("\n"), @r#"
    schema:answer.json: {"pass":true}
    schema:answer.json: {"pass":false,"reason":"/city: expected a string, found an integer `3`"}
    expr:{{ output.city == expected.city }}: {"pass":true}
    expr:{{ output.city == expected.city }}: {"pass":false,"reason":"{{ output.city == expected.city }} is false"}
    expr:{{ output.city }}: {"pass":false,"reason":"{{ output.city }} gave \"Rome\", not a boolean"}
    expr:{{ trace.length == 3 && input.q != '' }}: {"pass":true}
    trace:no-failure = G !node_finished(status=failed): {"pass":false,"reason":"no-failure fails at event 1: `node_finished(status=failed)` holds at event 1"}
    trace:F run_finished: {"pass":true}
    "#);
    let per_case = Case {
        metadata: Some(json!({"obligations": ["G !run_finished(status=failed)"]})),
        ..c.clone()
    };
    let score = scorer("trace:F run_finished").score(&per_case, &json!(null), &events, None);
    insta::assert_snapshot!(serde_json::to_string(&score).unwrap(), @r#"{"pass":false,"reason":"G !run_finished(status=failed) fails at event 2: `run_finished(status=failed)` holds at event 2"}"#);
    let bad: Vec<String> = [
        "expr:output == 1",
        "expr:{{ (",
        "trace:G (",
        "schema:x.json",
        "fuzzy",
    ]
    .iter()
    .map(|spec| Scorer::parse(spec, &no_files).unwrap_err())
    .collect();
    insta::assert_snapshot!(bad.join("\n"), @r#"
    scorer `expr:output == 1`: write the expression inside `{{ }}`
    scorer `expr:{{ (`: `{{` is never closed: expected `}}`
    trace rule `G (`: column 4: expected a formula, found the end
    x.json: no files in this test
    unknown scorer `fuzzy`: use exact, equal, subset, schema:FILE, expr:{{ … }}, trace, trace:RULE or judge
    "#);
}

#[test]
fn the_judge_is_a_request_and_a_verdict() {
    let spec = json!({"quality_gates": {"self_verification": {"strategy": "checklist", "checklist": ["names a city", "cites a source"]}}});
    let rubric = judge_rubric(&spec);
    let request = judge_request(
        &rubric,
        &case(Some(json!("Paris"))),
        &json!({"city": "Paris"}),
    );
    insta::assert_snapshot!(serde_json::to_string_pretty(&request).unwrap(), @r#"
    {
      "system": "You are a strict evaluator. Every item of this checklist (from the document's quality_gates.self_verification) must hold:\n- names a city\n- cites a source\nAnswer with a JSON object: pass (boolean), score (0 to 1), reason (one sentence).",
      "messages": [
        {
          "role": "user",
          "content": "Input:\n{\n  \"q\": \"capital of France\"\n}\n\nOutput to judge:\n{\n  \"city\": \"Paris\"\n}\n\nExpected:\nParis"
        }
      ],
      "response_schema": {
        "type": "object",
        "required": [
          "pass",
          "score",
          "reason"
        ],
        "additionalProperties": false,
        "properties": {
          "pass": {
            "type": "boolean"
          },
          "score": {
            "type": "number",
            "minimum": 0,
            "maximum": 1
          },
          "reason": {
            "type": "string"
          }
        }
      }
    }
    "#);
    assert_eq!(judge_rubric(&json!({})), "The output answers the input correctly and completely; when an expected value is given, the output agrees with it.");
    let verdicts: Vec<String> = [
        r#"{"pass": true, "score": 0.9, "reason": "right"}"#,
        r#"{"score": 0.2}"#,
        "yes",
    ]
    .iter()
    .map(|answer| serde_json::to_string(&judge_score(answer)).unwrap())
    .collect();
    insta::assert_snapshot!(verdicts.join("\n"), @r#"
    {"pass":true,"value":0.9,"reason":"right"}
    {"pass":false,"reason":"the judge's answer has no boolean `pass`"}
    {"pass":false,"reason":"the judge's answer is not JSON: expected value at line 1 column 1"}
    "#);
    let unjudged = scorer("judge").score(&case(None), &json!(1), &[], None);
    assert!(!unjudged.pass);
}

fn row_of(id: &str, variant: &str, ending: Ending, latency_ms: u64) -> Row {
    let c = Case {
        id: id.into(),
        input: json!({}),
        expected: Some(json!("yes")),
        metadata: None,
    };
    let events = vec![
        json!({"seq": 0, "event": "model_responded", "t": 1, "node": "a", "usage": {"input_tokens": 10, "output_tokens": 3, "cost": 0.5}}),
        json!({"seq": 1, "event": "obligation_updated", "t": 2, "node": "a", "rule": "r", "target": "x", "status": "failed"}),
        json!({"seq": 2, "event": "obligation_updated", "t": 3, "node": "a", "rule": "r", "target": "x", "status": "satisfied"}),
    ];
    let ran = Ran {
        ending,
        events,
        latency_ms,
    };
    row(
        &c,
        (variant, String::new()),
        ran,
        &[scorer("exact")],
        Judged::Nobody,
    )
}

#[test]
fn rows_summary_and_compare() {
    let unmet = logicmd_unmet();
    let before = vec![
        row_of("a", "v1", Ending::Completed(json!("yes")), 10),
        row_of("b", "v1", Ending::Completed(json!("yes")), 20),
        row_of("c", "v1", Ending::Completed(json!("no")), 30),
        row_of("gone", "v1", Ending::Completed(json!("yes")), 30),
    ];
    let after = vec![
        row_of("a", "v2", Ending::Completed(json!("yes")), 10),
        row_of("b", "v2", Ending::Refused(vec![unmet]), 20),
        row_of("c", "v2", Ending::Completed(json!("yes")), 40),
        row_of("new", "v2", Ending::Failed("provider error".into()), 40),
    ];
    let mut one = serde_json::to_value(&after[1]).unwrap();
    one["trace"] = json!("(3 events)");
    insta::assert_snapshot!(serde_json::to_string_pretty(&one).unwrap(), @r#"
    {
      "id": "b",
      "variant": "v2",
      "status": "refused",
      "output": null,
      "pass": false,
      "scores": {
        "exact": {
          "pass": false,
          "reason": "no output to score: the run was refused"
        }
      },
      "latency_ms": 20,
      "tokens": {
        "input": 10,
        "output": 3
      },
      "cost": 0.5,
      "obligations": {
        "met": 1,
        "unmet": 0,
        "discharged": 0
      },
      "error": "refused: verify std.check_links on sources: a link is broken",
      "fingerprint": "",
      "trace": "(3 events)"
    }
    "#);
    let both: Vec<Row> = before.iter().chain(&after).cloned().collect();
    insta::assert_snapshot!(serde_json::to_string_pretty(&summarize(&both)).unwrap(), @r#"
    [
      {
        "variant": "v1",
        "cases": 4,
        "passed": 3,
        "not_completed": 0,
        "scorers": [
          {
            "scorer": "exact",
            "passed": 3,
            "scored": 4
          }
        ],
        "latency_ms_p50": 20,
        "latency_ms_p95": 30,
        "tokens_input": 40,
        "tokens_output": 12,
        "cost": 2.0
      },
      {
        "variant": "v2",
        "cases": 4,
        "passed": 2,
        "not_completed": 2,
        "scorers": [
          {
            "scorer": "exact",
            "passed": 2,
            "scored": 4
          }
        ],
        "latency_ms_p50": 20,
        "latency_ms_p95": 40,
        "tokens_input": 40,
        "tokens_output": 12,
        "cost": 2.0
      }
    ]
    "#);
    insta::assert_snapshot!(serde_json::to_string_pretty(&compare(&before, &after)).unwrap(), @r#"
    {
      "regressions": [
        {
          "id": "b",
          "before_variant": "v1",
          "after_variant": "v2",
          "scorers": [
            "exact"
          ],
          "status": [
            "completed",
            "refused"
          ]
        }
      ],
      "fixes": [
        {
          "id": "c",
          "before_variant": "v1",
          "after_variant": "v2",
          "scorers": [
            "exact"
          ]
        }
      ],
      "still_passing": 1,
      "still_failing": 0,
      "only_before": [
        "gone"
      ],
      "only_after": [
        "new"
      ]
    }
    "#);
    // Two variants on one side: matched by id and variant.
    let mixed = compare(&both, &after);
    assert_eq!(mixed.still_passing, 2);
    assert_eq!(mixed.only_before.len(), 4);
}

fn logicmd_unmet() -> crate::run::Unmet {
    crate::run::Unmet {
        node: "verify".into(),
        rule: "std.check_links".into(),
        target: Some("sources".into()),
        reason: "a link is broken".into(),
    }
}

#[test]
fn the_cache_key_changes_with_each_part() {
    let key = cache_key("doc", &json!({"q": 1}), "m", 0);
    assert_eq!(key.len(), 64);
    assert_eq!(key, cache_key("doc", &json!({"q": 1}), "m", 0));
    for other in [
        cache_key("doc2", &json!({"q": 1}), "m", 0),
        cache_key("doc", &json!({"q": 2}), "m", 0),
        cache_key("doc", &json!({"q": 1}), "n", 0),
        cache_key("doc", &json!({"q": 1}), "m", 1),
        cache_key("do", &json!({"q": 1}), "cm", 0),
    ] {
        assert_ne!(key, other);
    }
}

fn source(text: &str) -> crate::run::Source {
    crate::run::prepare(
        text,
        &crate::analysis::Options::lint("a.logic.md"),
        &crate::loader::MemoryLoader::new(),
    )
    .expect("runs")
}

/// A document whose contracts warn: an input missing `q` and an answer missing `answer` go on.
const WARNED: &str = "---\nspec_version: \"1.0\"\nname: warned\ncontracts:\n  inputs:\n    - {name: q, type: string, required: true}\n  outputs:\n    - {name: answer, type: string, required: true}\n  validation:\n    mode: warn\nsteps:\n  ask:\n    description: Ask\n---\n";

fn simulated_row(text: &str, case: &Case, script: &str, scorers: &[&str]) -> Row {
    let answers = Simulated::Scripted {
        script: script.to_owned(),
    };
    let scorers: Vec<Scorer> = scorers.iter().map(|s| scorer(s)).collect();
    let source = source(text);
    let ran = run_simulated(&source, case, &answers);
    let made = MadeFrom::new((text, &source), &answers.identity(), &scorers);
    row(
        case,
        ("v", fingerprint(&made, case)),
        ran,
        &scorers,
        Judged::Nobody,
    )
}

#[test]
fn a_simulated_rows_latency_is_its_own_clock_and_warnings_say_what_went_on() {
    let case = Case {
        id: "c".into(),
        input: json!({}),
        expected: None,
        metadata: None,
    };
    let script = "- {node: ask, text: '{\"other\": 1}', latency_ms: 1250}\n";
    let row = simulated_row(WARNED, &case, script, &[]);
    assert_eq!(row.status, "completed");
    // The script says the answer took 1.25 s: the row says so, whatever the wall time was.
    assert_eq!(row.latency_ms, 1250);
    insta::assert_snapshot!(row.warnings.join("\n"), @r"
    the input breaks contracts.inputs: missing required property `q`
    the output of `ask` breaks contracts.outputs: missing required property `answer`
    ");
}

#[test]
fn output_scorers_fail_a_run_without_output_and_trace_rules_count_as_obligations() {
    let case = Case {
        id: "c".into(),
        input: json!({"q": "x"}),
        expected: None,
        metadata: Some(
            json!({"obligations": ["said = F(model_responded)", "never = G(!model_responded)"]}),
        ),
    };
    // No answer for `ask`: the run fails; `null == null` must not pass a run that gave nothing.
    let failed = simulated_row(
        WARNED,
        &case,
        "[]",
        &["expr:{{ output == expected }}", "trace:terminates"],
    );
    assert_eq!(failed.status, "failed");
    insta::assert_snapshot!(serde_json::to_string_pretty(&failed.scores).unwrap(), @r#"
    {
      "expr:{{ output == expected }}": {
        "pass": false,
        "reason": "no output to score: the run failed"
      },
      "trace:terminates": {
        "pass": false,
        "reason": "never fails at event 4: `model_responded` holds at event 4"
      }
    }
    "#);
    let answered = simulated_row(
        WARNED,
        &case,
        "- {node: ask, text: '{\"answer\": \"a\"}'}\n",
        &["trace:terminates"],
    );
    // terminates and `said` hold, `never` does not: the row counts each rule it checked.
    assert_eq!(
        (answered.obligations.met, answered.obligations.unmet),
        (2, 1)
    );
    assert!(!answered.pass);
    let summary = summarize(&[failed]);
    insta::assert_snapshot!(serde_json::to_string(&summary[0].scorers).unwrap(), @r#"[{"scorer":"expr:{{ output == expected }}","passed":0,"scored":1},{"scorer":"trace:terminates","passed":0,"scored":1}]"#);
}

#[test]
fn a_rows_fingerprint_changes_with_everything_it_was_made_from_but_the_id() {
    let base = Case {
        id: "a".into(),
        input: json!({"q": 1}),
        expected: Some(json!(2)),
        metadata: Some(json!({"tag": "t"})),
    };
    let scorers = [scorer("exact")];
    let of = |doc: &str, case: &Case, answers: &str, scorers: &[Scorer]| {
        let source = crate::run::Source::Logic {
            spec: json!({"name": doc}),
            nodes: Default::default(),
        };
        fingerprint(&MadeFrom::new((doc, &source), answers, scorers), case)
    };
    let first = of("doc", &base, "synthetic:0", &scorers);
    let renamed = Case {
        id: "b".into(),
        ..base.clone()
    };
    assert_eq!(first, of("doc", &renamed, "synthetic:0", &scorers));
    let changed = [
        of("doc ", &base, "synthetic:0", &scorers),
        of(
            "doc",
            &Case {
                input: json!({"q": 2}),
                ..base.clone()
            },
            "synthetic:0",
            &scorers,
        ),
        of(
            "doc",
            &Case {
                expected: None,
                ..base.clone()
            },
            "synthetic:0",
            &scorers,
        ),
        of(
            "doc",
            &Case {
                metadata: None,
                ..base.clone()
            },
            "synthetic:0",
            &scorers,
        ),
        of("doc", &base, "synthetic:1", &scorers),
        of("doc", &base, "synthetic:0", &[scorer("equal")]),
        of(
            "doc",
            &base,
            "synthetic:0",
            &[Scorer::parse("schema:s.json", &|_| Ok("{\"type\": \"integer\"}".into())).unwrap()],
        ),
    ];
    let schema_edited = of(
        "doc",
        &base,
        "synthetic:0",
        &[Scorer::parse("schema:s.json", &|_| Ok("{\"type\": \"string\"}".into())).unwrap()],
    );
    let mut all: Vec<&String> = changed.iter().chain([&first, &schema_edited]).collect();
    all.sort();
    all.dedup();
    assert_eq!(
        all.len(),
        changed.len() + 2,
        "each change gives another fingerprint"
    );
}

#[test]
fn a_schema_scorer_whose_schema_cannot_mean_what_it_says_is_refused() {
    let problems: Vec<String> = [
        r#"{"type": "strnig"}"#,
        r#"{"type": "object", "properties": {"city": {"type": ["string", "nul"]}}}"#,
        r##"{"properties": {"a": {"$ref": "#/definitions/missing"}}}"##,
        r#"{"allOf": [{"$ref": "other.json#/x"}]}"#,
    ]
    .iter()
    .map(|text| {
        let text = text.to_string();
        Scorer::parse("schema:s.json", &move |_| Ok(text.clone()))
            .err()
            .unwrap_or_else(|| "accepted".into())
    })
    .collect();
    insta::assert_snapshot!(problems.join("\n"), @r##"
    s.json: /type: "strnig" is not a JSON Schema type (did you mean `string`?): use one of string, number, integer, boolean, object, array, null
    s.json: /properties/city/type: "nul" is not a JSON Schema type (did you mean `null`?): use one of string, number, integer, boolean, object, array, null
    s.json: /properties/a/$ref: "#/definitions/missing" resolves to nothing in the file (a reference is `#` and a JSON pointer into it)
    s.json: /allOf/0/$ref: "other.json#/x" resolves to nothing in the file (a reference is `#` and a JSON pointer into it)
    "##);
    // A property named `type`, and references that resolve, are fine.
    let fine = r##"{"definitions": {"c": {"type": "string"}}, "properties": {"type": {"$ref": "#/definitions/c"}}}"##;
    assert!(Scorer::parse("schema:s.json", &|_| Ok(fine.to_owned())).is_ok());
}
