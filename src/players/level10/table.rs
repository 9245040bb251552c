//! The transposition table (feature `transposition`): what the tree learned about a position,
//! found again by its Zobrist key when the position comes back by another order of moves or in
//! the next iteration, or from another search thread.
//!
//! Buckets of four 16-byte entries, one cache line each. An entry keeps the whole key, so a
//! hit is never another position's. A new entry replaces, in its bucket, the same position, an
//! empty slot, or the entry least worth keeping: from an older search, then the shallowest. The
//! same position's entry gives way only to an exact score, one about as deep, or any result of
//! a newer search: a shallow bound must not wipe out what a deep search learned.
//!
//! Every search thread reads and writes the one table without a lock. An entry is two words,
//! its data and its key XOR-ed with the data; a reader takes the entry only when the two words
//! give back its key, so one read between the two stores of another thread's write (a torn
//! entry) is a miss, never another position's data. What a hit says may still be a shallower
//! or older truth than the reader's own, as in any table; its move is tried only when legal.

use super::zeroed::Zeroed;
use crate::board::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// What a stored score says about the position's true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true score is at least this (a move failed high).
    Lower,
    /// The true score is at most this (every move failed low).
    Upper,
}

/// One position's record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Option<Move>,
    /// Relative to the node that stored it (mates counted from there; see `to_table`).
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The leaf judgement of the position, kept so that a revisit does not redo it.
    pub eval: i32,
}

/// An entry's data packed in one word: move, score, judgement, depth, and `meta` (the bound
/// in the low two bits, 0 = empty, the search's generation above them).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Data {
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    meta: u8,
}

impl Data {
    fn pack(self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.meta) << 56
    }

    fn unpack(w: u64) -> Data {
        Data {
            mv: w as u16,
            score: (w >> 16) as u16 as i16,
            eval: (w >> 32) as u16 as i16,
            depth: (w >> 48) as u8,
            meta: (w >> 56) as u8,
        }
    }

    fn used(self) -> bool {
        self.meta & 3 != 0
    }
}

#[derive(Default)]
#[repr(C)]
struct Slot {
    /// The key XOR-ed with `data`.
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The slot's key and data, as one consistent pair only if no write tore them.
    #[inline]
    fn read(&self) -> (u64, Data) {
        let data = self.data.load(Relaxed);
        (self.check.load(Relaxed) ^ data, Data::unpack(data))
    }

    #[inline]
    fn write(&self, key: u64, data: Data) {
        let w = data.pack();
        self.data.store(w, Relaxed);
        self.check.store(key ^ w, Relaxed);
    }
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);

const WAYS: usize = 4;

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Slot; WAYS]);

/// The default size when the GUI names none (XBoard `memory`, UCI `Hash`).
pub const DEFAULT_MB: usize = 16;
/// The most a GUI may ask for.
pub const MAX_MB: usize = 4096;

pub struct Table {
    buckets: Zeroed<Bucket>,
    generation: AtomicU8,
}

/// `n` zeroed buckets, or when that much memory is not to be had, the largest half, quarter, ...
/// of `n` that is.
fn buckets(n: usize) -> Zeroed<Bucket> {
    let mut n = n.max(1);
    loop {
        // SAFETY: an all-zero bucket is four empty slots.
        match unsafe { Zeroed::new(n) } {
            Some(buckets) => return buckets,
            None if n > 1 => n /= 2,
            None => std::alloc::handle_alloc_error(std::alloc::Layout::new::<Bucket>()),
        }
    }
}

