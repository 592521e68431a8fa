//! What lint rules read: a value of the frontmatter, either a node of the document's spanned
//! tree itself or a value of a JSON view, with the JSON view's meaning in both cases (a
//! non-finite float is `null`, an integer is a number). *Why:* making the JSON view of a
//! large document for each check, and dropping it after, was half of the diagnostics after a
//! keystroke in the language server (docs/perf.md, "Language server round two"); a document
//! that imports nothing and parsed clean (so no key is repeated: the view would keep the first)
//! is read from its tree. Merged imports stay a JSON value.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::yaml::{Entry, Node, NodeValue};

/// A value of the frontmatter (see the module's documentation).
#[derive(Clone, Copy)]
pub enum V<'a> {
    /// A node of the document's tree.
    Node(&'a Node),
    /// A value of a JSON view (imports merged, or a document that did not parse clean).
    Json(&'a Value),
}

impl<'a> V<'a> {
    /// The member `key` of an object.
    pub fn get(self, key: &str) -> Option<V<'a>> {
        self.as_object()?.get(key)
    }

    /// The value a JSON Pointer names from here.
    pub fn pointer(self, pointer: &str) -> Option<V<'a>> {
        match self {
            V::Json(value) => value.pointer(pointer).map(V::Json),
            V::Node(node) => crate::json::node_at(node, pointer).map(V::Node),
        }
    }

    pub fn as_str(self) -> Option<&'a str> {
        match self {
            V::Json(value) => value.as_str(),
            V::Node(node) => node.as_str(),
        }
    }

    /// A number's value (as `serde_json::Value::as_f64` gives it).
    pub fn as_f64(self) -> Option<f64> {
        match self {
            V::Json(value) => value.as_f64(),
            V::Node(node) => match node.value {
                NodeValue::Int(i) => Some(i as f64),
                NodeValue::Float(f) if f.is_finite() => Some(f),
                _ => None,
            },
        }
    }

    pub fn as_bool(self) -> Option<bool> {
        match self {
            V::Json(value) => value.as_bool(),
            V::Node(node) => node.as_bool(),
        }
    }

    pub fn as_array(self) -> Option<Items<'a>> {
        match self {
            V::Json(value) => value.as_array().map(|items| Items::Json(items)),
            V::Node(node) => node.as_seq().map(Items::Node),
        }
    }

    pub fn as_object(self) -> Option<Obj<'a>> {
        match self {
            V::Json(value) => value.as_object().map(Obj::Json),
            V::Node(node) => node.as_map().map(Obj::Node),
        }
    }

    pub fn is_string(self) -> bool {
        self.as_str().is_some()
    }

    pub fn is_boolean(self) -> bool {
        self.as_bool().is_some()
    }

    pub fn is_object(self) -> bool {
        self.as_object().is_some()
    }

    /// The value as JSON: borrowed from a JSON view, made from a node (only where a rule
    /// reports or compares whole values, never for every step).
    pub fn json(self) -> Cow<'a, Value> {
        match self {
            V::Json(value) => Cow::Borrowed(value),
            V::Node(node) => Cow::Owned(crate::json::to_json(node)),
        }
    }
}

/// The items of an array.
#[derive(Clone, Copy)]
pub enum Items<'a> {
    Node(&'a [Node]),
    Json(&'a [Value]),
}

impl<'a> Items<'a> {
    pub fn len(self) -> usize {
        match self {
            Items::Node(items) => items.len(),
            Items::Json(items) => items.len(),
        }
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    pub fn iter(self) -> ItemsIter<'a> {
        match self {
            Items::Node(items) => ItemsIter::Node(items.iter()),
            Items::Json(items) => ItemsIter::Json(items.iter()),
        }
    }
}

/// The items of an [`Items`].
#[derive(Clone)]
pub enum ItemsIter<'a> {
    Node(std::slice::Iter<'a, Node>),
    Json(std::slice::Iter<'a, Value>),
}

impl<'a> Iterator for ItemsIter<'a> {
    type Item = V<'a>;

    fn next(&mut self) -> Option<V<'a>> {
        match self {
            ItemsIter::Node(items) => items.next().map(V::Node),
            ItemsIter::Json(items) => items.next().map(V::Json),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            ItemsIter::Node(items) => items.size_hint(),
            ItemsIter::Json(items) => items.size_hint(),
        }
    }
}

impl ExactSizeIterator for ItemsIter<'_> {}

impl<'a> IntoIterator for Items<'a> {
    type Item = V<'a>;
    type IntoIter = ItemsIter<'a>;

    fn into_iter(self) -> ItemsIter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for Obj<'a> {
    type Item = (&'a str, V<'a>);
    type IntoIter = ObjIter<'a>;

    fn into_iter(self) -> ObjIter<'a> {
        self.iter()
    }
}

/// The members of an object, in document order.
#[derive(Clone, Copy)]
pub enum Obj<'a> {
    Node(&'a [Entry]),
    Json(&'a Map<String, Value>),
}

impl<'a> Obj<'a> {
    pub fn get(self, key: &str) -> Option<V<'a>> {
        match self {
            Obj::Node(entries) => entries
                .iter()
                .find(|e| e.key == key)
                .map(|e| V::Node(&e.value)),
            Obj::Json(map) => map.get(key).map(V::Json),
        }
    }

    /// The member `key` with the key as the object holds it.
    pub fn get_key_value(self, key: &str) -> Option<(&'a str, V<'a>)> {
        match self {
            Obj::Node(entries) => entries
                .iter()
                .find(|e| e.key == key)
                .map(|e| (e.key.as_str(), V::Node(&e.value))),
            Obj::Json(map) => crate::json::member(map, key).map(|(k, v)| (k.as_str(), V::Json(v))),
        }
    }

    pub fn contains_key(self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn len(self) -> usize {
        match self {
            Obj::Node(entries) => entries.len(),
            Obj::Json(map) => map.len(),
        }
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Keys and values in document order.
    pub fn iter(self) -> ObjIter<'a> {
        match self {
            Obj::Node(entries) => ObjIter::Node(entries.iter()),
            Obj::Json(map) => ObjIter::Json(map.iter()),
        }
    }

    pub fn keys(self) -> impl Iterator<Item = &'a str> + Clone {
        self.iter().map(|(key, _)| key)
    }
}

/// The members of an [`Obj`].
#[derive(Clone)]
pub enum ObjIter<'a> {
    Node(std::slice::Iter<'a, Entry>),
    Json(serde_json::map::Iter<'a>),
}

impl<'a> Iterator for ObjIter<'a> {
    type Item = (&'a str, V<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            ObjIter::Node(entries) => entries.next().map(|e| (e.key.as_str(), V::Node(&e.value))),
            ObjIter::Json(members) => members.next().map(|(k, v)| (k.as_str(), V::Json(v))),
        }
    }
}
