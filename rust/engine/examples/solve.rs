//! Solves (or analyses, with a depth) a position given in notation and prints what the search
//! found, iteration by iteration: `cargo run --release -p boardcore-engine --example solve --
//! cephalopod "2x3 .../... b" [depth] [threads]`.

use boardcore_engine::interrupt::Stop;
use boardcore_engine::search::{analyse, Limits, Material, Searchable};
use boardcore_engine::{cephalopod::Cephalopod, reversi::Reversi, rive::Rive, strands::Strands};

fn run<P: Searchable>(notation: &str, depth: Option<u32>, threads: usize) {
    let position = P::from_notation(notation).expect("a position in the game's notation");
    let limits = Limits { depth, solve: depth.is_none(), threads, ..Limits::default() };
    let analysis = analyse(&position, &Material, &limits, Stop::never()).expect("a live position");
    for it in &analysis.iterations {
        println!(
            "depth {:>3} score {:>7} exact {} nodes {:>12} {:>8.3}s",
            it.depth,
            it.score,
            it.exact,
            it.nodes,
            it.elapsed.as_secs_f64()
        );
    }
    let name = |mvs: &[P::Move]| mvs.iter().map(|&m| position.format_move(m)).collect::<Vec<_>>().join(" ");
    println!(
        "score {} exact {} best {} best_moves [{}]",
        analysis.score,
        analysis.exact,
        position.format_move(analysis.best),
        name(&analysis.best_moves)
    );
    println!(
        "nodes {} in {:.3}s ({:.0} nodes/s)",
        analysis.nodes,
        analysis.elapsed.as_secs_f64(),
        analysis.nodes as f64 / analysis.elapsed.as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth = args.get(3).and_then(|d| d.parse().ok()).filter(|&d| d > 0);
    let threads = args.get(4).and_then(|t| t.parse().ok()).unwrap_or(1);
    match args[1].as_str() {
        "reversi" => run::<Reversi>(&args[2], depth, threads),
        "cephalopod" => run::<Cephalopod>(&args[2], depth, threads),
        "rive" => run::<Rive>(&args[2], depth, threads),
        "strands" => run::<Strands>(&args[2], depth, threads),
        other => panic!("unknown game {other}"),
    }
}
