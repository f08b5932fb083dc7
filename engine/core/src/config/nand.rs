//! What the NAND is made of and how it is laid out: cell type, array timings, geometry, endurance.

use serde::{Deserialize, Serialize};

use super::limits::{check_limits, Limit};
use crate::units::{range, ConfigError, UNIT_BYTES};

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
    /// Three bits per cell.
    Tlc,
    /// Four bits per cell: slowest program, shortest life.
    Qlc,
}

impl CellType {
    pub const ALL: [CellType; 5] = [CellType::Slc, CellType::Mlc, CellType::HetMlc, CellType::Tlc, CellType::Qlc];

    /// Bits each cell stores: the page types of a wordline (lower, upper, ...), and how many
    /// times more a block holds in its native mode than in SLC mode.
    pub fn bits(self) -> u32 {
        match self {
            Self::Slc => 1,
            Self::Mlc | Self::HetMlc => 2,
            Self::Tlc => 3,
            Self::Qlc => 4,
        }
    }

    /// Typical array timings of this cell type for a 25-20 nm planar part: read, program, erase
    /// (typical datasheet values, not from the articles, except HET-MLC's slower program, which
    /// the 710 preset uses; the S3700 presets' is a fitted 1.4 ms). The channel rate belongs to
    /// the bus, not the cell, so it is left as given.
    pub fn typical_timing_ns(self) -> (u64, u64, u64) {
        match self {
            Self::Slc => (25_000, 300_000, 2_000_000),
            Self::Mlc => (50_000, 1_300_000, 3_000_000),
            Self::HetMlc => (50_000, 1_900_000, 3_000_000),
            Self::Tlc => (75_000, 2_500_000, 5_000_000),
            // Model: no QLC tR or tPROG in µs was found (the sources give 18-30 MB/s per die);
            // slower than the TLC row, as 16 states are slower to sense and to program.
            Self::Qlc => (120_000, 3_000_000, 10_000_000),
        }
    }

    /// Typical program/erase-cycle limit: SLC ~100K; 25 nm consumer MLC ~3K; HET-MLC ~30K
    /// (Intel's figure for its 25 nm high-endurance MLC, 10x its consumer MLC); planar TLC ~1K.
    /// Typical published values, not from the articles; QLC's is a model (no rating found), the
    /// TLC row's.
    pub fn typical_pe_cycles(self) -> u32 {
        match self {
            Self::Slc => 100_000,
            Self::Mlc => 3_000,
            Self::HetMlc => 30_000,
            Self::Tlc | Self::Qlc => 1_000,
        }
    }
}

/// What the NAND is made of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NandConfig {
    /// Setting this with `--set` also loads the cell's typical `timing.read_ns`, `program_ns`,
    /// `erase_ns` and `endurance.pe_cycles`, unless those are set in the same request.
    pub cell: CellType,
}

/// How long the NAND lasts and what the vendor rates the drive for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
        if wa.is_nan() || wa < 1.0 {
            return 0;
        }
        (raw_bytes as f64 * self.pe_cycles as f64 / wa).round() as u64
    }
}

/// NAND array timings, per operation, in nanoseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NandTiming {
    /// Array read of one page (tR), ns.
    pub read_ns: u64,
    /// Array program of one (multi-plane) page (tPROG), ns.
    pub program_ns: u64,
    /// Erase of one (multi-plane) block (tBERS), ns.
    pub erase_ns: u64,
    /// Channel bus rate between controller and dies, bytes per microsecond (= MB/s).
    pub channel_mb_s: u64,
    /// Array program of one page of a block in SLC mode, ns (0: the blocks cannot run in SLC
    /// mode).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub slc_program_ns: u64,
    /// Array read of one page of a block in SLC mode, ns (0: `read_ns`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub slc_read_ns: u64,
    /// Array program of one page by its type in the wordline (lower, upper[, extra, top]), one
    /// entry per bit of the cell; empty: `program_ns` for every page. A one-shot part, which
    /// loads the wordline's pages and programs them once, is `[0, 0, tPROG]`: the first pages
    /// cost their channel transfer only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub program_ns_by_page: Vec<u64>,
    /// Array read of one page by its type, as `program_ns_by_page`; empty: `read_ns`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read_ns_by_page: Vec<u64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The geometry of the NAND array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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

