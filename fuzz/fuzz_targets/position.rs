//! `cargo fuzz run position`: see boardcore_fuzz::position for what is checked.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| boardcore_fuzz::position(data));
