//! Per-phase results of a bench: every completion after its phase's ramp, counted the way the
//! articles report a queue depth's point (IOPS, MB/s, average and maximum latency).

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::json;

use super::Value;
use crate::bench::fio::Histogram;
use crate::bench::{Completion, Observer};
use crate::command::Op;
use crate::config::Phase;

/// One phase's completions from the end of its ramp.
#[derive(Debug, Clone, Default)]
pub struct PhaseStats {
    pub ios: u64,
    pub read_ios: u64,
    pub bytes: u64,
    pub latency_sum_ns: u64,
    pub latency_max_ns: u64,
    pub histogram: Histogram,
    /// When measurement began and the last counted completion, ns.
    pub start_ns: u64,
    pub last_ns: u64,
}

impl PhaseStats {
    /// The row cells: IOPS and MB/s over the phase's measured time (`measured_ns`: its runtime
    /// less its ramp), latency mean, 99th percentile and maximum.
    pub fn cells(&self, measured_ns: u64) -> Vec<(&'static str, Value)> {
        let secs = measured_ns.max(1) as f64 / 1e9;
        let mean_us = if self.ios == 0 { 0.0 } else { self.latency_sum_ns as f64 / self.ios as f64 / 1e3 };
        vec![
            ("iops", json!(round(self.ios as f64 / secs, 1))),
            ("mb_s", json!(round(self.bytes as f64 / secs / 1e6, 2))),
            ("latency_mean_us", json!(round(mean_us, 1))),
            // A histogram bucket's middle may lie above the largest value in it.
            ("latency_p99_us", json!(round(self.histogram.percentile(99.0).min(self.latency_max_ns) as f64 / 1e3, 1))),
            ("latency_max_us", json!(round(self.latency_max_ns as f64 / 1e3, 1))),
            ("read_percent", json!(round(self.read_ios as f64 * 100.0 / self.ios.max(1) as f64, 1))),
        ]
    }
}

pub fn round(v: f64, digits: i32) -> f64 {
    let k = 10f64.powi(digits);
    (v * k).round() / k
}

/// Keeps `PhaseStats` for every phase of a run (shared with the runner that reads them).
pub struct PhaseObserver {
    ramps_ns: Vec<u64>,
    stats: Rc<RefCell<Vec<PhaseStats>>>,
}

impl PhaseObserver {
    pub fn new(phases: &[Phase]) -> (Self, Rc<RefCell<Vec<PhaseStats>>>) {
        let stats = Rc::new(RefCell::new(vec![PhaseStats::default(); phases.len()]));
        (PhaseObserver { ramps_ns: phases.iter().map(|p| p.ramp_ns).collect(), stats: stats.clone() }, stats)
    }
}

impl Observer for PhaseObserver {
    fn completed(&mut self, c: &Completion) -> bool {
        let start = c.phase_start_ns + self.ramps_ns[c.phase];
        if c.done_ns < start || c.op == Op::Trim {
            return false;
        }
        let s = &mut self.stats.borrow_mut()[c.phase];
        let latency = c.done_ns - c.issue_ns;
        s.start_ns = start;
        s.last_ns = s.last_ns.max(c.done_ns);
        s.ios += 1;
        s.read_ios += (c.op == Op::Read) as u64;
        s.bytes += c.bytes as u64;
        s.latency_sum_ns += latency;
        s.latency_max_ns = s.latency_max_ns.max(latency);
        s.histogram.record(latency);
        false
    }
}
