use super::*;

const MESSY: &str = "---\n# Head comment\nname: demo   # the name\nspec_version: '1.0'\nsteps:\n    # about b\n    b:\n        needs: [a]   # after a\n        description: \"Second\"\n    a:\n        instructions: |\n            Line one\n\n            Line three\n        description: First\nmetadata:\n    tags:\n    # first tag\n    - x\n    - \"y z\"\n# closing comment\n---\n# Body\n";

#[test]
fn orders_keys_indents_and_unquotes_keeping_comments() {
    let formatted = format(MESSY).unwrap();
    let expected = "---\nspec_version: '1.0'\n# Head comment\nname: demo # the name\nsteps:\n  # about b\n  b:\n    description: Second\n    needs: [a] # after a\n  a:\n    description: First\n    instructions: |\n      Line one\n\n      Line three\nmetadata:\n  tags:\n    # first tag\n    - x\n    - y z\n# closing comment\n---\n# Body\n";
    assert_eq!(formatted, expected);
}

#[test]
fn is_idempotent_and_meaning_preserving() {
    let once = format(MESSY).unwrap();
    assert_eq!(format(&once).unwrap(), once);
    let before = Document::parse(MESSY).document.unwrap();
    let after = Document::parse(&once).document.unwrap();
    assert_eq!(before.json(), after.json());
}

#[test]
fn sequences_of_mappings_keep_the_dash_on_the_first_key() {
    let text = "---\nspec_version: \"1.0\"\nname: x\nimports:\n- as: a   # alias\n  ref: ./a.logic.md\n---\n";
    let formatted = format(text).unwrap();
    assert_eq!(
        formatted,
        "---\nspec_version: \"1.0\"\nname: x\nimports:\n  - ref: ./a.logic.md\n    as: a # alias\n---\n"
    );
}

#[test]
fn refuses_documents_with_aliases() {
    let err = format("---\nspec_version: \"1.0\"\nname: x\nmetadata:\n  a: &x 1\n  b: *x\n---\n")
        .unwrap_err();
    assert_eq!(err.code, "fmt-refused");
}

#[test]
fn keeps_crlf() {
    let crlf = MESSY.replace('\n', "\r\n");
    let formatted = format(&crlf).unwrap();
    assert!(!formatted.replace("\r\n", "").contains('\n'));
    assert_eq!(formatted.replace("\r\n", "\n"), format(MESSY).unwrap());
}

#[test]
fn blank_lines_between_entries_are_kept_once() {
    let text =
        "---\nspec_version: \"1.0\"\nname: x\n\n\n# Steps\nsteps:\n  a: {}\n\n  b: {}\n---\n";
    let formatted = format(text).unwrap();
    assert_eq!(
        formatted,
        "---\nspec_version: \"1.0\"\nname: x\n\n# Steps\nsteps:\n  a: {}\n\n  b: {}\n---\n"
    );
}

/// Issue #13, defect 1: end-of-line comments after quoted scalars, in every place they occur.
#[test]
fn trailing_comments_after_quoted_scalars_are_kept() {
    let text = "---\nspec_version: \"1.0\"\nname: \"x\"  # note\ndescription: 'single'   # after single\nmetadata:\n  list:\n    - \"a\"  # item note\n    - 'b' # single item\n    - key: \"v\" # in an item's map\n      other: 'w'  # second key\n  multi: \"one\n    two\"  # after a multi-line quoted scalar\n  flow: [\"a\", 'b']  # after a flow list\n  map: {\"a\": 'x'} # after a flow map\n  \"quoted key\": \"v\" # after a quoted key's value\n---\n";
    let formatted = format(text).unwrap();
    assert_eq!(
        formatted,
        "---\nspec_version: \"1.0\"\nname: x # note\ndescription: single # after single\nmetadata:\n  list:\n    - a # item note\n    - b # single item\n    - key: v # in an item's map\n      other: w # second key\n  multi: one two # after a multi-line quoted scalar\n  flow: [\"a\", 'b'] # after a flow list\n  map: {\"a\": 'x'} # after a flow map\n  quoted key: v # after a quoted key's value\n---\n"
    );
}

/// Issue #13, defect 2: the reproduction. Quotes stay where a YAML 1.1 reader (PyYAML, js-yaml)
/// would read the plain form as something other than the same string.
#[test]
fn keeps_quotes_that_yaml_1_1_readers_need() {
    let text = "---\nspec_version: \"1.0\"\nname: \"x\"  # note\ndescription: \"2026-03-31\"\nmetadata:\n  t: \"1:30\"\n  u: \"yes\"\n  list:\n    - \"a\"  # item note\n---\n";
    assert_eq!(
        format(text).unwrap(),
        "---\nspec_version: \"1.0\"\nname: x # note\ndescription: \"2026-03-31\"\nmetadata:\n  t: \"1:30\"\n  u: \"yes\"\n  list:\n    - a # item note\n---\n"
    );
}

