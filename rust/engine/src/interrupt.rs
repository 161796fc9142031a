//! Cooperative cancellation of long computations: one [`Stop`] shared by everything that can run
//! long (perft, divide, path counting, playouts, search, move listing, vector stepping).
//!
//! The work calls [`Stop::check`] every so often (each call site keeps the work between two
//! checks to microseconds) and returns [`Error::Interrupted`] once a stop was requested, changing
//! nothing the caller can see. A stop is requested either directly ([`Stop::request`], from any
//! thread) or by the *poll*: a function the caller installs (the Python binding's asks Python
//! whether Ctrl-C was pressed) that [`Stop::check`] calls on the caller's thread at most once every
//! [`POLL_INTERVAL`]. Work handed to other threads is waited for with [`Stop::install`] or
//! [`Stop::wait`], which poll while waiting, so the caller keeps polling and the workers only read
//! a flag.

use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

/// How often the poll runs while work goes on (the answer to Ctrl-C comes within about this).
pub const POLL_INTERVAL: Duration = Duration::from_millis(25);

/// A stop flag, shared by every thread working on one call, with an optional poll.
pub struct Stop<'a> {
    requested: AtomicBool,
    poll: Option<Poll<'a>>,
}

/// The caller's poll: asked on the caller's thread (the only one Python lets handle signals).
struct Poll<'a> {
    /// Returns false when the work should stop.
    go_on: &'a (dyn Fn() -> bool + Sync),
    owner: ThreadId,
    start: Instant,
    /// Nanoseconds after `start` when the poll is next due.
    due: AtomicU64,
}

impl Default for Stop<'_> {
    fn default() -> Self {
        Stop::new()
    }
}

impl<'a> Stop<'a> {
    /// A flag that only [`Stop::request`] sets.
    pub fn new() -> Self {
        Stop { requested: AtomicBool::new(false), poll: None }
    }

    /// A flag that `go_on` also sets, when it returns false: it is asked on this thread every
    /// [`POLL_INTERVAL`] while the work checks in.
    pub fn polling(go_on: &'a (dyn Fn() -> bool + Sync)) -> Self {
        let poll = Poll { go_on, owner: std::thread::current().id(), start: Instant::now(), due: AtomicU64::new(0) };
        let stop = Stop { requested: AtomicBool::new(false), poll: Some(poll) };
        stop.poll_later();
        stop
    }

    /// Asks the work to stop (from any thread).
    pub fn request(&self) {
        self.requested.store(true, Relaxed);
    }

    pub fn is_requested(&self) -> bool {
        self.requested.load(Relaxed)
    }

    /// `Err(Interrupted)` once a stop is requested; on the caller's thread, runs the poll when it
    /// is due. Costs a flag read and a clock read: call it every few microseconds of work.
    #[inline]
    pub fn check(&self) -> Result<()> {
        if self.requested.load(Relaxed) {
            return Err(Error::Interrupted);
        }
        match &self.poll {
            Some(poll) if poll.start.elapsed().as_nanos() as u64 >= poll.due.load(Relaxed) => self.poll_now(),
            _ => Ok(()),
        }
    }

    #[cold]
    fn poll_now(&self) -> Result<()> {
        let Some(poll) = &self.poll else { return Ok(()) };
        if std::thread::current().id() != poll.owner {
            return Ok(());
        }
        self.poll_later();
        if !(poll.go_on)() {
            self.request();
            return Err(Error::Interrupted);
        }
        Ok(())
    }

    fn poll_later(&self) {
        if let Some(poll) = &self.poll {
            let next = poll.start.elapsed() + POLL_INTERVAL;
            poll.due.store(next.as_nanos() as u64, Relaxed);
        }
    }

    /// Waits for `count` results on `done` (sent by work on other threads), polling meanwhile.
    /// When the poll asks to stop, the stop is requested and the work still waited for (it ends
    /// soon, since it checks the flag); then `Err(Interrupted)`. A sender that hangs up early
    /// (a panicking worker) ends the wait with the results received so far.
    pub fn wait<R>(&self, done: &mpsc::Receiver<R>, count: usize) -> Result<Vec<R>> {
        let mut results = Vec::with_capacity(count);
        while results.len() < count {
            match done.recv_timeout(POLL_INTERVAL) {
                Ok(r) => results.push(r),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if !self.is_requested() {
                        if let Some(poll) = &self.poll {
                            if std::thread::current().id() == poll.owner && !(poll.go_on)() {
                                self.request();
                            }
                        }
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        if self.is_requested() {
            return Err(Error::Interrupted);
        }
        Ok(results)
    }

    /// `work` on `pool` while this thread polls (`pool.install` would block it without polling).
    /// No thread is created: the work is a job of the pool's own threads.
    pub fn install<R: Send>(&self, pool: &rayon::ThreadPool, work: impl FnOnce() -> R + Send) -> Result<R> {
        let (send, done) = mpsc::channel();
        let result = pool.in_place_scope(|scope| {
            scope.spawn(move |_| {
                // The receiver outlives the scope, so the send cannot fail.
                let _ = send.send(work());
            });
            self.wait(&done, 1)
        })?;
        result.into_iter().next().ok_or(Error::Interrupted)
    }
}

/// Calls `check` every `period` steps of a loop (a power of two keeps the test a mask).
#[inline(always)]
pub fn every(step: u64, period: u64) -> bool {
    step & (period - 1) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn a_stop_is_seen_by_check() {
        let stop = Stop::new();
        assert!(stop.check().is_ok());
        stop.request();
        assert_eq!(stop.check(), Err(Error::Interrupted));
    }

    #[test]
    fn the_poll_runs_on_the_callers_thread_once_due_and_can_stop() {
        let asked = AtomicUsize::new(0);
        let go_on = || asked.fetch_add(1, Relaxed) < 1;
        let stop = Stop::polling(&go_on);
        assert!(stop.check().is_ok(), "not due yet");
        assert_eq!(asked.load(Relaxed), 0);
        std::thread::sleep(POLL_INTERVAL);
        assert!(stop.check().is_ok());
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(POLL_INTERVAL);
                assert!(stop.check().is_ok(), "other threads never poll");
            });
        });
        std::thread::sleep(POLL_INTERVAL);
        assert_eq!(stop.check(), Err(Error::Interrupted));
        assert_eq!(asked.load(Relaxed), 2);
    }

    #[test]
    fn install_polls_while_the_pool_works_and_the_work_sees_the_stop() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let go_on = || false;
        let stop = Stop::polling(&go_on);
        let result = stop.install(&pool, || loop {
            if stop.is_requested() {
                return 1;
            }
            std::thread::yield_now();
        });
        assert_eq!(result, Err(Error::Interrupted));
        let never = Stop::new();
        assert_eq!(never.install(&pool, || 7), Ok(7));
    }
}
