//! Colour in human reports: `--color auto|always|never`; with `auto`, as clap and anstream
//! decide (`NO_COLOR` set and not empty: none; else `CLICOLOR_FORCE` set and not empty: colour;
//! else `CLICOLOR=0`: none; else colour on a terminal that supports it). Only reports are
//! painted, never a document's text or data (JSON, SARIF, annotations, printed documents).

use std::io::IsTerminal;

use anstyle::{AnsiColor, Style};
use logicmd::Severity;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal, unless NO_COLOR says not to (CLICOLOR_FORCE forces it).
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour what goes to standard output.
    pub fn for_stdout(self) -> Paint {
        Paint {
            on: self.enabled(std::io::stdout().is_terminal()),
        }
    }

    fn enabled(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                if anstyle_query::no_color() {
                    false
                } else if anstyle_query::clicolor_force() {
                    true
                } else if anstyle_query::clicolor() == Some(false) {
                    false
                } else {
                    terminal
                        && (anstyle_query::term_supports_color()
                            || anstyle_query::clicolor() == Some(true)
                            || anstyle_query::is_ci())
                }
            }
        }
    }
}

/// Paints text when colour is on; leaves it as it is when off.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    pub on: bool,
}

const BLUE: Style = AnsiColor::Blue.on_default().bold();
const BOLD: Style = Style::new().bold();
const GREEN: Style = AnsiColor::Green.on_default().bold();
const RED: Style = AnsiColor::Red.on_default().bold();

fn of(severity: Severity) -> Style {
    match severity {
        Severity::Error => RED,
        Severity::Warning => AnsiColor::Yellow.on_default().bold(),
        Severity::Info => AnsiColor::Cyan.on_default().bold(),
    }
}

impl Paint {
    /// `text` in `style`.
    pub fn style(self, style: Style, text: &str) -> String {
        if self.on && !text.is_empty() {
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text.to_owned()
        }
    }

    pub fn bold(self, text: &str) -> String {
        self.style(BOLD, text)
    }

    pub fn ok(self, text: &str) -> String {
        self.style(GREEN, text)
    }

    pub fn fail(self, text: &str) -> String {
        self.style(RED, text)
    }

    pub fn severity(self, severity: Severity, text: &str) -> String {
        self.style(of(severity), text)
    }

    /// A unified diff: headers bold, hunk lines cyan, removals red, additions green.
    pub fn diff(self, diff: &str) -> String {
        if !self.on {
            return diff.to_owned();
        }
        diff.split_inclusive('\n')
            .map(|line| {
                let (body, end) = line
                    .strip_suffix('\n')
                    .map_or((line, ""), |body| (body, "\n"));
                let style = if body.starts_with("---") || body.starts_with("+++") {
                    Some(BOLD)
                } else if body.starts_with("@@") {
                    Some(AnsiColor::Cyan.on_default())
                } else if body.starts_with('-') {
                    Some(AnsiColor::Red.on_default())
                } else if body.starts_with('+') {
                    Some(AnsiColor::Green.on_default())
                } else {
                    None
                };
                match style {
                    Some(style) => format!("{}{end}", self.style(style, body)),
                    None => line.to_owned(),
                }
            })
            .collect()
    }

    /// A diagnostic as core renders it (`logicmd::render`), painted as rustc paints its own:
    /// the severity and code in the severity's colour, the message bold, the gutter, arrow and
    /// notes' `=` blue, the marks in the severity's colour. The source line is left as it is.
    pub fn diagnostic(self, rendered: &str, severity: Severity, has_place: bool) -> String {
        if !self.on {
            return rendered.to_owned();
        }
        let mut out = String::with_capacity(rendered.len() + 64);
        for (index, line) in rendered.split_inclusive('\n').enumerate() {
            let (body, end) = match line.strip_suffix('\n') {
                Some(body) => (body, "\n"),
                None => (line, ""),
            };
            let painted = match index {
                0 => self.header(body, severity),
                // The snippet: ` |`, `N | source`, ` | ^^^`.
                2..=4 if has_place => self.snippet_line(body, index == 4, severity),
                _ => self.note_line(body),
            };
            out.push_str(&painted);
            out.push_str(end);
        }
        out
    }

    fn header(self, line: &str, severity: Severity) -> String {
        match line.split_once("]: ") {
            Some((kind, message)) => format!(
                "{}{}",
                self.severity(severity, &format!("{kind}]")),
                self.bold(&format!(": {message}"))
            ),
            None => line.to_owned(),
        }
    }

    fn snippet_line(self, line: &str, marks: bool, severity: Severity) -> String {
        let Some(bar) = line.find(" |") else {
            return line.to_owned();
        };
        let (gutter, rest) = line.split_at(bar + 2);
        let rest = if marks {
            self.severity(severity, rest)
        } else {
            rest.to_owned()
        };
        format!("{}{rest}", self.style(BLUE, gutter))
    }

    /// `--> file:line:col` and `= note` lines.
    fn note_line(self, line: &str) -> String {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        for lead in ["--> ", "= "] {
            if let Some(rest) = trimmed.strip_prefix(lead) {
                return format!("{indent}{}{rest}", self.style(BLUE, lead.trim_end()) + " ");
            }
        }
        line.to_owned()
    }
}
