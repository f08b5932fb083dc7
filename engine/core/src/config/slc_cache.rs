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
    /// Direct: folding done while the host writes natively, as a share of a fold stripe each
    /// host page earns on its die, percent (0: none; 100: a stripe a page). Like
    /// consistency-first GC's pacing; it refills the cache under a sustained write.
    #[serde(default)]
    pub fold_while_writing_percent: u32,
    /// Fold in idle time, before idle GC: what restores the cache between bursts.
    pub idle_fold: bool,
    /// The share of each die's blocks that native data does not hold (free, or lent to the
    /// cache), beyond GC's reserve, the cache may hold in SLC mode (0 to 1): it shrinks as the
    /// drive fills. None: `dynamic_max_bytes` alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic_share: Option<f64>,
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

    /// A cache needs an SLC-mode program time: above 0 (which alone means none), below a
    /// native page's. It replaces the timing section's limit, which allows 0, and is checked
    /// before it (`DriveConfig::validate`).
    pub fn slc_program_limit(drive: &DriveConfig) -> Limit {
        let t = &drive.timing;
        Limit::whole("timing.slc_program_ns", t.slc_program_ns, 1, t.program_ns.saturating_sub(1))
    }

    /// From one SLC block per die to the blocks in service, each in SLC mode.
    pub fn limits(&self, drive: &DriveConfig) -> Vec<Limit> {
        let per_block = drive.geometry.dies as u64 * Self::slc_block_bytes(drive);
        let most = drive.blocks_in_service_per_die() as u64 * per_block;
        let mut limits = vec![
            Limit::whole("slc_cache.dynamic_max_bytes", self.dynamic_max_bytes, per_block, most),
            Limit::whole("slc_cache.fold_while_writing_percent", self.fold_while_writing_percent as u64, 0, 1000),
        ];
        limits.extend(self.dynamic_share.map(|share| Limit::real("slc_cache.dynamic_share", share, 0.0, 1.0)));
        limits
    }

    /// What a cache needs of the rest of the drive: cells with more than one bit, whole
    /// wordlines in a block, and one slot per unit (no compression); its SLC-mode program time
    /// is checked with the timings (`slc_program_limit`).
    pub fn check(&self, drive: &DriveConfig) -> Result<(), ConfigError> {
        let bits = drive.nand.cell.bits();
        if bits == 1 {
            return Err(ConfigError::new("nand.cell", "must store more than one bit with [slc_cache] (got slc)"));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{presets, set_parameter, CellType};
    use serde_json::json;

    fn cache_drive() -> DriveConfig {
        let mut d = presets::by_id("s3700-200").unwrap();
        d.set_cell(CellType::Tlc, &[]);
        d.geometry.pages_per_block = 258;
        d.user_bytes = d.geometry.raw_bytes() / 2 / 4096 * 4096;
        d.timing.slc_program_ns = 200_000;
        d.slc_cache = Some(SlcCacheConfig {
            dynamic_max_bytes: 10 << 30,
            when_full: WhenFull::Direct,
            fold_while_writing_percent: 0,
            idle_fold: true,
            dynamic_share: None,
        });
        d.validate().unwrap();
        d
    }

    fn refusal_of(d: &DriveConfig, path: &str, value: serde_json::Value) -> (String, String) {
        let e = set_parameter(d, path, value).unwrap_err();
        (e.field, e.message)
    }

    #[test]
    fn a_cache_is_checked_against_the_rest_of_the_drive_naming_the_field() {
        let d = cache_drive();
        // 33 dies x 1.4 MB: a block per die at least.
        assert_eq!(SlcCacheConfig::slc_block_bytes(&d), 258 * 4 / 3 * 4096);
        let refusal = |path: &str, value: serde_json::Value| set_parameter(&d, path, value).unwrap_err().field;
        assert_eq!(refusal("slc_cache.dynamic_max_bytes", json!(1 << 20)), "slc_cache.dynamic_max_bytes");
        assert_eq!(refusal("slc_cache.when_full", json!("later")), "slc_cache.when_full");
        let percent = "slc_cache.fold_while_writing_percent";
        assert_eq!(refusal(percent, json!(1001)), percent);
        assert_eq!(refusal("nand.cell", json!("slc")), "nand.cell");
        assert_eq!(refusal("timing.slc_program_ns", json!(0)), "timing.slc_program_ns");
        assert_eq!(refusal("geometry.pages_per_block", json!(256)), "geometry.pages_per_block");
        assert_eq!(refusal("controller.compression", json!(true)), "controller.compression");
        // The share is a parameter once a drive has one, and a fraction.
        assert!(set_parameter(&d, "slc_cache.dynamic_share", json!(0.5)).is_err());
        let mut shared = d.clone();
        shared.slc_cache.as_mut().unwrap().dynamic_share = Some(0.5);
        let share = "slc_cache.dynamic_share";
        assert_eq!(set_parameter(&shared, share, json!(0.25)).unwrap().slc_cache.unwrap().dynamic_share, Some(0.25));
        assert_eq!(
            refusal_of(&shared, share, json!(1.5)),
            (share.to_string(), "must be between 0 and 1 (got 1.5)".into())
        );
        assert_eq!(refusal_of(&shared, share, json!(-0.1)).0, share);
        let fold_first = set_parameter(&d, "slc_cache.when_full", json!("fold-first")).unwrap();
        assert_eq!(fold_first.slc_cache.unwrap().when_full, WhenFull::FoldFirst);
        // Shared equally by the dies, in whole SLC blocks.
        let per_die = (10u64 << 30) / 33 / SlcCacheConfig::slc_block_bytes(&d);
        assert_eq!(d.slc_cache.as_ref().unwrap().blocks_per_die(&d) as u64, per_die);
    }
}
