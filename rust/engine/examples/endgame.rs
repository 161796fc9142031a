//! Solves an endgame suite exactly and times it, one thread:
//!
//!     cargo run --release -p boardcore-engine --example endgame -- ../shared/data/fforum/fforum-20-39.obf [TABLE_BITS]
//!
//! or one position, given by its notation or as a seeded random-hole start (`Variant::random`),
//! reporting its value, every best move, nodes and time:
//!
//!     cargo run --release -p boardcore-engine --example endgame -- --position "6 ....../....../..wb../..bw../....../...... b" [TABLE_BITS]
//!     cargo run --release -p boardcore-engine --example endgame -- --random SIZE SEED [TABLE_BITS]
//!
//! A suite is an Edax `.obf` file (the FForum suites live beside the repository, in
//! `../shared/data/fforum/`, with a README): one problem a line, `BOARD SIDE; MOVE:SCORE; ...`,
//! the board as 64 characters `X` (Black), `O` (White) or `-` from a1 to h8 row by row, the side
//! to move `X` or `O`, then every legal move with its exact score for the side to move, best
//! first (the Edax/FForum convention). Problems are numbered from the first number of the file's
//! name (`fforum-20-39.obf`: 20).

use boardcore_engine::interrupt::Stop;
use boardcore_engine::reversi::{EndgameSolver, Reversi, Shape, Variant};
use boardcore_engine::{Player, Position};
use std::time::Instant;

fn position(board: &str, side: &str) -> Reversi {
    let cells: Vec<char> = board
        .chars()
        .map(|c| match c {
            'X' => 'b',
            'O' => 'w',
            _ => '.',
        })
        .collect();
    let rows: Vec<String> = cells.chunks(8).map(|r| r.iter().collect()).collect();
    let side = if side == "X" { "b" } else { "w" };
    Reversi::from_notation(&format!("8 {} {side}", rows.join("/"))).expect("a valid 8x8 position")
}

/// Solves one position: its value, then which root moves reach it.
fn solve_one(description: &str, pos: &Reversi, bits: u32, command: &str) {
    let mut solver = EndgameSolver::new(bits);
    let squares = 100;
    println!("path {}", boardcore_engine::code_path());
    println!("{description}: {} ({} empties)", pos.to_notation(), pos.empties());
    let t = Instant::now();
    let score = solver.solve(pos, -squares, squares, Stop::never()).expect("never stopped");
    let secs = t.elapsed().as_secs_f64();
    let nodes = solver.nodes();
    println!("score {score:+} nodes {nodes} seconds {secs:.3} nodes/s {:.0}", nodes as f64 / secs);
    // Every root move whose value is the score (a pass, if it is the only move).
    let t = Instant::now();
    let mut best = Vec::new();
    for mv in pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(mv);
        let v = -solver.solve(&child, -score - 1, -score + 1, Stop::never()).expect("never stopped");
        if v == score {
            best.push(mv.name(pos.shape()));
        }
    }
    let best = best.join(" ");
    println!("best moves {best} (found in {:.3} s more)", t.elapsed().as_secs_f64());
    println!("{description} | {} | {score:+} | {best} | {nodes} | {secs:.1} | {command}", pos.to_notation());
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = format!(
        "cargo run --release -p boardcore-engine --example endgame -- {}",
        args.iter().map(|a| if a.contains(' ') { format!("\"{a}\"") } else { a.clone() }).collect::<Vec<_>>().join(" ")
    );
    match args.first().map(String::as_str) {
        Some("--position") => {
            let pos = Reversi::from_notation(args.get(1).expect("--position NOTATION")).expect("a valid position");
            let bits = args.get(2).map_or(24, |b| b.parse().expect("table bits"));
            return solve_one("position", &pos, bits, &command);
        }
        Some("--random") => {
            let size: u8 = args.get(1).expect("--random SIZE SEED").parse().expect("a board size");
            let seed: u64 = args.get(2).expect("--random SIZE SEED").parse().expect("a seed");
            let bits = args.get(3).map_or(24, |b| b.parse().expect("table bits"));
            let variant = Variant::random(Shape::Square(size), seed, 0, Player::Black).expect("a valid variant");
            let holes: Vec<String> = variant.holes.iter().map(|c| c.name()).collect();
            let description = format!("{size}x{size}, random holes seed {seed} ({})", holes.join(" "));
            return solve_one(&description, &variant.start(), bits, &command);
        }
        _ => {}
    }
    let path = args.first().expect("usage: endgame SUITE.obf [TABLE_BITS]");
    let bits = args.get(1).map_or(22, |b| b.parse().expect("table bits"));
    let text = std::fs::read_to_string(path).expect("readable suite file");
    // Problems are numbered from the first number of the file's name (`fforum-20-39.obf`: 20).
    let stem = std::path::Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let first: u32 = stem.split('-').nth(1).and_then(|n| n.parse().ok()).unwrap_or(1);
    let (mut total_nodes, mut total_secs, mut wrong) = (0u64, 0f64, 0);
    println!("path {}", boardcore_engine::code_path());
    println!(
        "{:>4} {:>7} {:>5} {:>8} {:>14} {:>9} {:>12}",
        "id", "empties", "score", "expected", "nodes", "seconds", "nodes/s"
    );
    // One solver for the suite, as a program would keep it; its table is allocated here, by a
    // first solve of a finished game, outside the timings.
    let mut solver = EndgameSolver::new(bits);
    let full = position(&"X".repeat(64), "X");
    assert_eq!(solver.solve(&full, -64, 64, Stop::never()), Ok(64));
    for (id, line) in (first..).zip(text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('%'))) {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let (board, side) = fields[0].split_once(' ').expect("BOARD SIDE");
        let best = fields[1].split_once(':').expect("MOVE:SCORE").1;
        let (pos, expected) = (position(board, side.trim()), best.parse::<i32>().expect("score"));
        let before = solver.nodes();
        let t = Instant::now();
        let score = solver.solve(&pos, -64, 64, Stop::never()).expect("never stopped");
        let secs = t.elapsed().as_secs_f64();
        let nodes = solver.nodes() - before;
        total_nodes += nodes;
        total_secs += secs;
        wrong += usize::from(score != expected);
        let mark = if score == expected { "" } else { "  WRONG" };
        println!(
            "{id:>4} {:>7} {score:>+5} {expected:>+8} {nodes:>14} {secs:>9.3} {:>12.0}{mark}",
            pos.empties(),
            nodes as f64 / secs
        );
    }
    println!(
        "total nodes {total_nodes} seconds {total_secs:.3} nodes/s {:.0} wrong {wrong}",
        total_nodes as f64 / total_secs
    );
}
