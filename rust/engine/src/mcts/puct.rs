//! Search guided by a model, over the step form: PUCT (AlphaZero) or Gumbel root selection with
//! sequential halving (Danihelka et al., ICLR 2022, as mctx implements it), for any game and
//! many roots at once, with the leaves of all trees batched for one evaluator call.
//!
//! - **Actions**: the tree's edges are step actions (`Steps`), so a search answers with a policy
//!   over the game's fixed action space. The tree is `tree::Arena`: a node keeps its statistics
//!   for the player who chose the action into it, so several actions in a row by one player
//!   (Reversi passes, Rive's extra placements, Strands' cells) back up correctly.
//! - **Evaluator**: for a batch of leaves, policy logits over the actions and a value in [-1, 1]
//!   for the side to move ([`Evaluator`]). [`Rollouts`] is the default: uniform logits and the
//!   result of one uniformly random playout, all in Rust.
//! - **A simulation** descends from the root by the selection rule, applying the actions to a
//!   copy of the root state, to a leaf: a terminal node backs up its result at once; a new node
//!   waits for the evaluator, which expands it (one edge per legal action, its prior the softmax
//!   of the logits over the legal actions; a child node only once a simulation takes the edge)
//!   and gives the value backed up along the path.
//! - **Batching**: each round, every tree with simulations left selects up to its share of
//!   `batch_size` leaves (the shares differ by at most one, the earlier trees taking the extra),
//!   with a *virtual loss* on the way down (a visit and a loss for the chooser, undone at the
//!   back-up) so that the leaves of one round differ. A descent that meets a leaf already waiting
//!   this round is taken back, and the tree stops selecting for the round after as many of those
//!   as its share. All leaves of the round go to the evaluator in one call, in tree order.
//! - **PUCT** (`gumbel: None`): the child maximising `Q + c_puct * P * sqrt(N) / (1 + n)`, with
//!   `N` the parent's visits, `n` and `Q` the child's visits and mean value for the chooser, and
//!   an unvisited child valued at the parent's mean (for the chooser). Dirichlet noise
//!   `(1 - f) P + f Dir(alpha)` on the root's priors if asked.
//! - **Gumbel** (`gumbel: Some`): at the root, Gumbel noise `g` on the logits `l`; the
//!   simulations visit the `m` best actions by `g + l`, then halve them by
//!   `g + l + sigma(q)` in rounds (mctx's `get_sequence_of_considered_visits` schedule); inner
//!   nodes take the action maximising `pi'(a) - n(a) / (1 + N)` with
//!   `pi' = softmax(l + sigma(completed q))`. `sigma(q) = (c_visit + max n) * c_scale * q` over
//!   the completed Q values rescaled to [0, 1] (mctx's `qtransform_completed_by_mix_value`). The
//!   chosen action is the best by `g + l + sigma(q)` among the most visited; the policy is the
//!   improved policy `softmax(l + sigma(completed q))`.
//! - **Reproducibility**: every tree draws from its own generator (noise, rollout seeds, the
//!   choice with a temperature), and trees are only ever touched one thread each, so a search
//!   depends on its seed, settings and (for batching) the number of roots, never on the number
//!   of threads.

use crate::error::{Error, Result};
use crate::game::{Outcome, Player};
use crate::interrupt::{every, Stop};
use crate::rng::SplitMix64;
use crate::steps::Steps;
use crate::tree::{Arena, ROOT};
use rayon::prelude::*;

/// Gumbel root selection with sequential halving (mctx's defaults).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gumbel {
    /// The most root actions considered (`m`).
    pub max_considered: usize,
    /// `c_visit` of `sigma` (mctx's `maxvisit_init`).
    pub c_visit: f32,
    /// `c_scale` of `sigma` (mctx's `value_scale`).
    pub c_scale: f32,
}

impl Default for Gumbel {
    fn default() -> Self {
        Gumbel { max_considered: 16, c_visit: 50.0, c_scale: 0.1 }
    }
}

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Simulations per root, after the root's own evaluation.
    pub simulations: u64,
    /// Leaves per evaluator call (over all roots), at least 1.
    pub batch_size: usize,
    pub c_puct: f32,
    /// `(alpha, fraction)` of the Dirichlet noise on the root's priors (PUCT only).
    pub dirichlet: Option<(f32, f32)>,
    pub gumbel: Option<Gumbel>,
    /// `Some(t > 0)`: the action is drawn with probability proportional to `visits^(1/t)`
    /// (PUCT only); otherwise the most visited.
    pub temperature: f32,
    pub threads: usize,
    /// The most entries (nodes, and edges counted an eighth each: 8 bytes against about 72) of
    /// all the trees together, each tree an equal share; a tree that reaches its share stops
    /// its search there (`Report::tree_full`).
    pub max_nodes: u64,
    /// Stop starting simulations once this much time has passed (the roots are always
    /// evaluated; each tree reports the simulations it ran).
    pub time_limit: Option<std::time::Duration>,
}

/// The share of Dirichlet noise in the root priors when noise is asked for (AlphaZero's 0.25).
pub const DIRICHLET_FRACTION: f32 = 0.25;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            simulations: 800,
            batch_size: 1,
            c_puct: 1.25,
            dirichlet: None,
            gumbel: None,
            temperature: 0.0,
            threads: 1,
            max_nodes: crate::mcts::DEFAULT_MAX_NODES,
            time_limit: None,
        }
    }
}

/// The most simulations ending in a finished game that one round runs before the search looks at
/// its clock and at Ctrl-C again (a few hundred microseconds of back-ups).
const FINISHED_DESCENTS_A_ROUND: u32 = 1024;

/// The leaves of one evaluator call.
pub struct Batch<'a, S> {
    pub states: &'a [S],
    /// A seed per leaf, drawn from its tree's generator (for evaluators that need randomness).
    pub seeds: &'a [u64],
    /// The search's threads (`Settings::threads`; `None` for one), for the evaluator's own work:
    /// one pool per search or self-play run, never one per evaluator or per call.
    pub pool: Option<&'a rayon::ThreadPool>,
}

