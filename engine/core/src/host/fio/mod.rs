//! fio job files as the simulator's workload: `[global]` and job sections become phases of jobs
//! (`stonewall` starts the next phase), each job a `JobSpec` (numjobs clones are separate jobs),
//! with what fio would report and log about it. Nothing is dropped silently: options that do
//! not change the drive's workload are listed as ignored, those the simulator cannot honour as
//! unsupported, each with its line; a malformed line is an error naming it.
//!
//! The option table is `options.rs`, fio's value syntax `values.rs`.

mod options;
mod values;

use std::collections::BTreeSet;

use crate::config::{BlockSizes, Distribution, JobSpec, Phase, Zone};
use crate::units::{ConfigError, MAX_JOBS, NS_PER_S, SECTOR_BYTES};
pub use options::{Class, OPTIONS};
use values::Amount;

/// The largest request a job may issue, bytes.
const MAX_REQUEST_BYTES: u64 = 16 << 20;
/// fio's default percentiles of completion latency.
pub const DEFAULT_PERCENTILES: [f64; 17] =
    [1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99];

/// A job file read for a drive: the phases to run and what to report about each job.
#[derive(Debug, Clone, PartialEq)]
pub struct FioJobFile {
    pub phases: Vec<Phase>,
    /// What fio reports and logs about each job, `jobs[phase][job]` as in `phases`.
    pub jobs: Vec<Vec<FioJob>>,
    /// The `[global]` options as written (fio's JSON "global options").
    pub global_options: Vec<(String, String)>,
    /// From `buffer_compress_percentage`, as a fraction.
    pub compressibility: Option<f64>,
    pub report: ImportReport,
}

/// One job as fio reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct FioJob {
    pub name: String,
    /// 1-based across the file, clones counted: the `x` of fio's `name_iops.x.log`.
    pub number: u32,
    /// Reporting group (a new one at each stonewall or new_group).
    pub group: u32,
    pub group_reporting: bool,
    /// The job section's own options as written (fio's JSON "job options").
    pub options: Vec<(String, String)>,
    /// Commands the job keeps outstanding, as it runs.
    pub iodepth: u32,
    pub logs: Logs,
    pub steadystate: Option<SteadyState>,
    pub percentiles: Vec<f64>,
    /// Windows for the bandwidth and IOPS samples (bw_min, iops_mean...), ms.
    pub bw_avg_ms: u64,
    pub iops_avg_ms: u64,
}

/// The logs a job writes (`write_iops_log=PREFIX` and friends).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Logs {
    pub iops: Option<String>,
    pub bw: Option<String>,
    /// Latency: clat, slat and lat logs.
    pub lat: Option<String>,
    /// Average (or take the largest of, `max_value`) each window of this many ms; 0 logs every
    /// command.
    pub avg_msec: u64,
    pub max_value: bool,
    /// Rows carry the command's offset.
    pub offset: bool,
    /// File names carry the job's number (fio's default).
    pub per_job: bool,
}

impl Logs {
    /// fio's name for a log: `PREFIX_KIND.N.log` (`PREFIX_KIND.log` without per_job_logs).
    pub fn file_name(&self, prefix: &str, kind: &str, number: u32) -> String {
        if self.per_job {
            format!("{}_{}.{}.log", prefix, kind, number)
        } else {
            format!("{}_{}.log", prefix, kind)
        }
    }
}

/// fio's steady-state condition: once a second, over the last `duration_s` seconds, the IOPS or
/// bandwidth stays within `limit` of its mean (or its slope is below `limit`).
#[derive(Debug, Clone, PartialEq)]
pub struct SteadyState {
    pub bandwidth: bool,
    pub slope: bool,
    pub limit: f64,
    /// `limit` is a percentage of the window's mean.
    pub percent: bool,
    pub duration_s: u32,
    /// Data collection starts this long after the phase's ramp, ns.
    pub ramp_ns: u64,
    /// As written, for the JSON (`iops_slope:0.1%`).
    pub text: String,
}

/// What the import could not take as written.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ImportReport {
    /// Options that do not change the workload the drive sees.
    pub ignored: Vec<Note>,
    /// Options the simulator cannot honour (the run goes on without them).
    pub unsupported: Vec<Note>,
    /// How an option was read where that is not obvious (fio's own rules).
    pub notes: Vec<Note>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Note {
    pub line: usize,
    /// `key=value` as written.
    pub option: String,
    pub message: String,
}

impl ImportReport {
    /// One line per entry, for the command line.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (kind, notes) in [("ignored", &self.ignored), ("unsupported", &self.unsupported), ("note", &self.notes)] {
            for n in notes {
                // Line 0: about the run request, not a line of the file.
                let at = if n.line == 0 { String::new() } else { format!("line {}: ", n.line) };
                out.push(format!("{}: {}{}: {}", kind, at, n.option, n.message));
            }
        }
        out
    }

    pub fn to_json(&self) -> serde_json::Value {
        let list = |notes: &[Note]| -> serde_json::Value {
            notes
                .iter()
                .map(|n| serde_json::json!({ "line": n.line, "option": n.option, "message": n.message }))
                .collect()
        };
        serde_json::json!({
            "ignored": list(&self.ignored),
            "unsupported": list(&self.unsupported),
            "notes": list(&self.notes),
        })
    }
}

impl FioJobFile {
    /// How long the phases run, if every phase has a runtime (ns).
    pub fn planned_ns(&self) -> Option<u64> {
        self.phases.iter().try_fold(0u64, |sum, p| (p.runtime_ns > 0).then(|| sum.saturating_add(p.runtime_ns)))
    }

    /// The import as JSON: the phases and jobs it made and the report.
    pub fn to_json(&self) -> serde_json::Value {
        let phases: Vec<serde_json::Value> = self
            .phases
            .iter()
            .zip(&self.jobs)
            .map(|(p, jobs)| {
                let jobs: Vec<serde_json::Value> = p.jobs.iter().zip(jobs).map(|(s, f)| job_json(s, f)).collect();
                serde_json::json!({
                    "name": p.name,
                    "runtime_s": p.runtime_ns as f64 / 1e9,
                    "ramp_s": p.ramp_ns as f64 / 1e9,
                    "jobs": jobs,
                })
            })
            .collect();
        let mut m = serde_json::json!({ "phases": phases, "compressibility": self.compressibility });
        if let (Some(obj), serde_json::Value::Object(report)) = (m.as_object_mut(), self.report.to_json()) {
            obj.extend(report);
        }
        m
    }
}

fn sizes_text(b: &BlockSizes) -> String {
    b.entries.iter().map(|(s, w)| format!("{}/{}", s, w)).collect::<Vec<_>>().join(":")
}

