//! Property tests: no input, however malformed, makes the parser or validator panic, and every
//! diagnostic it returns has a place inside the file.

use logicmd::{validate, validate_bytes, Limits};
use proptest::prelude::*;

/// Text built from the pieces YAML and LOGIC.md are made of, so the generator reaches deep
/// into the parser instead of failing at the first byte.
fn yamlish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("---\n".to_owned()),
        Just("\n".to_owned()),
        Just("  ".to_owned()),
        Just("- ".to_owned()),
        Just(": ".to_owned()),
        Just("? ".to_owned()),
        Just("&a ".to_owned()),
        Just("*a".to_owned()),
        Just("!!str ".to_owned()),
        Just("!x ".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just("{".to_owned()),
        Just("}".to_owned()),
        Just(", ".to_owned()),
        Just("|\n".to_owned()),
        Just(">-\n".to_owned()),
        Just("\"q\\u00e9\"".to_owned()),
        Just("'s''s'".to_owned()),
        Just("# c\n".to_owned()),
        Just("\t".to_owned()),
        Just("...\n".to_owned()),
        Just("spec_version: \"1.0\"\n".to_owned()),
        Just("name: n\n".to_owned()),
        Just("steps:\n".to_owned()),
        Just("needs".to_owned()),
        Just("é😀".to_owned()),
        Just("\r\n".to_owned()),
        "[a-z0-9_.]{1,8}",
        "-?[0-9]{1,25}(\\.[0-9]+)?(e[0-9]{1,3})?",
    ];
    prop::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat())
}

fn assert_well_placed(text_len_lines: usize, report: &logicmd::Report) {
    for d in &report.diagnostics {
        assert!(
            d.line >= 1 && (d.line as usize) <= text_len_lines.max(1),
            "{d:?}"
        );
        assert!(d.column >= 1, "{d:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let report = validate_bytes(&bytes, Limits::DEFAULT);
        prop_assert!(report.valid || !report.diagnostics.is_empty());
    }

    #[test]
    fn arbitrary_frontmatter_never_panics(body in yamlish()) {
        let text = format!("---\n{body}\n---\n");
        let report = validate(&text);
        prop_assert!(report.valid || !report.diagnostics.is_empty());
        assert_well_placed(text.lines().count() + 1, &report);
    }

    #[test]
    fn arbitrary_text_never_panics(text in yamlish()) {
        let report = validate(&text);
        assert_well_placed(text.lines().count() + 1, &report);
    }
}
