//! Tree: a compact B-tree (the 710 [002]): updates dirty its leaves, and once enough are dirty
//! the controller stops to clean (rewrite) them, on top of cleaning the NAND.

use super::MapWork;
use crate::config::MapConfig;

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
            leaf_bytes: cfg.tree_leaf_entries as u64 * 8,
            page_bytes: page_bytes as u64,
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        self.dirty_leaves.capacity() as u64 * 8
    }

    /// Lookups are free (the tree is in DRAM); updates dirty a leaf.
    #[inline]
    pub fn access(&mut self, lpa: u32, update: bool) -> MapWork {
        if !update {
            return MapWork::default();
        }
        let leaf = (lpa / self.leaf_entries) as usize;
        let (word, bit) = (leaf / 64, 1u64 << (leaf % 64));
        if self.dirty_leaves[word] & bit != 0 {
            return MapWork::default();
        }
        self.dirty_leaves[word] |= bit;
        self.dirty_leaf_count += 1;
        if self.dirty_leaf_count < self.clean_threshold {
            return MapWork::default();
        }
        // Clean-up: rewrite every dirty leaf compactly.
        let leaves = self.dirty_leaf_count as u64;
        self.dirty_leaves.fill(0);
        self.dirty_leaf_count = 0;
        MapWork {
            read_page: None,
            write_pages: (leaves * self.leaf_bytes).div_ceil(self.page_bytes) as u32,
            controller_ns: leaves * self.clean_ns_per_leaf,
            miss: false,
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
}
