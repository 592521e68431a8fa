//! `--format sarif`: one SARIF 2.1.0 log (the OASIS standard code scanning reads), with a run
//! whose tool lists every rule `lint --rules` knows and whose results point at files relative to
//! where the command was run (`%SRCROOT%`). Columns count Unicode code points, SARIF's default.

use logicmd::lint::rules::FAMILIES;
use logicmd::source::LineIndex;
use logicmd::{Diagnostic, Severity};
use serde_json::{json, Map, Value};

use super::Reported;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The SARIF log of `files` (each file's name, text and diagnostics).
pub fn log(files: &[Reported<'_>]) -> Value {
    let mut rules: Vec<Value> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for family in FAMILIES {
        for rule in family.rules {
            ids.push(rule.code.to_owned());
            rules.push(json!({
                "id": rule.code,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": rule.reason},
                "defaultConfiguration": {"level": level(rule.severity)},
                "properties": {"family": family.name},
            }));
        }
    }
    let mut results = Vec::new();
    for file in files {
        let index = LineIndex::new(file.text);
        for diagnostic in file.diagnostics {
            let rule_index = match ids.iter().position(|id| *id == diagnostic.code) {
                Some(at) => at,
                None => {
                    // Not a rule (the schema's, a parse or I/O problem): described once.
                    ids.push(diagnostic.code.clone());
                    rules.push(json!({
                        "id": diagnostic.code,
                        "shortDescription": {"text": diagnostic.code},
                    }));
                    ids.len() - 1
                }
            };
            results.push(result(file, &index, diagnostic, rule_index));
        }
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "logicmd",
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the directory logicmd was run in"}}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

fn result(
    file: &Reported<'_>,
    index: &LineIndex,
    diagnostic: &Diagnostic,
    rule_index: usize,
) -> Value {
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str(&format!(" (help: {help})"));
    }
    let mut physical = Map::new();
    physical.insert(
        "artifactLocation".to_owned(),
        json!({"uri": uri(file.name), "uriBaseId": "%SRCROOT%"}),
    );
    if diagnostic.line > 0 {
        let mut region = json!({"startLine": diagnostic.line, "startColumn": diagnostic.column});
        if let Some(span) = diagnostic.span.filter(|span| span.end > span.start) {
            let end = index.line_col(file.text, span.end);
            region["endLine"] = json!(end.line);
            region["endColumn"] = json!(end.column);
        }
        physical.insert("region".to_owned(), region);
    }
    let mut result = json!({
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
        "level": level(diagnostic.severity),
        "message": {"text": message},
        "locations": [{"physicalLocation": physical}],
    });
    if !diagnostic.path.is_empty() {
        result["properties"] = json!({"pointer": diagnostic.path});
    }
    result
}

/// A file name as a relative URI reference: `/`-separated, every byte outside RFC 3986's
/// unreserved characters and `/` percent-encoded.
fn uri(name: &str) -> String {
    let name = name.replace('\\', "/");
    let mut out = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn file_names_become_uri_references() {
        assert_eq!(super::uri("specs/a b.logic.md"), "specs/a%20b.logic.md");
        assert_eq!(super::uri("é#.logic.md"), "%C3%A9%23.logic.md");
    }
}
