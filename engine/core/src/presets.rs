//! Drive presets: the products the articles measured, as model parameters.
//!
//! Figures come from `shared/spec/drives.md`; where an article gives no number (NAND timings,
//! controller overheads) the default is a documented typical value for that NAND generation,
//! and the article's measured behaviour is what the preset is checked against.

use crate::config::*;
use crate::mapping::MapConfig;

/// Intel SSD DC S3700 200GB [000, 001]: 8 channels, 33 dies of 8 GiB 25 nm HET-MLC (264 GiB raw),
/// 8 KiB pages, SATA 6Gb/s with NCQ, flat page map, GC paced for consistency.
pub fn s3700_200() -> DriveConfig {
    DriveConfig {
        id: "s3700-200".into(),
        name: "Intel SSD DC S3700 200GB".into(),
        advertised_bytes: 200_000_000_000,
        user_bytes: 200_000_000_000,
        spec_random_write_iops: 32_000,
        host: HostInterface {
            name: "SATA 6Gb/s (AHCI, NCQ)".into(),
            queues: 1,
            max_queue_depth: 32,
            // 6 Gb/s after 8b/10b coding is 600 MB/s; FIS framing leaves about 560 MB/s of payload.
            link_mb_s: 560,
            // Command FIS, DMA setup and status FIS around each data FIS.
            link_overhead_ns: 1_500,
            host_cpu_cycles_per_io: 27_000,
        },
        controller: Controller {
            write_overhead_ns: 6_000,
            // 75K random-read IOPS at QD32 [001] is the controller's command rate.
            read_overhead_ns: 13_000,
            // ~150 us at QD1 (27.2 MB/s [003]) = link, controller, tR, transfer and this.
            read_latency_ns: 40_000,
            write_buffer_bytes: 1 << 20,
            compression: false,
            compression_slot_bytes: 2048,
        },
        geometry: NandGeometry {
            channels: 8,
            dies: 33,
            planes: 2,
            page_bytes: 8192,
            pages_per_block: 256,
            // 2 planes x 2048 blocks x 256 pages x 8 KiB = 8 GiB per die.
            blocks_per_plane: 2048,
        },
        nand: NandConfig { cell: CellType::HetMlc },
        timing: NandTiming {
            // 25 nm HET-MLC: high-endurance MLC trades a slower program for more P/E cycles.
            // These are `CellType::HetMlc`'s typical timings.
            read_ns: 50_000,
            program_ns: 1_900_000,
            erase_ns: 3_000_000,
            // ONFI 2.x synchronous bus.
            channel_mb_s: 200,
        },
        // 10 drive writes per day for 5 years: 3.65 PB for 200 GB [001].
        endurance: het_mlc_ten_drive_writes_a_day(),
        gc: GcConfig {
            victim: GcVictim::Greedy,
            pacing: GcPacing::ConsistencyFirst,
            start_free_blocks: 24,
            min_free_blocks: 2,
            // Slightly under break-even, then a boost: a heavier clean-up of about a quarter of
            // each cycle, every ~150 s at this drive's write rate.
            paced_percent: 92,
            boost_percent: 125,
            boost_below_free_blocks: 12,
            boost_until_free_blocks: 22,
            background_free_blocks: 48,
        },
        power: PowerConfig {
            capacitors: true,
            capacitance_uf: 2 * 47,
            charge_mv: 35_000,
            cutoff_mv: 12_000,
            flush_power_mw: 6_000,
            volatile_cache: false,
            self_test_interval_s: 600,
            capacitor_fails_at_s: 0,
        },
        // The flat, direct-mapped table: 256 MB of DRAM on the 200 GB drive [000].
        map: MapConfig::flat(),
        wear: default_wear(),
    }
}

/// Wear levelling as the presets run it (a model choice; the articles give no figures): the
/// least-worn free block is opened next, and a die whose erase counts spread by more than 100
/// relocates its coldest block. Neither changes the IO-consistency run: dynamic levelling only
/// relabels blocks, and 2000 s of uniform writes stay far below a spread of 100.
fn default_wear() -> WearConfig {
    WearConfig { dynamic: true, static_levelling: true, static_every_erases: 64, static_spread_threshold: 100 }
}

