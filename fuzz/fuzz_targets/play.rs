//! `cargo fuzz run play`: see boardcore_fuzz::play for what is checked.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| boardcore_fuzz::play(data));
