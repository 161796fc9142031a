//! Counting over the trait: perft, merged path counting (with its flat hash table) and random playouts.

pub mod flat_table;
pub mod paths;
pub mod perft;
pub mod playout;
