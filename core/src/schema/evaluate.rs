//! Evaluating a compiled [`Program`] on an [`Instance`]: the errors in the order the draft-07
//! keywords are checked, outermost first. The instance path is built only for an error.

use super::engine::{ErrorKind, SchemaError};
use super::instance::{equals, same, Instance, JsonType};
use super::program::{Additional, Keywords, Program, Rule, RuleId, Types};

/// Where the evaluation is in the instance: a chain of keys and indexes on the stack.
#[derive(Clone, Copy)]
enum Place<'p> {
    Root,
    Key(&'p Place<'p>, &'p str),
    Index(&'p Place<'p>, usize),
}

impl Place<'_> {
    /// The JSON Pointer of this place.
    fn pointer(&self) -> String {
        let mut out = String::with_capacity(self.pointer_length_estimate());
        self.write(&mut out);
        out
    }

    /// Appends each step to one string: a new string per step (and the formatting machinery
    /// per index) was most of an error's cost here (issue #17).
    fn write(&self, out: &mut String) {
        match self {
            Place::Root => {}
            Place::Key(parent, key) => {
                parent.write(out);
                crate::json::push_token(out, key);
            }
            Place::Index(parent, index) => {
                parent.write(out);
                crate::json::push_index(out, *index);
            }
        }
    }

    /// The pointer's length when no key needs an escape and indexes have at most three digits.
    fn pointer_length_estimate(&self) -> usize {
        match self {
            Place::Root => 0,
            Place::Key(parent, key) => parent.pointer_length_estimate() + 1 + key.len(),
            Place::Index(parent, _) => parent.pointer_length_estimate() + 4,
        }
    }
}

/// Where errors go: a list, or nowhere when only validity matters (then the first error ends
/// the evaluation).
type Out<'o, 'a> = Option<&'o mut Vec<SchemaError<'a>>>;

/// Every failure of `instance` under `program`'s root rule.
pub(crate) fn errors<'a, I: Instance<'a>>(
    program: &Program<'a>,
    instance: I,
) -> Vec<SchemaError<'a>> {
    let mut out = Vec::new();
    check(program, 0, instance, &Place::Root, Some(&mut out));
    out
}

fn push<'a, I: Instance<'a>>(
    out: &mut Out<'_, 'a>,
    place: &Place,
    instance: I,
    kind: ErrorKind<'a>,
) {
    if let Some(out) = out {
        out.push(SchemaError {
            instance_path: place.pointer(),
            instance: instance.shown(),
            kind,
            node: instance.node(),
        });
    }
}

