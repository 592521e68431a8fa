//! A JSON Schema (draft-07) evaluator for the keywords our embedded schemas use.
//!
//! Why our own: a general validator brings URL, IDNA and two regex engines with Unicode tables,
//! which tripled the size of the WebAssembly package. Our schemas are ours, so the subset is
//! known: `type`, `enum`, `const`, the numeric and size bounds, `properties`,
//! `additionalProperties`, `required`, `items`, `uniqueItems`, `anyOf`, `oneOf`, `allOf`,
//! `not`, `if`/`then`/`else` and local `$ref`s (`#/definitions/...`). A keyword outside the
//! subset is reported by [`unsupported_keywords`], which a unit test runs over both schemas.

use std::borrow::Cow;

use serde_json::{Number, Value};

use super::evaluate;
use super::program::Program;
use crate::json::pointer_push;

/// One way the instance fails the schema.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaError<'a> {
    /// JSON pointer to the failing value in the instance.
    pub instance_path: String,
    /// The failing value (an owned copy when the instance is a YAML tree).
    pub instance: Cow<'a, Value>,
    pub kind: ErrorKind<'a>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind<'a> {
    Required {
        property: &'a str,
    },
    AdditionalProperties {
        unexpected: Vec<&'a str>,
    },
    Type {
        expected: Vec<&'a str>,
    },
    Enum {
        options: &'a Value,
    },
    Const {
        expected: &'a Value,
    },
    Minimum {
        limit: &'a Number,
    },
    Maximum {
        limit: &'a Number,
    },
    ExclusiveMinimum {
        limit: &'a Number,
    },
    ExclusiveMaximum {
        limit: &'a Number,
    },
    MinLength {
        limit: u64,
    },
    MaxLength {
        limit: u64,
    },
    MinItems {
        limit: u64,
    },
    MaxItems {
        limit: u64,
    },
    MinProperties {
        limit: u64,
    },
    MaxProperties {
        limit: u64,
    },
    UniqueItems,
    /// No alternative matched; the errors of each alternative, in order.
    AnyOf {
        context: Vec<Vec<SchemaError<'a>>>,
    },
    OneOfNone {
        context: Vec<Vec<SchemaError<'a>>>,
    },
    OneOfMany,
    Not,
    /// The schema is `false`: nothing is allowed here.
    Nothing,
    /// A `$ref` the schema does not define (a bug in the schema, reported rather than ignored).
    BadReference {
        reference: &'a str,
    },
}

impl ErrorKind<'_> {
    /// The schema keyword that failed.
    pub fn keyword(&self) -> &'static str {
        match self {
            ErrorKind::Required { .. } => "required",
            ErrorKind::AdditionalProperties { .. } => "additionalProperties",
            ErrorKind::Type { .. } => "type",
            ErrorKind::Enum { .. } => "enum",
            ErrorKind::Const { .. } => "const",
            ErrorKind::Minimum { .. } => "minimum",
            ErrorKind::Maximum { .. } => "maximum",
            ErrorKind::ExclusiveMinimum { .. } => "exclusiveMinimum",
            ErrorKind::ExclusiveMaximum { .. } => "exclusiveMaximum",
            ErrorKind::MinLength { .. } => "minLength",
            ErrorKind::MaxLength { .. } => "maxLength",
            ErrorKind::MinItems { .. } => "minItems",
            ErrorKind::MaxItems { .. } => "maxItems",
            ErrorKind::MinProperties { .. } => "minProperties",
            ErrorKind::MaxProperties { .. } => "maxProperties",
            ErrorKind::UniqueItems => "uniqueItems",
            ErrorKind::AnyOf { .. } => "anyOf",
            ErrorKind::OneOfNone { .. } | ErrorKind::OneOfMany => "oneOf",
            ErrorKind::Not => "not",
            ErrorKind::Nothing => "false",
            ErrorKind::BadReference { .. } => "$ref",
        }
    }
}

/// Keywords this evaluator understands; annotations are accepted and ignored.
const KEYWORDS: &[&str] = &[
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "properties",
    "additionalProperties",
    "required",
    "items",
    "uniqueItems",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "definitions",
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
];

/// Every keyword in `schema` this evaluator would silently ignore, as `pointer: keyword`.
pub fn unsupported_keywords(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    collect_unsupported(schema, "", &mut found);
    found
}

fn collect_unsupported(schema: &Value, at: &str, found: &mut Vec<String>) {
    let Value::Object(map) = schema else { return };
    for (key, value) in map {
        let here = pointer_push(at, key);
        if !KEYWORDS.contains(&key.as_str()) {
            found.push(format!("{at}: {key}"));
            continue;
        }
        match key.as_str() {
            "properties" | "definitions" => {
                if let Value::Object(children) = value {
                    for (name, child) in children {
                        collect_unsupported(child, &pointer_push(&here, name), found);
                    }
                }
            }
            "anyOf" | "oneOf" | "allOf" => {
                for (i, child) in value.as_array().into_iter().flatten().enumerate() {
                    collect_unsupported(child, &pointer_push(&here, &i.to_string()), found);
                }
            }
            "additionalProperties" | "items" | "not" | "if" | "then" | "else" => {
                collect_unsupported(value, &here, found)
            }
            _ => {}
        }
    }
}

/// Evaluates JSON values against one root schema, compiled once into a [`Program`].
pub struct Evaluator<'s> {
    program: Program<'s>,
}

impl<'s> Evaluator<'s> {
    pub fn new(root: &'s Value) -> Self {
        Evaluator {
            program: Program::compile(root),
        }
    }

    /// Every failure of `instance`, outermost first.
    pub fn errors<'a>(&self, instance: &'a Value) -> Vec<SchemaError<'a>>
    where
        's: 'a,
    {
        evaluate::errors(&self.program, instance)
    }
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
