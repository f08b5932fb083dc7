//! The command line, on clap. Values are taken as text and checked by the engine's own rules, so
//! a bad one is reported as everywhere else: the field, what it accepts, what was given.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, Parser, Subcommand};
use ssdlab_core::config::presets;
use ssdlab_core::experiment::{ArticleDrive, EXPERIMENTS};
use ssdlab_core::host::fio;
use ssdlab_core::request::{AppRequest, RaidRequest, TraceRequest};
use ssdlab_core::units::MAX_SECONDS;
use ssdlab_core::{ConfigError, RunRequest};

#[derive(Parser)]
#[command(name = "ssdlab", version, about = "SSD Lab: run drive presets and workloads through the drive model")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// Built once per process, so the size of its largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum Command {
    /// List the drive presets (with --sources, where each value comes from).
    Presets {
        /// Under each drive, every parameter its file gives a source for: value and source.
        #[arg(long)]
        sources: bool,
        /// Only this drive.
        #[arg(long, value_name = "ID")]
        drive: Option<String>,
    },
    /// Run one test and print its summary (per-second samples with --csv).
    Run(RunArgs),
    /// Replay a block trace (MSR/SNIA CSV, blkparse, DiskSim, fio iolog) on a drive.
    Replay(ReplayArgs),
    /// List the named workloads and the models of the articles' application traces.
    Workloads,
    /// List every parameter path that --set accepts, with the preset's value.
    Params {
        /// A drive preset id (see `ssdlab presets`).
        #[arg(long)]
        drive: String,
    },
    /// Rated TBW by JESD218 arithmetic, and what the NAND's P/E limit allows.
    Endurance(EnduranceArgs),
    /// Run one of the articles' experiments (a list of runs) and print its table as CSV.
    Sweep(SweepArgs),
    /// Run every preset through the tests its article reports: target beside simulated.
    Calibrate {
        /// Only this drive (repeatable).
        #[arg(long, value_name = "ID")]
        drive: Vec<String>,
        /// Print the outcomes as JSON.
        #[arg(long)]
        json: bool,
        /// Print a Markdown table (for docs/CALIBRATION.md).
        #[arg(long)]
        markdown: bool,
        /// Save the outcomes to this file (public/calibration.json, which the page and
        /// docs/CALIBRATION.md read), keeping its saved outcomes of targets not run now.
        #[arg(long, value_name = "FILE", conflicts_with = "from")]
        save: Option<std::path::PathBuf>,
        /// Run nothing: print the outcomes saved in this file.
        #[arg(long, value_name = "FILE")]
        from: Option<std::path::PathBuf>,
    },
}

