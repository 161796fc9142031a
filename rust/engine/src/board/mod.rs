//! Geometry and bits: square and hex boards, bitboards, SplitMix64 (the one generator), the fast hasher and run-time CPU dispatch.

pub mod bitboard;
pub(crate) mod cpu;
pub(crate) mod fast_hash;
pub mod hex;
pub mod rng;
pub mod square;
