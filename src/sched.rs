//! A short scheduler slice for the threads that read and answer input.
//!
//! With many search threads on few cores (Threads 64 on 2), a thread woken
//! by a new line waits its turn among all of them: `quit` was read 250-530
//! ms after it was sent. Linux's EEVDF scheduler (6.12 and later) lets a
//! thread ask for a shorter slice, and a woken thread with a shorter slice
//! preempts the running one. The search threads keep the default slice and
//! their full share of the CPU: the engine's search thread, which threads
//! started by an input thread would inherit the short slice from, asks for
//! the default again. Elsewhere, or where the kernel refuses, this does
//! nothing.

/// The slice asked for, in nanoseconds: the shortest Linux grants (0.1 ms).
#[cfg(target_os = "linux")]
const SLICE_NS: u64 = 100_000;

/// Asks for a short slice for the calling thread (its nice value kept).
pub fn short_slice() {
    #[cfg(target_os = "linux")]
    set_slice(SLICE_NS);
}

/// Asks for the default slice again (for the threads that search).
pub fn default_slice() {
    #[cfg(target_os = "linux")]
    set_slice(0);
}

/// `ns` 0: the kernel's default.
#[cfg(target_os = "linux")]
fn set_slice(ns: u64) {
    {
        // SAFETY: getpriority and sched_setattr only read the arguments
        // given; `attr` is a zeroed, fully initialised struct of the size
        // its `size` field states, alive for the call; pid 0 is this thread.
        // Measured: quit's read and exit with Threads 64 on 2 cores.
        let r = unsafe {
            let nice = libc::getpriority(libc::PRIO_PROCESS, 0);
            let mut attr: libc::sched_attr = std::mem::zeroed();
            attr.size = size_of::<libc::sched_attr>() as u32;
            attr.sched_policy = libc::SCHED_OTHER as u32;
            attr.sched_nice = nice;
            attr.sched_runtime = ns;
            libc::syscall(libc::SYS_sched_setattr, 0, &raw const attr, 0)
        };
        if r != 0 {
            log::debug!("no short slice: {}", std::io::Error::last_os_error());
        }
    }
}
