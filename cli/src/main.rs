//! `logicmd`: the LOGIC.md toolkit for terminals and CI.

// The standard streams as `std`'s printing macros write them, without their panic when the reader
// has closed the stream (`logicmd ... 2>&1 | head -1`): the reader has what it wanted, and the exit
// status stays the command's (issue #30). Defined before the modules, so every module's
// `println!`, `print!` and `eprintln!` are these.
macro_rules! println {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}
macro_rules! print {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
mod commands;
mod config;
mod discover;
mod evals;
mod fs_loader;
mod input;
mod lsp;
mod mcp;
mod output;
mod parallel;
mod providers;
mod report;
mod run;
mod uri;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Exit status: every file is fine.
const EXIT_OK: u8 = 0;
/// Exit status: some file has errors.
const EXIT_INVALID: u8 = 1;
/// Exit status: bad usage, or a file could not be read.
const EXIT_USAGE: u8 = 2;

/// What `--version` says: the implementation's version and, as spec §14.2 requires, the spec
/// versions it supports (a test holds it to `logicmd::schema::SUPPORTED_SPEC_VERSIONS` and
/// `logicmd::drtl::DRTL_VERSION`).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (LOGIC.md spec_version 1.0; DRTL 0.1.1)"
);

#[derive(Parser)]
#[command(
    name = "logicmd",
    version = VERSION,
    about = "Validate, compile, edit and run LOGIC.md reasoning specifications"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Start a new document from a template (`--list` shows them).
    Init(commands::init::Args),
    /// Check LOGIC.md files against the v1.0 specification.
    Validate(commands::validate::Args),
    /// Validate, then check references, cycles, expressions, thresholds, trees and workflows.
    Lint(commands::lint::Args),
    /// Compile the prompt scaffold (markdown, or JSON with levels and order).
    Compile(commands::compile::Args),
    /// Evaluate a `{{ }}` expression against a JSON context.
    Eval(commands::eval::Args),
    /// Route an input through a decision tree.
    EvalTree(commands::eval_tree::Args),
    /// Edit a document structurally, keeping comments and formatting.
    Edit(commands::edit::Args),
    /// Format documents: canonical key order, 2-space indentation, comments kept.
    Fmt(commands::fmt::Args),
    /// The graph model, laid out (JSON, Graphviz DOT or Mermaid).
    Graph(commands::graph::GraphArgs),
    /// Obligation analysis: unverified outputs, unbounded cycles, termination, gate branches.
    Check(commands::check::Args),
    /// Run a document or topology: trace, crash-safe state, review pauses (--dry-run to try it).
    Run(Box<commands::run::Args>),
    /// Decide an agent's next action from its state (execute_tool, ask_user or complete_task).
    NextAction(Box<commands::next_action::Args>),
    /// Run a document and its variants over a dataset of cases, score, compare results.
    Evals(evals::Args),
    /// Check a run's trace against temporal obligations, or export it as OpenTelemetry spans.
    Trace(commands::trace::Args),
    /// Lint, then lint again what changes (and what imports it); --fix fixes as it goes.
    Watch(Box<commands::watch::WatchArgs>),
    /// Semantic diff of two documents: steps/nodes added, removed, renamed; fields; edges.
    Diff(commands::diff::Args),
    /// The settings in effect for a file or directory (logicmd.toml, [tool.logicmd]) and where each came from.
    Config(commands::config::Args),
    /// Print the shell completion script (bash, zsh, fish, powershell, elvish).
    Completion(commands::completion::CompletionArgs),
    /// Print the manual page (roff), or write every command's page with --output DIR.
    Man(commands::completion::ManArgs),
    /// Language server (LSP over standard input/output) for editors.
    Lsp(lsp::Args),
    /// MCP server for AI agents (stdio, or Streamable HTTP): every command as a tool.
    Mcp(mcp::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() {
                EXIT_USAGE
            } else {
                EXIT_OK
            });
        }
    };
    let status = match cli.command {
        Command::Init(args) => commands::init::run(&args),
        Command::Validate(args) => commands::validate::run(&args),
        Command::Lint(args) => commands::lint::run(&args),
        Command::Compile(args) => commands::compile::run(&args),
        Command::Eval(args) => commands::eval::run(&args),
        Command::EvalTree(args) => commands::eval_tree::run(&args),
        Command::Edit(args) => commands::edit::run(&args),
        Command::Fmt(args) => commands::fmt::run(&args),
        Command::Graph(args) => commands::graph::graph(&args),
        Command::Check(args) => commands::check::run(&args),
        Command::Run(args) => commands::run::run(&args),
        Command::NextAction(args) => commands::next_action::run(&args),
        Command::Trace(args) => commands::trace::run(&args),
        Command::Evals(args) => evals::run(&args),
        Command::Watch(args) => commands::watch::run(&args),
        Command::Diff(args) => commands::diff::run(&args),
        Command::Config(args) => commands::config::run(&args),
        Command::Completion(args) => commands::completion::completion(&args, Cli::command()),
        Command::Man(args) => commands::completion::man(&args, Cli::command()),
        Command::Lsp(args) => lsp::run(&args),
        Command::Mcp(args) => mcp::run(&args),
    };
    ExitCode::from(status)
}

#[cfg(test)]
mod tests {
    /// clap's own checks of every command's arguments (unique ids and groups, valid defaults).
    #[test]
    fn the_command_line_model_is_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }

    /// `--version` names every spec version core supports, and no other.
    #[test]
    fn the_version_declares_the_supported_spec_versions() {
        let declared = super::VERSION
            .split_once("spec_version ")
            .and_then(|(_, rest)| rest.split_once(';'))
            .map(|(versions, _)| versions.split(", ").collect::<Vec<_>>())
            .unwrap_or_default();
        assert_eq!(declared, logicmd::schema::SUPPORTED_SPEC_VERSIONS);
        assert!(super::VERSION.contains(&format!("DRTL {})", logicmd::drtl::DRTL_VERSION)));
    }
}
