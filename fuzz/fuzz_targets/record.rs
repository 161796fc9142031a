//! `cargo fuzz run record`: see boardcore_fuzz::record for what is checked.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| boardcore_fuzz::record(data));
