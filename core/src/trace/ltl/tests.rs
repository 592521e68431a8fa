use proptest::prelude::*;
use serde_json::{json, Value};

use super::*;

/// A trace of events named by the letters of `names` (`"abca"`), each with `x` = its index.
fn trace(names: &str) -> Vec<Value> {
    names
        .chars()
        .enumerate()
        .map(|(i, c)| json!({"event": c.to_string(), "x": i}))
        .collect()
}

/// The formula's truth at every event, as a string of `1` and `0`.
fn truth(formula: &str, names: &str) -> String {
    let events = trace(names);
    let parsed = Formula::parse(formula).unwrap_or_else(|e| panic!("{formula}: {e}"));
    parsed
        .evaluate(&events)
        .iter()
        .map(|&b| if b { '1' } else { '0' })
        .collect()
}

fn failure(formula: &str, names: &str) -> Option<(usize, String)> {
    let events = trace(names);
    Formula::parse(formula).unwrap().first_failure(&events)
}

#[test]
fn future_operators_at_every_event_including_the_last() {
    assert_eq!(truth("a", "abab"), "1010");
    assert_eq!(
        truth("X a", "abab"),
        "0100",
        "strong next: false at the last event"
    );
    assert_eq!(truth("X true", "ab"), "10");
    assert_eq!(truth("G a", "aaba"), "0001");
    assert_eq!(truth("[] a", "aaba"), "0001");
    assert_eq!(truth("F b", "abaa"), "1100");
    assert_eq!(truth("<> b", "abaa"), "1100");
    assert_eq!(truth("a U b", "aabc"), "1110");
    assert_eq!(truth("a U b", "acb"), "001", "a breaks before b comes");
    assert_eq!(truth("a U b", "aaa"), "000", "b never comes: strong until");
    assert_eq!(truth("G F a", "abab"), "0000");
    assert_eq!(truth("G F a", "abba"), "1111");
}

#[test]
fn past_operators_at_every_event_including_the_first() {
    assert_eq!(truth("Y a", "abab"), "0101", "false at the first event");
    assert_eq!(truth("P b", "aaba"), "0011");
    assert_eq!(truth("H a", "aaba"), "1100");
    assert_eq!(truth("a S b", "baac"), "1110");
    assert_eq!(truth("a S b", "aab"), "001");
    assert_eq!(truth("H P a", "ab"), "11");
}

#[test]
fn boolean_connectives_and_their_precedence() {
    assert_eq!(truth("!a", "ab"), "01");
    assert_eq!(truth("a | b", "abc"), "110");
    assert_eq!(truth("a || b", "abc"), "110");
    assert_eq!(truth("a & X b", "abc"), "100");
    assert_eq!(truth("a && X b", "abc"), "100");
    assert_eq!(truth("a -> X b", "abac"), "1101");
    // `->` is right-associative: a -> (b -> c).
    assert_eq!(truth("a -> b -> c", "abc"), "111");
    // `U` binds tighter than `&`: (a U b) & c never holds where c is.
    assert_eq!(truth("a U b & c", "abc"), "000");
    assert_eq!(truth("a U (b & c)", "abc"), "000");
    // `!` binds tighter than `U`.
    assert_eq!(truth("!a U b", "cba"), "110");
    assert_eq!(truth("true", "a"), "1");
    assert_eq!(truth("false", "a"), "0");
}

#[test]
fn atoms_read_fields() {
    assert_eq!(truth("a(x=2)", "aaa"), "001");
    assert_eq!(truth("a(x >= 1)", "aab"), "010");
    assert_eq!(truth("G(b -> P a(x=0))", "abb"), "111");
    assert_eq!(truth("G(b -> P a(x=1))", "abb"), "000");
}

#[test]
fn an_empty_trace_satisfies_only_what_needs_no_event() {
    for (formula, holds) in [
        ("G a", true),
        ("H a", true),
        ("!a", true),
        ("a", false),
        ("F a", false),
        ("X true", false),
        ("Y true", false),
        ("P true", false),
        ("a U b", false),
        ("a S b", false),
        ("G a & F a", false),
    ] {
        assert_eq!(failure(formula, "").is_none(), holds, "{formula}");
    }
    assert_eq!(
        failure("F a", ""),
        Some((0, "the trace has no events".into()))
    );
}

#[test]
fn a_violation_points_at_the_event_that_breaks_the_formula() {
    assert_eq!(failure("G(b -> P a)", "cab"), None);
    assert_eq!(
        failure("G(b -> P a)", "cbab"),
        Some((
            1,
            "`b` holds at event 1, but `a` holds at no event up to event 1".into()
        ))
    );
    assert_eq!(
        failure("F c", "aab"),
        Some((
            2,
            "`c` holds at no event from event 0 to the end of the trace".into()
        ))
    );
    assert_eq!(
        failure("G !c", "abcc"),
        Some((2, "`c` holds at event 2".into()))
    );
    assert_eq!(
        failure("G(a -> X b)", "aba"),
        Some((
            2,
            "`a` holds at event 2, but event 2 is the last, so `X b` cannot hold".into()
        ))
    );
    assert_eq!(
        failure("a U b", "aac"),
        Some((2, "`b` has not held yet and event 2 is not `a`".into()))
    );
    assert_eq!(
        failure("a U b", "aaa"),
        Some((
            2,
            "`b` holds at no event from event 0 to the end of the trace".into()
        ))
    );
    assert_eq!(
        failure("a & b", "a"),
        Some((0, "event 0 is not `b`".into()))
    );
}

