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

/// True when PDEP is both present and fast: AMD before Zen 3 (families 0x17 and 0x18) runs it
/// in microcode, tens to hundreds of cycles depending on the mask, slower than doing without.
#[inline]
pub fn has_fast_pdep() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // A relaxed byte rather than a OnceLock: it is read inside hot loops (0 = not known yet).
        use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
        static FAST: AtomicU8 = AtomicU8::new(0);
        match FAST.load(Relaxed) {
            0 => {
                let fast = has_v3() && !slow_pdep_family();
                FAST.store(1 + fast as u8, Relaxed);
                fast
            }
            known => known == 2,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// AMD or Hygon before family 0x19 (Zen 3).
#[cfg(target_arch = "x86_64")]
fn slow_pdep_family() -> bool {
    let (vendor, signature) = (std::arch::x86_64::__cpuid(0), std::arch::x86_64::__cpuid(1).eax);
    let amd_like = matches!(
        (vendor.ebx, vendor.edx, vendor.ecx),
        (0x6874_7541, 0x6974_6E65, 0x444D_4163) /* AuthenticAMD */ | (0x6F67_7948, 0x6E65_476E, 0x656E_6975) /* HygonGenuine */
    );
    let base = (signature >> 8) & 0xF;
    let family = if base == 0xF { base + ((signature >> 20) & 0xFF) } else { base };
    amd_like && family < 0x19
}

/// The name of the code path in use, for benchmark reports.
pub fn code_path() -> &'static str {
    if has_v3() {
        "x86-64-v3 (popcnt, bmi2, avx2)"
    } else {
        "portable"
    }
}
