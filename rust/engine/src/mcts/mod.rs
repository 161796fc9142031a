//! The Monte Carlo searches: the shared tree (`tree`), UCT over moves with random playouts
//! (`uct`, re-exported here: `mcts::Searcher`), PUCT guided by a model over the step form
//! (`puct`), and self-play (`selfplay`).

pub mod puct;
pub mod selfplay;
pub mod tree;
mod uct;

pub use uct::*;
