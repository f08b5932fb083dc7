//! `ssdlab`: the command-line face of the drive model.
//!
//!     ssdlab presets
//!     ssdlab run --drive s3700-200 --workload consistency --seconds 2000 --span 1.0 --seed 1 \
//!                --csv out.csv --json [--steady-from 1400] [--queue-depth 32]
//!     ssdlab endurance --drive s3700-200 [--wa 1.95|theory|measured] [--set PATH=VALUE]...

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use ssdlab_core::config::{ConfigError, RunRequest};
use ssdlab_core::{presets, Simulation, Summary, FIELDS};

const USAGE: &str = "usage:
  ssdlab presets
  ssdlab run --drive ID [--workload NAME] [--seconds N] [--span F] [--seed N]
             [--queue-depth N] [--block-bytes N] [--align-bytes N] [--compressibility F]
             [--power-cut-at S]... [--burst-s N --idle-s N]
             [--trim-fraction F] [--steady-from S] [--set PATH=VALUE]... [--config FILE.json]
             [--csv FILE] [--json]
  ssdlab params --drive ID      (every PATH that --set accepts, with the preset's value)
  ssdlab endurance --drive ID [--wa F|theory|measured] [--set PATH=VALUE]...
                                (rated TBW by JESD218 arithmetic, and what the NAND's P/E limit allows)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("presets") => list_presets(),
        Some("run") => run(&args[1..]),
        Some("params") => list_params(&args[1..]),
        Some("endurance") => endurance(&args[1..]),
        Some("-h") | Some("--help") | Some("help") => {
            println!("{}", USAGE);
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{}' (allowed: presets, run, params, endurance)\n{}", other, USAGE)),
        None => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("ssdlab: {}", msg);
            ExitCode::from(2)
        }
    }
}

fn list_presets() -> Result<(), String> {
    for d in presets::all() {
        let g = &d.geometry;
        println!(
            "{:<12} {}  ({}, {} channels, {} dies, raw {:.1} GiB, user {:.1} GiB, spec {} IOPS 4K random write)",
            d.id,
            d.name,
            d.host.name,
            g.channels,
            g.dies,
            g.raw_bytes() as f64 / (1u64 << 30) as f64,
            d.user_bytes as f64 / (1u64 << 30) as f64,
            d.spec_random_write_iops
        );
    }
    Ok(())
}

struct RunArgs {
    request: RunRequest,
    steady_from_s: u32,
    csv: Option<String>,
    json: bool,
}

fn parse_run_args(args: &[String]) -> Result<RunArgs, ConfigError> {
    let mut request = RunRequest::from_json(r#"{"drive":"s3700-200"}"#)?;
    let mut drive_given = false;
    let mut steady_from_s = 1400u32;
    let mut csv = None;
    let mut json = false;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if flag == "--json" {
            json = true;
            i += 1;
            continue;
        }
        let value = args
            .get(i + 1)
            .ok_or_else(|| ConfigError::new(flag.trim_start_matches('-'), "needs a value"))?
            .as_str();
        match flag {
            "--drive" => {
                request.drive = value.to_string();
                drive_given = true;
            }
            "--workload" => request.workload = value.to_string(),
            "--seconds" => request.seconds = number("seconds", value)?,
            "--span" => request.span = number("span", value)?,
            "--seed" => request.seed = number("seed", value)?,
            "--queue-depth" => request.queue_depth = Some(number("queue_depth", value)?),
            "--block-bytes" => request.block_bytes = Some(number("block_bytes", value)?),
            "--align-bytes" => request.align_bytes = Some(number("align_bytes", value)?),
            "--compressibility" => request.compressibility = number("compressibility", value)?,
            "--trim-fraction" => request.trim_fraction = number("trim_fraction", value)?,
            "--burst-s" => request.burst_s = number("burst_s", value)?,
            "--idle-s" => request.idle_s = number("idle_s", value)?,
            "--power-cut-at" => request.power_cuts_s.push(number("power_cut_at", value)?),
            "--steady-from" => steady_from_s = number("steady_from", value)?,
            "--csv" => csv = Some(value.to_string()),
            "--set" => {
                let (path, raw) = value.split_once('=').ok_or_else(|| {
                    ConfigError::new("set", format!("expects PATH=VALUE, e.g. timing.program_ns=1500000 (got '{}')", value))
                })?;
                // Numbers and booleans as JSON; anything else (e.g. lazy) as a string.
                let v = serde_json::from_str(raw).unwrap_or_else(|_| serde_json::Value::String(raw.to_string()));
                request.set.insert(path.to_string(), v);
            }
            "--config" => {
                let text = std::fs::read_to_string(value)
                    .map_err(|e| ConfigError::new("config", format!("cannot read '{}': {}", value, e)))?;
                let file = RunRequest::from_json(&text)?;
                drive_given = true;
                let set = std::mem::take(&mut request.set);
                request = file;
                request.set.extend(set);
            }
            _ => {
                return Err(ConfigError::new(
                    "arguments",
                    format!("unknown option '{}' (see ssdlab --help)", flag),
                ))
            }
        }
        i += 2;
    }
    if !drive_given {
        return Err(ConfigError::new("drive", "is required (see `ssdlab presets`)"));
    }
    Ok(RunArgs { request, steady_from_s, csv, json })
}

