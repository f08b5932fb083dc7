//! A run request as it arrives from the CLI, a JSON file or the browser names things (a preset,
//! a workload, a GC policy); `resolve` turns it into a checked `RunConfig`. The only place that
//! resolves names.

#[cfg(feature = "imports")]
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::config::{
    apply_parameters, presets, AppConfig, AppKind, BlockSizes, Distribution, DriveConfig, JobSpec, Phase, Placement,
    Precondition, RaidConfig, RunConfig, WorkloadSpec, ZoneStoreConfig, MIN_SPAN,
};
use crate::drive::ftl::victim;
use crate::host::apps;
use crate::host::fio::FioJobFile;
#[cfg(feature = "imports")]
use crate::host::fio::{self, Note};
use crate::host::trace::{self, Format, TraceSummary};
#[cfg(feature = "imports")]
use crate::units::MAX_SECONDS;
use crate::units::{range, real_range, ConfigError, NS_PER_S, UNIT_BYTES};

/// A run request as it arrives from the CLI, a JSON file or the browser: names, not structs.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    pub drive: String,
    #[serde(default = "default_workload")]
    pub workload: String,
    #[serde(default = "default_seconds")]
    pub seconds: u32,
    #[serde(default = "default_span")]
    pub span: f64,
    /// Host queue depth; the workload's default if absent.
    #[serde(default)]
    pub queue_depth: Option<u32>,
    /// Bytes per request; the workload's default if absent.
    #[serde(default)]
    pub block_bytes: Option<u32>,
    /// Alignment of random requests, bytes; the block size if absent.
    #[serde(default)]
    pub align_bytes: Option<u32>,
    /// How much the data shrinks under compression (0 to 0.9).
    #[serde(default)]
    pub compressibility: f64,
    /// Seconds into the test at which power is cut.
    #[serde(default)]
    pub power_cuts_s: Vec<f64>,
    /// Fraction of the filled span to TRIM after the fill.
    #[serde(default)]
    pub trim_fraction: f64,
    /// Seconds of work between idle periods (with `idle_s`).
    #[serde(default)]
    pub burst_s: u32,
    /// Seconds the host rests after each burst (0: never).
    #[serde(default)]
    pub idle_s: u32,
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Identical jobs running the workload together, each at `queue_depth` (threads x QD).
    #[serde(default = "default_threads")]
    pub threads: u32,
    /// Share of commands that read, percent; the workload's own if absent.
    #[serde(default)]
    pub read_percent: Option<u32>,
    /// Share of commands at random positions, percent (100: random, 0: sequential); the
    /// workload's own if absent.
    #[serde(default)]
    pub random_percent: Option<u32>,
    /// Request sizes as fio's bssplit, e.g. "4k/50:64k/50"; `block_bytes` if absent.
    #[serde(default)]
    pub block_sizes: Option<String>,
    /// Where random requests land: random, zipf:THETA, pareto:H or zoned:ACCESS/SIZE:...
    #[serde(default)]
    pub distribution: Option<String>,
    /// Each job issues at most this many commands per second (0: as fast as the drive answers).
    #[serde(default)]
    pub rate_iops: u32,
    /// Each job pauses this long after a completion before its slot issues again, microseconds.
    #[serde(default)]
    pub thinktime_us: u64,
    /// The text of a fio job file: the workload as its phases of jobs. The job file sets how
    /// long the run lasts; `seconds` caps it.
    #[serde(default)]
    pub fio: Option<String>,
    /// The files the job file includes (fio's `include NAME`), their text by the name written.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub fio_includes: std::collections::BTreeMap<String, String>,
    /// Drive parameters to override, by path into the drive config, e.g.
    /// `{"timing.program_ns": 1500000, "gc.pacing": "lazy"}`.
    #[serde(default)]
    pub set: std::collections::BTreeMap<String, serde_json::Value>,
    /// A block trace to replay instead of the workload (at `queue_depth`; the run ends with
    /// the trace, or at `seconds`).
    #[serde(default)]
    pub trace: Option<TraceRequest>,
    /// A RAID 0 array of the drive [004]; absent: one drive.
    #[serde(default)]
    pub raid: Option<RaidRequest>,
    /// What each drive holds when the test begins: fill (the tested span written in order),
    /// none (secure-erased only) or random (the fill, then random overwrites applied at once).
    #[serde(default = "default_precondition")]
    pub precondition: String,
    /// With `precondition: "random"`: how many times the span's size is overwritten at random.
    #[serde(default = "default_precondition_passes")]
    pub precondition_passes: f64,
    /// The workload writes through a host log-structured store with a greedy cleaner, on a
    /// zoned drive (issue 21); absent: its commands go to the drive as they are.
    #[serde(default)]
    pub zone_store: Option<ZoneStoreRequest>,
    /// A host app run in place of the workload's job: a flash cache or an LSM tree (issue 21);
    /// absent: the workload's own commands.
    #[serde(default)]
    pub app: Option<AppRequest>,
    /// Which placement handle the workload's writes carry, on a drive with `[placement]` (issue
    /// 21): "untagged" (handle 0, as every drive writes them), "temperature" (a handle per zone
    /// of the workload's zoned distribution) or "job" (the i-th job of a phase on handle i).
    #[serde(default = "default_placement")]
    pub placement: String,
}

/// An app as a request gives it: its kind, and whichever of its parameters it sets (the rest
/// are `AppConfig::new`'s defaults).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AppRequest {
    pub kind: String,
    #[serde(default)]
    pub tagged: bool,
    #[serde(default)]
    pub host_op: Option<f64>,
    #[serde(default)]
    pub soc_space: Option<f64>,
    #[serde(default)]
    pub soc_writes: Option<f64>,
    #[serde(default)]
    pub region_bytes: Option<u64>,
    #[serde(default)]
    pub scale: Option<u32>,
    #[serde(default)]
    pub keys: Option<u64>,
    #[serde(default)]
    pub value_bytes: Option<u32>,
    #[serde(default)]
    pub discard: Option<bool>,
}