/// The threads that zero a table: a GiB takes a core about a fifth of a second.
fn clearing_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(8)
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket), or as large as the memory to be
    /// had allows (see `largest`).
    pub fn new(mb: usize) -> Table {
        Table::largest(mb).0
    }

    /// A table of `mb` megabytes, or when that much memory is not to be had, of the largest
    /// half, quarter, ... of it that is; with the megabytes it got.
    pub fn largest(mb: usize) -> (Table, usize) {
        let bytes = mb.clamp(1, MAX_MB) << 20;
        let mut buckets = buckets(bytes / std::mem::size_of::<Bucket>());
        buckets.zero(clearing_threads());
        let got = (buckets.len() * std::mem::size_of::<Bucket>()) >> 20;
        (Table { buckets, generation: AtomicU8::new(0) }, got.max(1))
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything (a new game, `Clear Hash`), in place: the memory stays taken, so the
    /// next game's first searches do not pay for it.
    pub fn clear(&mut self) {
        self.buckets.zero(clearing_threads());
        *self.generation.get_mut() = 0;
    }

    /// A new search begins: entries from earlier ones are the first to go.
    pub fn next_search(&self) {
        self.generation.store((self.generation.load(Relaxed) + 1) & 63, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[((u128::from(key) * self.buckets.len() as u128) >> 64) as usize]
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that the probe a child
    /// node makes after its own first steps waits less on memory (the table is far larger than
    /// the cache; with huge pages, see `zeroed.rs`, the prefetch does not stall on a page walk).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is a hint that reads nothing; the address is a live bucket.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).0.iter().map(Slot::read).find(|&(k, d)| k == key && d.used()).map(|(_, d)| Entry {
            mv: (d.mv != 0).then(|| Move::from_raw(d.mv)),
            score: i32::from(d.score),
            depth: i32::from(d.depth),
            bound: match d.meta & 3 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            eval: i32::from(d.eval),
        })
    }

    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let slots: [(u64, Data); WAYS] = std::array::from_fn(|i| bucket.0[i].read());
        let age = |d: &Data| (generation.wrapping_sub(d.meta >> 2)) & 63;
        let way = slots.iter().position(|(k, d)| *k == key || !d.used()).unwrap_or_else(|| {
            (0..WAYS)
                .min_by_key(|&i| {
                    let d = &slots[i].1;
                    (std::cmp::Reverse(age(d)), d.depth)
                })
                .unwrap_or(0)
        });
        let (old_key, old) = slots[way];
        let same = old_key == key && old.used();
        if same && entry.bound != Bound::Exact && entry.depth + 2 < i32::from(old.depth) && age(&old) == 0 {
            if old.mv == 0
                && let Some(mv) = entry.mv
            {
                bucket.0[way].write(key, Data { mv: mv.raw(), ..old });
            }
            return;
        }
        // A shallower result for the same position keeps the deeper one's move if it has none.
        let mv = match entry.mv {
            Some(mv) => mv.raw(),
            None if old_key == key => old.mv,
            None => 0,
        };
        let bound = match entry.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let data = Data {
            mv,
            score: entry.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: entry.eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: entry.depth.clamp(0, 255) as u8,
            meta: bound | generation << 2,
        };
        bucket.0[way].write(key, data);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn entry(depth: i32, score: i32) -> Entry {
        Entry { mv: None, score, depth, bound: Bound::Exact, eval: 0 }
    }

    #[test]
    fn a_stored_position_is_found_and_another_is_not() {
        let mut table = Table::new(1);
        let pos = Position::startpos();
        let mv = pos.legal_moves()[3];
        table.store(pos.hash(), Entry { mv: Some(mv), score: -42, depth: 7, bound: Bound::Lower, eval: 13 });
        let got = table.probe(pos.hash()).expect("stored");
        assert_eq!(got, Entry { mv: Some(mv), score: -42, depth: 7, bound: Bound::Lower, eval: 13 });
        assert_eq!(table.probe(pos.hash() ^ 1), None);
        table.clear();
        assert_eq!(table.probe(pos.hash()), None);
    }

    #[test]
    fn the_size_follows_the_megabytes_asked() {
        for mb in [1, 2, 16, 64] {
            let table = Table::new(mb);
            assert_eq!(table.bytes(), mb << 20, "{mb} MB");
        }
        assert_eq!(Table::new(0).bytes(), 1 << 20, "at least one megabyte");
    }

    /// A shallow bound of a position does not replace what a deeper search of this search
    /// found there; an exact score, a bound about as deep, or a later search's does.
    #[test]
    fn a_shallow_bound_keeps_the_deeper_entry() {
        let table = Table::new(1);
        let key = Position::startpos().hash();
        let deep = Entry { mv: None, score: 50, depth: 12, bound: Bound::Lower, eval: 0 };
        table.store(key, deep);
        table.store(key, Entry { mv: None, score: -20, depth: 3, bound: Bound::Upper, eval: 0 });
        assert_eq!(table.probe(key), Some(deep));
        let close = Entry { mv: None, score: 30, depth: 10, bound: Bound::Upper, eval: 0 };
        table.store(key, close);
        assert_eq!(table.probe(key), Some(close));
        let exact = Entry { mv: None, score: 7, depth: 1, bound: Bound::Exact, eval: 0 };
        table.store(key, exact);
        assert_eq!(table.probe(key), Some(exact));
        table.store(key, deep);
        table.next_search();
        let later = Entry { mv: None, score: 1, depth: 2, bound: Bound::Upper, eval: 0 };
        table.store(key, later);
        assert_eq!(table.probe(key), Some(later));
    }

    /// A full bucket gives up an entry of an older search before a deeper one of this search.
    #[test]
    fn old_entries_go_first() {
        let table = Table::new(1);
        let n = table.buckets.len() as u128;
        // Keys that fall into bucket 0: the top bits pick the bucket.
        let keys: Vec<u64> = (1..=5u64).collect();
        assert!(keys.iter().all(|&k| (u128::from(k) * n) >> 64 == 0));
        table.store(keys[0], entry(1, 1));
        table.next_search();
        for &k in &keys[1..4] {
            table.store(k, entry(20, 2));
        }
        table.store(keys[4], entry(3, 3));
        assert_eq!(table.probe(keys[0]), None, "the old entry is replaced");
        for &k in &keys[1..] {
            assert!(table.probe(k).is_some());
        }
    }

    /// Threads writing and reading entries of the same few buckets at once, each entry's data
    /// made from its key: a hit always gives the data of the key asked, never a mix of two
    /// writes (without the key XOR-ed with the data, a read between the two words of another
    /// thread's write would take the other's data for its own).
    #[test]
    fn a_torn_entry_is_a_miss_never_another_positions_data() {
        let table = Table::new(1);
        let n = table.buckets.len() as u64;
        let data_of = |key: u64| Entry {
            mv: Some(Move::from_raw((key as u16) | 1)),
            score: (key >> 16) as i16 as i32,
            depth: (key >> 32) as u8 as i32 % 100,
            bound: Bound::Exact,
            eval: (key >> 40) as i16 as i32,
        };
        // Keys of buckets 0 to 3 only (the top bits pick the bucket), 64 of them a bucket.
        let keys: Vec<u64> = (0..256u64)
            .map(|i| ((i % 4) * (u64::MAX / n + 1)) | (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20))
            .collect();
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let (table, keys, hits) = (&table, &keys, &hits);
                s.spawn(move || {
                    for round in 0..1_000_000u64 {
                        let key = keys[((round * 7 + t * 13) % 256) as usize];
                        if (round + t) % 3 == 0 {
                            table.store(key, data_of(key));
                        } else if let Some(found) = table.probe(key) {
                            assert_eq!(found, data_of(key), "key {key:x}");
                            hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(hits.into_inner() > 1000, "too few hits to say anything");
    }

    /// The memory the process holds (resident), in megabytes.
    #[cfg(target_os = "linux")]
    fn resident_mb() -> usize {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let kb = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).unwrap();
        kb.trim().trim_end_matches("kB").trim().parse::<usize>().unwrap() >> 10
    }

    /// A 1 GB table holds its memory once made (a GUI's `Hash` or `memory` is paid for before
    /// its `readyok`, not inside the first searches), and keeps it when emptied for a new game.
    /// The margin is for the tests that run beside this one.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_table_is_taken_when_made_and_kept_when_emptied() {
        let before = resident_mb();
        let mut table = Table::new(1024);
        assert_eq!(table.bytes(), 1 << 30);
        assert!(resident_mb() > before + 768, "made: {} MB held, {before} MB before", resident_mb());
        let pos = Position::startpos();
        table.store(pos.hash(), entry(3, 5));
        table.clear();
        assert_eq!(table.probe(pos.hash()), None);
        assert_eq!(table.bytes(), 1 << 30);
        assert!(resident_mb() > before + 768, "emptied: {} MB held, {before} MB before", resident_mb());
    }
}
