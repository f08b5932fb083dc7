//! A host app that places data by lifetime (issue 21, docs/design/placement.md sections 4.3 and
//! 4.4): a flash cache in CacheLib's style or an LSM tree, run in place of the workload's job.

use crate::units::{range, real_range, ConfigError, UNIT_BYTES};

const MIB: u64 = 1 << 20;

/// Which app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppKind {
    /// CacheLib's flash cache: a small-object region of 4 KiB buckets rewritten in place at
    /// random (SOC) and a large-object log of regions written in FIFO order (LOC).
    Cache,
    /// A RocksDB-style LSM tree with leveled compaction.
    Lsm,
}

impl AppKind {
    pub const NAMES: &'static str = "cache or lsm";

    pub fn by_name(name: &str) -> Option<Self> {
        match name {
            "cache" => Some(AppKind::Cache),
            "lsm" => Some(AppKind::Lsm),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            AppKind::Cache => "cache",
            AppKind::Lsm => "lsm",
        }
    }
}

/// The app and its parameters (those of the other kind are unused).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AppConfig {
    pub kind: AppKind,
    /// Writes carry the app's placement tags (cache: SOC 1, LOC 2; LSM: its level, at most the
    /// last tag); untagged: handle 0.
    pub tagged: bool,
    /// Cache: the share of the app's span it leaves unwritten (host over-provisioning; TRIMmed
    /// first), 0 to CacheLib's "upto 50%".
    pub host_op: f64,
    /// Cache: the SOC's share of the space used, and of the bytes written (**model**: the FDP
    /// paper's per-trace shares were not found).
    pub soc_space: f64,
    pub soc_writes: f64,
    /// Cache: a LOC region (CacheLib's default 16 MB, "up to 256MB").
    pub region_bytes: u64,
    /// LSM: RocksDB's sizes (64 MB memtable and files, L1 256 MB) divided by this (**model**: a
    /// small drive's LSM scaled down).
    pub scale: u32,
    /// LSM: keys put (uniformly), and each one's value (**model**).
    pub keys: u64,
    pub value_bytes: u32,
    /// LSM: a deleted file's blocks are TRIMmed at once (a file system mounted with online
    /// discard); without, the drive holds them valid until the file system writes their LBAs
    /// again (ext4's and XFS's default mounts, which leave discard to a periodic fstrim).
    pub discard: bool,
}

/// RocksDB's defaults (docs/design/placement.md section 1): write_buffer_size and
/// target_file_size_base 64 MB, max_bytes_for_level_base 256 MB, x10 per level,
/// level0_file_num_compaction_trigger 4.
pub const ROCKSDB_FILE_BYTES: u64 = 64 * MIB;
pub const ROCKSDB_L1_BYTES: u64 = 256 * MIB;
pub const LEVEL_MULTIPLIER: u64 = 10;
pub const L0_TRIGGER: usize = 4;
/// RocksDB's `num_levels`.
pub const LSM_LEVELS: usize = 7;

impl AppConfig {
    /// `kind` with its defaults: untagged, no host over-provisioning, SOC 10 % of the space and
    /// half the writes, 16 MiB regions; RocksDB scaled by 64 (1 MiB files), 1 KiB values, keys
    /// for a quarter of `span_bytes`, deleted files discarded.
    pub fn new(kind: AppKind, span_bytes: u64) -> Self {
        AppConfig {
            kind,
            tagged: false,
            host_op: 0.0,
            soc_space: 0.1,
            soc_writes: 0.5,
            region_bytes: 16 * MIB,
            scale: 64,
            keys: span_bytes / 4 / 1024,
            value_bytes: 1024,
            discard: true,
        }
    }

    /// Tags the app needs at least when tagged (cache: 0 to 2; LSM: L0 and the rest apart).
    pub fn tags_needed(&self) -> u32 {
        match (self.tagged, self.kind) {
            (false, _) => 1,
            (true, AppKind::Cache) => 3,
            (true, AppKind::Lsm) => 2,
        }
    }

    /// Tags the app uses given `available` (the drive's handles, or a zone store's classes): the
    /// cache its three, the LSM a level each up to the last tag.
    pub fn tags(&self, available: u32) -> u32 {
        match (self.tagged, self.kind) {
            (true, AppKind::Lsm) => available.min(LSM_LEVELS as u32),
            _ => self.tags_needed(),
        }
    }

    pub fn file_bytes(&self) -> u64 {
        ROCKSDB_FILE_BYTES / self.scale as u64
    }

    /// The LSM's room at most (**model**, a bound): each level's target up to the first at or
    /// above its data (levels below it fill to their targets before passing data down), its
    /// data in the last, a quarter more for files a compaction left part full, and the L0
    /// files up to the trigger and a file per level more. A compaction frees its inputs' slots
    /// before it writes, and writes no more files than it read, so it needs none of its own.
    pub fn lsm_bytes(&self) -> u64 {
        let data = self.keys * self.value_bytes as u64;
        let l1 = ROCKSDB_L1_BYTES / self.scale as u64;
        let upper: u64 =
            (0..LSM_LEVELS as u32 - 2).map(|l| l1 * LEVEL_MULTIPLIER.pow(l)).take_while(|&t| t < data).sum();
        (data + upper) * 5 / 4 + (L0_TRIGGER + LSM_LEVELS) as u64 * self.file_bytes()
    }

    /// The app against the span it runs over, `span_bytes`; each error names `app.FIELD`.
    pub fn check(&self, span_bytes: u64) -> Result<(), ConfigError> {
        match self.kind {
            AppKind::Cache => {
                real_range("app.host_op", self.host_op, 0.0, 0.5, "0 and 0.5 (CacheLib's \"upto 50%\")")?;
                real_range("app.soc_space", self.soc_space, 0.01, 0.99, "0.01 and 0.99")?;
                real_range("app.soc_writes", self.soc_writes, 0.01, 0.99, "0.01 and 0.99")?;
                if !self.region_bytes.is_multiple_of(MIB) {
                    return Err(ConfigError::new(
                        "app.region_bytes",
                        format!("must be whole MiB (got {})", self.region_bytes),
                    ));
                }
                range("app.region_bytes", self.region_bytes, MIB, 256 * MIB)?;
                let loc = (span_bytes as f64 * (1.0 - self.host_op) * (1.0 - self.soc_space)) as u64;
                if loc / self.region_bytes < 2 {
                    return Err(ConfigError::new(
                        "app.region_bytes",
                        format!(
                            "the large-object log needs at least 2 regions: its {} bytes of the app's span take {} of {} (a smaller region, soc_space or host_op)",
                            loc,
                            loc / self.region_bytes,
                            self.region_bytes
                        ),
                    ));
                }
                Ok(())
            }
            AppKind::Lsm => {
                if !self.scale.is_power_of_two() || self.scale > 1024 {
                    return Err(ConfigError::new(
                        "app.scale",
                        format!("must be a power of two from 1 to 1024 (got {})", self.scale),
                    ));
                }
                range("app.value_bytes", self.value_bytes as u64, 16, UNIT_BYTES)?;
                // Keys are u32s in the files.
                range("app.keys", self.keys, 1, u32::MAX as u64)?;
                let need = self.lsm_bytes();
                if need > span_bytes {
                    return Err(ConfigError::new(
                        "app.keys",
                        format!(
                            "the LSM's files must fit the app's span: {} keys of {} bytes need up to {} bytes, the span is {} (got {})",
                            self.keys, self.value_bytes, need, span_bytes, self.keys
                        ),
                    ));
                }
                Ok(())
            }
        }
    }
}
