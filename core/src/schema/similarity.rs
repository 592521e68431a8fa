//! The two string similarities of the did-you-mean hints, exactly as `strsim` computes them,
//! for short ASCII words without an allocation.
//!
//! `strsim` works on `char`s of any string: it allocates its match flags (Jaro) and three rows
//! plus a character table (Damerau-Levenshtein) per pair, and scans every candidate position
//! from the start. The corpus's unknown-property hints score every known property name for
//! every unexpected key: those pairs were a tenth of the npm `validate`'s instructions on the
//! corpus (issue #17). Property names are short ASCII words, so on such pairs the same
//! algorithms run over bytes in fixed arrays; anything else goes to `strsim`. On ASCII text a
//! byte is a character, so every count, and with it every floating-point operation, is the
//! same (`tests` hold both functions to `strsim` for equality).

/// The longest word (in bytes) scored here; longer ones go to `strsim`.
const MAX_WORD: usize = 64;

/// `strsim::jaro_winkler(a, b)`.
pub(super) fn jaro_winkler(a: &str, b: &str) -> f64 {
    match (short_ascii(a), short_ascii(b)) {
        (Some(a), Some(b)) => jaro_winkler_of_bytes(a, b),
        _ => strsim::jaro_winkler(a, b),
    }
}

/// `strsim::damerau_levenshtein(a, b) <= bound`.
///
/// On short ASCII words the letters the two share decide first: the longer word's length
/// less the size of the two words' common multiset of letters is 0 for equal words, and an
/// edit lowers it by at most one (an insertion or a substitution pairs at most one more
/// letter, a deletion shortens by one and pairs none more, a transposition changes neither),
/// so the distance is at least that. Most names compared
/// with a typo share too few letters to be near; the table below is then never filled
/// (issue #38: the table was 2.5% of a corpus pass).
pub(super) fn damerau_levenshtein_within(a: &str, b: &str, bound: usize) -> bool {
    match (short_ascii(a), short_ascii(b)) {
        (Some(a), Some(b)) => {
            a.len().max(b.len()) - common_letters(a, b) <= bound
                && damerau_levenshtein_of_bytes(a, b, bound).is_some()
        }
        _ => strsim::damerau_levenshtein(a, b) <= bound,
    }
}

/// `false` only when `strsim::jaro_winkler(a, b)` is certainly below 0.8, found from the
/// letters the two share, without scoring.
///
/// Jaro pairs equal letters, so its matches are at most the size of the two words' common
/// multiset of letters, and it is at most `(common / |a| + common / |b| + 1) / 3` (no
/// transpositions); float division and addition round monotonically, so the computed score
/// is at most that bound computed the same way. At or under 0.7 the prefix boost does not
/// apply, so the score stays under 0.8. Most known names share few letters with a typo.
pub(super) fn may_score_high(a: &str, b: &str) -> bool {
    let (Some(a), Some(b)) = (short_ascii(a), short_ascii(b)) else {
        return true;
    };
    if a.is_empty() || b.is_empty() {
        return true;
    }
    let common = common_letters(a, b);
    let bound = ((common as f64 / a.len() as f64) + (common as f64 / b.len() as f64) + 1.0) / 3.0;
    bound > 0.7
}

/// The size of the common multiset of the letters of two ASCII words.
fn common_letters(a: &[u8], b: &[u8]) -> usize {
    let mut unpaired = [0_u8; 128];
    for &x in a {
        unpaired[usize::from(x)] += 1;
    }
    let mut common = 0_usize;
    for &y in b {
        let count = &mut unpaired[usize::from(y)];
        if *count > 0 {
            *count -= 1;
            common += 1;
        }
    }
    common
}

/// The word's bytes, when each is one character and the fixed arrays hold them.
fn short_ascii(word: &str) -> Option<&[u8]> {
    (word.len() <= MAX_WORD && word.is_ascii()).then_some(word.as_bytes())
}

/// `strsim::generic_jaro_winkler` over bytes: Jaro with a boost for a common prefix of up to
/// four, applied above 0.7.
fn jaro_winkler_of_bytes(a: &[u8], b: &[u8]) -> f64 {
    let similarity = jaro_of_bytes(a, b);
    if similarity > 0.7 {
        let prefix = a.iter().zip(b).take(4).take_while(|(x, y)| x == y).count();
        similarity + 0.1 * prefix as f64 * (1.0 - similarity)
    } else {
        similarity
    }
}

/// `strsim::generic_jaro` over bytes of at most [`MAX_WORD`] each.
fn jaro_of_bytes(a: &[u8], b: &[u8]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let search_range = (a.len().max(b.len()) / 2).saturating_sub(1);
    let mut a_matched = [false; MAX_WORD];
    let mut b_matched = [false; MAX_WORD];
    let mut matches = 0_usize;
    for (i, &x) in a.iter().enumerate() {
        // strsim scans from 0 and skips positions before the window: the first free match in
        // the window is the same one.
        let mut window = i.saturating_sub(search_range)..b.len().min(i + search_range + 1);
        if let Some(j) = window.find(|&j| b[j] == x && !b_matched[j]) {
            a_matched[i] = true;
            b_matched[j] = true;
            matches += 1;
        }
    }
    if matches == 0 {
        return 0.0;
    }
    let a_order = a.iter().zip(&a_matched).filter(|(_, m)| **m);
    let b_order = b.iter().zip(&b_matched).filter(|(_, m)| **m);
    let transpositions = a_order
        .zip(b_order)
        .filter(|((x, _), (y, _))| x != y)
        .count()
        / 2;
    ((matches as f64 / a.len() as f64)
        + (matches as f64 / b.len() as f64)
        + ((matches - transpositions) as f64 / matches as f64))
        / 3.0
}

