//! Drive presets: the products the articles measured, as model parameters.
//!
//! Figures come from `shared/spec/drives.md`; where an article gives no number (NAND timings,
//! controller overheads) the default is a documented typical value for that NAND generation,
//! and the article's measured behaviour is what the preset is checked against.

use crate::config::*;

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
            max_queue_depth: 32,
            // 6 Gb/s after 8b/10b coding is 600 MB/s; FIS framing leaves about 560 MB/s of payload.
            link_mb_s: 560,
            // Command FIS, DMA setup and status FIS around each data FIS.
            link_overhead_ns: 1_500,
            host_cpu_cycles_per_io: 27_000,
        },
        controller: Controller { write_overhead_ns: 6_000, write_buffer_bytes: 1 << 20 },
        geometry: NandGeometry {
            channels: 8,
            dies: 33,
            planes: 2,
            page_bytes: 8192,
            pages_per_block: 256,
            // 2 planes x 2048 blocks x 256 pages x 8 KiB = 8 GiB per die.
            blocks_per_plane: 2048,
        },
        timing: NandTiming {
            // 25 nm HET-MLC: high-endurance MLC trades a slower program for more P/E cycles.
            read_ns: 50_000,
            program_ns: 1_900_000,
            erase_ns: 3_000_000,
            // ONFI 2.x synchronous bus.
            channel_mb_s: 200,
        },
        gc: GcConfig {
            pacing: GcPacing::ConsistencyFirst,
            start_free_blocks: 24,
            min_free_blocks: 2,
            // Slightly under break-even, then a boost: a heavier clean-up of about a quarter of
            // each cycle, every ~150 s at this drive's write rate.
            paced_percent: 92,
            boost_percent: 125,
            boost_below_free_blocks: 12,
            boost_until_free_blocks: 22,
        },
    }
}

/// Every preset, in the order the UI lists them.
pub fn all() -> Vec<DriveConfig> {
    vec![s3700_200()]
}

pub fn by_id(id: &str) -> Result<DriveConfig, ConfigError> {
    all().into_iter().find(|d| d.id == id).ok_or_else(|| {
        let ids: Vec<String> = all().into_iter().map(|d| d.id).collect();
        ConfigError::new("drive", format!("unknown drive '{}' (allowed: {})", id, ids.join(", ")))
    })
}