#[derive(Args)]
pub struct RunArgs {
    /// A drive preset id (see `ssdlab presets`); required unless --config gives it.
    #[arg(long, value_name = "ID")]
    drive: Option<String>,
    /// consistency (default), random-write, random-read, mixed-70-30, hot-cold,
    /// sequential-write, sequential-read, redo-log or write-trim; or a model of an application
    /// trace: swingbench, sql-update-daily-stats, sql-weekly-maintenance,
    /// storage-bench-2011-heavy or storage-bench-2011-light (see `ssdlab workloads`).
    #[arg(long, value_name = "NAME")]
    workload: Option<String>,
    /// Simulated seconds (default 2000).
    #[arg(long, value_name = "N")]
    seconds: Option<String>,
    /// Fraction of the user capacity filled and tested, 0.01 to 1 (the rest is extra spare area).
    #[arg(long, value_name = "F")]
    span: Option<String>,
    #[arg(long, value_name = "N")]
    seed: Option<String>,
    /// Commands the host keeps outstanding (default: the workload's).
    #[arg(long, value_name = "N")]
    queue_depth: Option<String>,
    /// Bytes per request, a multiple of 512 (default: the workload's).
    #[arg(long, value_name = "N")]
    block_bytes: Option<String>,
    /// Random requests start at multiples of this many bytes (default: the block size).
    #[arg(long, value_name = "N")]
    align_bytes: Option<String>,
    /// How much the data shrinks under compression, 0 to 0.9.
    #[arg(long, value_name = "F")]
    compressibility: Option<String>,
    /// Cut power this many seconds into the test (repeatable).
    #[arg(long = "power-cut-at", value_name = "S")]
    power_cut_at: Vec<String>,
    /// Seconds of work between the host's rests (with --idle-s).
    #[arg(long, value_name = "N")]
    burst_s: Option<String>,
    /// Seconds the host rests after each burst.
    #[arg(long, value_name = "N")]
    idle_s: Option<String>,
    /// TRIM this fraction of the filled span before the test.
    #[arg(long, value_name = "F")]
    trim_fraction: Option<String>,
    /// Identical jobs running the workload together, each at the queue depth (threads x QD).
    #[arg(long, value_name = "N")]
    threads: Option<String>,
    /// What each drive holds when the test begins: fill (default: the span written in order),
    /// none (secure-erased only) or random (the fill, then random overwrites applied at once).
    #[arg(long, value_name = "NAME")]
    precondition: Option<String>,
    /// With --precondition random: times the span's size is overwritten (default 1).
    #[arg(long, value_name = "F")]
    precondition_passes: Option<String>,
    /// Test a RAID 0 array of N copies of the drive, 1 to 64 [004] (values not given below are
    /// the test bed of [004]: 64 KiB stripes, 4200 MB/s shared, 20 us per command per member).
    #[arg(long, value_name = "N")]
    raid_drives: Option<String>,
    /// With --raid-drives: the stripe chunk, KiB (a power of two, 4 to 1024).
    #[arg(long, value_name = "K")]
    stripe_kib: Option<String>,
    /// With --raid-drives: the HBA/backplane bandwidth all members share, MB/s (0: no limit).
    #[arg(long, value_name = "X")]
    hba_mb_s: Option<String>,
    /// With --raid-drives: time each command holds the shared link besides its payload, ns.
    #[arg(long, value_name = "NS")]
    hba_command_ns: Option<String>,
    /// With --raid-drives: time each command holds its member's own path, ns (0: none).
    #[arg(long, value_name = "NS")]
    port_command_ns: Option<String>,
    /// Write through a host log-structured store on a zoned drive ([zoned], e.g. given whole
    /// with --set 'zoned={...}'), its app's data this share of the zones' capacity (e.g. 0.8):
    /// a greedy cleaner copies live data out of the emptiest full zone and resets it.
    #[arg(long, value_name = "F")]
    zone_store: Option<String>,
    /// With --zone-store: clean when this few zones are empty (default 2).
    #[arg(long, value_name = "N")]
    zone_store_free_zones: Option<String>,
    /// With --zone-store: one (default: every write in one class) or temperature (an open zone
    /// per zone of the workload's distribution: hot and cold data apart).
    #[arg(long, value_name = "NAME")]
    zone_store_classes: Option<String>,
    /// Run a host app in place of the workload's job: cache (CacheLib's flash cache) or lsm (an
    /// LSM tree), or its whole object as JSON, e.g. '{"kind":"cache","tagged":true,"host_op":0.25}'.
    #[arg(long, value_name = "KIND|JSON")]
    app: Option<String>,
    /// First second of steady state for the summary (default: 70 % of the run).
    #[arg(long, value_name = "S")]
    steady_from: Option<String>,
    /// Change a drive parameter, e.g. timing.program_ns=1500000 (repeatable; see `ssdlab params`).
    #[arg(long, value_name = "PATH=VALUE")]
    set: Vec<String>,
    /// Read the run's settings from a JSON request ({"drive":"s3700-200","seconds":600,...});
    /// options given here override it.
    #[arg(long, value_name = "FILE.json")]
    config: Option<String>,
    /// Write one row per simulated second to FILE.
    #[arg(long, value_name = "FILE")]
    csv: Option<String>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Run a fio job file: [global] and job sections, stonewall phases, fio's options and
    /// units. Options that do not change the drive's workload, and those the simulator cannot
    /// honour, are listed on stderr with their line.
    #[arg(long, value_name = "JOB.fio")]
    fio: Option<String>,
    /// With --fio: write the run's results in fio's --output-format=json layout to FILE.
    #[arg(long, value_name = "FILE")]
    fio_json: Option<String>,
    /// With --fio: the directory for the job file's logs (write_iops_log=... and friends),
    /// named as fio names them (default: the current directory).
    #[arg(long, value_name = "DIR")]
    fio_log_dir: Option<String>,
}

