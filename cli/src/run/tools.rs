//! The CLI's answers to verification rules that need the world (`CallTool`): known entities
//! from a facts file (`std.check_existence`, `std.check_citation`), links checked over HTTP with
//! a timeout (`std.check_links`), and for everything else an explicit "unverifiable", which
//! counts as a failure under `block`.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use logicmd::run::Verdict;
use logicmd::Limits;
use serde_json::{json, Value};

/// Known entities: per target (the rule's `target` key), or one list for every target.
#[derive(Debug, Clone, PartialEq)]
pub enum Facts {
    PerTarget(BTreeMap<String, Vec<String>>),
    Everywhere(Vec<String>),
}

impl Facts {
    /// Reads a facts file: YAML or JSON, a map of target → list of known names, or a list.
    pub fn read(path: &Path) -> Result<Facts, String> {
        let bytes = crate::input::read_bounded(path, Limits::DEFAULT.max_bytes)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let text = crate::input::utf8_text(bytes)
            .map_err(|problem| format!("{} {problem}", path.display()))?;
        Facts::parse(&text).map_err(|problem| format!("{}:{problem}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Facts, String> {
        let file = logicmd::yaml::parse_file(text, Limits::DEFAULT);
        if let Some(problem) = file.diagnostics.iter().find(|d| d.is_error()) {
            return Err(format!(
                "{}:{}: {}",
                problem.line, problem.column, problem.message
            ));
        }
        let value = file
            .root
            .map(|root| logicmd::json::to_json(&root))
            .unwrap_or(Value::Null);
        match value {
            Value::Array(items) => Ok(Facts::Everywhere(names(&items))),
            Value::Object(map) => map
                .into_iter()
                .map(|(target, known)| match known {
                    Value::Array(items) => Ok((target, names(&items))),
                    _ => Err(format!(
                        "1:1: the facts for `{target}` are not a list of known names"
                    )),
                })
                .collect::<Result<_, _>>()
                .map(Facts::PerTarget),
            _ => Err("1:1: facts are a map of target to known names, or a list of names".into()),
        }
    }

    fn known(&self, target: &str) -> Option<&[String]> {
        match self {
            Facts::Everywhere(names) => Some(names),
            Facts::PerTarget(map) => map.get(target).map(Vec::as_slice),
        }
    }
}

/// Names compare without case and surrounding spaces.
fn normal(name: &str) -> String {
    name.trim().to_lowercase()
}

fn names(items: &[Value]) -> Vec<String> {
    items.iter().filter_map(claimed_name).collect()
}

/// The name a claimed value stands for: a string, a number, or an object's `name`/`id`/`url`/
/// `title`.
fn claimed_name(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Object(map) => ["name", "id", "url", "title"]
            .iter()
            .find_map(|key| map.get(*key).and_then(Value::as_str))
            .map(str::to_owned),
        _ => None,
    }
}

/// How the CLI answers tool calls.
#[derive(Debug, Clone)]
pub struct Checkers {
    pub facts: Option<Facts>,
    pub offline: bool,
    pub link_timeout: Duration,
}

impl Checkers {
    pub fn check(&self, rule: &str, arguments: &Value) -> Verdict {
        let target = arguments
            .get("target")
            .and_then(Value::as_str)
            .unwrap_or("");
        let values = claimed_values(arguments, target);
        match rule {
            "std.check_existence" | "std.check_citation" => self.check_known(target, &values),
            "std.check_links" => self.check_links(&values),
            _ => unverifiable(json!(format!("no checker for {rule}"))),
        }
    }

    fn check_known(&self, target: &str, values: &[Value]) -> Verdict {
        let Some(facts) = &self.facts else {
            return unverifiable(json!("no facts to check against (give --facts FILE)"));
        };
        let Some(known) = facts.known(target) else {
            return unverifiable(json!(format!("the facts name nothing for `{target}`")));
        };
        let known: Vec<String> = known.iter().map(|k| normal(k)).collect();
        let (mut found, mut unknown) = (Vec::new(), Vec::new());
        for name in values.iter().filter_map(claimed_name) {
            if known.contains(&normal(&name)) {
                found.push(name);
            } else {
                unknown.push(name);
            }
        }
        Verdict {
            passed: unknown.is_empty(),
            evidence: Some(json!({"known": found, "unknown": unknown})),
            unverifiable: false,
        }
    }