fn job_json(s: &JobSpec, f: &FioJob) -> serde_json::Value {
    serde_json::json!({
        "name": f.name,
        "number": f.number,
        "group": f.group,
        "read_percent": s.read_percent,
        "trim_percent": s.trim_percent,
        "random_percent": s.random_percent,
        "read_sizes": sizes_text(&s.read_sizes),
        "write_sizes": sizes_text(&s.write_sizes),
        "align_bytes": s.align_bytes,
        "queue_depth": s.queue_depth,
        "offset_bytes": s.offset_bytes,
        "size_bytes": s.size_bytes,
        "io_limit_bytes": s.io_limit_bytes,
        "distribution": format!("{:?}", s.distribution),
        "random_map": s.random_map,
        "rate_iops": s.rate_iops,
        "thinktime_us": s.thinktime_ns / 1000,
        "steadystate": f.steadystate.as_ref().map(|s| s.text.clone()),
    })
}

/// One `key=value` line of a section.
#[derive(Debug, Clone)]
struct Opt {
    line: usize,
    /// Lower case, alias resolved.
    key: String,
    /// As written (for messages and fio's JSON).
    written_key: String,
    value: String,
}

impl Opt {
    fn text(&self) -> String {
        if self.value.is_empty() {
            self.written_key.clone()
        } else {
            format!("{}={}", self.written_key, self.value)
        }
    }

    fn error(&self, message: impl std::fmt::Display) -> ConfigError {
        ConfigError::new("fio", format!("line {}: {}: {}", self.line, self.text(), message))
    }

    fn note(&self, message: impl Into<String>) -> Note {
        Note { line: self.line, option: self.text(), message: message.into() }
    }
}

struct Section {
    name: String,
    options: Vec<Opt>,
}

/// A comment starts a line with `;` or `#`, or follows whitespace.
fn strip_comment(line: &str) -> &str {
    let t = line.trim_start();
    if t.starts_with(';') || t.starts_with('#') {
        return "";
    }
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if (b == b';' || b == b'#') && i > 0 && bytes[i - 1].is_ascii_whitespace() {
            return &line[..i];
        }
    }
    line
}

/// Splits the text into sections; errors name the line.
fn sections(text: &str, report: &mut ImportReport) -> Result<Vec<Section>, ConfigError> {
    let mut out: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        let error = |m: String| ConfigError::new("fio", format!("line {}: {}", number, m));
        if let Some(rest) = line.strip_prefix('[') {
            let name = rest
                .strip_suffix(']')
                .ok_or_else(|| error(format!("'{}': a section header is [name], e.g. [global] or [job1]", line)))?
                .trim();
            if name.is_empty() {
                return Err(error("a section needs a name between the brackets, e.g. [job1]".into()));
            }
            out.push(Section { name: name.to_string(), options: Vec::new() });
            continue;
        }
        if let Some(file) = line.strip_prefix("include ") {
            report.unsupported.push(Note {
                line: number,
                option: line.to_string(),
                message: format!("included files are not read; paste the options of '{}' here", file.trim()),
            });
            continue;
        }
        let Some(section) = out.last_mut() else {
            return Err(error(format!(
                "'{}' comes before any section; a job file starts with [global] or a job's [name]",
                line
            )));
        };
        let (key, value) = line.split_once('=').unwrap_or((line, ""));
        let written_key = key.trim().to_string();
        if written_key.is_empty() || written_key.contains(char::is_whitespace) {
            return Err(error(format!("'{}' is not an option; options are written name=value, e.g. bs=4k", line)));
        }
        let lower = written_key.to_ascii_lowercase();
        section.options.push(Opt {
            line: number,
            key: options::canonical(&lower).to_string(),
            written_key,
            value: value.trim().to_string(),
        });
    }
    Ok(out)
}

/// fio's rw values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rw {
    Read,
    Write,
    Trim,
    RandRead,
    RandWrite,
    RandTrim,
    Mixed,
    RandMixed,
    TrimWrite,
    RandTrimWrite,
}

impl Rw {
    fn parse(text: &str) -> Option<Rw> {
        Some(match text {
            "read" => Rw::Read,
            "write" => Rw::Write,
            "trim" => Rw::Trim,
            "randread" => Rw::RandRead,
            "randwrite" => Rw::RandWrite,
            "randtrim" => Rw::RandTrim,
            "rw" | "readwrite" => Rw::Mixed,
            "randrw" => Rw::RandMixed,
            "trimwrite" => Rw::TrimWrite,
            "randtrimwrite" => Rw::RandTrimWrite,
            _ => return None,
        })
    }

    fn random(self) -> bool {
        matches!(self, Rw::RandRead | Rw::RandWrite | Rw::RandTrim | Rw::RandMixed | Rw::RandTrimWrite)
    }

    /// Which directions the job issues: read, write, trim.
    fn directions(self) -> [bool; 3] {
        match self {
            Rw::Read | Rw::RandRead => [true, false, false],
            Rw::Write | Rw::RandWrite => [false, true, false],
            Rw::Trim | Rw::RandTrim => [false, false, true],
            Rw::Mixed | Rw::RandMixed => [true, true, false],
            Rw::TrimWrite | Rw::RandTrimWrite => [false, true, true],
        }
    }
}

const DIRECTIONS: [&str; 3] = ["reads", "writes", "trims"];

/// Where random requests land, before the job's range is known.
#[derive(Debug, Clone)]
enum Positions {
    Resolved(Distribution),
    /// zoned_abs: (access %, bytes) per zone.
    Absolute(Vec<(u32, u64)>),
}

/// The job as its options set it, before clones and the span are applied.
#[derive(Debug, Clone)]
struct Build {
    /// Every option read, in order (for notes about the line that set something).
    seen: Vec<Opt>,
    name: String,
    rw: Rw,
    read_percent: u32,
    sizes: [Option<BlockSizes>; 3],
    align: [Option<u64>; 3],
    iodepth: u32,
    engine: Option<Opt>,
    numjobs: u32,
    size: Option<Amount>,
    filesize: Option<u64>,
    io_size: Option<Amount>,
    loops: u64,
    offset: Option<Amount>,
    offset_increment: Option<Amount>,
    offset_align: u64,
    runtime_ns: u64,
    time_based: bool,
    ramp_ns: u64,
    stonewall: bool,
    new_group: bool,
    group_reporting: bool,
    random_map: bool,
    random_percent: [Option<u32>; 3],
    positions: Positions,
    rate_iops: [Option<u64>; 3],
    rate_bytes: [Option<u64>; 3],
    thinktime_ns: u64,
    thinktime_blocks: u64,
    kb_base: u64,
    compress: Option<u32>,
    logs: Logs,
    avg_ms: (u64, u64),
    percentiles: Vec<f64>,
    steadystate: Option<SteadyState>,
    ss_duration_s: u32,
    ss_ramp_ns: u64,
}

