//! The transposition table (feature `transposition`): what the tree learned about a position,
//! found again by its Zobrist key when the position comes back by another order of moves or in
//! the next iteration.
//!
//! Buckets of four 16-byte entries, one cache line each. An entry keeps the whole key, so a
//! hit is never another position's. A new entry replaces, in its bucket, the same position, an
//! empty slot, or the entry least worth keeping: from an older search, then the shallowest. The
//! same position's entry gives way only to an exact score, one about as deep, or any result of
//! a newer search: a shallow bound must not wipe out what a deep search learned.

use super::zeroed::Zeroed;
use crate::board::Move;

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

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Slot {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bound in the low two bits (0 = empty), the search's generation above them.
    meta: u8,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);

const WAYS: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([Slot; WAYS]);

/// The default size when the GUI names none (XBoard `memory`, UCI `Hash`).
pub const DEFAULT_MB: usize = 16;
/// The most a GUI may ask for.
pub const MAX_MB: usize = 4096;

pub struct Table {
    buckets: Zeroed<Bucket>,
    generation: u8,
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
        let buckets = buckets(bytes / std::mem::size_of::<Bucket>());
        let got = (buckets.len() * std::mem::size_of::<Bucket>()) >> 20;
        (Table { buckets, generation: 0 }, got.max(1))
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything (a new game): the memory is given back and taken afresh, zeroed,
    /// which costs nothing until used (emptying a large table in place takes seconds).
    pub fn clear(&mut self) {
        let n = self.buckets.len();
        // The old memory goes first: there may not be room for both.
        self.buckets = buckets(1);
        self.buckets = buckets(n);
        self.generation = 0;
    }

    /// A new search begins: entries from earlier ones are the first to go.
    pub fn next_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = &self.buckets[self.bucket(key)];
        bucket.0.iter().find(|s| s.key == key && s.meta & 3 != 0).map(|s| Entry {
            mv: (s.mv != 0).then(|| Move::from_raw(s.mv)),
            score: i32::from(s.score),
            depth: i32::from(s.depth),
            bound: match s.meta & 3 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            eval: i32::from(s.eval),
        })
    }

    pub fn store(&mut self, key: u64, entry: Entry) {
        let generation = self.generation;
        let index = self.bucket(key);
        let bucket = &mut self.buckets[index];
        let age = |s: &Slot| (generation.wrapping_sub(s.meta >> 2)) & 63;
        let way = bucket.0.iter().position(|s| s.key == key || s.meta & 3 == 0).unwrap_or_else(|| {
            (0..WAYS)
                .min_by_key(|&i| {
                    let s = &bucket.0[i];
                    (std::cmp::Reverse(age(s)), s.depth)
                })
                .unwrap_or(0)
        });
        let slot = &mut bucket.0[way];
        let same = slot.key == key && slot.meta & 3 != 0;
        if same && entry.bound != Bound::Exact && entry.depth + 2 < i32::from(slot.depth) && age(slot) == 0 {
            if slot.mv == 0
                && let Some(mv) = entry.mv
            {
                slot.mv = mv.raw();
            }
            return;
        }
        // A shallower result for the same position keeps the deeper one's move if it has none.
        let mv = match entry.mv {
            Some(mv) => mv.raw(),
            None if slot.key == key => slot.mv,
            None => 0,
        };
        let bound = match entry.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *slot = Slot {
            key,
            mv,
            score: entry.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: entry.eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: entry.depth.clamp(0, 255) as u8,
            meta: bound | generation << 2,
        };
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
        let mut table = Table::new(1);
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
        let mut table = Table::new(1);
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

    /// The memory the process holds (resident), in megabytes.
    #[cfg(target_os = "linux")]
    fn resident_mb() -> usize {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let kb = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).unwrap();
        kb.trim().trim_end_matches("kB").trim().parse::<usize>().unwrap() >> 10
    }

    /// A 1 GB table takes no memory until its entries are written, when made or emptied for a
    /// new game: the engine that makes it reads its input meanwhile, instead of writing every
    /// byte first (XBoard `memory 4096` was answered seconds late). The margin is for the
    /// tests that run beside this one.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_table_is_not_written_when_made_or_emptied() {
        let before = resident_mb();
        let mut table = Table::new(1024);
        assert_eq!(table.bytes(), 1 << 30);
        assert!(resident_mb() < before + 256, "made: {} MB held, {before} MB before", resident_mb());
        let pos = Position::startpos();
        table.store(pos.hash(), entry(3, 5));
        table.clear();
        assert_eq!(table.probe(pos.hash()), None);
        assert!(resident_mb() < before + 256, "emptied: {} MB held, {before} MB before", resident_mb());
    }
}
