//! `logicmd validate PATH...`: parse and check against the LOGIC.md v1.0 schema.

use logicmd::analysis::Depth;

use super::each_file::{self, Outcome};
use super::front;
use crate::output::Format;

#[derive(clap::Args)]
pub struct Args {
    /// Files, directories (searched for LOGIC.md, *.logic.md, .logic/index.md) or glob patterns;
    /// `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

pub fn run(args: &Args) -> u8 {
    each_file::run(&args.paths, args.format, |path, bytes| {
        let analysis = front::analyze_file(path, bytes, Depth::Validate, None);
        Outcome {
            text: front::text_of(&analysis, bytes),
            valid: analysis.valid,
            diagnostics: analysis.diagnostics,
        }
    })
}
/// A DRTL topology's diagnostics, when `path` names one (by extension, or a YAML file whose
/// content is a topology). `lint` adds the semantic checks (validation stops at the schema).
pub fn drtl_report(
    path: &std::path::Path,
    bytes: &[u8],
    lint: bool,
) -> Option<(String, Vec<logicmd::Diagnostic>)> {
    let name = path.to_string_lossy();
    let yaml = name.ends_with(".yaml") || name.ends_with(".yml");
    let text = String::from_utf8_lossy(bytes).into_owned();
    let is_drtl = logicmd::drtl::is_drtl_path(&name)
        || (yaml
            && logicmd::drtl::parse(&text)
                .0
                .is_some_and(|t| logicmd::drtl::looks_like_drtl(t.json())));
    if !is_drtl {
        return None;
    }
    let report = logicmd::drtl::validate(&text);
    let diagnostics = if lint {
        report.diagnostics
    } else {
        report
            .diagnostics
            .into_iter()
            .filter(|d| {
                d.code.starts_with("schema")
                    || d.code.starts_with("yaml")
                    || d.code.starts_with("input")
                    || d.code.starts_with("drtl-empty")
                    || d.code.starts_with("drtl-not")
            })
            .collect()
    };
    Some((text, diagnostics))
}

/// The text diagnostics point into: the document's, or the raw bytes when it did not parse.
pub fn text_of(document: Option<&logicmd::Document>, bytes: &[u8]) -> String {
    document
        .map(|d| d.text().to_owned())
        .unwrap_or_else(|| String::from_utf8_lossy(bytes).into_owned())
}
