//! `logicmd graph FILE [--format json|dot|mermaid|svg]`: the graph model, laid out, of a LOGIC.md
//! file or a DRTL topology.

use std::path::PathBuf;

use clap::ValueEnum;
use logicmd::graph::{to_dot, to_mermaid, LayoutOptions};
use logicmd::Limits;

use super::front;
use crate::input::{read_document, tell_true_size};
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
    #[arg(long, value_name = "DIR", value_parser = super::existing_dir)]
    root: Option<PathBuf>,
}

pub fn graph(args: &GraphArgs) -> u8 {
    let file = super::each_file::display_name(&args.file);
    let bytes = match read_document(&args.file, Limits::DEFAULT.max_bytes).map(|read| read.bytes) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("error: cannot read {file}: {error}");
            return EXIT_USAGE;
        }
    };
    let mut graphed = front::graph_file(&args.file, &bytes, args.root.as_deref());
    let analysis = &mut graphed.analysis;
    tell_true_size(
        &args.file,
        Limits::DEFAULT.max_bytes,
        &mut analysis.diagnostics,
    );
    let (true, Some(graph)) = (analysis.valid, graphed.graph) else {
        let text = front::text_of(analysis, &bytes);
        eprintln!("{}", output::human(&file, &text, &analysis.diagnostics));
        return EXIT_INVALID;
    };
    let text = match args.format {
        GraphFormat::Json => serde_json::to_string_pretty(&graph).unwrap_or_default(),
        GraphFormat::Dot => to_dot(&graph),
        GraphFormat::Mermaid => to_mermaid(&graph),
        GraphFormat::Svg => logicmd::graph::to_svg(&graph, LayoutOptions::default()),
    };
    output::print(text.trim_end());
    EXIT_OK
}
