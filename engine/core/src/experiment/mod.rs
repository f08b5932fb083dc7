//! The articles' methods as named experiments: each is a list of benches (points), each bench
//! measured per phase or per second, giving one table. The CLI (`ssdlab sweep`) and the wasm
//! shell run the same definitions through `Runner`, so they give the same numbers for the same
//! seed.

mod cache;
pub mod calibrate;
pub mod calibrated;
mod consistency;
pub mod evidence;
mod measure;
mod placement;
mod runner;
mod sweeps;
pub mod table_evidence;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::config::{BlockSizes, Distribution, JobSpec, Phase, Placement, RunConfig};
use crate::request::RunRequest;
use crate::units::{range, real_range, ConfigError, MAX_SECONDS, NS_PER_S};

pub use cache::{DIRTY_RANGE, DIRTY_SECONDS, RECOVERY_STATES, REST_COUNT, REST_RANGE, WRITE_GB_RANGE};
pub use measure::PhaseStats;
pub use runner::{Progress, Runner, Table};

/// An experiment request as it arrives from the CLI or the page.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentRequest {
    pub experiment: String,
    /// A drive preset id; empty (or absent): the experiment's article drive (`ArticleDrive`).
    #[serde(default)]
    pub drive: String,
    /// Drive parameters to override (as in a run request).
    #[serde(default)]
    pub set: BTreeMap<String, serde_json::Value>,
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Simulated seconds of each measured point (each queue depth, each run of a sweep); the
    /// experiment's own default if absent.
    #[serde(default)]
    pub seconds: Option<u32>,
    /// Seconds at the start of each measured point that are not counted (fio's ramp_time).
    #[serde(default)]
    pub ramp_seconds: Option<u32>,
    /// The queue depths of a queue-depth sweep.
    #[serde(default)]
    pub queue_depths: Option<Vec<u32>>,
    /// Numbers of drives in the array, for the RAID scaling experiment.
    #[serde(default)]
    pub drive_counts: Option<Vec<u32>>,
    /// Shares of the user span tested, for the spare-area sweep (the partition trick [002]).
    #[serde(default)]
    pub spans: Option<Vec<f64>>,
    /// idle-recovery: GB written before the rest, the rests (seconds, a run each) and GB written
    /// after it.
    #[serde(default)]
    pub write_gb: Option<f64>,
    #[serde(default)]
    pub rest_seconds: Option<Vec<u32>>,
    #[serde(default)]
    pub then_gb: Option<f64>,
    /// dirty-recovery: seconds of random writes that make the drive dirty, and the states
    /// measured (`cache::RECOVERY_STATES`; all of them if absent).
    #[serde(default)]
    pub dirty_seconds: Option<u32>,
    #[serde(default)]
    pub states: Option<Vec<String>>,
    /// placement: the apps (`placement::HOSTS`), layouts (`placement::LAYOUTS`), the
    /// over-provisionings (flash beyond the app's data, percent of it) and how many times each
    /// point writes the app's data over.
    #[serde(default)]
    pub hosts: Option<Vec<String>>,
    #[serde(default)]
    pub layouts: Option<Vec<String>>,
    #[serde(default)]
    pub op_percents: Option<Vec<f64>>,
    #[serde(default)]
    pub drive_writes: Option<f64>,
    /// Share of the user span tested by every point (1.0: all of it).
    #[serde(default = "default_span")]
    pub span: f64,
    /// How the drive is brought to the state the article measures in: "article" (the
    /// article's preconditioning writes, simulated) or "fill" (the sequential fill alone:
    /// faster, and fresher than the article's drive for the random-write corners).
    #[serde(default = "default_precondition")]
    pub precondition: String,
}

fn default_seed() -> u64 {
    1
}
fn default_span() -> f64 {
    1.0
}
fn default_precondition() -> String {
    "article".into()
}

