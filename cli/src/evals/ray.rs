//! `logicmd evals run --engine ray`: the cases run as Ray tasks through the Python package
//! (`python -m logicmd.evals run … --engine ray --out -`), which holds the same core in every
//! worker. This side writes the cases still to run to a scratch dataset, starts the
//! interpreter, and takes each batch's rows from its standard output as the batch finishes:
//! they are written to `--out` at once (an interrupted eval keeps them), and resuming, the
//! progress bar, the summary, the report and the exit status stay the CLI's, whichever engine
//! ran the cases.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use logicmd::evals::{Case, Row};

use super::results;

/// Where the cases run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// A pool of threads on this machine (--jobs).
    Local,
    /// Ray tasks, through the Python package `logicmd[ray]`.
    Ray,
}

#[derive(clap::Args)]
#[command(next_help_heading = "Engine")]
pub struct Flags {
    /// Where the cases run.
    #[arg(long, value_enum, default_value_t = Engine::Local)]
    pub engine: Engine,
    /// The Ray cluster to join (`ray://head:10001`, or `auto`) [default: a Ray started on this
    /// machine for the eval].
    #[arg(long, value_name = "ADDRESS")]
    pub address: Option<String>,
    /// The Python interpreter that has `logicmd[ray]` installed.
    #[arg(
        long,
        value_name = "PYTHON",
        env = "LOGICMD_PYTHON",
        default_value = "python3"
    )]
    pub python: String,
}

/// Who answers the model calls on Ray: only answers made inside the session travel there.
pub enum Answers<'a> {
    Synthetic { seed: u64 },
    Scripted { script: &'a str },
}

/// One eval handed to Ray: the documents as named on the command line (the document first),
/// the scorers as given, the answers and the cases still to run.
pub struct Request<'a> {
    pub documents: Vec<String>,
    /// The directory imports may be read from (`--root`), as the local pool reads them.
    pub root: Option<&'a Path>,
    pub scorers: &'a [String],
    pub answers: Answers<'a>,
    pub cases: Vec<&'a Case>,
}

/// The modules the engine imports, checked before any case is written.
const PROBE: &str = "import logicmd.evals, ray";

/// Runs `request` on Ray, handing each row to `take` as its batch finishes (batches in the
/// order they finish); stops at the first error `take` returns.
pub fn run(
    flags: &Flags,
    request: &Request,
    take: &mut dyn FnMut(Row) -> Result<(), String>,
) -> Result<(), String> {
    let scratch = Scratch::new()?;
    let data = scratch.0.join("cases.jsonl");
    write_cases(&data, &request.cases)?;
    let mut command = Command::new(&flags.python);
    command.args(["-m", "logicmd.evals", "run", &request.documents[0]]);
    command.arg("--data").arg(&data);
    for variant in &request.documents[1..] {
        command.args(["--variant", variant]);
    }
    for scorer in request.scorers {
        command.args(["--scorer", scorer]);
    }
    match request.answers {
        Answers::Synthetic { seed } => command.args(["--dry-run", "--seed", &seed.to_string()]),
        Answers::Scripted { script } => command.args(["--provider", &format!("scripted:{script}")]),
    };
    if let Some(root) = request.root {
        command.arg("--root").arg(root);
    }
    command.args(["--engine", "ray"]);
    if let Some(address) = &flags.address {
        command.args(["--address", address]);
    }
    command.args(["--out", "-"]);
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", flags.python))?;
    // Ray talks on standard error; read it aside so neither pipe fills and stops the other.
    let mut stderr = child.stderr.take();
    let said = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(stderr) = stderr.as_mut() {
            let _ = stderr.read_to_string(&mut text);
        }
        text
    });
    let taken = match child.stdout.take() {
        Some(stdout) => take_rows(BufReader::new(stdout), take),
        None => Err("the interpreter's output is not readable".to_owned()),
    };
    if taken.is_err() {
        let _ = child.kill();
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let said = said.join().unwrap_or_default();
    taken?;
    // 0: every row passed, 1: some did not; both gave every row.
    if !matches!(status.code(), Some(0 | 1)) {
        return Err(format!(
            "the eval on Ray stopped ({status}): {}",
            last_lines(&said)
        ));
    }
    Ok(())
}

/// Each row line of the interpreter's output, read as it comes.
fn take_rows(
    output: impl BufRead,
    take: &mut dyn FnMut(Row) -> Result<(), String>,
) -> Result<(), String> {
    for (index, line) in output.lines().enumerate() {
        let line = line.map_err(|e| format!("cannot read the rows from Ray: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let row = results::row(&line)
            .map_err(|e| format!("row {} from Ray is not a result row: {e}", index + 1))?;
        take(row)?;
    }
    Ok(())
}

/// The interpreter can import the package and Ray, or the error says how to get there.
pub fn probe(python: &str) -> Result<(), String> {
    let done = Command::new(python)
        .args(["-c", PROBE])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("--engine ray runs the cases through Python: cannot start `{python}` ({e}); name the interpreter with --python or LOGICMD_PYTHON"))?;
    if done.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&done.stderr);
    let why = stderr
        .lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or("no message");
    Err(format!(
        "--engine ray runs the cases through the Python package: `{python}` cannot import it ({why}); install it with `pip install 'logicmd[ray]'`, or name another interpreter with --python or LOGICMD_PYTHON"
    ))
}

fn write_cases(path: &Path, cases: &[&Case]) -> Result<(), String> {
    let shown = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).map_err(shown)?);
    for case in cases {
        let line = serde_json::to_string(case).map_err(|e| e.to_string())?;
        writeln!(file, "{line}").map_err(shown)?;
    }
    file.flush().map_err(shown)
}

/// The end of an interpreter's complaint (a traceback's last line says what went wrong).
fn last_lines(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = &lines[lines.len().saturating_sub(3)..];
    if tail.is_empty() {
        "no message".to_owned()
    } else {
        tail.join(" | ")
    }
}

/// A directory of its own, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, String> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir =
            std::env::temp_dir().join(format!("logicmd-evals-ray-{}-{stamp}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