/// A batch as arrays: what a model reads.
pub struct Encoded {
    /// `rows * C * H * W`, each row `Steps::observe_into`'s.
    pub observations: Vec<f32>,
    /// `rows * num_actions`, each row `Steps::legal_actions_into`'s.
    pub masks: Vec<bool>,
    /// `[rows, C, H, W]`.
    pub shape: [usize; 4],
    pub num_actions: usize,
}

/// The batch's observations and masks, on the batch's pool; `None` for an empty batch.
pub fn encode<S: Steps>(batch: &Batch<'_, S>) -> Option<Encoded> {
    let first = batch.states.first()?;
    let ([c, h, w], num_actions, rows) = (first.observation_shape(), first.num_actions(), batch.states.len());
    let mut observations = vec![0f32; rows * c * h * w];
    let mut masks = vec![false; rows * num_actions];
    let encode = |((state, observation), mask): ((&S, &mut [f32]), &mut [bool])| {
        state.observe_into(observation);
        state.legal_actions_into(mask);
    };
    let out = batch.states.iter().zip(observations.chunks_mut(c * h * w)).zip(masks.chunks_mut(num_actions));
    match batch.pool {
        Some(pool) => {
            let items: Vec<_> = out.collect();
            pool.install(|| items.into_par_iter().for_each(encode));
        }
        None => out.for_each(encode),
    }
    Some(Encoded { observations, masks, shape: [rows, c, h, w], num_actions })
}

/// What guides a search: `evaluate` writes, for each state of the batch, its policy logits (a row
/// of `num_actions` in `logits`; entries of illegal actions are ignored) and its value in
/// [-1, 1] for its side to move.
pub trait Evaluator<S: Steps> {
    fn evaluate(&mut self, batch: &Batch<'_, S>, logits: &mut [f32], values: &mut [f32], stop: &Stop) -> Result<()>;
}

/// The default evaluator: uniform logits, and the result of one uniformly random playout (seeded
/// by the leaf's seed) for the side to move, on the batch's pool.
pub struct Rollouts;

/// A pool of `threads` threads, or none for one thread (or if none can be built).
pub fn thread_pool(threads: usize) -> Option<rayon::ThreadPool> {
    (threads > 1).then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok()).flatten()
}

impl<S: Steps> Evaluator<S> for Rollouts {
    fn evaluate(&mut self, batch: &Batch<'_, S>, logits: &mut [f32], values: &mut [f32], stop: &Stop) -> Result<()> {
        logits.fill(0.0);
        let one = |(i, (state, value)): (usize, (&S, &mut f32))| {
            if every(i as u64, 4) {
                stop.check()?;
            }
            let mut rng = SplitMix64::new(batch.seeds[i]);
            *value = state.play_out_interruptible(&mut rng, stop)?;
            Ok(())
        };
        let rows = batch.states.iter().zip(values.iter_mut()).enumerate();
        match batch.pool {
            Some(pool) if batch.states.len() > 1 => {
                let rows: Vec<_> = rows.collect();
                stop.install(pool, || rows.into_par_iter().try_for_each(one))?
            }
            _ => rows.into_iter().try_for_each(one),
        }
    }
}

/// What a search found at one root.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The chosen action; `None` when the game is over.
    pub action: Option<usize>,
    /// Visits per action (`num_actions` entries).
    pub visits: Vec<u64>,
    /// The search policy: the visit distribution, or with Gumbel the improved policy.
    pub policy: Vec<f32>,
    /// The root's value for its side to move, in [-1, 1].
    pub value: f32,
    /// Simulations run (the root's evaluation not counted).
    pub simulations: u64,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Whether the tree reached its share of `Settings::max_nodes`, ending the search early.
    pub tree_full: bool,
    /// The chosen action, then the rest of the root player's turn along the tree: while the
    /// node reached is the same player's (a Strands turn's cells, a Rive capture's removals and
    /// placement), its most visited child's action. It stops where the tree does, so it can be
    /// shorter than the turn; `[action]` for a game of one action a turn.
    pub turn: Vec<usize>,
}

/// Where a node stands.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stage {
    /// Never reached.
    New,
    /// Reached this round; waits for the evaluator.
    Waiting,
    /// Evaluated: its legal actions are its edges.
    Expanded,
    /// The game is over here: Black's return.
    Over(f32),
}

/// A legal action of an expanded node, with its prior. A node's edges are listed once, in
/// decreasing prior (the lower action first among equals); a child node is made for an edge
/// only when a simulation first takes it (`tree::Arena` holds the nodes), so a leaf with
/// hundreds of actions costs 8 bytes an action, not a node each.
#[derive(Debug, Clone, Copy)]
struct Edge {
    action: u32,
    prior: f32,
}

/// A PUCT node's own data.
#[derive(Debug, Clone, Copy)]
struct Step {
    action: u32,
    prior: f32,
    /// The index of this node's edge among its parent's edges.
    edge: u32,
    stage: Stage,
    /// The side to move at this node (known once reached).
    to_move: Player,
    /// The evaluator's value of this node for `to_move` (Gumbel's mixed value uses it).
    raw_value: f32,
    /// The node's edges: `edges[first_edge..first_edge + edge_count]` of the tree.
    first_edge: u32,
    edge_count: u32,
}

/// Where a simulation goes from an expanded node.
enum Choice {
    Child(u32),
    /// The edge with this index, which has no node yet.
    Edge(u32),
}

/// A leaf selected this round.
struct Waiting<S> {
    state: S,
    node: u32,
    /// The nodes from the root down to `node`.
    path: Vec<u32>,
    seed: u64,
}

/// The Gumbel root: the noise per root edge, and how many actions sequential halving starts
/// from (each simulation's visit count is `considered_visit` of it).
struct GumbelRoot {
    /// `g + l` for every root edge.
    scores: Vec<f32>,
    /// `m`: the actions considered first.
    considered: u64,
}