/// A run as the command line asks for it.
pub struct Run {
    pub request: RunRequest,
    pub steady_from: Option<u32>,
    pub csv: Option<String>,
    pub json: bool,
    /// The job file's path, for messages.
    pub fio: Option<String>,
    pub fio_json: Option<String>,
    pub fio_log_dir: String,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// The trace file.
    #[arg(value_name = "TRACE")]
    trace: String,
    /// msr, blkparse, disksim (ms), disksim-ns (MQSim/SSDSim), fio-v2 or fio-v3 (default:
    /// detected from the first lines).
    #[arg(long, value_name = "F")]
    format: Option<String>,
    /// A drive preset id (see `ssdlab presets`; default: the first).
    #[arg(long, value_name = "ID")]
    drive: Option<String>,
    /// Issue each command at its time in the trace (default), at most --queue-depth outstanding.
    #[arg(long, conflicts_with = "closed_loop")]
    open_loop: bool,
    /// Keep --queue-depth commands outstanding, as fast as the drive answers (times ignored).
    #[arg(long)]
    closed_loop: bool,
    /// Open loop: stretch (> 1) or compress (< 1) the trace's clock (default 1).
    #[arg(long, value_name = "X")]
    time_scale: Option<String>,
    /// Most commands outstanding at once (default 32).
    #[arg(long, value_name = "N")]
    queue_depth: Option<String>,
    /// Stop after this many simulated seconds (default: when the trace ends).
    #[arg(long, value_name = "N")]
    seconds: Option<String>,
    /// Change a drive parameter, e.g. timing.program_ns=1500000 (repeatable; see `ssdlab params`).
    #[arg(long, value_name = "PATH=VALUE")]
    set: Vec<String>,
    /// What the drive holds when the replay begins: fill (default: the span written in order),
    /// none (secure-erased only; a zoned drive's only choice) or random (the fill, then random
    /// overwrites).
    #[arg(long, value_name = "NAME")]
    precondition: Option<String>,
    /// Write one row per simulated second to FILE.
    #[arg(long, value_name = "FILE")]
    csv: Option<String>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// `sweep --drive`'s help, from the experiments' registry: each experiment's default drive.
fn drive_help() -> String {
    let mut defaults = Vec::new();
    let mut required = Vec::new();
    for e in &EXPERIMENTS {
        match e.drive {
            ArticleDrive::One { preset, .. } => defaults.push(format!("{} {}", e.id, preset)),
            ArticleDrive::Several(_) => required.push(e.id),
        }
    }
    format!(
        "A drive preset id (see `ssdlab presets`). Default: the drive the experiment's article measures ({}); \
         {} need one: their articles compare several drives (--list says why)",
        defaults.join(", "),
        required.join(" and ")
    )
}

#[derive(Args)]
pub struct EnduranceArgs {
    #[arg(long, value_name = "ID")]
    pub drive: Option<String>,
    /// Write amplification: a number from 1 to 100, `theory` (greedy GC, default) or `measured`
    /// (runs the IO-consistency test).
    #[arg(long, value_name = "F|theory|measured", default_value = "theory")]
    pub wa: String,
    #[arg(long, value_name = "PATH=VALUE")]
    pub set: Vec<String>,
}

#[derive(Args)]
pub struct SweepArgs {
    /// io-consistency, four-corners, mixed-70-30, sequential-128k, spare-area, endurance,
    /// raid-scaling, whole-drive-fill, idle-recovery, dirty-recovery or placement
    /// (--list describes each).
    #[arg(value_name = "EXPERIMENT")]
    pub experiment: Option<String>,
    /// List the experiments with the article each reproduces.
    #[arg(long)]
    pub list: bool,
    #[arg(long, value_name = "ID", help = drive_help())]
    pub drive: Option<String>,
    /// Simulated seconds of each measured point (default: the experiment's).
    #[arg(long, value_name = "N")]
    pub seconds: Option<String>,
    /// Seconds at the start of each point not counted (fio's ramp_time).
    #[arg(long, value_name = "N")]
    pub ramp_seconds: Option<String>,
    /// Queue depths of a sweep, e.g. 1,4,32.
    #[arg(long, value_name = "LIST")]
    pub queue_depths: Option<String>,
    /// Numbers of drives for raid-scaling, e.g. 4,8,16,24.
    #[arg(long, value_name = "LIST")]
    pub drive_counts: Option<String>,
    /// idle-recovery: GB written before the rest (default: a third of the span).
    #[arg(long, value_name = "GB")]
    pub write_gb: Option<String>,
    /// idle-recovery and dirty-recovery: the rests to compare, seconds, e.g. 0,1,10,60.
    #[arg(long, value_name = "LIST")]
    pub rest_seconds: Option<String>,
    /// idle-recovery: GB written after the rest (default: a hundredth of the span).
    #[arg(long, value_name = "GB")]
    pub then_gb: Option<String>,
    /// dirty-recovery: seconds of 4 KiB random writes after the fill (default 1800).
    #[arg(long, value_name = "N")]
    pub dirty_seconds: Option<String>,
    /// dirty-recovery: the states to measure, e.g. dirty,trimmed (default:
    /// secure-erased,dirty,rested,trimmed).
    #[arg(long, value_name = "LIST")]
    pub states: Option<String>,
    /// placement: the apps, e.g. uniform,hot-cold (default: all).
    #[arg(long, value_name = "LIST")]
    pub hosts: Option<String>,
    /// placement: the layouts, e.g. block,zoned (default: block,fdp,zoned).
    #[arg(long, value_name = "LIST")]
    pub layouts: Option<String>,
    /// placement: over-provisioning, flash beyond the app's data as a percent of it (default 7,28).
    #[arg(long, value_name = "LIST")]
    pub op_percents: Option<String>,
    /// placement: times each point writes the app's data over (default 4).
    #[arg(long, value_name = "N")]
    pub drive_writes: Option<String>,
    /// Shares of the span for the spare-area sweep and endurance, e.g. 1,0.875,0.75.
    #[arg(long, value_name = "LIST")]
    pub spans: Option<String>,
    /// Share of the user span every point tests.
    #[arg(long, value_name = "F")]
    pub span: Option<String>,
    #[arg(long, value_name = "N")]
    pub seed: Option<String>,
    /// article (the article's preconditioning writes, default) or fill (sequential fill only).
    #[arg(long, value_name = "HOW")]
    pub precondition: Option<String>,
    /// Override a drive parameter (repeatable; see `ssdlab params`).
    #[arg(long, value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// Print the table as JSON instead of CSV.
    #[arg(long)]
    pub json: bool,
}

/// What stops the program before a command runs.
pub enum Exit {
    /// --help or --version: print this and succeed.
    Help(String),
    Error(String),
}

/// Parses the command line; errors are worded as the engine words them.
pub fn parse() -> Result<Cli, Exit> {
    Cli::try_parse().map_err(|e| match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => Exit::Help(e.render().to_string()),
        ErrorKind::InvalidSubcommand => Exit::Error(format!(
            "unknown command '{}' (allowed: presets, run, replay, params, endurance, sweep, calibrate; see ssdlab --help)",
            context(&e, ContextKind::InvalidSubcommand)
        )),
        ErrorKind::UnknownArgument => Exit::Error(format!(
            "arguments: unknown option '{}' (see ssdlab --help)",
            context(&e, ContextKind::InvalidArg)
        )),
        ErrorKind::InvalidValue | ErrorKind::NoEquals => {
            let arg = context(&e, ContextKind::InvalidArg);
            let name = arg.trim_start_matches('-').split([' ', '<']).next().unwrap_or("").replace('-', "_");
            Exit::Error(format!("{}: needs a value", name))
        }
        ErrorKind::MissingRequiredArgument => {
            let arg = context(&e, ContextKind::InvalidArg);
            let name = arg.trim_start_matches('-').split([' ', '<']).next().unwrap_or("").replace('-', "_");
            Exit::Error(format!("{}: is required (see `ssdlab presets`)", name))
        }
        // No command: the usage is the error.
        _ => Exit::Error(e.render().to_string().trim().trim_start_matches("error: ").to_string()),
    })
}

