//! Tree: a compact B-tree of extents (the 710 [000]): updates dirty its leaves, and once enough
//! are dirty the controller stops to clean (rewrite) them, on top of cleaning the NAND.
//!
//! With table memory (`map.cache_bytes` > 0) the tree's size is tracked too. A leaf holds one
//! entry (8 bytes) per extent: a run of units written one after another. After a sequential fill
//! each leaf is one extent and the tree is tiny; a random write splits the extent it lands in
//! (its unit starts one, the unit after it starts another), so random writes grow the tree until
//! it no longer fits in DRAM. Leaves then live in NAND and a lookup or update of one that is not
//! in DRAM loads it first (CLOCK replacement): `tree_miss_ns` of controller time and a NAND read.

use super::MapWork;
use crate::config::MapConfig;
use crate::units::NONE;

/// Bytes of one extent entry.
const ENTRY_BYTES: u64 = 8;

pub struct TreeMap {
    /// One bit per leaf, and how many are set.
    dirty_leaves: Vec<u64>,
    dirty_leaf_count: u32,
    leaf_entries: u32,
    clean_threshold: u32,
    clean_ns_per_leaf: u64,
    /// Bytes of one leaf (8-byte entries).
    leaf_bytes: u64,
    page_bytes: u64,
    /// The extents and which leaves are in DRAM; None when the whole tree always fits.
    extents: Option<Box<Extents>>,
}

impl TreeMap {
    pub fn new(cfg: &MapConfig, user_units: u64, page_bytes: u32) -> Self {
        let leaves = user_units.div_ceil(cfg.tree_leaf_entries as u64) as usize;
        TreeMap {
            dirty_leaves: vec![0; leaves.div_ceil(64)],
            dirty_leaf_count: 0,
            leaf_entries: cfg.tree_leaf_entries,
            clean_threshold: cfg.tree_clean_dirty_leaves,
            clean_ns_per_leaf: cfg.tree_clean_ns_per_leaf,
            leaf_bytes: cfg.tree_leaf_entries as u64 * ENTRY_BYTES,
            page_bytes: page_bytes as u64,
            extents: (cfg.cache_bytes > 0).then(|| Box::new(Extents::new(cfg, user_units, leaves))),
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        self.dirty_leaves.capacity() as u64 * 8 + self.extents.as_ref().map_or(0, |x| x.memory_bytes())
    }

    /// Bytes of the tree (its extent entries), when tracked.
    pub fn tree_bytes(&self) -> Option<u64> {
        self.extents.as_ref().map(|x| x.tree_bytes)
    }

    /// A write applied without simulating it (preconditioning): it splits extents as a host
    /// write would, at no cost.
    pub fn note_write(&mut self, lpa: u32) {
        if let Some(x) = self.extents.as_mut() {
            x.record_write(lpa, lpa / self.leaf_entries);
        }
    }

    /// Lookups are free while the leaf is in DRAM; updates dirty a leaf.
    #[inline]
    pub fn access(&mut self, lpa: u32, update: bool) -> MapWork {
        let leaf = (lpa / self.leaf_entries) as usize;
        let mut work = match self.extents.as_mut() {
            Some(x) => x.access(lpa, leaf, update),
            None => MapWork::default(),
        };
        if !update {
            return work;
        }
        let (word, bit) = (leaf / 64, 1u64 << (leaf % 64));
        if self.dirty_leaves[word] & bit != 0 {
            return work;
        }
        self.dirty_leaves[word] |= bit;
        self.dirty_leaf_count += 1;
        if self.dirty_leaf_count < self.clean_threshold {
            return work;
        }
        // Clean-up: rewrite every dirty leaf compactly.
        let leaves = self.dirty_leaf_count as u64;
        self.dirty_leaves.fill(0);
        self.dirty_leaf_count = 0;
        work.write_pages += (leaves * self.leaf_bytes).div_ceil(self.page_bytes) as u32;
        work.controller_ns += leaves * self.clean_ns_per_leaf;
        work
    }
}

/// The tree's extents and the part of it in DRAM.
struct Extents {
    units: u32,
    leaf_entries: u32,
    /// Bit per unit: it starts an extent (it does not follow the unit before it in the order
    /// they were written). A leaf's first unit always starts one of its entries; its bit is unused.
    starts: Vec<u64>,
    /// Entries (extents) of each leaf.
    leaf_extents: Vec<u32>,
    /// Bit per leaf: in DRAM; and CLOCK's referenced bit.
    resident: Vec<u64>,
    referenced: Vec<u64>,
    hand: usize,
    memory_bytes: u64,
    resident_bytes: u64,
    tree_bytes: u64,
    miss_ns: u64,
    /// The unit the last write ended at (a write of the next one continues its extent).
    last_written: u32,
}

#[inline]
fn bit(v: &[u64], i: usize) -> bool {
    v[i / 64] & (1 << (i % 64)) != 0
}

impl Extents {
    fn new(cfg: &MapConfig, user_units: u64, leaves: usize) -> Self {
        // After a sequential fill (or a secure erase) each leaf is one extent; at power-on the
        // controller loads leaves in order while they fit.
        let mut x = Extents {
            units: user_units as u32,
            leaf_entries: cfg.tree_leaf_entries,
            starts: vec![0; (user_units as usize).div_ceil(64)],
            leaf_extents: vec![1; leaves],
            resident: vec![0; leaves.div_ceil(64)],
            referenced: vec![0; leaves.div_ceil(64)],
            hand: 0,
            memory_bytes: cfg.cache_bytes,
            resident_bytes: 0,
            tree_bytes: leaves as u64 * ENTRY_BYTES,
            miss_ns: cfg.tree_miss_ns,
            last_written: NONE,
        };
        for leaf in 0..leaves {
            if x.resident_bytes + ENTRY_BYTES > x.memory_bytes {
                break;
            }
            x.resident[leaf / 64] |= 1 << (leaf % 64);
            x.resident_bytes += ENTRY_BYTES;
        }
        x
    }

