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
            rank(typed, against).map(|rank| (rank, item))
        })
        .collect();
    // Stable: within a rank, the order the completion chose.
    ranked.sort_by_key(|(rank, _)| *rank);
    ranked.truncate(limit);
    (ranked.into_iter().map(|(_, item)| item).collect(), false)
}

/// How well `candidate` matches the word `typed` (lower is better), ignoring case; `None`
/// when it does not hold the word's letters in order.
fn rank(typed: &str, candidate: &str) -> Option<u8> {
    let typed = typed.to_lowercase();
    let candidate = candidate.to_lowercase();
    if candidate.starts_with(&typed) {
        return Some(0);
    }
    if candidate.contains(&typed) {
        return Some(1);
    }
    let mut letters = candidate.chars();
    typed
        .chars()
        .all(|wanted| letters.any(|c| c == wanted))
        .then_some(2)
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
            "other", "best_1", "step_10", "st1", "xs_t_1", "step_1", "stone",
        ];
        let items = names.iter().map(|n| item(n, at)).collect();
        let (sent, complete) = shortlist(items, text, 4);
        // Prefix, then containing, then letters in order; `other` and `stone` do not match.
        assert_eq!(
            (labels(&sent), complete),
            (vec!["st1", "best_1", "step_10", "xs_t_1"], false)
        );
        let items = names.iter().map(|n| item(n, at)).collect();
        let (sent, _) = shortlist(items, text, 100);
        assert_eq!(
            labels(&sent).len(),
            7,
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
}