impl AppRequest {
    /// What an `app` object may hold: the kind it applies to (None: both), and what each takes.
    const FIELDS: [(&'static str, Option<AppKind>, &'static str); 10] = [
        ("kind", None, "cache or lsm"),
        ("tagged", None, "true or false"),
        ("host_op", Some(AppKind::Cache), "a fraction of the app's span from 0 to 0.5"),
        ("soc_space", Some(AppKind::Cache), "a fraction from 0.01 to 0.99"),
        ("soc_writes", Some(AppKind::Cache), "a fraction from 0.01 to 0.99"),
        ("region_bytes", Some(AppKind::Cache), "a whole number of bytes, whole MiB from 1 to 256 MiB"),
        ("scale", Some(AppKind::Lsm), "a power of two from 1 to 1024"),
        ("keys", Some(AppKind::Lsm), "a whole number of keys"),
        ("value_bytes", Some(AppKind::Lsm), "a whole number of bytes from 16 to 4096"),
        ("discard", Some(AppKind::Lsm), "true or false"),
    ];

    /// Checks an `app` object field by field, so an error names `app.FIELD`.
    pub fn check_json(v: &serde_json::Value) -> Result<(), ConfigError> {
        let obj = v.as_object().ok_or_else(|| {
            ConfigError::new("app", format!("must be an object like {{\"kind\": \"cache\"}} (got {})", v))
        })?;
        let kind = match obj.get("kind") {
            None => return Err(ConfigError::new("app.kind", "is required (cache or lsm)")),
            Some(k) => k.as_str().and_then(AppKind::by_name).ok_or_else(|| {
                ConfigError::new("app.kind", format!("unknown app {} (allowed: {})", k, AppKind::NAMES))
            })?,
        };
        for (key, value) in obj {
            let Some(&(_, applies, expected)) = Self::FIELDS.iter().find(|(k, _, _)| k == key) else {
                let names: Vec<&str> = Self::FIELDS.iter().map(|(k, _, _)| *k).collect();
                return Err(ConfigError::new(
                    format!("app.{}", key),
                    format!("unknown setting (allowed: {})", names.join(", ")),
                ));
            };
            if applies.is_some_and(|a| a != kind) {
                return Err(ConfigError::new(
                    format!("app.{}", key),
                    format!("applies to the {} app only (got kind {})", applies.unwrap().name(), kind.name()),
                ));
            }
            let fits = match key.as_str() {
                "kind" => true,
                "tagged" | "discard" => value.is_boolean(),
                "host_op" | "soc_space" | "soc_writes" => value.is_number(),
                "region_bytes" | "keys" => value.as_u64().is_some(),
                _ => value.as_u64().is_some_and(|n| n <= u32::MAX as u64),
            };
            if !fits {
                return Err(ConfigError::new(format!("app.{}", key), format!("must be {} (got {})", expected, value)));
            }
        }
        Ok(())
    }

    /// The app over `span_bytes` (the span it runs over sizes the LSM's default keys).
    pub fn resolve(&self, span_bytes: u64) -> Result<AppConfig, ConfigError> {
        let kind = AppKind::by_name(&self.kind).ok_or_else(|| {
            ConfigError::new("app.kind", format!("unknown app '{}' (allowed: {})", self.kind, AppKind::NAMES))
        })?;
        let d = AppConfig::new(kind, span_bytes);
        Ok(AppConfig {
            kind,
            tagged: self.tagged,
            host_op: self.host_op.unwrap_or(d.host_op),
            soc_space: self.soc_space.unwrap_or(d.soc_space),
            soc_writes: self.soc_writes.unwrap_or(d.soc_writes),
            region_bytes: self.region_bytes.unwrap_or(d.region_bytes),
            scale: self.scale.unwrap_or(d.scale),
            keys: self.keys.unwrap_or(d.keys),
            value_bytes: self.value_bytes.unwrap_or(d.value_bytes),
            discard: self.discard.unwrap_or(d.discard),
        })
    }
}

fn default_placement() -> String {
    "untagged".into()
}

/// The request's `placement` values, as its errors list them.
const PLACEMENTS: &str = "untagged, temperature or job";

/// A zone store as a request gives it.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneStoreRequest {
    /// The app's data as a share of the zones' capacity.
    pub utilisation: f64,
    /// The cleaner runs when this few zones are empty.
    #[serde(default = "default_free_zones")]
    pub free_zones: u32,
    /// "one": every write in one class; "temperature": a class (an open zone) per zone of the
    /// workload's distribution, so hot and cold data never share a zone.
    #[serde(default = "default_classes")]
    pub classes: String,
}

fn default_free_zones() -> u32 {
    2
}
fn default_classes() -> String {
    "one".into()
}

impl ZoneStoreRequest {
    /// What a `zone_store` object may hold, and what each takes.
    const FIELDS: [(&'static str, &'static str); 3] = [
        ("utilisation", "a fraction of the zones' capacity, e.g. 0.8"),
        ("free_zones", "a whole number of zones, 1 or more"),
        ("classes", "one or temperature"),
    ];