/// Checks `instance` against rule `id`; `false` when it fails. Without `out`, stops at the first
/// failure.
fn check<'a, I: Instance<'a>>(
    program: &Program<'a>,
    id: RuleId,
    instance: I,
    place: &Place,
    mut out: Out<'_, 'a>,
) -> bool {
    let keywords = match program.rule(id) {
        Rule::Anything => return true,
        Rule::Nothing => {
            push(&mut out, place, instance, ErrorKind::Nothing);
            return false;
        }
        Rule::BadReference(reference) => {
            let reference = *reference;
            push(
                &mut out,
                place,
                instance,
                ErrorKind::BadReference { reference },
            );
            return false;
        }
        Rule::Keywords(keywords) => keywords,
    };
    if let Some(types) = &keywords.types {
        if !has_type(types, instance) {
            // A value of the wrong type makes every other keyword's message noise.
            let expected = types.names.clone();
            push(&mut out, place, instance, ErrorKind::Type { expected });
            return false;
        }
    }
    let mut ok = true;
    macro_rules! fail {
        ($kind:expr) => {{
            ok = false;
            if out.is_none() {
                return false;
            }
            push(&mut out, place, instance, $kind);
        }};
    }
    if let Some(options) = keywords.enumeration {
        let allowed = options.as_array().into_iter().flatten();
        if !allowed.clone().any(|option| equals(option, instance)) {
            fail!(ErrorKind::Enum { options });
        }
    }
    if let Some(expected) = keywords.constant {
        if !equals(expected, instance) {
            fail!(ErrorKind::Const { expected });
        }
    }
    if let Some(number) = instance.as_number() {
        let value = number.value;
        if let Some((limit, _)) = keywords.minimum.filter(|&(_, l)| value < l) {
            fail!(ErrorKind::Minimum { limit });
        }
        if let Some((limit, _)) = keywords.maximum.filter(|&(_, l)| value > l) {
            fail!(ErrorKind::Maximum { limit });
        }
        if let Some((limit, _)) = keywords.exclusive_minimum.filter(|&(_, l)| value <= l) {
            fail!(ErrorKind::ExclusiveMinimum { limit });
        }
        if let Some((limit, _)) = keywords.exclusive_maximum.filter(|&(_, l)| value >= l) {
            fail!(ErrorKind::ExclusiveMaximum { limit });
        }
    }
    let sizes = match instance.json_type() {
        JsonType::String => Some((keywords.min_length, keywords.max_length)),
        JsonType::Array => Some((keywords.min_items, keywords.max_items)),
        JsonType::Object => Some((keywords.min_properties, keywords.max_properties)),
        _ => None,
    };
    if let Some((min, max)) = sizes.filter(|(min, max)| min.is_some() || max.is_some()) {
        let len = match instance.as_str() {
            Some(text) => text.chars().count(),
            None => instance.len(),
        } as u64;
        if let Some(limit) = min.filter(|&l| len < l) {
            fail!(match instance.json_type() {
                JsonType::String => ErrorKind::MinLength { limit },
                JsonType::Array => ErrorKind::MinItems { limit },
                _ => ErrorKind::MinProperties { limit },
            });
        }
        if let Some(limit) = max.filter(|&l| len > l) {
            fail!(match instance.json_type() {
                JsonType::String => ErrorKind::MaxLength { limit },
                JsonType::Array => ErrorKind::MaxItems { limit },
                _ => ErrorKind::MaxProperties { limit },
            });
        }
    }
    if instance.json_type() == JsonType::Object && keywords.has_object_keywords() {
        ok &= check_object(program, keywords, instance, place, out.as_deref_mut());
        if !ok && out.is_none() {
            return false;
        }
    }
    if instance.json_type() == JsonType::Array {
        ok &= check_array(program, keywords, instance, place, out.as_deref_mut());
        if !ok && out.is_none() {
            return false;
        }
    }
    if !keywords.has_combinators() {
        return ok;
    }
    ok & check_combinators(program, keywords, instance, place, out)
}

fn check_object<'a, I: Instance<'a>>(
    program: &Program<'a>,
    keywords: &Keywords<'a>,
    instance: I,
    place: &Place,
    mut out: Out<'_, 'a>,
) -> bool {
    let mut ok = true;
    for &property in &keywords.required {
        if instance.get(property).is_none() {
            ok = false;
            if out.is_none() {
                return false;
            }
            push(&mut out, place, instance, ErrorKind::Required { property });
        }
    }
    let mut unexpected = Vec::new();
    for (key, value) in instance.entries() {
        let rule = match keywords.property(key) {
            Some(rule) => rule,
            None => match keywords.additional {
                Additional::Absent => continue,
                Additional::Refused => {
                    if out.is_none() {
                        return false;
                    }
                    unexpected.push(key);
                    continue;
                }
                Additional::Checked(rule) => rule,
            },
        };
        let child = Place::Key(place, key);
        if !check(program, rule, value, &child, out.as_deref_mut()) {
            ok = false;
            if out.is_none() {
                return false;
            }
        }
    }
    if !unexpected.is_empty() {
        push(
            &mut out,
            place,
            instance,
            ErrorKind::AdditionalProperties { unexpected },
        );
        ok = false;
    }
    ok
}

fn check_array<'a, I: Instance<'a>>(
    program: &Program<'a>,
    keywords: &Keywords<'a>,
    instance: I,
    place: &Place,
    mut out: Out<'_, 'a>,
) -> bool {
    let mut ok = true;
    if let Some(rule) = keywords.items {
        for (i, item) in instance.items().enumerate() {
            let child = Place::Index(place, i);
            if !check(program, rule, item, &child, out.as_deref_mut()) {
                ok = false;
                if out.is_none() {
                    return false;
                }
            }
        }
    }
    if keywords.unique_items {
        let repeated = instance
            .items()
            .enumerate()
            .any(|(i, a)| instance.items().take(i).any(|b| same(a, b)));
        if repeated {
            push(&mut out, place, instance, ErrorKind::UniqueItems);
            ok = false;
        }
    }
    ok
}

