//! Monte Carlo tree search (UCT with random playouts), for any game.
//!
//! Written once over [`Position`], so the games' peculiarities need nothing special: a node
//! remembers which player made the move into it, so Rive's extra placements after a capture (the
//! same player moves again) and Reversi's passes (moves like any other) back up correctly.
//!
//! - **Selection**: from the root, the child maximising `Q + c * sqrt(ln N / n)`, where `Q` is the
//!   child's mean reward for the player who moves at the parent (win 1, draw 1/2, loss 0), `N` the
//!   parent's visits and `n` the child's.
//! - **Expansion**: one new child per iteration. A node with at most `widening.limit` legal moves
//!   lists them once and expands them in a random order (fully expanded when all are children). A
//!   node with more (Strands turns have tens of thousands; a Rive capture can have hundreds of
//!   thousands of survivor sets) uses *progressive widening*: it may have at most
//!   `ceil(widening.coefficient * N ^ widening.exponent)` children, each a uniformly random legal
//!   move (`Position::sample_move`, which never builds the list); when the draw is already a
//!   child, the iteration selects among the children by UCT instead.
//! - **Simulation**: a uniformly random playout to the end (`Position::play_out`).
//! - **Threads**: root parallelism. Thread `t` grows its own tree with its own random stream and
//!   `iterations / threads` iterations (the first `iterations % threads` threads one more); the
//!   root statistics are summed per move. The result depends on the seed and the thread count,
//!   not on timing (unless a time limit stops the search).
//! - **Choice**: the most visited root move (ties: the earlier expanded).
//! - **Budget**: every search runs at least one iteration (a live game always gets a move, however
//!   short the time limit). A tree holds at most its share of `Config::max_nodes` entries (nodes,
//!   and moves listed for expansion); once full it stops growing: iterations go on, selecting
//!   among the existing children and playing out from the leaves, and the report says
//!   `tree_full`.
//! - **Interruption**: `Searcher::search_interruptible` checks a [`Stop`] every iteration, and
//!   inside an iteration wherever the game's work can be long (`Position::play_out_interruptible`,
//!   `list_moves`, `count_moves_interruptible`, `sample_move_interruptible`: every ply of a Rive
//!   playout); an interrupted search keeps the iterations it completed.

use crate::error::Result;
use crate::game::{Outcome, Player, Position};
use crate::interrupt::Stop;
use crate::rng::SplitMix64;
use crate::tree::{Arena, NONE, ROOT};
use std::time::{Duration, Instant};

/// When a node expands by sampling instead of listing its moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Widening {
    /// Nodes with more legal moves than this widen progressively.
    pub limit: u64,
    pub coefficient: f64,
    pub exponent: f64,
}

impl Default for Widening {
    fn default() -> Self {
        Widening { limit: 512, coefficient: 2.0, exponent: 0.5 }
    }
}

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// The UCT exploration constant `c`.
    pub exploration: f64,
    /// Iterations in all (over every thread); `None` searches until the time limit.
    pub iterations: Option<u64>,
    pub time_limit: Option<Duration>,
    pub seed: u64,
    pub threads: usize,
    pub widening: Widening,
    /// The most entries (nodes, and moves listed for expansion) of all the trees together; each
    /// tree gets an equal share. About `BYTES_PER_ENTRY` an entry at most.
    pub max_nodes: u64,
}

/// The most memory one tree entry takes (a node, or a move listed for expansion).
pub const BYTES_PER_ENTRY: u64 = 100;

/// A `max_nodes` budget as a caller asks for it (MCTS or PUCT): refused (`TooLarge`, naming the
/// sizes and the machine's memory) when its trees could outgrow the machine, since they would
/// fill the memory before the budget could stop them.
pub fn checked_max_nodes(max_nodes: u64) -> crate::Result<u64> {
    let bytes = max_nodes.saturating_mul(BYTES_PER_ENTRY);
    crate::memory::within_machine(bytes, "the search trees", &format!("max_nodes={max_nodes}"))?;
    Ok(max_nodes)
}

/// The default node budget: a few hundred megabytes.
pub const DEFAULT_MAX_NODES: u64 = 4_000_000;

