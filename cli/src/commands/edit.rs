//! `logicmd edit FILE [--set PATH=YAML]... [--remove PATH]... [--rename-step OLD NEW]
//! [--connect A B] [--disconnect A B] [--in-place]`: structured, comment-keeping edits.

use std::path::PathBuf;

use logicmd::edit::{apply, Edit};
use serde_json::Value;

use crate::output;
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
pub struct Args {
    /// The LOGIC.md file.
    file: PathBuf,
    /// Set a value: `steps.analyze.confidence.minimum=0.7` (the value is YAML).
    #[arg(long, value_name = "PATH=YAML")]
    set: Vec<String>,
    /// Remove an entry or list item.
    #[arg(long, value_name = "PATH")]
    remove: Vec<String>,
    /// Rename a step and every reference to it.
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"])]
    rename_step: Option<Vec<String>>,
    /// Make B need A.
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    connect: Option<Vec<String>>,
    /// Remove A from B's needs.
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    disconnect: Option<Vec<String>>,
    /// Write the result back to FILE instead of printing it.
    #[arg(long)]
    in_place: bool,
}

pub fn run(args: &Args) -> u8 {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("error: cannot read {}: {error}", args.file.display());
            return EXIT_USAGE;
        }
    };
    let edits = match edits(args) {
        Ok(edits) => edits,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    if edits.is_empty() {
        eprintln!(
            "error: no edit given (use --set, --remove, --rename-step, --connect or --disconnect)"
        );
        return EXIT_USAGE;
    }
    let mut current = text;
    for edit in &edits {
        match apply(&current, edit) {
            Ok(applied) => {
                for note in &applied.notes {
                    eprintln!("note: {note}");
                }
                current = applied.text;
            }
            Err(diagnostic) => {
                eprintln!("error[{}]: {}", diagnostic.code, diagnostic.message);
                return EXIT_INVALID;
            }
        }
    }
    if args.in_place {
        if let Err(error) = std::fs::write(&args.file, &current) {
            eprintln!("error: cannot write {}: {error}", args.file.display());
            return EXIT_USAGE;
        }
    } else {
        output::print(current.strip_suffix('\n').unwrap_or(&current));
    }
    EXIT_OK
}

fn edits(args: &Args) -> Result<Vec<Edit>, String> {
    let mut edits = Vec::new();
    for assignment in &args.set {
        let (path, yaml) = assignment
            .split_once('=')
            .ok_or_else(|| format!("`--set {assignment}`: expected PATH=VALUE"))?;
        edits.push(Edit::Set {
            path: path.trim().to_owned(),
            value: parse_value(yaml)?,
        });
    }
    for path in &args.remove {
        edits.push(Edit::Remove { path: path.clone() });
    }
    if let Some([from, to]) = args.rename_step.as_deref() {
        edits.push(Edit::RenameStep {
            from: from.clone(),
            to: to.clone(),
        });
    }
    if let Some([from, to]) = args.connect.as_deref() {
        edits.push(Edit::Connect {
            from: from.clone(),
            to: to.clone(),
        });
    }
    if let Some([from, to]) = args.disconnect.as_deref() {
        edits.push(Edit::Disconnect {
            from: from.clone(),
            to: to.clone(),
        });
    }
    Ok(edits)
}

/// A value given on the command line, read as YAML (so `0.7`, `true`, `[a, b]`, `{x: 1}` work).
fn parse_value(yaml: &str) -> Result<Value, String> {
    let parsed = logicmd::yaml::parse_file(yaml, logicmd::Limits::DEFAULT);
    if let Some(error) = parsed.diagnostics.first() {
        return Err(format!("`{yaml}` is not a YAML value: {}", error.message));
    }
    Ok(parsed
        .root
        .as_ref()
        .map(logicmd::json::to_json)
        .unwrap_or(Value::Null))
}
