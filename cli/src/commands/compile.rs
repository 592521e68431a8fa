//! `logicmd compile FILE [--step NAME] [--format markdown|json]`: the prompt scaffold.

use std::path::PathBuf;

use clap::ValueEnum;

use super::front;
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
    #[arg(long, value_name = "DIR", value_parser = super::existing_dir)]
    root: Option<PathBuf>,
}

pub fn run(args: &Args) -> u8 {
    let file = super::each_file::display_name(&args.file);
    let text = match super::read_text(&args.file) {
        Ok(text) => text,
        Err(status) => return status,
    };
    let compiled = front::compile_file(&args.file, &text, args.root.as_deref());
    let problems = &compiled.analysis.diagnostics;
    let shown = compiled
        .analysis
        .parsed
        .as_ref()
        .map_or(text.as_str(), |p| p.text());
    if !problems.is_empty() {
        eprintln!("{}", output::human(&file, shown, problems));
    }
    let Some(workflow) = compiled.workflow else {
        if args.format == CompileFormat::Json {
            // A tool reading standard output learns why there is no scaffold.
            let refusal =
                serde_json::json!({ "file": file, "compiled": false, "diagnostics": problems });
            output::print(&serde_json::to_string_pretty(&refusal).unwrap_or_default());
        }
        eprintln!("error: {file} was not compiled: fix the errors above first");
        return EXIT_INVALID;
    };
    let rendered = match (&args.step, args.format) {
        (Some(name), format) => match workflow.step(name) {
            Ok(step) if format == CompileFormat::Json => {
                serde_json::to_string_pretty(step).unwrap_or_default()
            }
            Ok(step) => step.scaffold.clone(),
            Err(unknown) => {
                eprintln!("error: {file}: {}", unknown.message);
                return EXIT_INVALID;
            }
        },
        (None, CompileFormat::Json) => serde_json::to_string_pretty(&workflow).unwrap_or_default(),
        (None, CompileFormat::Markdown) => workflow.to_markdown(),
    };
    output::print(rendered.trim_end());
    EXIT_OK
}
