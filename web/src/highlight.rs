//! Line-by-line highlighting of YAML for the source pane: keys, strings, comments and `{{ }}`
//! expressions. Produces text segments; the view renders them as text nodes, never as HTML.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    Plain,
    Key,
    String,
    Comment,
    Expression,
    Punctuation,
}

impl Token {
    pub fn class(self) -> &'static str {
        match self {
            Token::Plain => "",
            Token::Key => "tok-key",
            Token::String => "tok-str",
            Token::Comment => "tok-com",
            Token::Expression => "tok-expr",
            Token::Punctuation => "tok-punct",
        }
    }
}

/// The segments of one line, in order; their texts concatenate to the line.
pub fn highlight_line(line: &str) -> Vec<(Token, String)> {
    let mut out: Vec<(Token, String)> = Vec::new();
    let push = |out: &mut Vec<(Token, String)>, token: Token, text: &str| {
        if text.is_empty() {
            return;
        }
        match out.last_mut() {
            Some((last, buffer)) if *last == token => buffer.push_str(text),
            _ => out.push((token, text.to_owned())),
        }
    };
    let key_end = key_length(line);
    if key_end > 0 {
        let (key, _) = line.split_at(key_end);
        let indent = key.len() - key.trim_start_matches([' ', '-']).len();
        push(&mut out, Token::Punctuation, &key[..indent]);
        push(&mut out, Token::Key, &key[indent..key.len() - 1]);
        push(&mut out, Token::Punctuation, ":");
    }
    let rest = &line[key_end..];
    let mut chars = rest.char_indices().peekable();
    let mut plain_start = 0;
    while let Some((i, c)) = chars.next() {
        let at_word_start = i == 0 || rest[..i].ends_with([' ', '\t', '[', '{', ',']);
        let token_end = match c {
            '#' if at_word_start => Some((Token::Comment, rest.len())),
            '"' | '\'' => Some((Token::String, string_end(rest, i, c))),
            '{' if rest[i..].starts_with("{{") => Some((
                Token::Expression,
                rest[i..].find("}}").map_or(rest.len(), |e| i + e + 2),
            )),
            _ => None,
        };
        if let Some((token, end)) = token_end {
            push(&mut out, Token::Plain, &rest[plain_start..i]);
            if token == Token::String {
                push_string(&mut out, &rest[i..end]);
            } else {
                push(&mut out, token, &rest[i..end]);
            }
            plain_start = end;
            while chars.peek().is_some_and(|(j, _)| *j < end) {
                chars.next();
            }
        }
    }
    push(&mut out, Token::Plain, &rest[plain_start..]);
    out
}

/// A quoted string, with any `{{ }}` inside it marked as an expression.
fn push_string(out: &mut Vec<(Token, String)>, text: &str) {
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let end = rest[start..]
            .find("}}")
            .map_or(rest.len(), |e| start + e + 2);
        out.push((Token::String, rest[..start].to_owned()));
        out.push((Token::Expression, rest[start..end].to_owned()));
        rest = &rest[end..];
    }
    out.push((Token::String, rest.to_owned()));
    out.retain(|(_, t)| !t.is_empty());
}

fn string_end(text: &str, start: usize, quote: char) -> usize {
    let mut escaped = false;
    for (i, c) in text[start + 1..].char_indices() {
        if quote == '"' && c == '\\' && !escaped {
            escaped = true;
            continue;
        }
        if c == quote && !escaped {
            return start + 1 + i + 1;
        }
        escaped = false;
    }
    text.len()
}

/// Length of `  - key:` at the start of the line (0 when the line has no plain key).
fn key_length(line: &str) -> usize {
    let body = line.trim_start_matches([' ', '-']);
    let indent = line.len() - body.len();
    let key_chars = body
        .char_indices()
        .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '$'))
        .last()
        .map_or(0, |(i, c)| i + c.len_utf8());
    let after = &body[key_chars..];
    if key_chars > 0 && (after.starts_with(": ") || after == ":") {
        indent + key_chars + 1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(line: &str) -> Vec<(Token, &str)> {
        let segments = highlight_line(line);
        let joined: String = segments.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(joined, line, "segments must rebuild the line");
        segments
            .iter()
            .map(|(k, t)| (*k, Box::leak(t.clone().into_boxed_str()) as &str))
            .collect()
    }

    #[test]
    fn keys_strings_comments_and_expressions() {
        assert_eq!(
            classes("  name: \"x {{ a }}\" # note"),
            vec![
                (Token::Punctuation, "  "),
                (Token::Key, "name"),
                (Token::Punctuation, ":"),
                (Token::Plain, " "),
                (Token::String, "\"x "),
                (Token::Expression, "{{ a }}"),
                (Token::String, "\""),
                (Token::Plain, " "),
                (Token::Comment, "# note"),
            ]
        );
        assert_eq!(
            classes("- if: {{ x > 1 }}")[1..],
            [
                (Token::Key, "if"),
                (Token::Punctuation, ":"),
                (Token::Plain, " "),
                (Token::Expression, "{{ x > 1 }}"),
            ]
        );
    }

    #[test]
    fn a_hash_inside_a_word_or_string_is_not_a_comment() {
        assert_eq!(
            classes("color: \"#0EA5E9\""),
            vec![
                (Token::Key, "color"),
                (Token::Punctuation, ":"),
                (Token::Plain, " "),
                (Token::String, "\"#0EA5E9\""),
            ]
        );
        assert_eq!(classes("a#b")[0], (Token::Plain, "a#b"));
        assert_eq!(
            classes("  'unterminated")[1],
            (Token::String, "'unterminated")
        );
        assert_eq!(classes("é: ü ")[0], (Token::Key, "é"));
    }
}