/// One search tree.
struct Tree<S: Steps> {
    root: S,
    nodes: Arena<Step>,
    edges: Vec<Edge>,
    rng: SplitMix64,
    /// Simulations started (selected) and to run.
    started: u64,
    target: u64,
    waiting: Vec<Waiting<S>>,
    gumbel: Option<GumbelRoot>,
    /// This tree's share of `Settings::max_nodes`, and whether it was reached.
    budget: u64,
    full: bool,
    /// Buffers reused by every expansion and descent (a search runs thousands of each).
    legal: Vec<usize>,
    spare_paths: Vec<Vec<u32>>,
}

fn value_for(player: Player, value: f32, of: Player) -> f64 {
    if player == of {
        f64::from(value)
    } else {
        -f64::from(value)
    }
}

/// Black's return of a finished game.
fn black_return(outcome: Outcome) -> f32 {
    crate::steps::returns_of(Some(outcome))[Player::Black as usize]
}

/// Appends an edge per legal action (`legal` in increasing order, not empty) with its prior,
/// the softmax of `logits` over the legal actions, in decreasing prior (the lower action first
/// among equals).
fn push_edges(logits: &[f32], legal: &[usize], edges: &mut Vec<Edge>) {
    let start = edges.len();
    let first = logits[legal[0]];
    if legal.iter().all(|&a| logits[a] == first) {
        // Uniform (random rollouts always are): no exponentials, and already in order.
        let prior = 1.0 / legal.len() as f32;
        edges.extend(legal.iter().map(|&a| Edge { action: a as u32, prior }));
        return;
    }
    let top = legal.iter().map(|&a| logits[a]).fold(f32::NEG_INFINITY, f32::max);
    edges.extend(legal.iter().map(|&a| Edge { action: a as u32, prior: (logits[a] - top).exp() }));
    let sum: f32 = edges[start..].iter().map(|e| e.prior).sum();
    edges[start..].iter_mut().for_each(|e| e.prior /= sum);
    by_decreasing_prior(&mut edges[start..]);
}

/// The per-edge statistics of a node: each edge's prior, visits and mean (for the chooser).
struct EdgeStats {
    prior: f32,
    visits: u64,
    mean: Option<f64>,
}

impl<S: Steps> Tree<S> {
    fn new(root: S, seed: u64, simulations: u64, budget: u64) -> Self {
        let to_move = root.to_move();
        let stage = match root.outcome() {
            Some(outcome) => Stage::Over(black_return(outcome)),
            None => Stage::New,
        };
        // The root keeps its statistics for its own side to move: its mean is its value.
        let step = Step {
            action: u32::MAX,
            prior: 1.0,
            edge: 0,
            stage,
            to_move,
            raw_value: 0.0,
            first_edge: 0,
            edge_count: 0,
        };
        let target = if matches!(stage, Stage::Over(_)) { 0 } else { simulations };
        Tree {
            root,
            nodes: Arena::new(step, to_move),
            edges: Vec::new(),
            rng: SplitMix64::new(seed),
            started: 0,
            target,
            waiting: Vec::new(),
            gumbel: None,
            budget,
            full: false,
            legal: Vec::new(),
            spare_paths: Vec::new(),
        }
    }

    fn is_over(&self) -> bool {
        matches!(self.nodes[ROOT].data.stage, Stage::Over(_))
    }

    fn edges_of(&self, node: u32) -> &[Edge] {
        let step = &self.nodes[node].data;
        &self.edges[step.first_edge as usize..(step.first_edge + step.edge_count) as usize]
    }

    /// Each edge's statistics, in edge order (for Gumbel and the report).
    fn edge_stats(&self, node: u32) -> Vec<EdgeStats> {
        let mut stats: Vec<EdgeStats> =
            self.edges_of(node).iter().map(|e| EdgeStats { prior: e.prior, visits: 0, mean: None }).collect();
        for c in self.nodes.children(node) {
            let child = &self.nodes[c];
            let entry = &mut stats[child.data.edge as usize];
            (entry.visits, entry.mean) = (child.visits, child.mean());
        }
        stats
    }

    /// The child of `node` for its edge `k`, made now.
    fn make_child(&mut self, node: u32, k: u32, mover: Player) -> u32 {
        let edge = self.edges_of(node)[k as usize];
        let step = Step {
            action: edge.action,
            prior: edge.prior,
            edge: k,
            stage: Stage::New,
            to_move: mover,
            raw_value: 0.0,
            first_edge: 0,
            edge_count: 0,
        };
        self.nodes.add_child(node, step, mover)
    }

    /// The root, waiting for its evaluation, unless already expanded (or over).
    fn wait_for_root(&mut self) {
        if self.nodes[ROOT].data.stage == Stage::New {
            self.nodes[ROOT].data.stage = Stage::Waiting;
            let seed = self.rng.next_u64();
            self.waiting.push(Waiting { state: self.root.clone(), node: ROOT, path: vec![ROOT], seed });
        }
    }

    /// Selects up to `quota` leaves for this round (backing up terminal ones at once).
    fn select_leaves(&mut self, quota: usize, settings: &Settings) {
        if self.nodes.len() as u64 + self.edges.len() as u64 / 8 >= self.budget {
            // Full: the simulations run so far are the search.
            self.full = true;
            self.target = self.started;
            return;
        }
        let (mut collisions, mut finished) = (0, 0);
        // Descents that end in finished games add no leaf: without a bound on them, a tree whose
        // every line is played out would run its whole plan in this loop, past the time limit and
        // deaf to Ctrl-C (both are checked between rounds).
        while self.waiting.len() < quota
            && self.started < self.target
            && collisions < quota.max(1)
            && finished < FINISHED_DESCENTS_A_ROUND
        {
            let leaves = self.waiting.len();
            if !self.descend(settings) {
                collisions += 1;
            } else if self.waiting.len() == leaves {
                finished += 1;
            }
        }
    }

