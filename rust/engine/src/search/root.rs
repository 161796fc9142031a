//! The root: iterative deepening with aspiration windows, the threads (a root split: the first
//! move on one thread, the rest shared out to all of them with null windows; or lazy SMP:
//! helpers deepening the same root on their own, filling the shared table), the limits, and
//! what a search reports ([`Analysis`]).

use super::alphabeta::{Context, Tally, Worker, INFINITY};
use super::table::{Bound, Entry, Table, SOLVED};
use super::{Evaluate, Searchable, SCALE};
use crate::error::{Error, Result};
use crate::interrupt::Stop;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The deepest iteration: a search that gets here without being exact stops.
pub const MAX_DEPTH: u32 = 250;
/// Half-width of the aspiration window around the last iteration's score.
const ASPIRATION: i32 = SCALE / 2;

/// How the threads of one search share the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Threading {
    /// The first root move on one thread, the others shared out among all threads with null
    /// windows (docs/engine.md, "Threads": measured the faster here).
    #[default]
    RootSplit,
    /// Lazy SMP (Stockfish's): one thread deepens as a single-threaded search would, the others
    /// deepen the same root on their own (odd ones a ply ahead) and help only through the
    /// shared table.
    Lazy,
}

/// When to stop, and how.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Iterations up to this depth (plies); `None`: until exact or another limit.
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    pub threads: usize,
    pub threading: Threading,
    /// Bytes of transposition table.
    pub table_bytes: usize,
    /// Search until the value is exact, handing the game's endgame solver all it can take.
    pub solve: bool,
    /// Noise added to evaluations, in hundredths of a point (0: none), drawn from `seed`.
    pub noise: i32,
    pub seed: u64,
    /// Once the value is exact, prove which root moves reach it (every one, for
    /// `Analysis::best_moves`); false: the first found is enough (what Edax and Zebra report),
    /// which saves a proof per other move.
    pub every_best: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            time: None,
            threads: 1,
            threading: Threading::RootSplit,
            table_bytes: 64 << 20,
            solve: false,
            noise: 0,
            seed: 0,
            every_best: true,
        }
    }
}

/// One completed iteration of the deepening.
#[derive(Debug, Clone)]
pub struct Iteration<M> {
    pub depth: u32,
    pub score: i32,
    pub exact: bool,
    pub pv: Vec<M>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct Analysis<M> {
    /// The value for the side to move, in hundredths of a point (exact: `SCALE` times the
    /// margin under perfect play).
    pub score: i32,
    pub exact: bool,
    /// The move chosen (always a legal move of a live root).
    pub best: M,
    /// Every optimal move when `exact`; else the move chosen.
    pub best_moves: Vec<M>,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// The deepest completed iteration (0 when none completed within the limits).
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub iterations: Vec<Iteration<M>>,
}

/// The share of a timed solve's time spent first on a deepening estimate: the solve goes
/// straight to the end, so without it a solve stopped by its limit would have no estimate to
/// report (`SolveTimeout.analysis`); its table entries also order the solve's first moves.
const ESTIMATE_SHARE: f64 = 0.1;

/// Searches `root` within `limits`. `Err(Interrupted)` only when `stop` is requested by the
/// caller; a limit reached is not an error: the deepest completed iteration is the answer, and
/// a time-limited search of a live game always answers with a legal move (`quick_move` when the
/// limit came before the root's moves were listed, or they are too many to list). Errors of
/// the search threads (a Rive capture too large to count, `TooLarge`) are returned as they are.
pub fn analyse<P: Searchable, E: Evaluate<P>>(
    root: &P,
    evaluator: &E,
    limits: &Limits,
    stop: &Stop,
) -> Result<Analysis<P::Move>> {
    analyse_reporting(root, evaluator, limits, stop, None)
}

/// How often a search reports its progress.
pub const REPORT_INTERVAL: Duration = Duration::from_millis(500);

/// What a search has done so far, as its progress reports give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The iteration under way, in plies (`MAX_DEPTH` for a solve: to the end).
    pub depth: u32,
    /// Whether this is the solve (not the deepening estimate before a timed solve, or a search).
    pub solving: bool,
    /// Nodes so far: the search's and its endgame solves' (which add theirs as they go).
    pub nodes: u64,
    pub elapsed: Duration,
    /// The deepest completed iteration's score.
    pub score: Option<i32>,
    /// The best root value proved so far in the iteration under way (a lower bound on it),
    /// where that iteration searches the full window (a solve, the first iteration).
    pub lower_bound: Option<i32>,
}

