//! `logicmd diff OLD NEW`: the semantic diff of two documents of one kind (`logicmd::diff`):
//! nodes added, removed and renamed, fields changed, edges. Exit 0 (1 for differences with
//! `--exit-code`, as `git diff --exit-code`), 2 on trouble: git treats any other status of an
//! external diff as a crash. Also takes git's seven external-diff arguments (`path old-file
//! old-hex old-mode new-file new-hex new-mode`), so it can be git's diff driver.

use std::path::Path;

use logicmd::analysis::{parse, Kind, Options, Parsed};
use logicmd::diff::{diff, to_text, Change};

use crate::output::{self, Format};
use crate::report::{ColorChoice, Paint};
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

const AFTER_HELP: &str = "Use it with git:
  git difftool -y -x 'logicmd diff'                  # every changed document, one by one
  git config diff.logicmd.command 'logicmd diff'     # or as the diff driver of `git diff`,
  echo '*.logic.md diff=logicmd' >> .gitattributes   # for the files .gitattributes names";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// OLD and NEW (or git's seven external-diff arguments).
    #[arg(value_name = "FILE", num_args = 2..=7, required = true)]
    files: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Exit 1 when the documents differ (else 0 either way, which git's drivers need).
    #[arg(long)]
    exit_code: bool,
    /// Colour: `auto` on a terminal (NO_COLOR turns it off, CLICOLOR_FORCE on).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

/// Where git's external diff puts a file that does not exist on that side.
const NOTHING: &str = "/dev/null";

pub fn run(args: &Args) -> u8 {
    let (old, new, shown) = match args.files.as_slice() {
        [old, new] => (old.as_str(), new.as_str(), None),
        [path, old, _, _, new, _, _] => (old.as_str(), new.as_str(), Some(path.as_str())),
        _ => {
            eprintln!("error: give OLD and NEW (or git's seven external-diff arguments)");
            return EXIT_USAGE;
        }
    };
    let old_name = shown.map_or_else(|| old.to_owned(), |p| format!("a/{p}"));
    let new_name = shown.map_or_else(|| new.to_owned(), |p| format!("b/{p}"));
    if old == NOTHING || new == NOTHING {
        let (what, file) = if old == NOTHING {
            ("added", new)
        } else {
            ("removed", old)
        };
        output::print(&format!("{what} file {}", shown.unwrap_or(file)));
        return if args.exit_code {
            EXIT_INVALID
        } else {
            EXIT_OK
        };
    }
    // The kind comes from the real name when git hands over temporary files.
    let (Some(before), Some(after)) = (
        read(old, shown.unwrap_or(old)),
        read(new, shown.unwrap_or(new)),
    ) else {
        return EXIT_USAGE;
    };
    let Some(changes) = diff(&before, &after) else {
        eprintln!(
            "error: {old_name} is {} and {new_name} is {}: only documents of one kind compare",
            kind_name(before.kind()),
            kind_name(after.kind())
        );
        return EXIT_USAGE;
    };
    if args.format == Format::Json {
        let report = serde_json::json!({
            "old": old_name,
            "new": new_name,
            "kind": before.kind(),
            "changes": changes,
        });
        output::print(&serde_json::to_string_pretty(&report).unwrap_or_default());
    } else if !changes.is_empty() {
        let paint = args.color.for_stdout();
        output::print(&paint.bold(&format!("--- {old_name}\n+++ {new_name}")));
        print!("{}", painted(&changes, paint));
    }
    if args.exit_code && !changes.is_empty() {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}

fn read(path: &str, kind_path: &str) -> Option<Parsed> {
    let text = super::read_text(Path::new(path)).ok()?;
    let options = Options::validate().with_path(kind_path);
    let (_, parsed, diagnostics) = parse(&text, &options);
    if parsed.is_none() {
        eprintln!("{}", output::human(path, &text, &diagnostics));
    }
    parsed
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Logic => "a LOGIC.md document",
        Kind::Drtl => "a DRTL topology",
    }
}

/// Each change's line, coloured by what it is: added green, removed red, the rest yellow.
fn painted(changes: &[Change], paint: Paint) -> String {
    changes
        .iter()
        .map(|change| {
            let line = to_text(std::slice::from_ref(change));
            let line = line.trim_end();
            let painted = match change {
                Change::Added { .. } | Change::EdgeAdded { .. } => paint.ok(line),
                Change::Removed { .. } | Change::EdgeRemoved { .. } => paint.fail(line),
                Change::Changed { before: None, .. } => paint.ok(line),
                Change::Changed { after: None, .. } => paint.fail(line),
                _ => paint.severity(logicmd::Severity::Warning, line),
            };
            painted + "\n"
        })
        .collect()
}
