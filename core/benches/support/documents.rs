//! The documents a probe is asked for by name: `steps-1000`, `steps-5000`, a file, or the corpus.
//! (Include beside `corpus` and `generate`.)

use super::{corpus, generate};

/// The texts `what` names: a generated document, the file at that path, or else the corpus.
pub fn documents(what: &str) -> Vec<String> {
    match what {
        "steps-1000" => vec![generate::generated(1_000)],
        "steps-5000" => vec![generate::generated(5_000)],
        path if std::path::Path::new(path).is_file() => {
            vec![std::fs::read_to_string(path).expect("a UTF-8 file")]
        }
        _ => corpus::corpus(true).into_iter().map(|(_, t)| t).collect(),
    }
}
