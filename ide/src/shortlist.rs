//! The completions worth sending when there are too many to show: an editor shows a dozen,
//! and a 5,000-step document offers 4,999 names in `needs`, whose answer alone takes longer to
//! encode, send and parse than the goal of 5 ms allows. Past [`MAX_ITEMS`] the list keeps the
//! items matching the word typed so far (prefix first, then containing it, then holding its
//! letters in order, as editors match), up to the limit, and says it is incomplete, so the
//! editor asks again as the word grows or shrinks. A list within the limit is sent whole:
//! the editor filters it.

use crate::completion::CompletionItem;

/// The most completions one answer holds.
pub const MAX_ITEMS: usize = 200;

/// The items to send for a completion asked in `text`, and whether they are all there are.
pub fn shortlist(
    items: Vec<CompletionItem>,
    text: &str,
    limit: usize,
) -> (Vec<CompletionItem>, bool) {
    if items.len() <= limit {
        return (items, true);
    }
    let mut ranked: Vec<(u8, CompletionItem)> = items
        .into_iter()
        .filter_map(|item| {
            let typed = text.get(item.replace.start..item.replace.end).unwrap_or("");
            let against = item.filter.as_deref().unwrap_or(&item.label);
            matches(typed, against).map(|rank| (rank, item))
        })
        .collect();
    // Stable: within a rank, the order the completion chose.
    ranked.sort_by_key(|(rank, _)| *rank);
    ranked.truncate(limit);
    (ranked.into_iter().map(|(_, item)| item).collect(), false)
}

/// How well `candidate` matches the word `typed` (lower is better), ignoring case, as editors
/// match: it starts with the word (0), holds it from the start of one of its words (1), or
/// holds its first letter at the start of one of its words and the rest in order after it (2:
/// `one` finds `alpha_one`, `g4999` finds `gather_4999`, `gthr` finds `gather`); `None` when it
/// does not. Words start after `_`, `-`, `.` and other marks, at a capital after a small
/// letter, and at a digit after a letter.
pub fn matches(typed: &str, candidate: &str) -> Option<u8> {
    let typed: Vec<char> = typed.chars().map(lower).collect();
    let Some(&first) = typed.first() else {
        return Some(0);
    };
    let written: Vec<char> = candidate.chars().collect();
    let folded: Vec<char> = written.iter().copied().map(lower).collect();
    if folded.starts_with(&typed) {
        return Some(0);
    }
    let starts: Vec<usize> = (1..written.len())
        .filter(|&at| word_starts_at(&written, at))
        .collect();
    if starts.iter().any(|&at| folded[at..].starts_with(&typed)) {
        return Some(1);
    }
    let in_order = |at: usize| {
        let mut rest = folded[at + 1..].iter();
        typed[1..].iter().all(|wanted| rest.any(|c| c == wanted))
    };
    std::iter::once(0)
        .chain(starts)
        .any(|at| folded.get(at) == Some(&first) && in_order(at))
        .then_some(2)
}

fn lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// Whether a word of `written` starts at `at` (not the first character).
fn word_starts_at(written: &[char], at: usize) -> bool {
    let (before, here) = (written[at - 1], written[at]);
    !before.is_alphanumeric() && here.is_alphanumeric()
        || before.is_lowercase() && here.is_uppercase()
        || before.is_alphabetic() && here.is_ascii_digit()
}

#[cfg(test)]
mod tests {
    use super::{shortlist, CompletionItem};
    use crate::completion::ItemKind;
    use logicmd::source::Span;

    fn item(label: &str, replace: Span) -> CompletionItem {
        CompletionItem {
            label: label.to_owned(),
            kind: ItemKind::Reference,
            detail: None,
            documentation: None,
            insert: label.to_owned(),
            replace,
            filter: None,
        }
    }

    fn labels(items: &[CompletionItem]) -> Vec<&str> {
        items.iter().map(|i| i.label.as_str()).collect()
    }

    #[test]
    fn a_list_within_the_limit_is_sent_whole_and_complete() {
        let text = "needs: [st]";
        let at = Span::new(8, 10);
        let items = vec![item("alpha", at), item("step_1", at)];
        let (sent, complete) = shortlist(items, text, 2);
        assert_eq!((labels(&sent), complete), (vec!["alpha", "step_1"], true));
    }

    #[test]
    fn past_the_limit_the_matches_of_the_typed_word_come_first_and_the_list_is_incomplete() {
        let text = "needs: [St1]";
        let at = Span::new(8, 11);
        let names = [
            "other", "best_st1", "step_10", "st1", "x_st_1", "step_1", "stone", "bst1",
        ];
        let items = names.iter().map(|n| item(n, at)).collect();
        let (sent, complete) = shortlist(items, text, 4);
        // The word first, then from the start of a word, then its first letter at a word's
        // start and the rest in order; `other`, `stone` and `bst1` (`st1` inside a word) do
        // not match.
        assert_eq!(
            (labels(&sent), complete),
            (vec!["st1", "best_st1", "step_10", "x_st_1"], false)
        );
        let items = names.iter().map(|n| item(n, at)).collect();
        let (sent, _) = shortlist(items, text, 100);
        assert_eq!(
            labels(&sent).len(),
            8,
            "within the limit nothing is dropped"
        );
    }

    #[test]
    fn an_item_matches_by_its_filter_text_when_it_has_one() {
        let at = Span::new(9, 13);
        let mut imported = item("d.gather", at);
        imported.insert = "['d.gather']".to_owned();
        imported.filter = Some(".d.gather".to_owned());
        let (sent, complete) = shortlist(vec![item("zz", at), imported], "{{ steps.d.ga }}", 1);
        assert_eq!((labels(&sent), complete), (vec!["d.gather"], false));
    }

    #[test]
    fn words_match_as_editors_match_them() {
        use super::matches;
        let cases = [
            ("one", "alpha_one", Some(1)),
            ("g4999", "gather_4999", Some(2)),
            ("gthr", "gather", Some(2)),
            ("ather", "gather", None),
            ("na", "contracts", None),
            ("OutS", "output_schema", Some(2)),
            ("schema", "outputSchema", Some(1)),
            ("", "anything", Some(0)),
            ("é", "Été", Some(0)),
        ];
        for (typed, candidate, rank) in cases {
            assert_eq!(matches(typed, candidate), rank, "{typed} in {candidate}");
        }
    }
}
