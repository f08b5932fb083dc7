//! Run and drive configuration, with validation that names the field and its allowed range.

use serde::{Deserialize, Serialize};

use crate::mapping::{MapConfig, MapScheme};
use crate::workload::WorkloadSpec;
use std::fmt;

/// Bytes in one mapping unit: the FTL maps logical 4 KiB units to physical 4 KiB slots.
pub const UNIT_BYTES: u64 = 4096;
/// Bytes in one host sector: request sizes and offsets are whole sectors.
pub const SECTOR_BYTES: u32 = 512;

/// A configuration error: which field, and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub field: String,
    pub message: String,
}

impl ConfigError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// How garbage collection is spread over time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GcPacing {
    /// Spread GC evenly over host writes: every host page programmed on a die earns that die
    /// just enough victim scanning to break even on free blocks (S3700-style flat line).
    ConsistencyFirst,
    /// Collect only when a die has run out of free blocks, then all at once (P400e-style wall).
    Lazy,
}

/// Which closed block garbage collection takes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GcVictim {
    /// The block with the fewest valid units: least work now.
    Greedy,
    /// The block with the best (1 - u) x age / (1 + u): lets hot data invalidate first.
    CostBenefit,
    /// The block closed longest ago, whatever it holds.
    Fifo,
}

/// The kind of NAND cell: how many bits each cell stores, which sets how fast it programs and
/// how many program/erase cycles it survives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CellType {
    /// One bit per cell: fastest program, longest life.
    Slc,
    /// Two bits per cell (consumer grade).
    Mlc,
    /// High-endurance MLC (Intel HET): two bits per cell programmed more gently, slower than
    /// consumer MLC but with about ten times its cycles [000, 001].
    HetMlc,
    /// Three bits per cell: slowest program, shortest life.
    Tlc,
}

impl CellType {
    /// Typical array timings of this cell type for a 25-20 nm planar part: read, program, erase
    /// (typical datasheet values, not from the articles, except HET-MLC, which is the S3700
    /// preset's). The channel rate belongs to the bus, not the cell, so it is left as given.
    pub fn typical_timing_ns(self) -> (u64, u64, u64) {
        match self {
            Self::Slc => (25_000, 300_000, 2_000_000),
            Self::Mlc => (50_000, 1_300_000, 3_000_000),
            Self::HetMlc => (50_000, 1_900_000, 3_000_000),
            Self::Tlc => (75_000, 2_500_000, 5_000_000),
        }
    }

    /// Typical program/erase-cycle limit: SLC ~100K; 25 nm consumer MLC ~3K; HET-MLC ~30K
    /// (Intel's figure for its 25 nm high-endurance MLC, 10x its consumer MLC); planar TLC ~1K.
    /// Typical published values, not from the articles.
    pub fn typical_pe_cycles(self) -> u32 {
        match self {
            Self::Slc => 100_000,
            Self::Mlc => 3_000,
            Self::HetMlc => 30_000,
            Self::Tlc => 1_000,
        }
    }
}

/// What the NAND is made of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NandConfig {
    /// Setting this with `--set` also loads the cell's typical `timing.read_ns`, `program_ns`,
    /// `erase_ns` and `endurance.pe_cycles`, unless those are set in the same request.
    pub cell: CellType,
}

/// How long the NAND lasts and what the vendor rates the drive for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Endurance {
    /// Erases a block survives: at this count it is retired (never used again).
    pub pe_cycles: u32,
    /// Rated drive writes per day over the warranty (JESD218 workload) [001].
    pub drive_writes_per_day: f64,
    pub warranty_years: u32,
}

impl Endurance {
    /// Rated terabytes written as JESD218 ratings are quoted [001]: drive writes per day x 365 x
    /// years x advertised capacity, bytes.
    pub fn rated_tbw_bytes(&self, advertised_bytes: u64) -> u64 {
        (self.drive_writes_per_day * 365.0 * self.warranty_years as f64 * advertised_bytes as f64).round() as u64
    }

    /// Host bytes the NAND can absorb before every block reaches its P/E limit, at write
    /// amplification `wa`: raw capacity x P/E cycles / WA.
    pub fn nand_limited_tbw_bytes(&self, raw_bytes: u64, wa: f64) -> u64 {
        if !(wa >= 1.0) {
            return 0;
        }
        (raw_bytes as f64 * self.pe_cycles as f64 / wa).round() as u64
    }
}