    /// One simulation's descent. Returns false when it met a leaf already waiting (and was
    /// taken back).
    fn descend(&mut self, settings: &Settings) -> bool {
        let mut state = self.root.clone();
        let mut path = self.spare_paths.pop().unwrap_or_default();
        path.clear();
        path.push(ROOT);
        let mut node = ROOT;
        let simulation = self.started;
        loop {
            match self.nodes[node].data.stage {
                Stage::Expanded => {
                    node = match self.choose(node, simulation, settings) {
                        Choice::Child(child) => child,
                        Choice::Edge(k) => self.make_child(node, k, state.to_move()),
                    };
                    // The virtual loss: a visit and a loss for the chooser until the back-up.
                    let n = &mut self.nodes[node];
                    n.visits += 1;
                    n.total -= 1.0;
                    state.apply_action_unchecked(n.data.action as usize);
                    path.push(node);
                }
                Stage::Over(black) => {
                    self.started += 1;
                    self.back_up(&path, Player::Black, black);
                    self.spare_paths.push(path);
                    return true;
                }
                Stage::Waiting => {
                    for &id in &path[1..] {
                        let n = &mut self.nodes[id];
                        n.visits -= 1;
                        n.total += 1.0;
                    }
                    self.spare_paths.push(path);
                    return false;
                }
                Stage::New => {
                    self.started += 1;
                    let step = &mut self.nodes[node].data;
                    step.to_move = state.to_move();
                    if let Some(outcome) = state.outcome() {
                        step.stage = Stage::Over(black_return(outcome));
                        self.back_up(&path, Player::Black, black_return(outcome));
                        self.spare_paths.push(path);
                    } else {
                        step.stage = Stage::Waiting;
                        let seed = self.rng.next_u64();
                        self.waiting.push(Waiting { state, node, path, seed });
                    }
                    return true;
                }
            }
        }
    }

    /// Backs `value` (for `player`) up `path`, undoing the virtual loss below the root.
    fn back_up(&mut self, path: &[u32], player: Player, value: f32) {
        for (depth, &id) in path.iter().enumerate() {
            let n = &mut self.nodes[id];
            if depth == 0 {
                n.visits += 1;
            } else {
                n.total += 1.0;
            }
            n.total += value_for(player, value, n.mover);
        }
    }

    /// Expands the waiting leaves with the evaluator's rows and backs their values up.
    fn absorb(&mut self, logits: &[f32], values: &[f32], settings: &Settings) {
        let num_actions = self.root.num_actions();
        let mut waiting = std::mem::take(&mut self.waiting);
        for (i, leaf) in waiting.drain(..).enumerate() {
            self.legal.clear();
            leaf.state.for_each_legal_action(|a| self.legal.push(a));
            self.legal.sort_unstable();
            let first_edge = self.edges.len();
            push_edges(&logits[i * num_actions..(i + 1) * num_actions], &self.legal, &mut self.edges);
            let to_move = leaf.state.to_move();
            let step = &mut self.nodes[leaf.node].data;
            step.stage = Stage::Expanded;
            step.raw_value = values[i];
            (step.first_edge, step.edge_count) = (first_edge as u32, self.legal.len() as u32);
            if leaf.node == ROOT {
                self.prepare_root(settings);
            }
            self.back_up(&leaf.path, to_move, values[i]);
            self.spare_paths.push(leaf.path);
        }
        self.waiting = waiting;
    }

    /// Root noise: Dirichlet on the priors (PUCT) or the Gumbel draw and schedule.
    fn prepare_root(&mut self, settings: &Settings) {
        let step = self.nodes[ROOT].data;
        let range = step.first_edge as usize..(step.first_edge + step.edge_count) as usize;
        if let Some(gumbel) = settings.gumbel {
            let scores = range
                .clone()
                .map(|k| self.rng.gumbel() as f32 + self.edges[k].prior.max(f32::MIN_POSITIVE).ln())
                .collect();
            let considered = gumbel.max_considered.min(range.len());
            self.gumbel = Some(GumbelRoot { scores, considered: considered as u64 });
        } else if let Some((alpha, fraction)) = settings.dirichlet {
            let noise = self.rng.dirichlet(f64::from(alpha), range.len());
            for (edge, eta) in self.edges[range.clone()].iter_mut().zip(noise) {
                edge.prior = (1.0 - fraction) * edge.prior + fraction * eta as f32;
            }
            // No root child exists yet: the edges can still be reordered.
            by_decreasing_prior(&mut self.edges[range]);
        }
    }

    fn choose(&self, node: u32, simulation: u64, settings: &Settings) -> Choice {
        let k = match (&self.gumbel, settings.gumbel) {
            (Some(root), Some(gumbel)) if node == ROOT => self.gumbel_root_edge(root, &gumbel, simulation),
            (_, Some(gumbel)) => self.gumbel_inner_edge(node, &gumbel),
            _ => return self.puct_choice(node, settings.c_puct),
        };
        match self.nodes.children(node).find(|&c| self.nodes[c].data.edge == k) {
            Some(child) => Choice::Child(child),
            None => Choice::Edge(k),
        }
    }

    /// The mean value of `node` for its side to move (0 before any visit).
    fn value_to_move(&self, node: u32) -> f64 {
        let n = &self.nodes[node];
        n.mean().map_or(0.0, |mean| if n.mover == n.data.to_move { mean } else { -mean })
    }

    /// PUCT's choice. Edges run in decreasing prior, and an edge is first taken only when it is
    /// the best untaken one, which (all untaken edges sharing one value, the parent's) is the
    /// first untaken in that order: the children are the first edges, in order, and beyond them
    /// only the next edge is a candidate, however many actions there are.
    fn puct_choice(&self, node: u32, c_puct: f32) -> Choice {
        let spread = c_puct * (self.nodes[node].visits.max(1) as f32).sqrt();
        let unvisited = self.value_to_move(node) as f32;
        let mut best = (Choice::Edge(u32::MAX), f32::NEG_INFINITY);
        for c in self.nodes.children(node) {
            let child = &self.nodes[c];
            let visits = child.visits as f32;
            // A child whose only visit was taken back by a collision has none.
            let q = if child.visits == 0 { unvisited } else { child.total as f32 / visits };
            let score = q + spread * child.data.prior / (1.0 + visits);
            if score >= best.1 {
                best = (Choice::Child(c), score);
            }
        }
        let step = &self.nodes[node].data;
        let next = self.nodes[node].children;
        if next < step.edge_count {
            let score = unvisited + spread * self.edges[(step.first_edge + next) as usize].prior;
            if score > best.1 {
                best = (Choice::Edge(next), score);
            }
        }
        best.0
    }