/// A caller's progress report, run on the caller's thread every `REPORT_INTERVAL`: false stops
/// the search as the caller's stop does (`Err(Interrupted)`).
pub type Report<'r> = &'r (dyn Fn(&Progress) -> bool + Sync);

/// `analyse`, calling `report` (if any) with the search's progress every `REPORT_INTERVAL`.
pub fn analyse_reporting<P: Searchable, E: Evaluate<P>>(
    root: &P,
    evaluator: &E,
    limits: &Limits,
    stop: &Stop,
    report: Option<Report<'_>>,
) -> Result<Analysis<P::Move>> {
    analyse_with(root, evaluator, limits, stop, report, None)
}

/// `analyse_reporting` in a table the caller keeps between searches (`limits.table_bytes` is
/// not used): a player's table carries what one move's search learnt to the next, as an
/// engine's does. Its entries hold for one evaluator without noise: the caller keeps a table
/// to one such evaluator (and one game, whose keys it holds).
pub fn analyse_in_table<P: Searchable, E: Evaluate<P>>(
    root: &P,
    evaluator: &E,
    limits: &Limits,
    stop: &Stop,
    report: Option<Report<'_>>,
    table: &Table,
) -> Result<Analysis<P::Move>> {
    analyse_with(root, evaluator, limits, stop, report, Some(table))
}

/// The search in the caller's `kept` table, or in a fresh one of `limits.table_bytes`.
fn analyse_with<P: Searchable, E: Evaluate<P>>(
    root: &P,
    evaluator: &E,
    limits: &Limits,
    stop: &Stop,
    report: Option<Report<'_>>,
    kept: Option<&Table>,
) -> Result<Analysis<P::Move>> {
    // The clock starts before anything is set up: the limit covers the whole call.
    let start = Instant::now();
    if root.is_over() {
        return Err(Error::invalid("the game is over: there is no move to search"));
    }
    if limits.threads == 0 {
        return Err(Error::invalid("threads must be at least 1"));
    }
    let limits = &Limits { threads: threads_within(limits), ..limits.clone() };
    let search = |table: &Table| {
        if limits.solve {
            solve_after_estimate(root, evaluator, limits, stop, table, start, report)
        } else {
            search_once(root, evaluator, limits, stop, table, start, report)
        }
    };
    if let Some(table) = kept {
        return search(table);
    }
    let table = Table::with_bytes(limits.table_bytes)?;
    let result = search(&table);
    // A table of gigabytes takes the system a while to take back: not on the caller's time.
    let bytes = table.bytes();
    crate::memory::free_in_background(table, bytes);
    result
}

/// The threads a search runs: those asked for, but with a time limit no more than the machine
/// runs at once, since threads beyond the cores only time-share them while each must be
/// started, stopped and joined inside the limit (docs/engine.md, "Threads").
fn threads_within(limits: &Limits) -> usize {
    match limits.time {
        None => limits.threads,
        Some(_) => limits.threads.min(std::thread::available_parallelism().map_or(1, usize::from)),
    }
}

/// A solve, after an estimate that shares its table: with a time limit, a deepening in the
/// first `ESTIMATE_SHARE` of the time (unsolved, the answer is the estimate, with every node
/// counted); without one, a search to the depth the game's solver asks for (`estimate_depth`),
/// when the evaluation orders solves.
fn solve_after_estimate<P: Searchable, E: Evaluate<P>>(
    root: &P,
    evaluator: &E,
    limits: &Limits,
    stop: &Stop,
    table: &Table,
    start: Instant,
    report: Option<Report<'_>>,
) -> Result<Analysis<P::Move>> {
    let first = match limits.time {
        Some(limit) => Limits { solve: false, time: Some(limit.mul_f64(ESTIMATE_SHARE)), ..limits.clone() },
        None => match <P::Endgame as super::Endgame<P>>::estimate_depth(root).filter(|_| evaluator.orders_solves()) {
            Some(depth) => Limits { solve: false, depth: Some(depth), ..limits.clone() },
            None => return search_once(root, evaluator, limits, stop, table, start, report),
        },
    };
    let estimate = search_once(root, evaluator, &first, stop, table, start, report)?;
    if estimate.exact {
        // Every line ended within the estimate: it is the solve, whose depth is its line's length.
        return Ok(Analysis { depth: estimate.pv.len() as u32, ..estimate });
    }
    let solved = search_once(root, evaluator, limits, stop, table, start, report)?;
    let nodes = estimate.nodes + solved.nodes;
    let answer = if solved.exact { solved } else { estimate };
    Ok(Analysis { nodes, elapsed: start.elapsed(), ..answer })
}

