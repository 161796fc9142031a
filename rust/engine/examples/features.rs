//! Times the learned evaluation's features (`search::eval::Features`) on positions from random
//! games, per game and board:
//!
//!     cargo run --release -p boardcore-engine --example features
//!
//! Prints nanoseconds per call of `features` (and of `phase`), and the mean of each feature.

use boardcore_engine::cephalopod::Cephalopod;
use boardcore_engine::hex::HexBoard;
use boardcore_engine::reversi::Reversi;
use boardcore_engine::rive::Rive;
use boardcore_engine::rng::SplitMix64;
use boardcore_engine::search::eval::Features;
use boardcore_engine::strands::{named_layout, Cover, Strands};
use boardcore_engine::Position;
use std::hint::black_box;
use std::time::Instant;

/// Positions from random games: every ply of `games` random games (finished ones excluded).
fn positions<P: Position + Clone>(start: &P, games: usize, seed: u64) -> Vec<P> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = start.clone();
        while !p.is_over() {
            out.push(p.clone());
            match p.sample_move(&mut rng) {
                Some(mv) => p.play_unchecked(mv),
                None => break,
            }
        }
    }
    out
}

fn time<P: Features + Clone>(name: &str, start: &P, games: usize) {
    let all = positions(start, games, 7);
    let mut out = vec![0f32; P::COUNT];
    let mut sums = vec![0f64; P::COUNT];
    for p in &all {
        p.features(&mut out);
        for (s, &f) in sums.iter_mut().zip(&out) {
            *s += f as f64;
        }
    }
    let rounds = (2_000_000 / all.len()).max(1);
    let t = Instant::now();
    for _ in 0..rounds {
        for p in &all {
            p.features(black_box(&mut out));
            black_box(&out);
        }
    }
    let per = t.elapsed().as_nanos() as f64 / (rounds * all.len()) as f64;
    let t = Instant::now();
    let mut phases = 0;
    for _ in 0..rounds {
        for p in &all {
            phases += black_box(p).phase();
        }
    }
    let per_phase = t.elapsed().as_nanos() as f64 / (rounds * all.len()) as f64;
    black_box(phases);
    println!("{name:<16} {:>7} positions  features {per:>7.1} ns  phase {per_phase:>5.1} ns", all.len());
    let means: Vec<String> =
        P::NAMES.iter().zip(&sums).map(|(n, s)| format!("{n}={:.2}", s / all.len() as f64)).collect();
    println!("    {}", means.join(" "));
}

fn main() {
    let reversi = |n: &str| Reversi::from_notation(n).expect("a valid position");
    time("reversi 8x8", &reversi("8 ......../......../......../...wb.../...bw.../......../......../........ b"), 2000);
    time(
        "reversi 8x8 #",
        &reversi("8 ......../.#....../......../...wb.../...bw.../......../......#./........ b"),
        2000,
    );
    time("reversi 6x6", &reversi("6 ....../....../..wb../..bw../....../...... b"), 2000);
    time(
        "reversi 10x10",
        &reversi(
            "10 ........../........../........../........../....wb..../....bw..../........../........../........../.......... b",
        ),
        1000,
    );
    time("cephalopod 5x5", &Cephalopod::new(5, 5).expect("5x5"), 5000);
    time("cephalopod 3x5", &Cephalopod::new(3, 5).expect("3x5"), 5000);
    for name in ["hex3", "hex335", "hex4"] {
        let board = HexBoard::named(name).expect("a named board");
        time(&format!("rive {name}"), &Rive::new(board, false, false).expect("a Rive board"), 500);
    }
    for name in ["hex4", "hex6"] {
        let rows = named_layout(name).expect("a named layout");
        time(&format!("strands {name}"), &Strands::new(&rows, Cover::UpTo).expect("a layout"), 500);
    }
}
