//! `logicmd edit FILE [--set PATH=YAML]... [--remove PATH]... [--rename-step OLD NEW]...
//! [--connect A B]... [--disconnect A B]... [--in-place]`: structured, comment-keeping edits,
//! applied in the order given.

use std::path::PathBuf;

use logicmd::edit::{apply, Edit};
use serde_json::Value;

use crate::output;
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

/// The flags as clap reads them; [`Args`] adds the order they were given in.
#[derive(clap::Args)]
#[command(
    after_help = "Edits apply one after another, in the order given on the command line; the first one refused stops the rest and nothing is written."
)]
struct Flags {
    /// The LOGIC.md file (or DRTL topology).
    file: PathBuf,
    /// Set a value: `steps.analyze.confidence.minimum=0.7` (the value is YAML). A key holding `.`
    /// or brackets is quoted: `nodes.researcher.overrides["reasoning.max_iterations"]=5`.
    #[arg(long, value_name = "PATH=YAML")]
    set: Vec<String>,
    /// Remove an entry or list item, with its comments. Removing a step (`steps.NAME`), a
    /// workflow node (`nodes.NAME`) or a topology node (`nodes[I]`) also removes what only points
    /// at it: `needs`, `parallel_steps` and `depends_on` entries, branches and decision-tree
    /// branches routing to it, degradations falling back to it, edges and gate routes (a review
    /// action routed to it ends the run instead), inspector controls bound to it, its canvas
    /// position. It is refused while an expression or input reads its output, or an invariant's
    /// `on_breach` or a terminal's `action` runs it.
    #[arg(long, value_name = "PATH")]
    remove: Vec<String>,
    /// Rename a step and every reference to it.
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"])]
    rename_step: Vec<String>,
    /// Make B need A; in a topology, add an edge from A to B (refused for a `needs` cycle, a
    /// node wired to itself, or port types that do not fit).
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    connect: Vec<String>,
    /// Remove A from B's needs.
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    disconnect: Vec<String>,
    /// Write the result back to FILE instead of printing it.
    #[arg(long)]
    in_place: bool,
}

/// One edit flag with its values, before it is turned into an [`Edit`].
enum Flag {
    Set(String),
    Remove(String),
    RenameStep(String, String),
    Connect(String, String),
    Disconnect(String, String),
}

pub struct Args {
    file: PathBuf,
    in_place: bool,
    /// The edit flags in command-line order.
    flags: Vec<Flag>,
}

impl clap::FromArgMatches for Args {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let flags = Flags::from_arg_matches(matches)?;
        // Each value's index on the command line orders the flags; a two-value flag is placed
        // by its first value.
        let mut ordered: Vec<(usize, Flag)> = Vec::new();
        let mut collect = |id: &str, arity: usize, make: fn(&[String]) -> Flag| {
            let values: Vec<String> = matches
                .get_many::<String>(id)
                .into_iter()
                .flatten()
                .cloned()
                .collect();
            let indices: Vec<usize> = matches.indices_of(id).into_iter().flatten().collect();
            for (chunk, at) in values.chunks(arity).zip(indices.iter().step_by(arity)) {
                ordered.push((*at, make(chunk)));
            }
        };
        collect("set", 1, |v| Flag::Set(v[0].clone()));
        collect("remove", 1, |v| Flag::Remove(v[0].clone()));
        collect("rename_step", 2, |v| {
            Flag::RenameStep(v[0].clone(), v[1].clone())
        });
        collect("connect", 2, |v| Flag::Connect(v[0].clone(), v[1].clone()));
        collect("disconnect", 2, |v| {
            Flag::Disconnect(v[0].clone(), v[1].clone())
        });
        ordered.sort_by_key(|(at, _)| *at);
        Ok(Args {
            file: flags.file,
            in_place: flags.in_place,
            flags: ordered.into_iter().map(|(_, flag)| flag).collect(),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for Args {
    fn augment_args(command: clap::Command) -> clap::Command {
        Flags::augment_args(command)
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Flags::augment_args_for_update(command)
    }
}

pub fn run(args: &Args) -> u8 {
    let stdin = args.file.as_os_str() == "-";
    if stdin && args.in_place {
        eprintln!(
            "error: --in-place needs a file; standard input's edited text is printed instead"
        );
        return EXIT_USAGE;
    }
    let (text, tail) = match super::read_document_text(&args.file) {
        Ok(read) => read,
        Err(status) => return status,
    };
    let file = super::each_file::display_name(&args.file);
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
            // A refusal about a place (a reference an expression still makes) shows it.
            Err(diagnostic) if diagnostic.span.is_some() => {
                eprintln!("{}", output::human(&file, &current, &[diagnostic]));
                return EXIT_INVALID;
            }
            Err(diagnostic) => {
                eprintln!("error[{}]: {}", diagnostic.code, diagnostic.message);
                return EXIT_INVALID;
            }
        }
    }
    if args.in_place {
        if let Err(error) = crate::input::write_document(&args.file, &current, tail.as_ref()) {
            eprintln!("error: cannot write {}: {error}", args.file.display());
            return EXIT_USAGE;
        }
    } else if let Some(tail) = &tail {
        // A body past the bound is copied on as it is read, after the edited frontmatter.
        print!("{current}");
        let mut out = std::io::stdout().lock();
        if let Err(error) = crate::input::copy_tail(&args.file, tail, &mut out) {
            eprintln!("error: cannot copy the rest of {file}: {error}");
            return EXIT_USAGE;
        }
    } else {
        output::print(current.strip_suffix('\n').unwrap_or(&current));
    }
    EXIT_OK
}

fn edits(args: &Args) -> Result<Vec<Edit>, String> {
    args.flags
        .iter()
        .map(|flag| {
            Ok(match flag {
                Flag::Set(assignment) => {
                    let (path, yaml) = assignment
                        .split_once('=')
                        .ok_or_else(|| format!("`--set {assignment}`: expected PATH=VALUE"))?;
                    Edit::Set {
                        path: path.trim().to_owned(),
                        value: parse_value(yaml)?,
                    }
                }
                Flag::Remove(path) => Edit::Remove { path: path.clone() },
                Flag::RenameStep(from, to) => Edit::RenameStep {
                    from: from.clone(),
                    to: to.clone(),
                },
                Flag::Connect(from, to) => Edit::Connect {
                    from: from.clone(),
                    to: to.clone(),
                    from_port: None,
                    to_port: None,
                },
                Flag::Disconnect(from, to) => Edit::Disconnect {
                    from: from.clone(),
                    to: to.clone(),
                },
            })
        })
        .collect()
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
