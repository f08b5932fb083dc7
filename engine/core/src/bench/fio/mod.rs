//! Results in fio's shapes: an observer that keeps fio's per-job statistics (bytes, commands,
//! latency with a log-linear histogram for percentiles, bandwidth and IOPS samples), writes
//! its per-interval logs, and ends a phase once its steady-state condition holds. `json.rs`
//! writes fio's `--output-format=json` layout; `read.rs` reads that layout and the logs, fio's
//! own or ours.

mod histogram;
mod json;
mod log;
mod read;
mod steady;

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::rc::Rc;

use super::{Completion, Observer};
use crate::host::fio::FioJobFile;
pub use histogram::Histogram;
use log::{direction, JobLog};
pub use read::{read_json, read_log, DirResult, FioResults, JobResult, LatResult, LogRow};
use steady::Watch;

/// One direction's statistics of a job, from the end of its ramp.
#[derive(Debug, Clone, Default)]
pub struct DirStats {
    pub ios: u64,
    pub bytes: u64,
    pub lat_min_ns: u64,
    pub lat_max_ns: u64,
    lat_sum: f64,
    lat_sum_sq: f64,
    pub histogram: Histogram,
    /// Bytes in each bandwidth window and commands in each IOPS window (fio's bwavgtime and
    /// iopsavgtime), from the start of measurement.
    bw_windows: Vec<u64>,
    iops_windows: Vec<u64>,
}

impl DirStats {
    fn record(&mut self, latency_ns: u64, bytes: u64, bw_window: usize, iops_window: usize) {
        self.lat_min_ns = if self.ios == 0 { latency_ns } else { self.lat_min_ns.min(latency_ns) };
        self.lat_max_ns = self.lat_max_ns.max(latency_ns);
        self.ios += 1;
        self.bytes += bytes;
        self.lat_sum += latency_ns as f64;
        self.lat_sum_sq += (latency_ns as f64).powi(2);
        self.histogram.record(latency_ns);
        for (windows, i, add) in [(&mut self.bw_windows, bw_window, bytes), (&mut self.iops_windows, iops_window, 1)] {
            if windows.len() <= i {
                windows.resize(i + 1, 0);
            }
            windows[i] += add;
        }
    }

    fn merge(&mut self, o: &DirStats) {
        if o.ios == 0 {
            return;
        }
        self.lat_min_ns = if self.ios == 0 { o.lat_min_ns } else { self.lat_min_ns.min(o.lat_min_ns) };
        self.lat_max_ns = self.lat_max_ns.max(o.lat_max_ns);
        self.ios += o.ios;
        self.bytes += o.bytes;
        self.lat_sum += o.lat_sum;
        self.lat_sum_sq += o.lat_sum_sq;
        self.histogram.merge(&o.histogram);
        for (mine, theirs) in [(&mut self.bw_windows, &o.bw_windows), (&mut self.iops_windows, &o.iops_windows)] {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }

    pub fn lat_mean_ns(&self) -> f64 {
        if self.ios == 0 {
            0.0
        } else {
            self.lat_sum / self.ios as f64
        }
    }

    /// Population standard deviation of the latencies, ns.
    pub fn lat_stddev_ns(&self) -> f64 {
        if self.ios < 2 {
            return 0.0;
        }
        let mean = self.lat_mean_ns();
        (self.lat_sum_sq / self.ios as f64 - mean * mean).max(0.0).sqrt()
    }
}

/// One job's statistics.
#[derive(Debug, Clone, Default)]
pub struct JobStats {
    /// When measurement began (its phase's start plus ramp), ns; None before its phase ran.
    pub start_ns: Option<u64>,
    /// The last command counted completed at, ns.
    pub last_ns: u64,
    pub dirs: [DirStats; 3],
}

impl JobStats {
    /// Measured time, ms (fio's runtime).
    pub fn runtime_ms(&self) -> u64 {
        self.start_ns.map_or(0, |s| self.last_ns.saturating_sub(s).div_ceil(1_000_000))
    }
}

/// fio's statistics, logs and steady-state checks for a run of a job file.
pub struct FioRecorder {
    file: FioJobFile,
    stats: Vec<Vec<JobStats>>,
    logs: Vec<Vec<Option<JobLog>>>,
    /// Log text not yet taken, by file name.
    log_text: BTreeMap<String, String>,
    /// Each phase's steady-state watch, from its first completion (`watched`).
    watches: Vec<Option<Watch>>,
    watched: Vec<bool>,
    /// Completions waiting for the host's clock to pass their time, so they are counted in the
    /// order they complete: (done_ns, slot in `slots`), the slots reused through `free`.
    pending: BinaryHeap<Reverse<(u64, u32)>>,
    slots: Vec<Completion>,
    free: Vec<u32>,
    /// A phase whose steady state was just attained (to be ended).
    stop: Option<usize>,
    /// When the last command completed, ns.
    end_ns: u64,
}

impl FioRecorder {
    pub fn new(file: &FioJobFile) -> Self {
        let logs = file
            .phases
            .iter()
            .zip(&file.jobs)
            .map(|(p, metas)| p.jobs.iter().zip(metas).map(|(spec, meta)| JobLog::new(meta, spec)).collect())
            .collect();
        FioRecorder {
            stats: file.jobs.iter().map(|jobs| vec![JobStats::default(); jobs.len()]).collect(),
            logs,
            log_text: BTreeMap::new(),
            watches: file.phases.iter().map(|_| None).collect(),
            watched: vec![false; file.phases.len()],
            pending: BinaryHeap::new(),
            slots: Vec::new(),
            free: Vec::new(),
            stop: None,
            end_ns: 0,
            file: file.clone(),
        }
    }