/// The drive an experiment runs on when the request names none.
#[derive(Debug, Clone, Copy)]
pub enum ArticleDrive {
    /// The drive the article measures: its preset, and what the article says of it.
    One { preset: &'static str, source: &'static str },
    /// The articles run it on several drives, none of them the subject: a request names one.
    Several(&'static str),
}

/// A definition's `seconds` when its writes end each point: the run's cap is then `MAX_SECONDS`.
pub const UNTIL_WRITTEN: u32 = 0;

/// One named experiment.
pub struct Definition {
    pub id: &'static str,
    pub title: &'static str,
    /// The article (and figure) it reproduces.
    pub article: &'static str,
    /// What it runs and what to look for, for the CLI's list and the page.
    pub about: &'static str,
    /// Default simulated seconds per point and ramp; `UNTIL_WRITTEN` for a point its writes end
    /// (a whole-drive fill: how long it takes is what it measures).
    pub seconds: u32,
    pub ramp_seconds: u32,
    /// Default queue depths (of a queue-depth sweep; otherwise the workload's own).
    pub queue_depths: &'static [u32],
    /// The table's columns, in order.
    pub columns: &'static [&'static str],
    /// The drive a request without one runs on.
    pub drive: ArticleDrive,
    build: Build,
}

impl Definition {
    /// The rests a recovery runs when a request leaves them out.
    pub fn default_rest_seconds(&self) -> &'static [u32] {
        match self.build {
            Build::DirtyRecovery => &cache::DIRTY_REST_SECONDS,
            _ => &cache::REST_SECONDS,
        }
    }

    /// The preset a request without a drive runs on, or why it must name one.
    pub fn default_drive(&self) -> Result<&'static str, ConfigError> {
        match self.drive {
            ArticleDrive::One { preset, .. } => Ok(preset),
            ArticleDrive::Several(why) => {
                Err(ConfigError::new("drive", format!("is required for {}: {} (see `ssdlab presets`)", self.id, why)))
            }
        }
    }
}

/// What builds an experiment's points. Named rather than a function pointer, so a program that
/// only lists the experiments (the browser's first wasm module) carries no code that runs them.
#[derive(Clone, Copy)]
enum Build {
    IoConsistency,
    SpareArea,
    Endurance,
    FourCorners,
    Mixed,
    Sequential,
    RaidScaling,
    WholeDriveFill,
    IdleRecovery,
    DirtyRecovery,
    Placement,
}

impl Build {
    fn points(self, s: &Setup) -> Result<Vec<Point>, ConfigError> {
        match self {
            Build::IoConsistency => consistency::io_consistency(s),
            Build::SpareArea => consistency::spare_area(s),
            Build::Endurance => consistency::endurance(s),
            Build::FourCorners => sweeps::four_corners(s),
            Build::Mixed => sweeps::mixed(s),
            Build::Sequential => sweeps::sequential(s),
            Build::RaidScaling => sweeps::raid_scaling(s),
            Build::WholeDriveFill => cache::whole_drive_fill(s),
            Build::IdleRecovery => cache::idle_recovery(s),
            Build::DirtyRecovery => cache::dirty_recovery(s),
            Build::Placement => placement::placement(s),
        }
    }
}

/// Every experiment, in the order the articles introduce them.
pub const EXPERIMENTS: [Definition; 11] = [
    consistency::IO_CONSISTENCY,
    sweeps::FOUR_CORNERS,
    sweeps::MIXED,
    sweeps::SEQUENTIAL,
    consistency::SPARE_AREA,
    consistency::ENDURANCE,
    sweeps::RAID_SCALING,
    cache::WHOLE_DRIVE_FILL,
    cache::IDLE_RECOVERY,
    cache::DIRTY_RECOVERY,
    placement::PLACEMENT,
];

pub fn by_id(id: &str) -> Result<&'static Definition, ConfigError> {
    EXPERIMENTS.iter().find(|e| e.id == id).ok_or_else(|| {
        let ids: Vec<&str> = EXPERIMENTS.iter().map(|e| e.id).collect();
        ConfigError::new("experiment", format!("unknown experiment '{}' (allowed: {})", id, ids.join(", ")))
    })
}

