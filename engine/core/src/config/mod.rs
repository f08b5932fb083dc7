//! Configuration as plain data at the bottom of the engine: a drive as one section per part, each
//! with its own check naming the field and its allowed range; a run; parameter overrides by path;
//! and the presets, loaded from data files (one per drive, in `engine/core/presets/`).
//!
//! Nothing here imports the model: parts above read these structs, never the other way round.

mod app;
mod controller;
mod gc;
mod host;
mod job;
pub mod limits;
mod map;
mod nand;
mod overrides;
mod placement;
mod power;
pub mod presets;
pub mod raid;
mod run;
mod slc_cache;
mod thermal;
mod trace;
mod workload;
mod zone_store;
mod zoned;

use serde::{Deserialize, Serialize};

pub use app::{AppConfig, AppKind, L0_TRIGGER, LEVEL_MULTIPLIER, LSM_LEVELS, ROCKSDB_FILE_BYTES, ROCKSDB_L1_BYTES};
pub use controller::Controller;
pub use gc::{GcConfig, GcPacing, WearConfig};
pub use host::{HostInterface, Protocol, NCQ_DEPTH};
pub use job::{parse_size, BlockSizes, Distribution, JobSpec, Phase, Placement, Zone, ZoneMode};
pub use map::{MapConfig, MapScheme};
pub use nand::{CellType, Endurance, NandConfig, NandGeometry, NandTiming};
pub use overrides::{apply_parameters, parameter_paths, parameter_values, set_parameter};
pub use placement::{Isolation, PlacementConfig, PlacementKind, MAX_HANDLES};
pub use power::PowerConfig;
pub use raid::RaidConfig;
pub use run::{Precondition, RunConfig, MIN_SPAN};
pub use slc_cache::{SlcCacheConfig, WhenFull};
pub use thermal::{Cooling, ThermalConfig};
pub use trace::{Trace, TraceRecord};
pub use workload::{Pattern, WorkloadSpec, MODELS, WORKLOADS};
pub use zone_store::ZoneStoreConfig;
pub use zoned::{ZonedConfig, MAX_ACTIVE_ZONES};

pub use crate::units::{ConfigError, MAX_SECONDS, SECTOR_BYTES, UNIT_BYTES};
use limits::{check_limits, Limit};

/// A whole drive: everything the model needs to know about one product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriveConfig {
    pub id: String,
    pub name: String,
    /// Capacity the vendor advertises, bytes (decimal GB on the box).
    pub advertised_bytes: u64,
    /// Logical capacity exposed to the host, bytes.
    pub user_bytes: u64,
    /// Datasheet steady-state 4 KB random write IOPS, for comparison only (never used by the model).
    pub spec_random_write_iops: u64,
    pub host: HostInterface,
    pub controller: Controller,
    pub geometry: NandGeometry,
    pub nand: NandConfig,
    pub timing: NandTiming,
    pub endurance: Endurance,
    pub gc: GcConfig,
    pub power: PowerConfig,
    pub map: MapConfig,
    pub wear: WearConfig,
    /// An SLC cache (TLC and QLC drives); None: every block written natively.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slc_cache: Option<SlcCacheConfig>,
    /// Placement handles the host may tag writes with (streams, FDP); None: untagged only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<PlacementConfig>,
    /// A zoned namespace (ZNS): zones written sequentially and reset by the host; None: the
    /// conventional block interface.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zoned: Option<ZonedConfig>,
    /// Heat and throttling; None: the drive never heats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thermal: Option<ThermalConfig>,
}

impl DriveConfig {
    /// FTL blocks per die in service: the geometry's less the firmware's reserve
    /// (`gc.reserved_percent`). The FTL numbers and uses only these.
    pub fn blocks_in_service_per_die(&self) -> u32 {
        self.gc.blocks_in_service(self.geometry.blocks_per_die())
    }

    pub fn user_units(&self) -> u64 {
        self.user_bytes / UNIT_BYTES
    }

    /// Rated host bytes written over the warranty (JESD218 arithmetic [001]).
    pub fn rated_tbw_bytes(&self) -> u64 {
        self.endurance.rated_tbw_bytes(self.advertised_bytes)
    }

