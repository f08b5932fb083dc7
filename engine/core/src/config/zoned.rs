//! A zoned namespace (NVMe ZNS): the LBA space is cut into zones the host writes sequentially
//! and resets whole, so the drive never moves data (docs/design/placement.md, section 3).

use serde::{Deserialize, Serialize};

use super::limits::Limit;
use super::DriveConfig;
use crate::units::{ConfigError, UNIT_BYTES};

/// The most active zones: each holds one of the FTL's host streams from its first write to its
/// reset or finish (`drive::ftl::Stream::handle`), so no block ever holds two zones.
pub const MAX_ACTIVE_ZONES: u64 = 16;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZonedConfig {
    /// A zone's share of the LBA space (fio's `zonesize`).
    pub zone_bytes: u64,
    /// Its writable part, from the zone's start (fio's `zonecapacity`): whole blocks on each of
    /// its dies.
    pub zone_capacity_bytes: u64,
    /// Dies a zone is striped over: zone `z` uses die group `z % (dies / zone_dies)`.
    pub zone_dies: u32,
    /// Zones that may be open (implicitly or explicitly) at once.
    pub max_open_zones: u32,
    /// Zones that may be open or closed (written, not yet full or reset) at once.
    pub max_active_zones: u32,
    /// The largest Zone Append (ZASL).
    pub append_max_bytes: u64,
}

impl ZonedConfig {
    /// Bytes of one FTL block on each of a zone's dies: a zone's capacity is a whole number of them.
    fn stripe_bytes(&self, drive: &DriveConfig) -> u64 {
        drive.geometry.units_per_block() as u64 * UNIT_BYTES * self.zone_dies.max(1) as u64
    }

    pub fn limits(&self, drive: &DriveConfig) -> Vec<Limit> {
        let g = &drive.geometry;
        let stripe = self.stripe_bytes(drive);
        vec![
            Limit::whole("zoned.zone_dies", self.zone_dies as u64, 1, g.dies as u64),
            Limit::whole("zoned.zone_capacity_bytes", self.zone_capacity_bytes, stripe, self.max_capacity_bytes(drive)),
            Limit::whole("zoned.zone_bytes", self.zone_bytes, stripe, drive.user_bytes),
            Limit::whole("zoned.max_active_zones", self.max_active_zones as u64, 1, MAX_ACTIVE_ZONES),
            Limit::whole("zoned.max_open_zones", self.max_open_zones as u64, 1, self.max_active_zones as u64),
            Limit::whole("zoned.append_max_bytes", self.append_max_bytes, UNIT_BYTES, self.zone_capacity_bytes),
        ]
    }

    /// Zones in the LBA space.
    pub fn zones(&self, drive: &DriveConfig) -> u64 {
        drive.user_bytes / self.zone_bytes.max(1)
    }

    /// The largest zone capacity: at most the zone, and whole blocks on each of its dies that
    /// leave room for every zone full at once on its die group.
    fn max_capacity_bytes(&self, drive: &DriveConfig) -> u64 {
        let (have, spare) = self.blocks_per_die(drive);
        let zones_per_group = self.zones(drive).div_ceil(self.groups(drive)).max(1);
        let fits = have.saturating_sub(spare) / zones_per_group * self.stripe_bytes(drive);
        self.zone_bytes.min(fits)
    }

    /// Die groups: zone `z` is striped over group `z % groups`.
    fn groups(&self, drive: &DriveConfig) -> u64 {
        (drive.geometry.dies / self.zone_dies.max(1)).max(1) as u64
    }

    /// The most LBA space of whole zones whose capacity fits on the dies, beside GC's reserve and
    /// an open block per active zone on each die (`check` says why a larger one does not fit).
    pub fn max_user_bytes(&self, drive: &DriveConfig) -> u64 {
        let (have, spare) = self.blocks_per_die(drive);
        let blocks_per_zone_die = (self.zone_capacity_bytes / self.stripe_bytes(drive)).max(1);
        have.saturating_sub(spare) / blocks_per_zone_die * self.groups(drive) * self.zone_bytes
    }

    /// Blocks in service on each die, and those that hold no zone's data: GC's reserve and an
    /// open block per active zone (blocks are taken as zones are written, given back as they are
    /// reset).
    fn blocks_per_die(&self, drive: &DriveConfig) -> (u64, u64) {
        let spare = drive.gc.min_free_blocks as u64 + self.max_active_zones as u64;
        (drive.blocks_in_service_per_die() as u64, spare)
    }

    /// What zones need of the rest of the drive: shapes that fit the blocks and dies, room for
    /// every zone's capacity, and the parts a zoned drive does not have in this version.
    pub fn check(&self, drive: &DriveConfig) -> Result<(), ConfigError> {
        let g = &drive.geometry;
        let refuse = |field: &str, why: String| Err(ConfigError::new(field, why));
        if !g.dies.is_multiple_of(self.zone_dies) {
            return refuse("zoned.zone_dies", format!("must divide the {} dies (got {})", g.dies, self.zone_dies));
        }
        let stripe = self.stripe_bytes(drive);
        if !self.zone_capacity_bytes.is_multiple_of(stripe) {
            return refuse(
                "zoned.zone_capacity_bytes",
                format!(
                    "must be a whole number of blocks on each of the zone's {} dies, a multiple of {} bytes (got {})",
                    self.zone_dies, stripe, self.zone_capacity_bytes
                ),
            );
        }
        if !self.zone_bytes.is_multiple_of(UNIT_BYTES) || !drive.user_bytes.is_multiple_of(self.zone_bytes) {
            return refuse(
                "zoned.zone_bytes",
                format!(
                    "must be a multiple of 4096 bytes dividing user_bytes ({}) into whole zones (got {})",
                    drive.user_bytes, self.zone_bytes
                ),
            );
        }
        if !self.append_max_bytes.is_multiple_of(UNIT_BYTES) {
            return refuse(
                "zoned.append_max_bytes",
                format!("must be a multiple of 4096 bytes (got {})", self.append_max_bytes),
            );
        }
        // Each active zone's page waits in the write buffer for more of its data, and one more
        // page must find room for the buffer to move (as placement handles' pages do).
        let page_bytes = g.units_per_program() as u64 * UNIT_BYTES;
        let most = (drive.controller.write_buffer_bytes / page_bytes).saturating_sub(1);
        if self.max_active_zones as u64 > most {
            return refuse(
                "zoned.max_active_zones",
                format!(
                    "must be at most {} with a write buffer of {} bytes: each active zone's page waits there, {} bytes each, and one more must fit (got {})",
                    most, drive.controller.write_buffer_bytes, page_bytes, self.max_active_zones
                ),
            );
        }
        let without = |part: &str| {
            Err(ConfigError::new(
                "zoned",
                format!("a zoned drive has no {} in this version: remove it or [zoned]", part),
            ))
        };
        if drive.slc_cache.is_some() {
            return without("SLC cache ([slc_cache])");
        }
        if drive.placement.is_some() {
            return without("placement handles ([placement]); its zones use the handles' streams");
        }
        if drive.controller.compression {
            return without("compression (controller.compression): a zone's capacity is whole blocks of 4 KiB units");
        }
        if drive.map.unit_bytes != UNIT_BYTES {
            return without("map entry larger than 4 KiB (map.unit_bytes): a reset unmaps 4 KiB units");
        }
        Ok(())
    }
}
