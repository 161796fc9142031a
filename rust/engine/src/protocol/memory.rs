//! Allocations whose size a caller's argument sets (a transposition table's `table_mb`, a
//! memo sized by the board): asked of the system without aborting, so that a size the machine
//! cannot give is an `Error::TooLarge` naming the size asked for, the size tried and the
//! machine's memory (Python's `MemoryError`), never the process killed by Rust's
//! allocation-failure handler (docs/design.md, "Input limits and memory").

use crate::error::{Error, Result};
use std::alloc::{alloc_zeroed, Layout};

/// The machine's physical memory in bytes, where the system says (`/proc/meminfo`, read once).
pub fn physical_bytes() -> Option<u64> {
    static MACHINE: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *MACHINE.get_or_init(read_physical_bytes)
}

fn read_physical_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// `bytes` for a message: whole GiB or MiB where exact, else bytes.
pub fn shown(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;
    match bytes {
        b if b >= GIB && b % GIB == 0 => format!("{} GiB", b / GIB),
        b if b >= MIB && b % MIB == 0 => format!("{} MiB", b / MIB),
        b if b >= GIB => format!("{:.1} GiB", b as f64 / GIB as f64),
        b => format!("{b} bytes"),
    }
}

/// The `TooLarge` error for `what`, asked as `asked` and tried as `tried` bytes.
fn refused(what: &str, asked: &str, tried: u64) -> Error {
    let machine = physical_bytes().map_or_else(|| "unknown".to_string(), shown);
    Error::TooLarge(format!(
        "{what}: {asked} asked for, {} ({tried} bytes) tried, which this machine cannot give (its memory: {machine})",
        shown(tried)
    ))
}

/// `Ok` if `bytes` (what `asked` of `what` may come to hold) fits in the machine's physical
/// memory (or the machine does not say), else `TooLarge` saying so.
pub fn within_machine(bytes: u64, what: &str, asked: &str) -> Result<()> {
    match physical_bytes() {
        Some(machine) if bytes > machine => Err(Error::TooLarge(format!(
            "{what}: {asked} asked for, which may need {} ({bytes} bytes), more than this machine's memory ({})",
            shown(bytes),
            shown(machine)
        ))),
        _ => Ok(()),
    }
}

/// `count` zeroed values of `T`, from memory the system hands out lazily (untouched pages cost
/// nothing until used), or `TooLarge` if the system refuses the allocation or it would exceed
/// the machine's physical memory (a table larger than the machine would be filled into swap,
/// or end in the kernel's out-of-memory kill, instead of failing). `T` must be valid when all
/// its bytes are zero. `what` and `asked` name the request for the error.
///
/// # Safety
/// The all-zero bit pattern must be a valid `T`.
pub unsafe fn try_zeroed<T>(count: usize, what: &str, asked: &str) -> Result<Vec<T>> {
    let layout = Layout::array::<T>(count).map_err(|_| refused(what, asked, u64::MAX))?;
    let bytes = layout.size() as u64;
    within_machine(bytes, what, asked)?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the layout is of non-zero size (checked above).
    let pointer = unsafe { alloc_zeroed(layout) } as *mut T;
    if pointer.is_null() {
        return Err(refused(what, asked, bytes));
    }
    advise_huge_pages(pointer as *mut u8, layout.size());
    // SAFETY: allocated by the global allocator with `T`'s array layout for `count` values,
    // all zero, which the caller promises is a valid `T`.
    Ok(unsafe { Vec::from_raw_parts(pointer, count, count) })
}

/// The system's huge pages, 2 MiB.
const HUGE_PAGE: usize = 2 << 20;

/// Asks the system to back `bytes` at `start` with huge pages. A table is read at random, so
/// a short search touches nearly every 4 KiB page of it once: 16,384 page faults for 64 MiB,
/// which cost a 0.05 s search more than half its nodes (docs/engine.md, "Tables"). With huge
/// pages the same table takes 32 faults. Only the whole huge pages inside the allocation are
/// advised; where the system does not do it (another system, or huge pages turned off) the
/// pages stay small and nothing else changes.
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, length: usize, advice: i32) -> i32;
        }
        const MADV_HUGEPAGE: i32 = 14;
        let first = (start as usize).next_multiple_of(HUGE_PAGE);
        let end = (start as usize + bytes) & !(HUGE_PAGE - 1);
        if end > first {
            // SAFETY: the range lies inside one live allocation of ours; the advice changes
            // only how the system backs it, never its contents. Its result is only advice.
            unsafe { madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

/// Room for `additional` more values in `values` (a buffer that grows with the work, such as
/// self-play's rows), or `TooLarge` naming `what` when the system refuses it, where a plain push
/// would abort the process.
pub fn try_grow<T>(values: &mut Vec<T>, additional: usize, what: &str) -> Result<()> {
    values.try_reserve(additional).map_err(|_| {
        let bytes = (values.len().saturating_add(additional) as u64).saturating_mul(std::mem::size_of::<T>() as u64);
        refused(what, &format!("{} values", values.len().saturating_add(additional)), bytes)
    })
}

/// Frees `value` on a thread of its own when it is large, so that the caller is not kept
/// waiting while the system takes back gigabytes of touched pages (about 100 ms a resident
/// GiB): a search answers Ctrl-C within its promise however full its table. Small values,
/// and any the thread cannot be started for, are freed here.
pub fn free_in_background<T: Send + 'static>(value: T, bytes: usize) {
    const LARGE: usize = 256 << 20;
    if bytes < LARGE {
        return;
    }
    let spawned = std::thread::Builder::new().name("boardcore-free".into()).spawn(move || drop(value));
    // A thread that could not start dropped `value` with its closure.
    drop(spawned);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_past_the_machine_is_an_error_not_an_abort() {
        let Some(machine) = physical_bytes() else { return };
        let count = (machine / 8 + 1) as usize;
        // SAFETY: zero is a valid u64.
        let refused = unsafe { try_zeroed::<u64>(count, "a test table", "more than the machine") };
        match refused {
            Err(Error::TooLarge(message)) => {
                assert!(message.contains("a test table") && message.contains("more than the machine"), "{message}");
                assert!(message.contains("memory"), "{message}");
            }
            other => panic!("expected TooLarge, got {:?}", other.map(|v| v.len())),
        }
    }

    #[test]
    fn a_size_the_machine_has_is_zeroed() {
        // SAFETY: zero is a valid u64.
        let values = unsafe { try_zeroed::<u64>(1 << 20, "a test table", "8 MiB") }.unwrap();
        assert_eq!(values.len(), 1 << 20);
        assert!(values.iter().all(|&v| v == 0));
        free_in_background(values, 8 << 20);
    }

    #[test]
    fn sizes_are_shown_in_the_largest_whole_unit() {
        assert_eq!(shown(32 << 30), "32 GiB");
        assert_eq!(shown(64 << 20), "64 MiB");
        assert_eq!(shown(1000), "1000 bytes");
    }
}
