//! Raw engine perft, no Python involved:
//!
//!     cargo run --release --example perft -- DEPTH [generic]          # Reversi 8x8
//!     cargo run --release --example perft -- cephalopod DEPTH [RxC]   # Cephalopod, empty board
//!     cargo run --release --example perft -- paths DEPTH [POSITION]   # Cephalopod merged path count
//!     cargo run --release --example perft -- rive DEPTH [BOARD]       # Rive, empty board
//!     cargo run --release --example perft -- rive-captures GAMES|POSITION  # Rive's largest captures
//!     cargo run --release --example perft -- rive-playouts N [BOARD] [single]  # Rive random playouts
//!
//! With `generic`, the plain 8x8 start runs in the frame that supports holes and small boards,
//! which measures what that support costs the standard board.

use boardcore_engine::cephalopod::Cephalopod;
use boardcore_engine::paths::count_paths;
use boardcore_engine::perft::{perft, Plies};
use boardcore_engine::reversi::{Shape, Variant};
use boardcore_engine::{Player, Position};
use std::time::Instant;

fn report(what: &str, depth: u32, leaves: u128, started: Instant) {
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{what} depth {depth} leaves {leaves} seconds {secs:.3} leaves/s {:.0} path {}",
        leaves as f64 / secs,
        boardcore_engine::code_path()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth_at = |i: usize| args.get(i).and_then(|d| d.parse().ok()).unwrap_or(6);
    match args.first().map(String::as_str) {
        Some("cephalopod") => {
            let depth = depth_at(1);
            let size = args.get(2).map_or("5x5", String::as_str);
            let (r, c) = size.split_once('x').expect("size like 5x5");
            let start = Cephalopod::new(r.parse().unwrap(), c.parse().unwrap()).expect("board size");
            let t = Instant::now();
            let leaves = perft(&start, depth, Plies::EveryMove);
            report(&format!("cephalopod {size}"), depth, leaves as u128, t);
        }
        Some("rive") => {
            let depth = depth_at(1);
            let name = args.get(2).map_or("hex3", String::as_str);
            let board = boardcore_engine::hex::HexBoard::named(name).expect("a board");
            let start = boardcore_engine::rive::Rive::new(board, false, false).expect("odd board");
            let t = Instant::now();
            let leaves = perft(&start, depth, Plies::EveryMove);
            report(&format!("rive {name}"), depth, leaves as u128, t);
        }
        Some("rive-captures") => match args.get(1) {
            Some(text) if text.starts_with("hex") => {
                time_captures(boardcore_engine::rive::Rive::from_notation(text).expect("a rive position"))
            }
            _ => largest_captures(depth_at(1) as u64),
        },
        Some("mcts") => {
            let iterations = depth_at(1) as u64 * 1000;
            let start = Variant::new(Shape::Square(8), Vec::new(), 0, Player::Black).expect("8x8").start();
            let config = boardcore_engine::mcts::Config { iterations: Some(iterations), ..Default::default() };
            let t = Instant::now();
            let report = boardcore_engine::mcts::search(&start, config);
            let secs = t.elapsed().as_secs_f64();
            println!(
                "reversi 8x8 mcts {iterations} iterations in {secs:.3} s: {:.0}/s, {} nodes",
                iterations as f64 / secs,
                report.nodes
            );
        }
        Some("strands-playouts") => {
            let n = depth_at(1) as u64 * 1000;
            let start = boardcore_engine::strands::Strands::new(
                &boardcore_engine::strands::named_layout("hex6").unwrap(),
                boardcore_engine::strands::Cover::UpTo,
            )
            .unwrap();
            let t = Instant::now();
            let tally = boardcore_engine::playout::random_playouts(&start, n, 1, 1);
            let secs = t.elapsed().as_secs_f64();
            println!("strands hex6 playouts {n} in {secs:.3} s: {:.0}/s {tally:?}", n as f64 / secs);
        }
        Some("rive-playouts") => {
            let n = depth_at(1) as u64;
            let name = args.get(2).map_or("hex5", String::as_str);
            let single = args.iter().any(|a| a == "single");
            let board = boardcore_engine::hex::HexBoard::named(name).expect("a board");
            let start = boardcore_engine::rive::Rive::new(board, false, single).expect("a board the rules allow");
            let t = Instant::now();
            let tally = boardcore_engine::playout::random_playouts(&start, n, 1, 1);
            let secs = t.elapsed().as_secs_f64();
            let form = if single { "single-stone" } else { "compound" };
            println!("rive {name} {form} playouts {n} in {secs:.3} s: {:.1}/s {tally:?}", n as f64 / secs);
        }
        Some("paths") => {
            let depth = depth_at(1);
            let start = match args.get(2) {
                Some(text) => Cephalopod::from_notation(text).expect("a cephalopod position"),
                None => Cephalopod::new(3, 3).unwrap(),
            };
            let t = Instant::now();
            let paths = count_paths(&start, depth).expect("paths");
            let total: u128 = paths.iter().map(|(_, n)| n).sum();
            report(&format!("paths ({} distinct)", paths.len()), depth, total, t);
        }
        _ => {
            let depth = depth_at(0);
            let generic = args.iter().any(|a| a == "generic");
            let variant = Variant::new(Shape::Square(8), vec![], 0, Player::Black).expect("standard variant");
            let mut start = variant.start();
            if generic {
                start = start.in_generic_frame();
            }
            let t = Instant::now();
            let leaves = start.perft(depth, Plies::EveryMove, 1);
            report(if generic { "reversi (generic frame)" } else { "reversi" }, depth, leaves as u128, t);
        }
    }
}