/// Wear levelling: spreading erases over the blocks so none reaches its P/E limit early.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WearConfig {
    /// Dynamic: a die opening a block takes its least-worn free block (fewest erases) rather
    /// than the one freed last.
    pub dynamic: bool,
    /// Static: every `static_every_erases` erases on a die, if the die's erase-count spread
    /// (max - min over its blocks in service) exceeds `static_spread_threshold`, the die's
    /// closed block with the fewest erases (cold data) is relocated by GC, so it is reused.
    #[serde(rename = "static")]
    pub static_levelling: bool,
    pub static_every_erases: u32,
    pub static_spread_threshold: u32,
}

/// NAND array timings, per operation, in nanoseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NandTiming {
    /// Array read of one page (tR), ns.
    pub read_ns: u64,
    /// Array program of one (multi-plane) page (tPROG), ns.
    pub program_ns: u64,
    /// Erase of one (multi-plane) block (tBERS), ns.
    pub erase_ns: u64,
    /// Channel bus rate between controller and dies, bytes per microsecond (= MB/s).
    pub channel_mb_s: u64,
}

/// The geometry of the NAND array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NandGeometry {
    pub channels: u32,
    pub dies: u32,
    /// Planes per die that program and erase together (multi-plane operations).
    pub planes: u32,
    pub page_bytes: u32,
    pub pages_per_block: u32,
    /// Erase blocks per plane.
    pub blocks_per_plane: u32,
}

impl NandGeometry {
    pub fn units_per_page(&self) -> u32 {
        (self.page_bytes as u64 / UNIT_BYTES) as u32
    }
    /// 4 KiB units written by one multi-plane program operation.
    pub fn units_per_program(&self) -> u32 {
        self.units_per_page() * self.planes
    }
    /// 4 KiB units in one FTL block (a multi-plane block: the same block in every plane of a die).
    pub fn units_per_block(&self) -> u32 {
        self.units_per_program() * self.pages_per_block
    }
    /// FTL blocks (multi-plane blocks) per die.
    pub fn blocks_per_die(&self) -> u32 {
        self.blocks_per_plane
    }
    pub fn total_blocks(&self) -> u64 {
        self.dies as u64 * self.blocks_per_die() as u64
    }
    pub fn raw_units(&self) -> u64 {
        self.total_blocks() * self.units_per_block() as u64
    }
    pub fn raw_bytes(&self) -> u64 {
        self.raw_units() * UNIT_BYTES
    }
}

/// The host link and command protocol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostInterface {
    /// Human-readable name, e.g. "SATA 6Gb/s".
    pub name: String,
    /// Submission/completion queue pairs the drive offers (AHCI: 1; NVMe: many, one per host
    /// core, so cores never contend for a queue lock).
    pub queues: u32,
    /// Commands each queue holds (NCQ: 32).
    pub max_queue_depth: u32,
    /// Payload rate of the link, MB/s (bytes per microsecond).
    pub link_mb_s: u64,
    /// Fixed link time per command (command, status and data frame headers), ns.
    pub link_overhead_ns: u64,
    /// Host CPU cycles spent per IO by the storage stack (AHCI ~27,000, NVMe ~10,000) [003].
    pub host_cpu_cycles_per_io: u64,
}

impl HostInterface {
    /// Commands the drive holds at once when the host keeps `queue_depth` outstanding, spread
    /// evenly over as many queues as it may use; the rest wait in the host.
    pub fn accepted_commands(&self, queue_depth: u32) -> u32 {
        let queues = queue_depth.min(self.queues).max(1);
        let (each, extra) = (queue_depth / queues, queue_depth % queues);
        (0..queues).map(|q| (each + (q < extra) as u32).min(self.max_queue_depth)).sum()
    }
}

/// Controller costs and buffers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Controller {
    /// Controller firmware time per host write command, ns (one command at a time).
    pub write_overhead_ns: u64,
    /// Controller firmware time per host read command, ns (one command at a time).
    pub read_overhead_ns: u64,
    /// Pipelined latency a read's data spends in the controller (ECC decode, DMA), ns; it
    /// delays each read but does not occupy the controller.
    pub read_latency_ns: u64,
    /// Write buffer that acknowledges host writes before they are programmed, bytes.
    pub write_buffer_bytes: u64,
    /// Compress each 4 KiB unit before it is programmed (SandForce, in the Intel 330 and 520
    /// [000]): compressible data takes fewer NAND slots, so fewer pages are programmed.
    pub compression: bool,
    /// Granularity a compressed unit is stored at, bytes (512 to 4096, a power of two). Finer
    /// slots pack tighter but need a larger reverse map (4 bytes per slot).
    pub compression_slot_bytes: u32,
}

