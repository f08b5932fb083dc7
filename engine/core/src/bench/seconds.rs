//! The per-second clock: host completions are counted in the second they happen; the drive's
//! own work (GC, programs, map lookups) in the second the host's clock is in. A second is final
//! once the host's issue clock has passed it, since nothing issued later can complete earlier.

use std::collections::VecDeque;

use super::histogram::Histogram;
use super::sample::{Sample, HOST_CPU_HZ};
use super::target::Target;
use crate::drive::{power::CapacitorState, Counters};
use crate::units::{NS_PER_S, UNIT_BYTES};

/// Host completions in one second.
#[derive(Debug, Clone, Default)]
pub struct Completions {
    pub ios: u32,
    pub bytes: u64,
    pub latency_sum_ns: u64,
    pub latency_max_ns: u64,
    /// Host bytes written by the writes that completed, and the part a host cleaner wrote.
    pub host_write_bytes: u64,
    pub cleaner_write_bytes: u64,
    pub acknowledged_writes_lost: u32,
    pub latency: Histogram,
}

impl Completions {
    #[inline]
    pub fn complete_io(&mut self, bytes: u64, latency_ns: u64) {
        self.ios += 1;
        self.bytes += bytes;
        self.latency_sum_ns += latency_ns;
        self.latency_max_ns = self.latency_max_ns.max(latency_ns);
        self.latency.add(latency_ns);
    }
}

pub struct Seconds {
    /// The second being accumulated; `bins[0]` counts it, `bins[i]` the i-th after it.
    second: u32,
    second_end_ns: u64,
    bins: VecDeque<Completions>,
    /// The drive's counters when the last second was cut.
    counted: Counters,
    /// Host bytes the app and a host cleaner wrote since the start (for host WA).
    app_bytes: u64,
    cleaner_bytes: u64,
    last_second: u32,
    /// When the workload ended, if it ended before the run's last second (u64::MAX until then).
    end_ns: u64,
    host_cpu_cycles_per_io: f64,
    /// Die time in one second, ns (dies x 1 s, over all members of an array).
    die_second_ns: f64,
    /// Every latency of the seconds completed so far (the page's histogram of the run).
    latencies: Histogram,
}

impl Seconds {
    pub fn new(seconds: u32, host_cpu_cycles_per_io: u64, dies: u32) -> Self {
        Seconds {
            second: 0,
            second_end_ns: NS_PER_S,
            bins: VecDeque::new(),
            counted: Counters::default(),
            app_bytes: 0,
            cleaner_bytes: 0,
            last_second: seconds,
            end_ns: u64::MAX,
            host_cpu_cycles_per_io: host_cpu_cycles_per_io as f64,
            die_second_ns: dies as f64 * NS_PER_S as f64,
            latencies: Histogram::default(),
        }
    }

    /// Seconds completed so far.
    pub fn done(&self) -> u32 {
        self.second
    }

    pub fn finished(&self) -> bool {
        self.second >= self.last_second
    }

    /// Every latency of the seconds completed so far.
    pub fn latencies(&self) -> &Histogram {
        &self.latencies
    }

    /// The workload ended at `end_ns` (its last completion), before the run's time: every second
    /// up to it is final, the last one covered only up to `end_ns`, and no more follow.
    pub fn end_at(&mut self, end_ns: u64, drive: &mut Target, out: &mut Vec<Sample>) {
        self.end_ns = end_ns;
        self.cut(end_ns.saturating_add(NS_PER_S - 1), drive, out);
        self.last_second = self.second;
    }

    /// The completions of the second in which `t_ns` falls (not before the current second).
    #[inline]
    pub fn bin(&mut self, t_ns: u64) -> &mut Completions {
        let index = (t_ns / NS_PER_S).saturating_sub(self.second as u64) as usize;
        while self.bins.len() <= index {
            self.bins.push_back(Completions::default());
        }
        &mut self.bins[index]
    }

    /// Emits a sample for every second that ends at or before `now_ns`.
    #[inline]
    pub fn cut(&mut self, now_ns: u64, drive: &mut Target, out: &mut Vec<Sample>) {
        while now_ns >= self.second_end_ns && !self.finished() {
            let c = self.bins.pop_front().unwrap_or_default();
            drive.second_ended();
            out.push(self.sample(&c, drive));
            self.latencies.merge(&c.latency);
            self.second += 1;
            self.second_end_ns += NS_PER_S;
            drive.second_began(self.second);
        }
    }

