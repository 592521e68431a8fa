//! Evals: a document run over a dataset of cases, each answer scored. Everything that decides
//! an answer lives here, pure (no file, clock or thread): reading cases, the scorers, the result
//! row, the summary and the comparison of two results. The CLI's pool of threads, the Python
//! package and a Ray worker only run cases and hand the run's ending and events to [`row`], so
//! they give the same rows.

mod case;
mod compare;
mod csv;
mod judge;
mod row;
mod scorer;
mod server;
mod simulate;
mod summary;

pub use case::{read_cases, read_csv, read_jsonl, Case, DatasetError};
pub use compare::{compare, Change, Comparison};
pub use judge::{judge_action, judge_answer, judge_request, judge_rubric, judge_score, JUDGE_NODE};
pub use row::{
    cache_key, fingerprint, obligation_word, row, Ending, Judged, MadeFrom, ObligationWord, Ran,
    Row, RowTokens,
};
pub use scorer::{Score, Scorer};
pub use server::{
    failed_on_the_server, judge_call_failure, row_server_failure, server_failure, JUDGE_CALL_FAILED,
};
pub use simulate::{judge_simulated, run_simulated, Simulated, LINKS_NOT_CHECKED};
pub use summary::{summarize, ScorerTally, VariantSummary};

#[cfg(test)]
mod tests;
