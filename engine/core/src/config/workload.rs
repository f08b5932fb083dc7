//! The named synthetic workloads: data, like the presets. The generator that draws their requests
//! is the host's (`host/synthetic.rs`).

use crate::units::ConfigError;

/// The access pattern of a workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Uniformly random aligned blocks over the tested span.
    Random,
    /// Consecutive blocks from the start of the span, wrapping around.
    Sequential,
}

/// A named workload: pattern, read share, default transfer size and queue depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkloadSpec {
    pub id: &'static str,
    pub pattern: Pattern,
    /// Percentage of requests that are reads (0..=100).
    pub read_percent: u32,
    /// Default transfer size, bytes.
    pub block_bytes: u32,
    /// Default host queue depth.
    pub queue_depth: u32,
    /// Percentage of commands that TRIM a block instead of reading or writing it (files being
    /// deleted).
    pub trim_percent: u32,
    /// Skew: this percentage of requests go to the first `hot_span_percent` of the span
    /// (0 for uniform).
    pub hot_percent: u32,
    pub hot_span_percent: u32,
    pub description: &'static str,
}

/// Every workload, by name. All start from a secure erase and a sequential fill of the span.
pub const WORKLOADS: [WorkloadSpec; 9] = [
    WorkloadSpec {
        id: "consistency",
        pattern: Pattern::Random,
        read_percent: 0,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "the articles' IO-consistency test: 4 KB random writes over the whole span [000, 002]",
    },
    WorkloadSpec {
        id: "random-write",
        pattern: Pattern::Random,
        read_percent: 0,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "random writes (set the size with block_bytes)",
    },
    WorkloadSpec {
        id: "random-read",
        pattern: Pattern::Random,
        read_percent: 100,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "random reads of filled data [003]",
    },
    WorkloadSpec {
        id: "mixed-70-30",
        pattern: Pattern::Random,
        read_percent: 70,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "70 % reads, 30 % writes, random [003]",
    },
    WorkloadSpec {
        id: "hot-cold",
        pattern: Pattern::Random,
        read_percent: 0,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 90,
        hot_span_percent: 10,
        description: "random writes, 90 % of them to 10 % of the span (where GC victim policy matters)",
    },
    WorkloadSpec {
        id: "sequential-write",
        pattern: Pattern::Sequential,
        read_percent: 0,
        block_bytes: 131072,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "128 KB sequential writes [000]",
    },
    WorkloadSpec {
        id: "sequential-read",
        pattern: Pattern::Sequential,
        read_percent: 100,
        block_bytes: 131072,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "128 KB sequential reads [000]",
    },
    WorkloadSpec {
        id: "redo-log",
        pattern: Pattern::Sequential,
        read_percent: 0,
        block_bytes: 1536,
        queue_depth: 1,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "a database redo log: 1.5 KB sequential writes at QD1, smaller than and unaligned to the 4 KB map unit, so most pay a read-modify-write [000]",
    },
    WorkloadSpec {
        id: "write-trim",
        pattern: Pattern::Random,
        read_percent: 0,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 10,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "random writes with 10 % of commands TRIMming a block (files deleted): trimmed data is not copied by GC [002]",
    },
];

/// Models of the articles' application traces, built from their published figures (not the
/// traces, which were never published). Each is a list of phases of jobs in `host/apps/`, one
/// file per model, with the source of every value; the fields here are the headline figures
/// the lists show (read share of commands, commonest size, average queue depth rounded). A run
/// request resolves them (`RunRequest::resolve`); they have no one-phase shorthand.
pub const MODELS: [WorkloadSpec; 5] = [
    model(
        "swingbench",
        26,
        8192,
        1,
        "model of the Oracle Swingbench OLTP trace with its redo log (8 KB random database reads and writes, 1-1.5 KB sequential redo writes at QD1), from AnandTech's Intel SSD DC S3700 review [000]",
    ),
    model(
        "sql-update-daily-stats",
        71,
        65536,
        4,
        "model of the MS SQL Server UpdateDailyStats trace (3:1 reads by bytes, 8-128 KB, QD 4.2), from AnandTech's Intel SSD DC S3700 review [000]",
    ),
    model(
        "sql-weekly-maintenance",
        64,
        131072,
        5,
        "model of the MS SQL Server WeeklyMaintenance trace (consistency check and index rebuild, 3:1 reads by bytes, QD 5.43), from AnandTech's Intel SSD DC S3700 review [000]",
    ),
    model(
        "storage-bench-2011-heavy",
        55,
        131072,
        5,
        "model of the AnandTech Storage Bench 2011 Heavy Workload trace (3.95 M commands, 106 GB written, 42 % sequential, QD 4.6), from AnandTech's Intel SSD DC S3700 review [000]",
    ),
    model(
        "storage-bench-2011-light",
        45,
        8192,
        2,
        "model of the AnandTech Storage Bench 2011 Light Workload trace (832 K commands, over 60 % sequential, QD 2.2), from AnandTech's Intel SSD DC S3700 review [000]",
    ),
];

const fn model(
    id: &'static str,
    read_percent: u32,
    block_bytes: u32,
    queue_depth: u32,
    description: &'static str,
) -> WorkloadSpec {
    WorkloadSpec {
        id,
        pattern: Pattern::Random,
        read_percent,
        block_bytes,
        queue_depth,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description,
    }
}

impl WorkloadSpec {
    /// A named workload or trace model.
    pub fn by_id(id: &str) -> Result<WorkloadSpec, ConfigError> {
        Self::all().find(|w| w.id == id).copied().ok_or_else(|| {
            let names: Vec<&str> = Self::all().map(|w| w.id).collect();
            ConfigError::new("workload", format!("unknown workload '{}' (allowed: {})", id, names.join(", ")))
        })
    }

    /// Every named workload, then every trace model.
    pub fn all() -> impl Iterator<Item = &'static WorkloadSpec> {
        WORKLOADS.iter().chain(MODELS.iter())
    }

    /// Whether this is a model of an application trace (phases of jobs, resolved by a run
    /// request) rather than a one-job workload.
    pub fn is_model(&self) -> bool {
        MODELS.iter().any(|m| m.id == self.id)
    }
}
