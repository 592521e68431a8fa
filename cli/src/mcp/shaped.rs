//! A JSON value some other code shaped (the CLI's reports), described by the schema of `S`.

use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Serialize, Serializer};
use serde_json::Value;

pub struct Shaped<S>(Value, PhantomData<S>);

impl<S> Shaped<S> {
    pub fn new(value: Value) -> Shaped<S> {
        Shaped(value, PhantomData)
    }
}

impl<S> Serialize for Shaped<S> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        self.0.serialize(serializer)
    }
}

impl<S: JsonSchema> JsonSchema for Shaped<S> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        S::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        S::json_schema(generator)
    }
}
