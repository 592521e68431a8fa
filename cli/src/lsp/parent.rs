//! The editor that started the server may die without saying `exit` (a crash, `kill -9`): the
//! `processId` it sent in `initialize` is watched, and the server ends when that process is
//! gone, as the protocol asks, instead of living on with nobody to answer.

use std::time::Duration;

/// How often the editor's process is looked for.
const EVERY: Duration = Duration::from_secs(1);

/// Ends this process (status 1, the protocol's status for an end without `shutdown`) once
/// process `pid` no longer exists. Where that cannot be asked (not Unix), nothing is watched.
pub fn watch(pid: u32) {
    let Ok(pid) = i32::try_from(pid) else {
        return;
    };
    if pid <= 0 {
        // 0 and negative ids name process groups, not an editor.
        return;
    }
    let _ = std::thread::Builder::new()
        .name("logicmd-lsp-parent".to_owned())
        .spawn(move || loop {
            std::thread::sleep(EVERY);
            if !alive(pid) {
                eprintln!("logicmd lsp: the editor (process {pid}) is gone: exiting");
                std::process::exit(i32::from(crate::EXIT_INVALID));
            }
        });
}

#[cfg(unix)]
fn alive(pid: i32) -> bool {
    extern "C" {
        fn kill(pid: std::ffi::c_int, signal: std::ffi::c_int) -> std::ffi::c_int;
    }
    // SAFETY: signal 0 sends nothing: `kill` only reports whether the process exists (and
    // whether it may be signalled). `pid` is positive, so it names one process, not a group.
    let found = unsafe { kill(pid, 0) } == 0;
    // EPERM: it exists but belongs to someone else.
    found || std::io::Error::last_os_error().raw_os_error() == Some(1)
}

#[cfg(not(unix))]
fn alive(_pid: i32) -> bool {
    true
}
