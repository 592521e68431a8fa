//! A JSON Schema compiled once into a program: one [`Rule`] per schema object, its keywords read
//! out of the JSON, property names sorted for lookup and every local `$ref` resolved to the rule
//! it names. Evaluating a document then walks the document only, never the schema's JSON.

use rustc_hash::FxHashMap;

use super::instance::JsonType;
use serde_json::{Map, Number, Value};

/// Index of a rule in its [`Program`].
pub(crate) type RuleId = u32;

/// A compiled schema: its rules, the first being the root.
#[derive(Debug)]
pub struct Program<'s> {
    pub(crate) rules: Vec<Rule<'s>>,
}

#[derive(Debug)]
pub(crate) enum Rule<'s> {
    /// `true` (or `{}`): everything is allowed.
    Anything,
    /// `false`, or a value that is not a schema: nothing is allowed.
    Nothing,
    /// A `$ref` the schema does not define, or one that leads only back to itself.
    BadReference(&'s str),
    Keywords(Box<Keywords<'s>>),
}

/// A numeric bound: the schema's number (for messages) and its value.
pub(crate) type Bound<'s> = Option<(&'s Number, f64)>;

/// The keywords of one schema object, in the order they are evaluated.
#[derive(Debug, Default)]
pub(crate) struct Keywords<'s> {
    /// The `type` keyword's value (a name or a list of names), when it restricts anything.
    pub types: Option<Types<'s>>,
    pub enumeration: Option<&'s Value>,
    pub constant: Option<&'s Value>,
    pub minimum: Bound<'s>,
    pub maximum: Bound<'s>,
    pub exclusive_minimum: Bound<'s>,
    pub exclusive_maximum: Bound<'s>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub required: Vec<&'s str>,
    /// `properties`, sorted by [`lookup_order`] (length first).
    pub properties: Vec<(&'s str, RuleId)>,
    /// Where the names of each length start in `properties`, for lengths under [`SHORT_NAME`]
    /// (and one past the longest of those): the names of length `n` are
    /// `properties[by_length[n]..by_length[n + 1]]`; longer names follow the last.
    pub by_length: Vec<u32>,
    pub additional: Additional,
    pub items: Option<RuleId>,
    pub unique_items: bool,
    pub all_of: Vec<RuleId>,
    pub any_of: Option<Vec<RuleId>>,
    pub one_of: Option<Vec<RuleId>>,
    pub not: Option<RuleId>,
    /// `if`, with `then` and `else`.
    pub condition: Option<(RuleId, Option<RuleId>, Option<RuleId>)>,
}

impl Keywords<'_> {
    /// Whether `allOf`, `anyOf`, `oneOf`, `not` or `if` is present.
    pub fn has_combinators(&self) -> bool {
        !self.all_of.is_empty()
            || self.any_of.is_some()
            || self.one_of.is_some()
            || self.not.is_some()
            || self.condition.is_some()
    }

    /// Whether any keyword that only applies to objects is present.
    pub fn has_object_keywords(&self) -> bool {
        !self.required.is_empty()
            || !self.properties.is_empty()
            || !matches!(self.additional, Additional::Absent)
    }

    /// The rule of property `name`. Only the names of `name`'s length are searched: the
    /// search over all of them compared lengths for most of its steps, and was 4% of a corpus
    /// pass (issue #38: every key of every object is looked up).
    pub fn property(&self, name: &str) -> Option<RuleId> {
        let at = |n: usize| self.by_length.get(n).map(|&at| at as usize);
        let names = match (at(name.len()), at(name.len() + 1)) {
            (Some(from), Some(to)) => &self.properties[from..to],
            // Longer than the table's lengths: the longer names, if any.
            _ => &self.properties[self.by_length.last().map_or(0, |&at| at as usize)..],
        };
        names
            .binary_search_by(|(key, _)| lookup_order(key, name))
            .ok()
            .map(|i| names[i].1)
    }

    /// Fills [`Keywords::by_length`] from the sorted `properties`.
    fn index_by_length(&mut self) {
        let longest = self.properties.last().map_or(0, |(name, _)| name.len());
        let properties = &self.properties;
        self.by_length = (0..=longest.min(SHORT_NAME - 1) + 1)
            .map(|n| properties.partition_point(|(name, _)| name.len() < n) as u32)
            .collect();
    }
}