/// One search of `root` in `table`, its time limit counted from `start`.
fn search_once<P: Searchable, E: Evaluate<P>>(
    root: &P,
    evaluator: &E,
    limits: &Limits,
    stop: &Stop,
    table: &Table,
    start: Instant,
    report: Option<Report<'_>>,
) -> Result<Analysis<P::Move>> {
    let tally = Tally::default();
    let reported = Mutex::new(Instant::now());
    // The search's own stop: requested by a limit (the clock's thread, the node count), or
    // when the caller's stop says so (asked on this thread, as the caller's poll must be), or
    // when the caller's report says so (run on this thread too, when it is due).
    let caller_stopped = AtomicBool::new(false);
    let go_on = || {
        let mut ok = stop.checkpoint().is_ok();
        if let (true, Some(report)) = (ok, report) {
            let mut last = reported.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if last.elapsed() >= REPORT_INTERVAL {
                *last = Instant::now();
                ok = report(&progress(&tally, limits, start));
            }
        }
        if !ok {
            caller_stopped.store(true, Relaxed);
        }
        ok
    };
    let inner = Stop::polling(&go_on);
    let cx = Context {
        deadline: limits.time.map(|limit| start + limit),
        ..context(table, &inner, evaluator, limits, &tally)
    };
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let outcome = std::thread::scope(|scope| {
        if let Some(limit) = limits.time {
            let cx = &cx;
            scope.spawn(move || {
                if finished.recv_timeout(limit.saturating_sub(start.elapsed())).is_err() {
                    cx.reach_limit();
                }
            });
        }
        let result = match limits.threading {
            Threading::Lazy if limits.threads > 1 => {
                let alone = Limits { threads: 1, ..limits.clone() };
                with_lazy_helpers(root, &cx, limits, || deepen(root, &cx, &alone, start, stop))
            }
            _ => deepen(root, &cx, limits, start, stop),
        };
        drop(done);
        result
    });
    if caller_stopped.load(Relaxed) || stop.is_requested() {
        return Err(Error::Interrupted);
    }
    outcome
}

/// The progress `tally` shows.
fn progress(tally: &Tally, limits: &Limits, start: Instant) -> Progress {
    let if_set =
        |set: &AtomicBool, value: &std::sync::atomic::AtomicI32| set.load(Relaxed).then(|| value.load(Relaxed));
    Progress {
        depth: tally.depth.load(Relaxed),
        solving: limits.solve,
        nodes: tally.nodes.load(Relaxed) + tally.endgame_nodes.load(Relaxed),
        elapsed: start.elapsed(),
        score: if_set(&tally.scored, &tally.score),
        lower_bound: if_set(&tally.bounded, &tally.lower_bound),
    }
}

/// What the threads of a search share, as `limits` set it, with no node searched yet.
fn context<'a, E>(
    table: &'a Table,
    stop: &'a Stop<'a>,
    evaluator: &'a E,
    limits: &Limits,
    tally: &'a Tally,
) -> Context<'a, E> {
    Context {
        table,
        stop,
        evaluator,
        solving: limits.solve,
        noise: limits.noise,
        seed: limits.seed,
        tally,
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        deadline: None,
        limit_reached: AtomicBool::new(false),
    }
}

/// A root move with the value its last search gave it (for ordering the next iteration).
struct RootMove<P: Searchable> {
    mv: P::Move,
    /// The move's index in the root's `legal_moves` (as the table holds moves).
    index: u32,
    child: P,
    again: bool,
}