impl NandGeometry {
    pub fn limits(&self) -> Vec<Limit> {
        vec![
            Limit::whole("geometry.channels", self.channels as u64, 1, 64),
            Limit::whole("geometry.dies", self.dies as u64, self.channels as u64, 4096),
            Limit::whole("geometry.planes", self.planes as u64, 1, 8),
            Limit::whole("geometry.page_bytes", self.page_bytes as u64, 4096, 65536),
            // Multiples of 12 at both ends: whole wordlines of 2, 3 or 4 bits fit there too.
            Limit::whole("geometry.pages_per_block", self.pages_per_block as u64, 12, 4032),
            Limit::whole("geometry.blocks_per_plane", self.blocks_per_plane as u64, 8, 1 << 20),
        ]
    }

    pub fn check(&self) -> Result<(), ConfigError> {
        check_limits(&self.limits())?;
        if !(self.page_bytes as u64).is_multiple_of(UNIT_BYTES) {
            return Err(ConfigError::new(
                "geometry.page_bytes",
                format!("must be a multiple of 4096 (got {})", self.page_bytes),
            ));
        }
        if self.units_per_block() > u16::MAX as u32 {
            return Err(ConfigError::new(
                "geometry.pages_per_block",
                format!(
                    "a block may hold at most 65535 4 KiB units (got {} with these pages, planes and page size)",
                    self.units_per_block()
                ),
            ));
        }
        if self.raw_units() >= u32::MAX as u64 {
            return Err(ConfigError::new(
                "geometry",
                "raw capacity must stay under 16 TiB (2^32 4 KiB units)".to_string(),
            ));
        }
        Ok(())
    }
}

/// The longest array read or program of one page, ns (100 ms).
const MAX_PAGE_NS: u64 = 100_000_000;

impl NandTiming {
    /// The numbers' limits. The SLC-mode times are listed only when set (a drive without them
    /// has no such parameter): a page in SLC mode programs faster than in the native mode and
    /// reads no slower.
    pub fn limits(&self) -> Vec<Limit> {
        let mut all = vec![
            Limit::whole("timing.read_ns", self.read_ns, 1, MAX_PAGE_NS),
            Limit::whole("timing.program_ns", self.program_ns, 1, MAX_PAGE_NS),
            Limit::whole("timing.erase_ns", self.erase_ns, 1, 1_000_000_000),
            Limit::whole("timing.channel_mb_s", self.channel_mb_s, 1, 100_000),
        ];
        if self.slc_program_ns > 0 {
            all.push(Limit::whole("timing.slc_program_ns", self.slc_program_ns, 0, self.program_ns.saturating_sub(1)));
        }
        if self.slc_read_ns > 0 {
            all.push(Limit::whole("timing.slc_read_ns", self.slc_read_ns, 0, self.read_ns));
        }
        all
    }