impl Default for Config {
    fn default() -> Self {
        Config {
            exploration: std::f64::consts::SQRT_2,
            iterations: Some(1000),
            time_limit: None,
            seed: 0,
            threads: 1,
            widening: Widening::default(),
            max_nodes: DEFAULT_MAX_NODES,
        }
    }
}

/// Root statistics of one move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveStats<M> {
    pub mv: M,
    pub visits: u64,
    /// Mean reward for the player to move at the root (win 1, draw 1/2, loss 0).
    pub value: f64,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report<M> {
    /// The most visited move; `None` when the game is over.
    pub best: Option<M>,
    /// Every expanded root move, in the order the trees first expanded them.
    pub moves: Vec<MoveStats<M>>,
    /// Iterations run in this search (over every thread).
    pub iterations: u64,
    /// Nodes in the trees after the search.
    pub nodes: usize,
    /// Whether a tree reached its share of `Config::max_nodes` (and stopped growing).
    pub tree_full: bool,
}

/// A UCT node's own data; the tree links and statistics are the shared `tree::Node`'s (whose
/// `total` counts wins, 1 a win and 1/2 a draw, for the player who made the move).
#[derive(Clone)]
struct Uct<M> {
    mv: Option<M>,
    /// Moves not yet expanded, as a range of the tree's `untried` arena (listing nodes only;
    /// `None` until the first visit lists them).
    untried: Option<Untried>,
    /// The number of legal moves, counted on the first visit (0: terminal).
    legal: u64,
}

/// A node's moves not yet expanded: `arena[start..start + len]`.
#[derive(Clone, Copy)]
struct Untried {
    start: u32,
    len: u32,
}

impl<M> Uct<M> {
    fn new(mv: Option<M>) -> Self {
        Uct { mv, untried: None, legal: u64::MAX }
    }
}

/// One search tree, rooted at a position.
struct Tree<P: Position> {
    nodes: Arena<Uct<P::Move>>,
    /// Every listing node's untried moves, one range each: one growing buffer for the tree
    /// rather than an allocation per node.
    untried: Vec<P::Move>,
    rng: SplitMix64,
    /// The nodes of the current iteration, root first (kept to reuse its allocation).
    path: Vec<u32>,
    /// The most entries (`nodes` plus `untried`) this tree may hold.
    budget: usize,
}

impl<P: Position> Tree<P> {
    fn new(root: &P, rng: SplitMix64, budget: usize) -> Self {
        // The root's mover is the opponent of the player to move: its reward is never used.
        Tree {
            nodes: Arena::new(Uct::new(None), root.to_move().other()),
            untried: Vec::new(),
            rng,
            path: Vec::new(),
            budget,
        }
    }

    /// Whether the tree holds its budget: then it no longer adds nodes nor lists moves.
    fn is_full(&self) -> bool {
        self.nodes.len() + self.untried.len() >= self.budget
    }

    fn mv(&self, node: u32) -> P::Move {
        self.nodes[node].data.mv.expect("a child has a move")
    }

    /// The child of `parent` reached by `mv`, if expanded.
    fn child_with(&self, parent: u32, mv: P::Move) -> Option<u32> {
        self.nodes.children(parent).find(|&c| self.nodes[c].data.mv == Some(mv))
    }

    /// First visit of a node: count (and, below the widening limit, list) its moves. Changes
    /// nothing when interrupted.
    fn prepare(&mut self, node: u32, position: &P, widening: &Widening, stop: &Stop) -> Result<()> {
        if self.nodes[node].data.legal != u64::MAX {
            return Ok(());
        }
        let legal = position.count_moves_interruptible(stop)?;
        if legal > 0 && legal <= widening.limit {
            let start = self.untried.len();
            // The game's own interruptible listing (Rive's looks inside one long move too).
            self.untried.extend(position.list_moves(stop)?);
            self.nodes[node].data.untried =
                Some(Untried { start: start as u32, len: (self.untried.len() - start) as u32 });
        }
        self.nodes[node].data.legal = legal;
        Ok(())
    }

