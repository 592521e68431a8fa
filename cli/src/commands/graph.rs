//! `logicmd graph FILE [--format json|dot|mermaid]` and `logicmd check FILE [--format json]`:
//! the graph model (laid out), and the obligation analysis, for LOGIC.md and DRTL files.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use logicmd::check::{check_document, check_topology, has_errors, Finding};
use logicmd::graph::{
    from_document, from_topology, layout, to_dot, to_mermaid, Graph, LayoutOptions,
};
use logicmd::imports::resolve;

use super::load_document;
use crate::fs_loader::FsLoader;
use crate::output::{self, Format};
use crate::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GraphFormat {
    Json,
    Dot,
    Mermaid,
    Svg,
}

#[derive(clap::Args)]
pub struct GraphArgs {
    /// A LOGIC.md file or a DRTL topology (`*.drtl.yaml`).
    file: PathBuf,
    #[arg(long, value_enum, default_value_t = GraphFormat::Json)]
    format: GraphFormat,
}

#[derive(clap::Args)]
pub struct CheckArgs {
    /// A LOGIC.md file or a DRTL topology (`*.drtl.yaml`).
    file: PathBuf,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Directory imports may read from (default: as for `lint`).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

enum Loaded {
    Logic(Box<logicmd::Document>),
    Drtl(Box<logicmd::drtl::Topology>),
}

fn load(path: &Path) -> Result<Loaded, u8> {
    let bytes = std::fs::read(path).map_err(|error| {
        eprintln!("error: cannot read {}: {error}", path.display());
        EXIT_USAGE
    })?;
    if let Some((text, diagnostics)) = super::validate::drtl_report(path, &bytes, false) {
        if diagnostics.iter().any(|d| d.is_error()) {
            eprintln!(
                "{}",
                output::human(&path.display().to_string(), &text, &diagnostics)
            );
            return Err(EXIT_INVALID);
        }
        return logicmd::drtl::parse(&text)
            .0
            .map(|t| Loaded::Drtl(Box::new(t)))
            .ok_or(EXIT_INVALID);
    }
    load_document(path).map(|d| Loaded::Logic(Box::new(d)))
}

pub fn graph(args: &GraphArgs) -> u8 {
    let mut graph: Graph = match load(&args.file) {
        Ok(Loaded::Logic(document)) => from_document(&document),
        Ok(Loaded::Drtl(topology)) => from_topology(&topology),
        Err(status) => return status,
    };
    layout(&mut graph, LayoutOptions::default());
    let text = match args.format {
        GraphFormat::Json => serde_json::to_string_pretty(&graph).unwrap_or_default(),
        GraphFormat::Dot => to_dot(&graph),
        GraphFormat::Mermaid => to_mermaid(&graph),
        GraphFormat::Svg => logicmd::graph::to_svg(&graph, LayoutOptions::default()),
    };
    output::print(text.trim_end());
    EXIT_OK
}

pub fn check(args: &CheckArgs) -> u8 {
    let findings: Vec<Finding> = match load(&args.file) {
        Ok(Loaded::Drtl(topology)) => check_topology(&topology),
        Ok(Loaded::Logic(document)) => {
            let resolved = FsLoader::for_file(&args.file, args.root.as_deref())
                .ok()
                .and_then(|loader| {
                    loader
                        .id_of(&args.file)
                        .ok()
                        .map(|id| resolve(&document, &id, &loader).value)
                })
                .unwrap_or_else(|| document.json().clone());
            check_document(&resolved)
        }
        Err(status) => return status,
    };
    match args.format {
        Format::Json => output::print(&serde_json::to_string_pretty(&findings).unwrap_or_default()),
        Format::Human => {
            for finding in &findings {
                output::print(&format!(
                    "{}[{}]: {}\n  path: {}",
                    finding.severity.as_str(),
                    finding.rule,
                    finding.message,
                    finding.path.join(" -> ")
                ));
            }
            output::print(&format!(
                "{} finding(s) in {}",
                findings.len(),
                args.file.display()
            ));
        }
    }
    if has_errors(&findings) {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}
