//! Runs an experiment's points one after another, a slice at a time (the page's worker asks
//! for the next slice between messages), and gathers their rows into one table.

use std::cell::RefCell;
use std::rc::Rc;

use serde::Serialize;
use serde_json::json;

use super::measure::{round, PhaseObserver, PhaseStats};
use super::table_evidence::{table_evidence, TableEvidence};
use super::{Definition, ExperimentRequest, Measure, Point, Value};
use crate::bench::{Bench, Sample, Summary};
use crate::config::RunConfig;
use crate::units::{ConfigError, UNIT_BYTES};

/// The experiment's results: one row per measured phase, second or run.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Table {
    pub experiment: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

impl Table {
    /// CSV with a header line; text cells as they are (no cell holds a comma).
    pub fn csv(&self) -> String {
        let mut out = self.columns.join(",");
        out.push('\n');
        out.push_str(&self.csv_rows(0));
        out
    }

    /// The CSV lines of the rows from `from` on (no header): the page's worker sends each
    /// slice's new rows, so a long table (a fill's row per second) is not written again and again.
    pub fn csv_rows(&self, from: usize) -> String {
        let mut out = String::new();
        for row in self.rows.iter().skip(from) {
            for (i, v) in row.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                match v {
                    Value::String(s) => out.push_str(s),
                    Value::Null => {}
                    other => out.push_str(&other.to_string()),
                }
            }
            out.push('\n');
        }
        out
    }
}

/// How far an experiment has got.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Progress {
    pub points_done: usize,
    pub points: usize,
    /// Simulated seconds of the running point, done and planned.
    pub seconds_done: u32,
    pub seconds: u32,
    /// Host bytes the running point has written, and will write before its writes end it (a
    /// whole-drive fill); both 0 for a point its seconds end.
    pub written_bytes: u64,
    pub bytes: u64,
}

struct Running {
    bench: Bench,
    stats: Option<Rc<RefCell<Vec<PhaseStats>>>>,
    /// Listed phases already given a row.
    phases_reported: usize,
    samples: Vec<Sample>,
    /// Host bytes written in the seconds given rows so far (`Measure::Written`: the app's, in
    /// the first `counted` samples).
    written_bytes: f64,
    counted: usize,
}

impl Running {
    /// Counts the app's bytes of the samples not counted yet (a second's: the point runs a
    /// second at a time); whether they have reached `to_bytes`.
    fn written_to(&mut self, to_bytes: u64) -> bool {
        for s in &self.samples[self.counted..] {
            self.written_bytes += app_bytes(s);
        }
        self.counted = self.samples.len();
        self.written_bytes >= to_bytes as f64
    }
}

/// The bytes the app (not a host store's cleaner) wrote in a second.
fn app_bytes(s: &Sample) -> f64 {
    (s.app_mb_s * 1e6).round()
}

pub struct Runner {
    def: &'static Definition,
    points: Vec<Point>,
    next: usize,
    running: Option<Running>,
    table: Table,
}

impl Runner {
    pub fn new(request: &ExperimentRequest) -> Result<Self, ConfigError> {
        let (def, points) = request.plan()?;
        let table = Table {
            experiment: def.id.to_string(),
            columns: def.columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        };
        Ok(Runner { def, points, next: 0, running: None, table })
    }

    /// Every point's run, in order.
    pub fn configs(&self) -> impl Iterator<Item = &RunConfig> {
        self.points.iter().map(|p| &p.cfg)
    }