/// Plays random hex335 games, keeps the position with the largest capture (most survivor sets),
/// then times enumerating (with the sort into the documented order) and counting its sets.
fn largest_captures(games: u64) {
    use boardcore_engine::rive::Rive;
    use boardcore_engine::rng::SplitMix64;
    let board = boardcore_engine::hex::HexBoard::named("hex335").unwrap();
    let mut rng = SplitMix64::new(2024);
    let mut best: Option<(u64, Rive)> = None;
    for _ in 0..games {
        let mut s = Rive::new(board, false, false).unwrap();
        while let Some(mv) = s.sample_move(&mut rng) {
            let n = s.count_moves();
            if best.as_ref().is_none_or(|(m, _)| n > *m) {
                best = Some((n, s));
            }
            s.play_unchecked(mv);
        }
    }
    let (_, position) = best.expect("at least one game");
    time_captures(position);
}

/// Times enumerating (with the sort into the documented order) and counting a position's moves.
fn time_captures(position: boardcore_engine::rive::Rive) {
    let moves = position.count_moves();
    let median = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
    };
    // Counts are remembered per thread: forget them, to time counting rather than recall.
    let time = |f: &dyn Fn() -> u64| {
        median(
            (0..7)
                .map(|_| {
                    boardcore_engine::rive::survivors::forget_remembered_sizes();
                    let t = Instant::now();
                    std::hint::black_box(f());
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect(),
        )
    };
    let listed = time(&|| position.legal_moves().count() as u64);
    let counted = time(&|| position.count_moves());
    println!("largest position: {} moves in {}", moves, position.to_notation());
    let board = position.board();
    let (cell, sets) = (0..board.len() as u8)
        .filter_map(|c| position.count_capture_removals(c).map(|n| (c, n)))
        .max_by_key(|&(_, n)| n)
        .expect("a capture");
    let enumerated = time(&|| position.capture_removals(cell).map_or(0, |v| v.len() as u64));
    let counted_one = time(&|| position.count_capture_removals(cell).unwrap_or(0) as u64);
    println!(
        "largest capture: {sets} survivor sets on {}: enumerate+sort {enumerated:.2} ms, count {counted_one:.2} ms",
        board.cell_name(cell)
    );
    println!("enumerate+sort all moves: {listed:.2} ms (median of 7); count: {counted:.2} ms");
}