fn context(e: &clap::Error, kind: ContextKind) -> String {
    match e.get(kind) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(v)) => v.join(" "),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

pub fn number<T: std::str::FromStr>(field: &str, value: &str) -> Result<T, ConfigError> {
    value.parse().map_err(|_| ConfigError::new(field, format!("must be a number (got '{}')", value)))
}

/// `PATH=VALUE` into the request's overrides: numbers and booleans as JSON, anything else (e.g.
/// `lazy`) as a string.
pub fn add_override(set: &mut BTreeMap<String, serde_json::Value>, text: &str) -> Result<(), ConfigError> {
    let (path, raw) = text.split_once('=').ok_or_else(|| {
        ConfigError::new("set", format!("expects PATH=VALUE, e.g. timing.program_ns=1500000 (got '{}')", text))
    })?;
    let v = serde_json::from_str(raw).unwrap_or_else(|_| serde_json::Value::String(raw.to_string()));
    set.insert(path.to_string(), v);
    Ok(())
}

impl RunArgs {
    /// The run request and what to do with its results.
    pub fn into_run(self) -> Result<Run, ConfigError> {
        if self.fio.is_some() && self.workload.is_some() {
            return Err(ConfigError::new("workload", "the fio job file sets the workload; leave out --workload"));
        }
        let mut request = match &self.config {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| ConfigError::new("config", format!("cannot read '{}': {}", path, e)))?;
                RunRequest::from_json(&text)?
            }
            None => {
                let drive = self
                    .drive
                    .as_deref()
                    .ok_or_else(|| ConfigError::new("drive", "is required (see `ssdlab presets`)"))?;
                RunRequest::from_json(&serde_json::json!({ "drive": drive }).to_string())?
            }
        };
        self.raid(&mut request)?;
        self.zone_store(&mut request)?;
        if let Some(v) = &self.app {
            request.app = Some(app_request(v)?);
        }
        if let Some(drive) = self.drive {
            request.drive = drive;
        }
        if let Some(w) = self.workload {
            request.workload = w;
        }
        if let Some(v) = &self.seconds {
            request.seconds = number("seconds", v)?;
        }
        if let Some(v) = &self.span {
            request.span = number("span", v)?;
        }
        if let Some(v) = &self.seed {
            request.seed = number("seed", v)?;
        }
        if let Some(v) = &self.queue_depth {
            request.queue_depth = Some(number("queue_depth", v)?);
        }
        if let Some(v) = &self.block_bytes {
            request.block_bytes = Some(number("block_bytes", v)?);
        }
        if let Some(v) = &self.align_bytes {
            request.align_bytes = Some(number("align_bytes", v)?);
        }
        if let Some(v) = &self.compressibility {
            request.compressibility = number("compressibility", v)?;
        }
        if let Some(v) = &self.trim_fraction {
            request.trim_fraction = number("trim_fraction", v)?;
        }
        if let Some(v) = &self.burst_s {
            request.burst_s = number("burst_s", v)?;
        }
        if let Some(v) = &self.idle_s {
            request.idle_s = number("idle_s", v)?;
        }
        if let Some(v) = &self.threads {
            request.threads = number("threads", v)?;
        }
        if let Some(v) = &self.precondition {
            request.precondition = v.clone();
        }
        if let Some(v) = &self.precondition_passes {
            request.precondition_passes = number("precondition_passes", v)?;
        }
        for v in &self.power_cut_at {
            request.power_cuts_s.push(number("power_cut_at", v)?);
        }
        request.power_cuts_s.sort_by(|x, y| x.total_cmp(y));
        for s in &self.set {
            add_override(&mut request.set, s)?;
        }
        if let Some(path) = &self.fio {
            let text = std::fs::read_to_string(path)
                .map_err(|e| ConfigError::new("fio", format!("cannot read '{}': {}", path, e)))?;
            request.fio_includes = read_includes(path, &text)?;
            request.fio = Some(text);
        } else if self.fio_json.is_some() || self.fio_log_dir.is_some() {
            let option = if self.fio_json.is_some() { "fio_json" } else { "fio_log_dir" };
            return Err(ConfigError::new(option, "needs --fio JOB.fio (the job file whose results it writes)"));
        }
        let steady_from = self.steady_from.as_deref().map(|v| number("steady_from", v)).transpose()?;
        Ok(Run {
            request,
            steady_from,
            csv: self.csv,
            json: self.json,
            fio: self.fio,
            fio_json: self.fio_json,
            fio_log_dir: self.fio_log_dir.unwrap_or_else(|| ".".into()),
        })
    }
}