/// Intel SSD DC P3700 400GB [003]: NVMe over PCIe 3.0 x4, 18 channels, 32 dies of 16 GiB 20 nm
/// MLC (512 GiB raw), 16 KiB pages, deep queues, ~10,000 host cycles per IO.
pub fn p3700_400() -> DriveConfig {
    DriveConfig {
        id: "p3700-400".into(),
        name: "Intel SSD DC P3700 400GB".into(),
        advertised_bytes: 400_000_000_000,
        user_bytes: 400_000_000_000,
        spec_random_write_iops: 75_000,
        host: HostInterface {
            name: "NVMe (PCIe 3.0 x4)".into(),
            // Many deep queue pairs (one per host core): the host's queue depth is never cut
            // short.
            queues: 32,
            max_queue_depth: 65_535,
            // 4 lanes x 8 GT/s with 128b/130b coding, less TLP overhead.
            link_mb_s: 3_200,
            link_overhead_ns: 500,
            host_cpu_cycles_per_io: 10_000,
        },
        controller: Controller {
            write_overhead_ns: 2_000,
            read_overhead_ns: 2_000,
            // ~112 us at QD1 (36.5 MB/s [003]).
            read_latency_ns: 45_000,
            write_buffer_bytes: 4 << 20,
            compression: false,
            compression_slot_bytes: 2048,
        },
        geometry: NandGeometry {
            channels: 18,
            dies: 32,
            planes: 2,
            page_bytes: 16384,
            pages_per_block: 256,
            // 2 planes x 2048 blocks x 256 pages x 16 KiB = 16 GiB per die.
            blocks_per_plane: 2048,
        },
        // drives.md lists 20 nm MLC; Intel sells it as HET-MLC, and a 10 drive-writes-per-day
        // rating needs more than consumer MLC's ~3K cycles. Timings are this preset's own.
        nand: NandConfig { cell: CellType::HetMlc },
        timing: NandTiming { read_ns: 50_000, program_ns: 1_600_000, erase_ns: 3_000_000, channel_mb_s: 400 },
        // [003] ranks it the highest-endurance of its family; 10 DWPD x 5 years is Intel's
        // datasheet rating (not in the articles).
        endurance: het_mlc_ten_drive_writes_a_day(),
        gc: GcConfig {
            victim: GcVictim::Greedy,
            pacing: GcPacing::ConsistencyFirst,
            start_free_blocks: 24,
            min_free_blocks: 2,
            paced_percent: 95,
            boost_percent: 120,
            boost_below_free_blocks: 12,
            boost_until_free_blocks: 22,
            background_free_blocks: 48,
        },
        // Power-loss protection capacitors on the board [003]; their size is not published, so
        // this is the S3700's bank scaled to the larger buffer.
        power: PowerConfig {
            capacitors: true,
            capacitance_uf: 4 * 47,
            charge_mv: 35_000,
            cutoff_mv: 12_000,
            flush_power_mw: 25_000,
            volatile_cache: false,
            self_test_interval_s: 600,
            capacitor_fails_at_s: 0,
        },
        map: MapConfig::flat(),
        wear: default_wear(),
    }
}

/// HET-MLC's P/E limit, rated for 10 drive writes per day over a 5-year warranty.
fn het_mlc_ten_drive_writes_a_day() -> Endurance {
    Endurance { pe_cycles: CellType::HetMlc.typical_pe_cycles(), drive_writes_per_day: 10.0, warranty_years: 5 }
}

/// Every preset, in the order the UI lists them.
pub fn all() -> Vec<DriveConfig> {
    vec![s3700_200(), p3700_400()]
}

pub fn by_id(id: &str) -> Result<DriveConfig, ConfigError> {
    all().into_iter().find(|d| d.id == id).ok_or_else(|| {
        let ids: Vec<String> = all().into_iter().map(|d| d.id).collect();
        ConfigError::new("drive", format!("unknown drive '{}' (allowed: {})", id, ids.join(", ")))
    })
}
