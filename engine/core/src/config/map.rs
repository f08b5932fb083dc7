//! The mapping section: where the logical-to-physical table lives and how fine its entries are.

use serde::{Deserialize, Serialize};

use super::limits::{check_limits, Limit};
use super::nand::NandGeometry;
use crate::units::{ConfigError, UNIT_BYTES};

/// Where the table lives (each has one file in `drive/mapping/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MapScheme {
    Flat,
    Cached,
    Tree,
}

impl MapScheme {
    pub const ALL: [MapScheme; 3] = [MapScheme::Flat, MapScheme::Cached, MapScheme::Tree];
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapConfig {
    pub scheme: MapScheme,
    /// Bytes one map entry covers (4096: the S3700's one entry per 4 KB; 8192: a map of whole
    /// 8 KB pages). A write covering part of an entry's span rewrites all of it, reading the rest
    /// first. (The model tracks 4 KiB units either way; this decides what a write costs.)
    pub unit_bytes: u64,
    /// Cached: DRAM for map pages, bytes (each map page holds page_bytes / 4 entries). Tree:
    /// DRAM for the tree's leaves, which grow as random writes split its extents (8 bytes an
    /// extent); 0: the whole tree always fits (no extents tracked).
    pub cache_bytes: u64,
    /// Tree: map entries per leaf.
    pub tree_leaf_entries: u32,
    /// Tree: dirty leaves that trigger a clean-up of the table.
    pub tree_clean_dirty_leaves: u32,
    /// Tree: controller time to rewrite one leaf during a clean-up, ns.
    pub tree_clean_ns_per_leaf: u64,
    /// Tree with `cache_bytes` > 0: controller time to load a leaf that is not in DRAM (and
    /// make room for it), ns.
    #[serde(default)]
    pub tree_miss_ns: u64,
    /// Cached: the NVMe host memory buffer for map pages, bytes (a second tier behind
    /// `cache_bytes`, the controller's own memory); 0: none, and not listed as a parameter.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hmb_bytes: u64,
    /// Cached with `hmb_bytes`: command time to fetch a map page from host memory over PCIe, ns.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hmb_access_ns: u64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
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
            tree_miss_ns: 0,
            hmb_bytes: 0,
            hmb_access_ns: 0,
        }
    }

    /// (The tree's cache has a rule of its own, 0 or at least a leaf: see `check`.)
    pub fn limits(&self, g: &NandGeometry) -> Vec<Limit> {
        let mut limits = Vec::new();
        if self.scheme == MapScheme::Cached {
            limits.push(Limit::whole("map.cache_bytes", self.cache_bytes, g.page_bytes as u64, 1 << 36));
            // Listed only for a drive with a host memory buffer (0: none, and not a parameter).
            if self.hmb_bytes > 0 {
                limits.push(Limit::whole("map.hmb_bytes", self.hmb_bytes, 0, 1 << 36));
                limits.push(Limit::whole("map.hmb_access_ns", self.hmb_access_ns, 0, 1_000_000));
            }
        }
        limits.extend([
            Limit::whole("map.tree_leaf_entries", self.tree_leaf_entries as u64, 16, 65536),
            Limit::whole("map.tree_miss_ns", self.tree_miss_ns, 0, 100_000_000),
            Limit::whole("map.tree_clean_dirty_leaves", self.tree_clean_dirty_leaves as u64, 1, 1 << 24),
            Limit::whole("map.tree_clean_ns_per_leaf", self.tree_clean_ns_per_leaf, 0, 100_000_000),
        ]);
        limits
    }

    pub fn check(&self, g: &NandGeometry) -> Result<(), ConfigError> {
        check_limits(&self.limits(g))?;
        let page = g.units_per_program() as u64 * UNIT_BYTES;
        let unit = self.unit_bytes;
        if !unit.is_multiple_of(UNIT_BYTES) || !(unit / UNIT_BYTES).is_power_of_two() || unit > page {
            return Err(ConfigError::new(
                "map.unit_bytes",
                format!(
                    "must be 4096 times a power of two, at most one multi-plane page ({} bytes) (got {})",
                    page, unit
                ),
            ));
        }
        // The HMB tier holds every page the controller's tier does (it backs it), so it is
        // larger; a page is the least either holds.
        if self.scheme == MapScheme::Cached && self.hmb_bytes != 0 && self.hmb_bytes < self.cache_bytes {
            return Err(ConfigError::new(
                "map.hmb_bytes",
                format!(
                    "must be 0 (no host memory buffer) or at least map.cache_bytes ({} bytes) (got {})",
                    self.cache_bytes, self.hmb_bytes
                ),
            ));
        }
        let leaf_bytes = self.tree_leaf_entries as u64 * 8;
        if self.scheme == MapScheme::Tree
            && self.cache_bytes != 0
            && !(leaf_bytes..=1 << 36).contains(&self.cache_bytes)
        {
            return Err(ConfigError::new(
                "map.cache_bytes",
                format!(
                    "with the tree scheme, must be 0 (the whole tree fits) or between {} (one full leaf) and {} (got {})",
                    leaf_bytes,
                    1u64 << 36,
                    self.cache_bytes
                ),
            ));
        }
        Ok(())
    }
}