impl Controller {
    /// NAND slots per 4 KiB unit: 1 without compression.
    pub fn slots_per_unit(&self) -> u32 {
        if self.compression {
            (UNIT_BYTES / self.compression_slot_bytes.max(1) as u64) as u32
        } else {
            1
        }
    }
}

/// Garbage-collection policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GcConfig {
    pub victim: GcVictim,
    pub pacing: GcPacing,
    /// A die starts collecting when its free blocks fall to this many.
    pub start_free_blocks: u32,
    /// A die collects synchronously (host writes wait) when its free blocks fall to this many.
    pub min_free_blocks: u32,
    /// Consistency-first pacing: victim scanning per host page as a percentage of the rate that
    /// exactly breaks even on free blocks. Below 100 the free pool slowly drains...
    pub paced_percent: u32,
    /// ...until the drive-wide average of free blocks per die falls to `boost_below_free_blocks`;
    /// then every die collects at `boost_percent` until the average is back at
    /// `boost_until_free_blocks`. This hysteresis is the periodic heavier clean-up the S3700
    /// shows as a dip every ~150 s [000].
    pub boost_percent: u32,
    pub boost_below_free_blocks: u32,
    pub boost_until_free_blocks: u32,
    /// Background collection: while the host is idle, each die collects until it has this many
    /// free blocks (0: no background collection).
    pub background_free_blocks: u32,
}

/// Power-loss protection and the write buffer's durability [000].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PowerConfig {
    /// The drive has a capacitor bank that can flush the buffer on power loss.
    pub capacitors: bool,
    /// Total capacitance, microfarads (the S3700: two 47 uF).
    pub capacitance_uf: u64,
    /// Voltage the bank is charged to, millivolts (the S3700's are 35 V parts).
    pub charge_mv: u64,
    /// Voltage below which the regulators can no longer run the drive, millivolts.
    pub cutoff_mv: u64,
    /// Power the drive draws while flushing, milliwatts (the S3700: up to 6 W active).
    pub flush_power_mw: u64,
    /// Without healthy capacitors, acknowledge writes from the buffer anyway (a consumer drive's
    /// volatile write cache); otherwise the drive writes through.
    pub volatile_cache: bool,
    /// Seconds between capacitor self-tests.
    pub self_test_interval_s: u32,
    /// Simulated second at which the capacitor bank fails (0: never); the next self-test finds it,
    /// turns write buffering off and raises the SMART flag.
    pub capacitor_fails_at_s: u32,
}

impl PowerConfig {
    /// Energy the bank delivers between charge and cutoff, microjoules: C (V^2 - Vmin^2) / 2.
    pub fn stored_energy_uj(&self) -> u64 {
        if !self.capacitors {
            return 0;
        }
        let v2 = |mv: u64| mv as u128 * mv as u128; // mV^2
        // uF x mV^2 = 1e-6 F x 1e-6 V^2 = 1e-12 J; / 1e6 -> uJ.
        (self.capacitance_uf as u128 * (v2(self.charge_mv) - v2(self.cutoff_mv)) / 2 / 1_000_000) as u64
    }
}

/// A whole drive: everything the model needs to know about one product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

