//! The words LOGIC.md documents repeat in every step (the schema's property names, its enum
//! values, JSON Schema's keywords and type names), held once for the whole process. A text
//! that is one of them needs no share of the document's source: sharing it costs an atomic
//! reference count on the way in and another on the way out, per key and per scalar, which
//! was a tenth of parse + validate's wall clock on the generated documents (issue #17). Which
//! words are here changes no result, only how a text is held.

/// The vocabulary. A word may be added freely: the table is built, and proved free of
/// overflowing buckets, at compile time.
const WORDS: &[&str] = &[
    "abort",
    "action",
    "additionalProperties",
    "all",
    "allowed_tools",
    "any",
    "array",
    "as",
    "avg_response_time",
    "backoff_coefficient",
    "boolean",
    "branches",
    "capabilities",
    "category",
    "check",
    "checklist",
    "coerce",
    "color",
    "condition",
    "conditional",
    "confidence",
    "const",
    "constraints",
    "contract",
    "contracts",
    "cot",
    "criteria",
    "critic",
    "custom",
    "decision_trees",
    "default",
    "degradation",
    "denied_tools",
    "depends_on",
    "description",
    "edges",
    "enabled",
    "enum",
    "error",
    "escalate",
    "escalate_below",
    "escalation",
    "examples",
    "exclude_fields",
    "execution",
    "fail_fast",
    "fallback",
    "fallback_to",
    "format",
    "from",
    "global",
    "got",
    "graceful_degrade",
    "icon",
    "if",
    "imports",
    "include_fields",
    "include_reasoning_trace",
    "info",
    "initial_interval",
    "input_schema",
    "inputs",
    "inspector",
    "instructions",
    "integer",
    "invariants",
    "items",
    "join",
    "join_timeout",
    "key",
    "label",
    "languages",
    "level",
    "logic_ref",
    "majority",
    "max",
    "maxItems",
    "maxLength",
    "max_attempts",
    "max_input_tokens",
    "max_iterations",
    "max_parallelism",
    "max_revisions",
    "max_total_cost",
    "max_total_time",
    "maximum",
    "maximum_interval",
    "message",
    "metadata",
    "min",
    "minItems",
    "minLength",
    "minimum",
    "minimum_score",
    "mode",
    "name",
    "needs",
    "new_strategy",
    "next",
    "nodes",
    "non_retryable_errors",
    "number",
    "object",
    "on_breach",
    "on_contract_violation",
    "on_fail",
    "on_fail_message",
    "on_input_violation",
    "on_output_violation",
    "options",
    "output_schema",
    "outputs",
    "overrides",
    "parallel",
    "parallel_steps",
    "pattern",
    "permissive",
    "plan-execute",
    "ports",
    "post_output",
    "pre_output",
    "prompt",
    "properties",
    "quality_gates",
    "react",
    "reasoning",
    "ref",
    "reflection",
    "reject",
    "required",
    "retry",
    "retry_different",
    "revise",
    "root",
    "rubric",
    "self_verification",
    "sequential",
    "severity",
    "skip",
    "spec_version",
    "step",
    "steps",
    "strategy",
    "strategy_config",
    "strict",
    "string",
    "supported_domains",
    "target",
    "temperature",
    "terminals",
    "then",
    "thinking_budget",
    "timeout",
    "title",
    "to",
    "tot",
    "trigger",
    "type",
    "validation",
    "value",
    "verification",
    "version",
    "visual",
    "warn",
    "warning",
    "weight",
    "when",
];

/// Buckets of the table (a power of two: a word's bucket is the top bits of its hash).
const BUCKETS: usize = 512;
/// Words per bucket: a lookup compares two keys and at most one text.
const SLOTS: usize = 2;

