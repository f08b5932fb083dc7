//! fio's per-interval logs: rows of `time (ms), value, direction, block size, [offset,] priority`,
//! one per command, or with `log_avg_msec` one per direction and window (the average, or with
//! `log_max_value` the largest, of the window; block size and offset then 0). A window is
//! written once a later command completes; a last window cut short by the job's end is not
//! (as fio leaves it out).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::bench::Completion;
use crate::command::Op;
use crate::config::JobSpec;
use crate::host::fio::FioJob;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Iops,
    Bw,
    Clat,
    Slat,
    Lat,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Iops => "iops",
            Kind::Bw => "bw",
            Kind::Clat => "clat",
            Kind::Slat => "slat",
            Kind::Lat => "lat",
        }
    }
}

/// fio's data direction of a command: 0 read, 1 write, 2 trim (fio counts a zone reset as a
/// trim: "Trim is handled using a zone reset operation"; the other zone commands with it).
pub fn direction(op: Op) -> usize {
    match op {
        Op::Read => 0,
        Op::Write | Op::Append => 1,
        Op::Trim | Op::ZoneReset | Op::ZoneFinish | Op::ZoneOpen | Op::ZoneClose => 2,
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Window {
    ios: u64,
    bytes: u64,
    lat_sum_ns: u64,
    lat_max_ns: u64,
}

/// One job's logs.
pub struct JobLog {
    files: Vec<(Kind, String)>,
    avg_ms: u64,
    max_value: bool,
    offset: bool,
    /// Directions the job issues (their IOPS and bandwidth rows are written even when 0).
    active: [bool; 3],
    /// The window being gathered (windowed logs) and its per-direction totals.
    window: u64,
    acc: [Window; 3],
}

impl JobLog {
    /// The job's logs, if it writes any.
    pub fn new(meta: &FioJob, spec: &JobSpec) -> Option<Self> {
        let logs = &meta.logs;
        let mut files = Vec::new();
        let mut add = |prefix: &Option<String>, kinds: &[Kind]| {
            if let Some(p) = prefix {
                files.extend(kinds.iter().map(|&k| (k, logs.file_name(p, k.name(), meta.number))));
            }
        };
        add(&logs.iops, &[Kind::Iops]);
        add(&logs.bw, &[Kind::Bw]);
        add(&logs.lat, &[Kind::Slat, Kind::Clat, Kind::Lat]);
        if files.is_empty() {
            return None;
        }
        let writes = spec.read_percent < 100;
        Some(JobLog {
            files,
            avg_ms: logs.avg_msec,
            max_value: logs.max_value,
            offset: logs.offset,
            active: [spec.read_percent > 0, writes && spec.trim_percent < 100, writes && spec.trim_percent > 0],
            window: 0,
            acc: [Window::default(); 3],
        })
    }

    /// A command completed (in completion order), `at_ns` after the job's measurement began.
    pub fn completed(&mut self, out: &mut BTreeMap<String, String>, at_ns: u64, c: &Completion) {
        let d = direction(c.op);
        let lat = c.done_ns - c.issue_ns;
        if self.avg_ms == 0 {
            let t = at_ns / 1_000_000;
            for (kind, file) in &self.files {
                let value = match kind {
                    Kind::Iops => 1,
                    Kind::Bw => c.bytes as u64 * 1_000_000 / lat.max(1),
                    Kind::Clat | Kind::Lat => lat,
                    Kind::Slat => 0,
                };
                row(
                    out.entry(file.clone()).or_default(),
                    t,
                    value,
                    d,
                    c.bytes as u64,
                    self.offset.then_some(c.offset_bytes),
                );
            }
            return;
        }
        let window = at_ns / (self.avg_ms * 1_000_000);
        while self.window < window {
            self.flush(out);
        }
        let w = &mut self.acc[d];
        w.ios += 1;
        w.bytes += c.bytes as u64;
        w.lat_sum_ns += lat;
        w.lat_max_ns = w.lat_max_ns.max(lat);
    }

    /// Writes the window being gathered and starts the next.
    fn flush(&mut self, out: &mut BTreeMap<String, String>) {
        let t = (self.window + 1) * self.avg_ms;
        for (kind, file) in &self.files {
            for d in 0..3 {
                let w = self.acc[d];
                let value = match kind {
                    Kind::Iops if self.active[d] || w.ios > 0 => w.ios * 1000 / self.avg_ms,
                    Kind::Bw if self.active[d] || w.ios > 0 => w.bytes * 1000 / self.avg_ms / 1024,
                    Kind::Clat | Kind::Lat if w.ios > 0 => {
                        if self.max_value {
                            w.lat_max_ns
                        } else {
                            w.lat_sum_ns / w.ios
                        }
                    }
                    Kind::Slat if w.ios > 0 => 0,
                    _ => continue,
                };
                row(out.entry(file.clone()).or_default(), t, value, d, 0, self.offset.then_some(0));
            }
        }
        self.window += 1;
        self.acc = [Window::default(); 3];
    }
}

fn row(out: &mut String, t_ms: u64, value: u64, ddir: usize, bs: u64, offset: Option<u64>) {
    let _ = match offset {
        Some(o) => writeln!(out, "{}, {}, {}, {}, {}, 0", t_ms, value, ddir, bs, o),
        None => writeln!(out, "{}, {}, {}, {}, 0", t_ms, value, ddir, bs),
    };
}