impl Build {
    fn new(name: &str) -> Self {
        Build {
            seen: Vec::new(),
            name: name.to_string(),
            rw: Rw::Read,
            read_percent: 50,
            sizes: [None, None, None],
            align: [None; 3],
            iodepth: 1,
            engine: None,
            numjobs: 1,
            size: None,
            filesize: None,
            io_size: None,
            loops: 1,
            offset: None,
            offset_increment: None,
            offset_align: 0,
            runtime_ns: 0,
            time_based: false,
            ramp_ns: 0,
            stonewall: false,
            new_group: false,
            group_reporting: false,
            random_map: true,
            random_percent: [None; 3],
            positions: Positions::Resolved(Distribution::Uniform),
            rate_iops: [None; 3],
            rate_bytes: [None; 3],
            thinktime_ns: 0,
            thinktime_blocks: 1,
            kb_base: 1024,
            compress: None,
            logs: Logs { per_job: true, ..Logs::default() },
            avg_ms: (500, 500),
            percentiles: DEFAULT_PERCENTILES.to_vec(),
            steadystate: None,
            ss_duration_s: 0,
            ss_ramp_ns: 0,
        }
    }

    /// The line that last set `key` for this job.
    fn line_of(&self, key: &str) -> Option<&Opt> {
        self.seen.iter().rev().find(|o| o.key == key)
    }

    /// Reads one honoured option; `notes` collects what needs saying about it.
    fn apply(&mut self, o: &Opt, notes: &mut Notes) -> Result<(), ConfigError> {
        self.seen.push(o.clone());
        let v = o.value.as_str();
        let kb = self.kb_base;
        let err = |m: String| o.error(m);
        match o.key.as_str() {
            "name" => self.name = v.to_string(),
            "rw" => {
                let (base, modifier) = v.split_once(':').unwrap_or((v, ""));
                self.rw = Rw::parse(base.trim()).ok_or_else(|| {
                    err("not an rw value (allowed: read, write, trim, randread, randwrite, randtrim, rw, readwrite, \
                         randrw, trimwrite, randtrimwrite)"
                        .into())
                })?;
                if !modifier.trim().is_empty() {
                    notes.unsupported(o, "the offset modifier after ':' is not modelled; the job runs without it");
                }
            }
            "rwmixread" => self.read_percent = values::percent(v).map_err(err)?,
            "rwmixwrite" => self.read_percent = 100 - values::percent(v).map_err(err)?,
            "bs" => {
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    self.sizes[d] = match part {
                        Some(p) => Some(block_size(values::size(p, kb).map_err(err)?, o)?),
                        None => None,
                    };
                }
            }
            "bssplit" => {
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    self.sizes[d] = part.map(|p| bssplit(p, kb, o)).transpose()?;
                }
            }
            "ba" => {
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    let align = part.map(|p| values::size(p, kb)).transpose().map_err(err)?;
                    if align.is_some_and(|a| !a.is_multiple_of(SECTOR_BYTES as u64) || a > MAX_REQUEST_BYTES) {
                        return Err(err("must be a multiple of 512 bytes, at most 16 MiB".into()));
                    }
                    self.align[d] = align;
                }
            }
            "iodepth" => {
                let depth = values::int(v).map_err(err)?;
                if !(1..=65536).contains(&depth) {
                    return Err(err("must be between 1 and 65536".into()));
                }
                self.iodepth = depth as u32;
            }
            "ioengine" => self.engine = Some(o.clone()),
            "numjobs" => {
                let n = values::int(v).map_err(err)?;
                if !(1..=MAX_JOBS as u64).contains(&n) {
                    return Err(err(format!("must be between 1 and {}", MAX_JOBS)));
                }
                self.numjobs = n as u32;
            }
            "size" => self.size = Some(values::amount(v, kb).map_err(err)?),
            "filesize" => {
                // A range (`1g-2g`) of file sizes: the first stands for it.
                let first = v.split(['-', ':']).next().unwrap_or(v);
                self.filesize = Some(values::size(first, kb).map_err(err)?);
            }
            "io_size" => self.io_size = Some(values::amount(v, kb).map_err(err)?),
            "loops" => {
                self.loops = values::int(v).map_err(err)?;
                if self.loops == 0 {
                    return Err(err("must be at least 1".into()));
                }
            }
            "offset" => self.offset = Some(values::amount(v, kb).map_err(err)?),
            "offset_increment" => self.offset_increment = Some(values::amount(v, kb).map_err(err)?),
            "offset_align" => self.offset_align = values::size(v, kb).map_err(err)?,
            "runtime" => self.runtime_ns = values::time_ns(v, NS_PER_S).map_err(err)?,
            "time_based" => self.time_based = values::boolean(v).map_err(err)?,
            "ramp_time" => self.ramp_ns = values::time_ns(v, NS_PER_S).map_err(err)?,
            "stonewall" => self.stonewall = values::boolean(v).map_err(err)?,
            "new_group" => self.new_group = values::boolean(v).map_err(err)?,
            "group_reporting" => self.group_reporting = values::boolean(v).map_err(err)?,
            "norandommap" => self.random_map = !values::boolean(v).map_err(err)?,
            "percentage_random" => {
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    self.random_percent[d] = part.map(values::percent).transpose().map_err(err)?;
                }
            }
            "random_distribution" => self.positions = distribution(o, kb, notes)?,
            "rate_iops" => {
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    self.rate_iops[d] = part.map(values::int).transpose().map_err(err)?;
                }
            }
            "rate" => {
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    self.rate_bytes[d] = part.map(|p| values::size(p, kb)).transpose().map_err(err)?;
                }
            }
            "rate_process" => match v {
                "linear" => {}
                "poisson" => notes.unsupported(o, "Poisson arrivals are not modelled; commands are evenly spaced"),
                _ => return Err(err("allowed: linear, poisson".into())),
            },
            "thinktime" => self.thinktime_ns = values::time_ns(v, 1_000).map_err(err)?,
            "thinktime_blocks" => self.thinktime_blocks = values::int(v).map_err(err)?.max(1),
            "thinktime_blocks_type" => match v {
                "complete" => {}
                "issue" => notes.unsupported(o, "think time counted at issue is not modelled; it follows completions"),
                _ => return Err(err("allowed: complete, issue".into())),
            },
            "thinktime_spin" => {
                values::time_ns(v, 1_000).map_err(err)?;
                notes.note(o, "spinning is part of the think time: the pause is as long");
            }
            "kb_base" => {
                self.kb_base = match values::int(v).map_err(err)? {
                    b @ (1000 | 1024) => b,
                    _ => return Err(err("allowed: 1024 (fio's default) or 1000".into())),
                }
            }
            "buffer_compress_percentage" => self.compress = Some(values::percent(v).map_err(err)?),
            "write_iops_log" => self.logs.iops = Some(v.to_string()),
            "write_bw_log" => self.logs.bw = Some(v.to_string()),
            "write_lat_log" => self.logs.lat = Some(v.to_string()),
            "log_avg_msec" => self.logs.avg_msec = values::int(v).map_err(err)?,
            "log_max_value" => self.logs.max_value = values::boolean(v).map_err(err)?,
            "log_offset" => self.logs.offset = values::boolean(v).map_err(err)?,
            "per_job_logs" => self.logs.per_job = values::boolean(v).map_err(err)?,
            "bwavgtime" => self.avg_ms.0 = values::int(v).map_err(err)?.max(1),
            "iopsavgtime" => self.avg_ms.1 = values::int(v).map_err(err)?.max(1),
            "percentile_list" => {
                let list: Result<Vec<f64>, _> = v.split(':').map(|p| p.trim().parse::<f64>()).collect();
                let list = list.map_err(|_| err("is percentiles separated by ':', e.g. 50:99:99.9".into()))?;
                if list.is_empty() || list.len() > 20 || list.iter().any(|p| !(0.0..=100.0).contains(p)) {
                    return Err(err("needs 1 to 20 percentiles, each from 0 to 100".into()));
                }
                self.percentiles = list;
            }
            "steadystate" => self.steadystate = Some(steadystate(o)?),
            "steadystate_duration" => {
                let s = values::time_ns(v, NS_PER_S).map_err(err)? / NS_PER_S;
                if s > 86_400 {
                    return Err(err("a window of at most a day".into()));
                }
                self.ss_duration_s = s as u32;
            }
            "steadystate_ramp_time" => self.ss_ramp_ns = values::time_ns(v, NS_PER_S).map_err(err)?,
            other => return Err(err(format!("the import has no reader for '{}' (a bug: please report it)", other))),
        }
        Ok(())
    }
}

