//! The run summary computed from its samples.

use serde::Serialize;

use super::sample::Sample;

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
    /// The IOPS mean is IOs over the time run: a last second the run covered only in part (a
    /// replay's end) counts by its share; the lowest and highest are of whole seconds (of the
    /// partial one's rate if no second is whole).
    pub fn from_samples(samples: &[Sample], steady_from_s: u32) -> Summary {
        let stats = |s: &[Sample]| -> (f64, u32, u32, u64, f64, f64) {
            let ios: u64 = s.iter().map(|x| x.iops as u64).sum();
            let host: f64 = s.iter().map(|x| x.host_writes).sum();
            let nand: f64 = s.iter().map(|x| x.nand_writes).sum();
            let covered: f64 = s.iter().map(|x| x.second_covered).sum();
            let mean = if covered == 0.0 { 0.0 } else { ios as f64 / covered };
            let whole = || s.iter().filter(|x| x.second_covered == 1.0).map(|x| x.iops);
            let (min, max) = match (whole().min(), whole().max()) {
                (Some(min), Some(max)) => (min, max),
                _ => (mean.round() as u32, mean.round() as u32),
            };
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
