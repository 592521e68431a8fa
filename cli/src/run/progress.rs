//! What a person watching a run sees on standard error: on a terminal, one line per node
//! (state, elapsed run time, calls) redrawn in place with ANSI cursor movement; otherwise plain
//! lines as things happen (`00:00:01 gather retry 2 in 1.000s: invalid output`). Times are the
//! run's clock (the trace's `t`), so a scripted run shows the same lines every time.

use std::collections::HashMap;
use std::io::Write;

use clap::ValueEnum;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProgressMode {
    /// Live on a terminal, plain lines otherwise.
    Auto,
    /// One line per node, redrawn in place.
    Live,
    /// A line per thing that happens.
    Plain,
    /// Nothing.
    Off,
}

/// One node as the live display shows it.
#[derive(Debug, Clone, PartialEq)]
struct NodeLine {
    node: String,
    state: &'static str,
    started_t: u64,
    last_t: u64,
    calls: u64,
}

pub struct Progress {
    mode: ProgressMode,
    nodes: Vec<NodeLine>,
    /// Where each node's line is in `nodes`: an event finds its line without a scan (a scan per
    /// event made a run's progress quadratic in its nodes).
    lines: HashMap<String, usize>,
    drawn: usize,
    /// The node lines last drawn: a frame that would look the same is not drawn again.
    last_frame: Vec<String>,
    out: Box<dyn Write>,
}

impl Progress {
    /// `mode` as chosen (`Auto` already resolved), writing to `out`.
    pub fn new(mode: ProgressMode, out: Box<dyn Write>) -> Progress {
        Progress {
            mode,
            nodes: Vec::new(),
            lines: HashMap::new(),
            drawn: 0,
            last_frame: Vec::new(),
            out,
        }
    }

    /// `Auto` becomes `Live` when standard error is a terminal (and `TERM` is not `dumb`).
    pub fn resolve(mode: ProgressMode) -> ProgressMode {
        use std::io::IsTerminal;
        match mode {
            ProgressMode::Auto
                if std::io::stderr().is_terminal()
                    && std::env::var("TERM").map_or(true, |t| t != "dumb") =>
            {
                ProgressMode::Live
            }
            ProgressMode::Auto => ProgressMode::Plain,
            other => other,
        }
    }

    /// Takes in an event already shown before (a resumed run's replay): the display's state
    /// follows, nothing is printed.
    pub fn absorb(&mut self, event: &Value) {
        self.update(event);
    }

    /// Shows a new event.
    pub fn show(&mut self, event: &Value) {
        self.update(event);
        match self.mode {
            ProgressMode::Plain => {
                if let Some(line) = plain_line(event) {
                    let _ = writeln!(self.out, "{line}");
                }
            }
            ProgressMode::Live => self.redraw(),
            ProgressMode::Auto | ProgressMode::Off => {}
        }
    }

    /// A note between the progress lines (resuming, pausing).
    pub fn note(&mut self, text: &str) {
        if self.mode != ProgressMode::Off {
            let _ = writeln!(self.out, "{text}");
            self.drawn = 0;
            self.last_frame.clear();
        }
    }

    fn update(&mut self, event: &Value) {
        // Only the live display draws the node lines: the other modes need not keep them.
        if self.mode != ProgressMode::Live {
            return;
        }
        let Some(node) = event.get("node").and_then(Value::as_str) else {
            return;
        };
        let t = event.get("t").and_then(Value::as_u64).unwrap_or(0);
        let name = event.get("event").and_then(Value::as_str).unwrap_or("");
        let index = match self.lines.get(node) {
            Some(&index) => index,
            None => {
                self.nodes.push(NodeLine {
                    node: node.to_owned(),
                    state: "waiting",
                    started_t: t,
                    last_t: t,
                    calls: 0,
                });
                self.lines.insert(node.to_owned(), self.nodes.len() - 1);
                self.nodes.len() - 1
            }
        };
        let line = &mut self.nodes[index];
        line.last_t = t;
        match name {
            "node_started" => {
                line.state = "running";
                line.started_t = t;
                line.calls = 0;
            }
            "model_requested" => {
                line.state = "running";
                line.calls += 1;
            }
            "retried" => line.state = "retrying",
            "review_requested" => line.state = "review",
            "review_answered" => line.state = "running",
            "node_skipped" => line.state = "skipped",
            "node_finished" if event.get("status").and_then(Value::as_str) == Some("failed") => {
                line.state = "failed"
            }
            "node_finished" => line.state = "done",
            _ => {}
        }
    }

