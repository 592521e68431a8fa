//! What is selected on the canvas: nodes (one, or a group) or one wire — one value, so the
//! inspector, the keys, the renamer and the canvas never disagree about it.

/// The selection. Nodes are kept in the order they were chosen; the last one is the *primary*
/// node (the one the inspector shows, F2 renames and the arrows move from). A wire is selected
/// alone.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Selection {
    nodes: Vec<String>,
    wire: Option<(String, String)>,
}

impl Selection {
    pub fn none() -> Selection {
        Selection::default()
    }

    /// One node.
    pub fn node(id: impl Into<String>) -> Selection {
        Selection {
            nodes: vec![id.into()],
            wire: None,
        }
    }

    /// Several nodes, the last one primary (duplicates kept once, at their last place).
    pub fn nodes(ids: Vec<String>) -> Selection {
        let mut nodes: Vec<String> = Vec::with_capacity(ids.len());
        for id in ids {
            nodes.retain(|n| *n != id);
            nodes.push(id);
        }
        Selection { nodes, wire: None }
    }

    /// One wire: (source node id, target node id).
    pub fn wire(ends: (String, String)) -> Selection {
        Selection {
            nodes: Vec::new(),
            wire: Some(ends),
        }
    }

    /// The node the inspector follows.
    pub fn primary(&self) -> Option<&str> {
        self.nodes.last().map(String::as_str)
    }

    /// Every selected node id, the primary last.
    pub fn ids(&self) -> &[String] {
        &self.nodes
    }

    pub fn contains(&self, id: &str) -> bool {
        self.nodes.iter().any(|n| n == id)
    }

    /// The selected wire, if a wire is selected.
    pub fn selected_wire(&self) -> Option<&(String, String)> {
        self.wire.as_ref()
    }

    /// Shift/ctrl-click: `id` added (as the primary) or taken out.
    pub fn toggled(&self, id: &str) -> Selection {
        let mut nodes = self.nodes.clone();
        if self.contains(id) {
            nodes.retain(|n| n != id);
        } else {
            nodes.push(id.to_owned());
        }
        Selection { nodes, wire: None }
    }

    /// A press on node `id`: inside the group, the group stays with `id` primary (it is about
    /// to be dragged with the others); elsewhere, `id` alone.
    pub fn pressed(&self, id: &str) -> Selection {
        if self.contains(id) {
            let mut nodes = self.nodes.clone();
            nodes.retain(|n| n != id);
            nodes.push(id.to_owned());
            Selection { nodes, wire: None }
        } else {
            Selection::node(id)
        }
    }

    /// After a rename: the node's new id in its place.
    pub fn renamed(&self, from: &str, to: &str) -> Selection {
        let nodes = self
            .nodes
            .iter()
            .map(|n| if n == from { to.to_owned() } else { n.clone() })
            .collect();
        Selection {
            nodes,
            wire: self.wire.clone(),
        }
    }

    /// The selection without the nodes (and a wire touching them) that `exists` denies.
    pub fn kept(&self, exists: impl Fn(&str) -> bool) -> Selection {
        Selection {
            nodes: self.nodes.iter().filter(|n| exists(n)).cloned().collect(),
            wire: self
                .wire
                .clone()
                .filter(|(from, to)| exists(from) && exists(to)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_last_node_chosen_is_primary_and_a_wire_is_alone() {
        let group = Selection::nodes(ids(&["a", "b", "a"]));
        assert_eq!(group.ids(), ids(&["b", "a"]));
        assert_eq!(group.primary(), Some("a"));
        assert_eq!(group.ids().len(), 2);
        let wire = Selection::wire(("a".into(), "b".into()));
        assert_eq!(wire.primary(), None);
        assert_ne!(wire, Selection::none());
        assert_eq!(wire.selected_wire(), Some(&("a".into(), "b".into())));
        assert_eq!(Selection::none().ids().len(), 0);
    }

    #[test]
    fn toggling_and_pressing() {
        let one = Selection::node("a");
        assert_eq!(one.toggled("b").ids(), ids(&["a", "b"]));
        assert_eq!(one.toggled("a"), Selection::none());
        let group = Selection::nodes(ids(&["a", "b", "c"]));
        assert_eq!(group.pressed("a").ids(), ids(&["b", "c", "a"]));
        assert_eq!(group.pressed("z"), Selection::node("z"));
        assert_eq!(
            Selection::wire(("a".into(), "b".into())).toggled("c"),
            Selection::node("c")
        );
    }

    #[test]
    fn a_rename_keeps_the_place_and_removed_nodes_drop_out() {
        let group = Selection::nodes(ids(&["step:a", "step:b"]));
        assert_eq!(
            group.renamed("step:a", "step:x").ids(),
            ids(&["step:x", "step:b"])
        );
        assert_eq!(group.kept(|id| id != "step:b").ids(), ids(&["step:a"]));
        let wire = Selection::wire(("a".into(), "b".into()));
        assert_eq!(wire.kept(|id| id != "a"), Selection::none());
    }
}
