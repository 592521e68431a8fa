//! The globs of `per-file-ignores`: `*` (any run of characters but `/`), `?` (one character but
//! `/`), `**` (any run of whole path components, none included). A pattern without `/` is
//! matched against the file name, so `*.draft.logic.md` applies in every directory; a trailing
//! `/` means everything under that directory.

/// Whether `pattern` matches `path` (relative, `/`-separated).
pub fn matches(pattern: &str, path: &str) -> bool {
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    if let Some(directory) = pattern.strip_suffix('/') {
        return matches(&format!("{directory}/**"), path);
    }
    if !pattern.contains('/') {
        let name = path.rsplit('/').next().unwrap_or(path);
        return component(pattern.as_bytes(), name.as_bytes());
    }
    let pattern: Vec<&str> = pattern.split('/').collect();
    let path: Vec<&str> = path.split('/').collect();
    components(&pattern, &path)
}

fn components(pattern: &[&str], path: &[&str]) -> bool {
    match pattern.split_first() {
        None => path.is_empty(),
        Some((&"**", rest)) => (0..=path.len()).any(|skip| components(rest, &path[skip..])),
        Some((first, rest)) => path.split_first().is_some_and(|(name, others)| {
            component(first.as_bytes(), name.as_bytes()) && components(rest, others)
        }),
    }
}

/// One component: `*` and `?` within it.
fn component(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|skip| component(rest, &name[skip..])),
        Some((b'?', rest)) => !name.is_empty() && component(rest, &name[char_len(name)..]),
        Some((c, rest)) => name.first() == Some(c) && component(rest, &name[1..]),
    }
}

/// The length in bytes of the UTF-8 character `bytes` starts with.
fn char_len(bytes: &[u8]) -> usize {
    match bytes.first() {
        Some(b) if *b >= 0xF0 => 4,
        Some(b) if *b >= 0xE0 => 3,
        Some(b) if *b >= 0xC0 => 2,
        _ => 1,
    }
    .min(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn globs_match_as_documented() {
        let cases = [
            ("legacy/**", "legacy/a.logic.md", true),
            ("legacy/**", "legacy/deep/a.logic.md", true),
            ("legacy/**", "other/a.logic.md", false),
            ("legacy/", "legacy/deep/a.logic.md", true),
            ("*.draft.logic.md", "deep/x.draft.logic.md", true),
            ("*.draft.logic.md", "deep/x.logic.md", false),
            ("agents/*.logic.md", "agents/a.logic.md", true),
            ("agents/*.logic.md", "agents/deep/a.logic.md", false),
            ("**/nodes/*.logic.md", "nodes/a.logic.md", true),
            ("**/nodes/*.logic.md", "x/y/nodes/a.logic.md", true),
            ("./LOGIC.md", "LOGIC.md", true),
            ("a?.logic.md", "aé.logic.md", true),
            ("a?.logic.md", "a.logic.md", false),
        ];
        for (pattern, path, expected) in cases {
            assert_eq!(matches(pattern, path), expected, "{pattern} on {path}");
        }
    }
}
