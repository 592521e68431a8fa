use proptest::prelude::*;

use super::*;

const DOC: &str = "---\nspec_version: \"1.0\"\nname: analyst # the name\ndescription: 'Maps a market'\nreasoning:\n  strategy: cot\n  max_iterations: 12\nsteps:\n  gather:\n    description: Find sources\n    needs: []\n  rank:\n    description: \"Rank them\"\n    needs: [gather]\n    timeout: 30s\n  tags:\n    description: list\n    instructions: |\n      Keep it short.\n---\n# Body\n";

fn parsed(text: &str) -> Document {
    let parsed = Document::parse(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    parsed.document.expect("parses")
}

/// The shortcut's result, asserted equal to a full parse whenever there is one.
fn reparsed(before: &str, after: &str) -> Option<Document> {
    let result = parsed(before).reparse(after)?;
    let full = Document::parse(after);
    assert!(
        full.diagnostics.is_empty(),
        "{after}: {:?}",
        full.diagnostics
    );
    assert_eq!(Some(&result), full.document.as_ref(), "{after}");
    Some(result)
}

#[test]
fn typing_in_a_value_needs_no_parse() {
    let cases = [
        ("Find sources", "Find good sources"),
        ("Find sources", "Find sources and more"),
        ("Find sources", "F"),
        ("max_iterations: 12", "max_iterations: 120"),
        ("max_iterations: 12", "max_iterations: 1x"),
        ("timeout: 30s", "timeout: 45s"),
        ("'Maps a market'", "'Maps a whole market'"),
        ("\"Rank them\"", "\"Rank them all\""),
        ("name: analyst", "name: analyst_two"),
        ("strategy: cot", "strategy: react"),
        ("Find sources", "Finde Quellen für ü"),
    ];
    for (from, to) in cases {
        let after = DOC.replacen(from, to, 1);
        assert!(reparsed(DOC, &after).is_some(), "{to}");
    }
    // A value that becomes a number or a boolean is one.
    let number = reparsed(DOC, &DOC.replacen("name: analyst", "name: 42", 1)).unwrap();
    assert_eq!(number.json()["name"], serde_json::json!(42));
    let typed = reparsed(DOC, &DOC.replacen("strategy: cot", "strategy: true", 1)).unwrap();
    assert_eq!(
        typed.json()["reasoning"]["strategy"],
        serde_json::json!(true)
    );
}

#[test]
fn anything_else_is_left_to_a_full_parse() {
    let refused = [
        ("strategy: cot", "strategy: a: b"),
        ("strategy: cot", "strategy: co # t"),
        ("strategy: cot", "strategy: [cot]"),
        ("strategy: cot", "strategy: *cot"),
        ("strategy: cot", "strategy: cot\n  extra: 1"),
        ("strategy: cot", "strateg: cot"),
        ("needs: [gather]", "needs: [gather, rank]"),
        ("'Maps a market'", "'Maps a market''s edge'"),
        ("\"Rank them\"", "\"Rank \\\" them\""),
        ("# the name", "# the best name"),
        ("Keep it short.", "Keep it shorter."),
        ("# Body", "# Bodies"),
        ("spec_version: \"1.0\"", "spec_version: \"1.1\"x"),
        ("max_iterations: 12", "max_iterations: .inf"),
    ];
    let document = parsed(DOC);
    for (from, to) in refused {
        let after = DOC.replacen(from, to, 1);
        assert!(document.reparse(&after).is_none(), "{to}");
    }
    let with_alias = "---\nspec_version: \"1.0\"\nname: &n x\ndescription: *n\n---\n";
    assert!(parsed(with_alias)
        .reparse(&with_alias.replace("name: &n x", "name: &n xy"))
        .is_none());
    let duplicate = "---\nspec_version: \"1.0\"\nname: a\nname: b\n---\n";
    let unclean = Document::parse(duplicate).document.unwrap();
    assert!(unclean
        .reparse(&duplicate.replace("name: b", "name: bc"))
        .is_none());
}

#[test]
fn changed_ranges_fall_on_character_boundaries() {
    assert_eq!(
        changed_range("aéb", "aüb"),
        (Span::new(1, 3), Span::new(1, 3))
    );
    assert_eq!(
        changed_range("aaa", "aaaa"),
        (Span::new(3, 3), Span::new(3, 4))
    );
    assert_eq!(
        changed_range("same", "same"),
        (Span::new(4, 4), Span::new(4, 4))
    );
}

/// Every single-line scalar value of a document, by span.
fn scalars(node: &Node, text: &str, out: &mut Vec<Span>) {
    match &node.value {
        NodeValue::Map(entries) => entries.iter().for_each(|e| scalars(&e.value, text, out)),
        NodeValue::Seq(items) => items.iter().for_each(|i| scalars(i, text, out)),
        _ if !node.span().is_empty()
            && !text[node.span().start..node.span().end].contains('\n') =>
        {
            out.push(node.span())
        }
        _ => {}
    }
}

/// Clean documents of the fixture corpus and the examples (read once).
fn corpus() -> &'static [String] {
    static CORPUS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    CORPUS.get_or_init(read_corpus)
}

