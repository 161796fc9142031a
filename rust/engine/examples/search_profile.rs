//! Where the alpha-beta search's time goes, per game, on each game's default start (a fixed
//! depth) and on small boards (a solve):
//! `cargo run --release -p boardcore-engine --example search_profile -- listing|threads [repeats]`.
//!
//! `listing`: the share of the search's time spent listing moves.
//! A profiler's attribution blurs across inlined code, and a clock read around every listing
//! costs as much as a Reversi listing itself. So each search is run twice over the same
//! position: once as it is, and once through `Doubled`, a wrapper that lists every node's moves
//! twice and keeps the second list. The searches visit the same nodes (one thread, a fixed
//! depth), so the extra time is what listing the moves costs, and its share is that over the
//! plain search's time (medians of alternating runs). Leaves ask only whether the game is over,
//! and the evaluation computes its own features (Reversi's mobility among them): neither is
//! counted here. Prints one line per search: `game board search nodes seconds share`.
//!
//! `threads`: two threads against one, shared by a root split and by lazy SMP: the time to
//! complete the same search. A fixed depth is the fair race for the two ways: both finish the
//! same iterations, so the faster one is the one a timed search would take deeper. Prints one
//! line per search: `game board search one-thread root-split lazy` (seconds).
//!
//! Every time is the median of alternating runs; the searches use the learned evaluations
//! shipped in the Python package.

use boardcore_engine::interrupt::Stop;
use boardcore_engine::search::eval::{Features, Linear};
use boardcore_engine::search::{analyse, Evaluate, Limits, NoEndgame, Searchable, Threading};
use boardcore_engine::{cephalopod::Cephalopod, reversi::Reversi, rive::Rive, strands::Strands};
use boardcore_engine::{Position, Result};
use std::hint::black_box;
use std::time::Instant;

/// `P`, with every move listing done twice when `TWICE`.
#[derive(Clone)]
struct Doubled<P, const TWICE: bool>(P);

impl<P: Searchable, const TWICE: bool> Position for Doubled<P, TWICE> {
    type Move = P::Move;
    type Moves<'a>
        = P::Moves<'a>
    where
        Self: 'a;

    boardcore_engine::delegate_position!();

    fn list_moves(&self, stop: &Stop) -> Result<Vec<Self::Move>> {
        if TWICE {
            black_box(self.0.list_moves(stop)?);
        }
        self.0.list_moves(stop)
    }
    fn from_notation(text: &str) -> Result<Self> {
        P::from_notation(text).map(Doubled)
    }
}

impl<P: Searchable, const TWICE: bool> Searchable for Doubled<P, TWICE> {
    // The search alone: Reversi's endgame solver lists no moves (it tries each empty square),
    // and Rive's dense memo is not this wrapper's.
    type Endgame = NoEndgame;
    fn final_margin(&self) -> i32 {
        self.0.final_margin()
    }
    fn material(&self) -> i32 {
        self.0.material()
    }
}

/// The shipped learned evaluation, read through the wrapper.
struct Learned(Linear);

impl<P: Features, const TWICE: bool> Evaluate<Doubled<P, TWICE>> for Learned {
    fn evaluate(&self, position: &Doubled<P, TWICE>) -> i32 {
        Evaluate::<P>::evaluate(&self.0, &position.0)
    }
}

/// The weights of `python/boardcore/data/eval/<game>.json`: the numbers of its "weights" list.
fn shipped_weights(game: &str) -> Vec<f32> {
    let path = format!("{}/../../python/boardcore/data/eval/{game}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let list = text.split("\"weights\"").nth(1).expect("a weights list");
    let list = &list[list.find('[').unwrap() + 1..];
    let list = &list[..list.find(']').unwrap()];
    list.split(',').map(|w| w.trim().parse().expect("a number")).collect()
}

