//! boardcore's game engines, in plain Rust.
//!
//! Every game implements [`Position`]: a small value type that knows its legal moves and how to
//! play one. Everything generic — [`perft`], playouts, search — is written once against that
//! trait. How a game was set up is its [`Variant`] (each game's `game.rs`), and [`Game`] keeps
//! the history and reads and writes records once for every variant. The Python binding
//! (`rust/python`) only converts arguments and maps [`Error`] to Python exceptions.

pub mod actions;
pub mod bitboard;
pub mod cells;
mod cpu;
mod error;
mod fast_hash;
pub mod flat_table;
mod game;
pub mod games;
pub mod hex;
pub mod interrupt;
pub mod mcts;
pub mod memory;
pub mod naming;
pub mod paths;
pub mod perft;
pub mod playout;
pub mod puct;
pub mod record;
pub mod rng;
pub mod search;
pub mod selfplay;
pub mod square;
pub mod text;
pub mod tree;

// The games, at the crate's root as users name them (`boardcore_engine::reversi::Reversi`): every
// module of `games/`, so that a game is added in `games/mod.rs` alone.
pub use games::*;

pub use actions::{Steps, VectorEnv};
pub use cells::{Cells, Contents};
pub use cpu::code_path;
pub use error::{Error, Result};
pub use game::{Game, Outcome, Player, Position, Variant};
