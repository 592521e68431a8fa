//! Stable sorting with one compiled sort for the whole crate.
//!
//! `slice::sort_by` compiles the standard library's sort (about 6 KB of wasm) once per element
//! type and comparison; the npm package had sixteen of them in its first load (issue #38,
//! docs/decisions.md "npm size, session 7"). Here the sort itself runs on positions (`usize`)
//! with the comparison behind a `&dyn Fn`, so it is compiled once; what stays generic is a
//! closure and a permutation by swaps. The order is exactly `sort_by`'s: the same stable sort
//! decides it. For the sorts off the hot path (the parse/validate path keeps its own).

use std::cmp::Ordering;
use std::collections::BTreeSet;

/// Sorts `items` by `compare`, stably: what `items.sort_by(compare)` gives.
pub fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = sorted_positions(items.len(), &|a, b| compare(&items[a], &items[b]));
    permute(items, order);
}

/// Sorts `items` by the key `key` gives, stably: what `items.sort_by_key(key)` gives.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their own order, stably: what `items.sort()` gives.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The set of `items`. Filled one by one: `collect` into a B-tree set sorts the items first,
/// with a sort compiled for each item type (issue #38's size).
pub fn set_of<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

/// The positions `0..len` in the order `compare` puts the items at them, equal ones in place.
fn sorted_positions(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Puts the item at `order[i]` at `i`, for every `i`, following each cycle of the permutation
/// with swaps (`order` is used up as the record of the places already done).
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..items.len() {
        let mut place = start;
        while order[place] != start {
            let from = order[place];
            items.swap(place, from);
            order[place] = place;
            place = from;
        }
        order[place] = place;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Keys with many ties, each item tagged with its first place: equal keys must keep
        /// their order, as the standard library's stable sort keeps it.
        #[test]
        fn the_order_is_the_standard_stable_sorts(keys in prop::collection::vec(0u8..6, 0..80)) {
            let tagged: Vec<(u8, usize)> = keys.iter().copied().zip(0..).collect();
            let mut ours = tagged.clone();
            let mut standard = tagged.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            standard.sort_by_key(|a| a.0);
            prop_assert_eq!(&ours, &standard);
            let mut reversed = tagged.clone();
            let mut standard_reversed = tagged;
            sort_by_key(&mut reversed, |item| std::cmp::Reverse(item.0));
            standard_reversed.sort_by_key(|item| std::cmp::Reverse(item.0));
            prop_assert_eq!(reversed, standard_reversed);
            let mut keys_sorted = keys.clone();
            sort(&mut keys_sorted);
            let mut standard_keys = keys.clone();
            standard_keys.sort();
            prop_assert_eq!(keys_sorted, standard_keys);
            prop_assert_eq!(set_of(keys.iter().copied()), keys.iter().copied().collect::<BTreeSet<u8>>());
        }

        /// Owned items that are not `Copy` are moved, never cloned or dropped twice.
        #[test]
        fn owned_items_are_moved_whole(words in prop::collection::vec("[a-c]{0,3}", 0..40)) {
            let mut ours = words.clone();
            let mut standard = words;
            sort_by_key(&mut ours, |word| word.len());
            standard.sort_by_key(|word| word.len());
            prop_assert_eq!(ours, standard);
        }
    }
}
