//! `logicmd eval-tree FILE TREE --input FILE.json`: route an input through a decision tree.

use std::path::PathBuf;

use super::front;
use crate::output;
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
pub struct Args {
    /// The LOGIC.md file; `-` reads standard input.
    file: PathBuf,
    /// The decision tree's name.
    tree: String,
    /// The input, a JSON object; conditions read it as `input`. `-` reads standard input.
    #[arg(long, value_name = "FILE.json")]
    input: PathBuf,
    /// Directory imports may read from (default: as for `lint`).
    #[arg(long, value_name = "DIR", value_parser = super::existing_dir)]
    root: Option<PathBuf>,
}

pub fn run(args: &Args) -> u8 {
    if args.file.as_os_str() == "-" && args.input.as_os_str() == "-" {
        eprintln!("error: the document and `--input` cannot both be standard input (`-`)");
        return EXIT_USAGE;
    }
    let file = super::each_file::display_name(&args.file);
    let text = match super::read_text(&args.file) {
        Ok(text) => text,
        Err(status) => return status,
    };
    let input = match super::read_json(&args.input) {
        Ok(value) => value,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    match front::eval_tree_file(&args.file, &text, args.root.as_deref(), &args.tree, &input) {
        Ok(outcome) => {
            output::print(&serde_json::to_string_pretty(&outcome).unwrap_or_default());
            EXIT_OK
        }
        Err(problems) if problems.iter().all(|d| d.span.is_none()) => {
            for problem in &problems {
                eprintln!("error: {}", problem.message);
            }
            EXIT_INVALID
        }
        Err(problems) => {
            eprintln!("{}", output::human(&file, &text, &problems));
            eprintln!("error: {file}: no decision tree was run: fix the errors above first");
            EXIT_INVALID
        }
    }
}