    /// Checks a `zone_store` object field by field, so an error names `zone_store.FIELD`.
    fn check_json(v: &serde_json::Value) -> Result<(), ConfigError> {
        let obj = v.as_object().ok_or_else(|| {
            ConfigError::new("zone_store", format!("must be an object like {{\"utilisation\": 0.8}} (got {})", v))
        })?;
        for (key, value) in obj {
            let Some((_, expected)) = Self::FIELDS.iter().find(|(k, _)| k == key) else {
                let names: Vec<&str> = Self::FIELDS.iter().map(|(k, _)| *k).collect();
                return Err(ConfigError::new(
                    format!("zone_store.{}", key),
                    format!("unknown setting (allowed: {})", names.join(", ")),
                ));
            };
            let fits = match key.as_str() {
                "utilisation" => value.is_number(),
                "free_zones" => value.as_u64().is_some_and(|n| n <= u32::MAX as u64),
                _ => value.as_str().is_some_and(|c| c == "one" || c == "temperature"),
            };
            if !fits {
                return Err(ConfigError::new(
                    format!("zone_store.{}", key),
                    format!("must be {} (got {})", expected, value),
                ));
            }
        }
        if !obj.contains_key("utilisation") {
            return Err(ConfigError::new(
                "zone_store.utilisation",
                "is required (a fraction of the zones' capacity, e.g. 0.8)",
            ));
        }
        Ok(())
    }

    /// With classes "temperature", each job's writes tagged by the zone of its distribution.
    fn tag(&self, phases: &mut [Phase]) -> Result<(), ConfigError> {
        if self.classes != "temperature" {
            return Ok(());
        }
        for job in phases.iter_mut().flat_map(|p| &mut p.jobs) {
            let Distribution::Zoned(zones) = &job.distribution else {
                return Err(ConfigError::new(
                    "zone_store.classes",
                    "temperature puts each zone of the workload's distribution in its own class: it needs a zoned one (the hot-cold workload, or distribution zoned:...)",
                ));
            };
            job.placement = Placement::ByZone((0..zones.len() as u8).collect());
        }
        Ok(())
    }
}

/// An array as a request gives it: the members, and the test bed's values ([004]'s, see
/// `config::raid`) for whatever it leaves out.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RaidRequest {
    pub drives: u32,
    #[serde(default)]
    pub stripe_kib: Option<u32>,
    /// Shared HBA/backplane limit, MB/s (0: none).
    #[serde(default)]
    pub hba_mb_s: Option<u64>,
    /// Shared link time per command, ns.
    #[serde(default)]
    pub hba_command_ns: Option<u64>,
    /// Each member's own path time per command, ns.
    #[serde(default)]
    pub port_command_ns: Option<u64>,
}

impl RaidRequest {
    /// What a `raid` object may hold, and what each takes.
    const FIELDS: [(&'static str, &'static str); 5] = [
        ("drives", "a whole number from 1 to 64"),
        ("stripe_kib", "a power of two from 4 to 1024"),
        ("hba_mb_s", "a whole number of MB/s (0: no shared limit)"),
        ("hba_command_ns", "a whole number of ns"),
        ("port_command_ns", "a whole number of ns"),
    ];

    pub fn resolve(&self) -> RaidConfig {
        let t = RaidConfig::testbed(self.drives);
        RaidConfig {
            drives: self.drives,
            stripe_kib: self.stripe_kib.unwrap_or(t.stripe_kib),
            hba_mb_s: self.hba_mb_s.unwrap_or(t.hba_mb_s),
            hba_command_ns: self.hba_command_ns.unwrap_or(t.hba_command_ns),
            port_command_ns: self.port_command_ns.unwrap_or(t.port_command_ns),
        }
    }

    /// Checks a `raid` object field by field, so an error names `raid.FIELD`.
    fn check_json(v: &serde_json::Value) -> Result<(), ConfigError> {
        let obj = v.as_object().ok_or_else(|| {
            ConfigError::new("raid", format!("must be an object like {{\"drives\": 24}} (got {})", v))
        })?;
        for (key, value) in obj {
            let Some((_, expected)) = Self::FIELDS.iter().find(|(k, _)| k == key) else {
                let names: Vec<&str> = Self::FIELDS.iter().map(|(k, _)| *k).collect();
                return Err(ConfigError::new(
                    format!("raid.{}", key),
                    format!("unknown setting (allowed: {})", names.join(", ")),
                ));
            };
            if value.as_u64().is_none_or(|n| n > u32::MAX as u64) {
                return Err(ConfigError::new(format!("raid.{}", key), format!("must be {} (got {})", expected, value)));
            }
        }
        if !obj.contains_key("drives") {
            return Err(ConfigError::new("raid.drives", "is required (a whole number from 1 to 64)"));
        }
        Ok(())
    }
}

/// A trace as the page or the CLI hands it over: the file's text and how to replay it.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TraceRequest {
    /// The trace file's contents.
    pub text: String,
    /// msr, blkparse, disksim, disksim-ns, fio-v2 or fio-v3; detected from the first lines if
    /// absent.
    #[serde(default)]
    pub format: Option<String>,
    /// The file's name, for messages and results.
    #[serde(default = "default_trace_name")]
    pub name: String,
    /// Replay at the queue depth as fast as the drive answers, ignoring the trace's times.
    #[serde(default)]
    pub closed_loop: bool,
    /// Open loop: stretch (> 1) or compress (< 1) the trace's clock.
    #[serde(default = "default_time_scale")]
    pub time_scale: f64,
}

fn default_trace_name() -> String {
    "trace".into()
}
fn default_time_scale() -> f64 {
    1.0
}

impl TraceRequest {
    /// Reads the trace; errors name `trace` and the line.
    pub fn load(&self) -> Result<trace::Loaded, ConfigError> {
        let format = match &self.format {
            Some(name) => Some(Format::from_name(name).ok_or_else(|| {
                ConfigError::new("trace.format", format!("unknown format '{}' (allowed: {})", name, Format::names()))
            })?),
            None => None,
        };
        real_range("trace.time_scale", self.time_scale, 1e-6, 1e6, "0.000001 and 1000000")?;
        let mut loaded = trace::load(self.text.as_bytes(), format, &self.name)
            .map_err(|e| ConfigError::new("trace", e.to_string()))?;
        loaded.trace.open_loop = !self.closed_loop;
        loaded.trace.time_scale = self.time_scale;
        Ok(loaded)
    }
}