impl DriveConfig {
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
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        let g = &self.geometry;
        range("geometry.channels", g.channels as u64, 1, 64)?;
        range("geometry.dies", g.dies as u64, g.channels as u64, 4096)?;
        range("geometry.planes", g.planes as u64, 1, 8)?;
        if g.page_bytes as u64 % UNIT_BYTES != 0 || g.page_bytes == 0 {
            return Err(ConfigError::new(
                "geometry.page_bytes",
                format!("must be a positive multiple of 4096 (got {})", g.page_bytes),
            ));
        }
        range("geometry.page_bytes", g.page_bytes as u64, 4096, 65536)?;
        range("geometry.pages_per_block", g.pages_per_block as u64, 4, 4096)?;
        if g.units_per_block() > u16::MAX as u32 {
            return Err(ConfigError::new(
                "geometry.pages_per_block",
                format!(
                    "a block may hold at most 65535 4 KiB units (got {} with these pages, planes and page size)",
                    g.units_per_block()
                ),
            ));
        }
        range("geometry.blocks_per_plane", g.blocks_per_plane as u64, 8, 1 << 20)?;
        if g.raw_units() >= u32::MAX as u64 {
            return Err(ConfigError::new(
                "geometry",
                "raw capacity must stay under 16 TiB (2^32 4 KiB units)".to_string(),
            ));
        }
        let raw = g.raw_bytes();
        let gc_reserve_units =
            (self.gc.start_free_blocks as u64 + 2) * g.dies as u64 * g.units_per_block() as u64;
        let max_user = raw.saturating_sub(gc_reserve_units * UNIT_BYTES);
        range("user_bytes", self.user_bytes, UNIT_BYTES, max_user)?;
        range("host.queues", self.host.queues as u64, 1, 65535)?;
        range("host.max_queue_depth", self.host.max_queue_depth as u64, 1, 65536)?;
        range("host.link_mb_s", self.host.link_mb_s, 1, 1_000_000)?;
        range("host.link_overhead_ns", self.host.link_overhead_ns, 0, 1_000_000)?;
        range("host.host_cpu_cycles_per_io", self.host.host_cpu_cycles_per_io, 0, 10_000_000)?;
        range("controller.write_overhead_ns", self.controller.write_overhead_ns, 0, 10_000_000)?;
        range("controller.read_overhead_ns", self.controller.read_overhead_ns, 0, 10_000_000)?;
        range("controller.read_latency_ns", self.controller.read_latency_ns, 0, 10_000_000)?;
        let per_program = g.units_per_program() as u64 * UNIT_BYTES;
        range("controller.write_buffer_bytes", self.controller.write_buffer_bytes, per_program, 1 << 32)?;
        let slot = self.controller.compression_slot_bytes;
        if !(512..=4096).contains(&slot) || !slot.is_power_of_two() {
            return Err(ConfigError::new(
                "controller.compression_slot_bytes",
                format!("must be 512, 1024, 2048 or 4096 (got {})", slot),
            ));
        }
        if g.units_per_block() as u64 * self.controller.slots_per_unit() as u64 > u16::MAX as u64 {
            return Err(ConfigError::new(
                "controller.compression_slot_bytes",
                format!(
                    "a block may hold at most 65535 slots (got {} with {}-byte slots): use larger slots",
                    g.units_per_block() as u64 * self.controller.slots_per_unit() as u64,
                    slot
                ),
            ));
        }
        range("timing.read_ns", self.timing.read_ns, 1, 100_000_000)?;
        range("timing.program_ns", self.timing.program_ns, 1, 100_000_000)?;
        range("timing.erase_ns", self.timing.erase_ns, 1, 1_000_000_000)?;
        range("timing.channel_mb_s", self.timing.channel_mb_s, 1, 100_000)?;
        range("endurance.pe_cycles", self.endurance.pe_cycles as u64, 1, 1_000_000)?;
        let dwpd = self.endurance.drive_writes_per_day;
        if !(dwpd >= 0.01 && dwpd <= 100.0) {
            return Err(ConfigError::new(
                "endurance.drive_writes_per_day",
                format!("must be between 0.01 and 100 (got {})", dwpd),
            ));
        }
        range("endurance.warranty_years", self.endurance.warranty_years as u64, 1, 20)?;
        range("wear.static_every_erases", self.wear.static_every_erases as u64, 1, 1_000_000)?;
        range("wear.static_spread_threshold", self.wear.static_spread_threshold as u64, 1, 1_000_000)?;
        range("gc.min_free_blocks", self.gc.min_free_blocks as u64, 2, g.blocks_per_die() as u64 / 4)?;
        range(
            "gc.start_free_blocks",
            self.gc.start_free_blocks as u64,
            self.gc.min_free_blocks as u64,
            g.blocks_per_die() as u64 / 2,
        )?;
        if self.map.scheme == MapScheme::Cached {
            range("map.cache_bytes", self.map.cache_bytes, g.page_bytes as u64, 1 << 36)?;
        }
        let unit = self.map.unit_bytes;
        if unit % UNIT_BYTES != 0 || !(unit / UNIT_BYTES).is_power_of_two() || unit > g.units_per_program() as u64 * UNIT_BYTES {
            return Err(ConfigError::new(
                "map.unit_bytes",
                format!(
                    "must be 4096 times a power of two, at most one multi-plane page ({} bytes) (got {})",
                    g.units_per_program() as u64 * UNIT_BYTES,
                    unit
                ),
            ));
        }
        range("map.tree_leaf_entries", self.map.tree_leaf_entries as u64, 16, 65536)?;
        range("map.tree_clean_dirty_leaves", self.map.tree_clean_dirty_leaves as u64, 1, 1 << 24)?;
        range("map.tree_clean_ns_per_leaf", self.map.tree_clean_ns_per_leaf, 0, 100_000_000)?;
        let p = &self.power;
        range("power.capacitance_uf", p.capacitance_uf, 0, 1_000_000)?;
        range("power.charge_mv", p.charge_mv, 0, 100_000)?;
        range("power.cutoff_mv", p.cutoff_mv, 0, p.charge_mv)?;
        range("power.flush_power_mw", p.flush_power_mw, 1, 100_000)?;
        range("power.self_test_interval_s", p.self_test_interval_s as u64, 1, MAX_SECONDS as u64)?;
        range("gc.background_free_blocks", self.gc.background_free_blocks as u64, 0, g.blocks_per_die() as u64 / 2)?;
        range("gc.paced_percent", self.gc.paced_percent as u64, 10, 1000)?;
        range("gc.boost_percent", self.gc.boost_percent as u64, 100, 1000)?;
        range(
            "gc.boost_below_free_blocks",
            self.gc.boost_below_free_blocks as u64,
            self.gc.min_free_blocks as u64,
            self.gc.start_free_blocks as u64,
        )?;
        range(
            "gc.boost_until_free_blocks",
            self.gc.boost_until_free_blocks as u64,
            self.gc.boost_below_free_blocks as u64,
            self.gc.start_free_blocks as u64,
        )?;
        Ok(())
    }
}

