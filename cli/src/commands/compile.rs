//! `logicmd compile FILE [--step NAME] [--format markdown|json]`: the prompt scaffold.

use std::path::PathBuf;

use clap::ValueEnum;
use logicmd::compile::{compile_document, place};
use logicmd::imports::resolve;

use super::load_document;
use crate::fs_loader::{FsLoader, Placed};
use crate::output;
use crate::{EXIT_INVALID, EXIT_OK};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompileFormat {
    Markdown,
    Json,
}

#[derive(clap::Args)]
pub struct Args {
    /// The LOGIC.md file; `-` reads standard input (imports then resolve from the working
    /// directory).
    file: PathBuf,
    /// Compile only this step.
    #[arg(long)]
    step: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompileFormat::Markdown)]
    format: CompileFormat,
    /// Directory imports may read from (default: as for `lint`).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

pub fn run(args: &Args) -> u8 {
    let document = match load_document(&args.file) {
        Ok(document) => document,
        Err(status) => return status,
    };
    let file = super::each_file::display_name(&args.file);
    let mut problems = Vec::new();
    let resolved = match FsLoader::place(&args.file, args.root.as_deref()) {
        Ok(Placed { loader, id }) => {
            let resolved = resolve(&document, &id, &loader);
            problems.extend(resolved.diagnostics);
            resolved.value
        }
        Err(error) => {
            problems.push(logicmd::Diagnostic::error("io-error", error.message));
            document.json().clone()
        }
    };
    let compiled = match compile_document(&document, &resolved) {
        Ok(compiled) => compiled,
        Err(diagnostics) => {
            problems.extend(diagnostics);
            eprintln!("{}", output::human(&file, document.text(), &problems));
            return EXIT_INVALID;
        }
    };
    if !problems.is_empty() {
        eprintln!("{}", output::human(&file, document.text(), &problems));
    }
    let rendered = match (&args.step, args.format) {
        (Some(name), format) => match compiled.steps.iter().find(|s| &s.name == name) {
            Some(step) if format == CompileFormat::Json => {
                serde_json::to_string_pretty(step).unwrap_or_default()
            }
            Some(step) => step.scaffold.clone(),
            None => {
                let known = compiled.order.join(", ");
                let diagnostic = logicmd::Diagnostic::error(
                    "unknown-step",
                    format!("there is no step `{name}` (steps: {known})"),
                )
                .with_path("/steps");
                eprintln!(
                    "{}",
                    output::human(&file, document.text(), &place(&document, vec![diagnostic]))
                );
                return EXIT_INVALID;
            }
        },
        (None, CompileFormat::Json) => serde_json::to_string_pretty(&compiled).unwrap_or_default(),
        (None, CompileFormat::Markdown) => compiled.to_markdown(),
    };
    output::print(rendered.trim_end());
    if problems.iter().any(|d| d.is_error()) {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}