#[test]
fn anchor_and_tag_characters_inside_scalars_and_comments_do_not_refuse() {
    let text = "---\nspec_version: \"1.0\"\nname: \": &x\"  # a comment: &y !z\nmetadata:\n  \"- *k\": '!v'\n---\n";
    assert_eq!(
        format(text).unwrap(),
        "---\nspec_version: \"1.0\"\nname: \": &x\" # a comment: &y !z\nmetadata:\n  \"- *k\": '!v'\n---\n"
    );
    for tagged in [
        "---\nspec_version: \"1.0\"\nname: !!str x\n---\n",
        "---\nspec_version: \"1.0\"\nname: x\nmetadata: !!map\n  a: 1\n---\n",
        "---\nspec_version: \"1.0\"\nname: x\nmetadata:\n  a: &a [1]\n---\n",
        "---\nspec_version: \"1.0\"\nname: x\nmetadata:\n  !!str a: 1\n---\n",
    ] {
        assert_eq!(format(tagged).unwrap_err().code, "fmt-refused", "{tagged}");
    }
}

/// The fuzzer's finds, one per family: each formats to the whole expected text, and formatting
/// that again changes nothing.
#[test]
fn comments_format_the_same_the_second_time() {
    let cases = [
        (
            // A comment of a sequence item's first key (after reordering) goes above the dash.
            "---\nspec_version: \"1.0\"\nname: x\nedges:\n  - frm: y\n    # about to\n    to: w\n---\n",
            "---\nspec_version: \"1.0\"\nname: x\nedges:\n  # about to\n  - to: w\n    frm: y\n---\n",
        ),
        (
            // A comment right above the first key is that key's and moves with it (issue #30).
            "---\n# one\nzeta: 1\n\n# two\nspec_version: \"1.0\"\nname: x\n---\n",
            "---\n# two\nspec_version: \"1.0\"\nname: x\n# one\nzeta: 1\n---\n",
        ),
        (
            // A lone carriage return ends a comment's line, as YAML reads it.
            "---\nspec_version: \"1.0\"\nname: x\n# note\rdescription: d\n---\n",
            "---\nspec_version: \"1.0\"\nname: x\n# note\ndescription: d\n---\n",
        ),
    ];
    for (text, expected) in cases {
        let once = format(text).unwrap();
        assert_eq!(once, expected, "{text:?}");
        assert_eq!(format(&once).unwrap(), once, "{text:?}");
    }
}

/// Issue #30 item 8: block scalars of every chomping and indentation indicator, empty ones and
/// ones that end the frontmatter, are formatted (reordered around, re-indented), meaning kept.
#[test]
fn block_scalars_of_every_header_are_formatted() {
    let cases: &[(&str, &str)] = &[
        // keep: the trailing blank lines are the value's
        (
            "steps:\n  a:\n    instructions: |+\n        keep\n\n\n    description: x\n",
            "steps:\n  a:\n    description: x\n    instructions: |+\n      keep\n\n\n",
        ),
        (
            "steps:\n  a:\n    instructions: >+\n        folded\n        keep\n\n    description: x\n",
            "steps:\n  a:\n    description: x\n    instructions: >+\n      folded\n      keep\n\n",
        ),
        // keep at the end of the frontmatter
        (
            "metadata:\n  note: |+\n    last\n\n",
            "metadata:\n  note: |+\n    last\n\n",
        ),
        // empty block scalars
        (
            "steps:\n  a:\n    instructions: |\n    description: x\n",
            "steps:\n  a:\n    description: x\n    instructions: |\n",
        ),
        (
            "steps:\n  a:\n    instructions: >-\n\n    description: x\n",
            // (the blank line is not the value's: it separates the next key, and goes with it)
            "steps:\n  a:\n\n    description: x\n    instructions: >-\n",
        ),
        // strip, and an explicit indentation indicator
        (
            "steps:\n  a:\n    instructions: |-\n        strip\n    description: x\n",
            "steps:\n  a:\n    description: x\n    instructions: |-\n      strip\n",
        ),
        (
            "steps:\n  a:\n    instructions: |4\n          four deep\n        two\n    description: x\n",
            "steps:\n  a:\n    description: x\n    instructions: |2\n        four deep\n      two\n",
        ),
    ];
    for (body, expected) in cases {
        let text = format!("---\nspec_version: \"1.0\"\nname: b\n{body}---\n");
        let formatted = format(&text).unwrap_or_else(|e| panic!("{body:?}: {}", e.message));
        assert_eq!(
            formatted,
            format!("---\nspec_version: \"1.0\"\nname: b\n{expected}---\n"),
            "{body:?}"
        );
        let again =
            format(&formatted).unwrap_or_else(|e| panic!("again {formatted:?}: {}", e.message));
        assert_eq!(again, formatted, "idempotent: {body:?}");
    }
}

/// Issue #30 item 19: a comment right above the first key is that key's, and moves with it when
/// the keys are reordered; a comment separated from it by a blank line heads the file.
#[test]
fn a_comment_above_the_first_key_moves_with_it() {
    let text = "---\n# The file.\n\n# The name.\nname: x\nspec_version: \"1.0\"\n---\n";
    assert_eq!(
        format(text).unwrap(),
        "---\n# The file.\n\nspec_version: \"1.0\"\n# The name.\nname: x\n---\n"
    );
    let attached = "---\n# The name.\nname: x\nspec_version: \"1.0\"\n---\n";
    assert_eq!(
        format(attached).unwrap(),
        "---\nspec_version: \"1.0\"\n# The name.\nname: x\n---\n"
    );
}