fn default_workload() -> String {
    "consistency".into()
}
fn default_seconds() -> u32 {
    2000
}
fn default_span() -> f64 {
    1.0
}
fn default_seed() -> u64 {
    1
}
fn default_threads() -> u32 {
    1
}
fn default_precondition() -> String {
    "fill".into()
}
fn default_precondition_passes() -> f64 {
    1.0
}

/// A resolved request: the run, and what its workload was read from.
pub struct Resolved {
    pub cfg: RunConfig,
    pub trace: Option<TraceSummary>,
    pub fio: Option<FioJobFile>,
}

impl RunRequest {
    /// Parses a JSON request; errors name the offending field and what it accepts.
    pub fn from_json(text: &str) -> Result<Self, ConfigError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ConfigError::new("config", format!("is not valid JSON ({})", e)))?;
        let obj = value
            .as_object()
            .ok_or_else(|| ConfigError::new("config", "must be a JSON object like {\"drive\":\"s3700-200\"}"))?;
        const KNOWN: [(&str, &str); 30] = [
            ("drive", "a drive id"),
            ("workload", "a workload name"),
            ("seconds", "a whole number of seconds"),
            ("span", "a fraction between 0.01 and 1.0"),
            ("queue_depth", "a whole number"),
            ("block_bytes", "a whole number of bytes, a multiple of 512"),
            ("align_bytes", "a whole number of bytes, a multiple of 512"),
            ("compressibility", "a fraction between 0 and 0.9"),
            ("power_cuts_s", "a list of seconds, e.g. [700.5, 1200]"),
            ("burst_s", "a whole number of seconds"),
            ("trim_fraction", "a fraction between 0 and 0.99"),
            ("idle_s", "a whole number of seconds"),
            ("seed", "a whole number from 0 to 2^64-1"),
            ("threads", "a whole number from 1 to 1024"),
            ("read_percent", "a whole percentage from 0 to 100"),
            ("random_percent", "a whole percentage from 0 to 100"),
            ("block_sizes", "sizes as fio's bssplit, e.g. \"4k/50:64k/50\""),
            ("distribution", "random, zipf:THETA, pareto:H or zoned:ACCESS/SIZE:..."),
            ("rate_iops", "a whole number of commands per second"),
            ("thinktime_us", "a whole number of microseconds"),
            ("fio", "the text of a fio job file"),
            ("fio_includes", "an object of the files the job file includes, name: text"),
            ("set", "an object of parameter paths and values"),
            ("trace", "an object {\"text\": the trace file, \"format\", \"name\", \"closed_loop\", \"time_scale\"}"),
            ("raid", "an object {\"drives\", \"stripe_kib\", \"hba_mb_s\", \"hba_command_ns\", \"port_command_ns\"}"),
            ("precondition", "fill, none or random"),
            ("precondition_passes", "a number of passes from 0.01 to 20"),
            ("zone_store", "an object {\"utilisation\", \"free_zones\", \"classes\"}"),
            ("app", "an object {\"kind\": \"cache\" or \"lsm\", \"tagged\", and the kind's parameters}"),
            ("placement", PLACEMENTS),
        ];
        for (key, v) in obj {
            let Some((_, expected)) = KNOWN.iter().find(|(k, _)| k == key) else {
                let names: Vec<&str> = KNOWN.iter().map(|(k, _)| *k).collect();
                // A blank name cannot name itself: the error names the request instead.
                let (field, what) = if key.trim().is_empty() {
                    ("config", format!("setting {:?}", key))
                } else {
                    (key.as_str(), "setting".to_string())
                };
                return Err(ConfigError::new(field, format!("unknown {} (allowed: {})", what, names.join(", "))));
            };
            if key == "raid" {
                RaidRequest::check_json(v)?;
            }
            if key == "zone_store" {
                ZoneStoreRequest::check_json(v)?;
            }
            if key == "app" {
                AppRequest::check_json(v)?;
            }
            // Deserialize each field alone so a type error names its field.
            let one = serde_json::json!({ key.as_str(): v, "drive": obj.get("drive").cloned().unwrap_or("x".into()) });
            if serde_json::from_value::<RunRequest>(one).is_err() {
                // A trace's whole text is too long to quote.
                let mut got = v.to_string();
                if got.len() > 120 {
                    got = format!("{}...", got.chars().take(100).collect::<String>());
                }
                return Err(ConfigError::new(key, format!("must be {} (got {})", expected, got)));
            }
        }
        if !obj.contains_key("drive") {
            return Err(ConfigError::new("drive", "is required"));
        }
        serde_json::from_value(value.clone()).map_err(|e| ConfigError::new("config", e.to_string()))
    }

    pub fn resolve(&self) -> Result<RunConfig, ConfigError> {
        self.resolve_all().map(|r| r.cfg)
    }

    /// `resolve`, and what the request's trace holds (None without a trace).
    pub fn resolve_replay(&self) -> Result<(RunConfig, Option<TraceSummary>), ConfigError> {
        self.resolve_all().map(|r| (r.cfg, r.trace))
    }

    /// The run, and with `fio` the job file as imported (what to report and log about each
    /// job, and what could not be honoured).
    pub fn resolve_with_fio(&self) -> Result<(RunConfig, Option<FioJobFile>), ConfigError> {
        self.resolve_all().map(|r| (r.cfg, r.fio))
    }

    /// The run with whatever its workload came from (a trace, a fio job file, or the named
    /// workload and the request's own fields).
    pub fn resolve_all(&self) -> Result<Resolved, ConfigError> {
        if self.trace.is_some() && self.fio.is_some() {
            return Err(ConfigError::new("fio", "a run replays a trace or runs a fio job file, not both"));
        }
        if self.fio.is_none() && !self.fio_includes.is_empty() {
            return Err(ConfigError::new("fio_includes", "needs fio (the job file that includes them)"));
        }
        let preset = presets::by_id(&self.drive)?;
        let drive = apply_parameters(&preset, self.set.iter().map(|(k, v)| (k.as_str(), v.clone())))?;
        victim::check(&drive.gc)?;
        let workload = WorkloadSpec::by_id(&self.workload)?;
        let block_bytes = self.block_bytes.unwrap_or(workload.block_bytes);
        let cfg = RunConfig {
            drive,
            workload,
            block_bytes,
            align_bytes: self.align_bytes.unwrap_or(block_bytes),
            compressibility: self.compressibility,
            seconds: self.seconds,
            span: self.span,
            queue_depth: self.queue_depth.unwrap_or(workload.queue_depth),
            seed: self.seed,
            power_cuts_ns: self
                .power_cuts_s
                .iter()
                .map(|&s| if s.is_finite() && s > 0.0 { (s * 1e9).round() as u64 } else { 0 })
                .collect(),
            trim_fraction: self.trim_fraction,
            burst_s: self.burst_s,
            idle_s: self.idle_s,
            threads: self.threads,
            phases: Vec::new(),
            raid: self.raid.map(|r| r.resolve()),
            precondition: Precondition::by_name(&self.precondition, self.precondition_passes)?,
            zone_store: self
                .zone_store
                .as_ref()
                .map(|z| ZoneStoreConfig { utilisation: z.utilisation, free_zones: z.free_zones }),
            app: None,
        };
        // The tested span sizes the fio import and the models' files: checked before either.
        real_range("span", cfg.span, MIN_SPAN, 1.0, &format!("{} and 1.0", MIN_SPAN))?;
        real_range("trim_fraction", cfg.trim_fraction, 0.0, 0.99, "0 and 0.99")?;
        if self.precondition != "random" && self.precondition_passes != 1.0 {
            return Err(ConfigError::new("precondition_passes", "applies only to precondition \"random\""));
        }
        let resolved = match (&self.trace, &self.fio) {
            #[cfg(not(feature = "imports"))]
            (Some(_), _) | (None, Some(_)) => {
                let field = if self.trace.is_some() { "trace" } else { "fio" };
                return Err(ConfigError::new(
                    field,
                    "needs the engine's full module (this one reads no fio job files or traces)",
                ));
            }
            #[cfg(feature = "imports")]
            (Some(t), _) => {
                let (phase, summary) = self.replay_phase(&cfg, t)?;
                Resolved { cfg: RunConfig { phases: vec![phase], ..cfg }, trace: Some(summary), fio: None }
            }
            #[cfg(feature = "imports")]
            (None, Some(text)) => {
                let (cfg, file) = self.fio_phases(cfg, text)?;
                Resolved { cfg, trace: None, fio: Some(file) }
            }
            (None, None) if workload.is_model() => {
                Resolved { cfg: RunConfig { phases: self.model_phases(&cfg)?, ..cfg }, trace: None, fio: None }
            }
            (None, None) => {
                Resolved { cfg: RunConfig { phases: self.job_phases(&cfg)?, ..cfg }, trace: None, fio: None }
            }
        };
        let mut resolved = resolved;
        if let Some(app) = &self.app {
            if self.trace.is_some() || self.fio.is_some() {
                return Err(ConfigError::new(
                    "app",
                    "runs in place of the workload's job: not with a trace or a fio job file",
                ));
            }
            resolved.cfg.app = Some(app.resolve(resolved.cfg.host_units() * UNIT_BYTES)?);
        }
        if let Some(z) = &self.zone_store {
            if self.app.is_some() && z.classes != "one" {
                return Err(ConfigError::new(
                    "zone_store.classes",
                    "an app's tags are the store's classes (app.tagged): leave classes out",
                ));
            }
            if resolved.cfg.phases.is_empty() {
                resolved.cfg.phases = resolved.cfg.plan();
            }
            z.tag(&mut resolved.cfg.phases)?;
        }
        // Untagged runs keep their phases as they were (byte-identical to runs before placement).
        if self.placement != "untagged" {
            if resolved.cfg.phases.is_empty() {
                resolved.cfg.phases = resolved.cfg.plan();
            }
            self.place(&resolved.cfg.drive, &mut resolved.cfg.phases)?;
        }
        resolved.cfg.validate()?;
        Ok(resolved)
    }

    /// Tags the jobs' writes as `placement` asks, naming `placement` when the drive or the
    /// workload cannot take it.
    fn place(&self, drive: &DriveConfig, phases: &mut [Phase]) -> Result<(), ConfigError> {
        let err = |m: String| Err(ConfigError::new("placement", m));
        if !["temperature", "job"].contains(&self.placement.as_str()) {
            return err(format!("must be {} (got {:?})", PLACEMENTS, self.placement));
        }
        if self.fio.is_some() || self.trace.is_some() {
            return err(
                "applies to the named workloads (a fio job file tags its own writes with fdp=1 and plids)".into()
            );
        }
        if self.app.is_some() {
            return err("applies to the named workloads: an app tags its own writes (app.tagged)".into());
        }
        let Some(p) = &drive.placement else {
            // A zoned drive places data by zone: its store's classes are the choice there.
            let zoned = if drive.zoned.is_some() {
                " (a zoned drive's zone store takes zone_store.classes one or temperature)"
            } else {
                ""
            };
            return err(format!(
                "drive {} takes no placement handles: it has no [placement] section{}",
                drive.id, zoned
            ));
        };
        for phase in phases.iter_mut() {
            let jobs = phase.jobs.len();
            for (i, job) in phase.jobs.iter_mut().enumerate() {
                let handles: Vec<u8> = if self.placement == "job" {
                    vec![i as u8]
                } else if let Distribution::Zoned(zones) = &job.distribution {
                    (0..zones.len() as u8).collect()
                } else {
                    return err("temperature puts each zone of the workload's distribution on its own handle: it needs a zoned one (the hot-cold workload, or distribution zoned:...)".into());
                };
                let needed = if self.placement == "job" { jobs } else { handles.len() };
                if needed > p.handles as usize {
                    let what = if self.placement == "job" { "jobs" } else { "zones in the distribution" };
                    return err(format!(
                        "{} {} need {} handles; drive {} takes {} (0-{})",
                        needed,
                        what,
                        needed,
                        drive.id,
                        p.handles,
                        p.handles - 1
                    ));
                }
                job.placement =
                    if self.placement == "job" { Placement::Handle(handles[0]) } else { Placement::ByZone(handles) };
            }
        }
        Ok(())
    }

    /// The first field given that shapes a workload (which a fio job file or a trace model sets
    /// itself).
    fn shaping_field(&self) -> Option<&'static str> {
        let shaping = [
            ("queue_depth", self.queue_depth.is_some()),
            ("block_bytes", self.block_bytes.is_some()),
            ("align_bytes", self.align_bytes.is_some()),
            ("threads", self.threads != 1),
            ("read_percent", self.read_percent.is_some()),
            ("random_percent", self.random_percent.is_some()),
            ("block_sizes", self.block_sizes.is_some()),
            ("distribution", self.distribution.is_some()),
            ("rate_iops", self.rate_iops != 0),
            ("thinktime_us", self.thinktime_us != 0),
        ];
        shaping.iter().find(|(_, given)| *given).map(|(field, _)| *field)
    }

    /// The run with the job file's phases over the tested span; the job file sets the run's
    /// length (at most `seconds`) and, with buffer_compress_percentage, the data's
    /// compressibility.
    #[cfg(feature = "imports")]
    fn fio_phases(&self, mut cfg: RunConfig, text: &str) -> Result<(RunConfig, FioJobFile), ConfigError> {
        if let Some(field) = self.shaping_field() {
            return Err(ConfigError::new(
                field,
                "the fio job file sets the workload; give this in the job file or leave out fio",
            ));
        }
        let device = fio::Device::of(&cfg.drive, cfg.host_units() * UNIT_BYTES);
        let mut file = fio::import_including(text, &self.fio_includes, &device)?;
        cfg.phases = file.phases.clone();
        if let Some(c) = file.compressibility {
            if cfg.compressibility == 0.0 {
                cfg.compressibility = c;
            }
        }
        if let Some(planned_ns) = file.planned_ns() {
            let planned_s = planned_ns.div_ceil(NS_PER_S);
            if planned_s > cfg.seconds as u64 {
                file.report.notes.insert(
                    0,
                    Note {
                        line: 0,
                        option: format!("seconds={}", cfg.seconds),
                        message: format!(
                            "the run stops at {} s, before the job file's {} s are over (give a larger seconds)",
                            cfg.seconds, planned_s
                        ),
                    },
                );
            }
            cfg.seconds = cfg.seconds.min(planned_s.max(1) as u32);
        } else {
            file.report.notes.insert(
                0,
                Note {
                    line: 0,
                    option: format!("seconds={}", cfg.seconds),
                    message: "a phase without a runtime runs until its jobs have moved their bytes; the run stops \
                              at seconds if they have not"
                        .into(),
                },
            );
        }
        if let Some(note) = ramp_past_the_end(&file.phases, cfg.seconds) {
            file.report.notes.insert(0, note);
        }
        Ok((cfg, file))
    }
}

