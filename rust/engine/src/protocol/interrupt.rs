//! Cooperative cancellation of long computations: one [`Stop`] shared by everything that can run
//! long (perft, divide, path counting, playouts, search, move listing, vector stepping).
//!
//! The work looks at the stop every so often with [`Stop::checkpoint`] and returns
//! [`Error::Interrupted`] once a stop was requested, changing nothing the caller can see. A
//! checkpoint is one relaxed load of the stop's state word and a branch (no clock, no syscall),
//! cheap enough for every ply of a playout or every step of a table build.
//!
//! A stop is requested either directly ([`Stop::request`], from any thread) or by the *poll*: a
//! function the caller installs (the Python binding's asks Python whether Ctrl-C was pressed)
//! that runs on the caller's thread about every [`POLL_INTERVAL`]. One mechanism says the poll is
//! due, through the same state word: a process-wide *watcher* thread (started by the first
//! polling stop of the process, again in a `fork`ed child, which inherits no thread; asleep while
//! no polling stop lives) sets a bit in the word of every live polling stop each
//! [`POLL_INTERVAL`], so the next checkpoint on the caller's thread runs the poll. Where no
//! watcher can be started, the stop is marked unwatched instead: a bit that stays set, so every
//! checkpoint takes the slow path, which reads the clock and polls when it is due (slower
//! checkpoints, the same promise).
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
/// ...or the watcher says the poll is due...
const POLL_DUE: u8 = 2;
/// ...or no watcher marks this stop, so every checkpoint asks the clock (never cleared)...
const UNWATCHED: u8 = 4;
/// ...or the stop counts its looks (`Stop::at_look`; never cleared).
const COUNTED: u8 = 8;

/// A stop flag, shared by every thread working on one call, with an optional poll.
pub struct Stop<'a> {
    /// `REQUESTED | POLL_DUE | UNWATCHED | COUNTED` bits; shared with the watcher for a
    /// polling stop.
    state: Arc<AtomicU8>,
    poll: Option<Poll<'a>>,
    /// Looks left before a `COUNTED` stop requests itself.
    looks: AtomicU64,
}