/// A cell of the table.
pub type Value = serde_json::Value;

/// One bench of an experiment: its run, the labels its rows carry, and how it is measured.
pub struct Point {
    pub labels: Vec<(&'static str, Value)>,
    pub cfg: RunConfig,
    pub measure: Measure,
}

/// What rows a point gives.
pub enum Measure {
    /// One row per listed phase (index, its own labels), from the phase's completions after
    /// its ramp.
    Phases(Vec<(usize, Vec<(&'static str, Value)>)>),
    /// One row per simulated second.
    Seconds,
    /// One row for the run: its steady state from `steady_from_s`, and the cells `extra`
    /// derives from the run and its steady write amplification.
    Steady { steady_from_s: u32, extra: Option<Extra> },
    /// One row for the run, from the seconds between the app's bytes written reaching
    /// `from_bytes` and reaching `to_bytes`, which ends it: device, host and total write
    /// amplification, IOPS, the app's MB/s and p99 latency; `data_bytes`: the app's data (its
    /// drive writes are the bytes over it).
    Written { data_bytes: u64, from_bytes: u64, to_bytes: u64 },
}

/// Cells derived from a run and its steady write amplification.
pub type Extra = fn(&RunConfig, f64) -> Vec<(&'static str, Value)>;

/// A checked request: the base run every point starts from, and the request's choices.
pub struct Setup {
    pub base: RunConfig,
    pub seconds: u32,
    pub ramp_seconds: u32,
    pub queue_depths: Vec<u32>,
    pub spans: Vec<f64>,
    pub drive_counts: Vec<u32>,
    /// idle-recovery's writes around the rest, GB, and its rests, s.
    pub write_gb: f64,
    pub then_gb: f64,
    pub rest_seconds: Vec<u32>,
    /// dirty-recovery's random writes, s, and the states it measures.
    pub dirty_seconds: u32,
    pub states: Vec<String>,
    /// placement's choices (see the request), and whether its flash is the lab's (the request
    /// sets neither `geometry.dies` nor `geometry.blocks_per_plane`).
    pub hosts: Vec<String>,
    pub layouts: Vec<String>,
    pub op_percents: Vec<f64>,
    pub drive_writes: f64,
    pub lab_flash: bool,
    /// Whether to simulate the article's preconditioning writes.
    pub article_precondition: bool,
}

impl Setup {
    /// A job of the base run's shape: `read_percent` reads, random or sequential, `bytes` per
    /// command, at `queue_depth`.
    pub fn job(&self, name: &str, read_percent: u32, random: bool, bytes: u32, queue_depth: u32) -> JobSpec {
        JobSpec {
            name: name.into(),
            read_percent,
            trim_percent: 0,
            random_percent: if random { 100 } else { 0 },
            read_sizes: BlockSizes::fixed(bytes),
            write_sizes: BlockSizes::fixed(bytes),
            align_bytes: bytes,
            queue_depth,
            offset_bytes: 0,
            size_bytes: 0,
            distribution: Distribution::Uniform,
            random_map: false,
            rate_iops: 0,
            thinktime_ns: 0,
            io_limit_bytes: 0,
            trace: None,
            placement: Placement::Untagged,
            zones: None,
        }
    }

    /// A measured phase of `jobs` lasting the request's seconds, its ramp not counted.
    pub fn timed(&self, name: String, jobs: Vec<JobSpec>) -> Phase {
        Phase { name, jobs, runtime_ns: self.seconds as u64 * NS_PER_S, ramp_ns: self.ramp_seconds as u64 * NS_PER_S }
    }

    /// A run of the base drive made of `phases`, long enough for all of them: timed phases
    /// last their runtime; untimed ones (preconditioning) are given `extra_s`.
    pub fn run(&self, phases: Vec<Phase>, extra_s: u64) -> RunConfig {
        let timed: u64 = phases.iter().map(|p| p.runtime_ns.div_ceil(NS_PER_S)).sum();
        let seconds = (timed + extra_s).clamp(1, MAX_SECONDS as u64) as u32;
        RunConfig { phases, seconds, ..self.base.clone() }
    }
}

impl ExperimentRequest {
    pub fn from_json(text: &str) -> Result<Self, ConfigError> {
        serde_json::from_str(text).map_err(|e| {
            let msg = e.to_string();
            // serde names the field in its message ("unknown field `x`", "invalid type ... for `y`").
            let field = msg.split('`').nth(1).filter(|_| msg.contains('`')).unwrap_or("experiment");
            ConfigError::new(field, format!("is not a valid experiment request ({})", msg))
        })
    }

    /// Names the experiment's article drive if the request names no drive: Some(that drive's
    /// source), None if the request named one; an error if the experiment has no single drive.
    pub fn default_drive(&mut self) -> Result<Option<&'static str>, ConfigError> {
        if !self.drive.is_empty() {
            return Ok(None);
        }
        let def = by_id(&self.experiment)?;
        self.drive = def.default_drive()?.to_string();
        Ok(match def.drive {
            ArticleDrive::One { source, .. } => Some(source),
            ArticleDrive::Several(_) => None,
        })
    }

    /// The experiment and its points, checked.
    pub fn plan(&self) -> Result<(&'static Definition, Vec<Point>), ConfigError> {
        let def = by_id(&self.experiment)?;
        let drive = if self.drive.is_empty() { def.default_drive()? } else { &self.drive };
        if crate::config::presets::by_id(drive).is_ok_and(|d| d.zoned.is_some()) {
            return Err(ConfigError::new(
                "drive",
                format!(
                    "{} is a zoned drive, which takes writes only in order within its zones: the experiments run \
                     block drives (placement builds a zoned drive from a block drive's flash: run it on {})",
                    drive,
                    placement::PLACEMENT.default_drive()?
                ),
            ));
        }
        let mut run = RunRequest::from_json(&serde_json::json!({ "drive": drive }).to_string())?;
        run.set = self.set.clone();
        run.seed = self.seed;
        run.span = self.span;
        let base = run.resolve()?;
        let seconds = match (self.seconds, def.seconds) {
            (Some(s), _) => s,
            (None, UNTIL_WRITTEN) => MAX_SECONDS,
            (None, s) => s,
        };
        range("seconds", seconds as u64, 1, MAX_SECONDS as u64)?;
        let ramp_seconds = self.ramp_seconds.unwrap_or(def.ramp_seconds.min(seconds / 2));
        range("ramp_seconds", ramp_seconds as u64, 0, seconds as u64 - 1)?;
        let queue_depths = self.queue_depths.clone().unwrap_or_else(|| def.queue_depths.to_vec());
        range("queue_depths (how many)", queue_depths.len() as u64, 1, 32)?;
        for &qd in &queue_depths {
            range("queue_depths", qd as u64, 1, 65536)?;
        }
        let spans = self.spans.clone().unwrap_or_else(|| vec![1.0, 0.875, 0.75]);
        range("spans (how many)", spans.len() as u64, 1, 16)?;
        for &s in &spans {
            real_range("spans", s, crate::config::MIN_SPAN, 1.0, "0.01 and 1.0")?;
        }
        let drive_counts = self.drive_counts.clone().unwrap_or_else(|| vec![4, 8, 16, 24]);
        range("drive_counts (how many)", drive_counts.len() as u64, 1, 16)?;
        for &n in &drive_counts {
            range("drive_counts", n as u64, 1, 64)?;
        }
        let span_gb = base.workload_units() as f64 * crate::units::UNIT_BYTES as f64 / 1e9;
        let write_gb = self.write_gb.unwrap_or(span_gb / 3.0);
        let then_gb = self.then_gb.unwrap_or(span_gb / 100.0);
        let gb = &cache::WRITE_GB_RANGE;
        real_range("write_gb", write_gb, *gb.start(), *gb.end(), "0 and the span")?;
        real_range("then_gb", then_gb, *gb.start(), *gb.end(), "0 and the span")?;
        let rest_seconds = self.rest_seconds.clone().unwrap_or_else(|| def.default_rest_seconds().to_vec());
        let (count, rest) = (&cache::REST_COUNT, &cache::REST_RANGE);
        range("rest_seconds (how many)", rest_seconds.len() as u64, *count.start(), *count.end())?;
        for &r in &rest_seconds {
            range("rest_seconds", r as u64, *rest.start(), *rest.end())?;
        }
        let dirty_seconds = self.dirty_seconds.unwrap_or(cache::DIRTY_SECONDS);
        let dirty = &cache::DIRTY_RANGE;
        range("dirty_seconds", dirty_seconds as u64, *dirty.start(), *dirty.end())?;
        let states = self.states.clone().unwrap_or_else(|| cache::RECOVERY_STATES.map(String::from).to_vec());
        range("states (how many)", states.len() as u64, 1, cache::RECOVERY_STATES.len() as u64)?;
        if let Some(bad) = states.iter().find(|s| !cache::RECOVERY_STATES.contains(&s.as_str())) {
            return Err(ConfigError::new(
                "states",
                format!("unknown state '{}' (allowed: {})", bad, cache::RECOVERY_STATES.join(", ")),
            ));
        }
        let hosts = names("hosts", self.hosts.as_deref(), &placement::HOSTS)?;
        let layouts = names("layouts", self.layouts.as_deref(), &placement::LAYOUTS)?;
        let op_percents = self.op_percents.clone().unwrap_or_else(|| vec![7.0, 28.0]);
        range("op_percents (how many)", op_percents.len() as u64, 1, 8)?;
        for &op in &op_percents {
            real_range("op_percents", op, 1.0, 100.0, "1 and 100")?;
        }
        let drive_writes = self.drive_writes.unwrap_or(4.0);
        real_range("drive_writes", drive_writes, 1.0, 100.0, "1 and 100")?;
        let lab_flash = !self.set.contains_key("geometry.dies") && !self.set.contains_key("geometry.blocks_per_plane");
        let article_precondition = match self.precondition.as_str() {
            "article" => true,
            "fill" => false,
            other => {
                return Err(ConfigError::new("precondition", format!("must be article or fill (got '{}')", other)))
            }
        };
        let setup = Setup {
            base,
            seconds,
            ramp_seconds,
            queue_depths,
            spans,
            drive_counts,
            write_gb,
            then_gb,
            rest_seconds,
            dirty_seconds,
            states,
            hosts,
            layouts,
            op_percents,
            drive_writes,
            lab_flash,
            article_precondition,
        };
        let points = def.build.points(&setup)?;
        for p in &points {
            p.cfg.validate()?;
        }
        Ok((def, points))
    }
}

/// A list of names from `allowed` (all of them if absent), each at most once.
fn names(field: &str, given: Option<&[String]>, allowed: &[&str]) -> Result<Vec<String>, ConfigError> {
    let Some(given) = given else { return Ok(allowed.iter().map(|s| s.to_string()).collect()) };
    range(&format!("{} (how many)", field), given.len() as u64, 1, allowed.len() as u64)?;
    for (i, name) in given.iter().enumerate() {
        if !allowed.contains(&name.as_str()) || given[..i].contains(name) {
            return Err(ConfigError::new(
                field,
                format!("'{}' is not one of {} (each at most once)", name, allowed.join(", ")),
            ));
        }
    }
    Ok(given.to_vec())
}

/// Labels as a row's leading cells.
fn label(name: &'static str, v: impl Into<Value>) -> (&'static str, Value) {
    (name, v.into())
}