    fn redraw(&mut self) {
        let width = self.nodes.iter().map(|n| n.node.len()).max().unwrap_or(0);
        let lines: Vec<String> = self.nodes.iter().map(|n| live_line(n, width)).collect();
        if lines == self.last_frame {
            return;
        }
        let mut frame = String::new();
        if self.drawn > 0 {
            frame.push_str(&format!("\x1b[{}A", self.drawn));
        }
        for line in &lines {
            frame.push_str("\r\x1b[2K");
            frame.push_str(line);
            frame.push('\n');
        }
        self.drawn = lines.len();
        self.last_frame = lines;
        let _ = self.out.write_all(frame.as_bytes());
        let _ = self.out.flush();
    }
}

fn live_line(line: &NodeLine, width: usize) -> String {
    let symbol = match line.state {
        "done" => "✓",
        "failed" => "✗",
        "skipped" => "-",
        "review" => "?",
        _ => "…",
    };
    let calls = match line.calls {
        0 => String::new(),
        1 => "1 call".to_owned(),
        n => format!("{n} calls"),
    };
    format!(
        "{symbol} {:<width$}  {:<8} {:>8}  {calls}",
        line.node,
        line.state,
        seconds(line.last_t.saturating_sub(line.started_t)),
    )
    .trim_end()
    .to_owned()
}