/// Seconds of one search of `notation` to `depth` plies (`None`: a solve), and its nodes.
fn timed<P: Searchable>(notation: &str, depth: Option<u32>, evaluator: &impl Evaluate<P>) -> (f64, u64) {
    let position = P::from_notation(notation).expect("a position");
    let limits = Limits { depth, solve: depth.is_none(), ..Limits::default() };
    let started = Instant::now();
    let analysis = analyse(&position, evaluator, &limits, Stop::never()).expect("a live position");
    (started.elapsed().as_secs_f64(), analysis.nodes)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn profile<P: Features>(game: &str, label: &str, notation: &str, depth: Option<u32>, repeats: usize) {
    let learned = Learned(Linear::new::<P>(shipped_weights(game)).expect("the shipped weights fit"));
    let (mut once, mut twice) = (Vec::new(), Vec::new());
    let mut nodes = 0;
    for _ in 0..repeats {
        let (seconds, n) = timed::<Doubled<P, false>>(notation, depth, &learned);
        once.push(seconds);
        nodes = n;
        let (seconds, n) = timed::<Doubled<P, true>>(notation, depth, &learned);
        assert_eq!(n, nodes, "both searches visit the same nodes");
        twice.push(seconds);
    }
    let (plain, doubled) = (median(once), median(twice));
    let share = ((doubled - plain) / plain).max(0.0);
    println!("{game}\t{label}\t{}\t{nodes}\t{plain:.4}\t{share:.3}", search_name(depth));
}

fn race<P: Features>(game: &str, label: &str, notation: &str, depth: Option<u32>, repeats: usize) {
    let position = P::from_notation(notation).expect("a position");
    let learned = Linear::new::<P>(shipped_weights(game)).expect("the shipped weights fit");
    let ways = [(1, Threading::RootSplit), (2, Threading::RootSplit), (2, Threading::Lazy)];
    let mut seconds = vec![Vec::new(); ways.len()];
    for _ in 0..repeats {
        for (way, &(threads, threading)) in ways.iter().enumerate() {
            let limits = Limits { depth, solve: depth.is_none(), threads, threading, ..Limits::default() };
            let started = Instant::now();
            analyse(&position, &learned, &limits, Stop::never()).expect("a live position");
            seconds[way].push(started.elapsed().as_secs_f64());
        }
    }
    let [one, split, lazy] = [0, 1, 2].map(|way| median(std::mem::take(&mut seconds[way])));
    println!("{game}\t{label}\t{}\t{one:.4}\t{split:.4}\t{lazy:.4}", search_name(depth));
}

fn search_name(depth: Option<u32>) -> String {
    depth.map_or("solve".to_string(), |d| format!("depth {d}"))
}

/// One search of the chosen mode.
fn case<P: Features>(threads: bool, game: &str, label: &str, notation: &str, depth: Option<u32>, repeats: usize) {
    if threads {
        race::<P>(game, label, notation, depth, repeats)
    } else {
        profile::<P>(game, label, notation, depth, repeats)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let threads = match args.get(1).map(String::as_str) {
        Some("threads") => true,
        Some("listing") => false,
        _ => panic!("usage: search_profile listing|threads [repeats]"),
    };
    let repeats = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    let reversi = "8 ......../......../......../...wb.../...bw.../......../......../........ b";
    case::<Reversi>(threads, "reversi", "8x8", reversi, Some(12), repeats);
    case::<Cephalopod>(threads, "cephalopod", "5x5", "5x5 ...../...../...../...../..... b", Some(8), repeats);
    let hex5 = "hex5 ...../....../......./......../........./......../......./....../..... b";
    case::<Rive>(threads, "rive", "hex5", hex5, Some(6), repeats);
    let hex6 =
        "up-to 655556/5333335/53222235/532222235/5322222235/63222122236/5322222235/532222235/53222235/5333335/655556 b";
    case::<Strands>(threads, "strands", "hex6", hex6, Some(2), repeats);
    // The solvers on small boards (Rive's dense memo is not profiled here), and Reversi's
    // endgame solver (FForum 26, 20 empties) in the thread race: it keeps a table per thread.
    if threads {
        let fforum_26 = "8 .wwwww../..wbbw../.wwwwbbw/.wwwbwbb/.wwbwwbb/.bwbbwbb/..w.bbbb/..w....w b";
        race::<Reversi>("reversi", "FForum 26", fforum_26, None, repeats);
    }
    case::<Cephalopod>(threads, "cephalopod", "2x3", "2x3 .../... b", None, repeats);
    case::<Strands>(threads, "strands", "19 cells", "exact 122/2332/23132/2332/221 b", None, repeats);
}
