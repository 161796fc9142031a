//! Long calls and threads: the one helper that runs engine work with the GIL released and
//! Ctrl-C heard (`run_interruptible`), and the lock that makes an object wait for another
//! thread's call instead of failing (`Shared`). docs/design.md ("Interrupts", "Threads").

use crate::errors::{BcResult, ConcurrentUseError, Raised};
use boardcore_engine::interrupt::{Stop, POLL_INTERVAL};
use boardcore_engine::paths::Progress;
use boardcore_engine::Error;
use pyo3::prelude::*;
use std::sync::{Condvar, Mutex, PoisonError};
use std::thread::ThreadId;

/// Runs `work` with the GIL released. Every `POLL_INTERVAL` (25 ms) of work the calling thread
/// takes the GIL back for a moment to run Python's signal handlers; if one raises (Ctrl-C's
/// `KeyboardInterrupt`), the work is stopped (every thread of it) and that exception is
/// returned. The work runs on the calling thread: no thread is started for it.
pub fn run_interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Stop<'_>) -> Result<T, Error> + Send,
) -> BcResult<T> {
    run_reporting(py, None, 0, |stop, _| work(stop))
}

/// `run_interruptible` for a count that reports after every ply (`Progress`): each report calls
/// `progress(ply, depth, positions)` with the GIL held, if given; an exception it raises stops the
/// work and is returned, as a signal handler's is.
pub fn run_reporting<T: Send>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    depth: u32,
    work: impl FnOnce(&Stop<'_>, &mut Progress<'_>) -> Result<T, Error> + Send,
) -> BcResult<T> {
    let raised = Raised::default();
    let go_on = || Python::attach(|py| py.check_signals().map_err(|e| raised.keep(e)).is_ok());
    let mut report = |ply: u32, positions: usize| match &progress {
        None => Ok(()),
        Some(callback) => {
            Python::attach(|py| callback.call1(py, (ply, depth, positions)).map(drop)).map_err(|e| raised.keep(e))
        }
    };
    let result = py.detach(|| work(&Stop::polling(&go_on), &mut report));
    raised.or(result.map_err(Into::into))
}

/// A value used by one Python thread at a time, for objects whose calls change them with the GIL
/// released (a searcher, a VectorEnv): a second thread's call waits for the first to finish (with
/// the GIL released, so nothing deadlocks, and hearing Ctrl-C), then runs. The one call that
/// cannot wait is one from the thread already using the value (a signal handler running during
/// the call): it raises `ConcurrentUseError`.
pub struct Shared<T> {
    slot: Mutex<Slot<T>>,
    returned: Condvar,
}

struct Slot<T> {
    /// `None` while a call has the value out.
    value: Option<T>,
    /// The thread of that call.
    holder: Option<ThreadId>,
}

/// The value, out of its `Shared` for one call; put back when dropped.
pub struct Taken<'a, T> {
    value: Option<T>,
    home: &'a Shared<T>,
}

impl<T: Send> Shared<T> {
    pub fn new(value: T) -> Self {
        Shared { slot: Mutex::new(Slot { value: Some(value), holder: None }), returned: Condvar::new() }
    }

    /// The value, once no other call has it (`what` names the call, for the error). Raises what a
    /// signal handler raises while waiting.
    pub fn take(&self, py: Python<'_>, what: &str) -> BcResult<Taken<'_, T>> {
        let me = std::thread::current().id();
        {
            let mut slot = self.lock();
            if let Some(value) = slot.value.take() {
                slot.holder = Some(me);
                return Ok(Taken { value: Some(value), home: self });
            }
            if slot.holder == Some(me) {
                return Err(ConcurrentUseError::new_err(format!(
                    "{what} was called while this thread is still in a call on the same object (from a signal handler?)"
                ))
                .into());
            }
        }
        let value = run_interruptible(py, |stop| loop {
            {
                let slot = self.lock();
                let mut slot = match slot.value {
                    Some(_) => slot,
                    None => self.returned.wait_timeout(slot, POLL_INTERVAL).unwrap_or_else(PoisonError::into_inner).0,
                };
                if let Some(value) = slot.value.take() {
                    slot.holder = Some(me);
                    break Ok(value);
                }
            }
            // Never with the slot locked: the poll takes the GIL, whose holder may be waiting
            // for the slot.
            stop.check()?;
        })?;
        Ok(Taken { value: Some(value), home: self })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slot<T>> {
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<T> std::ops::Deref for Taken<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value.as_ref().expect("a taken value is there until dropped")
    }
}

impl<T> std::ops::DerefMut for Taken<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.value.as_mut().expect("a taken value is there until dropped")
    }
}

impl<T> Drop for Taken<'_, T> {
    fn drop(&mut self) {
        let mut slot = self.home.slot.lock().unwrap_or_else(PoisonError::into_inner);
        slot.value = self.value.take();
        slot.holder = None;
        self.home.returned.notify_one();
    }
}
