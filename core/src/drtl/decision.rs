//! What a review's decision says (DRTL §3.8, §9.3), read from its action label's words: the
//! runtime decides by it what a decision discharges, and `logicmd check` can read labels the same
//! way.

/// What a review's action says, read from its label's words (`_`, `-` and spaces separate
/// them; case does not matter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewDecision {
    /// `override`, `approve`, `accept`: the reviewer lets the output through; this discharges
    /// the open obligations it was asked about, routed or not.
    Approve,
    /// `reject`, `deny`, `abort`, `decline`, `refuse`, `cancel`: never discharges; it is an
    /// obligation of its own until the output is verified anew or a review approves.
    Reject,
    /// Anything else (`edit`, `retry_with_search`): discharges only when the topology routes it
    /// onward (the document takes it from there); unrouted, nothing was done.
    Other,
}

impl ReviewDecision {
    /// The decision a label names; a label that says both an approval and a rejection is held
    /// to the safer reading.
    pub fn of(action: &str) -> ReviewDecision {
        let words: Vec<String> = action
            .split(|c: char| !c.is_alphanumeric())
            .map(str::to_lowercase)
            .collect();
        let has = |names: &[&str]| words.iter().any(|w| names.contains(&w.as_str()));
        if has(&[
            "reject", "rejected", "deny", "denied", "abort", "decline", "declined", "refuse",
            "refused", "cancel",
        ]) {
            ReviewDecision::Reject
        } else if has(&[
            "override",
            "overridden",
            "approve",
            "approved",
            "accept",
            "accepted",
        ]) {
            ReviewDecision::Approve
        } else {
            ReviewDecision::Other
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_read_by_their_words() {
        for (label, decision) in [
            ("override", ReviewDecision::Approve),
            ("Approve", ReviewDecision::Approve),
            ("accept-as-is", ReviewDecision::Approve),
            ("reject", ReviewDecision::Reject),
            ("deny_publish", ReviewDecision::Reject),
            ("abort", ReviewDecision::Reject),
            ("approve or reject", ReviewDecision::Reject),
            ("edit", ReviewDecision::Other),
            ("retry_with_search", ReviewDecision::Other),
            ("rejection_notice_sent", ReviewDecision::Other),
        ] {
            assert_eq!(ReviewDecision::of(label), decision, "{label}");
        }
    }
}