/// The caller's poll: asked on the caller's thread (the only one Python lets handle signals).
struct Poll<'a> {
    /// Returns false when the work should stop.
    go_on: &'a (dyn Fn() -> bool + Sync),
    owner: usize,
    start: Instant,
    /// Nanoseconds after `start` when the poll is next due by the clock (for an unwatched stop).
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
        Stop { state: Arc::new(AtomicU8::new(0)), poll: None, looks: AtomicU64::new(0) }
    }

    /// A stop that requests itself at its `n`-th look (`checkpoint` or `check`, on any thread;
    /// `n` at least 1): it stops work at a chosen point with no clock, which is how tests show
    /// that work looks inside a long step (a work that looked only before starting would finish
    /// with `Stop::at_look(2)`).
    pub fn at_look(n: u64) -> Stop<'static> {
        Stop { state: Arc::new(AtomicU8::new(COUNTED)), poll: None, looks: AtomicU64::new(n) }
    }

    /// A stop nobody requests, for the uninterruptible forms of interruptible work (one for
    /// the process: nothing is allocated per call).
    pub fn never() -> &'static Stop<'static> {
        static NEVER: std::sync::OnceLock<Stop<'static>> = std::sync::OnceLock::new();
        NEVER.get_or_init(Stop::new)
    }

    /// A flag that `go_on` also sets, when it returns false: it is asked on this thread about
    /// every [`POLL_INTERVAL`] while the work checks in.
    pub fn polling(go_on: &'a (dyn Fn() -> bool + Sync)) -> Self {
        let stop = Stop::polling_unwatched(go_on);
        if watcher::watch(&stop.state) {
            stop.state.fetch_and(!UNWATCHED, Relaxed);
        }
        stop
    }

    /// `polling` as it is where no watcher can run: checkpoints read the clock.
    fn polling_unwatched(go_on: &'a (dyn Fn() -> bool + Sync)) -> Self {
        let poll = Poll { go_on, owner: this_thread(), start: Instant::now(), due: AtomicU64::new(0) };
        let stop = Stop { state: Arc::new(AtomicU8::new(UNWATCHED)), poll: Some(poll), looks: AtomicU64::new(0) };
        stop.poll_later();
        stop
    }

    /// Asks the work to stop (from any thread).
    pub fn request(&self) {
        self.state.fetch_or(REQUESTED, Relaxed);
    }

    pub fn is_requested(&self) -> bool {
        self.state.load(Relaxed) & REQUESTED != 0
    }

    /// `Err(Interrupted)` once a stop is requested; on the caller's thread, runs the poll when it
    /// is due. One relaxed load while nothing happens: call it as often as every ply.
    #[inline(always)]
    pub fn checkpoint(&self) -> Result<()> {
        match self.state.load(Relaxed) {
            0 => Ok(()),
            _ => self.signalled(),
        }
    }

    /// The same look as [`Stop::checkpoint`] (there is one mechanism); the name loops with
    /// longer steps have always used.
    #[inline(always)]
    pub fn check(&self) -> Result<()> {
        self.checkpoint()
    }

    /// The state word is set: stopped, the poll is due, or the clock must say whether it is.
    #[cold]
    #[inline(never)]
    fn signalled(&self) -> Result<()> {
        let state = self.state.load(Relaxed);
        if state & REQUESTED != 0 {
            return Err(Error::Interrupted);
        }
        if state & COUNTED != 0 {
            // Once requested, the test above answers: the count wraps at most once.
            if self.looks.fetch_sub(1, Relaxed) <= 1 {
                self.request();
                return Err(Error::Interrupted);
            }
            return Ok(());
        }
        match &self.poll {
            Some(poll) if state & POLL_DUE == 0 && this_thread() == poll.owner => {
                // Unwatched: due by the clock only.
                if poll.start.elapsed().as_nanos() as u64 >= poll.due.load(Relaxed) {
                    self.poll_now()
                } else {
                    Ok(())
                }
            }
            _ => self.poll_now(),
        }
    }

    /// Runs the poll now, on the caller's thread (elsewhere, nothing).
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
///
/// A `fork`ed child inherits the parent's memory but none of its threads, so the parent's
/// watcher (and its lists, whose lock the watcher may have held at the fork) is forgotten in the
/// child (`pthread_atfork`) and the child's first polling stop starts a watcher of its own.
mod watcher {
    use super::{POLL_DUE, POLL_INTERVAL};
    use std::ptr::null_mut;
    use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU8, Ordering::SeqCst};
    use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
    use std::thread::Thread;

    /// This process's watcher, or null while none runs (none started yet, or forgotten by a fork).
    static CURRENT: AtomicPtr<Watcher> = AtomicPtr::new(null_mut());
    /// Empty ticks before the watcher parks (a second: calls in a loop keep it awake).
    const IDLE_TICKS: u32 = 40;
    /// Registrations past which the pending list drops its ended stops (while the watcher is
    /// parked, say), so that it holds at most this many more than the live stops.
    pub(super) const PRUNE_AT: usize = 64;

    /// Stops registered and not yet taken by the watcher.
    #[cfg(test)]
    pub(super) fn pending() -> usize {
        running().map_or(0, |watcher| watcher.pending.lock().unwrap_or_else(PoisonError::into_inner).len())
    }

    /// One watcher thread and what it shares with the threads registering stops. Never freed
    /// (one per process that polls; a failed start's is not published).
    struct Watcher {
        /// Stops registered since the watcher's last tick.
        pending: Mutex<Vec<Weak<AtomicU8>>>,
        /// The thread, set once it runs (until then registrations fall back to the clock).
        thread: OnceLock<Thread>,
        /// The watcher is parked, or about to be: a registration unparks it.
        idle: AtomicBool,
    }

    /// Marks `state`'s poll due every `POLL_INTERVAL` while the stop lives; false when no watcher
    /// runs in this process (none could be started), and nothing will.
    pub(super) fn watch(state: &Arc<AtomicU8>) -> bool {
        let Some(watcher) = running() else { return false };
        let Some(thread) = watcher.thread.get() else { return false };
        {
            let mut pending = watcher.pending.lock().unwrap_or_else(PoisonError::into_inner);
            if pending.len() >= PRUNE_AT {
                pending.retain(|stop| stop.strong_count() > 0);
            }
            pending.push(Arc::downgrade(state));
        }
        if watcher.idle.swap(false, SeqCst) {
            thread.unpark();
        }
        true
    }

    /// This process's watcher, started if none runs (`None` if it cannot be).
    fn running() -> Option<&'static Watcher> {
        let current = CURRENT.load(SeqCst);
        // SAFETY: a published watcher is leaked, never freed.
        if let Some(watcher) = unsafe { current.as_ref() } {
            return Some(watcher);
        }
        if !forgotten_in_forked_children() {
            return None;
        }
        let fresh: &'static Watcher = Box::leak(Box::new(Watcher {
            pending: Mutex::default(),
            thread: OnceLock::new(),
            idle: AtomicBool::new(false),
        }));
        let raw = fresh as *const Watcher as *mut Watcher;
        if let Err(other) = CURRENT.compare_exchange(null_mut(), raw, SeqCst, SeqCst) {
            // Another thread published one first: that one (its thread may still be starting).
            // SAFETY: `fresh` was never shared; a published watcher is never freed.
            drop(unsafe { Box::from_raw(raw) });
            return unsafe { other.as_ref() };
        }
        let spawned = std::thread::Builder::new().name("boardcore-stop-watcher".into()).spawn(move || run(fresh));
        match spawned {
            Ok(handle) => {
                let _ = fresh.thread.set(handle.thread().clone());
                Some(fresh)
            }
            Err(_) => {
                // Unpublished, so that a later stop tries again; threads that saw it meanwhile
                // found no thread in it and use the clock.
                let _ = CURRENT.compare_exchange(raw, null_mut(), SeqCst, SeqCst);
                None
            }
        }
    }

    /// Whether a `fork`ed child will forget the watcher (it has no watcher thread): a handler,
    /// registered once, that only stores to an atomic (all a child of a threaded process may do).
    /// While registration is under way in another thread, or if it failed: false (the clock).
    #[cfg(unix)]
    fn forgotten_in_forked_children() -> bool {
        extern "C" fn forget() {
            CURRENT.store(null_mut(), SeqCst);
        }
        extern "C" {
            fn pthread_atfork(
                prepare: Option<extern "C" fn()>,
                parent: Option<extern "C" fn()>,
                child: Option<extern "C" fn()>,
            ) -> std::os::raw::c_int;
        }
        const UNREGISTERED: u8 = 0;
        const REGISTERING: u8 = 1;
        const REGISTERED: u8 = 2;
        const FAILED: u8 = 3;
        // No `Once`: a child forked while another thread registers would wait for it forever.
        static HANDLER: AtomicU8 = AtomicU8::new(UNREGISTERED);
        match HANDLER.compare_exchange(UNREGISTERED, REGISTERING, SeqCst, SeqCst) {
            Ok(_) => {
                // SAFETY: the handler only stores to an atomic.
                let registered = unsafe { pthread_atfork(None, None, Some(forget)) } == 0;
                HANDLER.store(if registered { REGISTERED } else { FAILED }, SeqCst);
                registered
            }
            Err(state) => state == REGISTERED,
        }
    }

    /// No `fork` here.
    #[cfg(not(unix))]
    fn forgotten_in_forked_children() -> bool {
        true
    }

    fn run(watcher: &'static Watcher) {
        let mut watched: Vec<Weak<AtomicU8>> = Vec::new();
        let mut quiet = 0;
        loop {
            std::thread::sleep(POLL_INTERVAL);
            watched.append(&mut watcher.pending.lock().unwrap_or_else(PoisonError::into_inner));
            watched.retain(|stop| stop.upgrade().map(|state| state.fetch_or(POLL_DUE, SeqCst)).is_some());
            quiet = if watched.is_empty() { quiet + 1 } else { 0 };
            if quiet >= IDLE_TICKS {
                watcher.idle.store(true, SeqCst);
                // A stop registered before `idle` was set found it unset and did not unpark.
                if watcher.pending.lock().unwrap_or_else(PoisonError::into_inner).is_empty() {
                    std::thread::park();
                }
                watcher.idle.store(false, SeqCst);
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

    /// Checkpoints on this thread until the stop ends the loop (a bound only catches a hang).
    fn checkpoint_until_stopped(stop: &Stop) {
        let start = Instant::now();
        while stop.checkpoint().is_ok() {
            assert!(start.elapsed() < Duration::from_secs(30), "the poll never ran");
            std::hint::spin_loop();
        }
    }

    #[test]
    fn a_stop_is_seen_by_check() {
        let stop = Stop::new();
        assert!(stop.check().is_ok());
        stop.request();
        assert_eq!(stop.check(), Err(Error::Interrupted));
        assert!(Stop::never().checkpoint().is_ok());
    }

    #[test]
    fn a_counted_stop_is_requested_at_its_nth_look() {
        let stop = Stop::at_look(3);
        assert!(stop.checkpoint().is_ok());
        assert!(stop.check().is_ok());
        assert!(!stop.is_requested());
        assert_eq!(stop.checkpoint(), Err(Error::Interrupted));
        assert!(stop.is_requested());
        assert_eq!(stop.checkpoint(), Err(Error::Interrupted));
    }

    #[test]
    fn the_watcher_makes_checkpoints_poll_with_no_clock_read() {
        let asked = AtomicUsize::new(0);
        let go_on = || asked.fetch_add(1, Relaxed) < 2;
        let stop = Stop::polling(&go_on);
        assert_eq!(stop.state.load(Relaxed) & UNWATCHED, 0, "a watcher runs here");
        // Only checkpoints: the poll runs because the watcher marks it due.
        checkpoint_until_stopped(&stop);
        assert!(stop.is_requested());
        assert_eq!(asked.load(Relaxed), 3);
        let unpolled = Stop::new();
        std::thread::sleep(POLL_INTERVAL * 2);
        assert!(unpolled.checkpoint().is_ok(), "only polling stops are watched");
    }

    #[test]
    fn where_no_watcher_runs_checkpoints_poll_by_the_clock() {
        let asked = AtomicUsize::new(0);
        let go_on = || asked.fetch_add(1, Relaxed) < 2;
        let stop = Stop::polling_unwatched(&go_on);
        checkpoint_until_stopped(&stop);
        assert!(stop.is_requested());
        assert_eq!(asked.load(Relaxed), 3);
    }

    #[test]
    fn only_the_callers_thread_polls() {
        let asked = AtomicUsize::new(0);
        let go_on = || {
            asked.fetch_add(1, Relaxed);
            false
        };
        for stop in [Stop::polling(&go_on), Stop::polling_unwatched(&go_on)] {
            std::thread::scope(|s| {
                s.spawn(|| {
                    // Long enough for the poll to come due, by the watcher or by the clock.
                    std::thread::sleep(POLL_INTERVAL * 3);
                    for _ in 0..1000 {
                        assert!(stop.checkpoint().is_ok(), "other threads never poll");
                    }
                });
            });
            assert_eq!(asked.load(Relaxed), 0);
            checkpoint_until_stopped(&stop);
            assert_eq!(asked.swap(0, Relaxed), 1);
        }
    }

    #[test]
    fn pending_registrations_stay_bounded() {
        let go_on = || true;
        for _ in 0..10 * watcher::PRUNE_AT {
            drop(Stop::polling(&go_on));
        }
        // Stops of tests running meanwhile may be live (a few at most).
        assert!(watcher::pending() <= watcher::PRUNE_AT + 16);
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
        assert_eq!(Stop::never().install(&pool, || 7), Ok(7));
    }
}
