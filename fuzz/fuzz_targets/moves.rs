//! `cargo fuzz run moves`: see boardcore_fuzz::moves for what is checked.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| boardcore_fuzz::moves(data));
