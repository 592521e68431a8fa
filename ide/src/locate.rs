//! What is at an offset of a parsed file: the path of keys and indices down to the innermost
//! key or value there.

use logicmd::yaml::{Entry, Node};

use crate::schema_docs::Seg;
use crate::symbols::contains;

/// The innermost place holding an offset.
#[derive(Debug, Clone)]
pub(crate) struct Place<'a> {
    /// The path from the root to the value (for a key: to its entry's value).
    pub path: Vec<Seg>,
    /// The entry whose key the offset is on.
    pub key: Option<&'a Entry>,
    /// The innermost value holding the offset (for a key: its entry's value).
    pub node: &'a Node,
}

/// The place at `offset` in the tree `root`; `None` when the offset is outside every value.
pub(crate) fn place(root: &Node, offset: usize) -> Option<Place<'_>> {
    if !contains(root.span(), offset) {
        return None;
    }
    let mut path = Vec::new();
    let mut node = root;
    loop {
        if let Some(entries) = node.as_map() {
            if let Some(entry) = entries.iter().find(|e| contains(e.key_span(), offset)) {
                path.push(Seg::Key(entry.key.to_string()));
                return Some(Place {
                    path,
                    key: Some(entry),
                    node: &entry.value,
                });
            }
            match entries.iter().find(|e| contains(e.value.span(), offset)) {
                Some(entry) => {
                    path.push(Seg::Key(entry.key.to_string()));
                    node = &entry.value;
                }
                None => break,
            }
        } else if let Some(items) = node.as_seq() {
            match items.iter().position(|item| contains(item.span(), offset)) {
                Some(index) => {
                    path.push(Seg::Index(index));
                    node = &items[index];
                }
                None => break,
            }
        } else {
            break;
        }
    }
    Some(Place {
        path,
        key: None,
        node,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_values_are_told_apart() {
        let text = "---\nspec_version: \"1.0\"\nname: x\nsteps:\n  a:\n    needs: [b]\n---\n";
        let document = logicmd::Document::parse(text).document.unwrap();
        let on_key = place(document.root(), text.find("needs").unwrap() + 1).unwrap();
        assert_eq!(
            on_key.key.map(|e| e.key.to_string()).as_deref(),
            Some("needs")
        );
        let on_value = place(document.root(), text.find("[b]").unwrap() + 1).unwrap();
        assert!(on_value.key.is_none());
        assert_eq!(
            on_value.path,
            vec![
                Seg::Key("steps".into()),
                Seg::Key("a".into()),
                Seg::Key("needs".into()),
                Seg::Index(0)
            ]
        );
        assert_eq!(on_value.node.as_str(), Some("b"));
    }
}
