//! Live heap of the editor layer on the generated 5,000-step document, step by step (open, parse,
//! the JSON view, the check, the symbol index), counted by a global allocator: what the language
//! server holds besides what the allocator keeps. `cargo bench -p logicmd-ide --bench ide_memory`

#[path = "../../core/benches/support/generate.rs"]
mod generate;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use logicmd_ide::files::MemoryFiles;
use logicmd_ide::Workspace;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The most bytes live at once since the last reset: what a step needed on the way.
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts the bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        // SAFETY: the caller's contract is passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: the caller's contract is passed on as is.
        unsafe { System.dealloc(pointer, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    const ID: &str = "bench.logic.md";
    let text = generate::generated(5_000);
    let size = text.len() as f64;
    let base = LIVE.load(Relaxed) - text.len();
    let row = |what: &str| {
        let live = (LIVE.load(Relaxed) - base) as f64;
        let peak = (PEAK.swap(LIVE.load(Relaxed), Relaxed) - base) as f64;
        println!(
            "  {what:<28} {:>6.1} MiB  {:>5.1}x the text  (peak on the way {:>5.1}x)",
            live / 1048576.0,
            live / size,
            peak / size
        );
    };
    println!(
        "ide live heap, 5,000 steps ({:.2} MiB of text):",
        size / 1048576.0
    );
    let typed_at = text.find("Step 2500 combines").expect("a description") + 5;
    let mut workspace = Workspace::new(Arc::new(MemoryFiles::new()));
    workspace.open(ID, text);
    row("open");
    let file = workspace.analysis(ID).expect("opened");
    row("parsed");
    let _ = file.json();
    row("+ the JSON view (one call)");
    workspace.raw_diagnostics(ID);
    row("+ checked");
    let _ = file.symbols();
    row("+ the symbol index");
    // What the language server holds: the workspace alone (the previous analysis is then
    // changed in place by the keystroke's reparse, not copied).
    drop(file);
    workspace
        .edit(ID, logicmd::source::Span::new(typed_at, typed_at), "x")
        .expect("an edit");
    workspace.raw_diagnostics(ID);
    row("one keystroke, checked");
    trim_timed();
}

/// How long the language server's `malloc_trim` when idle takes on this heap (glibc only).
#[allow(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    reason = "a bench times with the clock; the ide crate itself has none"
)]
fn trim_timed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        let started = std::time::Instant::now();
        // SAFETY: returns glibc's free pages to the system; no pointer, live memory untouched.
        unsafe {
            malloc_trim(0);
        }
        println!(
            "  malloc_trim(0) after the keystroke's check: {:.2} ms",
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
}
