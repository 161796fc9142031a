//! Memoised `(position, remaining depth)` recursion against forward layers, for colour-free
//! Cephalopod path counting (issue 16, item 5; docs/cephalopod.md, "Counting paths fast"):
//!
//!     cargo run --release -p boardcore-engine --example cephalopod_paths_memo -- DEPTH [START] [ALGORITHM]
//!
//! START is a position (`"3x3 .6b./2b2b2b/1b6b1b b"`; owners and side to move do not matter) or
//! nine digits of pips in board order for a 3x3 board (`060222161`, the puzzle's input read row
//! by row); the empty 3x3 board by default. ALGORITHM is one of
//!
//! - `memo` (the default): depth-first recursion with a memo of `(pips key, remaining depth)`;
//! - `layers`: forward layer-by-layer merging on the same keys in the same kind of table (no
//!   symmetry), the baseline the memo was measured against;
//! - `engine`: the library's own count, `cephalopod::colour_free_totals` (forward layers over
//!   symmetry orbits, exact counts), what `path_totals(depth)` runs;
//! - `engine-plain`: the same without symmetry, counts modulo 2**64.
//!
//! Each prints the answer of the contest puzzle (the sum over every sequence of at most DEPTH
//! moves of the final board read as a decimal number, square 0 the most significant digit,
//! modulo 2**30), so that the four can be checked against one another, then the seconds, the size
//! of its table (memo entries or widest layer) and the process's peak resident memory (Linux
//! `VmHWM`; one algorithm per process, so the peak is that algorithm's). The prototype's keys are
//! 3 bits a square in a `u64`, square 0 highest, with the remaining depth in the low 6 bits of a
//! memo key: boards of at most 19 squares, depths up to 63. Both prototypes find moves with the
//! library's move generator (`cephalopod::for_each_move`) and merge in its `FlatTable`, so they
//! differ only in how they walk; the tests here (run by `cargo test -p boardcore-engine`) hold
//! the four algorithms to one answer.

use boardcore_engine::cephalopod::{colour_free_totals, for_each_move, Cephalopod, CountOptions};
use boardcore_engine::flat_table::FlatTable;
use boardcore_engine::interrupt::Stop;
use boardcore_engine::square::Rect;
use boardcore_engine::Position;
use std::time::Instant;

const MASK30: u64 = (1 << 30) - 1;

/// The library's flat table (what its own counts merge layers in), from `u64` keys to `u64`
/// values: both algorithms use it, so they differ only in how they walk.
type Table = FlatTable<u64>;

/// A board of pips seen as a `u64` key (3 bits a square, square 0 highest), with its moves.
struct Board {
    rect: &'static Rect,
    /// Per square, `10**(squares - 1 - square)` modulo 2**30: its digit's weight in the answer.
    weights: Vec<u64>,
}

impl Board {
    fn new(rect: &'static Rect) -> Self {
        let squares = rect.len();
        let weights = (0..squares).map(|s| (0..squares - 1 - s).fold(1u64, |w, _| (w * 10) & MASK30)).collect();
        Board { rect, weights }
    }

    fn shift(&self, square: usize) -> u32 {
        3 * (self.rect.len() - 1 - square) as u32
    }

    /// The pips on `square` (0 if empty, or past the board: a missing neighbour).
    fn pips(&self, key: u64, square: u8) -> u8 {
        if square as usize >= self.rect.len() {
            0
        } else {
            (key >> self.shift(square as usize) & 7) as u8
        }
    }

    fn key_of(&self, start: &Cephalopod) -> u64 {
        (0..self.rect.len()).fold(0, |key, square| {
            let pips = start.die(square as u8).map_or(0, |(_, pips)| pips);
            key | (pips as u64) << self.shift(square)
        })
    }

    /// The board read as a decimal number, modulo 2**30.
    fn value(&self, key: u64) -> u64 {
        let digits = (0..self.rect.len()).map(|s| self.pips(key, s as u8) as u64 * self.weights[s]);
        digits.fold(0, |sum, digit| (sum + digit) & MASK30)
    }

    /// Calls `each(child)` for every move, in move order (the library's move generator on this
    /// key); false if the board is full.
    fn for_each_child(&self, key: u64, mut each: impl FnMut(u64)) -> bool {
        let neighbours = &self.rect.neighbours;
        for_each_move(
            neighbours,
            |square| self.pips(key, square),
            |square, captured, placed| {
                let mut child = key;
                for (slot, &n) in neighbours[square].iter().enumerate() {
                    if captured >> slot & 1 == 1 {
                        child &= !(7u64 << self.shift(n as usize));
                    }
                }
                each(child | (placed as u64) << self.shift(square));
            },
        )
    }
}

/// Memoised recursion: `(paths, sum of final boards)` modulo 2**30 under `key` with `remaining`
/// moves left, the memo keyed by `key << 6 | remaining` (both halves in one `u64` value).
fn memoised(board: &Board, memo: &mut Table, key: u64, remaining: u32) -> (u64, u64) {
    if remaining == 0 {
        return (1, board.value(key));
    }
    let memo_key = key << 6 | remaining as u64;
    if let Some(&both) = memo.get(memo_key) {
        return (both & MASK30, both >> 32);
    }
    let (mut paths, mut sum) = (0u64, 0u64);
    let moved = board.for_each_child(key, |child| {
        let (p, s) = memoised(board, memo, child, remaining - 1);
        paths = (paths + p) & MASK30;
        sum = (sum + s) & MASK30;
    });
    if !moved {
        return (1, board.value(key)); // a full board: the game is over, a final board at any depth
    }
    *memo.entry(memo_key) = paths | sum << 32;
    (paths, sum)
}