#[test]
fn since_and_historically_blame_the_nearest_earlier_event() {
    assert_eq!(
        failure("G(c -> Y(a S b))", "bacac"),
        Some((
            2,
            "`c` holds at event 4, but `b` has not held since and event 2 is not `a`".into()
        ))
    );
    assert_eq!(
        failure("G(c -> Y H a)", "aacbac"),
        Some((3, "`c` holds at event 5, but event 3 is not `a`".into()))
    );
}

#[test]
fn parse_errors_name_the_column_and_what_was_expected() {
    let error = |text: &str| Formula::parse(text).unwrap_err().to_string();
    assert_eq!(error(""), "column 1: expected a formula, found the end");
    assert_eq!(error("G"), "column 2: expected a formula, found the end");
    assert_eq!(error("a &"), "column 4: expected a formula, found the end");
    assert_eq!(
        error("G(a"),
        "column 4: expected `)` to close the `(` before it"
    );
    assert_eq!(
        error("a b"),
        "column 3: unexpected `b`: expected `&`, `|`, `->`, `U`, `S` or the end of the formula"
    );
    assert_eq!(
        error("U b"),
        "column 1: `U` stands between two formulas: expected a formula before it"
    );
    assert_eq!(
        error("G(é -> a)"),
        "column 3: expected a formula: an event name, `true`, `false`, `(`, `!`, `G`, `F`, `X`, `Y`, `P` or `H`"
    );
    assert_eq!(
        error("é & node_finished(status=)"),
        "column 1: expected a formula: an event name, `true`, `false`, `(`, `!`, `G`, `F`, `X`, `Y`, `P` or `H`"
    );
    assert_eq!(
        error("G(node_finished(status=) -> a)"),
        "column 24: expected a value: a JSON literal (\"text\", 3, true, false, null, [..], {..}) or a bare word"
    );
    assert_eq!(
        error("a -> "),
        "column 6: expected a formula, found the end"
    );
    assert_eq!(
        error("a ) b"),
        "column 3: unexpected `)`: expected `&`, `|`, `->`, `U`, `S` or the end of the formula"
    );
}

#[test]
fn formulas_are_bounded_in_length_and_depth() {
    let long = "a & ".repeat(MAX_FORMULA_BYTES / 4) + "a";
    assert_eq!(
        Formula::parse(&long).unwrap_err().message,
        format!("the formula is longer than {MAX_FORMULA_BYTES} bytes")
    );
    let parens = "(".repeat(MAX_DEPTH + 1) + "a" + &")".repeat(MAX_DEPTH + 1);
    assert_eq!(
        Formula::parse(&parens).unwrap_err().to_string(),
        format!(
            "column {}: the formula nests more than {MAX_DEPTH} parentheses deep",
            MAX_DEPTH + 1
        )
    );
    let nots = "!".repeat(MAX_DEPTH) + "a";
    assert_eq!(
        Formula::parse(&nots).unwrap_err().to_string(),
        format!("column 1: the formula nests more than {MAX_DEPTH} operators deep")
    );
    let implications = "a -> ".repeat(MAX_DEPTH) + "a";
    assert!(Formula::parse(&implications)
        .unwrap_err()
        .message
        .contains("operators deep"));
    assert!(Formula::parse(&("!".repeat(MAX_DEPTH - 1) + "a")).is_ok());
}

// ---- The evaluator agrees with a naive recursive reading of the semantics. ----

#[derive(Debug, Clone)]
enum Ast {
    True,
    False,
    Atom(usize),
    Not(Box<Ast>),
    And(Box<Ast>, Box<Ast>),
    Or(Box<Ast>, Box<Ast>),
    Implies(Box<Ast>, Box<Ast>),
    Next(Box<Ast>),
    Previous(Box<Ast>),
    Globally(Box<Ast>),
    Finally(Box<Ast>),
    Once(Box<Ast>),
    Historically(Box<Ast>),
    Until(Box<Ast>, Box<Ast>),
    Since(Box<Ast>, Box<Ast>),
}

const ATOMS: [&str; 4] = ["a", "b(x=1)", "c(x!=0)", "a(x>=1)"];

fn atom_holds(atom: usize, event: &(char, u8)) -> bool {
    match atom {
        0 => event.0 == 'a',
        1 => event.0 == 'b' && event.1 == 1,
        2 => event.0 == 'c' && event.1 != 0,
        _ => event.0 == 'a' && event.1 >= 1,
    }
}

