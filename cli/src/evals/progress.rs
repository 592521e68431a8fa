//! The progress bar on standard error while cases run: redrawn in place on a terminal (at most
//! ten times a second), nothing otherwise.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Bar {
    total: usize,
    done: usize,
    failed: usize,
    live: bool,
    drawn: Option<Instant>,
}

const WIDTH: usize = 30;
const EVERY: Duration = Duration::from_millis(100);

impl Bar {
    pub fn new(total: usize, wanted: bool) -> Bar {
        let live = wanted && std::io::stderr().is_terminal();
        Bar {
            total,
            done: 0,
            failed: 0,
            live,
            drawn: None,
        }
    }

    pub fn step(&mut self, passed: bool) {
        self.done += 1;
        self.failed += usize::from(!passed);
        if self.live
            && (self.done == self.total || self.drawn.is_none_or(|at| at.elapsed() >= EVERY))
        {
            self.drawn = Some(Instant::now());
            let filled = (self.done * WIDTH).checked_div(self.total).unwrap_or(WIDTH);
            let bar = format!("{}{}", "#".repeat(filled), "-".repeat(WIDTH - filled));
            let mut err = std::io::stderr().lock();
            let _ = write!(
                err,
                "\r[{bar}] {}/{} runs, {} not passed",
                self.done, self.total, self.failed
            );
            let _ = err.flush();
        }
    }

    pub fn finish(&self) {
        if self.live && self.drawn.is_some() {
            eprintln!();
        }
    }
}