/// The phase whose ramp the run's `seconds` end within (its start known: the phases before it
/// are time-based): fio counts no I/O during ramp_time, so it measures nothing of it.
#[cfg(feature = "imports")]
fn ramp_past_the_end(phases: &[Phase], seconds: u32) -> Option<Note> {
    let end_ns = seconds as u64 * NS_PER_S;
    let mut start_ns = 0u64;
    for p in phases {
        let ramp_end_ns = start_ns.saturating_add(p.ramp_ns);
        if start_ns >= end_ns {
            return None;
        }
        if p.ramp_ns > 0 && ramp_end_ns >= end_ns {
            return Some(Note {
                line: 0,
                option: format!("seconds={}", seconds),
                message: format!(
                    "the run stops at {} s, within the ramp of phase '{}' ({} to {} s): nothing of it is measured (fio \
                     counts no I/O during ramp_time); give seconds above {} or a ramp_time below {} s",
                    seconds,
                    p.name,
                    start_ns as f64 / 1e9,
                    ramp_end_ns as f64 / 1e9,
                    ramp_end_ns.div_ceil(NS_PER_S),
                    (end_ns - start_ns.min(end_ns)) as f64 / 1e9
                ),
            });
        }
        // A phase that may end with its bytes before its runtime leaves the next one's start unknown.
        if p.runtime_ns == 0 || p.jobs.iter().any(|j| j.io_limit_bytes > 0) {
            return None;
        }
        start_ns = start_ns.saturating_add(p.runtime_ns);
    }
    None
}

