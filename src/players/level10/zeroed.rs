//! Memory for the transposition table whose allocation may fail without ending the engine.
//!
//! `vec![Bucket::default(); n]` aborts the process when the memory is not to be had. Zeroed
//! memory from the allocator is a null pointer the caller can answer with a smaller table. The
//! allocator only promises zero pages for the usual alignment, so the block is allocated at
//! that alignment with room to align the first element within it. The system backs those pages
//! only when they are first written; `zero` writes them all at once, so that a table is paid
//! for when it is sized (before UCI's `readyok`), not inside the first searches of a game.
//!
//! A table probe lands on a random line of many megabytes: with 4 KB pages nearly every probe
//! also misses the processor's page cache (TLB). A block of 2 MB or more therefore starts on a
//! 2 MB boundary and is offered to the kernel for huge pages (Linux's `madvise`, honoured where
//! transparent huge pages are on for advised memory, their usual setting), one page-table entry
//! for every 2 MB instead of 512.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// `len` values of `T`, all zero bytes when made, aligned as `T` asks.
pub struct Zeroed<T> {
    block: NonNull<u8>,
    layout: Layout,
    first: NonNull<T>,
    len: usize,
}

// It owns its block as a Vec owns its buffer.
unsafe impl<T: Send> Send for Zeroed<T> {}
unsafe impl<T: Sync> Sync for Zeroed<T> {}

/// The alignment the allocator serves from zeroed pages (calloc's).
const PLAIN_ALIGN: usize = 16;

impl<T> Zeroed<T> {
    /// `len` zeroed values, or None when the memory is not to be had.
    ///
    /// # Safety
    /// All-zero bytes must be a valid `T`.
    pub unsafe fn new(len: usize) -> Option<Zeroed<T>> {
        let bytes = std::mem::size_of::<T>().checked_mul(len.max(1))?;
        let natural = std::mem::align_of::<T>();
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { natural };
        let slack = align.saturating_sub(PLAIN_ALIGN);
        let layout = Layout::from_size_align(bytes.checked_add(slack)?, PLAIN_ALIGN.min(natural)).ok()?;
        // SAFETY: the layout has a non-zero size.
        let block = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let offset = block.as_ptr().align_offset(align);
        if offset > slack {
            // SAFETY: allocated just above with this layout.
            unsafe { dealloc(block.as_ptr(), layout) };
            return None;
        }
        // SAFETY: `offset + bytes` is within the block, and the address is aligned for T.
        let first = unsafe { NonNull::new_unchecked(block.as_ptr().add(offset).cast::<T>()) };
        if align == HUGE_PAGE {
            advise_huge_pages(first.as_ptr().cast::<u8>(), bytes / HUGE_PAGE * HUGE_PAGE);
        }
        Some(Zeroed { block, layout, first, len: len.max(1) })
    }
}

impl<T> Zeroed<T> {
    /// Sets every byte to zero again, on up to `threads` threads, each a share of the block.
    /// Writing also makes the system back every page, so that memory is taken here and not
    /// inside the searches that first touch it.
    pub fn zero(&mut self, threads: usize) {
        let bytes = self.len * std::mem::size_of::<T>();
        // SAFETY: the bytes of `len` values owned by self (exclusive by `&mut self`); all-zero
        // bytes are a valid T by `new`'s contract.
        let all = unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr().cast::<u8>(), bytes) };
        let share = bytes.div_ceil(threads.max(1)).max(HUGE_PAGE);
        std::thread::scope(|scope| {
            for part in all.chunks_mut(share) {
                scope.spawn(|| part.fill(0));
            }
        });
    }
}

/// The size of an x86-64 (and common AArch64) huge page.
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back `len` bytes from `start` (both multiples of `HUGE_PAGE`) with huge pages;
/// the advice changes no byte, and where the kernel declines it the memory stays as it was.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, len: usize) {
    const MADV_HUGEPAGE: i32 = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
    }
    // SAFETY: the range lies within a block this process owns; the advice changes no contents.
    let answer = unsafe { madvise(start, len, MADV_HUGEPAGE) };
    if answer != 0 {
        log::debug!("huge pages not granted for the table ({} MB)", len >> 20);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _len: usize) {}

impl<T> Deref for Zeroed<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialised (zero, valid by `new`'s contract) values, owned by self.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for Zeroed<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.len) }
    }
}

impl<T> Drop for Zeroed<T> {
    fn drop(&mut self) {
        // The values need no drop of their own: `new`'s callers store plain data.
        // SAFETY: the block was allocated with this layout and is freed once.
        unsafe { dealloc(self.block.as_ptr(), self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(C, align(64))]
    #[derive(Clone, Copy)]
    struct Line([u64; 8]);

    #[test]
    fn zeroed_aligned_and_writable() {
        // SAFETY: zero bytes are a valid Line.
        let mut lines = unsafe { Zeroed::<Line>::new(1000) }.expect("64 KB");
        assert_eq!(lines.len(), 1000);
        assert_eq!(lines.as_ptr() as usize % 64, 0);
        assert!(lines.iter().all(|l| l.0 == [0; 8]));
        lines[999].0[7] = 5;
        assert_eq!(lines[999].0[7], 5);
    }

    #[test]
    fn a_large_block_starts_on_a_huge_page() {
        // SAFETY: a Line of zero bytes is valid.
        let mut lines = unsafe { Zeroed::<Line>::new(3 * HUGE_PAGE / 64) }.expect("6 MB");
        assert_eq!(lines.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(lines.iter().all(|l| l.0 == [0; 8]));
        let last = lines.len() - 1;
        lines[last].0[7] = 9;
        assert_eq!(lines[last].0[7], 9);
    }

    #[test]
    fn too_much_is_none_not_an_abort() {
        // SAFETY: zero bytes are a valid Line.
        assert!(unsafe { Zeroed::<Line>::new(usize::MAX / 64) }.is_none());
        assert!(unsafe { Zeroed::<Line>::new(1 << 50) }.is_none(), "64 PB");
    }
}