/// One size for every request; sizes are whole sectors up to 16 MiB.
fn block_size(bytes: u64, o: &Opt) -> Result<BlockSizes, ConfigError> {
    check_request_size(bytes, o)?;
    Ok(BlockSizes::fixed(bytes as u32))
}

fn check_request_size(bytes: u64, o: &Opt) -> Result<(), ConfigError> {
    if bytes == 0 || !bytes.is_multiple_of(SECTOR_BYTES as u64) || bytes > MAX_REQUEST_BYTES {
        return Err(
            o.error(format!("requests must be whole 512-byte sectors from 512 bytes to 16 MiB (got {} bytes)", bytes))
        );
    }
    Ok(())
}

/// One direction's bssplit (`4k/50:64k/:1m/10`): fio's sizes; a blank weight shares what the
/// others leave of 100 (`BlockSizes::parse`).
fn bssplit(text: &str, kb: u64, o: &Opt) -> Result<BlockSizes, ConfigError> {
    let mut canonical = Vec::new();
    let mut given = 0u64;
    for entry in text.split(':').filter(|e| !e.trim().is_empty()) {
        let (size, weight) = entry.split_once('/').unwrap_or((entry, ""));
        let bytes = values::size(size, kb).map_err(|m| o.error(m))?;
        check_request_size(bytes, o)?;
        let weight = weight.trim();
        if !weight.is_empty() {
            given += values::percent(weight).map_err(|m| o.error(m))? as u64;
        }
        canonical.push(format!("{}/{}", bytes, weight));
    }
    if given > 100 {
        return Err(o.error(format!("the percentages add up to {}, more than 100", given)));
    }
    BlockSizes::parse("bssplit", &canonical.join(":")).map_err(|e| o.error(e.message))
}

/// fio's random_distribution: random, zipf:THETA, pareto:H, zoned:A/S:..., zoned_abs:A/SIZE:...
/// (normal, a distribution's centre and one distribution per direction are not modelled).
fn distribution(o: &Opt, kb: u64, notes: &mut Notes) -> Result<Positions, ConfigError> {
    let dirs = values::per_direction(&o.value);
    if dirs[1].is_some() && dirs[1] != dirs[0] {
        notes.unsupported(o, "one distribution per job: the first applies to every direction");
    }
    let first = dirs[0].unwrap_or("random");
    let (kind, arg) = first.split_once(':').unwrap_or((first, ""));
    let resolved = match kind.trim() {
        "random" => Distribution::Uniform,
        "zipf" | "pareto" => {
            let mut parts = arg.split(':');
            let value = parts.next().unwrap_or("");
            if parts.next().is_some() {
                notes.unsupported(o, "the distribution's centre is not modelled; the hot end is spread over the range");
            }
            Distribution::parse("random_distribution", &format!("{}:{}", kind.trim(), value))
                .map_err(|e| o.error(e.message))?
        }
        "normal" | "gauss" => {
            notes.unsupported(o, "the normal distribution is not modelled; positions are uniform");
            Distribution::Uniform
        }
        "sequence" => {
            notes.unsupported(o, "a fixed sequence of blocks (newer fio) is not modelled; positions are uniform");
            Distribution::Uniform
        }
        "zoned" => zoned(arg, o)?,
        "zoned_abs" => return zoned_abs(arg, kb, o, notes),
        _ => {
            return Err(o.error(
                "unknown distribution (allowed: random, zipf:THETA, pareto:H, normal:DEV, zoned:A/S:..., \
                 zoned_abs:A/SIZE:...)",
            ))
        }
    };
    Ok(Positions::Resolved(resolved))
}

/// `zoned:50/5:30/15:20/`: a zone without a size takes what the others leave of 100.
fn zoned(arg: &str, o: &Opt) -> Result<Distribution, ConfigError> {
    let zones: Vec<(&str, &str)> =
        arg.split(':').filter(|z| !z.trim().is_empty()).map(|z| z.split_once('/').unwrap_or((z, ""))).collect();
    let pct = |x: &str| values::percent(x).map_err(|m| o.error(m));
    let mut sized = 0;
    let mut blank = 0;
    for (_, s) in &zones {
        if s.trim().is_empty() {
            blank += 1;
        } else {
            sized += pct(s)?;
        }
    }
    if blank > 1 {
        return Err(o.error("at most one zone may leave its size blank"));
    }
    let mut text = Vec::new();
    for (a, s) in &zones {
        let size = if s.trim().is_empty() { 100u32.saturating_sub(sized) } else { pct(s)? };
        text.push(format!("{}/{}", pct(a)?, size));
    }
    Distribution::parse("random_distribution", &format!("zoned:{}", text.join(":"))).map_err(|e| o.error(e.message))
}

/// `zoned_abs:60/20G:40/100G`: zones of absolute sizes, made percentages of the job's range
/// once it is known (`resolve_abs`).
fn zoned_abs(arg: &str, kb: u64, o: &Opt, notes: &mut Notes) -> Result<Positions, ConfigError> {
    let mut zones = Vec::new();
    for z in arg.split(':').filter(|z| !z.trim().is_empty()) {
        let (a, s) =
            z.split_once('/').ok_or_else(|| o.error("zones are ACCESS/SIZE, e.g. zoned_abs:60/20G:40/100G"))?;
        let access = values::percent(a).map_err(|m| o.error(m))?;
        let bytes = values::size(s, kb).map_err(|m| o.error(m))?;
        zones.push((access, bytes.max(1)));
    }
    if zones.is_empty() || zones.iter().map(|z| z.0).sum::<u32>() != 100 {
        return Err(o.error("the zones' access percentages must add up to 100"));
    }
    notes.note(o, "absolute zones become whole percentages of the job's range (rounded)");
    Ok(Positions::Absolute(zones))
}