fn run_memo(board: &Board, root: u64, depth: u32) -> (u64, usize) {
    let mut memo = Table::with_capacity(1 << 9);
    let (_, answer) = memoised(board, &mut memo, root, depth);
    (answer, memo.len())
}

/// Forward layers: every position of ply k with its number of paths (modulo 2**64), merged in a
/// table reused ply after ply; finished games kept aside.
fn run_layers(board: &Board, root: u64, depth: u32) -> (u64, usize) {
    let (mut layer, mut finished) = (vec![(root, 1u64)], Vec::new());
    let mut next = Table::with_capacity(1 << 9);
    let mut widest = 1;
    for _ in 0..depth {
        for &(key, paths) in &layer {
            let moved = board.for_each_child(key, |child| {
                let count = next.entry(child);
                *count = count.wrapping_add(paths);
            });
            if !moved {
                finished.push((key, paths));
            }
        }
        layer.clear();
        layer.extend(next.iter().map(|(key, &paths)| (key, paths)));
        next.clear();
        widest = widest.max(layer.len());
    }
    let sum = layer
        .iter()
        .chain(&finished)
        .fold(0u64, |sum, &(key, paths)| sum.wrapping_add(board.value(key).wrapping_mul(paths)));
    (sum & MASK30, widest)
}

/// The library's count: per-square, per-pips path totals, reduced to the answer.
fn run_engine(board: &Board, start: &Cephalopod, depth: u32, options: CountOptions) -> u64 {
    let totals = colour_free_totals(start, depth, options, Stop::never(), &mut |_, _| Ok(())).expect("count");
    let sum = totals.chunks(7).zip(&board.weights).fold(0u128, |sum, (per_pips, &weight)| {
        let square = per_pips.iter().zip(0u128..).fold(0u128, |s, (&t, pips)| s.wrapping_add(t.wrapping_mul(pips)));
        sum.wrapping_add(square.wrapping_mul(weight as u128))
    });
    (sum & MASK30 as u128) as u64
}

/// The process's peak resident memory in MB (Linux), if known.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn parse_start(text: &str) -> Cephalopod {
    if text.len() == 9 && text.bytes().all(|b| (b'0'..=b'6').contains(&b)) {
        let rows: Vec<String> = text
            .as_bytes()
            .chunks(3)
            .map(|row| row.iter().map(|&b| if b == b'0' { ".".into() } else { format!("{}b", b - b'0') }).collect())
            .collect();
        return Cephalopod::from_notation(&format!("3x3 {} b", rows.join("/"))).expect("a 3x3 board");
    }
    Cephalopod::from_notation(text).expect("a Cephalopod position or nine digits 0-6")
}

/// The answer of `algorithm` from `start` at `depth`, and a word on the size of its table.
fn run(algorithm: &str, start: &Cephalopod, depth: u32) -> (u64, String) {
    let board = Board::new(start.rect());
    assert!(start.rect().len() <= 19 && depth < 64, "the prototype's keys need <= 19 squares and depth < 64");
    let root = board.key_of(start);
    match algorithm {
        "memo" => {
            let (answer, entries) = run_memo(&board, root, depth);
            (answer, format!("memo entries {entries}"))
        }
        "layers" => {
            let (answer, widest) = run_layers(&board, root, depth);
            (answer, format!("widest layer {widest}"))
        }
        "engine" => (run_engine(&board, start, depth, CountOptions::default()), String::new()),
        "engine-plain" => {
            let options = CountOptions { symmetry: false, wrapping: true, max_positions: None };
            (run_engine(&board, start, depth, options), String::new())
        }
        other => panic!("unknown algorithm {other:?}: memo, layers, engine or engine-plain"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).expect("usage: DEPTH [START] [ALGORITHM]");
    let start = parse_start(args.get(1).map_or("000000000", String::as_str));
    let algorithm = args.get(2).map_or("memo", String::as_str);
    let started = Instant::now();
    let (answer, table) = run(algorithm, &start, depth);
    let seconds = started.elapsed().as_secs_f64();
    let peak = peak_rss_mb().map_or("unknown".into(), |mb| format!("{mb:.0} MB"));
    println!("{algorithm} depth {depth} answer {answer} seconds {seconds:.3} {table} peak RSS {peak}");
}

// Run by `cargo test -p boardcore-engine` (`test = true` in Cargo.toml): the prototype keeps
// computing what the library computes.
#[cfg(test)]
mod tests {
    use super::*;

    const ALGORITHMS: [&str; 4] = ["memo", "layers", "engine", "engine-plain"];

    #[test]
    fn every_algorithm_gives_the_puzzles_published_answer() {
        // The contest puzzle's first example (benches/README.md, case c07).
        let start = parse_start("060222161");
        for algorithm in ALGORITHMS {
            assert_eq!(run(algorithm, &start, 20).0, 322444322, "{algorithm}");
        }
    }

    #[test]
    fn every_algorithm_agrees_from_the_empty_board_and_a_position() {
        for (start, depth) in [("000000000", 12), ("3x3 .6b./2b2b2b/1b6b1b b", 6), ("2x3 1b../.2w. w", 9)] {
            let start = parse_start(start);
            let answers: Vec<u64> = ALGORITHMS.iter().map(|algorithm| run(algorithm, &start, depth).0).collect();
            assert!(answers.iter().all(|&a| a == answers[0]), "{answers:?} from {start:?} at depth {depth}");
        }
    }
}
