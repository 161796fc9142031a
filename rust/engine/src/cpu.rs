//! Run-time CPU feature detection.
//!
//! `pip install` builds for the baseline x86-64 target, which has no POPCNT, BMI2 or AVX2. Hot
//! loops are therefore compiled twice — once for the baseline, once with those features
//! enabled — and the fast copy is picked here, once, at run time.

/// True when the CPU has what the `x86-64-v3` copies of the hot loops use.
#[inline]
pub fn has_v3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::OnceLock;
        static V3: OnceLock<bool> = OnceLock::new();
        *V3.get_or_init(|| {
            std::env::var_os("BOARDCORE_PORTABLE").is_none()
                && is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("lzcnt")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The name of the code path in use, for benchmark reports.
pub fn code_path() -> &'static str {
    if has_v3() {
        "x86-64-v3 (popcnt, bmi2, avx2)"
    } else {
        "portable"
    }
}
