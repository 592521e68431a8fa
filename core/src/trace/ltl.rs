//! Linear temporal logic over finite traces, with past operators: the language of `logicmd
//! trace check --rule`.
//!
//! ```text
//! formula  := implies
//! implies  := or ('->' or)*                  right-associative
//! or       := and (('|' | '||') and)*
//! and      := since (('&' | '&&') since)*
//! since    := unary (('U' | 'S') unary)*     right-associative, binds tighter than & and |
//! unary    := ('!' | 'G' | '[]' | 'F' | '<>' | 'X' | 'Y' | 'P' | 'H') unary | primary
//! primary  := '(' formula ')' | 'true' | 'false' | atom      (atoms: see `atoms.rs`)
//! ```
//!
//! Semantics at event `i` of a trace of `n` events: `G φ` φ at every `j ≥ i`; `F φ` at some
//! `j ≥ i`; `X φ` at `i + 1`, false at the last event (strong next); `φ U ψ` ψ at some `j ≥ i`
//! and φ at every event from `i` to before `j`; past: `Y φ` at `i − 1` (false at the first),
//! `P φ` at some `j ≤ i`, `H φ` at every `j ≤ i`, `φ S ψ` ψ at some `j ≤ i` and φ at every
//! event after `j` up to `i`. A trace satisfies a formula when it holds at event 0.
//!
//! Evaluation is dynamic programming, one pass per subformula: future operators from the last
//! event backwards, past ones from the first forwards, so the cost is O(events × subformulas)
//! and nothing recurses over the trace.

use serde_json::Value;

use super::atoms::{self, Atom};
use super::view::View;

/// The longest formula text read.
pub const MAX_FORMULA_BYTES: usize = 8 * 1024;
/// The deepest nesting of a formula (operators inside operators).
pub const MAX_DEPTH: usize = 100;

/// Why a formula did not parse: where (a byte offset and a 1-based character column) and what
/// was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset in the formula text where the problem is.
    pub offset: usize,
    /// 1-based character column of `offset`.
    pub column: usize,
    /// What was found and what was expected.
    pub message: String,
}

impl ParseError {
    pub(crate) fn at(text: &str, offset: usize, message: &str) -> ParseError {
        let offset = offset.min(text.len());
        ParseError {
            offset,
            column: text[..offset].chars().count() + 1,
            message: message.to_owned(),
        }
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

/// An operator and its operands (indices of earlier nodes).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    True,
    False,
    Atom(Atom),
    Not(usize),
    And(usize, usize),
    Or(usize, usize),
    Implies(usize, usize),
    Next(usize),
    Previous(usize),
    Until(usize, usize),
    Since(usize, usize),
    Globally(usize),
    Finally(usize),
    Once(usize),
    Historically(usize),
}

#[derive(Debug, Clone, PartialEq)]
struct Node {
    op: Op,
    /// Byte span of the subformula in the text.
    start: usize,
    end: usize,
    depth: usize,
}

/// A parsed formula: its subformulas, operands before the operators that use them, the whole
/// formula last.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    text: String,
    nodes: Vec<Node>,
}

impl Formula {
    /// Parses a formula (grammar in the module docs); refused past [`MAX_FORMULA_BYTES`] or
    /// [`MAX_DEPTH`].
    pub fn parse(text: &str) -> Result<Formula, ParseError> {
        if text.len() > MAX_FORMULA_BYTES {
            return Err(ParseError::at(
                text,
                MAX_FORMULA_BYTES,
                &format!("the formula is longer than {MAX_FORMULA_BYTES} bytes"),
            ));
        }
        let mut parser = Parser {
            text,
            at: 0,
            nodes: Vec::new(),
            parens: 0,
        };
        parser.formula()?;
        parser.skip_spaces();
        if parser.at < text.len() {
            let found = text[parser.at..].chars().next().unwrap_or(' ');
            return Err(parser.error(&format!(
                "unexpected `{found}`: expected `&`, `|`, `->`, `U`, `S` or the end of the formula"
            )));
        }
        Ok(Formula {
            text: text.to_owned(),
            nodes: parser.nodes,
        })
    }