/// The line a plain display prints for `event`, if any.
pub fn plain_line(event: &Value) -> Option<String> {
    let text = |key: &str| event.get(key).and_then(Value::as_str).unwrap_or("");
    let number = |key: &str| event.get(key).and_then(Value::as_u64).unwrap_or(0);
    let node = text("node");
    let what = match text("event") {
        "run_started" => format!("run started ({})", text("kind")),
        "node_started" => "started".to_owned(),
        "retried" => format!(
            "retry {} in {}: {}",
            number("attempt"),
            seconds(number("wait_ms")),
            text("reason")
        ),
        "output_invalid" => format!(
            "invalid output: {}",
            event
                .get("errors")
                .and_then(Value::as_array)
                .map(|errors| errors
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join("; "))
                .unwrap_or_default()
        ),
        "gate_evaluated" if event.get("passed") == Some(&Value::Bool(false)) => {
            match (text("gate"), text("condition")) {
                ("", "") => "gate failed".to_owned(),
                ("", condition) => format!("gate failed: {condition}"),
                (gate, _) => format!("gate `{gate}` failed"),
            }
        }
        "obligation_updated" => format!(
            "obligation {}{}: {}",
            text("rule"),
            match text("target") {
                "" => String::new(),
                target => format!(" ({target})"),
            },
            obligation_word(event)
        ),
        "review_requested" => {
            let actions: Vec<&str> = event
                .get("actions")
                .and_then(Value::as_array)
                .map(|actions| actions.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let choices = match actions.as_slice() {
                [] => String::new(),
                actions => format!(" ({})", actions.join(", ")),
            };
            match text("message").trim() {
                "" => format!("waits for a review{choices}"),
                message => format!("waits for a review: {message}{choices}"),
            }
        }
        "review_answered" => format!("review answered `{}`", text("action")),
        "node_skipped" => format!("skipped: {}", text("reason")),
        "node_finished" => {
            let status = text("status");
            let took = seconds(number("duration_ms"));
            match event.get("error").and_then(Value::as_str) {
                Some(error) => format!("{status} after {took}: {error}"),
                None => format!("{status} in {took}"),
            }
        }
        "refused" => "refused: obligations unmet".to_owned(),
        "run_finished" => format!("run {}", text("status")),
        _ => return None,
    };
    let clock = clock(number("t"));
    Some(if node.is_empty() {
        format!("{clock} {what}")
    } else {
        format!("{clock} {node} {what}")
    })
}

fn obligation_word(event: &Value) -> String {
    let status = event.get("status").and_then(Value::as_str);
    let passed = event
        .get("passed")
        .or_else(|| event.pointer("/verdict/passed"))
        .and_then(Value::as_bool);
    match (status, passed) {
        (Some(status), _) => status.to_owned(),
        (None, Some(true)) => "met".to_owned(),
        (None, Some(false)) => "unmet".to_owned(),
        (None, None) => "updated".to_owned(),
    }
}

/// `HH:MM:SS` of run time.
fn clock(ms: u64) -> String {
    let seconds = ms / 1000;
    format!(
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// `1.250s`.
pub fn seconds(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use serde_json::json;

    use super::*;

    /// A writer tests can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn events() -> Vec<Value> {
        vec![
            json!({"seq": 0, "event": "run_started", "t": 0, "kind": "logic"}),
            json!({"seq": 1, "event": "node_started", "t": 0, "node": "gather"}),
            json!({"seq": 2, "event": "model_requested", "t": 0, "node": "gather"}),
            json!({"seq": 3, "event": "output_invalid", "t": 0, "node": "gather", "errors": ["the answer is empty"]}),
            json!({"seq": 4, "event": "retried", "t": 0, "node": "gather", "attempt": 2, "wait_ms": 1500, "reason": "invalid output"}),
            json!({"seq": 5, "event": "model_requested", "t": 1500, "node": "gather"}),
            json!({"seq": 6, "event": "node_finished", "t": 1500, "node": "gather", "status": "completed", "duration_ms": 1500}),
            json!({"seq": 7, "event": "node_skipped", "t": 1500, "node": "report", "reason": "no branch chose it"}),
            json!({"seq": 8, "event": "run_finished", "t": 3_661_000, "status": "completed"}),
        ]
    }

    #[test]
    fn plain_lines_say_what_happened_at_which_run_time() {
        let out = Shared::default();
        let mut progress = Progress::new(ProgressMode::Plain, Box::new(out.clone()));
        for event in events() {
            progress.show(&event);
        }
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "00:00:00 run started (logic)\n\
             00:00:00 gather started\n\
             00:00:00 gather invalid output: the answer is empty\n\
             00:00:00 gather retry 2 in 1.500s: invalid output\n\
             00:00:01 gather completed in 1.500s\n\
             00:00:01 report skipped: no branch chose it\n\
             01:01:01 run completed\n"
        );
    }

    #[test]
    fn a_gate_or_review_without_a_name_or_message_is_told_by_what_it_has() {
        let lines: Vec<Option<String>> = [
            json!({"event": "gate_evaluated", "t": 0, "node": "check", "condition": "{{ score > 3 }}", "passed": false}),
            json!({"event": "gate_evaluated", "t": 0, "node": "check", "gate": "", "passed": false}),
            json!({"event": "gate_evaluated", "t": 0, "node": "g", "gate": "consensus", "passed": false}),
            json!({"event": "review_requested", "t": 0, "node": "editor", "message": null, "actions": ["approve", "reject"]}),
            json!({"event": "review_requested", "t": 0, "node": "editor", "message": "", "actions": []}),
            json!({"event": "review_requested", "t": 0, "node": "editor", "message": "Check it", "actions": ["ok"]}),
        ]
        .iter()
        .map(plain_line)
        .collect();
        assert_eq!(
            lines,
            [
                Some("00:00:00 check gate failed: {{ score > 3 }}".to_owned()),
                Some("00:00:00 check gate failed".to_owned()),
                Some("00:00:00 g gate `consensus` failed".to_owned()),
                Some("00:00:00 editor waits for a review (approve, reject)".to_owned()),
                Some("00:00:00 editor waits for a review".to_owned()),
                Some("00:00:00 editor waits for a review: Check it (ok)".to_owned()),
            ]
        );
    }

    #[test]
    fn the_live_display_redraws_one_line_per_node_in_place() {
        let out = Shared::default();
        let mut progress = Progress::new(ProgressMode::Live, Box::new(out.clone()));
        let events = events();
        progress.absorb(&events[0]);
        progress.absorb(&events[1]);
        for event in &events[2..8] {
            progress.show(event);
        }
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let last_frame = text.rsplit("\x1b[1A").next().unwrap();
        assert_eq!(
            last_frame,
            "\r\x1b[2K✓ gather  done       1.500s  2 calls\n\r\x1b[2K- report  skipped    0.000s\n"
        );
        assert!(text.starts_with("\r\x1b[2K… gather  running    0.000s  1 call\n"));
    }
}