    /// A shared recorder and the observer to give the bench.
    pub fn shared(file: &FioJobFile) -> (Rc<RefCell<FioRecorder>>, Box<dyn Observer>) {
        let rec = Rc::new(RefCell::new(FioRecorder::new(file)));
        (rec.clone(), Box::new(Shared(rec)))
    }

    pub fn file(&self) -> &FioJobFile {
        &self.file
    }

    /// A command completed (the bench reports them in issue order); true ends the running phase.
    pub fn completed(&mut self, c: &Completion) -> bool {
        // Nothing issued from now on completes before `issue_ns`: what completed by then is final.
        while let Some(&Reverse((done_ns, slot))) = self.pending.peek() {
            if done_ns > c.issue_ns {
                break;
            }
            self.pending.pop();
            self.free.push(slot);
            let done = self.slots[slot as usize];
            self.count(&done);
        }
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot as usize] = *c;
                slot
            }
            None => {
                self.slots.push(*c);
                (self.slots.len() - 1) as u32
            }
        };
        self.pending.push(Reverse((c.done_ns, slot)));
        self.stop.take() == Some(c.phase)
    }

    /// The run is over: everything still pending is counted.
    pub fn finish(&mut self) {
        while let Some(Reverse((_, slot))) = self.pending.pop() {
            let c = self.slots[slot as usize];
            self.count(&c);
        }
        self.slots.clear();
        self.free.clear();
        self.stop = None;
    }

    /// Log text written since the last call: (file name, text to append).
    pub fn take_logs(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.log_text).into_iter().filter(|(_, t)| !t.is_empty()).collect()
    }

    /// The results in fio's `--output-format=json` layout (call `finish` first).
    pub fn json(&self) -> serde_json::Value {
        json::results(self)
    }

    /// Counts one completion, in completion order.
    fn count(&mut self, c: &Completion) {
        let (Some(phase), Some(meta)) = (self.file.phases.get(c.phase), self.file.jobs.get(c.phase)) else { return };
        let Some(meta) = meta.get(c.job) else { return };
        self.end_ns = self.end_ns.max(c.done_ns);
        let bytes = c.bytes as u64;
        if !self.watched[c.phase] {
            self.watched[c.phase] = true;
            let ss = self.file.jobs[c.phase].iter().find_map(|j| j.steadystate.clone());
            self.watches[c.phase] = ss.map(|ss| Watch::new(ss, c.phase_start_ns));
        }
        if let Some(w) = self.watches[c.phase].as_mut() {
            if w.completed(c.done_ns, bytes) {
                self.stop = Some(c.phase);
            }
        }
        let start = c.phase_start_ns + phase.ramp_ns;
        if c.done_ns < start {
            return; // ramp: not counted, as in fio
        }
        let at = c.done_ns - start;
        let stats = &mut self.stats[c.phase][c.job];
        stats.start_ns = Some(start);
        stats.last_ns = stats.last_ns.max(c.done_ns);
        let bw_window = (at / (meta.bw_avg_ms * 1_000_000)) as usize;
        let iops_window = (at / (meta.iops_avg_ms * 1_000_000)) as usize;
        stats.dirs[direction(c.op)].record(c.done_ns - c.issue_ns, bytes, bw_window, iops_window);
        if let Some(log) = self.logs[c.phase][c.job].as_mut() {
            log.completed(&mut self.log_text, at, c);
        }
    }
}

struct Shared(Rc<RefCell<FioRecorder>>);

impl Observer for Shared {
    fn completed(&mut self, c: &Completion) -> bool {
        self.0.borrow_mut().completed(c)
    }
}
