//! The little markdown the `ide` layer writes (paragraphs, `---` rules, fenced code, `**strong**`
//! and `` `code` `` spans) as elements — never as HTML, so a document's text cannot inject any.

use leptos::prelude::*;

/// A run of inline text.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Inline {
    Text(String),
    Strong(String),
    Code(String),
}

/// A block of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Block {
    Paragraph(Vec<Inline>),
    Rule,
    Code(String),
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut rest = markdown;
    while !rest.trim().is_empty() {
        let trimmed = rest.trim_start_matches('\n');
        if let Some(fenced) = trimmed.strip_prefix("```") {
            let body = fenced.split_once('\n').map_or("", |(_, b)| b);
            let (code, after) = body.split_once("\n```").unwrap_or((body, ""));
            out.push(Block::Code(code.to_owned()));
            rest = after.split_once('\n').map_or("", |(_, a)| a);
            continue;
        }
        let (paragraph, after) = trimmed.split_once("\n\n").unwrap_or((trimmed, ""));
        let (paragraph, after) = match paragraph.find("\n```") {
            Some(at) => (&paragraph[..at], &trimmed[at + 1..]),
            None => (paragraph, after),
        };
        if paragraph.trim() == "---" {
            out.push(Block::Rule);
        } else if !paragraph.trim().is_empty() {
            out.push(Block::Paragraph(inlines(paragraph.trim())));
        }
        rest = after;
    }
    out
}

fn inlines(text: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let marker = if rest.starts_with("**") {
            "**"
        } else if c == '`' {
            "`"
        } else {
            ""
        };
        let closed = (!marker.is_empty())
            .then(|| rest[marker.len()..].find(marker))
            .flatten();
        match closed {
            Some(end) => {
                if !plain.is_empty() {
                    out.push(Inline::Text(std::mem::take(&mut plain)));
                }
                let inner = rest[marker.len()..marker.len() + end].to_owned();
                out.push(if marker == "`" {
                    Inline::Code(inner)
                } else {
                    Inline::Strong(inner.replace('`', ""))
                });
                rest = &rest[2 * marker.len() + end..];
            }
            None => {
                plain.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    if !plain.is_empty() {
        out.push(Inline::Text(plain));
    }
    out
}

/// `markdown` as elements.
pub fn render(markdown: &str) -> impl IntoView {
    blocks(markdown)
        .into_iter()
        .map(|block| match block {
            Block::Rule => view! { <hr/> }.into_any(),
            Block::Code(code) => view! { <pre>{code}</pre> }.into_any(),
            Block::Paragraph(runs) => view! {
                <p>{runs.into_iter().map(|run| match run {
                    Inline::Text(t) => t.into_any(),
                    Inline::Strong(t) => view! { <strong>{t}</strong> }.into_any(),
                    Inline::Code(t) => view! { <code>{t}</code> }.into_any(),
                }).collect_view()}</p>
            }
            .into_any(),
        })
        .collect_view()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_hover_reads_as_paragraphs_rules_and_spans() {
        let found =
            blocks("**step `gather`**\n\nCollects <b>data</b>.\n\n---\n\n```\na: 1\n```\nafter");
        assert_eq!(
            found,
            vec![
                Block::Paragraph(vec![Inline::Strong("step gather".into())]),
                Block::Paragraph(vec![Inline::Text("Collects <b>data</b>.".into())]),
                Block::Rule,
                Block::Code("a: 1".into()),
                Block::Paragraph(vec![Inline::Text("after".into())]),
            ]
        );
    }

    #[test]
    fn an_unclosed_marker_is_text() {
        assert_eq!(inlines("a `b"), vec![Inline::Text("a `b".into())]);
        assert_eq!(
            inlines("x `y` z"),
            vec![
                Inline::Text("x ".into()),
                Inline::Code("y".into()),
                Inline::Text(" z".into())
            ]
        );
    }
}
