//! One simulated second of the run, and its columns: one field list makes both the CSV columns
//! (`ssdlab run --csv`, the page's export) and the worker's column buffers.

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
    /// Share of map lookups that found their entry in memory, the controller's or the host
    /// memory buffer's, without a NAND read (1 for a flat map).
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
    /// Latency percentiles of the IOs completed in this second, microseconds (within 3 %).
    pub latency_p50_us: f64,
    pub latency_p99_us: f64,
    pub latency_p99_9_us: f64,
    pub latency_p99_99_us: f64,
    /// Commands outstanding on average through the second (in the drive or waiting in the host:
    /// the sum of the latencies of this second's IOs over one second, by Little's law).
    pub mean_outstanding: f64,
    /// Share of the dies' time booked in this second for each kind of work: host reads, host
    /// programs, GC reads, GC programs, erases, map pages (the rest is idle).
    pub die_host_read: f64,
    pub die_host_program: f64,
    pub die_gc_read: f64,
    pub die_gc_program: f64,
    pub die_erase: f64,
    pub die_map: f64,
    /// Share of the dies' time folding SLC data into native blocks (an SLC cache).
    pub die_fold: f64,
    /// The SLC cache at the end of the second: what host writes could still take in SLC mode
    /// (the open SLC blocks' room and the blocks it may still open), and the valid data in
    /// SLC-mode blocks waiting to be folded, GB (10^9 bytes); 0 without a cache.
    pub slc_free_gb: f64,
    pub slc_data_gb: f64,
    /// Data folded from SLC-mode blocks into native ones in the second, MB/s.
    pub fold_mb_s: f64,
    /// Share of the second's host units programmed in SLC mode.
    pub host_to_slc: f64,
    /// Blocks in SLC mode at the end of the second.
    pub slc_blocks: u32,
    /// Share of map lookups answered by the host memory buffer (0 without one).
    pub map_hmb_hit_rate: f64,
    /// The drive's temperature at the end of the second, °C, and its throttle step (0: not
    /// throttled); 0 for a drive without a thermal model.
    pub temperature_c: f64,
    pub throttle_step: u32,
    /// A host that cleans (a zone store): (app + cleaner writes) / app writes since the test
    /// began, 1 without one; its cleaner's writes and the app's own in the second, MB/s (every
    /// host write is the app's without one); host x device write amplification.
    pub host_write_amplification: f64,
    pub cleaner_mb_s: f64,
    pub app_mb_s: f64,
    pub total_write_amplification: f64,
    /// Zoned drives: zones reset in the second, and zones open, active and full at its end (0
    /// on a conventional drive).
    pub zone_resets: u32,
    pub open_zones: u32,
    pub active_zones: u32,
    pub full_zones: u32,
    /// Share of the second the run covered: 1, except the last second of a run whose workload
    /// ended inside it (a replay, a job of a set size), which lasted until its last completion.
    pub second_covered: f64,
}

/// Clock of the host cores that `host_cpu_cores` counts: 27,000 cycles per IO for 1 M IOPS is
/// "10 Sandy Bridge cores" in [003], i.e. 2.7 GHz.
pub const HOST_CPU_HZ: f64 = 2.7e9;

/// Column names, in the order `Sample::columns` yields them.
pub const FIELDS: [&str; 54] = [
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
    "latency_p50_us",
    "latency_p99_us",
    "latency_p99_9_us",
    "latency_p99_99_us",
    "mean_outstanding",
    "die_host_read",
    "die_host_program",
    "die_gc_read",
    "die_gc_program",
    "die_erase",
    "die_map",
    "die_fold",
    "slc_free_gb",
    "slc_data_gb",
    "fold_mb_s",
    "host_to_slc",
    "slc_blocks",
    "map_hmb_hit_rate",
    "temperature_c",
    "throttle_step",
    "host_write_amplification",
    "cleaner_mb_s",
    "app_mb_s",
    "total_write_amplification",
    "zone_resets",
    "open_zones",
    "active_zones",
    "full_zones",
    "second_covered",
];

/// The columns before the SLC cache's (issue 20): the golden digests recorded before them
/// cover these, the first of `FIELDS`.
pub const FIELDS_V1: &[&str] = FIELDS.split_at(36).0;