    /// The formula's text as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    fn root(&self) -> usize {
        self.nodes.len() - 1
    }

    /// The text of subformula `node`.
    fn show(&self, node: usize) -> &str {
        let node = &self.nodes[node];
        self.text[node.start..node.end].trim()
    }

    /// Whether the formula holds at each event (index = position in the trace).
    pub fn evaluate(&self, events: &[Value]) -> Vec<bool> {
        let mut values = self.values(&View::new(events));
        values.pop().unwrap_or_default()
    }

    /// Whether the trace satisfies the formula (it holds at event 0; on an empty trace, what
    /// the operators mean when no event is left: `G` and `H` hold, atoms, `F`, `P`, `X`, `Y`,
    /// `U` and `S` do not).
    pub fn holds(&self, events: &[Value]) -> bool {
        self.first_failure(events).is_none()
    }

    /// Where the trace fails the formula and why: the event that makes it false (for a `G`,
    /// the first event where its operand fails; for an `F` that never comes true, the last
    /// event) and a sentence naming the subformula. `None` when the trace satisfies it.
    pub fn first_failure(&self, events: &[Value]) -> Option<(usize, String)> {
        self.first_failure_in(&View::new(events))
    }

    pub(crate) fn first_failure_in(&self, view: &View) -> Option<(usize, String)> {
        if view.len() == 0 {
            return (!self.on_empty(self.root()))
                .then(|| (0, "the trace has no events".to_owned()));
        }
        let values = self.values(view);
        if values[self.root()][0] {
            return None;
        }
        Some(self.blame(&values, self.root(), 0))
    }

    /// Truth of every subformula at every event.
    fn values(&self, view: &View) -> Vec<Vec<bool>> {
        let n = view.len();
        let mut values: Vec<Vec<bool>> = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            let v = |i: usize| -> &Vec<bool> { &values[i] };
            let column: Vec<bool> = match &node.op {
                Op::True => vec![true; n],
                Op::False => vec![false; n],
                // Names compare as numbers; fields are read only where the name matches.
                Op::Atom(atom) => match view.id(&atom.event) {
                    None => vec![false; n],
                    Some(id) => (0..n)
                        .map(|i| view.ids[i] == id && atom.fields_hold(&view.events[i]))
                        .collect(),
                },
                Op::Not(a) => v(*a).iter().map(|x| !x).collect(),
                Op::And(a, b) => zip(v(*a), v(*b), |x, y| x && y),
                Op::Or(a, b) => zip(v(*a), v(*b), |x, y| x || y),
                Op::Implies(a, b) => zip(v(*a), v(*b), |x, y| !x || y),
                Op::Next(a) => {
                    let a = v(*a);
                    (0..n).map(|i| i + 1 < n && a[i + 1]).collect()
                }
                Op::Previous(a) => {
                    let a = v(*a);
                    (0..n).map(|i| i > 0 && a[i - 1]).collect()
                }
                Op::Globally(a) => backward(v(*a), v(*a), |now, _, later| now && later, true),
                Op::Finally(a) => backward(v(*a), v(*a), |now, _, later| now || later, false),
                Op::Until(a, b) => backward(v(*b), v(*a), |b, a, later| b || (a && later), false),
                Op::Historically(a) => forward(v(*a), v(*a), |now, _, before| now && before, true),
                Op::Once(a) => forward(v(*a), v(*a), |now, _, before| now || before, false),
                Op::Since(a, b) => forward(v(*b), v(*a), |b, a, before| b || (a && before), false),
            };
            values.push(column);
        }
        values
    }

    /// The value of `node` on an empty trace.
    fn on_empty(&self, node: usize) -> bool {
        let mut values: Vec<bool> = Vec::with_capacity(node + 1);
        for node in &self.nodes[..=node] {
            let value = match node.op {
                Op::True | Op::Globally(_) | Op::Historically(_) => true,
                Op::Not(a) => !values[a],
                Op::And(a, b) => values[a] && values[b],
                Op::Or(a, b) => values[a] || values[b],
                Op::Implies(a, b) => !values[a] || values[b],
                _ => false,
            };
            values.push(value);
        }
        values[node]
    }

    /// Why `node`, false at `i`, is false there: the event to point at and a sentence.
    /// Recurses over the formula (bounded by [`MAX_DEPTH`]), scans the trace iteratively.
    fn blame(&self, values: &[Vec<bool>], node: usize, i: usize) -> (usize, String) {
        let n = values[node].len();
        let last = n - 1;
        match &self.nodes[node].op {
            Op::True | Op::False => (i, "`false` never holds".to_owned()),
            Op::Atom(atom) => (i, format!("event {i} is not `{atom}`")),
            Op::Not(a) => (i, format!("`{}` holds at event {i}", self.show(*a))),
            Op::And(a, b) => {
                let failing = if values[*a][i] { *b } else { *a };
                self.blame(values, failing, i)
            }
            Op::Or(a, b) => (
                i,
                format!(
                    "neither `{}` nor `{}` holds at event {i}",
                    self.show(*a),
                    self.show(*b)
                ),
            ),
            Op::Implies(a, b) => {
                let (at, why) = self.blame(values, *b, i);
                (
                    at,
                    format!("`{}` holds at event {i}, but {why}", self.show(*a)),
                )
            }
            Op::Next(a) if i == last => (
                i,
                format!(
                    "event {i} is the last, so `X {}` cannot hold",
                    self.show(*a)
                ),
            ),
            Op::Next(a) => self.blame(values, *a, i + 1),
            Op::Previous(a) if i == 0 => (
                0,
                format!("event 0 is the first, so `Y {}` cannot hold", self.show(*a)),
            ),
            Op::Previous(a) => self.blame(values, *a, i - 1),
            Op::Globally(a) => match (i..n).find(|&j| !values[*a][j]) {
                Some(j) => self.blame(values, *a, j),
                None => (i, String::new()),
            },
            Op::Historically(a) => match (0..=i).rev().find(|&j| !values[*a][j]) {
                Some(j) => self.blame(values, *a, j),
                None => (i, String::new()),
            },
            Op::Finally(a) => (
                last,
                format!(
                    "`{}` holds at no event from event {i} to the end of the trace",
                    self.show(*a)
                ),
            ),
            Op::Once(a) => (
                i,
                format!("`{}` holds at no event up to event {i}", self.show(*a)),
            ),
            Op::Until(a, b) => match (i..n).find(|&j| !values[*a][j]) {
                // ψ is false everywhere before that event (else the formula would hold).
                Some(j) => {
                    let (at, why) = self.blame(values, *a, j);
                    (
                        at,
                        format!("`{}` has not held yet and {why}", self.show(*b)),
                    )
                }
                None => (
                    last,
                    format!(
                        "`{}` holds at no event from event {i} to the end of the trace",
                        self.show(*b)
                    ),
                ),
            },
            Op::Since(a, b) => match (0..=i).rev().find(|&j| !values[*a][j]) {
                Some(j) => {
                    let (at, why) = self.blame(values, *a, j);
                    (
                        at,
                        format!("`{}` has not held since and {why}", self.show(*b)),
                    )
                }
                None => (
                    i,
                    format!("`{}` holds at no event up to event {i}", self.show(*b)),
                ),
            },
        }
    }
}