/// `strsim::damerau_levenshtein` (Zhao and Sahni's linear-space algorithm, as strsim writes
/// it) over ASCII bytes of at most [`MAX_WORD`] each, when it is at most `bound`: the rows are
/// fixed arrays and the last row of each character a table of 128.
///
/// It stops at the first row whose smallest entry is past `bound`: no later row has a smaller
/// one. (Each entry is at least the smallest of the row before — the diagonal and the upper
/// term directly, the left one by induction from the row's first entry `i`, and a transposition
/// from row `k - 1` costs at least `i - k` more than that row's smallest, while a row's smallest
/// grows by at most one per row — and the distance is an entry of the last row.)
fn damerau_levenshtein_of_bytes(a: &[u8], b: &[u8], bound: usize) -> Option<usize> {
    const ROW: usize = MAX_WORD + 2;
    let max_val = a.len().max(b.len()) as isize + 1;
    let mut last_row_of = [-1_isize; 128];
    let size = b.len() + 2;
    let mut fr_row = [max_val; ROW];
    let mut rows = ([max_val; ROW], [max_val; ROW]);
    let fr = &mut fr_row[..size];
    // The two rows change roles each step: the references are swapped, not the arrays.
    let (mut r, mut r1) = (&mut rows.0[..size], &mut rows.1[..size]);
    for (j, cell) in r.iter_mut().enumerate().skip(1) {
        *cell = j as isize - 1;
    }
    for (i, &x) in a.iter().enumerate().map(|(i, x)| (i as isize + 1, x)) {
        std::mem::swap(&mut r, &mut r1);
        let mut last_col: isize = -1;
        let mut last_i2l1 = r[1];
        r[1] = i;
        let mut t = max_val;
        let mut row_least = i;
        for (j, &y) in b.iter().enumerate().map(|(j, y)| (j + 1, y)) {
            let diag = r1[j] + isize::from(x != y);
            let left = r[j] + 1;
            let up = r1[j + 1] + 1;
            let mut cell = diag.min(left.min(up));
            if x == y {
                last_col = j as isize;
                fr[j + 1] = r1[j - 1];
                t = last_i2l1;
            } else {
                let k = last_row_of[usize::from(y)];
                let l = last_col;
                if j as isize - l == 1 {
                    cell = cell.min(fr[j + 1] + (i - k));
                } else if i - k == 1 {
                    cell = cell.min(t + (j as isize - l));
                }
            }
            last_i2l1 = r[j + 1];
            r[j + 1] = cell;
            row_least = row_least.min(cell);
        }
        last_row_of[usize::from(x)] = i;
        if row_least > bound as isize {
            return None;
        }
    }
    let distance = r[b.len() + 1] as usize;
    (distance <= bound).then_some(distance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_pairs_score_as_strsim_documents_them() {
        assert_eq!(damerau_levenshtein_of_bytes(b"ab", b"bca", 9), Some(2));
        assert_eq!(damerau_levenshtein_of_bytes(b"", b"flower", 9), Some(6));
        assert_eq!(damerau_levenshtein_of_bytes(b"neds", b"needs", 9), Some(1));
        assert!(!damerau_levenshtein_within("ab", "bca", 1));
        assert!((jaro_winkler("cheeseburger", "cheese fries") - 0.866).abs() < 0.001);
        assert_eq!(jaro_winkler("", ""), 1.0);
        assert_eq!(jaro_winkler("a", ""), 0.0);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// Bit for bit what strsim answers, on the short ASCII words scored here (few letters,
        /// so matches, transpositions and repeated letters are common) and on words past the
        /// fixed arrays or with other characters, which go to strsim.
        #[test]
        fn the_same_scores_as_strsim(
            a in "[abcde_]{0,12}|[a-zA-Z]{0,70}|[abé]{0,6}",
            b in "[abcde_]{0,12}|[a-zA-Z]{0,70}|[abé]{0,6}",
            bound in 0_usize..10,
        ) {
            proptest::prop_assert_eq!(
                jaro_winkler(&a, &b).to_bits(),
                strsim::jaro_winkler(&a, &b).to_bits()
            );
            if !may_score_high(&a, &b) {
                proptest::prop_assert!(strsim::jaro_winkler(&a, &b) < 0.8);
            }
            let distance = strsim::damerau_levenshtein(&a, &b);
            proptest::prop_assert_eq!(damerau_levenshtein_within(&a, &b, bound), distance <= bound);
            if let (Some(a), Some(b)) = (short_ascii(&a), short_ascii(&b)) {
                // Past the bound or not, what it computes is the distance.
                proptest::prop_assert_eq!(damerau_levenshtein_of_bytes(a, b, usize::MAX >> 2), Some(distance));
            }
        }
    }
}
