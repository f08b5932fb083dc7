//! Where the logical-to-physical table lives, and what keeping it costs [000]. The page map
//! itself is always exact (`drive/ftl/map.rs`); a scheme decides what each lookup or update
//! costs in controller time and NAND operations. One file per scheme.

mod cached;
mod flat;
mod tree;

use crate::config::{MapConfig, MapScheme};
use cached::CachedMap;
use flat::FlatMap;
use tree::TreeMap;

/// What one map access needs from the NAND.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MapWork {
    /// Map page to read before the access can proceed.
    pub read_page: Option<u32>,
    /// Map pages to write back (evicted dirty pages, or leaves rewritten by a tree clean-up).
    pub write_pages: u32,
    /// Controller time the access holds the controller for, ns (tree clean-ups).
    pub controller_ns: u64,
    /// Command time to fetch the map page from the host's memory (an HMB hit), ns: a PCIe round
    /// trip, which holds neither the controller nor a die.
    pub host_ns: u64,
    /// The entry was not in memory and its map page is read from NAND.
    pub miss: bool,
    /// The entry was found in the host memory buffer (not in the controller's own memory).
    pub hmb_hit: bool,
}

/// The drive's scheme and its state.
pub enum MapCost {
    Flat(FlatMap),
    Cached(CachedMap),
    Tree(TreeMap),
}

impl MapCost {
    pub fn new(cfg: &MapConfig, user_units: u64, page_bytes: u32) -> Self {
        match cfg.scheme {
            MapScheme::Flat => MapCost::Flat(FlatMap),
            MapScheme::Cached => MapCost::Cached(CachedMap::new(cfg, user_units, page_bytes)),
            MapScheme::Tree => MapCost::Tree(TreeMap::new(cfg, user_units, page_bytes)),
        }
    }

    /// True when every access is free (no need to ask).
    #[inline]
    pub fn is_free(&self) -> bool {
        matches!(self, MapCost::Flat(_))
    }

    pub fn memory_bytes(&self) -> u64 {
        match self {
            MapCost::Flat(_) => 0,
            MapCost::Cached(m) => m.memory_bytes(),
            MapCost::Tree(m) => m.memory_bytes(),
        }
    }

    /// A write applied to the FTL without simulating it (preconditioning): what it changes in
    /// the table's shape (a tree's extents), at no cost.
    pub fn note_write(&mut self, lpa: u32) {
        if let MapCost::Tree(m) = self {
            m.note_write(lpa);
        }
    }

    /// The cost of looking up (and, if `update`, changing) the entry of `lpa`.
    #[inline]
    pub fn access(&mut self, lpa: u32, update: bool) -> MapWork {
        match self {
            MapCost::Flat(m) => m.access(lpa, update),
            MapCost::Cached(m) => m.access(lpa, update),
            MapCost::Tree(m) => m.access(lpa, update),
        }
    }
}
