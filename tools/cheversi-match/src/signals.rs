//! The engines' process groups and the runner's interrupts: on SIGINT or
//! SIGTERM the runner lets the game being recorded finish its writes, ends
//! every engine's group (children they forked included), says how to
//! resume, and exits. A SIGKILL of the runner cannot be caught: each engine
//! is then ended by the kernel (`PR_SET_PDEATHSIG`, see `engine_process`).

use std::sync::{Mutex, MutexGuard};

/// Process group ids (= leader pids) of running engines.
static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());
/// Held while a game is written to the PGN and the state.
static RECORDING: Mutex<()> = Mutex::new(());

fn groups() -> MutexGuard<'static, Vec<u32>> {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Remembers the group of a started engine.
pub fn register(pid: u32) {
    groups().push(pid);
}

/// Forgets an ended engine's group.
pub fn unregister(pid: u32) {
    groups().retain(|&p| p != pid);
}

/// Sends SIGKILL to every process of the group led by `pid`.
pub fn kill_group(pid: u32) {
    #[cfg(unix)]
    if let Ok(pgid) = i32::try_from(pid) {
        // SAFETY: kill(2) with a negative pid signals a process group; it
        // touches no memory of this process.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// The lock a game is recorded under, so an interrupt never cuts a write short.
pub fn recording() -> MutexGuard<'static, ()> {
    RECORDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Handles SIGINT and SIGTERM from now on; `command` is how to resume.
pub fn on_interrupt(command: String, state_path: String) {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) {
            Ok(s) => s,
            Err(e) => {
                log::warn!("cannot handle interrupts: {e}");
                return;
            }
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let _recording = recording();
                for &pid in groups().iter() {
                    kill_group(pid);
                }
                eprintln!(
                    "\ninterrupted: the finished games are saved in {state_path}. \
                     To resume the match, run:\n  {command}"
                );
                std::process::exit(128 + signal);
            }
        });
    }
    #[cfg(not(unix))]
    let _ = (command, state_path);
}
