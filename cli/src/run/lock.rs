//! One owner per state: a run that keeps a state file (`--state`, `--resume`) holds an advisory
//! lock on `STATE.lock` beside it for as long as it runs. The operating system releases it when
//! the process ends in any way (a crash, SIGKILL), so a crashed run's state can be resumed at
//! once, while a second run on a state in use is refused, naming the holder. The lock file
//! stays: deleting it would let a third run lock a new file while the first still holds the
//! old one.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A held lock; released when dropped (or when the process ends).
pub struct Lock {
    _file: File,
}

/// The lock file of `state`.
pub fn path_of(state: &Path) -> PathBuf {
    let mut name = state.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    state.with_file_name(name)
}

impl Lock {
    /// Takes the lock of `state`, or says who holds it.
    pub fn acquire(state: &Path) -> Result<Lock, String> {
        Lock::acquire_for(state, ("the state", "carry a state on"))
    }

    /// Takes the lock of `file`; when another process holds it, the refusal names the file as
    /// `what` and says that one run at a time may `do` it.
    pub fn acquire_for(file: &Path, (what, does): (&str, &str)) -> Result<Lock, String> {
        let state = file;
        let path = path_of(state);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| format!("cannot open the lock {}: {e}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                return Err(format!(
                    "{what} {} is in use by another logicmd run{}: one run at a time may \
                     {does} (wait for it to end, or stop it)",
                    state.display(),
                    if holder.is_empty() {
                        String::new()
                    } else {
                        format!(" ({holder})")
                    }
                ));
            }
            Err(TryLockError::Error(error)) => {
                return Err(format!("cannot lock {}: {error}", path.display()))
            }
        }
        // Who holds it, for the message a second run prints.
        let holder = format!(
            "pid {}: {}",
            std::process::id(),
            std::env::args().collect::<Vec<_>>().join(" ")
        );
        let _ = file.set_len(0);
        let _ = file.seek(SeekFrom::Start(0));
        let _ = file.write_all(holder.as_bytes());
        Ok(Lock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_naming_the_holder_and_a_released_one_is_taken() {
        let dir = std::env::temp_dir().join(format!("logicmd-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let state = dir.join("run.state.json");
        let first = Lock::acquire(&state).unwrap();
        let refused = Lock::acquire(&state).err().unwrap();
        assert!(
            refused.starts_with(&format!(
                "the state {} is in use by another logicmd run (pid {}: ",
                state.display(),
                std::process::id()
            )),
            "{refused}"
        );
        drop(first);
        assert!(Lock::acquire(&state).is_ok());
        let _ = std::fs::remove_dir_all(dir);
    }
}
