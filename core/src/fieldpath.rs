//! Dotted field paths as LOGIC.md writes them in `nodes.*.overrides` and `visual.inspector[].key`:
//! `reasoning.max_iterations`, `quality_gates.pre_output[0].severity`.

use serde_json::{Map, Value};

use crate::json::pointer_push;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    Key(String),
    Index(usize),
}

/// A parsed dotted path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldPath(pub(crate) Vec<Segment>);

impl FieldPath {
    /// Parses `a.b[0].c`. Keys are non-empty and may not contain `.`, `[` or `]`.
    pub(crate) fn parse(text: &str) -> Result<FieldPath, String> {
        let mut segments = Vec::new();
        if text.is_empty() {
            return Err("empty field path".to_owned());
        }
        for (part_index, part) in text.split('.').enumerate() {
            let (key, mut rest) = match part.find('[') {
                Some(open) => part.split_at(open),
                None => (part, ""),
            };
            if key.is_empty() && (part_index == 0 || rest.is_empty()) || key.contains(']') {
                return Err(format!(
                    "`{text}`: expected a field name in part {}",
                    part_index + 1
                ));
            }
            if !key.is_empty() {
                segments.push(Segment::Key(key.to_owned()));
            }
            while let Some(inner) = rest.strip_prefix('[') {
                let close = inner
                    .find(']')
                    .ok_or_else(|| format!("`{text}`: `[` without a closing `]`"))?;
                let index = inner[..close].parse::<usize>().map_err(|_| {
                    format!("`{text}`: `[{}]` is not an array index", &inner[..close])
                })?;
                segments.push(Segment::Index(index));
                rest = &inner[close + 1..];
            }
            if !rest.is_empty() {
                return Err(format!("`{text}`: unexpected `{rest}` after an index"));
            }
        }
        Ok(FieldPath(segments))
    }

    /// The JSON Pointer of this path.
    pub(crate) fn to_pointer(&self) -> String {
        self.0
            .iter()
            .fold(String::new(), |pointer, segment| match segment {
                Segment::Key(key) => pointer_push(&pointer, key),
                Segment::Index(i) => format!("{pointer}/{i}"),
            })
    }

    /// Sets the value at this path in `target`, creating missing objects along the way. An index
    /// must address an existing item (or the next one, to append).
    pub(crate) fn set(&self, target: &mut Value, value: Value) -> Result<(), String> {
        let mut current = target;
        for (position, segment) in self.0.iter().enumerate() {
            let last = position + 1 == self.0.len();
            current = match segment {
                Segment::Key(key) => {
                    if current.is_null() {
                        *current = Value::Object(Map::new());
                    }
                    let Value::Object(map) = current else {
                        return Err(format!(
                            "cannot set `{key}`: `{}` is not an object",
                            self.prefix(position)
                        ));
                    };
                    let slot = map.entry(key.clone()).or_insert(Value::Null);
                    if last {
                        *slot = value;
                        return Ok(());
                    }
                    slot
                }
                Segment::Index(index) => {
                    let Value::Array(items) = current else {
                        return Err(format!(
                            "cannot index `{}`: it is not a list",
                            self.prefix(position)
                        ));
                    };
                    if *index == items.len() {
                        items.push(Value::Null);
                    }
                    let len = items.len();
                    let Some(slot) = items.get_mut(*index) else {
                        return Err(format!(
                            "`{}` has {len} item(s); index {index} is out of range",
                            self.prefix(position)
                        ));
                    };
                    if last {
                        *slot = value;
                        return Ok(());
                    }
                    slot
                }
            };
        }
        Ok(())
    }

    fn prefix(&self, end: usize) -> String {
        let mut text = String::new();
        for segment in &self.0[..end] {
            match segment {
                Segment::Key(key) if text.is_empty() => text.push_str(key),
                Segment::Key(key) => {
                    text.push('.');
                    text.push_str(key);
                }
                Segment::Index(i) => text.push_str(&format!("[{i}]")),
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_keys_and_indices() {
        let path = FieldPath::parse("quality_gates.pre_output[0].severity").unwrap();
        assert_eq!(
            path.0,
            vec![
                Segment::Key("quality_gates".into()),
                Segment::Key("pre_output".into()),
                Segment::Index(0),
                Segment::Key("severity".into())
            ]
        );
        assert_eq!(path.to_pointer(), "/quality_gates/pre_output/0/severity");
    }

    #[test]
    fn rejects_malformed_paths() {
        for bad in ["", ".a", "a..b", "a[", "a[x]", "a[0]b", "[0]"] {
            assert!(FieldPath::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sets_values_creating_objects() {
        let mut doc = json!({"quality_gates": {"pre_output": [{"severity": "error"}]}});
        FieldPath::parse("quality_gates.pre_output[0].severity")
            .unwrap()
            .set(&mut doc, json!("warning"))
            .unwrap();
        FieldPath::parse("reasoning.max_iterations")
            .unwrap()
            .set(&mut doc, json!(5))
            .unwrap();
        assert_eq!(doc["quality_gates"]["pre_output"][0]["severity"], "warning");
        assert_eq!(doc["reasoning"]["max_iterations"], 5);
        let err = FieldPath::parse("quality_gates.pre_output[3].x")
            .unwrap()
            .set(&mut doc, json!(1))
            .unwrap_err();
        assert!(err.contains("out of range"), "{err}");
    }
}
