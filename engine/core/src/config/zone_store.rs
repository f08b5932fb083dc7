//! A host log-structured store on a zoned drive (docs/design/placement.md, section 4.5): the app's
//! writes are appended to the open zone of their class, and a greedy cleaner copies the live data
//! out of the zone with the fewest live units and resets it when free zones run low.

use super::{DriveConfig, JobSpec, ZonedConfig};
use crate::units::{range, real_range, ConfigError, UNIT_BYTES};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ZoneStoreConfig {
    /// The app's data as a share of the zones' capacity (zones x `zoned.zone_capacity_bytes`): the
    /// utilisation the cleaner works at. The app's span is this many 4 KiB units.
    pub utilisation: f64,
    /// The cleaner runs when this few zones are empty (at least 1: a victim's live data may need
    /// a zone of its own before the victim is reset).
    pub free_zones: u32,
}

impl ZoneStoreConfig {
    /// The app's span, 4 KiB units.
    pub fn app_units(&self, zoned: &ZonedConfig, drive: &DriveConfig) -> u64 {
        let capacity = zoned.zones(drive) * (zoned.zone_capacity_bytes / UNIT_BYTES);
        ((capacity as f64 * self.utilisation).floor() as u64).max(1)
    }

    /// The store against the drive and its one job (field: that job's, for the job's own
    /// settings and its classes; no job: an app host's, whose classes `field` names);
    /// `classes` is the highest tag plus one.
    pub fn check(
        &self,
        drive: &DriveConfig,
        job: Option<&JobSpec>,
        field: &str,
        classes: u32,
    ) -> Result<(), ConfigError> {
        let Some(zoned) = &drive.zoned else {
            return Err(ConfigError::new(
                "zone_store",
                format!("needs a zoned drive ([zoned]): drive {} has the block interface", drive.id),
            ));
        };
        let zones = zoned.zones(drive);
        range("zone_store.free_zones", self.free_zones as u64, 1, (zones / 2).max(1))?;
        // One open zone per class and one for the cleaner.
        let most_classes = zoned.max_open_zones.saturating_sub(1);
        if classes > most_classes {
            let class_field = if job.is_some() { format!("{}.placement", field) } else { field.to_string() };
            return Err(ConfigError::new(
                class_field,
                format!(
                    "a zone store keeps an open zone per class (the app's tags) and one for its cleaner: tags 0 to {} with the drive's {} open zones (got {})",
                    most_classes as i64 - 1,
                    zoned.max_open_zones,
                    classes - 1
                ),
            ));
        }
        // When the cleaner starts (free_zones left, a partly written zone per class and the
        // cleaner's), the full zones must hold more than the app's data, so the emptiest has
        // something to gain: one zone spare.
        let spare = zones.saturating_sub(self.free_zones as u64 + classes as u64 + 2);
        let most = (spare as f64 / zones as f64 * 100.0).floor() / 100.0;
        if most < 0.01 {
            return Err(ConfigError::new(
                "zone_store.free_zones",
                format!(
                    "leaves no zone to clean: the drive has {} zones, the store keeps {} free and {} open (got {})",
                    zones,
                    self.free_zones,
                    classes + 1,
                    self.free_zones
                ),
            ));
        }
        real_range(
            "zone_store.utilisation",
            self.utilisation,
            0.01,
            most,
            &format!(
                "0.01 and {} ({} zones less {} free, {} open and one spare, of {})",
                most,
                zones,
                self.free_zones,
                classes + 1,
                zones
            ),
        )?;
        let Some(job) = job else { return Ok(()) };
        let f = |what: &str| format!("{}.{}", field, what);
        let only_writes = "a zone store's app only writes in this version";
        if job.read_percent != 0 {
            return Err(ConfigError::new(
                f("read_percent"),
                format!("must be 0: {} (got {})", only_writes, job.read_percent),
            ));
        }
        if job.trim_percent != 0 {
            return Err(ConfigError::new(
                f("trim_percent"),
                format!("must be 0: {} (got {})", only_writes, job.trim_percent),
            ));
        }
        if job.trace.is_some() {
            return Err(ConfigError::new(field, "a zone store's app is a synthetic job, not a trace"));
        }
        let most_bytes = zoned.append_max_bytes.min(zoned.zone_capacity_bytes);
        for &(bytes, _) in &job.write_sizes.entries {
            if !(bytes as u64).is_multiple_of(UNIT_BYTES) || bytes as u64 > most_bytes {
                return Err(ConfigError::new(
                    f("write_sizes"),
                    format!(
                        "must be whole 4 KiB units up to the drive's largest Zone Append ({} bytes): each app write is one append (got {})",
                        most_bytes, bytes
                    ),
                ));
            }
        }
        let align = if job.align_bytes == 0 { job.write_sizes.smallest() } else { job.align_bytes };
        if !(align as u64).is_multiple_of(UNIT_BYTES) || !job.offset_bytes.is_multiple_of(UNIT_BYTES) {
            return Err(ConfigError::new(
                f("align"),
                format!(
                    "must be whole 4 KiB units with a zone store, as must the offset (got {} and {})",
                    align, job.offset_bytes
                ),
            ));
        }
        Ok(())
    }
}