    pub fn definition(&self) -> &'static Definition {
        self.def
    }

    pub fn finished(&self) -> bool {
        self.running.is_none() && self.next >= self.points.len()
    }

    pub fn progress(&self) -> Progress {
        let points_done = self.next - self.running.is_some() as usize;
        let mut p = Progress {
            points_done,
            points: self.points.len(),
            seconds_done: 0,
            seconds: 0,
            written_bytes: 0,
            bytes: 0,
        };
        if let Some(r) = &self.running {
            p.seconds_done = r.bench.seconds_done();
            p.seconds = r.bench.config().seconds;
            p.bytes = bytes_that_end(&self.points[self.next - 1]);
            if p.bytes > 0 {
                p.written_bytes = r.written_bytes as u64;
            }
        }
        p
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The published figures of the experiment's drive beside the table so far.
    pub fn figures(&self) -> Vec<TableEvidence> {
        table_evidence(&self.points, &self.table, self.finished())
    }

    /// Runs up to `max_ios` host IOs (at least one point's setup); returns how many rows were
    /// added.
    pub fn advance(&mut self, max_ios: u64) -> Result<usize, ConfigError> {
        let before = self.table.rows.len();
        let mut budget = max_ios;
        while budget > 0 && !self.finished() {
            if self.running.is_none() {
                self.start_next()?;
            }
            let r = self.running.as_mut().expect("a point is running");
            let point = &self.points[self.next - 1];
            let mut out = Vec::new();
            // A point its writes end runs a second at a time, so it simulates no second it drops.
            budget -= match point.measure {
                Measure::Written { .. } => r.bench.advance_to_second(r.bench.seconds_done() + 1, budget, &mut out),
                _ => r.bench.advance(budget, &mut out),
            }
            .min(budget);
            r.samples.extend(out);
            let rows = rows_so_far(point, r, &self.table.columns);
            self.table.rows.extend(rows);
            let written = match point.measure {
                Measure::Written { to_bytes, .. } => r.written_to(to_bytes),
                _ => false,
            };
            if written || r.bench.finished() {
                let rows = rows_at_end(point, r, &self.table.columns);
                self.table.rows.extend(rows);
                self.running = None;
            }
        }
        Ok(self.table.rows.len() - before)
    }

    fn start_next(&mut self) -> Result<(), ConfigError> {
        let point = &self.points[self.next];
        self.next += 1;
        let mut bench = Bench::new(point.cfg.clone())?;
        let stats = match &point.measure {
            Measure::Phases(_) => {
                let (observer, stats) = PhaseObserver::new(&point.cfg.phases);
                bench.observe(Box::new(observer));
                Some(stats)
            }
            _ => None,
        };
        self.running =
            Some(Running { bench, stats, phases_reported: 0, samples: Vec::new(), written_bytes: 0.0, counted: 0 });
        Ok(())
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) -> Result<&Table, ConfigError> {
        while !self.finished() {
            self.advance(u64::MAX)?;
        }
        Ok(&self.table)
    }
}

/// The host bytes whose writing ends a point: the app's of a `Measure::Written` point, or of a
/// point measured by its seconds, when its writes end it (every phase ends with its bytes); 0
/// otherwise.
fn bytes_that_end(point: &Point) -> u64 {
    if let Measure::Written { to_bytes, .. } = point.measure {
        return to_bytes;
    }
    let phases = &point.cfg.phases;
    let ended_by_bytes =
        phases.iter().all(|p| p.runtime_ns == 0 && p.jobs.iter().all(|j| j.io_limit_bytes > 0 && j.read_percent == 0));
    if !matches!(point.measure, Measure::Seconds) || !ended_by_bytes {
        return 0;
    }
    phases.iter().flat_map(|p| &p.jobs).map(|j| j.io_limit_bytes).sum()
}

