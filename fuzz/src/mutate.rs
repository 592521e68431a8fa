//! Inputs for the fuzzer: a fast deterministic generator, and mutations of real documents that
//! stay close enough to YAML and LOGIC.md to reach deep into the parser and what follows it.

/// xorshift64*: fast, seedable, good enough to pick mutations.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Pieces of YAML, LOGIC.md and expression syntax that mutations insert.
const TOKENS: &[&str] = &[
    "---",
    "...",
    ": ",
    "- ",
    "? ",
    "{",
    "}",
    "[",
    "]",
    ",",
    "&a ",
    "*a",
    "&b ",
    "*b",
    "!!str ",
    "!!int ",
    "!tag ",
    "#",
    " # c",
    "\"",
    "'",
    "|",
    "|-",
    ">",
    ">+",
    "\t",
    "\n",
    "\r\n",
    "  ",
    "    ",
    "{{",
    "}}",
    "{{ output.x }}",
    "\\",
    "\\u00e9",
    "\u{feff}",
    "\u{0}",
    "é",
    "💥",
    "~",
    "null",
    "true",
    "yes",
    "0x1F",
    "0o17",
    "1e400",
    ".inf",
    ".nan",
    "-",
    "<<: *a",
    "needs: [",
    "steps:\n  ",
    "branches:\n      - ",
    "then: ",
    "if: \"{{ ",
    " }}\"",
    "spec_version: \"1.0\"",
    "name: x",
    "nodes:\n  - id: ",
    "type: gate",
    "== = ",
    "&&",
    "||",
    "??",
    "(",
    ")",
    ".length",
    "steps.",
    "input.",
    "'\\''",
    "\"\\\"\"",
    "%YAML 1.2\n",
    "%TAG ! tag:x\n",
    "@",
    "`",
];

/// One mutation of `text` (valid UTF-8 in, valid UTF-8 out).
pub fn mutate(rng: &mut Rng, text: &str, corpus: &[String]) -> String {
    let mut out = text.to_owned();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        out = match rng.below(9) {
            0 => {
                let token = rng_token(rng);
                insert(rng, &out, token)
            }
            1 => delete(rng, &out),
            2 => duplicate(rng, &out),
            3 => lines(rng, &out),
            4 => indent(rng, &out),
            5 => {
                let other = rng.pick(corpus).clone();
                splice(rng, &out, &other)
            }
            6 => replace_char(rng, &out),
            7 => {
                let piece = random_text(rng);
                insert(rng, &out, &piece)
            }
            _ => truncate(rng, &out),
        };
        if out.len() > 1 << 20 {
            out.truncate(boundary(&out, 1 << 20));
        }
    }
    out
}

fn rng_token(rng: &mut Rng) -> &'static str {
    TOKENS[rng.below(TOKENS.len())]
}

fn boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn position(rng: &mut Rng, text: &str) -> usize {
    boundary(text, rng.below(text.len() + 1))
}

fn insert(rng: &mut Rng, text: &str, piece: &str) -> String {
    let at = position(rng, text);
    format!("{}{piece}{}", &text[..at], &text[at..])
}

fn delete(rng: &mut Rng, text: &str) -> String {
    let start = position(rng, text);
    let end = boundary(text, start + rng.below(32));
    format!("{}{}", &text[..start], &text[end.max(start)..])
}

fn duplicate(rng: &mut Rng, text: &str) -> String {
    let start = position(rng, text);
    let end = boundary(text, start + rng.below(256));
    let piece = &text[start..end.max(start)];
    let at = position(rng, text);
    format!("{}{piece}{}", &text[..at], &text[at..])
}

fn lines(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.is_empty() {
        return text.to_owned();
    }
    let i = rng.below(lines.len());
    let j = rng.below(lines.len());
    match rng.below(3) {
        0 => lines.swap(i, j),
        1 => {
            lines.remove(i);
        }
        _ => {
            let line = lines[i];
            lines.insert(j, line);
        }
    }
    lines.join("\n")
}

fn indent(rng: &mut Rng, text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let i = rng.below(lines.len());
    let spaces = " ".repeat(rng.below(7));
    lines
        .iter()
        .enumerate()
        .map(|(n, line)| {
            if n == i {
                format!("{spaces}{}", line.trim_start())
            } else {
                (*line).to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn splice(rng: &mut Rng, text: &str, other: &str) -> String {
    let at = position(rng, text);
    let start = position(rng, other);
    let end = boundary(other, start + rng.below(400));
    format!(
        "{}{}{}",
        &text[..at],
        &other[start..end.max(start)],
        &text[at..]
    )
}

fn replace_char(rng: &mut Rng, text: &str) -> String {
    let at = position(rng, text);
    let next = text[at..].chars().next().map_or(0, char::len_utf8);
    let replacement = *rng.pick(&[
        ":", "-", " ", "\n", "\"", "'", "#", "{", "[", "x", "0", "\t",
    ]);
    format!("{}{replacement}{}", &text[..at], &text[at + next..])
}

fn truncate(rng: &mut Rng, text: &str) -> String {
    text[..position(rng, text)].to_owned()
}

/// A short random text of tokens and characters.
pub fn random_text(rng: &mut Rng) -> String {
    let mut out = String::new();
    for _ in 0..rng.below(12) {
        if rng.chance(2) {
            out.push_str(rng_token(rng));
        } else {
            out.push(char::from_u32(32 + rng.below(95) as u32).unwrap_or('x'));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_are_deterministic_for_a_seed_and_stay_utf8() {
        let corpus = vec!["---\nname: é💥\n---\n".to_owned(), "a: [1, 2]\n".to_owned()];
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..200)
                .map(|i| mutate(&mut rng, &corpus[i % 2], &corpus))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
    }
}
