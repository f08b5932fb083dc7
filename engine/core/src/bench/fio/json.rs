//! fio's `--output-format=json` layout (as fio 3.33 writes it), filled from the simulation.
//! Fields about the host that ran fio (CPU use, context switches, page faults, disk
//! utilisation) are 0 or empty: the simulated host costs nothing. Submission latency is 0: a
//! command is submitted when it issues.

use serde_json::{json, Map, Value};

use super::steady::Watch;
use super::{DirStats, FioRecorder, JobStats};
use crate::host::fio::FioJob;

/// Latency shares: fio's buckets in ns (2 ns .. 1000 ns), us (2 us .. 1000 us) and ms (2 ms ..
/// 2000 ms, then >= 2000), each counting values below its label and at or above the previous.
const BUCKET_LABELS: [&str; 10] = ["2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"];
const BUCKET_VALUES: [u64; 10] = [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000];

/// One entry of fio's "jobs": a job, or with group_reporting its whole group.
struct Entry<'a> {
    meta: &'a FioJob,
    stats: JobStats,
    phase: usize,
}

pub fn results(rec: &FioRecorder) -> Value {
    let entries = entries(rec);
    let group_bw = group_bandwidth(&entries);
    let jobs: Vec<Value> = entries.iter().map(|e| job_json(rec, e, &group_bw)).collect();
    let global: Map<String, Value> =
        rec.file.global_options.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
    json!({
        "fio version": format!("ssdlab-{} (fio-3.33 JSON layout, simulated)", env!("CARGO_PKG_VERSION")),
        "timestamp": 0,
        "timestamp_ms": 0,
        "time": "simulated",
        "global options": global,
        "jobs": jobs,
        "disk_util": [],
    })
}

/// fio's "jobs": each job, or with group_reporting each group's jobs merged into one.
fn entries(rec: &FioRecorder) -> Vec<Entry<'_>> {
    let mut entries: Vec<Entry> = Vec::new();
    for (phase, metas) in rec.file.jobs.iter().enumerate() {
        let mut j = 0;
        while j < metas.len() {
            let meta = &metas[j];
            let members =
                if meta.group_reporting { metas[j..].iter().take_while(|m| m.group == meta.group).count() } else { 1 };
            let mut stats = JobStats::default();
            for s in &rec.stats[phase][j..j + members] {
                stats.start_ns = match (stats.start_ns, s.start_ns) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                stats.last_ns = stats.last_ns.max(s.last_ns);
                for (mine, theirs) in stats.dirs.iter_mut().zip(&s.dirs) {
                    mine.merge(theirs);
                }
            }
            entries.push(Entry { meta, stats, phase });
            j += members;
        }
    }
    entries
}

/// The bandwidth of each reporting group, per direction (`"GROUP.DIRECTION"`), from which each
/// entry's share (fio's bw_agg) is taken.
fn group_bandwidth(entries: &[Entry]) -> Map<String, Value> {
    let mut group_bw: Map<String, Value> = Map::new();
    for e in entries {
        for (d, dir) in e.stats.dirs.iter().enumerate() {
            let key = format!("{}.{}", e.meta.group, d);
            let sum = group_bw.get(&key).and_then(Value::as_f64).unwrap_or(0.0);
            group_bw.insert(key, (sum + bw_bytes(dir, e.stats.runtime_ms()) as f64).into());
        }
    }
    group_bw
}

/// One entry of fio's "jobs".
fn job_json(rec: &FioRecorder, e: &Entry, group_bw: &Map<String, Value>) -> Value {
    let runtime = e.stats.runtime_ms();
    let dir = |d: usize| {
        let total = group_bw.get(&format!("{}.{}", e.meta.group, d)).and_then(Value::as_f64).unwrap_or(0.0);
        dir_json(&e.stats.dirs[d], runtime, e.meta, total)
    };
    let mut all = DirStats::default();
    for d in &e.stats.dirs {
        all.merge(d);
    }
    let [latency_ns, latency_us, latency_ms] = latency_shares(&all);
    let options: Map<String, Value> =
        e.meta.options.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
    let mut job = json!({
        "jobname": e.meta.name,
        "groupid": e.meta.group,
        "error": 0,
        "eta": 0,
        "elapsed": e.stats.last_ns.div_ceil(1_000_000_000),
        "job options": options,
        "read": dir(0),
        "write": dir(1),
        "trim": dir(2),
        "sync": { "total_ios": 0, "lat_ns": lat_json(&DirStats::default(), None) },
        "job_runtime": runtime,
        "usr_cpu": 0.0,
        "sys_cpu": 0.0,
        "ctx": 0,
        "majf": 0,
        "minf": 0,
        "latency_ns": latency_ns,
        "latency_us": latency_us,
        "latency_ms": latency_ms,
        "latency_depth": e.meta.iodepth,
        "latency_target": 0,
        "latency_percentile": 100.0,
        "latency_window": 0,
    });
    if let (Some(w), true) = (rec.watches[e.phase].as_ref(), e.meta.steadystate.is_some()) {
        job["steadystate"] = steadystate_json(w);
    }
    job
}