/// One run: a drive, a workload and how long.
#[derive(Debug, Clone, PartialEq)]
pub struct RunConfig {
    pub drive: DriveConfig,
    pub workload: WorkloadSpec,
    /// Bytes per request (a multiple of 512).
    pub block_bytes: u32,
    /// Random requests start at multiples of this many bytes (a multiple of 512).
    pub align_bytes: u32,
    /// How much the written data shrinks under compression: 0 (random data, the articles'
    /// tests) to 0.9. Matters only to a compressing controller.
    pub compressibility: f64,
    /// Simulated seconds to run.
    pub seconds: u32,
    /// Fraction of the user LBA span that is filled and tested; the rest stays unwritten and
    /// so acts as extra spare area (the articles' partition trick).
    pub span: f64,
    /// Host queue depth (outstanding commands the host keeps issued).
    pub queue_depth: u32,
    pub seed: u64,
    /// Moments at which power is cut, ns since the test began, ascending.
    pub power_cuts_ns: Vec<u64>,
    /// Fraction of the filled span TRIMmed after the fill (the workload runs over the rest).
    pub trim_fraction: f64,
    /// The host alternates `burst_s` seconds of work with `idle_s` seconds of nothing
    /// (idle_s = 0: it never rests).
    pub burst_s: u32,
    pub idle_s: u32,
}

pub const MAX_SECONDS: u32 = 1_000_000;
pub const MIN_SPAN: f64 = 0.01;

