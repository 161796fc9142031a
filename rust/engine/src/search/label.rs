//! Labelled positions for training evaluations, made by the library's own engine and nothing
//! else (docs/engine.md, "Training"): self-play games from a few random plies, moves chosen by
//! a fixed-depth search (a random move now and then, for diversity), and an exact solve once
//! the game reaches a position the game says is near enough its end. Every position of a game
//! is labelled with the exact value of the first solved position after it (from its own side
//! to move's view): the final margin of the game as played, with perfect play from there on,
//! as Logistello's and Edax's evaluations were trained. The positions along the solve's line
//! of perfect play get their exact values too. Each position also keeps its own search's score,
//! so the training script can mix the two.
//!
//! Games run in parallel on every thread of a pool; each is drawn from its own seed, so a run
//! is reproducible whatever the thread count.

use super::{analyse, Evaluate, Limits, Searchable, SCALE};
use crate::error::Result;
use crate::interrupt::Stop;
use crate::rng::SplitMix64;
use rayon::prelude::*;

/// How the games are played.
#[derive(Debug, Clone)]
pub struct Labelling {
    pub games: usize,
    pub seed: u64,
    /// Random plies at the start of each game (inclusive range).
    pub opening: (u32, u32),
    /// Depth of the move searches.
    pub depth: u32,
    /// Chance of a random move instead of the searched one, after the opening.
    pub epsilon: f64,
    pub threads: usize,
    /// Transposition-table bytes of each search (a shallow search needs little).
    pub table_bytes: usize,
}

/// One labelled position.
#[derive(Debug, Clone)]
pub struct Labelled<P> {
    pub position: P,
    /// The exact value of the game from here (see the module), in hundredths of a point.
    pub label: i32,
    /// This position's own search score (the label when it was solved), in hundredths.
    pub search: i32,
    /// Whether the label is this position's own exact value (solved, or on a solved line).
    pub exact: bool,
    /// Which game it came from (for held-out splits by game).
    pub game: u32,
}

/// The labelled positions of `settings.games` games from `start`, searched with `evaluator`;
/// `solve_at(position)` says when to solve exactly and end the game. Interruptible.
pub fn label_games<P, E>(
    start: &P,
    evaluator: &E,
    settings: &Labelling,
    solve_at: &(dyn Fn(&P) -> bool + Sync),
    stop: &Stop,
) -> Result<Vec<Labelled<P>>>
where
    P: Searchable + Send + Sync,
    E: Evaluate<P>,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads.max(1))
        .build()
        .map_err(|e| crate::Error::invalid(format!("no thread pool: {e}")))?;
    let games: Vec<Result<Vec<Labelled<P>>>> = stop.install(&pool, || {
        (0..settings.games)
            .into_par_iter()
            .map(|game| play_one(start, evaluator, settings, solve_at, game as u32, stop))
            .collect()
    })?;
    let mut out = Vec::new();
    for game in games {
        out.extend(game?);
    }
    Ok(out)
}

fn play_one<P: Searchable, E: Evaluate<P>>(
    start: &P,
    evaluator: &E,
    settings: &Labelling,
    solve_at: &(dyn Fn(&P) -> bool + Sync),
    game: u32,
    stop: &Stop,
) -> Result<Vec<Labelled<P>>> {
    let mut rng = SplitMix64::new(settings.seed ^ (u64::from(game) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut position = start.clone();
    let (lo, hi) = settings.opening;
    let random_plies = lo + rng.below(u64::from(hi.saturating_sub(lo)) + 1) as u32;
    for _ in 0..random_plies {
        match position.sample_move(&mut rng) {
            Some(mv) if position.outcome().is_none() => position.play_unchecked(mv),
            _ => break,
        }
    }
    let search = Limits { depth: Some(settings.depth), table_bytes: settings.table_bytes, ..Limits::default() };
    // A label is the value: which other moves reach it does not matter.
    let solve =
        Limits { solve: true, every_best: false, table_bytes: settings.table_bytes.max(4 << 20), ..Limits::default() };
    let mut played: Vec<(P, i32)> = Vec::new();
    let mut out = Vec::new();
    // The exact value of the game from the last position played, for the side to move there.
    let value = loop {
        stop.check()?;
        if position.outcome().is_some() {
            break (position.clone(), SCALE * position.final_margin());
        }
        if solve_at(&position) {
            let solved = analyse(&position, evaluator, &solve, stop)?;
            // The line of perfect play: each position's value from its own mover's view.
            let mut line = position.clone();
            for &mv in &solved.pv {
                line.play_unchecked(mv);
                if line.outcome().is_some() {
                    break;
                }
                let label = if line.to_move() == position.to_move() { solved.score } else { -solved.score };
                out.push(Labelled { position: line.clone(), label, search: label, exact: true, game });
            }
            out.push(Labelled {
                position: position.clone(),
                label: solved.score,
                search: solved.score,
                exact: true,
                game,
            });
            break (position.clone(), solved.score);
        }
        let analysis = analyse(&position, evaluator, &search, stop)?;
        played.push((position.clone(), analysis.score));
        let mv = match position.sample_move(&mut rng) {
            Some(random) if rng.uniform() < settings.epsilon => random,
            _ => analysis.best,
        };
        position.play_unchecked(mv);
    };
    let (last, exact) = value;
    for (position, search) in played {
        let label = if position.to_move() == last.to_move() { exact } else { -exact };
        out.push(Labelled { position, label, search, exact: false, game });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;
    use crate::reversi::Reversi;
    use crate::search::Material;

    #[test]
    fn labels_near_the_end_are_exact_solves() {
        let start = Reversi::from_notation("6 ....../....../..wb../..bw../....../...... b").unwrap();
        let settings =
            Labelling { games: 3, seed: 1, opening: (2, 4), depth: 2, epsilon: 0.1, threads: 2, table_bytes: 1 << 20 };
        let solve_at = |p: &Reversi| p.empties() <= 10;
        let rows = label_games(&start, &Material, &settings, &solve_at, Stop::never()).unwrap();
        assert!(rows.len() > 3 * 10);
        for row in rows.iter().filter(|r| r.exact) {
            let solved =
                analyse(&row.position, &Material, &Limits { solve: true, ..Limits::default() }, Stop::never()).unwrap();
            assert_eq!(row.label, solved.score, "{}", row.position.to_notation());
        }
        // The same seed gives the same rows, whatever the threads.
        let again =
            label_games(&start, &Material, &Labelling { threads: 1, ..settings }, &solve_at, Stop::never()).unwrap();
        let notation = |rows: &[Labelled<Reversi>]| {
            rows.iter().map(|r| (r.position.to_notation(), r.label, r.search)).collect::<Vec<_>>()
        };
        assert_eq!(notation(&rows), notation(&again));
    }
}
