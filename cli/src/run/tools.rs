//! The CLI's answers to the tool calls the run session leaves to it (the session itself answers
//! what a script or the facts answer, and a rule with nothing claimed): links checked over HTTP
//! with a timeout (`std.check_links`), and for everything else an explicit "unverifiable", which
//! counts as a failure under `block`. With `--offline` or `--dry-run` no request is made.

use std::time::Duration;

use logicmd::run::session::{claimed_name, claimed_values, no_checker};
use logicmd::run::Verdict;
use serde_json::{json, Value};

/// How the CLI answers tool calls.
#[derive(Debug, Clone)]
pub struct Checkers {
    /// `--offline`: no network.
    pub offline: bool,
    /// `--dry-run`: the claims are made up, so no request checks them (no HTTP, no DNS).
    pub dry_run: bool,
    pub link_timeout: Duration,
}

/// What a tool call needs.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolWork {
    /// Links to check over the network (on a worker thread).
    Links(Value),
    /// Nothing can check it here: unverifiable, for this reason.
    Unverifiable(String),
}

impl Checkers {
    /// What the CLI does about `rule` on `arguments`.
    pub fn work(&self, rule: &str, arguments: &Value) -> ToolWork {
        match rule {
            "std.check_links" if self.dry_run => ToolWork::Unverifiable(
                "dry run: links are not checked (no request is made)".to_owned(),
            ),
            "std.check_links" if self.offline => {
                ToolWork::Unverifiable("offline: links are not checked".to_owned())
            }
            "std.check_links" => ToolWork::Links(arguments.clone()),
            // A fact rule comes here only without --facts.
            _ => ToolWork::Unverifiable(no_checker(rule)),
        }
    }

    /// Checks the claimed links: each must answer HEAD (or GET) with a 2xx or 3xx.
    pub fn check_links(&self, arguments: &Value) -> Verdict {
        let values = claimed_values(arguments);
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

    fn checkers() -> Checkers {
        Checkers {
            offline: false,
            dry_run: false,
            link_timeout: Duration::from_secs(5),
        }
    }

    #[test]
    fn what_the_cli_cannot_check_is_unverifiable_and_says_why() {
        let links = json!({"values": ["https://example.com"]});
        assert_eq!(
            checkers().work("std.check_links", &links),
            ToolWork::Links(links.clone())
        );
        let offline = Checkers {
            offline: true,
            ..checkers()
        };
        assert_eq!(
            offline.work("std.check_links", &links),
            ToolWork::Unverifiable("offline: links are not checked".into())
        );
        let dry = Checkers {
            dry_run: true,
            ..checkers()
        };
        assert_eq!(
            dry.work("std.check_links", &links),
            ToolWork::Unverifiable("dry run: links are not checked (no request is made)".into())
        );
        assert_eq!(
            checkers().work(
                "std.check_existence",
                &json!({"target": "x", "values": ["a"]})
            ),
            ToolWork::Unverifiable("no facts to check against".into())
        );
        assert_eq!(
            checkers().work("std.check_compute", &json!({"target": "x"})),
            ToolWork::Unverifiable("no checker for std.check_compute".into())
        );
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
        let urls = json!({"values": [format!("{base}/a"), format!("{base}/b"), format!("{base}/c"), format!("{base}/d"), "mailto:x"]});
        let verdict = checkers().check_links(&urls);
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
        let verdict =
            checkers().check_links(&json!({"values": [format!("http://{address}/gone")]}));
        assert!(!verdict.passed);
        assert!(verdict.unverifiable);
    }
}
