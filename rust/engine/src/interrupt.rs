//! Cooperative cancellation of long computations: one [`Stop`] shared by everything that can run
//! long (perft, divide, path counting, playouts, search, move listing, vector stepping).
//!
//! The work looks at the stop every so often and returns [`Error::Interrupted`] once a stop was
//! requested, changing nothing the caller can see. There are two looks:
//!
//! - [`Stop::checkpoint`], cheap enough for every ply of a playout or every step of a table
//!   build: one relaxed load of the stop's state word, and a branch. No clock, no syscall.
//! - [`Stop::check`], for loops whose steps are already short (perft nodes, playouts of games
//!   whose whole playout is short): the same load, and a clock read as a fallback (below).
//!
//! A stop is requested either directly ([`Stop::request`], from any thread) or by the *poll*: a
//! function the caller installs (the Python binding's asks Python whether Ctrl-C was pressed)
//! that runs on the caller's thread about every [`POLL_INTERVAL`]. Who says the poll is due: a
//! process-wide *watcher* thread (started on first use, asleep while no polling stop lives) sets
//! a bit in the state word of every live polling stop each [`POLL_INTERVAL`], so the next
//! checkpoint on the caller's thread runs the poll. [`Stop::check`] also reads the clock, so the
//! poll still runs where no watcher could be started (or after a `fork`, until a new one is).
//! Work handed to other threads is waited for with [`Stop::install`] or [`Stop::wait`], which
//! poll while waiting, so the caller keeps polling and the workers only read the flag.

use crate::error::{Error, Result};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the poll runs while work goes on (the answer to Ctrl-C comes within about this).
pub const POLL_INTERVAL: Duration = Duration::from_millis(25);

/// Bits of a stop's state word: a stop was requested...
const REQUESTED: u8 = 1;
/// ...or the watcher says the poll is due.
const POLL_DUE: u8 = 2;

/// A stop flag, shared by every thread working on one call, with an optional poll.
pub struct Stop<'a> {
    /// `REQUESTED | POLL_DUE` bits; shared with the watcher for a polling stop.
    state: Arc<AtomicU8>,
    poll: Option<Poll<'a>>,
}

/// The caller's poll: asked on the caller's thread (the only one Python lets handle signals).
struct Poll<'a> {
    /// Returns false when the work should stop.
    go_on: &'a (dyn Fn() -> bool + Sync),
    owner: usize,
    start: Instant,
    /// Nanoseconds after `start` when the poll is next due by the clock (the fallback).
    due: AtomicU64,
}

impl Default for Stop<'_> {
    fn default() -> Self {
        Stop::new()
    }
}

thread_local! {
    static HERE: u8 = const { 0 };
}

/// This thread, cheaply (the address of a thread-local: unique among live threads).
#[inline(always)]
fn this_thread() -> usize {
    HERE.with(|here| here as *const u8 as usize)
}

impl<'a> Stop<'a> {
    /// A flag that only [`Stop::request`] sets.
    pub fn new() -> Self {
        Stop { state: Arc::new(AtomicU8::new(0)), poll: None }
    }

    /// A stop nobody requests, for the uninterruptible forms of interruptible work.
    pub(crate) fn never() -> &'static Stop<'static> {
        static NEVER: std::sync::OnceLock<Stop<'static>> = std::sync::OnceLock::new();
        NEVER.get_or_init(Stop::new)
    }

    /// A flag that `go_on` also sets, when it returns false: it is asked on this thread about
    /// every [`POLL_INTERVAL`] while the work checks in.
    pub fn polling(go_on: &'a (dyn Fn() -> bool + Sync)) -> Self {
        let poll = Poll { go_on, owner: this_thread(), start: Instant::now(), due: AtomicU64::new(0) };
        let stop = Stop { state: Arc::new(AtomicU8::new(0)), poll: Some(poll) };
        stop.poll_later();
        watcher::watch(&stop.state);
        stop
    }

    /// Asks the work to stop (from any thread).
    pub fn request(&self) {
        self.state.fetch_or(REQUESTED, Relaxed);
    }

    pub fn is_requested(&self) -> bool {
        self.state.load(Relaxed) & REQUESTED != 0
    }

    /// `Err(Interrupted)` once a stop is requested; on the caller's thread, runs the poll when
    /// the watcher marked it due. One relaxed load while nothing happens: call it as often as
    /// every ply.
    #[inline(always)]
    pub fn checkpoint(&self) -> Result<()> {
        match self.state.load(Relaxed) {
            0 => Ok(()),
            _ => self.signalled(),
        }
    }

    /// `checkpoint`, and the poll also when the clock says it is due (where the watcher is
    /// missing). Costs a flag read and a clock read: call it every few microseconds of work.
    #[inline]
    pub fn check(&self) -> Result<()> {
        self.checkpoint()?;
        match &self.poll {
            Some(poll) if poll.start.elapsed().as_nanos() as u64 >= poll.due.load(Relaxed) => self.poll_now(),
            _ => Ok(()),
        }
    }

