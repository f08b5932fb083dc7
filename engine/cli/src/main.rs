//! `ssdlab`: the command-line face of the drive model. `ssdlab --help` and `ssdlab CMD --help`
//! describe every command and option.

mod args;
mod endurance;
mod sweep;

use std::cell::RefCell;
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

use ssdlab_core::bench::fio::FioRecorder;
use ssdlab_core::bench::{csv, default_steady_from_s, results_json};
use ssdlab_core::config::{parameter_values, presets, WorkloadSpec};
use ssdlab_core::{Bench, RunConfig};

use args::{Command, ReplayArgs, RunArgs};
use sweep::Print;

fn main() -> ExitCode {
    let cli = match args::parse() {
        Ok(cli) => cli,
        Err(args::Exit::Help(text)) => {
            print!("{}", text);
            return ExitCode::SUCCESS;
        }
        Err(args::Exit::Error(msg)) => return fail(&msg),
    };
    let result = match cli.command {
        Command::Presets { sources, drive } => list_presets(sources, drive.as_deref()),
        Command::Run(run_args) => run(run_args),
        Command::Replay(replay_args) => replay(replay_args),
        Command::Workloads => list_workloads(),
        Command::Params { drive } => list_params(&drive),
        Command::Endurance(e) => endurance::endurance(e),
        Command::Sweep(s) => sweep::sweep(s),
        Command::Calibrate { drive, json, markdown, save, from } => {
            sweep::calibrate(&drive, Print { json, markdown }, save.as_deref(), from.as_deref())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => fail(&msg),
    }
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("ssdlab: {}", msg);
    ExitCode::from(2)
}

fn list_presets(sources: bool, only: Option<&str>) -> Result<(), String> {
    if let Some(id) = only {
        presets::by_id(id).map_err(|e| e.to_string())?;
    }
    for d in presets::presets().iter().filter(|d| only.is_none_or(|id| d.id == id)) {
        let g = &d.geometry;
        let spec = match d.spec_random_write_iops {
            0 => "no spec figure".to_string(),
            iops => format!("spec {} IOPS 4K random write", iops),
        };
        println!(
            "{:<12} {}  ({}, {} channels, {} dies, raw {:.1} GiB, user {:.1} GiB, {})",
            d.id,
            d.name,
            d.host.name,
            g.channels,
            g.dies,
            g.raw_bytes() as f64 / (1u64 << 30) as f64,
            d.user_bytes as f64 / (1u64 << 30) as f64,
            spec
        );
        if sources {
            // The sources come from the preset file, next to each value.
            let values = parameter_values(d);
            for (path, source) in presets::sources(&d.id).map_err(|e| e.to_string())? {
                let value = values.iter().find(|(p, _)| *p == path).map_or(&serde_json::Value::Null, |(_, v)| v);
                println!("    {} = {}  <- {}", path, value, source);
            }
            println!();
        }
    }
    Ok(())
}

fn list_workloads() -> Result<(), String> {
    for w in WorkloadSpec::all() {
        println!("{:<26} {}", w.id, w.description);
    }
    Ok(())
}

fn list_params(id: &str) -> Result<(), String> {
    let drive = presets::by_id(id).map_err(|e| e.to_string())?;
    for (path, value) in parameter_values(&drive) {
        println!("{} = {}", path, value);
    }
    Ok(())
}

fn run(run_args: RunArgs) -> Result<(), String> {
    let args::Run { request, steady_from, csv: csv_path, json, fio: fio_path, fio_json, fio_log_dir } =
        run_args.into_run().map_err(|e| e.to_string())?;
    let (cfg, fio_file) = request.resolve_with_fio().map_err(|e| match &fio_path {
        Some(path) if e.field == "fio" => format!("{}: {}", path, e.message),
        _ => e.to_string(),
    })?;
    if let (Some(file), Some(path)) = (&fio_file, &fio_path) {
        let jobs: usize = file.phases.iter().map(|p| p.jobs.len()).sum();
        eprintln!("fio: {}: {} phase(s), {} job(s), up to {} s", path, file.phases.len(), jobs, cfg.seconds);
        for line in file.report.lines() {
            eprintln!("fio: {}: {}", path, line);
        }
    }
    // A trace model ends with its last command, whose time depends on the drive: its steady
    // state is then taken from 70 % of the seconds it ran, as a replay's.
    let steady_from_s = match steady_from {
        None if cfg.workload.is_model() => None,
        given => Some(given.unwrap_or_else(|| default_steady_from_s(cfg.seconds))),
    };
    if let Some(s) = steady_from_s.filter(|&s| s >= cfg.seconds) {
        return Err(format!(
            "steady_from: must be between 0 and {} (the run's last second) (got {})",
            cfg.seconds - 1,
            s
        ));
    }
    let fio =
        fio_file.zip(fio_path).map(|(file, path)| FioRun { file, path, json_out: fio_json, log_dir: fio_log_dir });
    execute(cfg, steady_from_s, csv_path, json, None, fio)
}

/// A fio job file's run: where its results and logs go.
struct FioRun {
    file: ssdlab_core::host::fio::FioJobFile,
    path: String,
    json_out: Option<String>,
    log_dir: String,
}

/// A trace replay: what the trace holds (to stderr, or in the JSON), then the run; steady
/// state from 70 % of the seconds it took.
fn replay(replay_args: ReplayArgs) -> Result<(), String> {
    let (request, csv_path, json) = replay_args.into_request().map_err(|e| e.to_string())?;
    let (cfg, summary) = request.resolve_replay().map_err(|e| e.to_string())?;
    let summary = summary.expect("a replay request holds a trace");
    if !json {
        eprintln!("{}", summary);
    }
    execute(cfg, None, csv_path, json, Some(serde_json::to_value(&summary).map_err(|e| e.to_string())?), None)
}

/// Runs `cfg` to the end and prints its summary (`--json`: with `trace` when given), writing
/// the per-second samples to `csv_path`. `steady_from_s`: None (or past the run's end) for 70 %
/// of the seconds run.
fn execute(
    cfg: RunConfig,
    steady_from_s: Option<u32>,
    csv_path: Option<String>,
    json: bool,
    trace: Option<serde_json::Value>,
    fio_run: Option<FioRun>,
) -> Result<(), String> {
    let started = Instant::now();
    let mut bench = Bench::new(cfg).map_err(|e| e.to_string())?;
    let mut fio = fio_run.as_ref().map(|f| {
        let (recorder, observer) = FioRecorder::shared(&f.file);
        bench.observe(observer);
        FioOutput { recorder, log_dir: f.log_dir.clone(), started: HashSet::new() }
    });
    let mut samples = Vec::new();
    // Note when steady state begins, to quote the speed of the GC-bound phase on its own.
    let mut steady_started = None;
    while !bench.finished() {
        bench.advance(100_000, &mut samples);
        if steady_started.is_none() && steady_from_s.is_some_and(|s| samples.len() as u32 >= s) {
            steady_started = Some((Instant::now(), cpu_seconds(), samples.len()));
        }
        if let Some(out) = fio.as_mut() {
            out.write_logs()?;
        }
    }
    let wall_seconds = started.elapsed().as_secs_f64();
    // A run that ended before its steady state began (a fio job file whose jobs moved their
    // bytes early) takes it from 70 % of the seconds it ran, as a replay does.
    let steady_from_s = match steady_from_s {
        Some(s) if (s as usize) < samples.len() => s,
        _ => default_steady_from_s(samples.len() as u32),
    };
    if let Some(out) = fio.as_mut() {
        out.recorder.borrow_mut().finish();
        out.write_logs()?;
        if let Some(path) = fio_run.as_ref().and_then(|f| f.json_out.as_ref()) {
            let text = serde_json::to_string_pretty(&out.recorder.borrow().json()).expect("json");
            std::fs::write(path, text + "\n").map_err(|e| format!("fio_json: cannot write '{}': {}", path, e))?;
        }
    }

    if let Some(path) = &csv_path {
        std::fs::write(path, csv(&samples)).map_err(|e| format!("csv: cannot write '{}': {}", path, e))?;
    }
    let mut m = results_json(&bench, &samples, steady_from_s);
    if let Some(f) = &fio_run {
        m.insert("workload".into(), format!("fio:{}", f.path).into());
    }
    if json {
        let host_ios = m["host_ios"].as_f64().unwrap_or(0.0);
        m.insert("wall_seconds".into(), wall_seconds.into());
        m.insert("host_ios_per_wall_second".into(), (host_ios / wall_seconds).into());
        let cpu_now = cpu_seconds();
        if let Some(cpu) = cpu_now {
            m.insert("cpu_seconds".into(), cpu.into());
        }
        if let Some((t0, cpu0, from)) = steady_started {
            let ios: u64 = samples[from..].iter().map(|s| s.iops as u64).sum();
            let wall = t0.elapsed().as_secs_f64();
            m.insert("steady_wall_seconds".into(), wall.into());
            m.insert("steady_host_ios_per_wall_second".into(), (ios as f64 / wall).into());
            // Ticks are 10 ms: a steady state shorter than one has no rate to quote.
            if let (Some(a), Some(b)) = (cpu0, cpu_now.filter(|&b| cpu0.is_some_and(|a| b > a))) {
                m.insert("steady_host_ios_per_cpu_second".into(), (ios as f64 / (b - a)).into());
            }
        }
        m.insert("model_memory_bytes".into(), bench.memory_bytes().into());
        m.insert("peak_memory_bytes".into(), peak_rss_bytes().unwrap_or(bench.memory_bytes()).into());
        if let Some(t) = trace {
            m.insert("trace".into(), t);
        }
        println!("{}", serde_json::to_string_pretty(&m).expect("json"));
    } else {
        let f = |k: &str| m[k].as_f64().unwrap_or(0.0);
        println!(
            "{} {} {} s: mean {:.0} IOPS, from {} s: mean {:.0} min {} max {} IOPS, WA {:.3} (steady {:.3}), {:.1} s wall",
            bench.config().drive.id,
            m["workload"].as_str().unwrap_or(""),
            f("sim_seconds"),
            f("iops_mean"),
            f("steady_from_s"),
            f("steady_iops_mean"),
            f("steady_iops_min"),
            f("steady_iops_max"),
            f("write_amplification"),
            f("steady_write_amplification"),
            wall_seconds
        );
        if let Some(covered) = m.get("last_second_covered").and_then(|c| c.as_f64()) {
            println!(
                "the workload ended {:.6} s into its last second: the IOPS means count that second by its share, the lowest and highest only whole seconds",
                covered
            );
        }
        if let Some(app) = m.get("app").and_then(|a| a.as_str()) {
            let lsm = m.get("lsm_write_amplification").and_then(|w| w.as_f64());
            println!(
                "app {} ({}){}",
                app,
                if m["app_tagged"].as_bool() == Some(true) { "tagged" } else { "untagged" },
                lsm.map_or(String::new(), |w| format!(": the LSM's own WA {:.3}", w))
            );
        }
        if m.contains_key("host_write_amplification") {
            println!(
                "zone store at {}: host WA {:.3} (steady {:.3}), total WA {:.3} (steady {:.3})",
                f("zone_store_utilisation"),
                f("host_write_amplification"),
                f("steady_host_write_amplification"),
                f("total_write_amplification"),
                f("steady_total_write_amplification")
            );
        }
    }
    Ok(())
}

/// Where a fio run's logs go: appended as the run writes them, each file started afresh.
struct FioOutput {
    recorder: Rc<RefCell<FioRecorder>>,
    log_dir: String,
    started: HashSet<String>,
}

impl FioOutput {
    fn write_logs(&mut self) -> Result<(), String> {
        for (name, text) in self.recorder.borrow_mut().take_logs() {
            let path = Path::new(&self.log_dir).join(&name);
            let fresh = self.started.insert(name);
            let file = std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .append(!fresh)
                .truncate(fresh)
                .open(&path)
                .and_then(|mut f| f.write_all(text.as_bytes()));
            file.map_err(|e| format!("fio log: cannot write '{}': {}", path.display(), e))?;
        }
        Ok(())
    }
}

/// CPU time (user and system) this process has used so far, s (Linux `/proc/self/stat`, in
/// ticks of 1/100 s), if the platform reports it: on a shared machine a steadier measure of the
/// engine's speed than wall time (the page's benchmark compares it with the browser worker's).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields 14 and 15; the command name (field 2) may hold spaces, so count from its ')'.
    let mut rest = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    let (user, system): (f64, f64) = (rest.next()?.parse().ok()?, rest.next()?.parse().ok()?);
    Some((user + system) / 100.0)
}

/// Peak resident set size of this process (Linux `VmHWM`), if the platform reports it.
fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
