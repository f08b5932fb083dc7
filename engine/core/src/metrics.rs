//! Per-second samples and the run summary computed from them.

use serde::Serialize;

/// One simulated second of the run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sample {
    /// Start of the second, seconds since the test phase began (after the fill).
    pub second: u32,
    /// Host IOs completed in this second.
    pub iops: u32,
    /// Host payload completed, MB/s (10^6 bytes).
    pub mb_s: f64,
    /// Mean and maximum latency of the IOs completed in this second, microseconds (from issue by
    /// the host to acknowledgement).
    pub mean_latency_us: f64,
    pub max_latency_us: f64,
    /// 4 KiB units relocated by garbage collection in this second.
    pub gc_moves: u32,
    /// Blocks erased in this second.
    pub erases: u32,
    /// Free blocks at the end of the second, over all dies.
    pub free_blocks: u32,
    /// Host data written in this second, in 4 KiB units (fractional when writes are smaller).
    pub host_writes: f64,
    /// NAND programmed in this second (host pages, GC relocations, map pages), in 4 KiB units.
    pub nand_writes: f64,
    /// NAND writes / host writes since the test phase began.
    pub write_amplification: f64,
    /// Host CPU cores the storage stack would need for this second's IOs
    /// (IOs x cycles per IO / `HOST_CPU_HZ`).
    pub host_cpu_cores: f64,
    /// Host writes in the write buffer at the end of the second (acknowledged or not, not yet
    /// programmed), 4 KiB units.
    pub buffer_units: u32,
    /// 1 while the drive acknowledges writes from its buffer, 0 while it writes through.
    pub write_buffering: u32,
    /// 1 while the capacitor bank is fitted and healthy.
    pub capacitors_healthy: u32,
    /// 1 once a self-test has found the capacitors failed (the S3700's SMART error flag).
    pub smart_flag: u32,
    /// Acknowledged writes lost to power cuts in this second.
    pub acknowledged_writes_lost: u32,
    /// Share of map lookups that found their entry in DRAM (1 for a flat map).
    pub map_hit_rate: f64,
    /// GC state at the end of the second: dies with a victim being collected, and 1 while the
    /// drive-wide clean-up (boost) runs.
    pub gc_active_dies: u32,
    pub gc_boost: u32,
    /// Lowest and highest erase count over all blocks at the end of the second.
    pub erase_count_min: u32,
    pub erase_count_max: u32,
    /// Blocks retired so far at their P/E limit.
    pub retired_blocks: u32,
    /// The drive has worn out and refuses writes (1 in the columns).
    pub read_only: bool,
    /// Units read from NAND to merge a write covering only part of them (read-modify-write).
    pub rmw_reads: u32,
}

/// Clock of the host cores that `host_cpu_cores` counts: 27,000 cycles per IO for 1 M IOPS is
/// "10 Sandy Bridge cores" in [003], i.e. 2.7 GHz.
pub const HOST_CPU_HZ: f64 = 2.7e9;

/// Column names, in the order `Sample::columns` yields them.
pub const FIELDS: [&str; 25] = [
    "second",
    "iops",
    "mb_s",
    "mean_latency_us",
    "max_latency_us",
    "gc_moves",
    "erases",
    "free_blocks",
    "host_writes",
    "nand_writes",
    "write_amplification",
    "host_cpu_cores",
    "buffer_units",
    "write_buffering",
    "capacitors_healthy",
    "smart_flag",
    "acknowledged_writes_lost",
    "map_hit_rate",
    "gc_active_dies",
    "gc_boost",
    "erase_count_min",
    "erase_count_max",
    "retired_blocks",
    "read_only",
    "rmw_reads",
];

impl Sample {
    pub fn columns(&self) -> [f64; FIELDS.len()] {
        [
            self.second as f64,
            self.iops as f64,
            self.mb_s,
            self.mean_latency_us,
            self.max_latency_us,
            self.gc_moves as f64,
            self.erases as f64,
            self.free_blocks as f64,
            self.host_writes,
            self.nand_writes,
            self.write_amplification,
            self.host_cpu_cores,
            self.buffer_units as f64,
            self.write_buffering as f64,
            self.capacitors_healthy as f64,
            self.smart_flag as f64,
            self.acknowledged_writes_lost as f64,
            self.map_hit_rate,
            self.gc_active_dies as f64,
            self.gc_boost as f64,
            self.erase_count_min as f64,
            self.erase_count_max as f64,
            self.retired_blocks as f64,
            if self.read_only { 1.0 } else { 0.0 },
            self.rmw_reads as f64,
        ]
    }
}

/// Counters for the second being accumulated.
#[derive(Debug, Clone, Default)]
pub struct SecondCounters {
    pub ios: u32,
    pub bytes: u64,
    pub latency_sum_ns: u64,
    pub latency_max_ns: u64,
    pub gc_moves: u32,
    pub erases: u32,
    pub host_write_bytes: u64,
    pub nand_write_bytes: u64,
    pub rmw_reads: u32,
    pub acknowledged_writes_lost: u32,
    pub map_lookups: u32,
    pub map_misses: u32,
}

impl SecondCounters {
    #[inline]
    pub fn complete_io(&mut self, bytes: u64, latency_ns: u64) {
        self.ios += 1;
        self.bytes += bytes;
        self.latency_sum_ns += latency_ns;
        self.latency_max_ns = self.latency_max_ns.max(latency_ns);
    }
}

/// Summary of a run, as `ssdlab run --json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub sim_seconds: u32,
    pub host_ios: u64,
    pub iops_mean: f64,
    pub iops_min: u32,
    pub iops_max: u32,
    pub steady_from_s: u32,
    pub steady_iops_mean: f64,
    pub steady_iops_min: u32,
    pub steady_iops_max: u32,
    /// (max - min) / max of per-second IOPS from `steady_from_s` on.
    pub steady_spread: f64,
    pub write_amplification: f64,
    pub steady_write_amplification: f64,
    pub max_latency_us: f64,
}

impl Summary {
    pub fn from_samples(samples: &[Sample], steady_from_s: u32) -> Summary {
        let stats = |s: &[Sample]| -> (f64, u32, u32, u64, f64, f64) {
            let ios: u64 = s.iter().map(|x| x.iops as u64).sum();
            let host: f64 = s.iter().map(|x| x.host_writes).sum();
            let nand: f64 = s.iter().map(|x| x.nand_writes).sum();
            let mean = if s.is_empty() { 0.0 } else { ios as f64 / s.len() as f64 };
            let min = s.iter().map(|x| x.iops).min().unwrap_or(0);
            let max = s.iter().map(|x| x.iops).max().unwrap_or(0);
            (mean, min, max, ios, host, nand)
        };
        let ratio = |n: f64, d: f64| if d == 0.0 { 0.0 } else { n / d };
        let (mean, min, max, ios, host, nand) = stats(samples);
        let steady = &samples[(steady_from_s as usize).min(samples.len())..];
        let (s_mean, s_min, s_max, _, s_host, s_nand) = stats(steady);
        Summary {
            sim_seconds: samples.len() as u32,
            host_ios: ios,
            iops_mean: mean,
            iops_min: min,
            iops_max: max,
            steady_from_s,
            steady_iops_mean: s_mean,
            steady_iops_min: s_min,
            steady_iops_max: s_max,
            steady_spread: if s_max == 0 { 0.0 } else { (s_max - s_min) as f64 / s_max as f64 },
            write_amplification: ratio(nand, host),
            steady_write_amplification: ratio(s_nand, s_host),
            max_latency_us: samples.iter().map(|x| x.max_latency_us).fold(0.0, f64::max),
        }
    }
}