/// The semantics as written in the module documentation, by quantifying over positions.
fn naive(ast: &Ast, trace: &[(char, u8)], i: usize) -> bool {
    let n = trace.len();
    match ast {
        Ast::True => true,
        Ast::False => false,
        Ast::Atom(a) => i < n && atom_holds(*a, &trace[i]),
        Ast::Not(a) => !naive(a, trace, i),
        Ast::And(a, b) => naive(a, trace, i) && naive(b, trace, i),
        Ast::Or(a, b) => naive(a, trace, i) || naive(b, trace, i),
        Ast::Implies(a, b) => !naive(a, trace, i) || naive(b, trace, i),
        Ast::Next(a) => i + 1 < n && naive(a, trace, i + 1),
        Ast::Previous(a) => i >= 1 && i - 1 < n && naive(a, trace, i - 1),
        Ast::Globally(a) => (i..n).all(|j| naive(a, trace, j)),
        Ast::Finally(a) => (i..n).any(|j| naive(a, trace, j)),
        Ast::Once(a) => (0..=i).filter(|&j| j < n).any(|j| naive(a, trace, j)),
        Ast::Historically(a) => (0..=i).filter(|&j| j < n).all(|j| naive(a, trace, j)),
        Ast::Until(a, b) => {
            (i..n).any(|j| naive(b, trace, j) && (i..j).all(|k| naive(a, trace, k)))
        }
        Ast::Since(a, b) => (0..=i)
            .filter(|&j| j < n)
            .any(|j| naive(b, trace, j) && (j + 1..=i).all(|k| naive(a, trace, k))),
    }
}

/// Writes the formula, fully parenthesised, with either spelling of each operator.
fn render(ast: &Ast, alt: bool) -> String {
    let un = |op: &str, a: &Ast| format!("{op}({})", render(a, !alt));
    let bin =
        |op: &str, a: &Ast, b: &Ast| format!("({}) {op} ({})", render(a, !alt), render(b, alt));
    match ast {
        Ast::True => "true".into(),
        Ast::False => "false".into(),
        Ast::Atom(a) => ATOMS[*a].into(),
        Ast::Not(a) => un("!", a),
        Ast::And(a, b) => bin(if alt { "&&" } else { "&" }, a, b),
        Ast::Or(a, b) => bin(if alt { "||" } else { "|" }, a, b),
        Ast::Implies(a, b) => bin("->", a, b),
        Ast::Next(a) => un("X", a),
        Ast::Previous(a) => un("Y", a),
        Ast::Globally(a) => un(if alt { "[]" } else { "G" }, a),
        Ast::Finally(a) => un(if alt { "<>" } else { "F" }, a),
        Ast::Once(a) => un("P", a),
        Ast::Historically(a) => un("H", a),
        Ast::Until(a, b) => bin("U", a, b),
        Ast::Since(a, b) => bin("S", a, b),
    }
}

fn ast() -> impl Strategy<Value = Ast> {
    let leaf = prop_oneof![
        Just(Ast::True),
        Just(Ast::False),
        (0..ATOMS.len()).prop_map(Ast::Atom),
    ];
    leaf.prop_recursive(5, 40, 2, |inner| {
        let b = |x: Ast| Box::new(x);
        prop_oneof![
            inner.clone().prop_map(move |a| Ast::Not(b(a))),
            inner.clone().prop_map(move |a| Ast::Next(b(a))),
            inner.clone().prop_map(move |a| Ast::Previous(b(a))),
            inner.clone().prop_map(move |a| Ast::Globally(b(a))),
            inner.clone().prop_map(move |a| Ast::Finally(b(a))),
            inner.clone().prop_map(move |a| Ast::Once(b(a))),
            inner.clone().prop_map(move |a| Ast::Historically(b(a))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| Ast::And(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| Ast::Or(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| Ast::Implies(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| Ast::Until(b(x), b(y))),
            (inner.clone(), inner).prop_map(move |(x, y)| Ast::Since(b(x), b(y))),
        ]
    })
}

fn short_trace() -> impl Strategy<Value = Vec<(char, u8)>> {
    proptest::collection::vec((prop_oneof![Just('a'), Just('b'), Just('c')], 0u8..3), 0..9)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn the_evaluator_agrees_with_the_naive_semantics(ast in ast(), trace in short_trace(), alt in any::<bool>()) {
        let text = render(&ast, alt);
        let formula = Formula::parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        let events: Vec<Value> = trace
            .iter()
            .map(|(name, x)| json!({"event": name.to_string(), "x": x}))
            .collect();
        let expected: Vec<bool> = (0..trace.len()).map(|i| naive(&ast, &trace, i)).collect();
        prop_assert_eq!(formula.evaluate(&events), expected, "{}", text);
        let failure = formula.first_failure(&events);
        prop_assert_eq!(failure.is_none(), naive(&ast, &trace, 0), "{}", text);
        if let Some((index, message)) = failure {
            prop_assert!(index < trace.len().max(1), "{} blames event {}", text, index);
            prop_assert!(!message.is_empty());
        }
    }
}