/// Whether `error` ends a search with what it has found rather than failing: a limit reached
/// (the stop the limit requested), or, for a time-limited search that is not a solve, moves too
/// many to list (a live game gets a move; a solve that cannot list them cannot succeed).
fn ends_with_an_answer<E>(error: &Error, cx: &Context<'_, E>, limits: &Limits) -> bool {
    match error {
        Error::Interrupted => cx.limit_reached.load(Relaxed),
        Error::TooLarge(_) => limits.time.is_some() && !limits.solve,
        _ => false,
    }
}

/// Iterative deepening from depth 1 (a solve: straight to the end). `caller` is the caller's
/// stop, for finding a quick move once the search's own stop has been requested by a limit.
fn deepen<P: Searchable, E: Evaluate<P>>(
    root: &P,
    cx: &Context<'_, E>,
    limits: &Limits,
    start: Instant,
    caller: &Stop,
) -> Result<Analysis<P::Move>> {
    let mut workers: Vec<Worker<'_, P, E>> = (0..limits.threads).map(|_| Worker::new(cx)).collect();
    let mut root_moves = match ordered_root_moves(root, &workers[0]) {
        Ok(moves) => moves,
        Err(e) if ends_with_an_answer(&e, cx, limits) => match root.quick_move(caller)? {
            Some(quick) => return Ok(unsearched(root, quick, &mut workers, cx, start)),
            None => return Err(e),
        },
        Err(e) => return Err(e),
    };

    let mut iterations: Vec<Iteration<P::Move>> = Vec::new();
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
    // A solve goes straight to the end: shallower iterations cost more than their ordering
    // saves (measured on Strands and Cephalopod; docs/engine.md). Where a learned evaluation
    // orders well, the estimate before it (`solve_after_estimate`) orders its root.
    let mut depth = if limits.solve { max_depth } else { 1 };
    loop {
        for w in workers.iter_mut() {
            w.horizon = false;
        }
        cx.tally.depth.store(depth, Relaxed);
        cx.tally.bounded.store(false, Relaxed);
        let previous = iterations.last().map(|it| it.score);
        let searched = match previous {
            Some(guess) if !limits.solve => aspirate(&mut workers, &mut root_moves, depth, guess),
            _ => search_root(&mut workers, &mut root_moves, depth as i32, -INFINITY, INFINITY),
        };
        let score = match searched {
            Ok(score) => score,
            Err(e) if ends_with_an_answer(&e, cx, limits) => break,
            Err(e) => return Err(e),
        };
        let exact = workers.iter().all(|w| !w.horizon);
        let nodes = total_nodes(&mut workers, cx);
        let pv = table_pv(root, root_moves[0].mv, cx.table, depth as usize);
        remember_root(cx.table, root, &root_moves[0], depth, score, exact);
        iterations.push(Iteration { depth, score, exact, pv, nodes, elapsed: start.elapsed() });
        cx.tally.score.store(score, Relaxed);
        cx.tally.scored.store(true, Relaxed);
        if exact || depth >= max_depth {
            break;
        }
        depth += 1;
    }

    let Some(last) = iterations.last().cloned() else {
        // No iteration completed within the limits: the best-ordered move, unsearched.
        return Ok(unsearched(root, root_moves[0].mv, &mut workers, cx, start));
    };
    // A limit may have cut an iteration after it found a better first move than the last
    // completed one's (search_root): its line then starts with that move.
    let best = root_moves[0].mv;
    let pv =
        if last.pv.first() == Some(&best) { last.pv.clone() } else { table_pv(root, best, cx.table, depth as usize) };
    let mut analysis = Analysis {
        score: last.score,
        exact: last.exact,
        best,
        best_moves: vec![best],
        pv,
        depth: last.depth,
        nodes: last.nodes,
        elapsed: start.elapsed(),
        iterations,
    };
    if last.exact {
        // Each optimal move and the line of perfect play; a limit reached here leaves the
        // answer as it is (the value stays exact, the lists are what was proved so far).
        match complete_solution(&mut workers[0], &root_moves, last.score, limits.every_best) {
            Ok((best_moves, pv)) => (analysis.best_moves, analysis.pv) = (best_moves, pv),
            Err(e) if ends_with_an_answer(&e, cx, limits) => {}
            Err(e) => return Err(e),
        }
    }
    if limits.solve && analysis.exact {
        // A solve's one iteration goes to MAX_DEPTH: its depth is the perfect line's length.
        analysis.depth = analysis.pv.len() as u32;
        if let Some(it) = analysis.iterations.last_mut() {
            it.depth = analysis.depth;
        }
    }
    analysis.nodes = total_nodes(&mut workers, cx);
    analysis.elapsed = start.elapsed();
    Ok(analysis)
}