/// The share of commands in each of fio's latency buckets: ns, us and ms.
fn latency_shares(all: &DirStats) -> [Map<String, Value>; 3] {
    let mut bounds: Vec<u64> = Vec::new();
    for scale in [1, 1_000, 1_000_000] {
        bounds.extend(BUCKET_VALUES.iter().map(|v| v * scale));
    }
    bounds.push(2_000_000_000);
    let shares = all.histogram.shares(&bounds);
    let buckets = |from: usize, labels: &[&str]| -> Map<String, Value> {
        labels.iter().enumerate().map(|(i, l)| (l.to_string(), shares[from + i].into())).collect()
    };
    let mut ms_labels = BUCKET_LABELS.to_vec();
    ms_labels.extend(["2000", ">=2000"]);
    [buckets(0, &BUCKET_LABELS), buckets(10, &BUCKET_LABELS), buckets(20, &ms_labels)]
}

/// fio's "steadystate" of a job whose phase checks it.
fn steadystate_json(w: &Watch) -> Value {
    let mean = |v: &std::collections::VecDeque<u64>| v.iter().sum::<u64>() / (v.len().max(1) as u64);
    let criterion: Value = if w.ss.percent { format!("{:.6}%", w.criterion).into() } else { w.criterion.into() };
    json!({
        "ss": w.ss.text,
        "duration": w.ss.duration_s,
        "attained": w.attained as u32,
        "criterion": criterion,
        "max_deviation": w.max_deviation,
        "slope": w.slope,
        "data": { "bw_mean": mean(&w.bw), "iops_mean": mean(&w.iops), "iops": w.iops, "bw": w.bw },
    })
}

fn bw_bytes(d: &DirStats, runtime_ms: u64) -> u64 {
    (d.bytes * 1000).checked_div(runtime_ms).unwrap_or(0)
}

/// min, max, mean and sample standard deviation of a series.
fn series(xs: &[f64]) -> (f64, f64, f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    (xs.iter().cloned().fold(f64::MAX, f64::min), xs.iter().cloned().fold(0.0, f64::max), mean, var.sqrt())
}

fn lat_json(d: &DirStats, percentiles: Option<&[f64]>) -> Value {
    let mut v = json!({
        "min": d.lat_min_ns,
        "max": d.lat_max_ns,
        "mean": d.lat_mean_ns(),
        "stddev": d.lat_stddev_ns(),
        "N": d.ios,
    });
    if let (Some(list), true) = (percentiles, d.ios > 0) {
        let p: Map<String, Value> =
            list.iter().map(|&p| (format!("{:.6}", p), d.histogram.percentile(p).into())).collect();
        v["percentile"] = Value::Object(p);
    }
    v
}

fn dir_json(d: &DirStats, job_runtime_ms: u64, meta: &FioJob, group_bw_bytes: f64) -> Value {
    let runtime = if d.ios > 0 { job_runtime_ms } else { 0 };
    let bw = bw_bytes(d, runtime);
    // Samples of whole windows only, as fio takes them.
    let samples = |windows: &[u64], window_ms: u64, scale: f64| -> Vec<f64> {
        if d.ios == 0 {
            return Vec::new();
        }
        let n = (runtime / window_ms.max(1)) as usize;
        (0..n).map(|i| windows.get(i).copied().unwrap_or(0) as f64 * 1000.0 / window_ms as f64 / scale).collect()
    };
    let bw_samples = samples(&d.bw_windows, meta.bw_avg_ms, 1024.0);
    let iops_samples = samples(&d.iops_windows, meta.iops_avg_ms, 1.0);
    let (bw_min, bw_max, bw_mean, bw_dev) = series(&bw_samples);
    let (iops_min, iops_max, iops_mean, iops_dev) = series(&iops_samples);
    let lat = lat_json(d, None);
    json!({
        "io_bytes": d.bytes,
        "io_kbytes": d.bytes / 1024,
        "bw_bytes": bw,
        "bw": bw / 1024,
        "iops": if runtime == 0 { 0.0 } else { d.ios as f64 * 1000.0 / runtime as f64 },
        "runtime": runtime,
        "total_ios": d.ios,
        "short_ios": 0,
        "drop_ios": 0,
        "slat_ns": { "min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0 },
        "clat_ns": lat_json(d, Some(&meta.percentiles)),
        "lat_ns": lat,
        "bw_min": bw_min as u64,
        "bw_max": bw_max as u64,
        "bw_agg": if group_bw_bytes > 0.0 { bw as f64 * 100.0 / group_bw_bytes } else { 0.0 },
        "bw_mean": bw_mean,
        "bw_dev": bw_dev,
        "bw_samples": bw_samples.len(),
        "iops_min": iops_min as u64,
        "iops_max": iops_max as u64,
        "iops_mean": iops_mean,
        "iops_stddev": iops_dev,
        "iops_samples": iops_samples.len(),
    })
}