impl RunRequest {
    /// The trace as one phase of one job at the queue depth.
    #[cfg(feature = "imports")]
    fn replay_phase(&self, cfg: &RunConfig, t: &TraceRequest) -> Result<(Phase, TraceSummary), ConfigError> {
        let shaping = [
            ("read_percent", self.read_percent.is_some()),
            ("random_percent", self.random_percent.is_some()),
            ("block_sizes", self.block_sizes.is_some()),
            ("distribution", self.distribution.is_some()),
            ("rate_iops", self.rate_iops > 0),
            ("thinktime_us", self.thinktime_us > 0),
            ("threads", self.threads != 1),
        ];
        if let Some((field, _)) = shaping.iter().find(|s| s.1) {
            return Err(ConfigError::new(*field, "does not apply to a trace replay (the trace gives every command)"));
        }
        let loaded = t.load()?;
        let summary = loaded.summary();
        // The host's clock holds about 13 days (MAX_SECONDS fits); a longer replay cannot run.
        let scaled_s = summary.duration_s * loaded.trace.time_scale;
        if loaded.trace.open_loop && scaled_s > MAX_SECONDS as f64 {
            return Err(ConfigError::new(
                "trace.time_scale",
                format!(
                    "the trace lasts {:.0} s; at time scale {} that is {:.0} s, longer than a run may be ({} s)",
                    summary.duration_s, loaded.trace.time_scale, scaled_s, MAX_SECONDS
                ),
            ));
        }
        let mut job = JobSpec::named(&cfg.workload, cfg.block_bytes, cfg.align_bytes, cfg.queue_depth);
        job.name = loaded.trace.name.clone();
        job.trace = Some(Arc::new(loaded.trace));
        // The phase ends when the trace does (the run may end sooner, at `seconds`).
        Ok((Phase { name: "replay".into(), jobs: vec![job], runtime_ns: 0, ramp_ns: 0 }, summary))
    }