/// Each column's unit and what it means, in `FIELDS`' order (for tables, tooltips and exports).
/// For a RAID 0 array (`raid`), the host's columns (IOPS, MB/s, latencies, outstanding) count
/// the array's commands as the host issued them; each drive column says how the members combine:
/// counts are sums, write amplification and the map hit rate come from the summed counters, die
/// shares are means over every member's dies, erase counts the extremes over all members, and
/// flags are raised if any member raises them (buffering and healthy capacitors: only if all).
pub const FIELD_INFO: [(&str, &str, &str); FIELDS.len()] = [
    ("second", "s", "start of the second, from the end of the preconditioning"),
    ("iops", "IO/s", "host commands completed in the second"),
    ("mb_s", "MB/s", "host data moved in the second (10^6 bytes)"),
    ("mean_latency_us", "us", "mean time from issue to completion of the second's commands"),
    ("max_latency_us", "us", "longest of them"),
    ("gc_moves", "units", "4 KiB units garbage collection copied (array: sum over members)"),
    ("erases", "blocks", "blocks erased (array: sum)"),
    ("free_blocks", "blocks", "free blocks over all dies at the end of the second (array: sum)"),
    ("host_writes", "units", "host data written, in 4 KiB units"),
    ("nand_writes", "units", "NAND programmed (host pages, GC copies, map pages), in 4 KiB units (array: sum)"),
    ("write_amplification", "", "NAND writes / host writes since the test began (array: of the sums)"),
    ("host_cpu_cores", "cores", "host CPU cores the storage stack would need for these IOs"),
    ("buffer_units", "units", "host writes in the write buffer at the end of the second (array: sum)"),
    (
        "write_buffering",
        "0/1",
        "1 while writes are acknowledged from the buffer, 0 while writing through (array: all members)",
    ),
    ("capacitors_healthy", "0/1", "1 while the capacitor bank is fitted and healthy (array: every member's)"),
    ("smart_flag", "0/1", "1 once a self-test has found the capacitors failed (array: any member)"),
    ("acknowledged_writes_lost", "writes", "acknowledged writes lost to a power cut in this second"),
    ("map_hit_rate", "", "share of map lookups found in memory (DRAM, or the host memory buffer) without a NAND read (array: of all members' lookups)"),
    ("gc_active_dies", "dies", "dies with a victim block being collected (array: sum)"),
    ("gc_boost", "0/1", "1 while the drive-wide clean-up runs (array: on any member)"),
    ("erase_count_min", "erases", "fewest erases of any block (array: of any member)"),
    ("erase_count_max", "erases", "most erases of any block (array: of any member)"),
    ("retired_blocks", "blocks", "blocks retired at their P/E limit (array: sum)"),
    ("read_only", "0/1", "1 once the drive has worn out and refuses writes (array: any member)"),
    ("rmw_reads", "units", "units read to merge writes covering part of them (array: sum)"),
    ("latency_p50_us", "us", "median latency of the second's commands"),
    ("latency_p99_us", "us", "99th percentile latency"),
    ("latency_p99_9_us", "us", "99.9th percentile latency"),
    ("latency_p99_99_us", "us", "99.99th percentile latency"),
    ("mean_outstanding", "commands", "commands outstanding on average (in the drive or waiting in the host)"),
    ("die_host_read", "share", "share of die time reading host data (array: mean over all members' dies)"),
    ("die_host_program", "share", "share of die time programming host pages"),
    ("die_gc_read", "share", "share of die time reading for garbage collection"),
    ("die_gc_program", "share", "share of die time programming GC copies"),
    ("die_erase", "share", "share of die time erasing blocks"),
    ("die_map", "share", "share of die time on map pages and the map journal"),
    ("die_fold", "share", "share of die time folding SLC-mode data into TLC/QLC blocks"),
    (
        "slc_free_gb",
        "GB",
        "SLC cache host writes could still take at the end of the second (array: sum; 0 without a cache)",
    ),
    ("slc_data_gb", "GB", "valid data in SLC-mode blocks waiting to be folded (array: sum)"),
    ("fold_mb_s", "MB/s", "data folded from SLC-mode blocks into TLC/QLC blocks (array: sum)"),
    (
        "host_to_slc",
        "share",
        "share of the host data programmed in the second that went to SLC mode (array: of the sums)",
    ),
    ("slc_blocks", "blocks", "blocks in SLC mode at the end of the second (array: sum)"),
    (
        "map_hmb_hit_rate",
        "",
        "share of map lookups answered by the host memory buffer, not the controller's memory (array: of all lookups)",
    ),
    ("temperature_c", "°C", "the drive's temperature at the end of the second (array: the hottest member; 0 without a thermal model)"),
    (
        "throttle_step",
        "step",
        "thermal throttle step at the end of the second, 0 when not throttled (array: the deepest)",
    ),
    (
        "host_write_amplification",
        "",
        "(app + host cleaner writes) / app writes since the test began: a zone store's cleaning; 1 without one",
    ),
    ("cleaner_mb_s", "MB/s", "host cleaner's writes (copies of live data out of zones it resets)"),
    ("app_mb_s", "MB/s", "the app's own writes (every host write without a host cleaner)"),
    ("total_write_amplification", "", "host x device write amplification: NAND writes / app writes"),
    ("zone_resets", "zones", "zones reset (zoned drives; array: sum)"),
    ("open_zones", "zones", "zones open at the end of the second (zoned drives; array: sum)"),
    ("active_zones", "zones", "zones open or closed at the end of the second (zoned drives; array: sum)"),
    ("full_zones", "zones", "zones full at the end of the second (zoned drives; array: sum)"),
    (
        "second_covered",
        "share",
        "share of the second the run covered: 1, less in the last second of a run whose workload ended inside it",
    ),
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
            self.latency_p50_us,
            self.latency_p99_us,
            self.latency_p99_9_us,
            self.latency_p99_99_us,
            self.mean_outstanding,
            self.die_host_read,
            self.die_host_program,
            self.die_gc_read,
            self.die_gc_program,
            self.die_erase,
            self.die_map,
            self.die_fold,
            self.slc_free_gb,
            self.slc_data_gb,
            self.fold_mb_s,
            self.host_to_slc,
            self.slc_blocks as f64,
            self.map_hmb_hit_rate,
            self.temperature_c,
            self.throttle_step as f64,
            self.host_write_amplification,
            self.cleaner_mb_s,
            self.app_mb_s,
            self.total_write_amplification,
            self.zone_resets as f64,
            self.open_zones as f64,
            self.active_zones as f64,
            self.full_zones as f64,
            self.second_covered,
        ]
    }
}

/// The CSV of `samples`, as `ssdlab run --csv` writes it: a header of `FIELDS`, then one row per
/// second, each number in its shortest form that reads back to the same value.
pub fn csv(samples: &[Sample]) -> String {
    let mut out = FIELDS.join(",");
    out.push('\n');
    for s in samples {
        let row: Vec<String> = s.columns().iter().map(|v| format!("{}", v)).collect();
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_column_has_its_unit_and_meaning() {
        let named: Vec<&str> = super::FIELD_INFO.iter().map(|f| f.0).collect();
        assert_eq!(named, super::FIELDS.to_vec());
    }
}