fn zip(a: &[bool], b: &[bool], f: impl Fn(bool, bool) -> bool) -> Vec<bool> {
    a.iter().zip(b).map(|(x, y)| f(*x, *y)).collect()
}

/// `out[i] = step(now[i], with[i], out[i + 1])`, `out[n] = after_end`: future operators.
fn backward(
    now: &[bool],
    with: &[bool],
    step: impl Fn(bool, bool, bool) -> bool,
    after_end: bool,
) -> Vec<bool> {
    let mut out = vec![false; now.len()];
    let mut later = after_end;
    for i in (0..now.len()).rev() {
        later = step(now[i], with[i], later);
        out[i] = later;
    }
    out
}

/// `out[i] = step(now[i], with[i], out[i − 1])`, `out[−1] = before_start`: past operators.
fn forward(
    now: &[bool],
    with: &[bool],
    step: impl Fn(bool, bool, bool) -> bool,
    before_start: bool,
) -> Vec<bool> {
    let mut out = vec![false; now.len()];
    let mut before = before_start;
    for i in 0..now.len() {
        before = step(now[i], with[i], before);
        out[i] = before;
    }
    out
}

/// Builds an operator node from its operand(s).
type Unary = fn(usize) -> Op;
type Binary = fn(usize, usize) -> Op;

