//! Cached (DFTL-style, for drives with little DRAM): only some map pages are in DRAM, kept by
//! CLOCK. A miss reads the map page from NAND first, and evicting a dirty one writes it back.

use super::MapWork;
use crate::config::MapConfig;
use crate::units::NONE;

/// CLOCK cache of map pages.
pub struct CachedMap {
    /// Map entries (4 bytes each) per map page.
    entries_per_page: u32,
    slot_of_page: Vec<u32>,
    page_of_slot: Vec<u32>,
    referenced: Vec<bool>,
    dirty: Vec<bool>,
    hand: usize,
}

impl CachedMap {
    pub fn new(cfg: &MapConfig, user_units: u64, page_bytes: u32) -> Self {
        let entries_per_page = page_bytes / 4;
        let map_pages = user_units.div_ceil(entries_per_page as u64) as usize;
        let slots = ((cfg.cache_bytes / page_bytes as u64) as usize).clamp(1, map_pages);
        CachedMap {
            entries_per_page,
            slot_of_page: vec![NONE; map_pages],
            page_of_slot: vec![NONE; slots],
            referenced: vec![false; slots],
            dirty: vec![false; slots],
            hand: 0,
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.slot_of_page.capacity() * 4 + self.page_of_slot.capacity() * 6) as u64
    }

    #[inline]
    pub fn access(&mut self, lpa: u32, update: bool) -> MapWork {
        let page = lpa / self.entries_per_page;
        let slot = self.slot_of_page[page as usize];
        if slot != NONE {
            self.referenced[slot as usize] = true;
            self.dirty[slot as usize] |= update;
            return MapWork::default();
        }
        // CLOCK: pass over referenced slots, clearing them, to the first unreferenced one.
        let n = self.page_of_slot.len();
        while self.referenced[self.hand] {
            self.referenced[self.hand] = false;
            self.hand = (self.hand + 1) % n;
        }
        let victim = self.hand;
        self.hand = (self.hand + 1) % n;
        let mut work = MapWork { read_page: Some(page), miss: true, ..MapWork::default() };
        let old = self.page_of_slot[victim];
        if old != NONE {
            self.slot_of_page[old as usize] = NONE;
            work.write_pages = self.dirty[victim] as u32;
        }
        self.page_of_slot[victim] = page;
        self.slot_of_page[page as usize] = victim as u32;
        self.referenced[victim] = true;
        self.dirty[victim] = update;
        work
    }
}

#[cfg(test)]
mod tests {
    use super::super::MapCost;
    use crate::config::{MapConfig, MapScheme};

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
}
