//! Data placement: the handles a host tags its writes with (NVMe streams, or FDP's reclaim unit
//! handles), so that data of one handle never shares a block with another's. Only drives with
//! the section take tagged writes; untagged writes are handle 0 on every drive.

use serde::{Deserialize, Serialize};

use super::limits::Limit;
use super::DriveConfig;
use crate::units::{ConfigError, UNIT_BYTES};

/// The most placement handles a drive may declare (0 to 15): the FTL keeps an open block per
/// handle on every die (`drive::ftl::Stream`).
pub const MAX_HANDLES: usize = 16;

/// How the host names where data goes. Both keep an open block per handle on every die; they
/// differ in the words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlacementKind {
    /// NVMe directives: write streams.
    Streams,
    /// NVMe Flexible Data Placement: reclaim unit handles.
    Fdp,
}

impl PlacementKind {
    pub const ALL: [PlacementKind; 2] = [PlacementKind::Streams, PlacementKind::Fdp];
}

/// Where GC puts the data it relocates: FDP's two kinds of reclaim unit, "initially or
/// persistently isolated" (docs/design/placement.md, section 1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    /// Relocations of every handle share one GC stream: a handle's data is kept apart only
    /// until GC first moves it.
    #[default]
    Initial,
    /// A GC stream per handle: relocated data stays in its handle's blocks.
    Persistent,
}

impl Isolation {
    pub const ALL: [Isolation; 2] = [Isolation::Initial, Isolation::Persistent];
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacementConfig {
    pub kind: PlacementKind,
    /// Handles the drive takes: 0 (the default, untagged writes' own) to `handles - 1`.
    pub handles: u32,
    #[serde(default)]
    pub isolation: Isolation,
    /// FDP's reclaim groups: the dies split into this many equal groups, and the handles in
    /// order with them; a handle's pages (and so GC's moves of them, which stay on their die)
    /// go to its group's dies only. Handle 0 is dealt over every die, as on a drive without
    /// groups (**model**: which group takes a write without a placement identifier is the
    /// controller's choice).
    #[serde(default = "one_group")]
    pub reclaim_groups: u32,
}

fn one_group() -> u32 {
    1
}

impl PlacementConfig {
    /// `handles` handles of `kind`, initially isolated, in one reclaim group.
    pub fn new(kind: PlacementKind, handles: u32) -> Self {
        PlacementConfig { kind, handles, isolation: Isolation::Initial, reclaim_groups: 1 }
    }

    pub fn limits(&self) -> Vec<Limit> {
        vec![
            Limit::whole("placement.handles", self.handles as u64, 1, MAX_HANDLES as u64),
            Limit::whole("placement.reclaim_groups", self.reclaim_groups as u64, 1, MAX_HANDLES as u64),
        ]
    }

    /// The dies handle `tag`'s pages go to, as (first, count), on a drive of `dies` dies.
    pub fn dies_of(&self, tag: u8, dies: u32) -> (u32, u32) {
        if tag == 0 || self.reclaim_groups <= 1 {
            return (0, dies);
        }
        let group = tag as u32 / (self.handles / self.reclaim_groups);
        let per_group = dies / self.reclaim_groups;
        (group * per_group, per_group)
    }

    /// What placement needs of the rest of the drive (its room for the open blocks is in
    /// `user_bytes`' limit).
    pub fn check(&self, drive: &DriveConfig) -> Result<(), ConfigError> {
        if drive.slc_cache.is_some() {
            return Err(ConfigError::new(
                "placement",
                "a drive with placement handles has no SLC cache in this version: remove [slc_cache] or [placement]",
            ));
        }
        let groups = self.reclaim_groups;
        if groups > 1 && self.kind == PlacementKind::Streams {
            return Err(ConfigError::new(
                "placement.reclaim_groups",
                format!("must be 1 for streams (reclaim groups are FDP's) (got {})", groups),
            ));
        }
        if !self.handles.is_multiple_of(groups) {
            return Err(ConfigError::new(
                "placement.handles",
                format!(
                    "must be a multiple of placement.reclaim_groups ({}): each group takes as many handles (got {})",
                    groups, self.handles
                ),
            ));
        }
        if !drive.geometry.dies.is_multiple_of(groups) {
            return Err(ConfigError::new(
                "placement.reclaim_groups",
                format!("must divide the drive's {} dies (got {})", drive.geometry.dies, groups),
            ));
        }
        // Each handle's page waits in the write buffer for more of its data, and one more page
        // must find room for the buffer to move.
        let page_bytes = drive.geometry.units_per_program() as u64 * UNIT_BYTES;
        let buffer = drive.controller.write_buffer_bytes;
        let most = (buffer / page_bytes).saturating_sub(1);
        if (self.handles as u64) > most {
            return Err(ConfigError::new(
                "placement.handles",
                format!(
                    "must be at most {} with a write buffer of {} bytes: each handle's page waits there, {} bytes each, and one more must fit (got {})",
                    most, buffer, page_bytes, self.handles
                ),
            ));
        }
        Ok(())
    }

    /// Open blocks each die keeps: one per handle for host data, and GC's (one, or one per
    /// handle with persistent isolation).
    pub fn open_streams(placement: Option<&PlacementConfig>) -> u64 {
        match placement {
            None => 2,
            Some(p) if p.isolation == Isolation::Persistent => 2 * p.handles as u64,
            Some(p) => p.handles as u64 + 1,
        }
    }
}