/// The answer of a search that completed no iteration: `best`, unsearched, with the position's
/// evaluation.
fn unsearched<P: Searchable, E: Evaluate<P>>(
    root: &P,
    best: P::Move,
    workers: &mut [Worker<'_, P, E>],
    cx: &Context<'_, E>,
    start: Instant,
) -> Analysis<P::Move> {
    Analysis {
        score: workers[0].evaluate(root),
        exact: false,
        best,
        best_moves: vec![best],
        pv: vec![best],
        depth: 0,
        nodes: total_nodes(workers, cx),
        elapsed: start.elapsed(),
        iterations: Vec::new(),
    }
}

/// The root's moves, each with its child, in the first worker's order.
fn ordered_root_moves<P: Searchable, E: Evaluate<P>>(root: &P, worker: &Worker<'_, P, E>) -> Result<Vec<RootMove<P>>> {
    let moves = root.list_moves(worker.cx.stop)?;
    // The table's move first: an earlier search that met this position knows it best (a
    // solve's estimate; a kept table's previous search, which met it two plies down).
    let table_move = worker.cx.table.probe(root.zobrist()).and_then(|e| e.best);
    let order = worker.order(root, &moves, table_move, i32::MAX, 0);
    order
        .into_iter()
        .enumerate()
        .map(|(n, i)| {
            // Thousands of children (a Strands turn) take milliseconds to play: look at the stop.
            if crate::interrupt::every(n as u64, 32) {
                worker.cx.stop.checkpoint()?;
            }
            let mut child = root.clone();
            child.play_unchecked(moves[i]);
            let again = child.to_move() == root.to_move();
            Ok(RootMove { mv: moves[i], index: i as u32, child, again })
        })
        .collect()
}

/// Writes a completed iteration's answer into the table, as the search writes every other
/// node: a later search of the same root (a solve after its estimate) tries its move first.
fn remember_root<P: Searchable>(table: &Table, root: &P, best: &RootMove<P>, depth: u32, score: i32, exact: bool) {
    let depth = if exact { SOLVED } else { depth.min(u32::from(SOLVED) - 1) as u8 };
    table.store(root.zobrist(), Entry { score, depth, bound: Bound::Exact, best: Some(best.index) });
}

/// Lazy SMP: `search` (this thread, searching as one thread would: its answer is the search's)
/// runs while `threads - 1` helpers deepen the same root through a context of their own (a
/// stop that this thread requests when it is done, their own node count) that shares the table.
fn with_lazy_helpers<P: Searchable, E: Evaluate<P>>(
    root: &P,
    cx: &Context<'_, E>,
    limits: &Limits,
    search: impl FnOnce() -> Result<Analysis<P::Move>>,
) -> Result<Analysis<P::Move>> {
    let helpers_stop = Stop::new();
    let helpers_tally = Tally::default();
    // The main thread alone keeps the node limit.
    let helpers_cx =
        Context { node_limit: u64::MAX, ..context(cx.table, &helpers_stop, cx.evaluator, limits, &helpers_tally) };
    let (analysis, helper_nodes) = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..limits.threads)
            .map(|number| {
                let helpers_cx = &helpers_cx;
                scope.spawn(move || help(root, helpers_cx, limits, number))
            })
            .collect();
        let analysis = search();
        helpers_stop.request();
        let endgame_nodes: u64 = helpers.into_iter().map(|h| h.join().expect("search threads do not panic")).sum();
        (analysis, endgame_nodes + helpers_tally.nodes.load(Relaxed))
    });
    let mut analysis = analysis?;
    analysis.nodes += helper_nodes;
    Ok(analysis)
}

