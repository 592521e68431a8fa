//! The early stop of an eval against a server: when `limit` cases in a row fail on the server's
//! side with the same kind of error (a server that is down, a key that is refused, a model it
//! does not have), the rest would fail alike. A model's bad answers, a per-case refusal or a
//! failed check are answers and never count. The streak's rows are held back rather than
//! written, so running the eval again once the server answers runs them again; a row that
//! breaks the streak releases them (a resume runs server failures again anyway).

use logicmd::evals::{judge_call_failure, row_server_failure, Row};

pub struct Streak {
    held: Vec<Row>,
    /// None: every row is written as it comes (answers that call no server).
    limit: Option<usize>,
}

/// Cases in a row failing alike that stop an eval.
pub const SAME_FAILURES: usize = 10;

impl Streak {
    pub fn new(limit: Option<usize>) -> Streak {
        Streak {
            held: Vec::new(),
            limit,
        }
    }

    /// The rows to write now that `row` came (none while a streak grows); `Err` with the
    /// first error of the streak once it is `limit` long.
    pub fn take(&mut self, row: Row) -> Result<Vec<Row>, String> {
        let Some(limit) = self.limit else {
            return Ok(vec![row]);
        };
        let failure = row_server_failure(&row);
        let alike = |held: &Row| failure.is_some() && row_server_failure(held) == failure;
        if failure.is_none() || !self.held.first().is_none_or(alike) {
            let mut released = std::mem::take(&mut self.held);
            if failure.is_some() {
                self.held.push(row);
            } else {
                released.push(row);
            }
            return Ok(released);
        }
        self.held.push(row);
        if self.held.len() >= limit {
            let first = &self.held[0];
            // A run's error, or the judge's call's.
            let judge = judge_call_failure(first).map(str::to_owned);
            let error = first.error.clone().or(judge).unwrap_or_default();
            return Err(error);
        }
        Ok(Vec::new())
    }

    /// The rows still held when the eval ends without stopping.
    pub fn rest(self) -> Vec<Row> {
        self.held
    }
}
