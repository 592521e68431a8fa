pub fn check(s: &serde_json::Value, i: &serde_json::Value) -> bool {
    let _ = saphyr_parser::Parser::new_from_str("a: 1").count();
    jsonschema::draft7::new(s).map(|v| v.is_valid(i)).unwrap_or(false) && strsim::levenshtein("a","b") > 0
}