/// The words by bucket, each with its key ([`key`]); an empty slot holds `""` and key 0, which
/// no looked-up text equals (the empty text is never looked up).
struct Table {
    seed: u64,
    keys: [[u64; SLOTS]; BUCKETS],
    words: [[&'static str; SLOTS]; BUCKETS],
}

static TABLE: Table = build();

/// A non-empty `text`'s length (its low byte) and five of its bytes (the first two, the
/// middle one, the last two): compared before the text itself, so a text that is no word is
/// told so without a byte comparison.
const fn key(text: &[u8]) -> u64 {
    let len = text.len();
    let second = if len > 1 { 1 } else { 0 };
    (len as u64 & 0xff)
        | (text[0] as u64) << 8
        | (text[second] as u64) << 16
        | (text[len / 2] as u64) << 24
        | (text[len - 1 - second] as u64) << 32
        | (text[len - 1] as u64) << 40
}

/// The bucket of a key: the top bits of a multiplication by the table's seed.
const fn bucket(seed: u64, key: u64) -> usize {
    (key.wrapping_mul(seed) >> (64 - BUCKETS.trailing_zeros())) as usize
}

/// The table of the first seed that fits every word in its bucket (a compile error if none
/// of the tried seeds does: then raise `SLOTS` or `BUCKETS`).
const fn build() -> Table {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut tries = 0;
    while tries < 1000 {
        if let Some(table) = fill(seed) {
            return table;
        }
        seed = seed.wrapping_add(0x6d2b_79f5_2e4c_8a1b);
        tries += 1;
    }
    panic!("no seed fits the vocabulary in its buckets");
}

/// The words placed by `seed`, or `None` when a bucket overflows.
const fn fill(seed: u64) -> Option<Table> {
    let mut table = Table {
        seed,
        keys: [[0; SLOTS]; BUCKETS],
        words: [[""; SLOTS]; BUCKETS],
    };
    let mut word = 0;
    while word < WORDS.len() {
        let text = WORDS[word];
        let key = key(text.as_bytes());
        let bucket = bucket(seed, key);
        let mut slot = 0;
        while slot < SLOTS && !table.words[bucket][slot].is_empty() {
            // Two words of one key: the lookup would find the first only.
            assert!(table.keys[bucket][slot] != key, "two words share a key");
            slot += 1;
        }
        if slot == SLOTS {
            return None;
        }
        table.keys[bucket][slot] = key;
        table.words[bucket][slot] = text;
        word += 1;
    }
    Some(table)
}

/// The vocabulary's own `&'static str` equal to `text`, if it is one of the words.
#[inline]
pub(crate) fn word(text: &str) -> Option<&'static str> {
    word_in_table(text).copied()
}

/// The table's own slot holding the word equal to `text`: one pointer, what a
/// [`super::Text`] keeps of a word (a `&str` is two).
#[inline]
pub(crate) fn word_in_table(text: &str) -> Option<&'static &'static str> {
    if text.is_empty() {
        return None;
    }
    let key = key(text.as_bytes());
    let bucket = bucket(TABLE.seed, key);
    let keys = TABLE.keys[bucket];
    let slot = if keys[0] == key {
        0
    } else if keys[1] == key {
        1
    } else {
        return None;
    };
    let word = &TABLE.words[bucket][slot];
    (*word == text).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_word_of_the_vocabulary_is_found_as_itself() {
        for &text in WORDS {
            assert_eq!(word(text), Some(text), "{text}");
            assert_eq!(word(&text.to_uppercase()), None, "{text}, another text");
        }
        let placed = TABLE.words.iter().flatten().filter(|w| !w.is_empty());
        assert_eq!(placed.count(), WORDS.len(), "every word placed once");
    }

    #[test]
    fn the_schemas_property_names_are_words() {
        let schema = crate::schema::schema();
        let mut names = Vec::new();
        collect_property_names(schema, &mut names);
        assert!(names.len() > 100, "the schema has its properties");
        for name in names {
            assert_eq!(word(name), Some(name), "{name}");
        }
    }

    fn collect_property_names<'v>(value: &'v serde_json::Value, names: &mut Vec<&'v str>) {
        match value {
            serde_json::Value::Object(map) => {
                if let Some(serde_json::Value::Object(properties)) = map.get("properties") {
                    names.extend(properties.keys().map(String::as_str));
                }
                map.values().for_each(|v| collect_property_names(v, names));
            }
            serde_json::Value::Array(items) => {
                items.iter().for_each(|v| collect_property_names(v, names))
            }
            _ => {}
        }
    }

    proptest! {
        /// A word is found exactly for a text that reads as it, whatever the text.
        #[test]
        fn a_text_is_a_word_only_when_it_reads_as_one(
            text in "(type|object|string|step|s|e|_|\u{e9}|x){0,5}",
        ) {
            match word(&text) {
                Some(found) => prop_assert_eq!(found, text.as_str()),
                None => prop_assert!(!WORDS.contains(&text.as_str())),
            }
        }
    }
}