    /// A new child of `node` for this iteration, or `None` when it should select among its
    /// children instead (or is terminal).
    fn expand(&mut self, node: u32, position: &P, widening: &Widening, stop: &Stop) -> Result<Option<u32>> {
        self.prepare(node, position, widening, stop)?;
        let mover = position.to_move();
        if self.is_full() {
            return Ok(None);
        }
        let (visits, children) = (self.nodes[node].visits, self.nodes[node].children);
        let n = &mut self.nodes[node].data;
        if n.legal == 0 {
            return Ok(None);
        }
        if let Some(untried) = n.untried.as_mut() {
            if untried.len == 0 {
                return Ok(None);
            }
            // A random untried move, swapped to the end of the range, which then shrinks.
            let k = self.rng.below(u64::from(untried.len)) as usize;
            let last = (untried.start + untried.len - 1) as usize;
            untried.len -= 1;
            self.untried.swap(untried.start as usize + k, last);
            let mv = self.untried[last];
            return Ok(Some(self.nodes.add_child(node, Uct::new(Some(mv)), mover)));
        }
        let allowed = (widening.coefficient * ((visits + 1) as f64).powf(widening.exponent)).ceil() as u64;
        if u64::from(children) >= allowed.min(n.legal) {
            return Ok(None);
        }
        let Some(mv) = position.sample_move_interruptible(&mut self.rng, stop)? else { return Ok(None) };
        // A draw that is already a child adds nothing: this iteration selects among the
        // children by UCT instead (and goes on below the one it picks).
        Ok(match self.child_with(node, mv) {
            Some(_) => None,
            None => Some(self.nodes.add_child(node, Uct::new(Some(mv)), mover)),
        })
    }

    /// The child of `node` with the highest UCT score.
    fn select(&self, node: u32, exploration: f64) -> u32 {
        let parent_visits = self.nodes[node].visits.max(1) as f64;
        let spread = exploration * parent_visits.ln().sqrt();
        let score = |c: u32| {
            let child = &self.nodes[c];
            match child.visits {
                0 => f64::INFINITY,
                v => child.total / v as f64 + spread / (v as f64).sqrt(),
            }
        };
        let mut best = (NONE, f64::NEG_INFINITY);
        for c in self.nodes.children(node) {
            let s = score(c);
            if s > best.1 {
                best = (c, s);
            }
        }
        best.0
    }

    /// One iteration from `root`. Interrupted (in a long move listing or playout), it backs
    /// nothing up: a child it added stays unvisited, as a child is before its first playout.
    fn iterate(&mut self, root: &P, config: &Config, stop: &Stop) -> Result<()> {
        let mut position = root.clone();
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        path.push(ROOT);
        let mut node = ROOT;
        loop {
            // A full tree lists no more moves: a leaf not yet listed is played out as it is.
            if self.is_full() && self.nodes[node].data.legal == u64::MAX {
                break;
            }
            if let Some(child) = self.expand(node, &position, &config.widening, stop)? {
                position.play_unchecked(self.mv(child));
                path.push(child);
                break;
            }
            // Terminal, or (in a full tree only) a node with no child to select.
            if self.nodes[node].data.legal == 0 || self.nodes[node].children == 0 {
                break;
            }
            node = self.select(node, config.exploration);
            position.play_unchecked(self.mv(node));
            path.push(node);
        }
        let played = position.play_out_interruptible(&mut self.rng, stop);
        if played.is_ok() {
            let outcome = position.outcome();
            self.nodes.back_up(&path, |mover| reward(outcome, mover));
        }
        self.path = path;
        played
    }

    /// The subtree under the root's child reached by `mv`, as a tree of its own (or a fresh tree
    /// when that move was never expanded).
    fn advanced(self, mv: P::Move, new_root: &P) -> Self {
        let Some(child) = self.child_with(ROOT, mv) else { return Tree::new(new_root, self.rng, self.budget) };
        let mut untried = Vec::new();
        let old_untried = &self.untried;
        let mut nodes = self.nodes.subtree(child, |edge| {
            if let Some(range) = edge.untried.as_mut() {
                let start = untried.len();
                untried.extend_from_slice(&old_untried[range.start as usize..(range.start + range.len) as usize]);
                range.start = start as u32;
            }
        });
        nodes[ROOT].data.mv = None;
        Tree { nodes, untried, rng: self.rng, path: self.path, budget: self.budget }
    }
}