/// One lazy-SMP helper: deepens `root` from depth 1 (odd helpers from 2) to one ply past the
/// search's depth until stopped, or searches to the end once for a solve; returns the nodes its
/// endgame solver visited (its searched nodes go to `cx.nodes`, which all helpers share). What
/// it finds reaches the main thread only through the table.
fn help<P: Searchable, E: Evaluate<P>>(root: &P, cx: &Context<'_, E>, limits: &Limits, number: usize) -> u64 {
    let mut workers = vec![Worker::new(cx)];
    let last = limits.depth.map_or(MAX_DEPTH, |depth| (depth + 1).min(MAX_DEPTH));
    let mut depth = if limits.solve { MAX_DEPTH } else { 1 + (number as u32 % 2) };
    if let Ok(mut root_moves) = ordered_root_moves(root, &workers[0]) {
        while depth <= last && search_root(&mut workers, &mut root_moves, depth as i32, -INFINITY, INFINITY).is_ok() {
            depth += 1;
        }
    }
    workers[0].flush_nodes();
    super::Endgame::nodes(&workers[0].endgame)
}

fn total_nodes<P: Searchable, E: Evaluate<P>>(workers: &mut [Worker<'_, P, E>], cx: &Context<'_, E>) -> u64 {
    workers.iter_mut().for_each(Worker::flush_nodes);
    cx.tally.nodes.load(Relaxed) + workers.iter().map(|w| super::Endgame::nodes(&w.endgame)).sum::<u64>()
}

/// An iteration inside a narrow window around `guess`, widened to the full window on a fail.
fn aspirate<P: Searchable, E: Evaluate<P>>(
    workers: &mut [Worker<'_, P, E>],
    root_moves: &mut Vec<RootMove<P>>,
    depth: u32,
    guess: i32,
) -> Result<i32> {
    let (alpha, beta) = (guess - ASPIRATION, guess + ASPIRATION);
    let score = search_root(workers, root_moves, depth as i32, alpha, beta)?;
    if score > alpha && score < beta {
        return Ok(score);
    }
    search_root(workers, root_moves, depth as i32, -INFINITY, INFINITY)
}

/// One iteration at the root: principal variation search over the root moves, the first on
/// the first worker, the others shared out among all workers. The best move is moved to the
/// front of `root_moves`.
fn search_root<P: Searchable, E: Evaluate<P>>(
    workers: &mut [Worker<'_, P, E>],
    root_moves: &mut Vec<RootMove<P>>,
    depth: i32,
    alpha: i32,
    beta: i32,
) -> Result<i32> {
    let first = &root_moves[0];
    let score = workers[0].child_value(&first.child, first.again, depth - 1, alpha, beta, 1)?;
    // With the full window, each value found is the root's worth at least (for progress).
    let full_window = alpha == -INFINITY && beta == INFINITY;
    let tally = workers[0].cx.tally;
    if full_window {
        tally.raise_bound(score);
    }
    let best = Mutex::new((score, 0usize));
    let next = AtomicUsize::new(1);
    let moves = &*root_moves;
    let try_the_rest = |w: &mut Worker<'_, P, E>| -> Result<()> {
        loop {
            let i = next.fetch_add(1, Relaxed);
            let Some(rm) = moves.get(i) else { return Ok(()) };
            let floor = best.lock().expect("no thread panics holding it").0.max(alpha);
            if floor >= beta {
                return Ok(());
            }
            let probe = w.child_value(&rm.child, rm.again, depth - 1, floor, floor + 1, 1)?;
            if probe <= floor {
                continue;
            }
            let value =
                if probe >= beta { probe } else { w.child_value(&rm.child, rm.again, depth - 1, floor, beta, 1)? };
            let mut held = best.lock().expect("no thread panics holding it");
            if value > held.0 {
                *held = (value, i);
                if full_window {
                    tally.raise_bound(value);
                }
            }
        }
    };
    let searched = if score >= beta {
        Ok(())
    } else {
        let (main, helpers) = workers.split_first_mut().expect("at least one worker");
        if helpers.is_empty() {
            try_the_rest(main)
        } else {
            let running = AtomicUsize::new(helpers.len());
            let stop = main.cx.stop;
            std::thread::scope(|scope| -> Result<()> {
                let handles: Vec<_> = helpers
                    .iter_mut()
                    .map(|w| {
                        let (try_the_rest, running) = (&try_the_rest, &running);
                        scope.spawn(move || {
                            let result = try_the_rest(w);
                            if result.is_err() {
                                w.cx.stop.request();
                            }
                            running.fetch_sub(1, Relaxed);
                            result
                        })
                    })
                    .collect();
                let mine = try_the_rest(main);
                if mine.is_err() {
                    stop.request();
                }
                // This thread keeps looking at the stop (the caller's poll runs here) while
                // the helpers finish their moves.
                while running.load(Relaxed) > 0 {
                    if stop.checkpoint().is_err() {
                        stop.request();
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                let theirs = handles.into_iter().map(|h| h.join().expect("search threads do not panic"));
                first_cause(std::iter::once(mine).chain(theirs))
            })
        }
    };
    // The best move goes first even when a limit cut the iteration short: a move whose search
    // at this depth finished above the first move's value is a better answer than the first
    // (the last iteration's best), as Stockfish plays it.
    let (score, index) = best.into_inner().expect("no thread panicked");
    let chosen = root_moves.remove(index);
    root_moves.insert(0, chosen);
    searched.map(|()| score)
}

/// The first error of the threads that is not the stop another thread's error requested, so
/// that a helper's real error (a capture too large to count) is what the search reports, not
/// the `Interrupted` it made the others return.
fn first_cause(results: impl Iterator<Item = Result<()>>) -> Result<()> {
    let mut outcome = Ok(());
    for result in results {
        match (&outcome, result) {
            (_, Ok(())) => {}
            (Ok(()) | Err(Error::Interrupted), Err(e)) => outcome = Err(e),
            (Err(_), Err(_)) => {}
        }
    }
    outcome
}

/// The line the table remembers from `root`, starting with `first`, at most `length` moves.
fn table_pv<P: Searchable>(root: &P, first: P::Move, table: &Table, length: usize) -> Vec<P::Move> {
    let mut pv = vec![first];
    let mut position = root.clone();
    position.play_unchecked(first);
    let mut seen = vec![root.zobrist(), position.zobrist()];
    while pv.len() < length.max(1) {
        let Some(index) = table.probe(position.zobrist()).and_then(|e| e.best) else { break };
        let Some(mv) = position.legal_moves().nth(index as usize) else { break };
        position.play_unchecked(mv);
        if seen.contains(&position.zobrist()) {
            break;
        }
        seen.push(position.zobrist());
        pv.push(mv);
    }
    pv
}

/// Every optimal root move, and the line of perfect play.
type Solution<M> = (Vec<M>, Vec<M>);

/// For an exact root value: every root move that reaches it (with `every_best`; else the
/// first), and a line of perfect play (each step a move proved to keep the value).
fn complete_solution<P: Searchable, E: Evaluate<P>>(
    worker: &mut Worker<'_, P, E>,
    root_moves: &[RootMove<P>],
    value: i32,
    every_best: bool,
) -> Result<Solution<P::Move>> {
    let unbounded = MAX_DEPTH as i32;
    let mut best_moves = vec![root_moves[0].mv];
    let others = if every_best { &root_moves[1..] } else { &[] };
    for rm in others {
        if worker.child_value(&rm.child, rm.again, unbounded, value - 1, value, 1)? >= value {
            best_moves.push(rm.mv);
        }
    }
    let mut pv = vec![root_moves[0].mv];
    let (mut position, mut target) = (root_moves[0].child.clone(), value);
    if !root_moves[0].again {
        target = -target;
    }
    while pv.len() < MAX_DEPTH as usize {
        let moves = position.list_moves(worker.cx.stop)?;
        if moves.is_empty() {
            break;
        }
        // The solver's table knows the moves below the root; the search's, the root's children.
        let solver_move =
            super::Endgame::best_move(&worker.endgame, &position).and_then(|m| moves.iter().position(|&x| x == m));
        let table_move =
            solver_move.map(|i| i as u32).or_else(|| worker.cx.table.probe(position.zobrist()).and_then(|e| e.best));
        let order = worker.order(&position, &moves, table_move, 0, 1);
        let mut step = None;
        for index in order {
            let mut child = position.clone();
            child.play_unchecked(moves[index]);
            let again = child.to_move() == position.to_move();
            // No move is worth more than the position's exact value, so a null-window test
            // that the move reaches it proves that it keeps it.
            if worker.child_value(&child, again, unbounded, target - 1, target, 1)? >= target {
                step = Some((moves[index], child, again));
                break;
            }
        }
        let Some((mv, child, again)) = step else { break };
        pv.push(mv);
        if !again {
            target = -target;
        }
        position = child;
    }
    Ok((best_moves, pv))
}
