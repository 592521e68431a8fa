//! Property tests of `fmt` (issue #13): no comment is ever lost, the meaning is kept, and a quote
//! is dropped only where a YAML 1.1 reader reads the plain form as the same string. The YAML 1.1
//! resolver below is PyYAML's (its regular expressions, verbatim) plus the 1.1 type
//! repository's `y`/`n` booleans; a test checks it against PyYAML itself when that is installed.

use logicmd::format::format;
use logicmd::yaml::{Node, NodeValue, ScalarStyle};
use logicmd::Document;
use logicmd_tests::commented::{self, TRICKY};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

mod yaml11 {
    use std::sync::OnceLock;

    use regex::Regex;

    /// PyYAML's implicit resolvers (`yaml/resolver.py`), with `y|Y|n|N` added to booleans as
    /// the YAML 1.1 type repository has them.
    const RESOLVERS: &[(&str, &str)] = &[
        (
            "bool",
            r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$",
        ),
        (
            "float",
            r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        ),
        (
            "int",
            r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$",
        ),
        ("merge", r"^(?:<<)$"),
        ("null", r"^(?:~|null|Null|NULL|)$"),
        (
            "timestamp",
            r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$",
        ),
        ("value", r"^(?:=)$"),
    ];

    fn resolvers() -> &'static Vec<(&'static str, Regex)> {
        static COMPILED: OnceLock<Vec<(&'static str, Regex)>> = OnceLock::new();
        COMPILED.get_or_init(|| {
            RESOLVERS
                .iter()
                .map(|(tag, pattern)| (*tag, Regex::new(pattern).expect("pattern compiles")))
                .collect()
        })
    }

    /// The tag a YAML 1.1 reader gives the plain scalar `text`; `None` for a string.
    pub fn resolve(text: &str) -> Option<&'static str> {
        resolvers()
            .iter()
            .find(|(_, pattern)| pattern.is_match(text))
            .map(|(tag, _)| *tag)
    }
}

/// A plain scalar's value: its lines folded (a line break between two lines reads as a space,
/// each empty line as a newline).
fn fold(raw: &str) -> String {
    let mut out = String::new();
    let mut pending_space = false;
    for (i, line) in raw.split('\n').map(str::trim).enumerate() {
        if i > 0 && line.is_empty() {
            out.push('\n');
            pending_space = false;
            continue;
        }
        if pending_space {
            out.push(' ');
        }
        out.push_str(line);
        pending_space = true;
    }
    out
}

/// What a plain scalar means to a YAML 1.1 reader: the string, or its tag with its text.
fn plain_11(raw: &str) -> Value {
    let text = fold(raw);
    match yaml11::resolve(&text) {
        None => Value::String(text),
        Some(tag) => json!({ format!("!!{tag}"): text }),
    }
}

fn key_11(text: &str, entry: &logicmd::yaml::Entry) -> String {
    let raw = &text[entry.key_span().start..entry.key_span().end];
    if raw.starts_with(['"', '\'']) {
        entry.key.to_string()
    } else {
        match plain_11(raw) {
            Value::String(s) => s,
            tagged => tagged.to_string(),
        }
    }
}

/// The frontmatter as a YAML 1.1 reader loads it: our tree, with plain scalars resolved again by
/// the 1.1 rules.
fn load_11(text: &str) -> Value {
    fn walk(text: &str, node: &Node) -> Value {
        match &node.value {
            NodeValue::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|e| (key_11(text, e), walk(text, &e.value)))
                    .collect::<Map<String, Value>>(),
            ),
            NodeValue::Seq(items) => Value::Array(items.iter().map(|i| walk(text, i)).collect()),
            _ if node.style == Some(ScalarStyle::Plain) => {
                plain_11(&text[node.span().start..node.span().end])
            }
            _ => logicmd::json::to_json(node),
        }
    }
    let document = Document::parse(text).document.expect("parses");
    walk(text, document.root())
}

