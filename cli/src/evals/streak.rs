//! The early stop of an eval against a server: when `limit` cases in a row fail with the same
//! error (a server that is down, a key that is refused), the rest would fail alike. Those rows
//! are held back rather than written, so running the eval again once the server answers runs
//! them again; a row that breaks the streak releases them.

use logicmd::evals::Row;

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
    /// error every case of the streak failed with once it is `limit` long.
    pub fn take(&mut self, row: Row) -> Result<Vec<Row>, String> {
        let Some(limit) = self.limit else {
            return Ok(vec![row]);
        };
        let alike = |held: &Row| row.status == "failed" && held.error == row.error;
        if row.status != "failed" || !self.held.first().is_none_or(alike) {
            let mut released = std::mem::take(&mut self.held);
            if row.status == "failed" {
                self.held.push(row);
            } else {
                released.push(row);
            }
            return Ok(released);
        }
        self.held.push(row);
        if self.held.len() >= limit {
            let error = self.held[0].error.clone().unwrap_or_default();
            return Err(error);
        }
        Ok(Vec::new())
    }

    /// The rows still held when the eval ends without stopping.
    pub fn rest(self) -> Vec<Row> {
        self.held
    }
}
