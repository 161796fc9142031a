//! Every game, one folder each: its position and `impl Position`, its setup and notation, its
//! move rules, its step form (`actions.rs`), its move naming (`naming.rs`), its evaluation
//! features (`features.rs`) and what it gives the search (`searchable.rs`). Nothing outside this
//! folder and the binding's registry names a game (CONTRIBUTING.md, "Adding a game").

pub mod cephalopod;
pub mod reversi;
pub mod rive;
pub mod strands;
