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
    /// The failing value: borrowed from a JSON instance; from a YAML tree, a scalar's copy or
    /// an empty collection of the value's kind (messages show a collection by its kind only).
    pub instance: Cow<'a, Value>,
    /// Which keyword failed, with what it demanded.
    pub kind: ErrorKind<'a>,
    /// The failing node, when the instance is a YAML tree: the diagnostic is placed at it
    /// without walking the tree again along `instance_path`.
    pub(crate) node: Option<&'a crate::yaml::Node>,
}

/// The keyword that failed and what it demanded.
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind<'a> {
    /// `required`: a property the object must have is missing.
    Required {
        /// The missing property.
        property: &'a str,
    },
    /// `additionalProperties: false`: properties the schema does not list.
    AdditionalProperties {
        /// The unlisted property names, in document order.
        unexpected: Vec<&'a str>,
    },
    /// `type`: the value is of none of the allowed JSON types.
    Type {
        /// The allowed types, as the schema names them.
        expected: Vec<&'a str>,
    },
    /// `enum`: the value is none of the listed options.
    Enum {
        /// The schema's list of options.
        options: &'a Value,
    },
    /// `const`: the value is not the one value allowed.
    Const {
        /// The one value allowed.
        expected: &'a Value,
    },
    /// `minimum`: the number is below the bound.
    Minimum {
        /// The inclusive lower bound.
        limit: &'a Number,
    },
    /// `maximum`: the number is above the bound.
    Maximum {
        /// The inclusive upper bound.
        limit: &'a Number,
    },
    /// `exclusiveMinimum`: the number is not above the bound.
    ExclusiveMinimum {
        /// The exclusive lower bound.
        limit: &'a Number,
    },
    /// `exclusiveMaximum`: the number is not below the bound.
    ExclusiveMaximum {
        /// The exclusive upper bound.
        limit: &'a Number,
    },
    /// `minLength`: the string has fewer characters than allowed.
    MinLength {
        /// The least number of characters.
        limit: u64,
    },
    /// `maxLength`: the string has more characters than allowed.
    MaxLength {
        /// The greatest number of characters.
        limit: u64,
    },
    /// `minItems`: the array has fewer items than allowed.
    MinItems {
        /// The least number of items.
        limit: u64,
    },
    /// `maxItems`: the array has more items than allowed.
    MaxItems {
        /// The greatest number of items.
        limit: u64,
    },
    /// `minProperties`: the object has fewer properties than allowed.
    MinProperties {
        /// The least number of properties.
        limit: u64,
    },
    /// `maxProperties`: the object has more properties than allowed.
    MaxProperties {
        /// The greatest number of properties.
        limit: u64,
    },
    /// `uniqueItems`: two items of the array are equal.
    UniqueItems,
    /// No alternative matched; the errors of each alternative, in order.
    AnyOf {
        /// Each alternative's errors, one list per alternative.
        context: Vec<Vec<SchemaError<'a>>>,
    },
    /// `oneOf`: no alternative matched.
    OneOfNone {
        /// Each alternative's errors, one list per alternative.
        context: Vec<Vec<SchemaError<'a>>>,
    },
    /// `oneOf`: more than one alternative matched.
    OneOfMany,
    /// `not`: the value matches the schema it must not match.
    Not,
    /// The schema is `false`: nothing is allowed here.
    Nothing,
    /// A `$ref` the schema does not define (a bug in the schema, reported rather than ignored).
    BadReference {
        /// The reference as the schema writes it.
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
    /// Compiles `root` (a draft-07 schema whose `$ref`s are local) for evaluation.
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