    fn memory_bytes(&self) -> u64 {
        (self.starts.capacity() * 8 + self.leaf_extents.capacity() * 4 + self.resident.capacity() * 16) as u64
    }

    #[inline]
    fn access(&mut self, lpa: u32, leaf: usize, update: bool) -> MapWork {
        let work = if bit(&self.resident, leaf) {
            self.referenced[leaf / 64] |= 1 << (leaf % 64);
            MapWork::default()
        } else {
            self.load(leaf)
        };
        if update {
            self.record_write(lpa, lpa / self.leaf_entries);
            // The leaf grew: whatever no longer fits goes back to NAND.
            if self.resident_bytes > self.memory_bytes {
                self.evict_until(self.memory_bytes);
            }
        }
        work
    }

    /// Brings `leaf` into DRAM, making room for it.
    #[cold]
    fn load(&mut self, leaf: usize) -> MapWork {
        let bytes = self.leaf_extents[leaf] as u64 * ENTRY_BYTES;
        self.evict_until(self.memory_bytes.saturating_sub(bytes));
        self.resident[leaf / 64] |= 1 << (leaf % 64);
        self.referenced[leaf / 64] |= 1 << (leaf % 64);
        self.resident_bytes += bytes;
        MapWork { read_page: Some(leaf as u32), controller_ns: self.miss_ns, miss: true, ..MapWork::default() }
    }

    /// Evicts leaves (CLOCK: a referenced leaf gets a second chance) until those in DRAM take
    /// at most `bytes`.
    #[cold]
    fn evict_until(&mut self, bytes: u64) {
        let leaves = self.leaf_extents.len();
        while self.resident_bytes > bytes {
            let h = self.hand;
            self.hand = (h + 1) % leaves;
            let (word, mask) = (h / 64, 1u64 << (h % 64));
            if self.resident[word] & mask == 0 {
                continue;
            }
            if self.referenced[word] & mask != 0 {
                self.referenced[word] &= !mask;
                continue;
            }
            self.resident[word] &= !mask;
            self.resident_bytes -= self.leaf_extents[h] as u64 * ENTRY_BYTES;
        }
    }

    /// Unit `lpa` (in leaf `leaf`) was written: it continues the last write's extent or starts
    /// its own, and the unit after it (still where it was) starts another.
    #[inline]
    fn record_write(&mut self, lpa: u32, leaf: u32) {
        let continues = self.last_written.wrapping_add(1) == lpa;
        self.set_start(lpa, leaf, !continues);
        if lpa + 1 < self.units {
            self.set_start(lpa + 1, (lpa + 1) / self.leaf_entries, true);
        }
        self.last_written = lpa;
    }