/// The reward of `player` for a finished game: 1 for a win, 1/2 for a draw, 0 for a loss.
fn reward(outcome: Option<Outcome>, player: Player) -> f64 {
    match outcome {
        Some(Outcome::Winner(p)) if p == player => 1.0,
        Some(Outcome::Winner(_)) => 0.0,
        _ => 0.5,
    }
}

/// A reusable search: trees survive `advance` (the subtree of the move played is kept).
pub struct Searcher<P: Position> {
    root: P,
    trees: Vec<Tree<P>>,
    config: Config,
}

impl<P: Position> Searcher<P> {
    pub fn new(root: P, config: Config) -> Self {
        let threads = config.threads.max(1);
        let budget = usize::try_from(config.max_nodes / threads as u64).unwrap_or(usize::MAX).max(1);
        let trees = (0..threads as u64)
            .map(|t| Tree::new(&root, crate::playout::playout_rng(config.seed, t), budget))
            .collect();
        Searcher { root, trees, config: Config { threads, ..config } }
    }

    pub fn position(&self) -> &P {
        &self.root
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Searches with `iterations` / `time_limit` (`None`: the configured ones) and reports.
    pub fn search(&mut self, iterations: Option<u64>, time_limit: Option<Duration>) -> Report<P::Move> {
        crate::perft::unstoppable(self.search_interruptible(iterations, time_limit, Stop::never()))
    }

    /// `search`, returning `Err(Interrupted)` soon after `stop` is requested (the trees keep the
    /// iterations completed). Several threads run on scoped threads while this one polls `stop`.
    pub fn search_interruptible(
        &mut self,
        iterations: Option<u64>,
        time_limit: Option<Duration>,
        stop: &Stop,
    ) -> Result<Report<P::Move>> {
        let iterations = iterations.or(if time_limit.is_some() { None } else { self.config.iterations });
        let time_limit = time_limit.or(self.config.time_limit);
        let threads = self.trees.len() as u64;
        let (root, config) = (&self.root, &self.config);
        let run = |t: u64, tree: &mut Tree<P>| {
            let share = iterations.map(|n| n / threads + u64::from(t < n % threads));
            grow(tree, root, config, share, time_limit, stop)
        };
        let done: u64 = if threads == 1 {
            run(0, &mut self.trees[0])?
        } else {
            std::thread::scope(|scope| {
                let (send, done) = std::sync::mpsc::channel();
                for (t, tree) in self.trees.iter_mut().enumerate() {
                    let send = send.clone();
                    scope.spawn(move || send.send(run(t as u64, tree)));
                }
                drop(send);
                stop.wait(&done, threads as usize)?.into_iter().sum::<Result<u64>>()
            })?
        };
        Ok(self.report(done))
    }

    /// The root statistics summed over the trees.
    fn report(&self, iterations: u64) -> Report<P::Move> {
        let mut moves: Vec<(P::Move, u64, f64)> = Vec::new();
        for tree in &self.trees {
            let mut children: Vec<u32> = tree.nodes.children(ROOT).collect();
            children.reverse(); // expansion order
            for c in children {
                let n = &tree.nodes[c];
                match moves.iter_mut().find(|(m, _, _)| Some(*m) == n.data.mv) {
                    Some(entry) => {
                        entry.1 += n.visits;
                        entry.2 += n.total;
                    }
                    None => moves.push((tree.mv(c), n.visits, n.total)),
                }
            }
        }
        let mut best: Option<(P::Move, u64)> = None;
        for &(mv, visits, _) in &moves {
            if best.is_none_or(|(_, v)| visits > v) {
                best = Some((mv, visits));
            }
        }
        let stats = moves
            .into_iter()
            .map(|(mv, visits, wins)| MoveStats {
                mv,
                visits,
                value: if visits == 0 { 0.0 } else { wins / visits as f64 },
            })
            .collect();
        Report {
            best: best.map(|(mv, _)| mv),
            moves: stats,
            iterations,
            nodes: self.trees.iter().map(|t| t.nodes.len()).sum(),
            tree_full: self.trees.iter().any(Tree::is_full),
        }
    }

    /// Plays `mv` (legal in the root position, by either player) and keeps its subtree.
    pub fn advance(&mut self, mv: P::Move) -> crate::Result<()> {
        self.root.check_move(mv)?;
        self.root.play_unchecked(mv);
        let root = &self.root;
        self.trees = std::mem::take(&mut self.trees).into_iter().map(|tree| tree.advanced(mv, root)).collect();
        Ok(())
    }

    /// Visits recorded at the root (summed over the trees).
    pub fn root_visits(&self) -> u64 {
        self.trees.iter().map(|t| t.nodes[ROOT].visits).sum()
    }
}

/// Runs `iterations` (or until `time_limit`) on one tree, at least one when it has any to run
/// (however short the time limit); returns the iterations run.
fn grow<P: Position>(
    tree: &mut Tree<P>,
    root: &P,
    config: &Config,
    iterations: Option<u64>,
    time_limit: Option<Duration>,
    stop: &Stop,
) -> Result<u64> {
    let start = Instant::now();
    let mut done = 0;
    loop {
        if iterations.is_some_and(|n| done >= n) {
            break;
        }
        // Reading the clock costs more than an iteration of a small game: look every 16.
        if done > 0 && (done == 1 || done % 16 == 0) && time_limit.is_some_and(|limit| start.elapsed() >= limit) {
            break;
        }
        if iterations.is_none() && time_limit.is_none() {
            break;
        }
        if done % 4 == 0 {
            stop.check()?;
        }
        tree.iterate(root, config, stop)?;
        done += 1;
    }
    Ok(done)
}

/// One search from `position`: the best move and the root statistics.
pub fn search<P: Position>(position: &P, config: Config) -> Report<P::Move> {
    Searcher::new(position.clone(), config).search(None, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::{Reversi, Shape, Variant};

    fn config(iterations: u64, seed: u64, threads: usize) -> Config {
        Config { iterations: Some(iterations), seed, threads, ..Config::default() }
    }

    fn reversi(size: u8) -> Reversi {
        Variant::new(Shape::Square(size), Vec::new(), 0, Player::Black).unwrap().start()
    }

    #[test]
    fn every_iteration_visits_one_root_move() {
        let report = search(&reversi(6), config(500, 1, 1));
        assert_eq!(report.iterations, 500);
        assert_eq!(report.moves.iter().map(|m| m.visits).sum::<u64>(), 500);
        let best = report.moves.iter().max_by_key(|m| m.visits).unwrap();
        assert_eq!(report.best, Some(best.mv));
    }

    #[test]
    fn a_search_depends_on_the_seed_and_thread_count_only() {
        for threads in [1, 2] {
            let a = search(&reversi(6), config(300, 7, threads));
            let b = search(&reversi(6), config(300, 7, threads));
            assert_eq!(a, b);
            assert_eq!(a.moves.iter().map(|m| m.visits).sum::<u64>(), 300);
        }
    }

    #[test]
    fn advancing_keeps_the_subtree_of_the_move_played() {
        let mut searcher = Searcher::new(reversi(6), config(400, 3, 1));
        let report = searcher.search(None, None);
        let best = report.moves.iter().max_by_key(|m| m.visits).unwrap();
        searcher.advance(best.mv).unwrap();
        assert_eq!(searcher.root_visits(), best.visits);
        let again = searcher.search(Some(100), None);
        assert_eq!(again.moves.iter().map(|m| m.visits).sum::<u64>(), best.visits - 1 + 100);
    }

    #[test]
    fn advancing_by_an_illegal_move_changes_nothing() {
        let mut searcher = Searcher::new(reversi(6), config(50, 3, 1));
        searcher.search(None, None);
        let before = searcher.root_visits();
        let mut after_one = reversi(6);
        let first = after_one.legal_moves().next().unwrap();
        after_one.play_unchecked(first);
        let not_legal_at_root = after_one.legal_moves().find(|&m| !reversi(6).is_legal(m)).unwrap();
        assert!(searcher.advance(not_legal_at_root).is_err());
        assert_eq!(searcher.root_visits(), before);
        assert_eq!(searcher.position(), &reversi(6));
    }

    #[test]
    fn a_tiny_time_limit_still_runs_an_iteration_per_tree() {
        for threads in [1, 3] {
            let tiny =
                Config { iterations: None, time_limit: Some(Duration::from_nanos(1)), threads, ..Config::default() };
            let report = search(&reversi(6), tiny);
            assert!(report.iterations >= threads as u64, "{threads}: {report:?}");
            assert!(report.best.is_some_and(|mv| reversi(6).is_legal(mv)));
        }
    }

    #[test]
    fn a_full_tree_stops_growing_says_so_and_still_searches() {
        let mut searcher = Searcher::new(reversi(6), Config { max_nodes: 50, ..config(2000, 5, 1) });
        let report = searcher.search(None, None);
        assert!(report.tree_full);
        assert_eq!(report.iterations, 2000);
        assert_eq!(report.moves.iter().map(|m| m.visits).sum::<u64>(), 2000);
        let tree = &searcher.trees[0];
        assert!(tree.nodes.len() + tree.untried.len() <= 50 + 64, "at most one listing past the budget");
        assert!(report.best.is_some_and(|mv| reversi(6).is_legal(mv)));
        assert!(!search(&reversi(6), config(2000, 5, 1)).tree_full);
    }

    #[test]
    fn an_interrupted_search_stops_and_keeps_its_iterations() {
        for threads in [1, 2] {
            let mut searcher =
                Searcher::new(reversi(6), Config { iterations: Some(u64::MAX), threads, ..Config::default() });
            let stop = Stop::new();
            stop.request();
            assert_eq!(searcher.search_interruptible(None, None, &stop), Err(crate::Error::Interrupted));
            let calls = std::sync::atomic::AtomicU32::new(0);
            let go_on = || calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 2;
            let polled = Stop::polling(&go_on);
            assert_eq!(searcher.search_interruptible(None, None, &polled), Err(crate::Error::Interrupted));
            assert!(searcher.root_visits() > 0);
        }
    }

    /// A game of two moves a ply for four plies whose listing hears a stop that comes while it
    /// lists (as a long Rive listing does); its plain `legal_moves` cannot hear one.
    #[derive(Clone, Copy, PartialEq)]
    struct Listing {
        plies: u8,
    }

    impl Position for Listing {
        type Move = bool;
        type Moves<'a> = std::iter::Take<std::array::IntoIter<bool, 2>>;
        fn to_move(&self) -> Player {
            [Player::Black, Player::White][self.plies as usize % 2]
        }
        fn legal_moves(&self) -> Self::Moves<'_> {
            [false, true].into_iter().take(if self.plies < 4 { 2 } else { 0 })
        }
        fn list_moves(&self, stop: &Stop) -> crate::Result<Vec<bool>> {
            stop.request();
            stop.checkpoint()?;
            Ok(self.legal_moves().collect())
        }
        fn play_unchecked(&mut self, _: bool) {
            self.plies += 1;
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.plies >= 4).then_some(Outcome::Draw)
        }
        fn score(&self) -> (u32, u32) {
            (0, 0)
        }
        fn zobrist(&self) -> u64 {
            self.plies as u64
        }
        fn parse_move(&self, _: &str) -> crate::Result<bool> {
            Ok(true)
        }
        fn format_move(&self, mv: bool) -> String {
            mv.to_string()
        }
        fn to_notation(&self) -> String {
            String::new()
        }
        fn from_notation(_: &str) -> crate::Result<Self> {
            Ok(Listing { plies: 0 })
        }
    }

    #[test]
    fn a_node_lists_its_moves_with_the_games_interruptible_listing() {
        let mut searcher = Searcher::new(Listing { plies: 0 }, config(100, 1, 1));
        let stop = Stop::new();
        assert_eq!(searcher.search_interruptible(None, None, &stop), Err(crate::Error::Interrupted));
        assert_eq!(searcher.root_visits(), 0);
        assert!(searcher.trees[0].untried.is_empty(), "an interrupted listing adds nothing");
    }

    #[test]
    fn a_finished_game_has_no_best_move() {
        let mut p = reversi(4);
        let mut rng = SplitMix64::new(1);
        p.play_out(&mut rng);
        let report = search(&p, config(10, 1, 1));
        assert_eq!(report.best, None);
        assert!(report.moves.is_empty());
    }
}