/// Strings shaped like what YAML 1.1 and js-yaml read as something else, and some that are not.
fn tricky_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ][0-9]{1,2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,3})?( ?(Z|[-+][0-9]{1,2}(:[0-9]{2})?))?)?",
        "[-+]?[0-9_]{1,5}(:[0-9]{1,2}){0,3}(\\.[0-9_]{0,3})?([eE][-+]?[0-9]{1,2})?",
        "[-+]?\\.?[0-9_.]{1,6}",
        "[-+]?0[boxBOX][0-9a-fA-F_]{0,5}",
        "(y|Y|n|N|yes|Yes|YES|yEs|no|No|NO|nO|on|On|ON|oN|off|Off|OFF|true|True|TRUE|tRUE|false|null|Null|NULL|nULL|~|=|<<|<<<|==)",
        "[-+]?\\.(inf|Inf|INF|nan|NaN|NAN|iNf)",
        "[a-z0-9 :#_.,'\"-]{0,10}",
        "\\PC{0,8}",
        proptest::sample::select(TRICKY).prop_map(str::to_owned),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Random documents with comments everywhere: `fmt` keeps each comment exactly once, keeps
    /// the JSON and the YAML 1.1 reading, and is idempotent.
    #[test]
    fn fmt_keeps_every_comment_and_the_meaning(seed in any::<u64>(), density in 5usize..95) {
        let doc = commented::document(seed, density);
        let parsed = Document::parse(&doc.text);
        prop_assert!(!parsed.has_errors(), "the generator wrote invalid YAML:\n{}", doc.text);
        let original = parsed.document.expect("parses");
        prop_assert_eq!(original.json(), &doc.json, "the generator's JSON:\n{}", doc.text);
        let formatted = match format(&doc.text) {
            Ok(formatted) => formatted,
            Err(refusal) => {
                return Err(TestCaseError::fail(format!("refused: {}\n{}", refusal.message, doc.text)));
            }
        };
        let after = Document::parse(&formatted).document.expect("formatted text parses");
        prop_assert_eq!(after.json(), &doc.json, "JSON changed:\n{}\n=>\n{}", doc.text, formatted);
        for comment in &doc.comments {
            prop_assert_eq!(
                formatted.matches(comment.text.as_str()).count(), 1,
                "comment {:?} lost or doubled:\n{}\n=>\n{}", comment.text, doc.text, formatted
            );
        }
        prop_assert_eq!(load_11(&formatted), load_11(&doc.text), "YAML 1.1 reading changed:\n{}\n=>\n{}", doc.text, formatted);
        let again = format(&formatted).expect("formatted text formats");
        prop_assert_eq!(again, formatted, "not idempotent");
    }

    /// A quoted string written plain by `fmt` reads back as the same string under YAML 1.1, as a
    /// value, a sequence item and a key; the document loads to the same data under YAML 1.1.
    #[test]
    fn fmt_unquotes_only_what_yaml_1_1_reads_back(value in tricky_string()) {
        let double = serde_json::to_string(&value).expect("a string serializes");
        let single = format!("'{}'", value.replace('\'', "''"));
        let single = if value.chars().any(char::is_control) { double.clone() } else { single };
        let text = format!(
            "---\nspec_version: \"1.0\"\nname: n\nmetadata:\n  k0: {double}\n  k1: {single}\n  list:\n    - {double}\n  {double}: key\n---\n"
        );
        let parsed = Document::parse(&text);
        prop_assume!(!parsed.has_errors());
        let formatted = format(&text).expect("formats");
        for line in formatted.lines() {
            let written = line
                .trim_start()
                .strip_prefix("k0: ")
                .or_else(|| line.trim_start().strip_prefix("k1: "))
                .or_else(|| line.trim_start().strip_prefix("- "));
            if let Some(written) = written.filter(|w| !w.starts_with(['"', '\''])) {
                prop_assert_eq!(written, value.as_str());
                prop_assert_eq!(yaml11::resolve(written), None, "{:?} was unquoted", written);
            }
        }
        prop_assert_eq!(load_11(&formatted), load_11(&text), "{}", formatted);
    }
}

/// The formatter's comment check is not blind: a comment after a quoted scalar is found in the
/// input (it was not before issue #13), and kept.
#[test]
fn comment_after_a_quoted_scalar_is_seen_and_kept() {
    let text = "---\nspec_version: \"1.0\"\nname: \"x\"  # note\n---\n";
    assert_eq!(
        format(text).unwrap(),
        "---\nspec_version: \"1.0\"\nname: x # note\n---\n"
    );
}

/// The YAML 1.1 resolver above agrees with PyYAML (when `python3` with PyYAML is installed),
/// except for `y`/`n`, which PyYAML reads as strings and the 1.1 type repository as booleans.
#[test]
fn the_yaml_1_1_resolver_agrees_with_pyyaml() {
    let samples: Vec<&str> = vec![
        "yes",
        "No",
        "ON",
        "off",
        "True",
        "null",
        "~",
        "2026-03-31",
        "2026-3-1",
        "2026-03-31T10:00:00Z",
        "2026-03-31 10:00:00.5 +02:00",
        "2026-03-31 release",
        "1:30",
        "1:60",
        "190:20:30.15",
        "-1:30",
        "1_000",
        "1_",
        "_1",
        "0b101",
        "0b2",
        "017",
        "09",
        "0x1F",
        "0x",
        "0o17",
        "1e5",
        "1.5e+5",
        "1.",
        ".5",
        "._",
        "-.inf",
        ".NaN",
        "1.2.3",
        "v1.0",
        "30s",
        "<<",
        "=",
        "==",
        "hello",
        "yes please",
        "y2k",
    ];
    let script = "import json, sys, yaml\nfor s in json.load(sys.stdin):\n    try:\n        v = yaml.safe_load('k: ' + s)['k']\n        print('str' if isinstance(v, str) else 'other')\n    except Exception:\n        print('other')\n";
    let child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("SKIPPED: python3 is not installed");
        return;
    };
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let _ = stdin.write_all(serde_json::to_string(&samples).unwrap().as_bytes());
    }
    let output = child.wait_with_output().expect("python3 runs");
    if !output.status.success() {
        eprintln!("SKIPPED: PyYAML is not installed");
        return;
    }
    let answers: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(answers.len(), samples.len());
    for (sample, answer) in samples.iter().zip(&answers) {
        let ours = if yaml11::resolve(sample).is_none() {
            "str"
        } else {
            "other"
        };
        assert_eq!(ours, answer, "{sample:?}");
    }
}
