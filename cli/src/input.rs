//! The one way the CLI reads a document or an import: within the core's size limit, never more
//! than the limit + 1 bytes (enough to tell that input is too large), from a file or from
//! standard input (`-`).

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

use logicmd::diagnostic::Diagnostic;
use logicmd::limits::{input_too_large, over_limit};

/// Reads at most `limit + 1` bytes: enough for the core to tell that a file is too large.
pub fn read_bounded(path: &Path, limit: usize) -> io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        read_at_most(io::stdin().lock(), limit)
    } else {
        read_at_most(File::open(path)?, limit)
    }
}

fn read_at_most(source: impl Read, limit: usize) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    source.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// A LOGIC.md document as read: its bytes within the bound, and, when its markdown body goes on
/// past the bound, where the rest is (the bound applies to the frontmatter: the body is not
/// validated, spec §15.1.8, so it is not read).
pub struct ReadDocument {
    pub bytes: Vec<u8>,
    pub tail: Option<Tail>,
}

/// The part of a document's body past what was read.
pub struct Tail {
    /// Bytes already read past the frontmatter.
    read: Vec<u8>,
    /// Where the unread rest starts in the file (standard input goes on where it stopped).
    from: u64,
}

/// Reads a document: at most `limit + 1` bytes, and, when that is more than `limit` but holds the
/// whole frontmatter, only the frontmatter, with the rest of the body left unread as a [`Tail`].
/// A text that is not a frontmatter document (a DRTL topology) is bounded whole.
pub fn read_document(path: &Path, limit: usize) -> io::Result<ReadDocument> {
    let mut bytes = read_bounded(path, limit)?;
    if bytes.len() <= limit {
        return Ok(ReadDocument { bytes, tail: None });
    }
    let Some(end) = logicmd::frontmatter::end(&bytes[..limit]) else {
        return Ok(ReadDocument { bytes, tail: None });
    };
    let read = bytes.split_off(end);
    Ok(ReadDocument {
        bytes,
        tail: Some(Tail {
            read,
            from: limit as u64 + 1,
        }),
    })
}

/// Writes the unread tail of the document at `path` to `out`, copying it in pieces.
pub fn copy_tail(path: &Path, tail: &Tail, out: &mut dyn io::Write) -> io::Result<()> {
    use std::io::{Seek, SeekFrom};
    out.write_all(&tail.read)?;
    if path.as_os_str() == "-" {
        io::copy(&mut io::stdin().lock(), out)?;
    } else {
        let mut file = File::open(path)?;
        file.seek(SeekFrom::Start(tail.from))?;
        io::copy(&mut file, out)?;
    }
    Ok(())
}

/// Writes `text` and then `path`'s unread tail (if any) to `path`, through a temporary file in
/// the same directory renamed over it: the tail is read from the file before it is replaced.
pub fn write_document(path: &Path, text: &str, tail: Option<&Tail>) -> io::Result<()> {
    let Some(tail) = tail else {
        return fs::write(path, text);
    };
    let directory = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let temporary = directory.join(format!(".{name}.logicmd-{}", std::process::id()));
    let written = (|| {
        let mut out = io::BufWriter::new(File::create(&temporary)?);
        io::Write::write_all(&mut out, text.as_bytes())?;
        copy_tail(path, tail, &mut out)?;
        io::Write::flush(&mut out)?;
        drop(out);
        fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// The size of `path` when it is a regular file larger than `limit`: for messages only (the
/// bound is enforced by reading), and unknown for standard input and pipes.
pub fn size_over(path: &Path, limit: usize) -> Option<u64> {
    if path.as_os_str() == "-" {
        return None;
    }
    fs::metadata(path)
        .ok()
        .filter(|metadata| metadata.is_file() && metadata.len() > limit as u64)
        .map(|metadata| metadata.len())
}

/// The core saw only the bounded prefix of an oversized input, so its `input-too-large` cannot
/// know the size: this puts in the size the file system reports, or none.
pub fn tell_true_size(path: &Path, limit: usize, diagnostics: &mut [Diagnostic]) {
    for diagnostic in diagnostics.iter_mut() {
        if diagnostic.code == "input-too-large" {
            let help = diagnostic.help.take();
            *diagnostic = input_too_large(size_over(path, limit), limit);
            diagnostic.help = help;
        }
    }
}

/// "`id` is 9.0 MiB, over the 8 MiB limit", for an import read from `path`.
pub fn too_large_import(id: &str, path: &Path, limit: usize) -> String {
    format!("`{id}` is {}", over_limit(size_over(path, limit), limit))
}

/// Bytes as UTF-8 text, or what is wrong and where ("line 3, column 7").
pub fn utf8_text(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|error| {
        let valid_up_to = error.utf8_error().valid_up_to();
        let bytes = error.into_bytes();
        // The prefix up to the first invalid byte is UTF-8 by definition.
        let prefix = String::from_utf8_lossy(&bytes[..valid_up_to]);
        let line = prefix.matches('\n').count() + 1;
        let column = prefix.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        format!("is not UTF-8 text (the first invalid byte is at line {line}, column {column}); re-save it as UTF-8")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_no_more_than_one_byte_past_the_limit() {
        let path = std::env::temp_dir().join(format!("logicmd-bounded-{}", std::process::id()));
        std::fs::write(&path, vec![b'x'; 10_000]).unwrap();
        assert_eq!(read_bounded(&path, 100).unwrap().len(), 101);
        assert_eq!(read_bounded(&path, 10_000).unwrap().len(), 10_000);
        assert_eq!(size_over(&path, 100), Some(10_000));
        assert_eq!(size_over(&path, 10_000), None);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn names_the_place_of_the_first_byte_that_is_not_utf8() {
        assert_eq!(utf8_text(b"ok\n".to_vec()).unwrap(), "ok\n");
        assert_eq!(
            utf8_text(b"---\nname: caf\xe9\n".to_vec()).unwrap_err(),
            "is not UTF-8 text (the first invalid byte is at line 2, column 10); re-save it as UTF-8"
        );
        assert_eq!(
            utf8_text(["é\u{1F600}".as_bytes(), &[0xff]].concat()).unwrap_err(),
            "is not UTF-8 text (the first invalid byte is at line 1, column 3); re-save it as UTF-8"
        );
    }
}
