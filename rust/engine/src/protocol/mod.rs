//! The one trait every game implements ([`Position`](game::Position)) and what every game shares through it: records, text input, errors, interrupts, reading cells, naming moves, checked allocation.

pub mod cells;
pub(crate) mod error;
pub(crate) mod game;
pub mod interrupt;
pub mod memory;
pub mod naming;
pub mod record;
pub mod text;