    /// A trace model's phases over the tested span (`host/apps/`): the model sets every command,
    /// so the fields that shape a workload are refused; `seconds` caps the run.
    fn model_phases(&self, cfg: &RunConfig) -> Result<Vec<Phase>, ConfigError> {
        if let Some(field) = self.shaping_field() {
            return Err(ConfigError::new(
                field,
                format!(
                    "'{}' is a model of a trace and sets its own sizes, mix and queue depths; leave this out",
                    cfg.workload.id
                ),
            ));
        }
        let model = apps::by_id(cfg.workload.id)
            .ok_or_else(|| ConfigError::new("workload", format!("no model named '{}'", cfg.workload.id)))?;
        Ok(apps::phases(model, cfg.workload_units() * UNIT_BYTES))
    }

    /// The workload as one phase of `threads` jobs when the request shapes its jobs beyond the
    /// named workload (mix, sizes, pattern, skew, pace); otherwise none (the shorthand).
    fn job_phases(&self, cfg: &RunConfig) -> Result<Vec<Phase>, ConfigError> {
        let shaped = self.read_percent.is_some()
            || self.random_percent.is_some()
            || self.block_sizes.is_some()
            || self.distribution.is_some()
            || self.rate_iops > 0
            || self.thinktime_us > 0;
        if !shaped {
            return Ok(Vec::new());
        }
        let mut job = JobSpec::named(&cfg.workload, cfg.block_bytes, cfg.align_bytes, cfg.queue_depth);
        if let Some(p) = self.read_percent {
            range("read_percent", p as u64, 0, 100)?;
            job.read_percent = p;
        }
        if let Some(p) = self.random_percent {
            range("random_percent", p as u64, 0, 100)?;
            job.random_percent = p;
        }
        if let Some(text) = &self.block_sizes {
            let sizes = BlockSizes::parse("block_sizes", text)?;
            if self.align_bytes.is_none() {
                job.align_bytes = 0; // each request aligned to the smallest size, as fio does
            }
            job.read_sizes = sizes.clone();
            job.write_sizes = sizes;
        }
        if let Some(text) = &self.distribution {
            job.distribution = Distribution::parse("distribution", text)?;
        }
        job.rate_iops = self.rate_iops;
        job.thinktime_ns = self.thinktime_us.saturating_mul(1000);
        Ok(vec![Phase {
            name: cfg.workload.id.to_string(),
            jobs: vec![job; self.threads.clamp(1, 1024) as usize],
            runtime_ns: cfg.seconds as u64 * NS_PER_S,
            ramp_ns: 0,
        }])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_tags_the_named_workloads_jobs_or_names_why_not() {
        let resolve = |json: &str| RunRequest::from_json(json).and_then(|r| r.resolve());
        let tags = |json: &str| -> Vec<Placement> {
            resolve(json).unwrap().phases.iter().flat_map(|p| p.jobs.iter().map(|j| j.placement.clone())).collect()
        };
        // Untagged (the default) leaves the run's phases as they were.
        assert!(resolve(r#"{"drive":"fdp-s3700-200","workload":"hot-cold"}"#).unwrap().phases.is_empty());
        assert_eq!(
            tags(r#"{"drive":"fdp-s3700-200","workload":"hot-cold","placement":"temperature"}"#),
            vec![Placement::ByZone(vec![0, 1])]
        );
        assert_eq!(
            tags(r#"{"drive":"fdp-s3700-200","threads":3,"placement":"job"}"#),
            vec![Placement::Handle(0), Placement::Handle(1), Placement::Handle(2)]
        );
        let bad = |json: &str| resolve(json).unwrap_err();
        let e = bad(r#"{"drive":"fdp-s3700-200","placement":"hot"}"#);
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            ("placement", "must be untagged, temperature or job (got \"hot\")")
        );
        let e = bad(r#"{"drive":"s3700-200","workload":"hot-cold","placement":"temperature"}"#);
        assert_eq!(e.field, "placement");
        assert!(e.message.contains("s3700-200 takes no placement handles"), "{}", e.message);
        let e =
            bad(r#"{"drive":"zn540-small","precondition":"none","zone_store":{"utilisation":0.5},"placement":"job"}"#);
        assert!(
            e.message.ends_with("section (a zoned drive's zone store takes zone_store.classes one or temperature)"),
            "{}",
            e.message
        );
        let e = bad(r#"{"drive":"fdp-s3700-200","placement":"temperature"}"#);
        assert!(e.message.contains("needs a zoned one"), "{}", e.message);
        let e = bad(r#"{"drive":"fdp-s3700-200","threads":9,"placement":"job"}"#);
        assert_eq!(e.message, "9 jobs need 9 handles; drive fdp-s3700-200 takes 8 (0-7)");
        let e = bad(
            r#"{"drive":"fdp-s3700-200","workload":"hot-cold","distribution":"zoned:10/10:10/10:10/10:10/10:10/10:10/10:10/10:10/10:20/20","placement":"temperature"}"#,
        );
        assert_eq!(e.message, "9 zones in the distribution need 9 handles; drive fdp-s3700-200 takes 8 (0-7)");
        let e = bad(r#"{"drive":"fdp-s3700-200","app":{"kind":"cache"},"placement":"job"}"#);
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            ("placement", "applies to the named workloads: an app tags its own writes (app.tagged)")
        );
    }

    #[test]
    fn run_request_rejects_out_of_range_and_unknown_names() {
        let bad = |json: &str| RunRequest::from_json(json).and_then(|r| r.resolve()).unwrap_err();
        assert_eq!(bad(r#"{"drive":"s3700-200","span":1.5}"#).field, "span");
        assert_eq!(bad(r#"{"drive":"s3700-200","span":0}"#).field, "span");
        assert_eq!(bad(r#"{"drive":"s3700-200","seconds":0}"#).field, "seconds");
        assert_eq!(bad(r#"{"drive":"nope"}"#).field, "drive");
        assert_eq!(bad(r#"{"drive":"s3700-200","workload":"nope"}"#).field, "workload");
        assert_eq!(bad(r#"{"drive":"s3700-200","block_bytes":1000}"#).field, "block_bytes");
        assert_eq!(bad(r#"{"drive":"s3700-200","align_bytes":100}"#).field, "align_bytes");
        assert_eq!(bad(r#"{"drive":"s3700-200","compressibility":0.95}"#).field, "compressibility");
        assert_eq!(
            bad(r#"{"drive":"s3700-200","set":{"controller.compression_slot_bytes":1000}}"#).field,
            "controller.compression_slot_bytes"
        );
        // A request's set adds [placement] or [zoned] as --set does, naming what is missing or wrong.
        assert_eq!(bad(r#"{"drive":"s3700-200","set":{"placement.handles":4}}"#).field, "placement.kind");
        assert_eq!(
            bad(r#"{"drive":"s3700-200","set":{"placement.kind":"fdp","placement.handles":0}}"#).message,
            "must be between 1 and 16 (got 0)"
        );
        assert_eq!(
            bad(r#"{"drive":"zn540-small","set":{"zoned.max_active_zones":17}}"#).field,
            "zoned.max_active_zones"
        );
        assert_eq!(
            bad(r#"{"drive":"zn540-small","set":{"placement.kind":"fdp","placement.handles":4}}"#).field,
            "zoned"
        );
        // A zoned drive refuses writes outside its zones' order: named, not run at 0 IOPS.
        let e = bad(r#"{"drive":"zn540-small","precondition":"none"}"#);
        assert!(e.field.starts_with("phases[0].jobs[0]") && e.message.contains("zone_store"), "{e}");
        assert_eq!(bad(r#"{"drive":"zn540-small","zone_store":{"utilisation":0.5}}"#).field, "precondition");
        assert_eq!(bad(r#"{"drive":"s3700-200","block_bytes":4194304}"#).field, "block_bytes");
        assert_eq!(bad(r#"{"drive":"s3700-200","colour":1}"#).field, "colour");
        assert_eq!(bad(r#"{"drive":"s3700-200","seconds":"x"}"#).field, "seconds");
        assert_eq!(bad(r#"{"drive":"s3700-200","seed":-1}"#).field, "seed");
        assert_eq!(bad("[1]").field, "config");
        assert_eq!(bad(r#"{"drive":"s3700-200","raid":{"drives":0}}"#).field, "raid.drives");
        assert_eq!(bad(r#"{"drive":"s3700-200","raid":{"drives":65}}"#).message, "must be between 1 and 64 (got 65)");
        assert_eq!(bad(r#"{"drive":"s3700-200","raid":{"drives":4,"stripe_kib":96}}"#).field, "raid.stripe_kib");
        assert_eq!(bad(r#"{"drive":"s3700-200","raid":{"drives":4,"stripe":64}}"#).field, "raid.stripe");
        assert_eq!(bad(r#"{"drive":"s3700-200","raid":{"drives":-1}}"#).field, "raid.drives");
        assert_eq!(bad(r#"{"drive":"s3700-200","raid":{"stripe_kib":64}}"#).field, "raid.drives");
        assert_eq!(bad(r#"{"drive":"s3700-200","raid":{"drives":4,"hba_mb_s":1}}"#).field, "raid.hba_mb_s");
        assert_eq!(bad(r#"{"drive":"s3700-200","raid":4}"#).field, "raid");
        assert_eq!(bad(r#"{"drive":"s3700-200","precondition":"warm"}"#).field, "precondition");
        assert_eq!(bad(r#"{"drive":"s3700-200","precondition_passes":2}"#).field, "precondition_passes");
        assert_eq!(
            bad(r#"{"drive":"s3700-200","precondition":"random","precondition_passes":50}"#).field,
            "precondition_passes"
        );
        let ok = |json: &str| RunRequest::from_json(json).and_then(|r| r.resolve()).unwrap();
        let cfg = ok(r#"{"drive":"s3700-800","raid":{"drives":24}}"#);
        assert_eq!(cfg.raid, Some(RaidConfig::testbed(24)));
        let cfg = ok(r#"{"drive":"s3700-200","raid":{"drives":2,"stripe_kib":4,"hba_mb_s":0}}"#);
        assert_eq!((cfg.raid.unwrap().stripe_kib, cfg.raid.unwrap().hba_mb_s), (4, 0));
        assert_eq!(ok(r#"{"drive":"s3700-200"}"#).raid, None);
        let fdp = ok(r#"{"drive":"s3700-200","set":{"placement.kind":"fdp","placement.handles":4}}"#);
        assert_eq!(fdp.drive.placement.map(|p| p.handles), Some(4));
        assert_eq!(
            ok(r#"{"drive":"zn540-small","precondition":"none","zone_store":{"utilisation":0.5}}"#)
                .drive
                .zoned
                .map(|z| z.max_open_zones),
            Some(14)
        );
    }
}
