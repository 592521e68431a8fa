//! The local pool: `jobs` threads take work items in order; results come back in the items'
//! order, whatever order they finish in, so the results file does not depend on timing.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work` on every item with `jobs` threads; `done` gets each result in item order. Once
/// `stop` says so, no further item starts (those started still finish and reach `done`).
pub fn run_in_order<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    stop: &(dyn Fn() -> bool + Sync),
    work: impl Fn(&T) -> R + Sync,
    mut done: impl FnMut(usize, R),
) {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            let sender = sender.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || loop {
                if stop() {
                    break;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(index) else { break };
                if sender.send((index, work(item))).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&due) {
                done(due, result);
                due += 1;
            }
        }
    });
}