    fn check_links(&self, values: &[Value]) -> Verdict {
        if self.offline {
            return unverifiable(json!("offline: links are not checked"));
        }
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(self.link_timeout))
            .http_status_as_error(false)
            .user_agent(concat!("logicmd/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        let checked: Vec<(String, Link)> = values
            .iter()
            .filter_map(claimed_name)
            .map(|url| {
                let link = check_link(&agent, &url);
                (url, link)
            })
            .collect();
        let broken = checked.iter().any(|(_, l)| matches!(l, Link::Broken(_)));
        let unsure = checked.iter().any(|(_, l)| matches!(l, Link::Unsure(_)));
        let evidence: Vec<Value> = checked
            .iter()
            .map(|(url, link)| match link {
                Link::Ok(status) => json!({"url": url, "status": status}),
                Link::Broken(why) | Link::Unsure(why) => json!({"url": url, "error": why}),
            })
            .collect();
        Verdict {
            passed: !broken && !unsure,
            evidence: Some(Value::Array(evidence)),
            unverifiable: unsure && !broken,
        }
    }
}

fn unverifiable(evidence: Value) -> Verdict {
    Verdict {
        passed: false,
        evidence: Some(evidence),
        unverifiable: true,
    }
}

/// What the rule is asked to check: `values` (or `value`), else the input's `target` key; lists
/// are checked item by item.
fn claimed_values(arguments: &Value, target: &str) -> Vec<Value> {
    let found = arguments
        .get("values")
        .or_else(|| arguments.get("value"))
        .or_else(|| arguments.get("input").and_then(|input| input.get(target)));
    match found {
        Some(Value::Array(items)) => items.clone(),
        Some(Value::Null) | None => Vec::new(),
        Some(other) => vec![other.clone()],
    }
}

/// One link's fate.
#[derive(Debug, Clone, PartialEq)]
enum Link {
    Ok(u16),
    /// The server says it is not there (4xx other than 429), or it is not an http(s) URL.
    Broken(String),
    /// We could not tell: no connection, a timeout, 429, 5xx.
    Unsure(String),
}

fn check_link(agent: &ureq::Agent, url: &str) -> Link {
    let url = url.trim();
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Link::Broken("not an http(s) URL".to_owned());
    }
    let status = match agent.head(url).call() {
        // Some servers refuse HEAD: ask again with GET.
        Ok(response) if matches!(response.status().as_u16(), 405 | 501) => {
            agent.get(url).call().map(|r| r.status().as_u16())
        }
        Ok(response) => Ok(response.status().as_u16()),
        Err(error) => Err(error),
    };
    match status {
        Ok(status @ 200..=399) => Link::Ok(status),
        Ok(status @ (429 | 500..=599)) => Link::Unsure(format!("HTTP {status}")),
        Ok(status) => Link::Broken(format!("HTTP {status}")),
        Err(error) => Link::Unsure(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::TcpListener;

    use super::*;

    fn checkers(facts: Option<&str>) -> Checkers {
        Checkers {
            facts: facts.map(|f| Facts::parse(f).unwrap()),
            offline: false,
            link_timeout: Duration::from_secs(5),
        }
    }

    #[test]
    fn existence_is_checked_against_the_facts_of_the_target() {
        let checkers = checkers(Some("product_names: [Notion, Obsidian]\nurls: []\n"));
        let verdict = checkers.check(
            "std.check_existence",
            &json!({"target": "product_names", "values": [" notion", "Evernote", {"name": "Obsidian"}]}),
        );
        assert_eq!(
            verdict,
            Verdict {
                passed: false,
                evidence: Some(json!({"known": [" notion", "Obsidian"], "unknown": ["Evernote"]})),
                unverifiable: false
            }
        );
        let verdict = checkers.check(
            "std.check_existence",
            &json!({"target": "product_names", "input": {"product_names": ["Notion"]}}),
        );
        assert!(verdict.passed);
        let verdict = checkers.check(
            "std.check_existence",
            &json!({"target": "apis", "values": ["x"]}),
        );
        assert_eq!(
            verdict,
            unverifiable(json!("the facts name nothing for `apis`"))
        );
    }

    #[test]
    fn without_facts_or_a_checker_a_rule_is_unverifiable() {
        let checkers = checkers(None);
        assert_eq!(
            checkers.check(
                "std.check_existence",
                &json!({"target": "x", "values": ["a"]})
            ),
            unverifiable(json!("no facts to check against (give --facts FILE)"))
        );
        assert_eq!(
            checkers.check("std.check_compute", &json!({"target": "x"})),
            unverifiable(json!("no checker for std.check_compute"))
        );
        let offline = Checkers {
            offline: true,
            ..checkers
        };
        assert!(
            offline
                .check(
                    "std.check_links",
                    &json!({"values": ["https://example.com"]})
                )
                .unverifiable
        );
    }

    #[test]
    fn a_list_of_facts_applies_to_every_target() {
        let checkers = checkers(Some("[alpha, beta]"));
        assert!(
            checkers
                .check(
                    "std.check_citation",
                    &json!({"target": "refs", "values": ["Beta"]})
                )
                .passed
        );
        assert!(Facts::parse("a: 1").is_err());
        assert!(Facts::parse("[a").unwrap_err().starts_with("1:"));
    }

    /// A server on the loopback that answers each connection with the next status.
    fn serve(statuses: Vec<u16>) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            for status in statuses {
                let Ok((mut stream, _)) = listener.accept() else {
                    return;
                };
                let mut buffer = [0u8; 4096];
                let _ = stream.read(&mut buffer);
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} X\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                );
            }
        });
        format!("http://{address}")
    }

    #[test]
    fn links_are_checked_over_http() {
        let base = serve(vec![200, 404, 405, 200, 503]);
        let checkers = checkers(None);
        let urls = json!({"values": [format!("{base}/a"), format!("{base}/b"), format!("{base}/c"), format!("{base}/d"), "mailto:x"]});
        let verdict = checkers.check("std.check_links", &urls);
        assert!(!verdict.passed);
        assert!(!verdict.unverifiable, "a 404 is a definite failure");
        let evidence = verdict.evidence.unwrap();
        let statuses: Vec<Value> = evidence
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.get("status").or_else(|| e.get("error")).cloned().unwrap())
            .collect();
        assert_eq!(
            statuses,
            [
                json!(200),
                json!("HTTP 404"),
                json!(200),
                json!("HTTP 503"),
                json!("not an http(s) URL")
            ]
        );
    }

    #[test]
    fn a_link_nobody_answers_is_unverifiable() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        drop(listener);
        let verdict = checkers(None).check(
            "std.check_links",
            &json!({"values": [format!("http://{address}/gone")]}),
        );
        assert!(!verdict.passed);
        assert!(verdict.unverifiable);
    }
}
