//! Cached (DFTL-style, for drives with little DRAM): only some map pages are in DRAM, kept by
//! CLOCK. A miss reads the map page from NAND first, and evicting a dirty one writes it back.
//! A DRAM-less NVMe drive adds a second tier in the host's memory (HMB): a miss in the
//! controller's own memory that hits there costs a PCIe round trip, not a NAND read.

use super::MapWork;
use crate::config::MapConfig;
use crate::units::NONE;

/// CLOCK cache of map pages: one tier.
struct Clock {
    slot_of_page: Vec<u32>,
    page_of_slot: Vec<u32>,
    referenced: Vec<bool>,
    dirty: Vec<bool>,
    hand: usize,
}

impl Clock {
    fn new(bytes: u64, page_bytes: u32, map_pages: usize) -> Self {
        let slots = ((bytes / page_bytes as u64) as usize).clamp(1, map_pages);
        Clock {
            slot_of_page: vec![NONE; map_pages],
            page_of_slot: vec![NONE; slots],
            referenced: vec![false; slots],
            dirty: vec![false; slots],
            hand: 0,
        }
    }

    fn memory_bytes(&self) -> u64 {
        (self.slot_of_page.capacity() * 4 + self.page_of_slot.capacity() * 6) as u64
    }

    /// Marks `page` used (and dirty if `update`); false when it is not held.
    #[inline]
    fn hit(&mut self, page: u32, update: bool) -> bool {
        let slot = self.slot_of_page[page as usize];
        if slot == NONE {
            return false;
        }
        self.referenced[slot as usize] = true;
        self.dirty[slot as usize] |= update;
        true
    }

    /// Takes `page` in, evicting by CLOCK: the page evicted and whether it was dirty.
    fn insert(&mut self, page: u32, dirty: bool) -> Option<(u32, bool)> {
        // Pass over referenced slots, clearing them, to the first unreferenced one.
        let n = self.page_of_slot.len();
        while self.referenced[self.hand] {
            self.referenced[self.hand] = false;
            self.hand = (self.hand + 1) % n;
        }
        let victim = self.hand;
        self.hand = (self.hand + 1) % n;
        let old = self.page_of_slot[victim];
        let evicted = (old != NONE).then(|| {
            self.slot_of_page[old as usize] = NONE;
            (old, self.dirty[victim])
        });
        self.page_of_slot[victim] = page;
        self.slot_of_page[page as usize] = victim as u32;
        self.referenced[victim] = true;
        self.dirty[victim] = dirty;
        evicted
    }

    /// Drops `page` if held: whether it was dirty.
    fn remove(&mut self, page: u32) -> bool {
        let slot = self.slot_of_page[page as usize];
        if slot == NONE {
            return false;
        }
        self.slot_of_page[page as usize] = NONE;
        self.page_of_slot[slot as usize] = NONE;
        self.referenced[slot as usize] = false;
        std::mem::take(&mut self.dirty[slot as usize])
    }

    fn mark_dirty(&mut self, page: u32) {
        let slot = self.slot_of_page[page as usize];
        debug_assert!(slot != NONE, "the HMB holds every page the controller does");
        if slot != NONE {
            self.dirty[slot as usize] = true;
        }
    }
}

/// The map pages in the controller's memory and, with a host memory buffer, in the host's.
pub struct CachedMap {
    /// Map entries (4 bytes each) per map page.
    entries_per_page: u32,
    controller: Clock,
    /// The HMB tier holds every page the controller's does (a page it evicts leaves both), so a
    /// dirty page is written back once, when it leaves the HMB.
    hmb: Option<Box<Clock>>,
    hmb_access_ns: u64,
}

impl CachedMap {
    pub fn new(cfg: &MapConfig, user_units: u64, page_bytes: u32) -> Self {
        let entries_per_page = page_bytes / 4;
        let map_pages = user_units.div_ceil(entries_per_page as u64) as usize;
        CachedMap {
            entries_per_page,
            controller: Clock::new(cfg.cache_bytes, page_bytes, map_pages),
            hmb: (cfg.hmb_bytes > 0).then(|| Box::new(Clock::new(cfg.hmb_bytes, page_bytes, map_pages))),
            hmb_access_ns: cfg.hmb_access_ns,
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        self.controller.memory_bytes() + self.hmb.as_ref().map_or(0, |h| h.memory_bytes())
    }

    #[inline]
    pub fn access(&mut self, lpa: u32, update: bool) -> MapWork {
        let page = lpa / self.entries_per_page;
        if self.controller.hit(page, update) {
            return MapWork::default();
        }
        let Some(hmb) = self.hmb.as_deref_mut() else {
            let mut work = MapWork { read_page: Some(page), miss: true, ..MapWork::default() };
            if let Some((_, dirty)) = self.controller.insert(page, update) {
                work.write_pages = dirty as u32;
            }
            return work;
        };
        let work = if hmb.hit(page, false) {
            MapWork { host_ns: self.hmb_access_ns, hmb_hit: true, ..MapWork::default() }
        } else {
            let mut work = MapWork { read_page: Some(page), miss: true, ..MapWork::default() };
            if let Some((old, dirty)) = hmb.insert(page, false) {
                // Keep the controller's pages inside the HMB's: the evicted page leaves both.
                work.write_pages = (dirty | self.controller.remove(old)) as u32;
            }
            work
        };
        if let Some((old, dirty)) = self.controller.insert(page, update) {
            if dirty {
                hmb.mark_dirty(old);
            }
        }
        work
    }
}

#[cfg(test)]
mod tests {
    use super::super::{MapCost, MapWork};
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

    #[test]
    fn an_hmb_answers_what_the_controller_lacks_and_writes_back_a_dirty_page_once() {
        let cfg = MapConfig {
            scheme: MapScheme::Cached,
            cache_bytes: 8192,
            hmb_bytes: 2 * 8192,
            hmb_access_ns: 1500,
            ..MapConfig::flat()
        };
        let mut m = MapCost::new(&cfg, 100_000, 8192); // 2048 entries per map page: 1 + 2 slots
        let page = |p: u32| p * 2048;
        let first = m.access(page(0), true);
        assert!(first.miss && first.read_page == Some(0) && first.host_ns == 0);
        let second = m.access(page(1), false); // page 0 leaves the controller, stays in the HMB
        assert!(second.miss && second.write_pages == 0);
        let back = m.access(page(0), false);
        assert!(!back.miss && back.hmb_hit && back.read_page.is_none() && back.host_ns == 1500);
        assert_eq!(m.access(page(0), false), MapWork::default(), "now in the controller: free");
        // Pages 2..6 push pages 0 and 1 out of both tiers: the dirty page 0 is written back
        // once, when it leaves the HMB, and is then read from NAND again.
        let writes: u32 = (2..6).map(|p| m.access(page(p), false).write_pages).sum();
        assert_eq!(writes, 1);
        let again = m.access(page(0), false);
        assert!(again.miss && again.read_page == Some(0) && !again.hmb_hit);
    }
}