// Out of line: most rules combine nothing, and every check paid this code's registers and
// stack on entry (issue #38).
#[inline(never)]
fn check_combinators<'a, I: Instance<'a>>(
    program: &Program<'a>,
    keywords: &Keywords<'a>,
    instance: I,
    place: &Place,
    mut out: Out<'_, 'a>,
) -> bool {
    let mut ok = true;
    for &rule in &keywords.all_of {
        if !check(program, rule, instance, place, out.as_deref_mut()) {
            ok = false;
            if out.is_none() {
                return false;
            }
        }
    }
    let valid = |rule: RuleId| check(program, rule, instance, place, None);
    if let Some(alternatives) = &keywords.any_of {
        if !alternatives.iter().any(|&rule| valid(rule)) {
            ok = false;
            if out.is_none() {
                return false;
            }
            let context = contexts(program, alternatives, instance, place);
            push(&mut out, place, instance, ErrorKind::AnyOf { context });
        }
    }
    if let Some(alternatives) = &keywords.one_of {
        match alternatives.iter().filter(|&&rule| valid(rule)).count() {
            1 => {}
            0 => {
                ok = false;
                if out.is_none() {
                    return false;
                }
                let context = contexts(program, alternatives, instance, place);
                push(&mut out, place, instance, ErrorKind::OneOfNone { context });
            }
            _ => {
                ok = false;
                push(&mut out, place, instance, ErrorKind::OneOfMany);
            }
        }
    }
    if let Some(rule) = keywords.not {
        if valid(rule) {
            ok = false;
            push(&mut out, place, instance, ErrorKind::Not);
        }
    }
    if let Some((condition, then, otherwise)) = keywords.condition {
        let branch = if valid(condition) { then } else { otherwise };
        if let Some(rule) = branch {
            ok &= check(program, rule, instance, place, out);
        }
    }
    ok
}

/// The errors of every alternative, each on its own.
fn contexts<'a, I: Instance<'a>>(
    program: &Program<'a>,
    alternatives: &[RuleId],
    instance: I,
    place: &Place,
) -> Vec<Vec<SchemaError<'a>>> {
    alternatives
        .iter()
        .map(|&rule| {
            let mut errors = Vec::new();
            check(program, rule, instance, place, Some(&mut errors));
            errors
        })
        .collect()
}

/// Whether `instance` is of one of the `types`.
fn has_type<'a, I: Instance<'a>>(types: &Types<'_>, instance: I) -> bool {
    let json_type = instance.json_type();
    types.allowed & json_type.bit() != 0
        // Draft-07: an integer is any number without a fractional part, `2.0` included.
        || (types.integer
            && json_type == JsonType::Number
            && instance
                .as_number()
                .is_some_and(|n| n.integer || n.value.fract() == 0.0))
}

#[cfg(test)]
mod tests {
    use super::Place;
    use proptest::prelude::*;

    /// The pointer of a chain of places, written as the first version wrote it: a new string
    /// per key, an index through `to_string`.
    fn pointer_by_copies(steps: &[Result<String, usize>]) -> String {
        steps
            .iter()
            .fold(String::new(), |pointer, step| match step {
                Ok(key) => crate::json::pointer_push(&pointer, key),
                Err(index) => format!("{pointer}/{index}"),
            })
    }

    fn pointer_of(steps: &[Result<String, usize>], place: &Place) -> String {
        match steps.split_first() {
            None => place.pointer(),
            Some((Ok(key), rest)) => pointer_of(rest, &Place::Key(place, key)),
            Some((Err(index), rest)) => pointer_of(rest, &Place::Index(place, *index)),
        }
    }

    proptest! {
        /// Keys with and without escapes, indexes of any size.
        #[test]
        fn a_place_writes_the_pointer_of_its_steps(
            steps in proptest::collection::vec(
                prop_oneof![
                    "[a-z~/é]{0,6}".prop_map(Ok),
                    any::<usize>().prop_map(Err),
                ],
                0..6,
            ),
        ) {
            prop_assert_eq!(pointer_of(&steps, &Place::Root), pointer_by_copies(&steps));
        }
    }
}
