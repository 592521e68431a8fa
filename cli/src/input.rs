//! Reading input files within the core's size limit, so a huge file is refused, not loaded.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Reads at most `limit + 1` bytes: enough for the core to tell that a file is too large.
pub fn read_bounded(path: &Path, limit: usize) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        io::stdin().take(limit as u64 + 1).read_to_end(&mut bytes)?;
    } else {
        File::open(path)?
            .take(limit as u64 + 1)
            .read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}