    /// The limits, and the per-page-type lists' rules for `cell` in `geometry`: one entry per
    /// bit of the cell (or none), each at most 100 ms, and whole wordlines in a block.
    pub fn check(&self, cell: CellType, geometry: &NandGeometry) -> Result<(), ConfigError> {
        check_limits(&self.limits())?;
        let bits = cell.bits();
        for (name, list) in
            [("program_ns_by_page", &self.program_ns_by_page), ("read_ns_by_page", &self.read_ns_by_page)]
        {
            if list.is_empty() {
                continue;
            }
            if list.len() != bits as usize {
                return Err(ConfigError::new(
                    format!("timing.{}", name),
                    format!(
                        "needs one entry per page type: {} for a {}-bit cell, or none (got {})",
                        bits,
                        bits,
                        list.len()
                    ),
                ));
            }
            for (i, &ns) in list.iter().enumerate() {
                range(&format!("timing.{}[{}]", name, i), ns, 0, MAX_PAGE_NS)?;
            }
            if !geometry.pages_per_block.is_multiple_of(bits) {
                return Err(ConfigError::new(
                    "geometry.pages_per_block",
                    format!(
                        "must be a multiple of {} (whole wordlines) with timing.{} (got {})",
                        bits, name, geometry.pages_per_block
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Channel time to move one 4 KiB unit between controller and die, ns.
    pub fn unit_transfer_ns(&self) -> u64 {
        UNIT_BYTES * 1000 / self.channel_mb_s
    }
}

impl Endurance {
    pub fn limits(&self) -> Vec<Limit> {
        vec![
            Limit::whole("endurance.pe_cycles", self.pe_cycles as u64, 1, 1_000_000),
            Limit::real("endurance.drive_writes_per_day", self.drive_writes_per_day, 0.01, 100.0),
            Limit::whole("endurance.warranty_years", self.warranty_years as u64, 1, 20),
        ]
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{parameter_paths, presets, set_parameter, CellType};
    use serde_json::json;

    #[test]
    fn page_times_are_optional_and_checked_naming_the_field() {
        let drive = presets::by_id("s3700-200").unwrap();
        // Presets without them have no such parameters (their lists stay as they were).
        assert!(parameter_paths(&drive).iter().all(|p| !p.contains("slc_") && !p.contains("by_page")));
        let tlc = set_parameter(&drive, "nand.cell", json!("tlc")).unwrap();
        let mut set = tlc.clone();
        set.timing.program_ns_by_page = vec![0, 0, tlc.timing.program_ns];
        set.timing.slc_program_ns = 100_000;
        set.geometry.pages_per_block = 258;
        set.user_bytes = set.geometry.raw_bytes() / 2 / 4096 * 4096;
        set.validate().unwrap();
        // Set, they are parameters with their limits.
        let one_shot = set_parameter(&set, "timing.program_ns_by_page", json!([0, 0, 3_000_000])).unwrap();
        assert_eq!(one_shot.timing.program_ns_by_page, [0, 0, 3_000_000]);
        let refusal = |path: &str, value: serde_json::Value| {
            let e = set_parameter(&set, path, value).unwrap_err();
            (e.field, e.message)
        };
        assert_eq!(
            refusal("timing.program_ns_by_page", json!([1, 2])),
            (
                "timing.program_ns_by_page".into(),
                "needs one entry per page type: 3 for a 3-bit cell, or none (got 2)".into()
            )
        );
        assert_eq!(
            refusal("timing.program_ns_by_page", json!([0, 0, 100_000_001])),
            ("timing.program_ns_by_page[2]".into(), "must be between 0 and 100000000 (got 100000001)".into())
        );
        assert_eq!(
            refusal("timing.slc_program_ns", json!(tlc.timing.program_ns)),
            ("timing.slc_program_ns".into(), "must be between 0 and 2499999 (got 2500000)".into())
        );
        assert_eq!(
            refusal("geometry.pages_per_block", json!(256)),
            (
                "geometry.pages_per_block".into(),
                "must be a multiple of 3 (whole wordlines) with timing.program_ns_by_page (got 256)".into()
            )
        );
        // Another cell has other page types: its own lists, none, unless set with it.
        let qlc = set_parameter(&set, "nand.cell", json!("qlc")).unwrap();
        assert_eq!((qlc.nand.cell.bits(), qlc.timing.program_ns_by_page.len()), (4, 0));
        assert_eq!(qlc.timing.program_ns, CellType::Qlc.typical_timing_ns().1);
    }

    #[test]
    fn a_preset_file_with_page_times_reads_them() {
        let drive = presets::by_id("s3700-200").unwrap();
        let mut tree = serde_json::to_value(&drive).unwrap();
        tree["timing"]["slc_read_ns"] = json!(20_000);
        tree["timing"]["read_ns_by_page"] = json!([40_000, 60_000]);
        let read: crate::config::DriveConfig = serde_json::from_value(tree).unwrap();
        assert_eq!((read.timing.slc_read_ns, read.timing.read_ns_by_page.len()), (20_000, 2));
        read.validate().unwrap();
        assert_eq!(read.nand.cell.bits(), 2);
    }
}