    /// `sigma(completed q)` of every edge of `node`, in edge order, with the edges' statistics.
    fn sigma(&self, node: u32, gumbel: &Gumbel) -> (Vec<EdgeStats>, Vec<f64>) {
        let stats = self.edge_stats(node);
        let prior = |s: &EdgeStats| f64::from(s.prior.max(f32::MIN_POSITIVE));
        let visited_mass: f64 = stats.iter().filter(|s| s.visits > 0).map(prior).sum();
        let weighted_q: f64 = stats.iter().filter_map(|s| Some(prior(s) * s.mean? / visited_mass)).sum();
        let visits: u64 = stats.iter().map(|s| s.visits).sum();
        let raw = f64::from(self.nodes[node].data.raw_value);
        // mctx's mixed value: the network's value and the visited children's Q, prior-weighted.
        let mixed = (raw + visits as f64 * weighted_q) / (visits as f64 + 1.0);
        let completed: Vec<f64> = stats.iter().map(|s| s.mean.unwrap_or(mixed)).collect();
        let (low, high) = completed.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &q| (l.min(q), h.max(q)));
        let most = stats.iter().map(|s| s.visits).max().unwrap_or(0);
        let scale = (f64::from(gumbel.c_visit) + most as f64) * f64::from(gumbel.c_scale);
        let sigma = completed.into_iter().map(|q| scale * (q - low) / (high - low).max(1e-8)).collect();
        (stats, sigma)
    }

    fn gumbel_root_edge(&self, root: &GumbelRoot, gumbel: &Gumbel, simulation: u64) -> u32 {
        let wanted = if simulation < self.target {
            u64::from(considered_visit(root.considered, self.target, simulation))
        } else {
            u64::MAX
        };
        let (stats, sigma) = self.sigma(ROOT, gumbel);
        let best_with = |eligible: &dyn Fn(u64) -> bool| {
            let mut best = (None, f64::NEG_INFINITY);
            for (k, (s, sg)) in stats.iter().zip(&sigma).enumerate() {
                let score = f64::from(root.scores[k]) + sg;
                if eligible(s.visits) && score > best.1 {
                    best = (Some(k as u32), score);
                }
            }
            best.0
        };
        // A simulation past the schedule (none, unless it is longer than planned) takes any;
        // if every action was visited past its turn (a collision taken back can do that), the
        // best by score among the least visited.
        let least = stats.iter().map(|s| s.visits).min().unwrap_or(0);
        best_with(&|v| wanted == u64::MAX || v == wanted).or_else(|| best_with(&|v| v == least)).unwrap_or(0)
    }

    fn gumbel_inner_edge(&self, node: u32, gumbel: &Gumbel) -> u32 {
        let (stats, sigma) = self.sigma(node, gumbel);
        let improved = improved_policy(&stats, &sigma);
        let visits: u64 = stats.iter().map(|s| s.visits).sum();
        let mut best = (0, f64::NEG_INFINITY);
        for (k, (s, p)) in stats.iter().zip(improved).enumerate() {
            let score = p - s.visits as f64 / (1.0 + visits as f64);
            if score > best.1 {
                best = (k as u32, score);
            }
        }
        best.0
    }

    /// The root's statistics, and the action chosen (with a temperature, drawn from `rng`).
    fn report(&mut self, settings: &Settings) -> Report {
        let num_actions = self.root.num_actions();
        let mut visits = vec![0u64; num_actions];
        let mut policy = vec![0f32; num_actions];
        for c in self.nodes.children(ROOT) {
            visits[self.nodes[c].data.action as usize] = self.nodes[c].visits;
        }
        let total: u64 = visits.iter().sum();
        let value = match self.nodes[ROOT].data.stage {
            Stage::Over(black) => value_for(Player::Black, black, self.root.to_move()) as f32,
            _ => self.value_to_move(ROOT) as f32,
        };
        let edges: Vec<Edge> = self.edges_of(ROOT).to_vec();
        let mut action = None;
        if let (Some(gumbel), Some(root)) = (settings.gumbel, self.gumbel.as_ref()) {
            let (stats, sigma) = self.sigma(ROOT, &gumbel);
            for (edge, p) in edges.iter().zip(improved_policy(&stats, &sigma)) {
                policy[edge.action as usize] = p as f32;
            }
            let most = stats.iter().map(|s| s.visits).max().unwrap_or(0);
            let mut best = f64::NEG_INFINITY;
            for (k, (s, sg)) in stats.iter().zip(&sigma).enumerate() {
                let score = f64::from(root.scores[k]) + sg;
                if s.visits == most && score > best {
                    best = score;
                    action = Some(edges[k].action as usize);
                }
            }
        } else if total > 0 {
            for (p, &v) in policy.iter_mut().zip(&visits) {
                *p = v as f32 / total as f32;
            }
            action = Some(if settings.temperature > 0.0 {
                draw(&visits, settings.temperature, &mut self.rng)
            } else {
                most_visited(&visits)
            });
        } else if let Some(first) = edges.first().filter(|_| !self.is_over()) {
            // No simulation ran (a search of 0): the highest prior.
            action = Some(first.action as usize);
            policy[first.action as usize] = 1.0;
        }
        let turn = action.map_or_else(Vec::new, |a| self.turn_from(a));
        Report {
            action,
            visits,
            policy,
            value,
            simulations: self.started,
            nodes: self.nodes.len(),
            tree_full: self.full,
            turn,
        }
    }

    /// `action`, then the most visited line below it while the root's side stays to move.
    fn turn_from(&self, action: usize) -> Vec<usize> {
        let mover = self.root.to_move();
        let mut turn = vec![action];
        let mut node = self.nodes.children(ROOT).find(|&c| self.nodes[c].data.action as usize == action);
        while let Some(n) = node.filter(|&n| {
            let step = &self.nodes[n].data;
            step.stage == Stage::Expanded && step.to_move == mover
        }) {
            // The most visited child, the lower action among equals (as at the root).
            let best = self.nodes.children(n).filter(|&c| self.nodes[c].visits > 0).min_by(|&a, &b| {
                let (a, b) = (&self.nodes[a], &self.nodes[b]);
                b.visits.cmp(&a.visits).then(a.data.action.cmp(&b.data.action))
            });
            if let Some(c) = best {
                turn.push(self.nodes[c].data.action as usize);
            }
            node = best;
        }
        turn
    }
}

