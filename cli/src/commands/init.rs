//! `logicmd init`: a new document from one of core's templates (`logicmd::templates`), or the
//! list of them. Writes a new file and never overwrites one unless told to (`--force`).

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use logicmd::analysis::{detect, Kind};
use logicmd::templates::{self, Template, DEFAULT_TEMPLATE, TEMPLATES};

use crate::output::{self, Format};
use crate::{EXIT_OK, EXIT_USAGE};

const AFTER_HELP: &str = "Examples:
  logicmd init                                  # minimal.logic.md, the minimal template
  logicmd init --template react --name researcher
  logicmd init --template fact-check --output checks/news.drtl.yaml
  logicmd init --template debate --output -     # print it instead
  logicmd init --list --format json";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The template to start from (`--list` shows them all).
    #[arg(short, long, value_name = "NAME", default_value = DEFAULT_TEMPLATE)]
    template: String,
    /// List the templates and exit.
    #[arg(long, conflicts_with_all = ["name", "output", "force"])]
    list: bool,
    /// Output format of --list.
    #[arg(long, value_enum, default_value_t = Format::Human, requires = "list")]
    format: Format,
    /// The document's `name` (default: the output file's name without `.logic.md` or
    /// `.drtl.yaml`, else the template's name).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Where to write it; `-` prints it (default: NAME.logic.md, or NAME.drtl.yaml for a
    /// topology, in the working directory). Missing parent directories are created.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> u8 {
    if args.list {
        list(args.format);
        return EXIT_OK;
    }
    match create(args) {
        Ok(()) => EXIT_OK,
        Err(message) => {
            eprintln!("error: {message}");
            EXIT_USAGE
        }
    }
}

fn create(args: &Args) -> Result<(), String> {
    let template = templates::find(&args.template).map_err(|problem| {
        let help = problem
            .help
            .map(|help| format!("\n  help: {help}"))
            .unwrap_or_default();
        format!(
            "{}{help}\n  help: `logicmd init --list` shows every template",
            problem.message
        )
    })?;
    let name = args
        .name
        .clone()
        .or_else(|| args.output.as_deref().and_then(name_from_file))
        .unwrap_or_else(|| template.name.to_owned());
    let text = templates::render(template, Some(&name)).map_err(|problem| problem.message)?;
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(template.file_name(&file_stem(&name))));
    if output == Path::new("-") {
        print!("{text}");
        return Ok(());
    }
    let shown = output.display().to_string();
    let kind_there = detect(&text, Some(&shown));
    if kind_there != template.kind {
        return Err(format!(
            "{shown} would be read as {}, but `{}` is {}: name the file `*{}`",
            kind_name(kind_there),
            template.name,
            kind_name(template.kind),
            suffix(template.kind)
        ));
    }
    write_new(&output, &text, args.force).map_err(|error| match error.kind() {
        io::ErrorKind::AlreadyExists => {
            format!("{shown} exists; choose another --output, or --force to overwrite it")
        }
        _ => format!("cannot write {shown}: {error}"),
    })?;
    eprintln!(
        "created {shown} from the `{}` template ({})\nnext: logicmd lint {shown} && logicmd run {shown} --dry-run",
        template.name, template.follows
    );
    Ok(())
}

/// Writes `text` to a new file at `path` (its parents created); an existing file is an error
/// unless `force`, checked by the creation itself, so nothing is overwritten in a race.
fn write_new(path: &Path, text: &str, force: bool) -> io::Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent)?;
    }
    let mut options = OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    options.open(path)?.write_all(text.as_bytes())
}

/// `researcher` for `nodes/researcher.logic.md` or `researcher.drtl.yaml`; nothing for names
/// that say nothing of the document (`LOGIC.md`, `index.md`, other suffixes).
fn name_from_file(path: &Path) -> Option<String> {
    let file = path.file_name()?.to_str()?;
    [".logic.md", ".drtl.yaml", ".drtl.yml"]
        .iter()
        .find_map(|suffix| file.strip_suffix(suffix))
        .filter(|stem| !stem.is_empty())
        .map(str::to_owned)
}

/// A file name for a document called `name`: each run of what is not a letter, a digit or `_`
/// becomes one `-`, so a name never reaches into another directory.
fn file_stem(name: &str) -> String {
    let mut stem = String::with_capacity(name.len());
    for c in name.chars() {
        let c = if c.is_alphanumeric() || c == '_' {
            c
        } else {
            '-'
        };
        if !(c == '-' && stem.ends_with('-')) {
            stem.push(c);
        }
    }
    let stem = stem.trim_matches('-');
    if stem.is_empty() {
        "document".to_owned()
    } else {
        stem.to_owned()
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Logic => "a LOGIC.md document",
        Kind::Drtl => "a DRTL topology",
    }
}

fn suffix(kind: Kind) -> &'static str {
    match kind {
        Kind::Logic => ".logic.md",
        Kind::Drtl => ".drtl.yaml",
    }
}

/// `init --list`: the templates by kind, or their JSON.
fn list(format: Format) {
    if format == Format::Json {
        output::print(&serde_json::to_string_pretty(TEMPLATES).unwrap_or_default());
        return;
    }
    let width = TEMPLATES.iter().map(|t| t.name.len()).max().unwrap_or(0);
    for (index, kind) in [Kind::Logic, Kind::Drtl].into_iter().enumerate() {
        if index > 0 {
            output::print("");
        }
        output::print(match kind {
            Kind::Logic => "LOGIC.md documents:",
            Kind::Drtl => "DRTL topologies:",
        });
        for template in TEMPLATES.iter().filter(|t| t.kind == kind) {
            output::print(&line(template, width));
        }
    }
}

fn line(template: &Template, width: usize) -> String {
    format!(
        "  {:<width$}  {} [{}]",
        template.name, template.summary, template.follows
    )
}