    /// The state word is set: stopped, or the poll is due.
    #[cold]
    #[inline(never)]
    fn signalled(&self) -> Result<()> {
        if self.is_requested() {
            return Err(Error::Interrupted);
        }
        self.poll_now()
    }

    #[cold]
    fn poll_now(&self) -> Result<()> {
        let Some(poll) = &self.poll else { return Ok(()) };
        if this_thread() != poll.owner {
            return Ok(());
        }
        self.poll_later();
        if !(poll.go_on)() {
            self.request();
            return Err(Error::Interrupted);
        }
        Ok(())
    }

    /// The poll just ran (or is about to): due again after `POLL_INTERVAL`.
    fn poll_later(&self) {
        if let Some(poll) = &self.poll {
            self.state.fetch_and(!POLL_DUE, Relaxed);
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
                        // Clears the watcher's mark too, which the workers' checkpoints skip.
                        let _ = self.poll_now();
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

/// The watcher thread: marks every live polling stop's poll due each `POLL_INTERVAL`, so that the
/// work's checkpoints need no clock. One thread for the process, started by the first polling
/// stop; it sleeps (parked) once no polling stop has lived for `IDLE_TICKS` ticks.
mod watcher {
    use super::{POLL_DUE, POLL_INTERVAL};
    use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::SeqCst};
    use std::sync::{Arc, Mutex, PoisonError, Weak};
    use std::thread::Thread;

    /// Stops registered since the watcher's last tick.
    static PENDING: Mutex<Vec<Weak<AtomicU8>>> = Mutex::new(Vec::new());
    /// The watcher, with the process it was started in (a `fork`ed child has no watcher).
    static WATCHER: Mutex<Option<(u32, Thread)>> = Mutex::new(None);
    static IDLE: AtomicBool = AtomicBool::new(false);
    /// Empty ticks before the watcher parks (a second: calls in a loop keep it awake).
    const IDLE_TICKS: u32 = 40;
    /// Pending stops past which a registration asks whether the watcher still runs.
    const MANY_PENDING: usize = 64;

    /// Marks `state`'s poll due every `POLL_INTERVAL` while the stop lives. Where no watcher can
    /// be started nothing is marked, and `Stop::check`'s clock still polls.
    pub(super) fn watch(state: &Arc<AtomicU8>) {
        let crowded = {
            let mut pending = PENDING.lock().unwrap_or_else(PoisonError::into_inner);
            pending.push(Arc::downgrade(state));
            pending.len() > MANY_PENDING
        };
        let mut watcher = WATCHER.lock().unwrap_or_else(PoisonError::into_inner);
        // A watcher from another process (before a fork) drains nothing: start one here.
        let here =
            |w: &Option<(u32, Thread)>| w.as_ref().is_some_and(|(pid, _)| !crowded || *pid == std::process::id());
        if !here(&watcher) {
            *watcher = start();
        }
        if IDLE.swap(false, SeqCst) {
            if let Some((_, thread)) = watcher.as_ref() {
                thread.unpark();
            }
        }
    }

    fn start() -> Option<(u32, Thread)> {
        let handle = std::thread::Builder::new().name("boardcore-stop-watcher".into()).spawn(run).ok()?;
        Some((std::process::id(), handle.thread().clone()))
    }

    fn run() {
        let mut watched: Vec<Weak<AtomicU8>> = Vec::new();
        let mut quiet = 0;
        loop {
            std::thread::sleep(POLL_INTERVAL);
            watched.append(&mut PENDING.lock().unwrap_or_else(PoisonError::into_inner));
            watched.retain(|stop| stop.upgrade().map(|state| state.fetch_or(POLL_DUE, SeqCst)).is_some());
            quiet = if watched.is_empty() { quiet + 1 } else { 0 };
            if quiet >= IDLE_TICKS {
                IDLE.store(true, SeqCst);
                // A stop registered before IDLE was set found it unset and did not unpark.
                if PENDING.lock().unwrap_or_else(PoisonError::into_inner).is_empty() {
                    std::thread::park();
                }
                IDLE.store(false, SeqCst);
                quiet = 0;
            }
        }
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
    fn the_watcher_makes_checkpoints_poll_with_no_clock_read() {
        let asked = AtomicUsize::new(0);
        let go_on = || asked.fetch_add(1, Relaxed) < 2;
        let stop = Stop::polling(&go_on);
        let start = Instant::now();
        // Only checkpoints: the poll runs because the watcher marks it due.
        while stop.checkpoint().is_ok() {
            assert!(start.elapsed() < Duration::from_secs(30), "the watcher never marked the poll due");
            std::hint::spin_loop();
        }
        assert!(stop.is_requested());
        assert_eq!(asked.load(Relaxed), 3);
        assert!(start.elapsed() >= POLL_INTERVAL, "one poll per watcher tick, not more");
        let unpolled = Stop::new();
        std::thread::sleep(POLL_INTERVAL * 2);
        assert!(unpolled.checkpoint().is_ok(), "only polling stops are watched");
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