/// `softmax(l + sigma)` over a node's edges.
fn improved_policy(stats: &[EdgeStats], sigma: &[f64]) -> Vec<f64> {
    let scores: Vec<f64> =
        stats.iter().zip(sigma).map(|(s, sg)| f64::from(s.prior.max(f32::MIN_POSITIVE)).ln() + sg).collect();
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
    let sum: f64 = weights.iter().sum();
    weights.into_iter().map(|w| w / sum).collect()
}

/// An action drawn with probability proportional to `visits^(1/temperature)` (temperature > 0,
/// some action visited).
pub fn draw(visits: &[u64], temperature: f32, rng: &mut SplitMix64) -> usize {
    let most = *visits.iter().max().unwrap_or(&1) as f64;
    let weights: Vec<f64> = visits
        .iter()
        .map(|&v| if v == 0 { 0.0 } else { (v as f64 / most).powf(1.0 / f64::from(temperature)) })
        .collect();
    let mut x = rng.uniform() * weights.iter().sum::<f64>();
    for (a, w) in weights.iter().enumerate() {
        if *w > 0.0 {
            if x < *w {
                return a;
            }
            x -= w;
        }
    }
    most_visited(visits)
}

/// Orders edges by decreasing prior, the lower action first among equals.
fn by_decreasing_prior(edges: &mut [Edge]) {
    if !edges.windows(2).all(|w| w[0].prior >= w[1].prior) {
        edges.sort_by(|a, b| b.prior.total_cmp(&a.prior).then(a.action.cmp(&b.action)));
    }
}

/// The most visited action (the lowest of equals).
fn most_visited(visits: &[u64]) -> usize {
    let most = visits.iter().copied().max().unwrap_or(0);
    visits.iter().position(|&v| v == most).unwrap_or(0)
}

/// mctx's `get_sequence_of_considered_visits`: for each simulation, the visit count of the root
/// actions it may choose, halving the considered actions in `ceil(log2 m)` phases.
pub fn considered_visits(considered: usize, simulations: usize) -> Vec<u32> {
    (0..simulations as u64).map(|k| considered_visit(considered as u64, simulations as u64, k)).collect()
}

/// Entry `k` of `considered_visits(m, n)`, without the list (a search may plan 10^18
/// simulations): phase after phase, each `max(1, n / (ceil(log2 m) * now))` rounds of `now`
/// simulations, `now` halving from `m` down to 2.
pub fn considered_visit(m: u64, n: u64, k: u64) -> u32 {
    if m <= 1 {
        return k as u32;
    }
    let log2 = u64::from(64 - (m - 1).leading_zeros());
    let (mut now, mut start, mut visits) = (m, 0u64, 0u64);
    loop {
        let rounds = (n / (log2 * now)).max(1);
        let length = rounds.saturating_mul(now);
        if k < start.saturating_add(length) {
            return (visits + (k - start) / now).min(u64::from(u32::MAX)) as u32;
        }
        start += length;
        visits += rounds;
        now = (now / 2).max(2);
    }
}

/// Checks settings a caller gave.
pub fn check(settings: &Settings) -> Result<()> {
    if settings.batch_size == 0 {
        return Err(Error::invalid("batch_size must be at least 1"));
    }
    if !(settings.c_puct.is_finite() && settings.c_puct >= 0.0) {
        return Err(Error::invalid(format!("c_puct must be a finite number >= 0, got {}", settings.c_puct)));
    }
    if let Some((alpha, fraction)) = settings.dirichlet {
        if !(alpha.is_finite() && alpha > 0.0) {
            return Err(Error::invalid(format!("dirichlet_alpha must be a finite number > 0, got {alpha}")));
        }
        if !(0.0..=1.0).contains(&fraction) {
            return Err(Error::invalid(format!("dirichlet_fraction must be in [0, 1], got {fraction}")));
        }
    }
    if !(settings.temperature.is_finite() && settings.temperature >= 0.0) {
        return Err(Error::invalid(format!("temperature must be a finite number >= 0, got {}", settings.temperature)));
    }
    if settings.max_nodes == 0 {
        return Err(Error::invalid("max_nodes must be at least 1"));
    }
    if let Some(gumbel) = settings.gumbel {
        if gumbel.max_considered == 0 {
            return Err(Error::invalid("max_considered must be at least 1"));
        }
        // Gumbel's noise is its exploration: the others would be silently ignored.
        if settings.dirichlet.is_some() {
            return Err(Error::invalid("dirichlet_alpha does not apply with gumbel=True (the Gumbel noise explores)"));
        }
        if settings.temperature > 0.0 {
            return Err(Error::invalid(
                "temperature does not apply with gumbel=True (the action is the sequential-halving winner)",
            ));
        }
    }
    Ok(())
}

