//! A step's retry policy (spec §4.1 `retry`) as numbers, with the defaults a document that
//! declares none gets, and the backoff before each new attempt.

use serde::{Deserialize, Serialize};

use crate::duration::parse_duration;
use crate::model::Retry;

/// Attempts and waits, in milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RetryPolicy {
    /// Model calls for one output, the first included.
    pub max_attempts: u32,
    /// The wait before the first retry, in milliseconds.
    pub initial_interval_ms: u64,
    /// Each wait is the previous one times this.
    pub backoff_coefficient: f64,
    /// The longest wait, in milliseconds.
    pub maximum_interval_ms: u64,
    /// Error kinds never retried.
    pub non_retryable_errors: Vec<String>,
}

impl Default for RetryPolicy {
    /// Three attempts, 1 s doubling up to 30 s: the spec's own example (§4.1), so that a step
    /// without a `retry` still survives a transient failure, boundedly.
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            initial_interval_ms: 1_000,
            backoff_coefficient: 2.0,
            maximum_interval_ms: 30_000,
            non_retryable_errors: Vec::new(),
        }
    }
}

impl RetryPolicy {
    /// The policy a step declares, each missing field taken from the default. Values lint
    /// reports (0 attempts, a coefficient below 1, unparsable durations) fall back too.
    pub fn of(retry: Option<&Retry>) -> RetryPolicy {
        let default = RetryPolicy::default();
        let Some(retry) = retry else {
            return default;
        };
        let millis = |text: Option<&String>, fallback: u64| {
            text.and_then(|t| parse_duration(t).ok())
                .map_or(fallback, |d| d.as_millis().min(u64::MAX as u128) as u64)
        };
        RetryPolicy {
            max_attempts: retry
                .max_attempts
                .filter(|&n| n >= 1)
                .map_or(default.max_attempts, |n| n.min(u32::MAX as u64) as u32),
            initial_interval_ms: millis(
                retry.initial_interval.as_ref(),
                default.initial_interval_ms,
            ),
            backoff_coefficient: retry
                .backoff_coefficient
                .filter(|c| c.is_finite() && *c >= 1.0)
                .unwrap_or(default.backoff_coefficient),
            maximum_interval_ms: millis(
                retry.maximum_interval.as_ref(),
                default.maximum_interval_ms,
            ),
            non_retryable_errors: retry.non_retryable_errors.clone(),
        }
    }

    /// The wait before attempt `next_attempt` (2 after the first failure): the initial interval
    /// times the coefficient for every earlier retry, at most the maximum interval.
    pub fn backoff_ms(&self, next_attempt: u32) -> u64 {
        let retries = next_attempt.saturating_sub(2);
        let wait = self.initial_interval_ms as f64
            * self.backoff_coefficient.powi(retries.min(1_000) as i32);
        if wait.is_finite() {
            (wait as u64).min(self.maximum_interval_ms)
        } else {
            self.maximum_interval_ms
        }
    }

    /// Whether a failure of error class `kind` is tried again: the provider says it may help
    /// (`retryable`) and the policy does not list `kind` as non-retryable.
    pub fn is_retryable(&self, kind: &str, retryable: bool) -> bool {
        retryable && !self.non_retryable_errors.iter().any(|e| e == kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_grow_by_the_coefficient_up_to_the_maximum() {
        let policy = RetryPolicy {
            max_attempts: 6,
            initial_interval_ms: 1_000,
            backoff_coefficient: 2.0,
            maximum_interval_ms: 5_000,
            non_retryable_errors: vec![],
        };
        let waits: Vec<u64> = (2..=6).map(|a| policy.backoff_ms(a)).collect();
        assert_eq!(waits, [1_000, 2_000, 4_000, 5_000, 5_000]);
    }

    #[test]
    fn a_declared_policy_overrides_field_by_field() {
        let retry = Retry {
            max_attempts: Some(5),
            initial_interval: Some("250ms".into()),
            backoff_coefficient: None,
            maximum_interval: Some("soon".into()),
            non_retryable_errors: vec!["AuthenticationError".into()],
        };
        let policy = RetryPolicy::of(Some(&retry));
        assert_eq!(policy.max_attempts, 5);
        assert_eq!(policy.initial_interval_ms, 250);
        assert_eq!(policy.backoff_coefficient, 2.0);
        assert_eq!(policy.maximum_interval_ms, 30_000);
        assert!(!policy.is_retryable("AuthenticationError", true));
        assert!(policy.is_retryable("Timeout", true));
        assert!(!policy.is_retryable("Timeout", false));
    }
}
