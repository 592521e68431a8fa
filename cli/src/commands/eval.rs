//! `logicmd eval 'EXPR' [--context FILE.json]`: evaluate one `{{ }}` expression.

use std::path::PathBuf;

use logicmd::expr::eval_input;
use serde_json::Value;

use crate::output;
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
pub struct Args {
    /// The expression, with or without `{{ }}`; text around `{{ }}` interpolates.
    expression: String,
    /// A JSON file whose top-level keys are the variables (`input`, `steps`, `output`, ...).
    #[arg(long, value_name = "FILE.json")]
    context: Option<PathBuf>,
}

pub fn run(args: &Args) -> u8 {
    let context = match &args.context {
        None => Value::Object(Default::default()),
        Some(path) => match super::read_json(path) {
            Ok(value) => value,
            Err(message) => {
                eprintln!("error: {message}");
                return EXIT_USAGE;
            }
        },
    };
    match eval_input(&args.expression, &context) {
        Ok(value) => {
            output::print(&serde_json::to_string_pretty(&value).unwrap_or_default());
            EXIT_OK
        }
        Err(error) => {
            let column = error.offset;
            let width = error.len.max(1);
            eprintln!("error[{}]: {}", error.code, error.message);
            eprintln!("  | {}", args.expression);
            eprintln!(
                "  | {}{}",
                " ".repeat(
                    args.expression[..column.min(args.expression.len())]
                        .chars()
                        .count()
                ),
                "^".repeat(width)
            );
            EXIT_INVALID
        }
    }
}