/// Property names shorter than this are found by their length first ([`Keywords::property`]);
/// the table stays small whatever a schema's names are.
const SHORT_NAME: usize = 64;

/// The `type` keyword: the names it lists, for messages, and what they allow, for matching
/// (every node of a document is checked against one: a mask instead of comparing names).
#[derive(Debug)]
pub(crate) struct Types<'s> {
    pub names: Vec<&'s str>,
    /// The JSON types named, one bit each ([`JsonType::bit`]); an unknown name allows nothing.
    pub allowed: u8,
    /// `integer` is named: a number without a fractional part is allowed.
    pub integer: bool,
}

impl<'s> Types<'s> {
    fn new(names: Vec<&'s str>) -> Types<'s> {
        let allowed = names
            .iter()
            .filter_map(|&name| match name {
                "null" => Some(JsonType::Null),
                "boolean" => Some(JsonType::Boolean),
                "number" => Some(JsonType::Number),
                "string" => Some(JsonType::String),
                "array" => Some(JsonType::Array),
                "object" => Some(JsonType::Object),
                _ => None,
            })
            .fold(0, |mask, json_type| mask | json_type.bit());
        let integer = names.contains(&"integer");
        Types {
            names,
            allowed,
            integer,
        }
    }
}

/// The order [`Keywords::property`] searches names in: by length, then by bytes. Each step of
/// the search is then mostly a comparison of two lengths; the bytes are compared only between
/// names of one length (validation looks up every key of every object this way).
/// A key that is the very string the program holds (a word of the vocabulary, both) is equal
/// without comparing its bytes: the hit at the end of most searches.
fn lookup_order(a: &str, b: &str) -> std::cmp::Ordering {
    if std::ptr::eq(a, b) {
        return std::cmp::Ordering::Equal;
    }
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// What `additionalProperties` says of a key outside `properties`.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) enum Additional {
    /// No `additionalProperties`: anything goes, unchecked.
    #[default]
    Absent,
    /// `false`: the key is reported as unknown.
    Refused,
    Checked(RuleId),
}

impl<'s> Program<'s> {
    /// Compiles `root`. Every schema object becomes one rule, shared by every `$ref` to it.
    pub fn compile(root: &'s Value) -> Program<'s> {
        let mut compiler = Compiler {
            root,
            program: Program { rules: Vec::new() },
            references: FxHashMap::default(),
        };
        compiler.rule(root);
        compiler.program
    }

    pub(crate) fn rule(&self, id: RuleId) -> &Rule<'s> {
        &self.rules[id as usize]
    }
}

struct Compiler<'s> {
    root: &'s Value,
    program: Program<'s>,
    /// The rule of each `$ref` target compiled so far, by reference text.
    references: FxHashMap<&'s str, RuleId>,
}

impl<'s> Compiler<'s> {
    fn push(&mut self, rule: Rule<'s>) -> RuleId {
        self.program.rules.push(rule);
        (self.program.rules.len() - 1) as RuleId
    }

