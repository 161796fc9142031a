//! boardcore's game engines, in plain Rust.
//!
//! Every game implements [`Position`]: a small value type that knows its legal moves and how to
//! play one. Everything generic — [`perft`], playouts, search — is written once against that
//! trait. How a game was set up is its [`Variant`] (each game's `game.rs`), and [`Game`] keeps
//! the history and reads and writes records once for every variant. The Python binding
//! (`rust/python`) only converts arguments and maps [`Error`] to Python exceptions.

// The subsystems, one folder each (docs/design.md, "The shape in one picture"):
// - protocol/: the one trait and what every game shares through it (record, text, errors,
//   interrupts, cells, move naming, checked allocation);
// - board/: geometry and bits (square and hex boards, bitboards, SplitMix64, CPU dispatch);
// - count/: perft, merged path counting and its flat table, random playouts;
// - steps/: the step form (integer actions, masks, observation planes) and VectorEnv;
// - mcts/: the Monte Carlo searches (the tree, UCT, PUCT, self-play);
// - search/: alpha-beta, the exact solver, the learned evaluations;
// - games/: the four games.
// Each module is re-exported at the root under its own name (`crate::square`,
// `boardcore_engine::perft`), so that a path says the module, not the folder.
pub mod board;
pub mod count;
pub mod games;
pub mod mcts;
pub mod protocol;
pub mod search;
pub mod steps;

pub use board::{bitboard, hex, rng, square};
pub(crate) use board::{cpu, fast_hash};
pub use count::{flat_table, paths, perft, playout};
pub use mcts::{puct, selfplay, tree};
pub use protocol::{cells, interrupt, memory, naming, record, text};
pub(crate) use protocol::{error, game};

// The games, at the crate's root as users name them (`boardcore_engine::reversi::Reversi`): every
// module of `games/`, so that a game is added in `games/mod.rs` alone.
pub use games::*;

pub use cells::{Cells, Contents};
pub use cpu::code_path;
pub use error::{truncate, Error, Excerpt, Result};
pub use game::{Game, Outcome, Player, Position, Variant};
pub use steps::{Steps, VectorEnv};