impl RunConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.drive.validate()?;
        range("seconds", self.seconds as u64, 1, MAX_SECONDS as u64)?;
        if !(self.span >= MIN_SPAN && self.span <= 1.0) {
            return Err(ConfigError::new(
                "span",
                format!("must be between {} and 1.0 (got {})", MIN_SPAN, self.span),
            ));
        }
        range("queue_depth", self.queue_depth as u64, 1, 65536)?;
        let end_ns = self.seconds as u64 * 1_000_000_000;
        for &at in &self.power_cuts_ns {
            if at == 0 || at >= end_ns {
                return Err(ConfigError::new(
                    "power_cuts_s",
                    format!("each cut must fall inside the run, between 0 and {} s (got {} s)", self.seconds, at as f64 / 1e9),
                ));
            }
        }
        range("idle_s", self.idle_s as u64, 0, MAX_SECONDS as u64)?;
        if !(self.trim_fraction >= 0.0 && self.trim_fraction <= 0.99) {
            return Err(ConfigError::new(
                "trim_fraction",
                format!("must be between 0 and 0.99 (got {})", self.trim_fraction),
            ));
        }
        if self.idle_s > 0 {
            range("burst_s", self.burst_s as u64, 1, MAX_SECONDS as u64)?;
        }
        if self.power_cuts_ns.windows(2).any(|w| w[0] > w[1]) {
            return Err(ConfigError::new("power_cuts_s", "must be in ascending order"));
        }
        for (field, value) in [("block_bytes", self.block_bytes), ("align_bytes", self.align_bytes)] {
            if value % SECTOR_BYTES != 0 {
                return Err(ConfigError::new(field, format!("must be a multiple of 512 (got {})", value)));
            }
        }
        let span_bytes = self.workload_units() * UNIT_BYTES;
        range("block_bytes", self.block_bytes as u64, SECTOR_BYTES as u64, span_bytes.min(1 << 20))?;
        range("align_bytes", self.align_bytes as u64, SECTOR_BYTES as u64, span_bytes)?;
        if !(self.compressibility >= 0.0 && self.compressibility <= 0.9) {
            return Err(ConfigError::new(
                "compressibility",
                format!("must be between 0 (incompressible) and 0.9 (got {})", self.compressibility),
            ));
        }
        Ok(())
    }

    /// Logical 4 KiB units that are filled.
    pub fn span_units(&self) -> u64 {
        ((self.drive.user_units() as f64 * self.span).round() as u64).max(1)
    }

    /// Logical 4 KiB units the workload runs over: the filled span less what was trimmed.
    pub fn workload_units(&self) -> u64 {
        ((self.span_units() as f64 * (1.0 - self.trim_fraction)).round() as u64).max(1)
    }
}

pub(crate) fn range(field: &str, value: u64, min: u64, max: u64) -> Result<(), ConfigError> {
    if value < min || value > max {
        Err(ConfigError::new(field, format!("must be between {} and {} (got {})", min, max, value)))
    } else {
        Ok(())
    }
}

/// A run request as it arrives from the CLI, a JSON file or the browser: names, not structs.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    pub drive: String,
    #[serde(default = "default_workload")]
    pub workload: String,
    #[serde(default = "default_seconds")]
    pub seconds: u32,
    #[serde(default = "default_span")]
    pub span: f64,
    /// Host queue depth; the workload's default if absent.
    #[serde(default)]
    pub queue_depth: Option<u32>,
    /// Bytes per request; the workload's default if absent.
    #[serde(default)]
    pub block_bytes: Option<u32>,
    /// Alignment of random requests, bytes; the block size if absent.
    #[serde(default)]
    pub align_bytes: Option<u32>,
    /// How much the data shrinks under compression (0 to 0.9).
    #[serde(default)]
    pub compressibility: f64,
    /// Seconds into the test at which power is cut.
    #[serde(default)]
    pub power_cuts_s: Vec<f64>,
    /// Fraction of the filled span to TRIM after the fill.
    #[serde(default)]
    pub trim_fraction: f64,
    /// Seconds of work between idle periods (with `idle_s`).
    #[serde(default)]
    pub burst_s: u32,
    /// Seconds the host rests after each burst (0: never).
    #[serde(default)]
    pub idle_s: u32,
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Drive parameters to override, by path into the drive config, e.g.
    /// `{"timing.program_ns": 1500000, "gc.pacing": "lazy"}`.
    #[serde(default)]
    pub set: std::collections::BTreeMap<String, serde_json::Value>,
}

fn default_workload() -> String {
    "consistency".into()
}
fn default_seconds() -> u32 {
    2000
}
fn default_span() -> f64 {
    1.0
}
fn default_seed() -> u64 {
    1
}