/// Absolute zones as whole percentages of `range_bytes`; the part of the range no zone covers
/// becomes a zone no access lands in.
fn resolve_abs(zones: &[(u32, u64)], range_bytes: u64) -> Distribution {
    let mut out: Vec<Zone> = Vec::new();
    let mut left = 100u32;
    for &(access, bytes) in zones {
        if left == 0 {
            // The range ends inside an earlier zone: its accesses land in the last zone.
            if let Some(last) = out.last_mut() {
                last.access_percent += access;
            }
            continue;
        }
        let pct = ((bytes as f64 / range_bytes.max(1) as f64 * 100.0).round() as u32).clamp(1, left);
        left -= pct;
        out.push(Zone { access_percent: access, size_percent: pct });
    }
    if left > 0 {
        out.push(Zone { access_percent: 0, size_percent: left });
    }
    Distribution::Zoned(out)
}

/// `iops:10%`, `iops_slope:0.1%`, `bw:2`, `bw_slope:1%`.
fn steadystate(o: &Opt) -> Result<SteadyState, ConfigError> {
    let (kind, limit) = o.value.split_once(':').unwrap_or((&o.value, ""));
    let (bandwidth, slope) = match kind.trim() {
        "iops" => (false, false),
        "iops_slope" => (false, true),
        "bw" => (true, false),
        "bw_slope" => (true, true),
        _ => {
            return Err(
                o.error("allowed: iops:LIMIT, iops_slope:LIMIT, bw:LIMIT or bw_slope:LIMIT (LIMIT may end in %)")
            )
        }
    };
    let limit = limit.trim();
    let percent = limit.ends_with('%');
    let value: f64 = limit
        .trim_end_matches('%')
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| o.error("needs a limit after ':', a number or a percentage, e.g. iops:10%"))?;
    let text = format!("{}:{:.6}{}", kind.trim(), value, if percent { "%" } else { "" });
    Ok(SteadyState { bandwidth, slope, limit: value, percent, duration_s: 0, ramp_ns: 0, text })
}

/// Notes gathered while reading options; a global option read for every job is noted once.
#[derive(Default)]
struct Notes {
    ignored: BTreeSet<Note>,
    unsupported: BTreeSet<Note>,
    notes: BTreeSet<Note>,
}

impl Notes {
    fn ignored(&mut self, o: &Opt, m: &str) {
        self.ignored.insert(o.note(m));
    }
    fn unsupported(&mut self, o: &Opt, m: &str) {
        self.unsupported.insert(o.note(m));
    }
    fn note(&mut self, o: &Opt, m: &str) {
        self.notes.insert(o.note(m));
    }
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}

/// Mean request size of a mix, bytes.
fn mean_bytes(b: &BlockSizes) -> f64 {
    let total: u64 = b.entries.iter().map(|e| e.1 as u64).sum();
    b.entries.iter().map(|e| e.0 as f64 * e.1 as f64).sum::<f64>() / total.max(1) as f64
}

/// One job of the file with its clones, ready to run.
struct Job {
    specs: Vec<JobSpec>,
    meta: Vec<FioJob>,
    stonewall: bool,
    new_group: bool,
    /// Ends this long after its phase starts (ramp included), ns; 0: no time limit.
    limit_ns: u64,
    ramp_ns: u64,
    compress: Option<(u32, Opt)>,
    /// The lines of runtime and ramp_time, for notes about the phase.
    runtime_line: Option<Opt>,
    ramp_line: Option<Opt>,
    /// The steadystate line when the job judges its steady state alone (no group_reporting).
    alone_ss_line: Option<Opt>,
}

