//! Raw engine perft, no Python involved:
//!
//!     cargo run --release --example perft -- DEPTH [generic]          # Reversi 8x8
//!     cargo run --release --example perft -- cephalopod DEPTH [RxC]   # Cephalopod, empty board
//!     cargo run --release --example perft -- paths DEPTH [POSITION]   # Cephalopod merged path count
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