impl RunRequest {
    /// Parses a JSON request; errors name the offending field and what it accepts.
    pub fn from_json(text: &str) -> Result<Self, ConfigError> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| ConfigError::new("config", format!("is not valid JSON ({})", e)))?;
        let obj = value
            .as_object()
            .ok_or_else(|| ConfigError::new("config", "must be a JSON object like {\"drive\":\"s3700-200\"}"))?;
        const KNOWN: [(&str, &str); 14] = [
            ("drive", "a drive id"),
            ("workload", "a workload name"),
            ("seconds", "a whole number of seconds"),
            ("span", "a fraction between 0.01 and 1.0"),
            ("queue_depth", "a whole number"),
            ("block_bytes", "a whole number of bytes, a multiple of 512"),
            ("align_bytes", "a whole number of bytes, a multiple of 512"),
            ("compressibility", "a fraction between 0 and 0.9"),
            ("power_cuts_s", "a list of seconds, e.g. [700.5, 1200]"),
            ("burst_s", "a whole number of seconds"),
            ("trim_fraction", "a fraction between 0 and 0.99"),
            ("idle_s", "a whole number of seconds"),
            ("seed", "a whole number from 0 to 2^64-1"),
            ("set", "an object of parameter paths and values"),
        ];
        for (key, v) in obj {
            let Some((_, expected)) = KNOWN.iter().find(|(k, _)| k == key) else {
                let names: Vec<&str> = KNOWN.iter().map(|(k, _)| *k).collect();
                return Err(ConfigError::new(key, format!("unknown setting (allowed: {})", names.join(", "))));
            };
            // Deserialize each field alone so a type error names its field.
            let one = serde_json::json!({ key.as_str(): v, "drive": obj.get("drive").cloned().unwrap_or("x".into()) });
            if let Err(_) = serde_json::from_value::<RunRequest>(one) {
                return Err(ConfigError::new(key, format!("must be {} (got {})", expected, v)));
            }
        }
        if !obj.contains_key("drive") {
            return Err(ConfigError::new("drive", "is required"));
        }
        serde_json::from_value(value.clone()).map_err(|e| ConfigError::new("config", e.to_string()))
    }

    pub fn resolve(&self) -> Result<RunConfig, ConfigError> {
        let preset = crate::presets::by_id(&self.drive)?;
        let drive = apply_parameters(&preset, self.set.iter().map(|(k, v)| (k.as_str(), v.clone())))?;
        let workload = WorkloadSpec::by_id(&self.workload)?;
        let block_bytes = self.block_bytes.unwrap_or(workload.block_bytes);
        let cfg = RunConfig {
            drive,
            workload,
            block_bytes,
            align_bytes: self.align_bytes.unwrap_or(block_bytes),
            compressibility: self.compressibility,
            seconds: self.seconds,
            span: self.span,
            queue_depth: self.queue_depth.unwrap_or(workload.queue_depth),
            seed: self.seed,
            power_cuts_ns: self
                .power_cuts_s
                .iter()
                .map(|&s| if s.is_finite() && s > 0.0 { (s * 1e9).round() as u64 } else { 0 })
                .collect(),
            trim_fraction: self.trim_fraction,
            burst_s: self.burst_s,
            idle_s: self.idle_s,
        };
        cfg.validate()?;
        Ok(cfg)
    }
}

/// Returns `drive` with the parameter at `path` (dot-separated, e.g. `timing.program_ns`)
/// replaced by `value`. Errors name the path and what it accepts.
pub fn set_parameter(drive: &DriveConfig, path: &str, value: serde_json::Value) -> Result<DriveConfig, ConfigError> {
    apply_parameters(drive, [(path, value)])
}

/// Applies every override, then validates the result once (so parameters that constrain each
/// other, like geometry and user capacity, can change together).
pub fn apply_parameters<'a>(
    drive: &DriveConfig,
    overrides: impl IntoIterator<Item = (&'a str, serde_json::Value)>,
) -> Result<DriveConfig, ConfigError> {
    let mut tree = serde_json::to_value(drive).expect("a drive config serialises");
    let overrides: Vec<(&str, serde_json::Value)> = overrides.into_iter().collect();
    let paths: Vec<&str> = overrides.iter().map(|(p, _)| *p).collect();
    for (path, value) in overrides {
        let mut node = &mut tree;
        for key in path.split('.') {
            let obj = node.as_object_mut().ok_or_else(|| unknown_parameter(drive, path))?;
            node = obj.get_mut(key).ok_or_else(|| unknown_parameter(drive, path))?;
        }
        let expected = match node {
            serde_json::Value::Number(n) if n.is_f64() => "a number",
            serde_json::Value::Number(_) => "a whole number",
            serde_json::Value::String(_) => "a name",
            serde_json::Value::Bool(_) => "true or false",
            _ => return Err(unknown_parameter(drive, path)),
        };
        // Check this one field's type now, so the error names it.
        let mut probe = serde_json::to_value(drive).expect("a drive config serialises");
        let slot = path.split('.').fold(&mut probe, |n, k| &mut n[k]);
        *slot = value.clone();
        if let Err(e) = serde_json::from_value::<DriveConfig>(probe) {
            let detail = e.to_string();
            let hint = if detail.contains("variant") { detail } else { format!("must be {} (got {})", expected, value) };
            return Err(ConfigError::new(path, hint));
        }
        *node = value;
    }
    let mut updated: DriveConfig =
        serde_json::from_value(tree).map_err(|e| ConfigError::new("set", e.to_string()))?;
    // A new cell type brings its own timings and P/E limit (one place: `CellType`).
    if updated.nand.cell != drive.nand.cell {
        updated.set_cell(updated.nand.cell, &paths);
    }
    updated.validate()?;
    Ok(updated)
}