    /// Loads `cell`'s typical timings and P/E limit, except the paths listed in `keep`
    /// (parameters the user set explicitly alongside the cell).
    pub fn set_cell(&mut self, cell: CellType, keep: &[&str]) {
        self.nand.cell = cell;
        let (read_ns, program_ns, erase_ns) = cell.typical_timing_ns();
        let kept = |p: &str| keep.contains(&p);
        if !kept("timing.read_ns") {
            self.timing.read_ns = read_ns;
        }
        if !kept("timing.program_ns") {
            self.timing.program_ns = program_ns;
        }
        if !kept("timing.erase_ns") {
            self.timing.erase_ns = erase_ns;
        }
        if !kept("endurance.pe_cycles") {
            self.endurance.pe_cycles = cell.typical_pe_cycles();
        }
        // Page types belong to the cell: another cell has other ones.
        if !kept("timing.program_ns_by_page") {
            self.timing.program_ns_by_page.clear();
        }
        if !kept("timing.read_ns_by_page") {
            self.timing.read_ns_by_page.clear();
        }
    }
    /// Every number's limits for this drive, in the order `validate` checks them (a limit that
    /// follows from other parameters is computed from this drive's values of them).
    pub fn limits(&self) -> Vec<Limit> {
        let g = &self.geometry;
        let mut all = g.limits();
        all.extend([self.gc.reserved_limit(), self.user_bytes_limit()]);
        all.extend(self.host.limits());
        all.extend(self.controller.limits(g));
        all.extend(self.timing.limits());
        all.extend(self.endurance.limits());
        all.extend(self.wear.limits());
        all.extend(self.gc.limits(g.blocks_per_die()));
        all.extend(self.map.limits(g));
        all.extend(self.power.limits());
        if let Some(cache) = &self.slc_cache {
            all.retain(|l| l.path != "timing.slc_program_ns");
            all.push(SlcCacheConfig::slc_program_limit(self));
            all.extend(cache.limits(self));
        }
        if let Some(placement) = &self.placement {
            all.extend(placement.limits());
        }
        if let Some(zoned) = &self.zoned {
            all.extend(zoned.limits(self));
        }
        all.extend(self.thermal.iter().flat_map(ThermalConfig::limits));
        all
    }

    /// GC needs its start threshold and open blocks per die beyond the user's data: GC's and the
    /// host's (per placement handle: `PlacementConfig::open_streams`); on a zoned drive, what its
    /// zones' capacity leaves (`ZonedConfig::max_user_bytes`). The firmware's reserved blocks
    /// (gc.reserved_percent) hold none of them.
    fn user_bytes_limit(&self) -> Limit {
        let g = &self.geometry;
        let reserved = self.gc.reserved_blocks(g.blocks_per_die()) as u64;
        // A zone's LBAs past its capacity hold nothing, so on a zoned drive the flash bounds the
        // zones' capacity, not the LBA space (a ZN540's zone is 2 GiB of LBAs, ~1 GiB writable).
        if let Some(z) = &self.zoned {
            return Limit::whole("user_bytes", self.user_bytes, UNIT_BYTES, z.max_user_bytes(self));
        }
        let open = PlacementConfig::open_streams(self.placement.as_ref());
        let gc_reserve_units =
            (self.gc.start_free_blocks as u64 + open + reserved) * g.dies as u64 * g.units_per_block() as u64;
        let max_user = g.raw_bytes().saturating_sub(gc_reserve_units * UNIT_BYTES);
        Limit::whole("user_bytes", self.user_bytes, UNIT_BYTES, max_user)
    }

    /// The sections' limits (`limits`) and their other rules, geometry first: the other
    /// sections' limits follow from it.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let g = &self.geometry;
        g.check()?;
        // The handles first: the room user_bytes leaves depends on them.
        if let Some(placement) = &self.placement {
            check_limits(&placement.limits())?;
            placement.check(self)?;
        }
        // The zones too: user_bytes leaves room for an open block per active zone.
        if let Some(zoned) = &self.zoned {
            check_limits(&zoned.limits(self))?;
            zoned.check(self)?;
        }
        check_limits(&[self.gc.reserved_limit(), self.user_bytes_limit()])?;
        self.host.check()?;
        self.controller.check(g)?;
        if self.slc_cache.is_some() {
            check_limits(&[SlcCacheConfig::slc_program_limit(self)])?;
        }
        self.timing.check(self.nand.cell, g)?;
        check_limits(&self.endurance.limits())?;
        check_limits(&self.wear.limits())?;
        self.gc.check(g.blocks_per_die())?;
        self.map.check(g)?;
        check_limits(&self.power.limits())?;
        if let Some(cache) = &self.slc_cache {
            cache.check(self)?;
        }
        match &self.thermal {
            Some(thermal) => thermal.check(self.host.link_mb_s),
            None => Ok(()),
        }
    }
}