/// A row in the table's column order from named cells (a column no cell names stays empty).
fn row(columns: &[String], cells: &[(&'static str, Value)]) -> Vec<Value> {
    columns.iter().map(|c| cells.iter().find(|(n, _)| n == c).map_or(Value::Null, |(_, v)| v.clone())).collect()
}

/// Rows final while the point still runs: listed phases the host has moved past, and seconds.
fn rows_so_far(point: &Point, r: &mut Running, columns: &[String]) -> Vec<Vec<Value>> {
    match &point.measure {
        Measure::Phases(listed) => {
            let current = if r.bench.finished() { usize::MAX } else { r.bench.phase() };
            let mut rows = Vec::new();
            while let Some((index, labels)) = listed.get(r.phases_reported).filter(|(i, _)| *i < current) {
                let stats = r.stats.as_ref().expect("phases are observed").borrow()[*index].clone();
                let phase = &point.cfg.phases[*index];
                let mut cells = point.labels.clone();
                cells.extend(labels.iter().cloned());
                // A phase that ends with its bytes is measured until its last completion.
                let measured_ns = if phase.runtime_ns == 0 {
                    stats.last_ns - stats.start_ns
                } else {
                    phase.runtime_ns.saturating_sub(phase.ramp_ns)
                };
                cells.extend(stats.cells(measured_ns));
                if let Some(raid) = &point.cfg.raid {
                    let iops = stats.ios as f64 / (measured_ns.max(1) as f64 / 1e9);
                    cells.push(("iops_per_drive", json!(round(iops / raid.drives as f64, 1))));
                }
                rows.push(row(columns, &cells));
                r.phases_reported += 1;
            }
            rows
        }
        Measure::Seconds => {
            let rows = r
                .samples
                .iter()
                .map(|s| {
                    r.written_bytes += s.host_writes * UNIT_BYTES as f64;
                    row(columns, &second_cells(point, s, r.written_bytes))
                })
                .collect();
            r.samples.clear();
            rows
        }
        Measure::Steady { .. } | Measure::Written { .. } => Vec::new(),
    }
}

fn rows_at_end(point: &Point, r: &mut Running, columns: &[String]) -> Vec<Vec<Value>> {
    if let Measure::Written { data_bytes, from_bytes, .. } = point.measure {
        return vec![row(columns, &written_cells(point, &r.samples, data_bytes, from_bytes))];
    }
    let Measure::Steady { steady_from_s, extra } = &point.measure else { return Vec::new() };
    let s = Summary::from_samples(&r.samples, *steady_from_s);
    let mut cells = point.labels.clone();
    cells.extend([
        ("steady_iops_mean", json!(round(s.steady_iops_mean, 1))),
        ("steady_iops_min", json!(s.steady_iops_min)),
        ("steady_iops_max", json!(s.steady_iops_max)),
        ("steady_spread", json!(round(s.steady_spread, 4))),
        ("write_amplification", json!(round(s.steady_write_amplification, 4))),
    ]);
    if let Some(f) = extra {
        cells.extend(f(&point.cfg, s.steady_write_amplification));
    }
    vec![row(columns, &cells)]
}

/// A `Measure::Written` point's cells from its seconds after the app's `from_bytes` (or the second
/// half of its writes, if the request's seconds ended it first): drive writes
/// of the app's data in all, seconds, IOPS (every host command, a store's cleaner's too), the
/// app's MB/s, the mean of the seconds' p99 latency, write amplification of the drive (NAND
/// over host writes), of the host (app and cleaner writes over the app's) and both.
fn written_cells(point: &Point, samples: &[Sample], data_bytes: u64, from_bytes: u64) -> Vec<(&'static str, Value)> {
    let app: f64 = samples.iter().map(app_bytes).sum();
    // A point the request's seconds cut short is measured over the second half of its writes.
    let from = (from_bytes as f64).min(app / 2.0);
    let mut written = 0.0;
    let first = samples
        .iter()
        .position(|s| {
            written += app_bytes(s);
            written > from
        })
        .map_or(samples.len(), |i| i + 1);
    let window = &samples[first..];
    let n = window.len().max(1) as f64;
    let sum = |f: fn(&Sample) -> f64| window.iter().map(f).sum::<f64>();
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    let device = ratio(sum(|s| s.nand_writes), sum(|s| s.host_writes));
    let app_mb = sum(|s| s.app_mb_s);
    let host = ratio(app_mb + sum(|s| s.cleaner_mb_s), app_mb);
    let mut cells = point.labels.clone();
    cells.extend([
        ("drive_writes", json!(round(app / data_bytes as f64, 2))),
        ("seconds", json!(samples.len())),
        ("iops", json!(round(sum(|s| s.iops as f64) / n, 1))),
        ("app_mb_s", json!(round(app_mb / n, 2))),
        ("latency_p99_us", json!(round(sum(|s| s.latency_p99_us) / n, 1))),
        ("write_amplification", json!(round(device, 3))),
        ("host_write_amplification", json!(round(host, 3))),
        ("total_write_amplification", json!(round(device * host, 3))),
        ("gc_moves", json!(window.iter().map(|s| s.gc_moves as u64).sum::<u64>())),
    ]);
    cells
}

/// A second's cells; `written_bytes`: host bytes written by its end. The amounts per second
/// (IOs, MB) of a last second the run covered in part (a fill's end) are rates over that part.
fn second_cells(point: &Point, s: &Sample, written_bytes: f64) -> Vec<(&'static str, Value)> {
    let share = if s.second_covered > 0.0 && s.second_covered < 1.0 { s.second_covered } else { 1.0 };
    let mut cells = point.labels.clone();
    cells.extend([
        ("second", json!(s.second)),
        ("iops", json!((s.iops as f64 / share).round() as u64)),
        ("mb_s", json!(round(s.mb_s / share, 2))),
        ("latency_mean_us", json!(round(s.mean_latency_us, 1))),
        ("latency_max_us", json!(round(s.max_latency_us, 1))),
        ("write_amplification", json!(round(s.write_amplification, 4))),
        ("free_blocks", json!(s.free_blocks)),
        ("gc_moves", json!(s.gc_moves)),
        ("gb_written", json!(round(written_bytes / 1e9, 3))),
        ("slc_free_gb", json!(round(s.slc_free_gb, 3))),
        ("slc_data_gb", json!(round(s.slc_data_gb, 3))),
        ("fold_mb_s", json!(round(s.fold_mb_s / share, 2))),
        ("temperature_c", json!(round(s.temperature_c, 2))),
        ("throttle_step", json!(s.throttle_step)),
    ]);
    cells
}
