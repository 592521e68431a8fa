//! `logicmd eval-tree FILE TREE --input FILE.json`: route an input through a decision tree.

use std::path::PathBuf;

use logicmd::trees::eval_tree;

use super::load_document;
use crate::output;
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
pub struct Args {
    /// The LOGIC.md file; `-` reads standard input.
    file: PathBuf,
    /// The decision tree's name.
    tree: String,
    /// The input, as JSON; conditions read it as `input`. `-` reads standard input.
    #[arg(long, value_name = "FILE.json")]
    input: PathBuf,
}

pub fn run(args: &Args) -> u8 {
    if args.file.as_os_str() == "-" && args.input.as_os_str() == "-" {
        eprintln!("error: the document and `--input` cannot both be standard input (`-`)");
        return EXIT_USAGE;
    }
    let document = match load_document(&args.file) {
        Ok(document) => document,
        Err(status) => return status,
    };
    let input = match super::read_json(&args.input) {
        Ok(value) => value,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    match eval_tree(document.json(), &args.tree, &input) {
        Ok(outcome) => {
            output::print(&serde_json::to_string_pretty(&outcome).unwrap_or_default());
            EXIT_OK
        }
        Err(message) => {
            eprintln!("error: {message}");
            EXIT_INVALID
        }
    }
}
