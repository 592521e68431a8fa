//! `logicmd graph FILE [--format json|dot|mermaid|svg]`: the graph model, laid out, of a LOGIC.md
//! file or a DRTL topology.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use logicmd::graph::{
    from_document, from_topology, from_workflow, layout, to_dot, to_mermaid, Graph, LayoutOptions,
};
use logicmd::Limits;

use super::load_document;
use crate::fs_loader::FsLoader;
use crate::input::read_bounded;
use crate::output;
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
    /// Directory workflow nodes' `logic_ref`s may read from (default: as for `lint`), so that
    /// an edge is drawn incompatible exactly where `lint` reports a contract mismatch.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

enum Loaded {
    Logic(Box<logicmd::Document>),
    Drtl(Box<logicmd::drtl::Topology>),
}

fn load(path: &Path) -> Result<Loaded, u8> {
    let bytes = read_bounded(path, Limits::DEFAULT.max_bytes).map_err(|error| {
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
        Ok(Loaded::Logic(document)) => logic_graph(&document, &args.file, args.root.as_deref()),
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

/// The graph of a LOGIC.md file, its workflow nodes loaded from the project as `lint` loads them
/// (standard input, or a file outside any root, loads nothing).
fn logic_graph(document: &logicmd::Document, path: &Path, root: Option<&Path>) -> Graph {
    if path.as_os_str() == "-" {
        return from_document(document);
    }
    let loaded = FsLoader::for_file(path, root)
        .ok()
        .and_then(|loader| Some((loader.id_of(path).ok()?, loader)));
    match loaded {
        Some((id, loader)) => from_workflow(document, &id, &loader),
        None => from_document(document),
    }
}