// The test reads the repository's documents as its corpus; core itself never reads files.
#[allow(clippy::disallowed_methods)]
fn read_corpus() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut texts = vec![DOC.to_owned()];
    for dir in [
        "examples",
        "examples/studio",
        "tests/fixtures/valid",
        "tests/fixtures/parser",
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths
            .into_iter()
            .filter(|p| p.to_string_lossy().ends_with(".logic.md"))
        {
            if let Ok(text) = std::fs::read_to_string(&path) {
                if Document::parse(&text).diagnostics.is_empty() {
                    texts.push(text);
                }
            }
        }
    }
    texts
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Random edits inside random values, with characters that matter to YAML: whenever the
    /// shortcut answers, it answers what a full parse does.
    #[test]
    fn the_shortcut_equals_a_full_parse(
        pick in any::<prop::sample::Index>(),
        which in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        removed in 0usize..4,
        inserted in "[a-zA-Z0-9 :#'\"\\\\.,\\[\\]{}é&*!|>\u{feff}\u{0}\u{1}\u{7f}\u{85}\u{a0}\u{2028}\u{fffe}-]{0,4}",
        with_json in any::<bool>(),
    ) {
        let texts = corpus();
        let text = &texts[pick.index(texts.len())];
        let document = parsed(text);
        let mut values = Vec::new();
        scalars(document.root(), text, &mut values);
        prop_assume!(!values.is_empty());
        let span = values[which.index(values.len())];
        let mut start = span.start + at.index(span.len() + 1);
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (start + removed).min(span.end);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let after = format!("{}{}{}", &text[..start], inserted, &text[end..]);
        if with_json {
            // The studio's documents have their JSON view made: the shortcut patches it.
            let _ = document.json();
        }
        let borrowed = document.reparse_edit(&after);
        if let Some((result, _)) = &borrowed {
            let full = Document::parse(&after);
            prop_assert!(full.diagnostics.is_empty(), "{:?}", full.diagnostics);
            let full = full.document.expect("parses");
            prop_assert_eq!(result, &full);
            prop_assert_eq!(result.json(), full.json());
        }
        // Handed over by value, the same document and edit; refused, the document comes back.
        let before = document.clone();
        match (document.reparse_edit_owned(&after), borrowed) {
            (Ok(owned), Some(borrowed)) => {
                prop_assert_eq!(&owned, &borrowed);
                prop_assert_eq!(owned.0.json(), borrowed.0.json());
            }
            (Err(back), None) => {
                prop_assert_eq!(&back, &before);
                prop_assert_eq!(back.json(), before.json());
            }
            (owned, borrowed) => prop_assert!(false, "{owned:?} vs {borrowed:?}"),
        }
    }

    /// The word-at-a-time comparison finds what comparing byte by byte finds, wherever the
    /// difference falls relative to word boundaries.
    #[test]
    fn changed_ranges_equal_a_byte_by_byte_comparison(
        common in "[aé ]{0,40}",
        old in "[abé]{0,12}",
        new in "[abé]{0,12}",
        tail in "[aé ]{0,40}",
    ) {
        let (before, after) = (format!("{common}{old}{tail}"), format!("{common}{new}{tail}"));
        prop_assert_eq!(changed_range(&before, &after), bytewise_changed_range(&before, &after));
    }
}

/// The comparison the word-at-a-time one replaced.
fn bytewise_changed_range(old: &str, new: &str) -> (Span, Span) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while !old.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let room = a.len().min(b.len()) - prefix;
    let mut suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    while !old.is_char_boundary(a.len() - suffix) || !new.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    (
        Span::new(prefix, a.len() - suffix),
        Span::new(prefix, b.len() - suffix),
    )
}

#[test]
fn most_plain_edits_take_the_shortcut() {
    // Not vacuous: over the corpus, letters typed into values are handled without a parse.
    let mut taken = 0;
    let mut tried = 0;
    for text in corpus() {
        let document = parsed(text);
        let mut values = Vec::new();
        scalars(document.root(), text, &mut values);
        for span in values {
            // Just before the closing quote of a quoted value, at the end of a plain one.
            let quoted = text[..span.end].ends_with(['\'', '"']);
            let at = if quoted { span.end - 1 } else { span.end };
            let after = format!("{}x{}", &text[..at], &text[at..]);
            tried += 1;
            if let Some(result) = document.reparse(&after) {
                taken += 1;
                assert_eq!(Some(result), Document::parse(&after).document);
            }
        }
    }
    assert!(taken * 2 > tried, "{taken} of {tried}");
}