/// The files a job file includes, and those they include, by the name written: as fio, at the
/// name as written if it exists, else next to the file that includes it. A cycle stops here
/// (each name is read once) and the import names it.
fn read_includes(path: &str, text: &str) -> Result<BTreeMap<String, String>, ConfigError> {
    let mut out = BTreeMap::new();
    let mut pending: Vec<(String, usize, String)> =
        fio::includes_of(text).into_iter().map(|(line, name)| (path.to_string(), line, name.to_string())).collect();
    while let Some((from, line, name)) = pending.pop() {
        if out.contains_key(&name) {
            continue;
        }
        let beside = Path::new(&from).parent().map(|dir| dir.join(&name));
        let file = match beside {
            Some(p) if !Path::new(&name).exists() => p,
            _ => PathBuf::from(&name),
        };
        let included = std::fs::read_to_string(&file).map_err(|e| {
            ConfigError::new(
                "fio",
                format!("{} line {}: include {}: cannot read '{}': {}", from, line, name, file.display(), e),
            )
        })?;
        let next = file.to_string_lossy().into_owned();
        pending.extend(fio::includes_of(&included).into_iter().map(|(l, n)| (next.clone(), l, n.to_string())));
        out.insert(name, included);
    }
    Ok(out)
}

/// --app: a kind's name, or the app's object as JSON; errors name `app` or `app.FIELD`.
fn app_request(v: &str) -> Result<AppRequest, ConfigError> {
    let json = if v.trim_start().starts_with('{') {
        serde_json::from_str(v).map_err(|e| ConfigError::new("app", format!("is not valid JSON ({})", e)))?
    } else {
        serde_json::json!({ "kind": v })
    };
    AppRequest::check_json(&json)?;
    serde_json::from_value(json).map_err(|e| ConfigError::new("app", e.to_string()))
}