    /// The second ending now: its completions, the drive's work since the last cut and its
    /// state at the second's end.
    fn sample(&mut self, c: &Completions, drive: &Target) -> Sample {
        let total = drive.counters();
        let work = total.since(&self.counted);
        self.counted = total;
        let status = drive.status(self.second_end_ns);
        let die = |k: usize| work.die_busy_ns[k] as f64 / self.die_second_ns;
        let app = c.host_write_bytes - c.cleaner_write_bytes;
        self.app_bytes += app;
        self.cleaner_bytes += c.cleaner_write_bytes;
        let write_amplification = if total.host_write_bytes == 0 {
            0.0
        } else {
            total.nand_write_bytes as f64 / total.host_write_bytes as f64
        };
        let host_write_amplification = if self.app_bytes == 0 {
            1.0
        } else {
            (self.app_bytes + self.cleaner_bytes) as f64 / self.app_bytes as f64
        };
        let percentile = |p: f64| c.latency.percentile(p) as f64 / 1e3;
        Sample {
            second: self.second,
            iops: c.ios,
            mb_s: c.bytes as f64 / 1e6,
            mean_latency_us: if c.ios == 0 { 0.0 } else { c.latency_sum_ns as f64 / c.ios as f64 / 1e3 },
            max_latency_us: c.latency_max_ns as f64 / 1e3,
            gc_moves: work.gc_moves as u32,
            erases: work.erases as u32,
            free_blocks: status.free_blocks as u32,
            host_writes: c.host_write_bytes as f64 / UNIT_BYTES as f64,
            nand_writes: work.nand_write_bytes as f64 / UNIT_BYTES as f64,
            rmw_reads: work.rmw_reads as u32,
            write_amplification,
            host_cpu_cores: c.ios as f64 * self.host_cpu_cycles_per_io / HOST_CPU_HZ,
            buffer_units: status.buffer_units,
            write_buffering: status.write_buffering as u32,
            capacitors_healthy: (status.capacitors == CapacitorState::Healthy) as u32,
            smart_flag: status.capacitors.smart_flag() as u32,
            acknowledged_writes_lost: c.acknowledged_writes_lost,
            map_hit_rate: if work.map_lookups == 0 {
                1.0
            } else {
                1.0 - work.map_misses as f64 / work.map_lookups as f64
            },
            gc_active_dies: status.gc_active_dies,
            gc_boost: status.gc_boost as u32,
            erase_count_min: status.erase_count_min,
            erase_count_max: status.erase_count_max,
            retired_blocks: status.retired_blocks as u32,
            read_only: status.read_only,
            latency_p50_us: percentile(50.0),
            latency_p99_us: percentile(99.0),
            latency_p99_9_us: percentile(99.9),
            latency_p99_99_us: percentile(99.99),
            mean_outstanding: c.latency_sum_ns as f64 / NS_PER_S as f64,
            die_host_read: die(0),
            die_host_program: die(1),
            die_gc_read: die(2),
            die_gc_program: die(3),
            die_erase: die(4),
            die_map: die(5),
            die_fold: die(6),
            slc_free_gb: (status.slc_free_units * UNIT_BYTES) as f64 / 1e9,
            slc_data_gb: (status.slc_data_units * UNIT_BYTES) as f64 / 1e9,
            fold_mb_s: (work.folded_units * UNIT_BYTES) as f64 / 1e6,
            host_to_slc: if work.cache_host_pages == 0 {
                0.0
            } else {
                work.cache_slc_pages as f64 / work.cache_host_pages as f64
            },
            slc_blocks: status.slc_blocks,
            map_hmb_hit_rate: if work.map_lookups == 0 {
                0.0
            } else {
                work.map_hmb_hits as f64 / work.map_lookups as f64
            },
            temperature_c: status.temperature_c,
            throttle_step: status.throttle_step,
            host_write_amplification,
            cleaner_mb_s: c.cleaner_write_bytes as f64 / 1e6,
            app_mb_s: app as f64 / 1e6,
            total_write_amplification: host_write_amplification * write_amplification,
            zone_resets: work.zone_resets as u32,
            open_zones: status.open_zones,
            active_zones: status.active_zones,
            full_zones: status.full_zones,
            second_covered: if self.end_ns < self.second_end_ns {
                (self.end_ns.saturating_sub(self.second_end_ns - NS_PER_S)) as f64 / NS_PER_S as f64
            } else {
                1.0
            },
        }
    }
}
