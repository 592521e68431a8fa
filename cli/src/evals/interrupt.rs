//! Ctrl-C during an eval: the first stops new cases from starting and lets those in flight
//! finish (their rows are kept); a second stops at once. Either way the eval says how many rows
//! are kept and that running it again resumes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// What the handler reads: whether Ctrl-C was pressed, and the rows written so far.
pub struct Interrupt {
    requested: AtomicBool,
    written: AtomicU64,
    out: String,
}

static INTERRUPT: OnceLock<Arc<Interrupt>> = OnceLock::new();

impl Interrupt {
    /// Installs the handler for an eval writing to `out` (before its kept rows are read: a
    /// Ctrl-C then stops the eval before any case starts). Without a handler (one could not be
    /// installed) Ctrl-C ends the process as before.
    pub fn install(out: &str) -> Arc<Interrupt> {
        let interrupt = Arc::new(Interrupt {
            requested: AtomicBool::new(false),
            written: AtomicU64::new(0),
            out: out.to_owned(),
        });
        if INTERRUPT.set(Arc::clone(&interrupt)).is_ok() {
            let _ = ctrlc::set_handler(on_ctrl_c);
        }
        interrupt
    }

    /// Ctrl-C was pressed: start no more cases.
    pub fn requested(&self) -> bool {
        self.requested.load(Ordering::SeqCst)
    }

    /// The results file holds `rows` kept from before.
    pub fn kept(&self, rows: u64) {
        self.written.store(rows, Ordering::SeqCst);
    }

    /// One more row is in the results file.
    pub fn wrote(&self) {
        self.written.fetch_add(1, Ordering::SeqCst);
    }

    /// What the eval says when it stops on Ctrl-C.
    pub fn stopped(&self) -> String {
        format!(
            "interrupted: {} kept in {}; run the same command again to resume",
            rows_are(self.written.load(Ordering::SeqCst)),
            self.out
        )
    }
}

/// "1 row is", "2 rows are".
pub fn rows_are(n: u64) -> String {
    if n == 1 {
        "1 row is".to_owned()
    } else {
        format!("{n} rows are")
    }
}

fn on_ctrl_c() {
    let Some(interrupt) = INTERRUPT.get() else {
        std::process::exit(EXIT_INTERRUPTED.into());
    };
    if interrupt.requested.swap(true, Ordering::SeqCst) {
        // A row being written when the process ends is a line cut short: a resume drops it.
        eprintln!("\n{}", interrupt.stopped());
        std::process::exit(EXIT_INTERRUPTED.into());
    }
    eprintln!("\ninterrupted: no new case starts; finishing the cases in flight (Ctrl-C again stops at once)");
}

/// The exit status of a process ended by Ctrl-C (128 + SIGINT), as shells report it.
pub const EXIT_INTERRUPTED: u8 = 130;
