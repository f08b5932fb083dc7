//! The SLC cache: how much of a TLC/QLC drive's free space the firmware writes in SLC mode, and
//! what it does when that is full. Only drives with the section have one.

use serde::{Deserialize, Serialize};

use super::limits::Limit;
use super::DriveConfig;
use crate::units::{ConfigError, UNIT_BYTES};

/// What host writes do once the cache may take no more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WhenFull {
    /// Host writes always land in SLC: the die first folds its oldest SLC block into native
    /// blocks, and the host page waits behind that (the 980's "flushing SLC back to TLC").
    FoldFirst,
    /// Host writes go straight to native blocks; SLC data waits for idle time, or for the
    /// native free blocks to run out (GC then folds it: SLC blocks are its cheapest victims).
    Direct,
}

impl WhenFull {
    pub const ALL: [WhenFull; 2] = [WhenFull::FoldFirst, WhenFull::Direct];
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlcCacheConfig {
    /// The most SLC capacity made from free native blocks, bytes (each SLC-mode block holds a
    /// `bits`-th of a native one), shared equally by the dies.
    pub dynamic_max_bytes: u64,
    pub when_full: WhenFull,
    /// Fold in idle time, before idle GC: what restores the cache between bursts.
    pub idle_fold: bool,
}

impl SlcCacheConfig {
    /// Bytes one block holds in SLC mode.
    pub fn slc_block_bytes(drive: &DriveConfig) -> u64 {
        drive.geometry.units_per_block() as u64 / drive.nand.cell.bits() as u64 * UNIT_BYTES
    }

    /// SLC-mode blocks each die may hold.
    pub fn blocks_per_die(&self, drive: &DriveConfig) -> u32 {
        (self.dynamic_max_bytes / drive.geometry.dies as u64 / Self::slc_block_bytes(drive)) as u32
    }

    /// From one SLC block per die to the blocks in service, each in SLC mode.
    pub fn limits(&self, drive: &DriveConfig) -> Vec<Limit> {
        let per_block = drive.geometry.dies as u64 * Self::slc_block_bytes(drive);
        let most = drive.blocks_in_service_per_die() as u64 * per_block;
        vec![Limit::whole("slc_cache.dynamic_max_bytes", self.dynamic_max_bytes, per_block, most)]
    }

    /// What a cache needs of the rest of the drive: cells with more than one bit, a time for an
    /// SLC-mode program, whole wordlines in a block, and one slot per unit (no compression).
    pub fn check(&self, drive: &DriveConfig) -> Result<(), ConfigError> {
        let bits = drive.nand.cell.bits();
        if bits == 1 {
            return Err(ConfigError::new("nand.cell", "must store more than one bit with [slc_cache] (got slc)"));
        }
        if drive.timing.slc_program_ns == 0 {
            return Err(ConfigError::new("timing.slc_program_ns", "must be set (above 0) with [slc_cache]"));
        }
        if !drive.geometry.pages_per_block.is_multiple_of(bits) {
            return Err(ConfigError::new(
                "geometry.pages_per_block",
                format!(
                    "must be a multiple of {} (whole wordlines) with [slc_cache] (got {})",
                    bits, drive.geometry.pages_per_block
                ),
            ));
        }
        if drive.controller.compression {
            return Err(ConfigError::new("controller.compression", "must be false with [slc_cache]"));
        }
        super::limits::check_limits(&self.limits(drive))
    }
}