struct Parser<'a> {
    text: &'a str,
    at: usize,
    nodes: Vec<Node>,
    parens: usize,
}

/// Binary operators by precedence level, loosest first.
#[derive(Clone, Copy)]
enum Level {
    Implies,
    Or,
    And,
    Temporal,
}

impl<'a> Parser<'a> {
    fn error(&self, message: &str) -> ParseError {
        ParseError::at(self.text, self.at, message)
    }

    fn skip_spaces(&mut self) {
        let rest = &self.text[self.at..];
        self.at += rest
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(rest.len());
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// The name at the cursor (after spaces), without consuming it.
    fn peek_name(&mut self) -> Option<&'a str> {
        self.skip_spaces();
        let end = atoms::name_end(self.text, self.at)?;
        Some(&self.text[self.at..end])
    }

    fn push(&mut self, op: Op, start: usize, end: usize) -> Result<usize, ParseError> {
        let depth = 1 + match &op {
            Op::True | Op::False | Op::Atom(_) => 0,
            Op::Not(a)
            | Op::Next(a)
            | Op::Previous(a)
            | Op::Globally(a)
            | Op::Finally(a)
            | Op::Once(a)
            | Op::Historically(a) => self.nodes[*a].depth,
            Op::And(a, b)
            | Op::Or(a, b)
            | Op::Implies(a, b)
            | Op::Until(a, b)
            | Op::Since(a, b) => self.nodes[*a].depth.max(self.nodes[*b].depth),
        };
        if depth > MAX_DEPTH {
            return Err(ParseError::at(
                self.text,
                start,
                &format!("the formula nests more than {MAX_DEPTH} operators deep"),
            ));
        }
        self.nodes.push(Node {
            op,
            start,
            end,
            depth,
        });
        Ok(self.nodes.len() - 1)
    }

    fn formula(&mut self) -> Result<usize, ParseError> {
        self.binary(Level::Implies)
    }

    /// The operator of `level` at the cursor, consumed: its constructor.
    fn eat_operator(&mut self, level: Level) -> Option<Binary> {
        self.skip_spaces();
        let rest = self.rest();
        let (width, op): (usize, Binary) = match level {
            Level::Implies if rest.starts_with("->") => (2, Op::Implies),
            Level::Or if rest.starts_with("||") => (2, Op::Or),
            Level::Or if rest.starts_with('|') => (1, Op::Or),
            Level::And if rest.starts_with("&&") => (2, Op::And),
            Level::And if rest.starts_with('&') => (1, Op::And),
            Level::Temporal => match self.peek_name() {
                Some("U") => (1, Op::Until),
                Some("S") => (1, Op::Since),
                _ => return None,
            },
            _ => return None,
        };
        self.at += width;
        Some(op)
    }

    fn operand(&mut self, level: Level) -> Result<usize, ParseError> {
        match level {
            Level::Implies => self.binary(Level::Or),
            Level::Or => self.binary(Level::And),
            Level::And => self.binary(Level::Temporal),
            Level::Temporal => self.unary(),
        }
    }