/// Searches from every root at once (root `i` seeded `seeds[i]`), batching the leaves of all
/// trees for `evaluator`; one report per root. `Err(Interrupted)` soon after `stop` is requested;
/// an evaluator's error ends the search with that error.
pub fn search_many<S: Steps>(
    roots: Vec<S>,
    seeds: &[u64],
    settings: &Settings,
    evaluator: &mut dyn Evaluator<S>,
    pool: Option<&rayon::ThreadPool>,
    stop: &Stop,
) -> Result<Vec<Report>> {
    // The time limit covers the whole call: the roots' evaluation too.
    let started = std::time::Instant::now();
    check(settings)?;
    // One batch holds every tree's leaves: they must have one shape.
    if let Some(first) = roots.first() {
        let shape = (first.num_actions(), first.observation_shape());
        if let Some(i) = roots.iter().position(|r| (r.num_actions(), r.observation_shape()) != shape) {
            return Err(Error::invalid(format!("state {i} is of another variant than state 0 (its actions or observations differ): a batched search needs one variant")));
        }
    }
    let budget = (settings.max_nodes / roots.len().max(1) as u64).max(1);
    let mut trees: Vec<Tree<S>> =
        roots.into_iter().zip(seeds).map(|(root, &seed)| Tree::new(root, seed, settings.simulations, budget)).collect();
    let num_actions = trees.first().map_or(0, |t| t.root.num_actions());
    let mut round = Round::default();
    // The roots first, in batches.
    trees.iter_mut().for_each(Tree::wait_for_root);
    evaluate_waiting(&mut trees, num_actions, settings, evaluator, pool, &mut round, stop)?;
    let mut quotas = vec![0usize; trees.len()];
    loop {
        stop.check()?;
        if settings.time_limit.is_some_and(|limit| started.elapsed() >= limit) {
            break;
        }
        let active = trees.iter().filter(|t| t.started < t.target).count();
        if active == 0 {
            break;
        }
        let (share, extra) = (settings.batch_size / active, settings.batch_size % active);
        let mut rank = 0;
        for (tree, quota) in trees.iter().zip(quotas.iter_mut()) {
            *quota = 0;
            if tree.started < tree.target {
                *quota = share + usize::from(rank < extra);
                rank += 1;
            }
        }
        let select = |(tree, &quota): (&mut Tree<S>, &usize)| {
            if quota > 0 {
                tree.select_leaves(quota, settings);
            }
        };
        match pool {
            Some(pool) if trees.len() > 1 => {
                pool.install(|| trees.par_iter_mut().zip(quotas.par_iter()).for_each(select))
            }
            _ => trees.iter_mut().zip(quotas.iter()).for_each(select),
        }
        evaluate_waiting(&mut trees, num_actions, settings, evaluator, pool, &mut round, stop)?;
    }
    Ok(trees.iter_mut().map(|t| t.report(settings)).collect())
}

/// What a search reuses from round to round: the leaves' states and seeds as the evaluator
/// reads them, and its answers.
struct Round<S> {
    states: Vec<S>,
    seeds: Vec<u64>,
    logits: Vec<f32>,
    values: Vec<f32>,
}

impl<S> Default for Round<S> {
    fn default() -> Self {
        Round { states: Vec::new(), seeds: Vec::new(), logits: Vec::new(), values: Vec::new() }
    }
}

/// Evaluator calls for the leaves every tree has waiting (in tree order, in chunks of
/// `batch_size`), then their expansion and back-up.
fn evaluate_waiting<S: Steps>(
    trees: &mut [Tree<S>],
    num_actions: usize,
    settings: &Settings,
    evaluator: &mut dyn Evaluator<S>,
    pool: Option<&rayon::ThreadPool>,
    round: &mut Round<S>,
    stop: &Stop,
) -> Result<()> {
    round.states.clear();
    round.seeds.clear();
    for leaf in trees.iter().flat_map(|t| t.waiting.iter()) {
        round.states.push(leaf.state.clone());
        round.seeds.push(leaf.seed);
    }
    let count = round.states.len();
    if count == 0 {
        return Ok(());
    }
    round.logits.resize(count * num_actions, 0.0);
    round.values.resize(count, 0.0);
    let (logits, values) = (&mut round.logits, &mut round.values);
    for start in (0..count).step_by(settings.batch_size) {
        let end = (start + settings.batch_size).min(count);
        let batch = Batch { states: &round.states[start..end], seeds: &round.seeds[start..end], pool };
        evaluator.evaluate(
            &batch,
            &mut logits[start * num_actions..end * num_actions],
            &mut values[start..end],
            stop,
        )?;
    }
    let (logits, values) = (&round.logits, &round.values);
    let absorb = |(tree, start): (&mut Tree<S>, usize)| {
        let n = tree.waiting.len();
        if n > 0 {
            tree.absorb(&logits[start * num_actions..(start + n) * num_actions], &values[start..start + n], settings);
        }
    };
    match pool {
        Some(pool) if trees.len() > 1 => {
            let mut rows = Vec::with_capacity(trees.len());
            let mut start = 0;
            for tree in trees.iter_mut() {
                let n = tree.waiting.len();
                rows.push((tree, start));
                start += n;
            }
            pool.install(|| rows.into_par_iter().for_each(absorb))
        }
        _ => {
            let mut start = 0;
            for tree in trees.iter_mut() {
                let n = tree.waiting.len();
                absorb((tree, start));
                start += n;
            }
        }
    }
    Ok(())
}

