//! `logicmd-fuzz`: a mutation fuzzer for logicmd (issue #13 §4). It mutates the repository's
//! documents and expressions, runs each input through a target, and stops the world on a panic,
//! a broken property, or an input that runs longer than the time limit (a hang). Every find is
//! written to `fuzz/finds/` to become a regression test (tests/fuzz_regressions.rs).
//!
//! ```text
//! cargo run --release -p logicmd-fuzz -- [--target parse|reparse|expr|edit|fmt|all] [--count N] [--seed S] [--limit-ms MS]
//! ```

use logicmd_fuzz::{corpus, mutate, targets};

use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mutate::Rng;

struct Settings {
    targets: Vec<String>,
    count: u64,
    seed: u64,
    limit: Duration,
}

fn settings() -> Result<Settings, String> {
    let mut settings = Settings {
        targets: targets::ALL.iter().map(|t| t.to_string()).collect(),
        count: 100_000,
        seed: 1,
        limit: Duration::from_millis(2_000),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag}: not a number: {value}"))
        };
        match flag.as_str() {
            "--target" if value == "all" => {}
            "--target" if targets::ALL.contains(&value.as_str()) => settings.targets = vec![value],
            "--count" => settings.count = number()?,
            "--seed" => settings.seed = number()?,
            "--limit-ms" => settings.limit = Duration::from_millis(number()?),
            _ => return Err(format!("unknown flag or value: {flag} {value}")),
        }
    }
    Ok(settings)
}

/// What is running now, for the watchdog.
struct Current {
    started_ns: AtomicU64,
    input: Mutex<(String, String)>,
}

fn main() -> ExitCode {
    let settings = match settings() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let (documents, expressions) = corpus::load();
    eprintln!(
        "corpus: {} documents, {} expressions; {} inputs per target, seed {}",
        documents.len(),
        expressions.len(),
        settings.count,
        settings.seed
    );
    let epoch = Instant::now();
    let current = Arc::new(Current {
        started_ns: AtomicU64::new(0),
        input: Mutex::new((String::new(), String::new())),
    });
    watchdog(Arc::clone(&current), epoch, settings.limit);
    // Panics are caught per input and reported as finds; keep their messages off the terminal.
    panic::set_hook(Box::new(|_| {}));
    let mut finds = 0;
    for target in &settings.targets {
        let mut rng = Rng::new(settings.seed ^ (target.len() as u64 * 0x1000_0001));
        let started = Instant::now();
        for i in 0..settings.count {
            let text = targets::input(target, &mut rng, &documents, &expressions);
            *lock(&current.input) = (target.clone(), text.clone());
            current
                .started_ns
                .store(epoch.elapsed().as_nanos() as u64 + 1, Ordering::SeqCst);
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| targets::run(target, &text)));
            current.started_ns.store(0, Ordering::SeqCst);
            let problem = match outcome {
                Ok(Ok(())) => continue,
                Ok(Err(finding)) => finding,
                Err(payload) => format!("panic: {}", panic_message(&payload)),
            };
            finds += 1;
            let path = save(target, &text, &problem);
            eprintln!("FIND {target} #{i}: {problem} → {}", path.display());
        }
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{target:<8} {:>10} inputs in {seconds:7.1} s ({:>8.0}/s)",
            settings.count,
            settings.count as f64 / seconds
        );
    }
    println!("finds: {finds}");
    ExitCode::from(u8::from(finds > 0))
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".to_owned())
}

/// Saves an input that broke something; its name is a hash of the text.
fn save(target: &str, text: &str, problem: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("finds");
    let _ = std::fs::create_dir_all(&dir);
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let path = dir.join(format!("{target}-{hash:016x}.txt"));
    let _ = std::fs::write(&path, text);
    let _ = std::fs::write(path.with_extension("why"), problem);
    path
}

/// Aborts the process (saving the input) when one input runs longer than `limit`: a hang.
fn watchdog(current: Arc<Current>, epoch: Instant, limit: Duration) {
    std::thread::spawn(move || loop {
        std::thread::sleep(limit / 4);
        let started = current.started_ns.load(Ordering::SeqCst);
        if started == 0 {
            continue;
        }
        let running = epoch.elapsed().as_nanos() as u64 - (started - 1);
        if running > limit.as_nanos() as u64 {
            let (target, text) = lock(&current.input).clone();
            let path = save(
                &target,
                &text,
                &format!("hang: over {} ms", limit.as_millis()),
            );
            eprintln!(
                "FIND {target}: an input ran over {} ms (a hang) → {}",
                limit.as_millis(),
                path.display()
            );
            std::process::exit(1);
        }
    });
}