impl Build {
    /// The job with its clones over a tested span of `span_bytes`; `number` counts the file's
    /// jobs before it.
    fn finish(self, options: Vec<(String, String)>, span_bytes: u64, number: u32, notes: &mut Notes) -> Job {
        let dirs = self.rw.directions();
        let default = || BlockSizes::fixed(4096);
        let read_sizes = self.sizes[0].clone().unwrap_or_else(default);
        let trim_sizes = self.sizes[2].clone().unwrap_or_else(default);
        // TRIMs take the write sizes in the model.
        let write_sizes =
            if dirs[2] && !dirs[1] { trim_sizes.clone() } else { self.sizes[1].clone().unwrap_or_else(default) };
        let (mut read_percent, trim_percent) = match self.rw {
            Rw::Read | Rw::RandRead => (100, 0),
            Rw::Write | Rw::RandWrite => (0, 0),
            Rw::Trim | Rw::RandTrim => (0, 100),
            Rw::Mixed | Rw::RandMixed => (self.read_percent, 0),
            Rw::TrimWrite | Rw::RandTrimWrite => (0, 50),
        };
        if trim_percent == 50 {
            if let Some(o) = self.line_of("rw") {
                notes.unsupported(o, "trimming each block before writing it is run as trims and writes mixed 50/50");
            }
        }

        // Alignment of random requests: blockalign, by default each request's own size.
        let aligns: Vec<u64> = (0..3).filter(|&d| dirs[d]).filter_map(|d| self.align[d]).collect();
        let align_bytes = aligns.first().copied().unwrap_or(0);
        if aligns.iter().any(|&a| a != align_bytes) {
            if let Some(o) = self.line_of("ba") {
                notes.unsupported(o, "one alignment per job: the first direction's applies to all");
            }
        }

        // Share of random positions, per direction in fio, one per job here.
        let random_percent = if self.rw.random() {
            let shares: Vec<u32> = (0..3).filter(|&d| dirs[d]).map(|d| self.random_percent[d].unwrap_or(100)).collect();
            if shares.iter().any(|&s| s != shares[0]) {
                if let Some(o) = self.line_of("percentage_random") {
                    notes.unsupported(o, "one random share per job: the first direction's applies to all");
                }
            }
            shares.first().copied().unwrap_or(100)
        } else {
            if let Some(o) = self.line_of("percentage_random") {
                notes.note(o, "has no effect on a sequential rw, as in fio");
            }
            0
        };

        let queue_depth = self.queue_depth(notes);
        let rate_iops = self.rate(dirs, [&read_sizes, &write_sizes, &trim_sizes], &mut read_percent, notes);

        // The range each clone works on; a percentage offset aligns down to offset_align (or
        // the smallest request).
        let bytes_of = |a: Amount| match a {
            Amount::Bytes(b) => b,
            Amount::Percent(p) => (span_bytes as f64 * p / 100.0) as u64,
        };
        let offset_align = if self.offset_align > 0 {
            self.offset_align
        } else {
            read_sizes.smallest().min(write_sizes.smallest()) as u64
        }
        .max(SECTOR_BYTES as u64);
        let placed = |a: Option<Amount>| match a {
            Some(Amount::Percent(p)) => bytes_of(Amount::Percent(p)) / offset_align * offset_align,
            Some(a) => bytes_of(a),
            None => 0,
        };
        let offset = placed(self.offset);
        let increment = placed(self.offset_increment);
        let size = match (self.size, self.filesize) {
            (Some(a), _) => {
                if let Some(o) = self.line_of("filesize") {
                    notes.note(o, "size sets the job's range; the file's size does not change it");
                }
                Some(bytes_of(a))
            }
            (None, Some(b)) => {
                if let Some(o) = self.line_of("filesize") {
                    notes.note(o, "with no size, the file's size is the job's range");
                }
                Some(b)
            }
            (None, None) => None,
        };
        if size.is_some_and(|b| b > span_bytes) {
            if let Some(o) = self.line_of("size").or(self.line_of("filesize")) {
                notes.unsupported(
                    o,
                    &format!("more than the drive's tested span ({}): the job covers the whole span", gib(span_bytes)),
                );
            }
        }
        if self.time_based && self.runtime_ns == 0 {
            if let Some(o) = self.line_of("time_based") {
                notes.unsupported(o, "time_based without a runtime runs until the run's `seconds`");
            }
        }

        let steadystate = match (&self.steadystate, self.ss_duration_s) {
            (Some(ss), d) if d > 0 => Some(SteadyState { duration_s: d, ramp_ns: self.ss_ramp_ns, ..ss.clone() }),
            (Some(_), _) => {
                if let Some(o) = self.line_of("steadystate") {
                    notes.unsupported(o, "steadystate needs ss_dur (a window of whole seconds): not checked");
                }
                None
            }
            (None, _) => None,
        };
        let mut logs = self.logs.clone();
        for prefix in [&mut logs.iops, &mut logs.bw, &mut logs.lat].into_iter().flatten() {
            if prefix.is_empty() {
                *prefix = self.name.clone();
            }
        }

        let mut specs = Vec::new();
        let mut meta = Vec::new();
        for clone in 0..self.numjobs {
            let mut start = offset.saturating_add(increment.saturating_mul(clone as u64));
            if start >= span_bytes {
                if let Some(o) = self.line_of("offset_increment").or(self.line_of("offset")) {
                    notes.unsupported(
                        o,
                        &format!(
                            "starts beyond the drive's tested span ({}): the start wraps into it",
                            gib(span_bytes)
                        ),
                    );
                }
                start = start % span_bytes / offset_align * offset_align;
            }
            let range = size.unwrap_or(span_bytes).min(span_bytes - start).max(1);
            // Time-based jobs loop until the runtime; others stop after io_size (or their
            // range) times loops.
            let io_limit = if self.time_based {
                0
            } else {
                self.io_size.map_or(range, bytes_of).saturating_mul(self.loops).max(1)
            };
            let distribution = match &self.positions {
                Positions::Resolved(d) => d.clone(),
                Positions::Absolute(zones) => resolve_abs(zones, range),
            };
            specs.push(JobSpec {
                name: self.name.clone(),
                read_percent,
                trim_percent,
                random_percent,
                read_sizes: read_sizes.clone(),
                write_sizes: write_sizes.clone(),
                align_bytes: align_bytes as u32,
                queue_depth,
                offset_bytes: start,
                size_bytes: if size.is_some() { range } else { 0 },
                distribution,
                random_map: self.random_map,
                rate_iops,
                thinktime_ns: self.thinktime_ns,
                io_limit_bytes: io_limit,
                trace: None,
            });
            meta.push(FioJob {
                name: self.name.clone(),
                number: number + clone + 1,
                group: 0,
                group_reporting: self.group_reporting,
                options: options.clone(),
                iodepth: queue_depth,
                logs: logs.clone(),
                steadystate: steadystate.clone(),
                percentiles: self.percentiles.clone(),
                bw_avg_ms: self.avg_ms.0,
                iops_avg_ms: self.avg_ms.1,
            });
        }
        Job {
            specs,
            meta,
            stonewall: self.stonewall,
            new_group: self.new_group,
            limit_ns: if self.runtime_ns > 0 { self.ramp_ns + self.runtime_ns } else { 0 },
            ramp_ns: self.ramp_ns,
            compress: self.compress.zip(self.line_of("buffer_compress_percentage").cloned()),
            runtime_line: self.line_of("runtime").cloned(),
            ramp_line: self.line_of("ramp_time").cloned(),
            alone_ss_line: steadystate.and(self.line_of("steadystate").cloned()).filter(|_| !self.group_reporting),
        }
    }

    /// The queue depth fio runs the job at: a synchronous engine, or think time after every
    /// command, keeps one command in flight whatever iodepth says.
    fn queue_depth(&self, notes: &mut Notes) -> u32 {
        let engine = self.engine.as_ref().map_or("psync", |o| o.value.as_str());
        let engine = engine.split(':').next().unwrap_or(engine).trim();
        if let Some(o) = &self.engine {
            if options::NON_BLOCK_ENGINES.contains(&engine) {
                notes.unsupported(
                    o,
                    "this engine does no block I/O to a drive; the simulator runs the job's rw pattern on the drive",
                );
            } else {
                notes.ignored(o, "the I/O engine: the simulator hands each command to the drive itself");
            }
        }
        let mut depth = self.iodepth;
        if options::SYNC_ENGINES.contains(&engine) {
            if depth > 1 {
                let why = format!(
                    "a synchronous engine keeps one command in flight: the job runs at queue depth 1, as fio runs it \
                     (iodepth={} needs an asynchronous engine such as libaio)",
                    depth
                );
                match (&self.engine, self.line_of("iodepth")) {
                    (Some(o), _) => notes.note(o, &why),
                    (None, Some(o)) => notes.note(o, &format!("fio's default engine is psync; {}", why)),
                    (None, None) => {}
                }
            }
            depth = 1;
        }
        if self.thinktime_ns > 0 && depth > 1 {
            let batch = self.thinktime_blocks.min(depth as u64) as u32;
            if let Some(o) = self.line_of("thinktime") {
                if batch == 1 {
                    notes.note(
                        o,
                        "fio waits for every command to complete before thinking (thinktime_blocks=1): the job runs \
                         at queue depth 1, as fio runs it",
                    );
                } else {
                    notes.unsupported(
                        o,
                        "thinking after a batch of commands is not modelled: each of the batch's queue slots thinks \
                         after its own command",
                    );
                }
            }
            depth = batch;
        }
        depth
    }