    /// A chain of operators of one level, folded left (`&`, `|`) or right (`->`, `U`, `S`).
    fn binary(&mut self, level: Level) -> Result<usize, ParseError> {
        let mut operands = vec![self.operand(level)?];
        let mut operators = Vec::new();
        while let Some(op) = self.eat_operator(level) {
            operators.push(op);
            operands.push(self.operand(level)?);
        }
        let right_associative = matches!(level, Level::Implies | Level::Temporal);
        if right_associative {
            let mut right = operands.pop().unwrap_or_default();
            while let (Some(left), Some(op)) = (operands.pop(), operators.pop()) {
                let (start, end) = (self.nodes[left].start, self.nodes[right].end);
                right = self.push(op(left, right), start, end)?;
            }
            Ok(right)
        } else {
            let mut operands = operands.into_iter();
            let mut left = operands.next().unwrap_or_default();
            for (op, right) in operators.into_iter().zip(operands) {
                let (start, end) = (self.nodes[left].start, self.nodes[right].end);
                left = self.push(op(left, right), start, end)?;
            }
            Ok(left)
        }
    }

    /// Prefix operators (read in a loop, applied innermost first), then a primary.
    fn unary(&mut self) -> Result<usize, ParseError> {
        let mut prefixes: Vec<(usize, Unary)> = Vec::new();
        loop {
            self.skip_spaces();
            let start = self.at;
            let rest = self.rest();
            let (width, op): (usize, Unary) = if rest.starts_with('!') {
                (1, Op::Not)
            } else if rest.starts_with("[]") {
                (2, Op::Globally)
            } else if rest.starts_with("<>") {
                (2, Op::Finally)
            } else {
                match self.peek_name() {
                    Some("G") => (1, Op::Globally),
                    Some("F") => (1, Op::Finally),
                    Some("X") => (1, Op::Next),
                    Some("Y") => (1, Op::Previous),
                    Some("P") => (1, Op::Once),
                    Some("H") => (1, Op::Historically),
                    _ => break,
                }
            };
            self.at += width;
            prefixes.push((start, op));
        }
        let mut node = self.primary()?;
        while let Some((start, op)) = prefixes.pop() {
            let end = self.nodes[node].end;
            node = self.push(op(node), start, end)?;
        }
        Ok(node)
    }

    fn primary(&mut self) -> Result<usize, ParseError> {
        self.skip_spaces();
        let start = self.at;
        if self.rest().starts_with('(') {
            if self.parens >= MAX_DEPTH {
                return Err(self.error(&format!(
                    "the formula nests more than {MAX_DEPTH} parentheses deep"
                )));
            }
            self.parens += 1;
            self.at += 1;
            let inner = self.formula()?;
            self.skip_spaces();
            if !self.rest().starts_with(')') {
                return Err(self.error("expected `)` to close the `(` before it"));
            }
            self.at += 1;
            self.parens -= 1;
            // The parenthesised span, so messages show what was written.
            self.nodes[inner].start = start;
            self.nodes[inner].end = self.at;
            return Ok(inner);
        }
        let Some(name) = self.peek_name() else {
            return Err(self.error(match self.rest().chars().next() {
                None => "expected a formula, found the end",
                Some(_) => "expected a formula: an event name, `true`, `false`, `(`, `!`, `G`, `F`, `X`, `Y`, `P` or `H`",
            }));
        };
        if matches!(name, "U" | "S") {
            return Err(self.error(&format!(
                "`{name}` stands between two formulas: expected a formula before it"
            )));
        }
        self.at += name.len();
        let op = match name {
            "true" => Op::True,
            "false" => Op::False,
            _ => {
                let name_end = self.at;
                self.skip_spaces();
                let tests = if self.rest().starts_with('(') {
                    let (tests, end) = atoms::parse_tests(self.text, self.at)?;
                    self.at = end;
                    tests
                } else {
                    self.at = name_end;
                    Vec::new()
                };
                Op::Atom(Atom {
                    event: name.to_owned(),
                    tests,
                })
            }
        };
        self.push(op, start, self.at)
    }
}

#[cfg(test)]
mod tests;