/// One search from `root`.
pub fn search<S: Steps>(
    root: S,
    seed: u64,
    settings: &Settings,
    evaluator: &mut dyn Evaluator<S>,
    stop: &Stop,
) -> Result<Report> {
    let pool = thread_pool(settings.threads);
    Ok(search_many(vec![root], &[seed], settings, evaluator, pool.as_ref(), stop)?.remove(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::{ReversiActions, Shape, Variant};

    fn reversi(size: u8) -> ReversiActions {
        ReversiActions::from_position(Variant::new(Shape::Square(size), Vec::new(), 0, Player::Black).unwrap().start())
    }

    fn settings(simulations: u64, batch_size: usize) -> Settings {
        Settings { simulations, batch_size, ..Settings::default() }
    }

    fn run(root: ReversiActions, seed: u64, s: &Settings) -> Report {
        search(root, seed, s, &mut Rollouts, Stop::never()).unwrap()
    }

    #[test]
    fn the_turn_is_the_most_visited_line_while_the_root_player_moves() {
        use crate::game::Position;
        use crate::strands::{Strands, StrandsActions};
        // White's first Strands turn (up to two or three cells): every step of the reported
        // turn is the root player's.
        let mut start = Strands::from_notation("up-to 3333/33223/332223/3322233/332223/33223/3333 b").unwrap();
        start.play_unchecked(start.sample_move(&mut SplitMix64::new(1)).unwrap());
        let root = StrandsActions::from_position(start);
        let report = search(root, 3, &settings(4000, 1), &mut Rollouts, Stop::never()).unwrap();
        assert_eq!(report.turn.first(), report.action.as_ref());
        assert!(report.turn.len() > 1, "{:?}", report.turn);
        let mut state = root;
        for &action in &report.turn {
            assert_eq!(state.to_move(), root.to_move());
            state.apply_action(action).unwrap();
        }
        // One action a turn: the turn is the action.
        let reversi = run(reversi(6), 1, &settings(200, 1));
        assert_eq!(reversi.turn, vec![reversi.action.unwrap()]);
    }

    #[test]
    fn every_simulation_visits_one_root_action() {
        for batch in [1, 8, 64] {
            let report = run(reversi(6), 1, &settings(300, batch));
            assert_eq!(report.visits.iter().sum::<u64>(), 300, "batch {batch}");
            assert_eq!(report.simulations, 300);
            let best = report.action.unwrap();
            assert_eq!(report.visits[best], *report.visits.iter().max().unwrap());
            assert!((report.policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            assert!(reversi(6).is_legal_action(best));
        }
    }

    #[test]
    fn a_search_depends_on_the_seed_not_on_threads() {
        let one = run(reversi(6), 7, &Settings { threads: 1, ..settings(200, 16) });
        let two = run(reversi(6), 7, &Settings { threads: 2, ..settings(200, 16) });
        assert_eq!(one, two);
        let gumbel = Settings { gumbel: Some(Gumbel::default()), ..settings(64, 8) };
        assert_eq!(run(reversi(6), 3, &gumbel), run(reversi(6), 3, &Settings { threads: 2, ..gumbel }));
    }

    #[test]
    fn gumbel_visits_follow_sequential_halving() {
        let report = run(
            reversi(8),
            5,
            &Settings { gumbel: Some(Gumbel { max_considered: 4, ..Gumbel::default() }), ..settings(32, 1) },
        );
        // Reversi's start has 4 moves: 2 phases; 32 / (2 * 4) = 4 visits each, then the best two
        // share the rest.
        let mut visits: Vec<u64> = report.visits.iter().copied().filter(|&v| v > 0).collect();
        visits.sort_unstable();
        assert_eq!(visits, [4, 4, 12, 12]);
        assert!((report.policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn the_schedule_is_mctx_s() {
        // m = 4, n = 12: one visit each (12 / (2 * 4) = 1), then the best two take turns.
        assert_eq!(considered_visits(4, 12), [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
        assert_eq!(considered_visits(1, 3), [0, 1, 2]);
    }

    #[test]
    fn a_finished_game_has_no_action() {
        let mut p = reversi(4);
        let mut rng = SplitMix64::new(1);
        while let Some(a) = p.sample_action(&mut rng) {
            p.apply_action_unchecked(a);
        }
        let report = run(p, 1, &settings(10, 1));
        assert_eq!(report.action, None);
        assert_eq!(report.simulations, 0);
    }

    #[test]
    fn dirichlet_noise_changes_the_root_priors_only() {
        let noisy = Settings { dirichlet: Some((0.3, 0.25)), ..settings(100, 1) };
        let report = run(reversi(6), 2, &noisy);
        assert_eq!(report.visits.iter().sum::<u64>(), 100);
    }

    #[test]
    fn an_interrupted_search_stops() {
        let stop = Stop::new();
        stop.request();
        assert_eq!(search(reversi(6), 1, &settings(u64::MAX, 8), &mut Rollouts, &stop), Err(Error::Interrupted));
    }

    #[test]
    fn a_time_limit_holds_when_every_line_is_played_out() {
        // Three empties left: the tree soon holds the whole game, and every descent ends in a
        // finished game, never at a leaf for the evaluator.
        let mut root = reversi(4);
        let mut rng = SplitMix64::new(5);
        while root.position().empties() > 3 {
            let mut legal = Vec::new();
            root.for_each_legal_action(|a| legal.push(a));
            root.apply_action_unchecked(legal[rng.below(legal.len() as u64) as usize]);
        }
        // A plan of 2**64 simulations: the search returns only because it heeds its clock.
        let timed = Settings { time_limit: Some(std::time::Duration::from_millis(50)), ..settings(u64::MAX, 1) };
        let report = run(root, 1, &timed);
        assert!(report.simulations > 1000 && report.visits.iter().sum::<u64>() == report.simulations);
    }

    #[test]
    fn a_full_tree_ends_its_search_and_says_so() {
        let report = run(reversi(8), 1, &Settings { max_nodes: 100, ..settings(10_000, 1) });
        assert!(report.tree_full);
        assert!(report.simulations < 10_000 && report.visits.iter().sum::<u64>() == report.simulations);
        assert!(report.nodes <= 100 + 1);
        assert!(!run(reversi(8), 1, &settings(100, 1)).tree_full);
    }

    #[test]
    fn a_plan_of_many_simulations_costs_nothing_up_front() {
        assert_eq!(considered_visit(16, 1 << 60, 0), 0);
        let gumbel = Settings { gumbel: Some(Gumbel::default()), max_nodes: 1000, ..settings(u64::MAX, 4) };
        assert!(run(reversi(6), 2, &gumbel).tree_full);
    }

    #[test]
    fn bad_settings_are_refused() {
        assert!(check(&settings(1, 0)).is_err());
        assert!(check(&Settings { c_puct: f32::NAN, ..settings(1, 1) }).is_err());
        assert!(check(&Settings { dirichlet: Some((0.0, 0.25)), ..settings(1, 1) }).is_err());
    }
}
