//! Probe: the studio's keystroke at N steps natively — the reparse shortcut (`reparse_edit`) and
//! the graph patch (`graph::update`) of one character typed into step 1's description. Count it
//! with callgrind: `valgrind --tool=callgrind --toggle-collect='*keystrokes*' target/release/
//! examples/keystroke_probe 5000 [owned]` (`owned`: the previous document handed over by value,
//! as the studio does when it holds the only reference; default: borrowed, as a copy).
#![allow(clippy::disallowed_methods, clippy::print_stdout)]
#[path = "../benches/support/generate.rs"]
mod generate;
use logicmd::document::Document;
use logicmd::graph::{from_document, layout, update, Graph, LayoutOptions};

/// What the studio frees in a later task (`Retired`), kept out of the count.
#[derive(Default)]
struct Retired(Vec<Document>, Vec<Graph>);

/// Ten keystrokes, each from the document and graph the previous one left.
#[inline(never)]
fn keystrokes(
    mut document: Document,
    mut graph: Graph,
    texts: &[String],
    owned: bool,
    retired: &mut Retired,
) -> usize {
    let mut nodes = 0;
    for text in texts {
        let (next, edit) = if owned {
            document.reparse_edit_owned(text).expect("reparses")
        } else {
            let next = document.reparse_edit(text).expect("reparses");
            retired.0.push(document);
            next
        };
        let patched = update(&graph, &next, &edit).expect("patches");
        retired.1.push(std::mem::replace(&mut graph, patched));
        nodes += graph.nodes.len();
        document = next;
    }
    retired.0.push(document);
    retired.1.push(graph);
    nodes
}

fn main() {
    let mut args = std::env::args().skip(1);
    let steps: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5000);
    let owned = args.next().as_deref() == Some("owned");
    let text = generate::generated(steps);
    let document = Document::parse(&text).document.expect("parses");
    let _ = document.json();
    let mut graph = from_document(&document);
    layout(&mut graph, LayoutOptions::default());
    let at = text.find("Step 1 combines").expect("step 1") + "Step 1".len();
    let texts: Vec<String> = (1..=10)
        .map(|n| [&text[..at], &"x".repeat(n), &text[at..]].concat())
        .collect();
    let mut retired = Retired::default();
    let nodes = keystrokes(document, graph, &texts, owned, &mut retired);
    println!("{nodes} ({} retired)", retired.0.len() + retired.1.len());
}