    /// The rule for `schema`, compiled now (a slot is taken first, so children come after it).
    fn rule(&mut self, schema: &'s Value) -> RuleId {
        let map = match schema {
            Value::Bool(true) => return self.push(Rule::Anything),
            Value::Object(map) => map,
            _ => return self.push(Rule::Nothing),
        };
        // Draft-07: a `$ref` replaces its siblings.
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            return self.reference(reference);
        }
        let id = self.push(Rule::Anything);
        let keywords = self.keywords(map);
        self.program.rules[id as usize] = Rule::Keywords(Box::new(keywords));
        id
    }

    /// The rule a `$ref` names; the same rule for every `$ref` with the same text, so recursive
    /// schemas compile to a finite program.
    fn reference(&mut self, reference: &'s str) -> RuleId {
        if let Some(&id) = self.references.get(reference) {
            return id;
        }
        let target = reference
            .strip_prefix('#')
            .and_then(|pointer| self.root.pointer(pointer));
        let Some(target) = target else {
            return self.push(Rule::BadReference(reference));
        };
        // The target may itself be a `$ref`: follow the chain; one that comes back to a
        // reference already on it never reaches a schema.
        let mut chain = vec![reference];
        let mut target = target;
        while let Some(next) = target.get("$ref").and_then(Value::as_str) {
            if chain.contains(&next) {
                let id = self.push(Rule::BadReference(reference));
                self.references.insert(reference, id);
                return id;
            }
            if let Some(&id) = self.references.get(next) {
                self.references.insert(reference, id);
                return id;
            }
            chain.push(next);
            match next.strip_prefix('#').and_then(|p| self.root.pointer(p)) {
                Some(found) => target = found,
                None => {
                    let id = self.push(Rule::BadReference(next));
                    for link in chain {
                        self.references.insert(link, id);
                    }
                    return id;
                }
            }
        }
        // Reserve the rule before compiling the target, so a `$ref` to it inside finds it.
        let id = match target {
            Value::Object(_) => self.push(Rule::Anything),
            other => return self.rule(other),
        };
        for link in &chain {
            self.references.insert(link, id);
        }
        if let Value::Object(map) = target {
            let keywords = self.keywords(map);
            self.program.rules[id as usize] = Rule::Keywords(Box::new(keywords));
        }
        id
    }

    fn keywords(&mut self, map: &'s Map<String, Value>) -> Keywords<'s> {
        let limit = |key: &str| map.get(key).and_then(Value::as_u64);
        let bound = |key: &str| match map.get(key) {
            Some(Value::Number(n)) => Some((n, n.as_f64().unwrap_or(f64::NAN))),
            _ => None,
        };
        let list = |key: &str| map.get(key).and_then(Value::as_array);
        let mut keywords = Keywords {
            types: map.get("type").and_then(types),
            enumeration: map.get("enum"),
            constant: map.get("const"),
            minimum: bound("minimum"),
            maximum: bound("maximum"),
            exclusive_minimum: bound("exclusiveMinimum"),
            exclusive_maximum: bound("exclusiveMaximum"),
            min_length: limit("minLength"),
            max_length: limit("maxLength"),
            min_items: limit("minItems"),
            max_items: limit("maxItems"),
            min_properties: limit("minProperties"),
            max_properties: limit("maxProperties"),
            required: list("required")
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect(),
            unique_items: map.get("uniqueItems") == Some(&Value::Bool(true)),
            ..Keywords::default()
        };
        if let Some(properties) = map.get("properties").and_then(Value::as_object) {
            for (name, schema) in properties {
                let id = self.rule(schema);
                // A name that is one of the vocabulary's words is held as the word itself:
                // a document's key read as that word is then the very same string.
                let name = crate::yaml::words::word(name).unwrap_or(name.as_str());
                keywords.properties.push((name, id));
            }
            keywords.properties.sort_by(|a, b| lookup_order(a.0, b.0));
            keywords.index_by_length();
        }
        keywords.additional = match map.get("additionalProperties") {
            None => Additional::Absent,
            Some(Value::Bool(false)) => Additional::Refused,
            Some(schema) => Additional::Checked(self.rule(schema)),
        };
        keywords.items = map.get("items").map(|schema| self.rule(schema));
        keywords.all_of = self.rules(list("allOf")).unwrap_or_default();
        keywords.any_of = self.rules(list("anyOf"));
        keywords.one_of = self.rules(list("oneOf"));
        keywords.not = map.get("not").map(|schema| self.rule(schema));
        if let Some(condition) = map.get("if") {
            let condition = self.rule(condition);
            let then = map.get("then").map(|schema| self.rule(schema));
            let otherwise = map.get("else").map(|schema| self.rule(schema));
            keywords.condition = Some((condition, then, otherwise));
        }
        keywords
    }

    fn rules(&mut self, schemas: Option<&'s Vec<Value>>) -> Option<Vec<RuleId>> {
        schemas.map(|schemas| schemas.iter().map(|schema| self.rule(schema)).collect())
    }
}