fn unknown_parameter(drive: &DriveConfig, path: &str) -> ConfigError {
    ConfigError::new(
        "set",
        format!("unknown parameter '{}' (allowed: {})", path, parameter_paths(drive).join(", ")),
    )
}

/// Every settable parameter path of a drive config, e.g. `timing.program_ns`.
pub fn parameter_paths(drive: &DriveConfig) -> Vec<String> {
    fn walk(prefix: &str, v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, child) in m {
                    let p = if prefix.is_empty() { k.clone() } else { format!("{}.{}", prefix, k) };
                    walk(&p, child, out);
                }
            }
            _ => out.push(prefix.to_string()),
        }
    }
    let mut out = Vec::new();
    walk("", &serde_json::to_value(drive).expect("a drive config serialises"), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    #[test]
    fn set_parameter_changes_one_field_and_names_bad_ones() {
        let d = presets::s3700_200();
        let d2 = set_parameter(&d, "timing.program_ns", serde_json::json!(1_000_000)).unwrap();
        assert_eq!(d2.timing.program_ns, 1_000_000);
        assert_eq!(d2.geometry, d.geometry);
        let lazy = set_parameter(&d, "gc.pacing", serde_json::json!("lazy")).unwrap();
        assert_eq!(lazy.gc.pacing, GcPacing::Lazy);

        let e = set_parameter(&d, "timing.nope", serde_json::json!(1)).unwrap_err();
        assert_eq!(e.field, "set");
        assert!(e.message.contains("timing.program_ns"), "{}", e.message);
        let e = set_parameter(&d, "timing.program_ns", serde_json::json!("fast")).unwrap_err();
        assert_eq!(e.field, "timing.program_ns");
        let e = set_parameter(&d, "gc.start_free_blocks", serde_json::json!(1)).unwrap_err();
        assert_eq!(e.field, "gc.start_free_blocks");
        assert!(e.message.contains("between 2 and 1024"), "{}", e.message);
    }

    #[test]
    fn run_request_rejects_out_of_range_and_unknown_names() {
        let bad = |json: &str| RunRequest::from_json(json).and_then(|r| r.resolve()).unwrap_err();
        assert_eq!(bad(r#"{"drive":"s3700-200","span":1.5}"#).field, "span");
        assert_eq!(bad(r#"{"drive":"s3700-200","span":0}"#).field, "span");
        assert_eq!(bad(r#"{"drive":"s3700-200","seconds":0}"#).field, "seconds");
        assert_eq!(bad(r#"{"drive":"nope"}"#).field, "drive");
        assert_eq!(bad(r#"{"drive":"s3700-200","workload":"nope"}"#).field, "workload");
        assert_eq!(bad(r#"{"drive":"s3700-200","block_bytes":1000}"#).field, "block_bytes");
        assert_eq!(bad(r#"{"drive":"s3700-200","align_bytes":100}"#).field, "align_bytes");
        assert_eq!(bad(r#"{"drive":"s3700-200","compressibility":0.95}"#).field, "compressibility");
        assert_eq!(bad(r#"{"drive":"s3700-200","set":{"controller.compression_slot_bytes":1000}}"#).field, "controller.compression_slot_bytes");
        assert_eq!(bad(r#"{"drive":"s3700-200","block_bytes":4194304}"#).field, "block_bytes");
        assert_eq!(bad(r#"{"drive":"s3700-200","colour":1}"#).field, "colour");
        assert_eq!(bad(r#"{"drive":"s3700-200","seconds":"x"}"#).field, "seconds");
        assert_eq!(bad(r#"{"drive":"s3700-200","seed":-1}"#).field, "seed");
        assert_eq!(bad("[1]").field, "config");
    }
}