    #[inline]
    fn set_start(&mut self, unit: u32, leaf: u32, starts: bool) {
        if unit.is_multiple_of(self.leaf_entries) {
            return;
        }
        let (word, mask) = (unit as usize / 64, 1u64 << (unit % 64));
        if (self.starts[word] & mask != 0) == starts {
            return;
        }
        self.starts[word] ^= mask;
        let leaf = leaf as usize;
        let resident = bit(&self.resident, leaf);
        if starts {
            self.leaf_extents[leaf] += 1;
            self.tree_bytes += ENTRY_BYTES;
            self.resident_bytes += resident as u64 * ENTRY_BYTES;
        } else {
            self.leaf_extents[leaf] -= 1;
            self.tree_bytes -= ENTRY_BYTES;
            self.resident_bytes -= resident as u64 * ENTRY_BYTES;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{MapCost, MapWork};
    use crate::config::{MapConfig, MapScheme};

    #[test]
    fn tree_cleans_after_enough_dirty_leaves() {
        let cfg = MapConfig { scheme: MapScheme::Tree, tree_clean_dirty_leaves: 3, ..MapConfig::flat() };
        let mut m = MapCost::new(&cfg, 10_000, 8192);
        assert_eq!(m.access(0, true), MapWork::default());
        assert_eq!(m.access(1, true), MapWork::default()); // same leaf
        assert_eq!(m.access(256, true), MapWork::default());
        let clean = m.access(600, true);
        assert_eq!(clean.controller_ns, 3 * 15_000);
        assert_eq!(clean.write_pages, 1); // 3 leaves x 2 KiB in one 8 KiB page
        assert_eq!(m.access(0, true), MapWork::default()); // clean again
    }

    #[test]
    fn random_writes_split_extents_until_the_tree_outgrows_its_memory() {
        use super::TreeMap;
        // 64 leaves of 16 units; DRAM for 96 entries; each leaf starts as one extent (the fill).
        let cfg = MapConfig {
            scheme: MapScheme::Tree,
            tree_leaf_entries: 16,
            tree_clean_dirty_leaves: 1 << 20,
            cache_bytes: 96 * 8,
            tree_miss_ns: 7_000,
            ..MapConfig::flat()
        };
        let mut m = TreeMap::new(&cfg, 1024, 8192);
        assert_eq!(m.tree_bytes(), Some(64 * 8));
        // A sequential rewrite keeps one extent running: the tree stays small and in DRAM.
        for lpa in 0..1024 {
            assert_eq!(m.access(lpa, true), MapWork::default(), "{}", lpa);
        }
        assert!(m.tree_bytes().unwrap() <= 65 * 8);
        // A write into the middle of an extent splits it in three.
        let before = m.tree_bytes().unwrap();
        m.access(100, true);
        assert_eq!(m.tree_bytes().unwrap(), before + 2 * 8);
        // Scattered writes grow it past its memory: leaves are paged in, at a cost.
        let mut misses = 0;
        for i in 0..400u32 {
            let w = m.access((i * 379) % 1024, true);
            if w.miss {
                assert_eq!(w.controller_ns, 7_000);
                assert!(w.read_page.is_some());
                misses += 1;
            }
        }
        assert!(m.tree_bytes().unwrap() > 3 * 96 * 8, "{:?}", m.tree_bytes());
        assert!(misses > 100, "{} misses", misses);
        // Without table memory the tree tracks nothing and never misses.
        let mut flat_tree = TreeMap::new(&MapConfig { cache_bytes: 0, ..cfg }, 1024, 8192);
        assert_eq!(flat_tree.tree_bytes(), None);
        assert!((0..400u32).all(|i| !flat_tree.access((i * 379) % 1024, true).miss));
    }

    #[test]
    fn preconditioning_writes_fragment_the_tree_for_free() {
        use super::TreeMap;
        let cfg = MapConfig { scheme: MapScheme::Tree, tree_leaf_entries: 16, cache_bytes: 4096, ..MapConfig::flat() };
        let mut m = TreeMap::new(&cfg, 1024, 8192);
        let before = m.tree_bytes().unwrap();
        for i in 0..50u32 {
            m.note_write((i * 379) % 1024);
        }
        assert!(m.tree_bytes().unwrap() > before + 50 * 8);
    }
}