impl RunArgs {
    /// --zone-store and its options, over the config file's `zone_store`.
    fn zone_store(&self, request: &mut RunRequest) -> Result<(), ConfigError> {
        if let Some(v) = &self.zone_store {
            let utilisation = number("zone_store.utilisation", v)?;
            match request.zone_store.as_mut() {
                Some(z) => z.utilisation = utilisation,
                None => {
                    let json = serde_json::json!({ "utilisation": utilisation });
                    request.zone_store = Some(serde_json::from_value(json).expect("a zone store of its utilisation"));
                }
            }
        }
        for (name, value) in [("free_zones", &self.zone_store_free_zones), ("classes", &self.zone_store_classes)] {
            let Some(v) = value else { continue };
            let field = format!("zone_store.{}", name);
            let Some(z) = request.zone_store.as_mut() else {
                return Err(ConfigError::new(field, "needs --zone-store F (the store it describes)"));
            };
            match name {
                "free_zones" => z.free_zones = number(&field, v)?,
                _ if v == "one" || v == "temperature" => z.classes = v.clone(),
                _ => return Err(ConfigError::new(field, format!("must be one or temperature (got {})", v))),
            }
        }
        Ok(())
    }

    /// --raid-drives and the array's other options, over the config file's `raid`.
    fn raid(&self, request: &mut RunRequest) -> Result<(), ConfigError> {
        if let Some(v) = &self.raid_drives {
            let drives = number("raid.drives", v)?;
            match request.raid.as_mut() {
                Some(r) => r.drives = drives,
                None => {
                    request.raid = Some(RaidRequest {
                        drives,
                        stripe_kib: None,
                        hba_mb_s: None,
                        hba_command_ns: None,
                        port_command_ns: None,
                    })
                }
            }
        }
        let options = [
            ("stripe_kib", &self.stripe_kib),
            ("hba_mb_s", &self.hba_mb_s),
            ("hba_command_ns", &self.hba_command_ns),
            ("port_command_ns", &self.port_command_ns),
        ];
        for (name, value) in options {
            let Some(v) = value else { continue };
            let field = format!("raid.{}", name);
            let Some(r) = request.raid.as_mut() else {
                return Err(ConfigError::new(field, "needs --raid-drives N (the array it describes)"));
            };
            match name {
                "stripe_kib" => r.stripe_kib = Some(number(&field, v)?),
                "hba_mb_s" => r.hba_mb_s = Some(number(&field, v)?),
                "hba_command_ns" => r.hba_command_ns = Some(number(&field, v)?),
                _ => r.port_command_ns = Some(number(&field, v)?),
            }
        }
        Ok(())
    }
}

