//! What makes a run survive a crash: the state journal, created atomically (a temporary file,
//! fsync, rename) and then appended one record a line — each answer the moment it arrives (and
//! flushed to disk when it came from a real provider: such an answer is never asked for again),
//! each feed — and the trace, appended and flushed one line per event. Records are written
//! BEFORE the events they explain, so the trace never holds an event the state cannot
//! reproduce; on resume the missing lines are appended. Each record is written once: the cost
//! of `--state` grows with the run, not with its square.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use logicmd::run::session::Record;
use serde::Serialize;
use serde_json::Value;

/// Test only: `LOGICMD_TEST_CRASH=state:N` aborts the process right after the N-th state write
/// (the header is the first, each record one more), `trace:N` right after the N-th trace line
/// (both counted from 1 in this process). The crash
/// tests use it to stop a run at every point; nothing else should set it.
pub const CRASH_VARIABLE: &str = "LOGICMD_TEST_CRASH";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CrashPoint {
    State(u64),
    Trace(u64),
}

fn crash_point() -> Option<CrashPoint> {
    static POINT: OnceLock<Option<CrashPoint>> = OnceLock::new();
    *POINT.get_or_init(|| {
        let value = std::env::var(CRASH_VARIABLE).ok()?;
        let (kind, count) = value.split_once(':')?;
        let count = count.parse().ok()?;
        match kind {
            "state" => Some(CrashPoint::State(count)),
            "trace" => Some(CrashPoint::Trace(count)),
            _ => None,
        }
    })
}

static STATE_WRITES: AtomicU64 = AtomicU64::new(0);
static TRACE_LINES: AtomicU64 = AtomicU64::new(0);

fn count_and_maybe_crash(counter: &AtomicU64, point: fn(u64) -> CrashPoint) {
    let count = counter.fetch_add(1, Ordering::SeqCst) + 1;
    if crash_point() == Some(point(count)) {
        std::process::abort();
    }
}

/// Writes `text` to `path` so that a reader sees the old file or the new one, never a part:
/// a temporary file beside it, flushed to disk, then renamed over it.
fn write_text_atomically(path: &Path, text: &str) -> io::Result<()> {
    let temporary = temporary_beside(path);
    let result = (|| {
        let mut file = File::create(&temporary)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        fs::rename(&temporary, path)?;
        sync_directory(path);
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

/// The state journal, appended one record a line.
pub struct Journal {
    file: File,
}

impl Journal {
    /// A new journal at `path` holding `header` and `records`, replacing any file there
    /// atomically; then open to append.
    pub fn create(path: &Path, header: &Value, records: &[Record]) -> io::Result<Journal> {
        let mut text = line(header);
        for record in records {
            text.push_str(&line(record));
        }
        write_text_atomically(path, &text)?;
        count_and_maybe_crash(&STATE_WRITES, CrashPoint::State);
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(Journal { file })
    }

    /// The journal of a resumed run, its torn last line (past `complete_bytes`) cut off.
    pub fn reopen(path: &Path, complete_bytes: u64) -> io::Result<Journal> {
        let file = OpenOptions::new().write(true).open(path)?;
        file.set_len(complete_bytes)?;
        drop(file);
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(Journal { file })
    }

    /// Appends `record`; an answer from a real provider is flushed to the disk before anything
    /// else happens (a simulated answer is given again by the replay itself).
    pub fn append(&mut self, record: &Record, to_disk: bool) -> io::Result<()> {
        self.file.write_all(line(record).as_bytes())?;
        if to_disk {
            self.file.sync_data()?;
        }
        count_and_maybe_crash(&STATE_WRITES, CrashPoint::State);
        Ok(())
    }

    /// Flushes everything to the disk (at a pause or the end).
    pub fn sync(&self) -> io::Result<()> {
        self.file.sync_data()
    }
}

fn line(value: &impl Serialize) -> String {
    let mut line = serde_json::to_string(value).unwrap_or_default();
    line.push('\n');
    line
}

fn temporary_beside(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

/// The rename itself is durable only once the directory is; where a directory cannot be
/// opened (some platforms), the file's own fsync is what we have.
fn sync_directory(path: &Path) {
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if let Ok(directory) = File::open(directory) {
        let _ = directory.sync_all();
    }
}

/// The JSON Lines trace, appended one flushed line per event.
pub struct Trace {
    file: File,
}

impl Trace {
    /// A new trace (an existing file is replaced).
    pub fn create(path: &Path) -> io::Result<Trace> {
        Ok(Trace {
            file: File::create(path)?,
        })
    }

    /// The trace of a resumed run: its complete lines (a torn last line, the write a crash cut
    /// short, is cut off the file) and the file, positioned to append after them.
    pub fn reopen(path: &Path) -> io::Result<(Trace, Vec<String>)> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        let (lines, complete_bytes) = complete_lines(&mut file)?;
        file.set_len(complete_bytes)?;
        file.seek(SeekFrom::Start(complete_bytes))?;
        Ok((Trace { file }, lines))
    }

    /// Appends one event as a line and flushes it to the operating system.
    pub fn append(&mut self, event: &Value) -> io::Result<()> {
        let mut line = event_line(event);
        line.push('\n');
        self.file.write_all(line.as_bytes())?;
        self.file.flush()?;
        count_and_maybe_crash(&TRACE_LINES, CrashPoint::Trace);
        Ok(())
    }
}

/// An event as the trace writes it (without the newline).
pub fn event_line(event: &Value) -> String {
    serde_json::to_string(event).unwrap_or_default()
}

/// The lines ended by `\n` and how many bytes they take.
fn complete_lines(file: &mut File) -> io::Result<(Vec<String>, u64)> {
    file.seek(SeekFrom::Start(0))?;
    let mut reader = BufReader::new(file);
    let mut lines = Vec::new();
    let mut complete = 0u64;
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let read = reader.read_until(b'\n', &mut buffer)?;
        if read == 0 || buffer.last() != Some(&b'\n') {
            break;
        }
        complete += read as u64;
        buffer.pop();
        lines.push(String::from_utf8_lossy(&buffer).into_owned());
    }
    Ok((lines, complete))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("logicmd-durable-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_torn_last_line_is_cut_off_and_appending_goes_on_after_the_complete_ones() {
        let dir = scratch("torn");
        let path = dir.join("trace.jsonl");
        fs::write(&path, "{\"seq\":0}\n{\"seq\":1}\n{\"se").unwrap();
        let (mut trace, lines) = Trace::reopen(&path).unwrap();
        assert_eq!(lines, ["{\"seq\":0}", "{\"seq\":1}"]);
        trace.append(&json!({"seq": 2})).unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\"seq\":0}\n{\"seq\":1}\n{\"seq\":2}\n"
        );
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn an_atomic_write_replaces_the_whole_file_and_leaves_no_temporary() {
        let dir = scratch("atomic");
        let path = dir.join("state.json");
        fs::write(&path, "old contents that are longer than the new ones").unwrap();
        write_text_atomically(&path, "{\"a\":1}\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"a\":1}\n");
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [std::ffi::OsString::from("state.json")]);
        let _ = fs::remove_dir_all(dir);
    }
}
