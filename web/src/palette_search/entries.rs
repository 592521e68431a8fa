//! What the command palette can find: the graph's nodes, the studio's commands and the
//! examples, matched by every word typed (case does not matter).

use logicmd::graph::Graph;

use crate::examples::EXAMPLES;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Command {
    New,
    Fit,
    AutoLayout,
    Format,
    Undo,
    Redo,
    Share,
    ToggleSource,
}

impl Command {
    const ALL: [Command; 8] = [
        Command::New,
        Command::Fit,
        Command::AutoLayout,
        Command::Format,
        Command::Undo,
        Command::Redo,
        Command::Share,
        Command::ToggleSource,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Command::New => "New document…",
            Command::Fit => "Fit the graph to the canvas",
            Command::AutoLayout => "Auto-layout",
            Command::Format => "Format the text",
            Command::Undo => "Undo",
            Command::Redo => "Redo",
            Command::Share => "Copy a share link",
            Command::ToggleSource => "Show or hide the source text",
        }
    }
}

/// One thing the palette offers.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Node {
        id: String,
        label: String,
    },
    Command(Command),
    Example {
        id: &'static str,
        title: &'static str,
    },
}

impl Entry {
    pub fn label(&self) -> String {
        match self {
            Entry::Node { label, .. } => label.clone(),
            Entry::Command(command) => command.title().to_owned(),
            Entry::Example { title, .. } => format!("Example: {title}"),
        }
    }

    /// The kind, shown beside the label and matched too ("example decision").
    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Node { .. } => "node",
            Entry::Command(_) => "command",
            Entry::Example { .. } => "example",
        }
    }
}

/// At most this many entries are listed.
const LIMIT: usize = 60;

/// The entries whose label (or kind) holds every word of `query`: nodes, then commands, then
/// examples, each in its own order.
pub fn search(graph: Option<&Graph>, query: &str) -> Vec<Entry> {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    let nodes = graph.into_iter().flat_map(|g| g.nodes.iter()).map(|n| {
        let description = n
            .label
            .split_once(": ")
            .map(|(_, d)| d)
            .filter(|d| !d.is_empty());
        let label = match description {
            Some(d) => format!("{} — {d}", n.name),
            None => n.name.clone(),
        };
        Entry::Node {
            id: n.id.clone(),
            label,
        }
    });
    let commands = Command::ALL.into_iter().map(Entry::Command);
    let examples = EXAMPLES.iter().map(|e| Entry::Example {
        id: e.id,
        title: e.title,
    });
    nodes
        .chain(commands)
        .chain(examples)
        .filter(|entry| {
            let haystack = format!("{} {}", entry.kind(), entry.label()).to_lowercase();
            words.iter().all(|w| haystack.contains(w.as_str()))
        })
        .take(LIMIT)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph() -> Graph {
        let doc = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  fetch:\n    description: Fetch pages\n  score: {}\n---\n";
        logicmd::graph::from_document(&logicmd::Document::parse(doc).document.unwrap())
    }

    #[test]
    fn every_word_must_match_nodes_first() {
        let g = graph();
        let found = search(Some(&g), "FETCH");
        assert_eq!(found[0].label(), "fetch — Fetch pages");
        assert_eq!(search(Some(&g), "score")[0].label(), "score");
        assert_eq!(
            search(Some(&g), "undo"),
            vec![Entry::Command(Command::Undo)]
        );
        let examples = search(Some(&g), "example decision");
        assert_eq!(examples.len(), 1);
        assert_eq!(examples[0].label(), "Example: Decision-tree router");
        assert!(search(Some(&g), "nothing like this").is_empty());
    }

    #[test]
    fn an_empty_query_lists_everything_bounded() {
        let all = search(Some(&graph()), "");
        assert_eq!(all.len(), 2 + Command::ALL.len() + EXAMPLES.len());
    }
}