    /// The job's rate limit, commands per second. fio holds each direction to its own rate;
    /// the simulator limits the whole job, so a job whose every direction is limited runs at
    /// their sum, its mix following the rates (as fio's does when the drive keeps up).
    fn rate(&self, dirs: [bool; 3], sizes: [&BlockSizes; 3], read_percent: &mut u32, notes: &mut Notes) -> u32 {
        let line = self.line_of("rate_iops").or(self.line_of("rate"));
        let mut rates = [None; 3];
        for d in (0..3).filter(|&d| dirs[d]) {
            rates[d] = match (self.rate_iops[d], self.rate_bytes[d]) {
                (Some(iops), _) => Some(iops),
                (None, Some(bytes)) => {
                    if !sizes[d].is_fixed() {
                        if let Some(o) = self.line_of("rate") {
                            notes.note(o, "a rate in bytes becomes commands per second at the mean request size");
                        }
                    }
                    Some((bytes as f64 / mean_bytes(sizes[d])).round().max(1.0) as u64)
                }
                (None, None) => None,
            };
        }
        let used: Vec<usize> = (0..3).filter(|&d| dirs[d]).collect();
        let limited: Vec<u64> = used.iter().filter_map(|&d| rates[d]).collect();
        if limited.is_empty() {
            return 0;
        }
        let Some(o) = line else { return 0 };
        if limited.len() < used.len() {
            let which: Vec<&str> = used.iter().filter(|&&d| rates[d].is_some()).map(|&d| DIRECTIONS[d]).collect();
            notes.unsupported(
                o,
                &format!(
                    "fio limits only the {}; the simulator can limit only the whole job: no limit applied",
                    which.join(" and ")
                ),
            );
            return 0;
        }
        // Saturating: fio's rates are 64-bit, and a sum past the cap is capped anyway.
        let total = limited.iter().fold(0u64, |sum, &r| sum.saturating_add(r));
        if dirs[0] && dirs[1] {
            let (r, w) = (rates[0].unwrap_or(0), rates[1].unwrap_or(0));
            let mix = ((r as f64 * 100.0 / total.max(1) as f64).round() as u32).min(100);
            if mix != *read_percent {
                notes.note(
                    o,
                    &format!(
                        "fio holds reads to {}/s and writes to {}/s: the {}/{} mix becomes {}/{} when the drive keeps up",
                        r,
                        w,
                        read_percent,
                        100 - *read_percent,
                        mix,
                        100 - mix
                    ),
                );
                *read_percent = mix;
            }
        }
        total.min(100_000_000) as u32
    }
}

/// Values fio expands from the environment or evaluates (`${VAR}`, `$mb_memory`, `(1+2)`).
fn needs_evaluation(value: &str) -> bool {
    value.contains('$') || value.trim_start().starts_with('(')
}

