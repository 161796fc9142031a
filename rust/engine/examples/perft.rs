//! Raw engine perft, no Python involved: `cargo run --release --example perft -- DEPTH [generic]`.
//!
//! With `generic`, the plain 8x8 start runs in the frame that supports holes and small boards,
//! which measures what that support costs the standard board.

use boardcore_engine::perft::Plies;
use boardcore_engine::reversi::{Shape, Variant};
use boardcore_engine::Player;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(10);
    let generic = args.iter().any(|a| a == "generic");
    let variant = Variant::new(Shape::Square(8), vec![], 0, Player::Black).expect("standard variant");
    let mut start = variant.start();
    if generic {
        start = start.in_generic_frame();
    }
    let t = Instant::now();
    let leaves = start.perft(depth, Plies::EveryMove, 1);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "depth {depth} leaves {leaves} seconds {secs:.3} leaves/s {:.0} frame {} path {}",
        leaves as f64 / secs,
        if generic { "generic" } else { "classic" },
        boardcore_engine::code_path()
    );
}