fn list_params(args: &[String]) -> Result<(), String> {
    let id = match args {
        [flag, id] if flag == "--drive" => id.as_str(),
        _ => return Err(format!("params needs --drive ID\n{}", USAGE)),
    };
    let drive = presets::by_id(id).map_err(|e| e.to_string())?;
    let tree = serde_json::to_value(&drive).map_err(|e| e.to_string())?;
    for path in ssdlab_core::config::parameter_paths(&drive) {
        let value = path.split('.').fold(&tree, |node, key| &node[key]);
        println!("{} = {}", path, value);
    }
    Ok(())
}

/// JESD218 arithmetic [001]: the rated host writes, and the host writes the NAND's P/E limit
/// allows at a write amplification (greedy theory by default, a number, or measured by running
/// the IO-consistency test for 2000 s).
fn endurance(args: &[String]) -> Result<(), String> {
    let mut request = RunRequest::from_json(r#"{"drive":"s3700-200"}"#).map_err(|e| e.to_string())?;
    let mut drive_given = false;
    let mut wa_choice = "theory".to_string();
    for pair in args.chunks(2) {
        let [flag, value] = pair else {
            return Err(format!("{}: needs a value\n{}", pair[0].trim_start_matches('-'), USAGE));
        };
        match flag.as_str() {
            "--drive" => {
                request.drive = value.clone();
                drive_given = true;
            }
            "--wa" => wa_choice = value.clone(),
            "--set" => {
                let (path, raw) = value
                    .split_once('=')
                    .ok_or_else(|| format!("set: expects PATH=VALUE, e.g. endurance.pe_cycles=3000 (got '{}')", value))?;
                let v = serde_json::from_str(raw).unwrap_or_else(|_| serde_json::Value::String(raw.to_string()));
                request.set.insert(path.to_string(), v);
            }
            other => return Err(format!("arguments: unknown option '{}' for endurance\n{}", other, USAGE)),
        }
    }
    if !drive_given {
        return Err("drive: is required (see `ssdlab presets`)".into());
    }
    let cfg = request.resolve().map_err(|e| e.to_string())?;
    let d = &cfg.drive;
    let raw = d.geometry.raw_bytes();
    let (wa, source) = match wa_choice.as_str() {
        "theory" => (
            ssdlab_core::ftl::greedy_wa_theory(d.user_bytes as f64 / raw as f64),
            "greedy GC on uniform random writes, large-system theory".to_string(),
        ),
        "measured" => {
            let mut sim = Simulation::new(cfg.clone()).map_err(|e| e.to_string())?;
            let samples = sim.run_to_end();
            let s = Summary::from_samples(&samples, 1400.min(cfg.seconds - 1));
            (s.steady_write_amplification, format!("measured: steady state of a {} s {} run", cfg.seconds, cfg.workload.id))
        }
        text => match text.parse::<f64>() {
            Ok(w) if (1.0..=100.0).contains(&w) => (w, "given".to_string()),
            _ => return Err(format!("wa: must be a number between 1 and 100, theory or measured (got '{}')", text)),
        },
    };
    let e = &d.endurance;
    let pb = |bytes: u64| bytes as f64 / 1e15;
    let rated = d.rated_tbw_bytes();
    let nand = e.nand_limited_tbw_bytes(raw, wa);
    let cell = serde_json::to_value(d.nand.cell).map_err(|e| e.to_string())?;
    println!("{} ({}), {} NAND", d.name, d.id, cell.as_str().unwrap_or("?"));
    println!(
        "  rated (JESD218): {} drive writes/day x 365 x {} years x {} GB = {:.3} PB ({} bytes)",
        e.drive_writes_per_day,
        e.warranty_years,
        d.advertised_bytes as f64 / 1e9,
        pb(rated),
        rated
    );
    println!(
        "  NAND: {:.1} GiB raw x {} P/E cycles = {:.3} PB of NAND writes",
        raw as f64 / (1u64 << 30) as f64,
        e.pe_cycles,
        pb(raw.saturating_mul(e.pe_cycles as u64))
    );
    println!(
        "  at write amplification {:.3} ({}): {:.3} PB of host writes, {:.2} x the rating",
        wa,
        source,
        pb(nand),
        nand as f64 / rated.max(1) as f64
    );
    Ok(())
}

fn number<T: std::str::FromStr>(field: &str, value: &str) -> Result<T, ConfigError> {
    value
        .parse()
        .map_err(|_| ConfigError::new(field, format!("must be a number (got '{}')", value)))
}

fn run(args: &[String]) -> Result<(), String> {
    let a = parse_run_args(args).map_err(|e| e.to_string())?;
    let mut request = a.request;
    request.power_cuts_s.sort_by(|x, y| x.total_cmp(y));
    let cfg = request.resolve().map_err(|e| e.to_string())?;
    if a.steady_from_s >= cfg.seconds {
        return Err(format!(
            "steady_from: must be between 0 and {} (the run's last second) (got {})",
            cfg.seconds - 1,
            a.steady_from_s
        ));
    }
    let started = Instant::now();
    let mut sim = Simulation::new(cfg).map_err(|e| e.to_string())?;
    let mut samples = Vec::with_capacity(sim.config().seconds as usize);
    // Note when steady state begins, to quote the speed of the GC-bound phase on its own.
    let mut steady_started = None;
    while !sim.finished() {
        sim.advance(100_000, &mut samples);
        if steady_started.is_none() && samples.len() as u32 >= a.steady_from_s {
            steady_started = Some((Instant::now(), samples.len()));
        }
    }
    let wall_seconds = started.elapsed().as_secs_f64();

    if let Some(path) = &a.csv {
        write_csv(path, &samples).map_err(|e| format!("csv: cannot write '{}': {}", path, e))?;
    }
    let summary = Summary::from_samples(&samples, a.steady_from_s);
    if a.json {
        let cfg = sim.config();
        let mut obj = serde_json::to_value(&summary).expect("summary serialises");
        let m = obj.as_object_mut().expect("summary is an object");
        m.insert("drive".into(), cfg.drive.id.clone().into());
        m.insert("workload".into(), cfg.workload.id.into());
        m.insert("span".into(), cfg.span.into());
        m.insert("seed".into(), cfg.seed.into());
        m.insert("wall_seconds".into(), wall_seconds.into());
        m.insert("host_ios_per_wall_second".into(), (summary.host_ios as f64 / wall_seconds).into());
        if let Some((t0, from)) = steady_started {
            let ios: u64 = samples[from..].iter().map(|s| s.iops as u64).sum();
            let wall = t0.elapsed().as_secs_f64();
            m.insert("steady_wall_seconds".into(), wall.into());
            m.insert("steady_host_ios_per_wall_second".into(), (ios as f64 / wall).into());
        }
        m.insert("model_memory_bytes".into(), sim.memory_bytes().into());
        m.insert("peak_memory_bytes".into(), peak_rss_bytes().unwrap_or(sim.memory_bytes()).into());
        m.insert("raw_bytes".into(), cfg.drive.geometry.raw_bytes().into());
        let cuts = sim.power_cuts();
        if !cuts.is_empty() {
            let lost: u64 = cuts.iter().map(|c| c.acknowledged_writes_lost).sum();
            m.insert("acknowledged_writes_lost".into(), lost.into());
            m.insert("rebuild_ms".into(), cuts.iter().map(|c| c.rebuild_ms).sum::<f64>().into());
            let detail: Vec<serde_json::Value> = cuts
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "at_s": c.at_ns as f64 / 1e9,
                        "acknowledged_writes_lost": c.acknowledged_writes_lost,
                        "writes_at_risk": c.acknowledged.len() as u64 - (c.durable.len() as u64 - c.flushed_units),
                        "flushed_units": c.flushed_units,
                        "energy_needed_uj": c.energy_needed_uj,
                        "energy_stored_uj": c.energy_stored_uj,
                        "rebuild_ms": c.rebuild_ms,
                    })
                })
                .collect();
            m.insert("power_cuts".into(), detail.into());
        }
        m.insert("rated_tbw_bytes".into(), cfg.drive.rated_tbw_bytes().into());
        let e = &cfg.drive.endurance;
        let nand_tbw = e.nand_limited_tbw_bytes(cfg.drive.geometry.raw_bytes(), summary.steady_write_amplification);
        m.insert("nand_limited_tbw_bytes_at_steady_wa".into(), nand_tbw.into());
        let last = samples.last();
        m.insert("erase_count_min".into(), last.map_or(0, |s| s.erase_count_min).into());
        m.insert("erase_count_max".into(), last.map_or(0, |s| s.erase_count_max).into());
        m.insert("retired_blocks".into(), last.map_or(0, |s| s.retired_blocks).into());
        m.insert("read_only".into(), last.map_or(false, |s| s.read_only).into());
        println!("{}", serde_json::to_string_pretty(&obj).expect("json"));
    } else {
        println!(
            "{} {} {} s: mean {:.0} IOPS, from {} s: mean {:.0} min {} max {} IOPS, WA {:.3} (steady {:.3}), {:.1} s wall",
            sim.config().drive.id,
            sim.config().workload.id,
            summary.sim_seconds,
            summary.iops_mean,
            summary.steady_from_s,
            summary.steady_iops_mean,
            summary.steady_iops_min,
            summary.steady_iops_max,
            summary.write_amplification,
            summary.steady_write_amplification,
            wall_seconds
        );
    }
    Ok(())
}

fn write_csv(path: &str, samples: &[ssdlab_core::Sample]) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(w, "{}", FIELDS.join(","))?;
    for s in samples {
        let cols = s.columns();
        let line: Vec<String> = cols.iter().map(|v| format_number(*v)).collect();
        writeln!(w, "{}", line.join(","))?;
    }
    w.flush()
}

/// Shortest text that parses back to the same f64 (so CSV rows compare exactly with wasm's).
fn format_number(v: f64) -> String {
    format!("{}", v)
}

/// Peak resident set size of this process (Linux `VmHWM`), if the platform reports it.
fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