/// The names a `type` keyword allows; `None` when it restricts nothing (not a name or a list).
fn types(value: &Value) -> Option<Types<'_>> {
    match value {
        Value::String(name) => Some(Types::new(vec![name.as_str()])),
        Value::Array(names) => Some(Types::new(names.iter().filter_map(Value::as_str).collect())),
        _ => None,
    }
}

#[cfg(test)]
mod lookup_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The same string (a word held by both sides) and an equal copy order alike.
        #[test]
        fn the_same_string_and_an_equal_copy_order_alike(
            a in "(type|object|x|xy|é){0,3}", b in "(type|object|x|xy|é){0,3}",
        ) {
            let plain = a.len().cmp(&b.len()).then_with(|| a.cmp(&b));
            prop_assert_eq!(lookup_order(&a, &b), plain);
            let word = crate::yaml::words::word(&a).unwrap_or(&a);
            prop_assert_eq!(lookup_order(word, word), std::cmp::Ordering::Equal);
            prop_assert_eq!(lookup_order(word, &a.clone()), std::cmp::Ordering::Equal);
        }
    }

    #[test]
    fn the_schemas_property_names_are_held_as_the_vocabularys_words() {
        let value: Value = serde_json::from_str(crate::schema::SCHEMA_JSON).expect("the schema");
        let program = Program::compile(&value);
        let key = crate::yaml::Text::from("description");
        let found = program
            .rules
            .iter()
            .filter_map(|rule| match rule {
                Rule::Keywords(keywords) => Some(keywords.properties.iter()),
                _ => None,
            })
            .flatten()
            .find(|(name, _)| *name == "description")
            .map(|(name, _)| *name);
        let found = found.expect("the schema has a description property");
        assert!(
            std::ptr::eq(found, key.as_str()),
            "the same string as a key read as the word"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The search over all the names, as it was: the oracle.
    fn searched(keywords: &Keywords<'_>, name: &str) -> Option<RuleId> {
        keywords
            .properties
            .binary_search_by(|(key, _)| lookup_order(key, name))
            .ok()
            .map(|i| keywords.properties[i].1)
    }

    fn names_of_length(length: usize) -> impl Strategy<Value = String> {
        proptest::collection::vec(proptest::sample::select(vec!['a', 'b', 'é']), length)
            .prop_map(|chars| chars.into_iter().collect())
    }

    /// Names of every length around the table's end, several of one length.
    fn name() -> impl Strategy<Value = String> {
        prop_oneof![0_usize..4, 60_usize..68].prop_flat_map(names_of_length)
    }

    proptest! {
        #[test]
        fn a_property_is_found_as_the_search_over_all_names_finds_it(
            declared in proptest::collection::vec(name(), 0..12),
            asked in proptest::collection::vec(name(), 0..12),
        ) {
            let properties: serde_json::Map<String, Value> =
                declared.iter().map(|name| (name.clone(), Value::Bool(true))).collect();
            let schema = serde_json::json!({ "properties": properties });
            let program = Program::compile(&schema);
            let Rule::Keywords(keywords) = &program.rules[0] else {
                panic!("a schema object compiles to keywords");
            };
            for name in declared.iter().chain(&asked) {
                prop_assert_eq!(keywords.property(name), searched(keywords, name), "{}", name);
            }
        }
    }

    #[test]
    fn every_name_of_the_embedded_schemas_is_found_as_the_search_finds_it() {
        for schema in [super::super::schema(), crate::drtl::schema()] {
            let program = Program::compile(schema);
            for rule in &program.rules {
                let Rule::Keywords(keywords) = rule else {
                    continue;
                };
                for &(name, rule) in &keywords.properties {
                    assert_eq!(keywords.property(name), Some(rule), "{name}");
                    let other = name.to_uppercase();
                    assert_eq!(
                        keywords.property(&other),
                        searched(keywords, &other),
                        "{name}"
                    );
                }
            }
        }
    }
}
