//! Where the logical-to-physical table lives, and what keeping it costs [000].
//!
//! The page map itself is always exact (`ftl.rs`); a scheme decides what each lookup or update
//! costs in controller time and NAND operations:
//! - flat: the whole table in DRAM (the S3700, ~1 MB of DRAM per GB): free;
//! - cached: only some map pages in DRAM (DFTL-style, for drives with little DRAM); a miss reads
//!   the map page from NAND first, and evicting a dirty one writes it back;
//! - tree: a compact B-tree (the 710): updates dirty its leaves, and once enough are dirty the
//!   controller stops to clean (rewrite) them, on top of cleaning the NAND.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MapScheme {
    Flat,
    Cached,
    Tree,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapConfig {
    pub scheme: MapScheme,
    /// Bytes one map entry covers (4096: the S3700's one entry per 4 KB; 8192: a map of whole
    /// 8 KB pages). A write covering part of an entry's span rewrites all of it, reading the rest
    /// first. (The model tracks 4 KiB units either way; this decides what a write costs.)
    pub unit_bytes: u64,
    /// Cached: DRAM for map pages, bytes (each map page holds page_bytes / 4 entries).
    pub cache_bytes: u64,
    /// Tree: map entries per leaf.
    pub tree_leaf_entries: u32,
    /// Tree: dirty leaves that trigger a clean-up of the table.
    pub tree_clean_dirty_leaves: u32,
    /// Tree: controller time to rewrite one leaf during a clean-up, ns.
    pub tree_clean_ns_per_leaf: u64,
}

impl MapConfig {
    pub fn flat() -> Self {
        MapConfig {
            scheme: MapScheme::Flat,
            unit_bytes: 4096,
            cache_bytes: 0,
            tree_leaf_entries: 256,
            tree_clean_dirty_leaves: 32_768,
            tree_clean_ns_per_leaf: 15_000,
        }
    }
}

/// What one map access needs from the NAND.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MapWork {
    /// Map page to read before the access can proceed.
    pub read_page: Option<u32>,
    /// Map pages to write back (evicted dirty pages, or leaves rewritten by a tree clean-up).
    pub write_pages: u32,
    /// Controller time the access holds the controller for, ns (tree clean-ups).
    pub controller_ns: u64,
    pub miss: bool,
}

const NONE: u32 = u32::MAX;

/// CLOCK cache of map pages.
#[derive(Debug, Clone)]
struct PageCache {
    slot_of_page: Vec<u32>,
    page_of_slot: Vec<u32>,
    referenced: Vec<bool>,
    dirty: Vec<bool>,
    hand: usize,
}

#[derive(Debug, Clone)]
pub struct MapCost {
    scheme: MapScheme,
    entries_per_page: u32,
    cache: Option<PageCache>,
    /// Tree: one bit per leaf, and how many are set.
    dirty_leaves: Vec<u64>,
    dirty_leaf_count: u32,
    leaf_entries: u32,
    clean_threshold: u32,
    clean_ns_per_leaf: u64,
    /// Map pages one clean-up rewrites per dirty leaf (leaves are 8-byte entries).
    leaf_bytes: u64,
    page_bytes: u64,
}

impl MapCost {
    pub fn new(cfg: &MapConfig, user_units: u64, page_bytes: u32) -> Self {
        let entries_per_page = page_bytes / 4;
        let map_pages = user_units.div_ceil(entries_per_page as u64) as usize;
        let cache = (cfg.scheme == MapScheme::Cached).then(|| {
            let slots = ((cfg.cache_bytes / page_bytes as u64) as usize).clamp(1, map_pages);
            PageCache {
                slot_of_page: vec![NONE; map_pages],
                page_of_slot: vec![NONE; slots],
                referenced: vec![false; slots],
                dirty: vec![false; slots],
                hand: 0,
            }
        });
        let leaves = user_units.div_ceil(cfg.tree_leaf_entries as u64) as usize;
        MapCost {
            scheme: cfg.scheme,
            entries_per_page,
            cache,
            dirty_leaves: if cfg.scheme == MapScheme::Tree { vec![0; leaves.div_ceil(64)] } else { Vec::new() },
            dirty_leaf_count: 0,
            leaf_entries: cfg.tree_leaf_entries,
            clean_threshold: cfg.tree_clean_dirty_leaves,
            clean_ns_per_leaf: cfg.tree_clean_ns_per_leaf,
            leaf_bytes: cfg.tree_leaf_entries as u64 * 8,
            page_bytes: page_bytes as u64,
        }
    }

    pub fn scheme(&self) -> MapScheme {
        self.scheme
    }

    pub fn memory_bytes(&self) -> u64 {
        let cache = self.cache.as_ref().map_or(0, |c| c.slot_of_page.capacity() * 4 + c.page_of_slot.capacity() * 6);
        (cache + self.dirty_leaves.capacity() * 8) as u64
    }

    /// The cost of looking up (and, if `update`, changing) the entry of `lpa`.
    #[inline]
    pub fn access(&mut self, lpa: u32, update: bool) -> MapWork {
        match self.scheme {
            MapScheme::Flat => MapWork::default(),
            MapScheme::Cached => self.cached_access(lpa / self.entries_per_page, update),
            MapScheme::Tree if update => self.tree_update(lpa),
            MapScheme::Tree => MapWork::default(),
        }
    }

    fn cached_access(&mut self, page: u32, update: bool) -> MapWork {
        let c = self.cache.as_mut().expect("cached scheme has a cache");
        let slot = c.slot_of_page[page as usize];
        if slot != NONE {
            c.referenced[slot as usize] = true;
            c.dirty[slot as usize] |= update;
            return MapWork::default();
        }
        // CLOCK: pass over referenced slots, clearing them, to the first unreferenced one.
        let n = c.page_of_slot.len();
        while c.referenced[c.hand] {
            c.referenced[c.hand] = false;
            c.hand = (c.hand + 1) % n;
        }
        let victim = c.hand;
        c.hand = (c.hand + 1) % n;
        let mut work = MapWork { read_page: Some(page), miss: true, ..MapWork::default() };
        let old = c.page_of_slot[victim];
        if old != NONE {
            c.slot_of_page[old as usize] = NONE;
            work.write_pages = c.dirty[victim] as u32;
        }
        c.page_of_slot[victim] = page;
        c.slot_of_page[page as usize] = victim as u32;
        c.referenced[victim] = true;
        c.dirty[victim] = update;
        work
    }

    fn tree_update(&mut self, lpa: u32) -> MapWork {
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
    use super::*;

    #[test]
    fn cached_map_hits_what_fits_and_writes_back_dirty_pages() {
        let cfg = MapConfig { scheme: MapScheme::Cached, cache_bytes: 2 * 8192, ..MapConfig::flat() };
        let mut m = MapCost::new(&cfg, 100_000, 8192); // 2048 entries per map page, 2 slots
        assert!(m.access(0, true).miss);
        assert!(!m.access(5, false).miss); // same map page
        assert!(m.access(2048, false).miss);
        let third = m.access(4096, false); // evicts a page
        assert!(third.miss && third.read_page == Some(2));
        // Page 0 was dirty; whichever was evicted, a later miss on a dirty victim writes back.
        let mut writes = third.write_pages;
        for p in 3..10u32 {
            writes += m.access(p * 2048, false).write_pages;
        }
        assert_eq!(writes, 1, "exactly one dirty page to write back");
    }

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