impl ReplayArgs {
    /// The run request (the trace's text in it), the CSV path and whether to print JSON.
    pub fn into_request(self) -> Result<(RunRequest, Option<String>, bool), ConfigError> {
        let drive = match self.drive {
            Some(d) => d,
            None => {
                presets::all().first().map(|d| d.id.clone()).ok_or_else(|| ConfigError::new("drive", "no presets"))?
            }
        };
        let mut request = RunRequest::from_json(&serde_json::json!({ "drive": drive }).to_string())?;
        request.seconds = match &self.seconds {
            Some(v) => number("seconds", v)?,
            None => MAX_SECONDS,
        };
        if let Some(v) = &self.queue_depth {
            request.queue_depth = Some(number("queue_depth", v)?);
        }
        for s in &self.set {
            add_override(&mut request.set, s)?;
        }
        if let Some(v) = &self.precondition {
            request.precondition = v.clone();
        }
        let bytes = std::fs::read(&self.trace)
            .map_err(|e| ConfigError::new("trace", format!("cannot read '{}': {}", self.trace, e)))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let bytes = e.as_bytes();
            let line = bytes[..e.utf8_error().valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
            ConfigError::new("trace", format!("line {}: is not text (UTF-8)", line))
        })?;
        let name =
            std::path::Path::new(&self.trace).file_name().map_or(self.trace.clone(), |n| n.to_string_lossy().into());
        request.trace = Some(TraceRequest {
            text,
            format: self.format,
            name,
            closed_loop: self.closed_loop && !self.open_loop,
            time_scale: self.time_scale.as_deref().map(|v| number("time_scale", v)).transpose()?.unwrap_or(1.0),
        });
        Ok((request, self.csv, self.json))
    }
}