/// Reads a job file for a drive whose tested span is `span_bytes`.
pub fn import(text: &str, span_bytes: u64) -> Result<FioJobFile, ConfigError> {
    let mut report = ImportReport::default();
    let sections = sections(text, &mut report)?;
    let mut notes = Notes::default();
    for o in sections.iter().flat_map(|s| &s.options) {
        match options::class(&o.key) {
            Some(Class::Honoured) => {}
            Some(Class::Ignored(why)) => report.ignored.push(o.note(why)),
            Some(Class::Unsupported(why)) => report.unsupported.push(o.note(why)),
            None => report.unsupported.push(o.note(match options::nearest(&o.key) {
                Some(near) => format!("not an option of fio 3.33 (did you mean {}?)", near),
                None => "not an option of fio 3.33".to_string(),
            })),
        }
    }

    let mut global: Vec<Opt> = Vec::new();
    let mut global_options = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    let mut number = 0;
    for section in sections {
        let written: Vec<(String, String)> =
            section.options.iter().map(|o| (o.written_key.clone(), o.value.clone())).collect();
        if section.name.eq_ignore_ascii_case("global") {
            global_options.extend(written);
            global.extend(section.options);
            continue;
        }
        let mut build = Build::new(&section.name);
        let honoured: Vec<&Opt> = global
            .iter()
            .chain(&section.options)
            .filter(|o| options::class(&o.key) == Some(Class::Honoured))
            .filter(|o| {
                let evaluate = needs_evaluation(&o.value);
                if evaluate {
                    notes.unsupported(
                        o,
                        "fio would expand or evaluate this value; the simulator cannot: fio's default applies",
                    );
                }
                !evaluate
            })
            .collect();
        // kb_base changes how every size reads, wherever it stands.
        for o in honoured.iter().filter(|o| o.key == "kb_base").chain(honoured.iter().filter(|o| o.key != "kb_base")) {
            build.apply(o, &mut notes)?;
        }
        let job = build.finish(written, span_bytes, number, &mut notes);
        number += job.specs.len() as u32;
        jobs.push(job);
    }
    if jobs.is_empty() {
        return Err(ConfigError::new("fio", "the job file has no job: add a section such as [job1] after [global]"));
    }

    // Phases: each stonewall starts the next; reporting groups also start at new_group.
    let mut grouped: Vec<Vec<Job>> = Vec::new();
    let mut group = 0;
    for (i, mut job) in jobs.into_iter().enumerate() {
        if i > 0 && (job.stonewall || job.new_group) {
            group += 1;
        }
        for m in &mut job.meta {
            m.group = group;
        }
        match grouped.last_mut() {
            Some(phase) if !job.stonewall => phase.push(job),
            _ => grouped.push(vec![job]),
        }
    }
    let mut phases = Vec::new();
    let mut metas = Vec::new();
    let mut compressibility: Option<(u32, Opt)> = None;
    for jobs in grouped {
        let runtime_ns = jobs.iter().map(|j| j.limit_ns).max().unwrap_or(0);
        let ramp_ns = jobs.iter().map(|j| j.ramp_ns).max().unwrap_or(0);
        if runtime_ns > 0 && jobs.iter().any(|j| j.limit_ns != runtime_ns) {
            if let Some(o) = jobs.iter().find_map(|j| j.runtime_line.as_ref()) {
                notes.unsupported(
                    o,
                    &format!(
                        "jobs that run together end together: this phase runs {} s (fio stops each job at its own \
                         runtime or size)",
                        runtime_ns as f64 / 1e9
                    ),
                );
            }
        }
        if jobs.iter().map(|j| j.specs.len()).sum::<usize>() > 1 {
            if let Some(o) = jobs.iter().find_map(|j| j.alone_ss_line.as_ref()) {
                notes.unsupported(
                    o,
                    "the phase's jobs are judged together and stop together (fio judges each job alone unless \
                     group_reporting is set)",
                );
            }
        }
        if jobs.iter().any(|j| j.ramp_ns != ramp_ns) {
            if let Some(o) = jobs.iter().find_map(|j| j.ramp_line.as_ref()) {
                notes.unsupported(o, "jobs that run together share one ramp: the longest applies to all");
            }
        }
        for j in &jobs {
            match (&compressibility, &j.compress) {
                (None, Some(c)) => compressibility = Some(c.clone()),
                (Some((first, _)), Some((pct, o))) if pct != first => notes.unsupported(
                    o,
                    &format!("the drive's data has one compressibility per run: {}% applies to every job", first),
                ),
                _ => {}
            }
        }
        phases.push(Phase {
            name: jobs[0].meta[0].name.clone(),
            jobs: jobs.iter().flat_map(|j| j.specs.iter().cloned()).collect(),
            runtime_ns,
            ramp_ns,
        });
        metas.push(jobs.into_iter().flat_map(|j| j.meta).collect());
    }
    let compressibility = compressibility.map(|(pct, o)| {
        if pct > 90 {
            notes.note(&o, "the model compresses data by at most 90 %");
        }
        pct.min(90) as f64 / 100.0
    });

    report.ignored.extend(notes.ignored);
    report.unsupported.extend(notes.unsupported);
    report.notes.extend(notes.notes);
    for list in [&mut report.ignored, &mut report.unsupported, &mut report.notes] {
        list.sort();
        list.dedup();
    }
    Ok(FioJobFile { phases, jobs: metas, global_options, compressibility, report })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPAN: u64 = 100 << 30;

    fn notes_of(list: &[Note]) -> Vec<(usize, &str)> {
        list.iter().map(|n| (n.line, n.option.as_str())).collect()
    }

    #[test]
    fn a_two_phase_file_becomes_phases_of_jobs() {
        let f = import(
            "; comment\n[global]\nioengine=libaio\ndirect=1\nbs=4k\nsize=1g\nruntime=30\ntime_based\n\n\
             [writes]\nrw=randwrite\niodepth=32\nnumjobs=2\nwrite_iops_log=w\nlog_avg_msec=1000\n\n\
             [reads]\nstonewall\nrw=randrw\nrwmixread=70\nbssplit=4k/50:64k/\noffset=10%\nramp_time=5\n",
            SPAN,
        )
        .unwrap();
        assert_eq!(f.phases.len(), 2);
        let w = &f.phases[0].jobs;
        assert_eq!(w.len(), 2);
        assert_eq!((w[0].read_percent, w[0].random_percent, w[0].queue_depth), (0, 100, 32));
        assert_eq!((w[0].size_bytes, w[0].io_limit_bytes), (1 << 30, 0));
        assert_eq!(f.phases[0].runtime_ns, 30 * NS_PER_S);
        let r = &f.phases[1].jobs[0];
        assert_eq!(r.read_percent, 70);
        assert_eq!(r.read_sizes.entries, vec![(4096, 50), (65536, 50)]);
        assert_eq!(r.offset_bytes, SPAN / 10);
        // psync is fio's default but libaio is set globally: queue depth 1 is the default.
        assert_eq!(r.queue_depth, 1);
        assert_eq!((f.phases[1].runtime_ns, f.phases[1].ramp_ns), (35 * NS_PER_S, 5 * NS_PER_S));
        let meta = &f.jobs[0][1];
        assert_eq!((meta.number, meta.group, meta.logs.avg_msec), (2, 0, 1000));
        assert_eq!(meta.logs.file_name(meta.logs.iops.as_deref().unwrap(), "iops", meta.number), "w_iops.2.log");
        assert_eq!((f.jobs[1][0].number, f.jobs[1][0].group), (3, 1));
        assert_eq!(notes_of(&f.report.ignored), vec![(3, "ioengine=libaio"), (4, "direct=1")]);
        assert!(f.report.unsupported.is_empty(), "{:?}", f.report.unsupported);
        assert_eq!(f.global_options[0], ("ioengine".into(), "libaio".into()));
    }

    #[test]
    fn what_cannot_be_honoured_is_reported_by_line() {
        let f = import(
            "[global]\nverify=crc32c\niodpeth=4\nbs=${BS}\n[a]\nrw=read:8k\nrandom_distribution=zipf:1.2:0.5\n\
             iodepth=8\nrate_iops=100,\n",
            SPAN,
        )
        .unwrap();
        let unsupported = notes_of(&f.report.unsupported);
        assert_eq!(
            unsupported,
            vec![
                (2, "verify=crc32c"),
                (3, "iodpeth=4"),
                (4, "bs=${BS}"),
                (6, "rw=read:8k"),
                (7, "random_distribution=zipf:1.2:0.5")
            ]
        );
        assert!(f.report.unsupported[1].message.contains("did you mean iodepth"));
        // psync by default: one command in flight, said on the iodepth line.
        assert_eq!(f.phases[0].jobs[0].queue_depth, 1);
        assert!(f.report.notes.iter().any(|n| n.line == 8 && n.message.contains("psync")), "{:?}", f.report.notes);
        assert_eq!(f.phases[0].jobs[0].distribution, Distribution::Zipf(1.2));
        // rate_iops=100, limits reads only; this is a read job so it applies.
        assert_eq!(f.phases[0].jobs[0].rate_iops, 100);
    }

    #[test]
    fn fio_rules_for_rates_think_time_and_zones() {
        let f = import(
            "[a]\nioengine=libaio\nrw=randrw\nrwmixread=70\nrate_iops=100\niodepth=8\n\
             [b]\nioengine=libaio\nrw=randread\niodepth=8\nthinktime=1000\n\
             [c]\nrw=randread\nrandom_distribution=zoned:50/5:30/15:20/\n\
             [d]\nrw=randread\nsize=1g\nrandom_distribution=zoned_abs:60/256m:40/256m\n",
            SPAN,
        )
        .unwrap();
        let jobs = &f.phases[0].jobs;
        // Each direction at 100/s: 200/s, half reads.
        assert_eq!((jobs[0].rate_iops, jobs[0].read_percent), (200, 50));
        // Think time after every command: queue depth 1, 1 ms pauses.
        assert_eq!((jobs[1].queue_depth, jobs[1].thinktime_ns), (1, 1_000_000));
        assert_eq!(jobs[2].distribution, Distribution::parse("d", "zoned:50/5:30/15:20/80").unwrap());
        assert_eq!(jobs[3].distribution, Distribution::parse("d", "zoned:60/25:40/25:0/50").unwrap());
        assert_eq!(f.report.notes.len(), 3, "{:?}", f.report.notes);
    }

    #[test]
    fn malformed_lines_are_errors_naming_the_line() {
        let err = |text: &str| import(text, SPAN).unwrap_err().message;
        assert!(err("bs=4k\n").starts_with("line 1: 'bs=4k' comes before any section"));
        assert!(err("[a\n").starts_with("line 1: '[a': a section header"));
        assert!(err("[a]\nrw=sideways\n").starts_with("line 2: rw=sideways: not an rw value (allowed: read,"));
        assert!(err("[a]\n\nbs=4q\n").starts_with("line 3: bs=4q: '4q' is not a size"));
        assert!(err("[a]\nbs=1000\n").contains("whole 512-byte sectors"));
        assert!(err("[a]\nbssplit=4k/60:8k/60\n").contains("more than 100"));
        assert!(err("[a]\niodepth=0\n").starts_with("line 2: iodepth=0: must be between 1 and 65536"));
        assert!(err("[a]\nruntime=2.5s\n").contains("not a time"));
        assert!(err("[a]\nss=iops\n").contains("needs a limit"));
        assert!(err("[global]\nbs=4k\n").contains("has no job"));
        assert!(err("[a]\nrandom_distribution=zoned:50/5:30/\n").contains("add up to 100"));
    }

    #[test]
    fn sizes_beyond_the_span_wrap_and_are_reported() {
        let f = import("[a]\nrw=write\nsize=999g\n[b]\nrw=write\noffset=250g\nsize=1g\n", SPAN).unwrap();
        assert_eq!(f.phases[0].jobs[0].size_bytes, SPAN);
        assert_eq!(f.phases[0].jobs[1].offset_bytes, 50 << 30);
        assert_eq!(notes_of(&f.report.unsupported), vec![(3, "size=999g"), (6, "offset=250g")]);
        // Not time-based: the job makes one pass over what it covers.
        assert_eq!(f.phases[0].jobs[0].io_limit_bytes, SPAN);
    }
}
