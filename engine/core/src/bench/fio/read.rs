//! Reads fio's JSON output and its per-interval logs, fio's own or the simulator's, into the
//! figures a comparison needs. Errors name the missing field's path or the log's line.
//!
//! JSON: fio 2.1.14 (the first to write each direction's total_ios) to 3.38. fio 2.x writes
//! the latencies as `clat`, `slat` and `lat` in µs (read here as ns), no `iops_mean`, and
//! before 2.21 `io_bytes` in KiB with no `io_kbytes`. Logs: fio 2.x to 3.38 (see `read_log`).

use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub struct FioResults {
    pub version: String,
    pub jobs: Vec<JobResult>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct JobResult {
    pub name: String,
    pub group: u64,
    pub runtime_ms: u64,
    /// Read, write and trim.
    pub dirs: [DirResult; 3],
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct DirResult {
    pub io_bytes: u64,
    pub bw_kib_s: f64,
    pub iops: f64,
    pub runtime_ms: u64,
    pub total_ios: u64,
    pub clat: LatResult,
    pub lat: LatResult,
    /// Completion latency percentiles: (percent, ns).
    pub percentiles: Vec<(f64, u64)>,
    pub bw_mean_kib_s: f64,
    /// The mean of the IOPS samples; None from fio 2.x, which wrote none.
    pub iops_mean: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct LatResult {
    pub min_ns: f64,
    pub max_ns: f64,
    pub mean_ns: f64,
    pub n: u64,
}

/// One row of a log: `time (ms), value, direction, block size[, offset], priority[, issue time]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogRow {
    pub time_ms: u64,
    pub value: u64,
    /// 0 read, 1 write, 2 trim.
    pub ddir: u8,
    pub bs: u64,
    pub offset: Option<u64>,
    pub prio: Option<u64>,
}

/// fio's JSON output. Text before the first `{` (fio's warnings) is skipped, and fio's bare
/// `nan`/`inf` numbers read as null.
pub fn read_json(text: &str) -> Result<FioResults, String> {
    let start = text.find('{').ok_or("no JSON object in the text")?;
    let clean = bare_numbers_as_null(&text[start..]);
    let root: Value = serde_json::from_str(&clean).map_err(|e| format!("not JSON: {}", e))?;
    let version = field(&root, "", "fio version")?.as_str().unwrap_or_default().to_string();
    let jobs = field(&root, "", "jobs")?.as_array().ok_or("jobs: must be a list")?;
    let jobs = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let path = format!("jobs[{}]", i);
            let dir = |d: &str| read_dir(field(j, &path, d)?, &format!("{}.{}", path, d));
            let dirs = [dir("read")?, dir("write")?, dir("trim")?];
            // fio before 3.8 (2018) writes no job_runtime: its directions' runtimes stand in.
            let runtime_ms = match j.get("job_runtime") {
                Some(_) => number(j, &path, "job_runtime")? as u64,
                None => dirs.iter().map(|d| d.runtime_ms).max().unwrap_or(0),
            };
            Ok(JobResult {
                name: field(j, &path, "jobname")?.as_str().ok_or(format!("{}.jobname: must be text", path))?.into(),
                group: number(j, &path, "groupid")? as u64,
                runtime_ms,
                dirs,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(FioResults { version, jobs })
}

fn field<'a>(v: &'a Value, path: &str, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| {
        if path.is_empty() {
            format!("{}: missing", key)
        } else {
            format!("{}.{}: missing", path, key)
        }
    })
}

fn number(v: &Value, path: &str, key: &str) -> Result<f64, String> {
    field(v, path, key)?.as_f64().ok_or_else(|| format!("{}.{}: must be a number", path, key))
}

/// `ios`: the direction's IOs, the sample count fio before 3.20 did not write as `N`. `scale`:
/// ns per unit of the latencies (1000 for fio 2.x's µs).
fn read_lat(v: &Value, path: &str, ios: u64, scale: f64) -> Result<LatResult, String> {
    Ok(LatResult {
        min_ns: number(v, path, "min")? * scale,
        max_ns: number(v, path, "max")? * scale,
        mean_ns: number(v, path, "mean")? * scale,
        n: if v.get("N").is_some() { number(v, path, "N")? as u64 } else { ios },
    })
}

fn read_dir(v: &Value, path: &str) -> Result<DirResult, String> {
    // fio 3.0 renamed the latencies `clat_ns` and `lat_ns`, in ns; fio 2.x wrote `clat` and
    // `lat` in µs.
    let fio2 = v.get("clat_ns").is_none() && v.get("clat").is_some();
    let (clat_key, lat_key, scale) = if fio2 { ("clat", "lat", 1000) } else { ("clat_ns", "lat_ns", 1) };
    let clat_path = format!("{}.{}", path, clat_key);
    let clat_v = v.get(clat_key).ok_or_else(|| format!("{}: missing (fio 2.x writes clat)", clat_path))?;
    // fio before 2.1.14 wrote no total_ios, nor anything it could be told from exactly (its
    // iops were whole, rounded down).
    if v.get("total_ios").is_none() {
        return Err(format!("{}.total_ios: missing (fio writes it from 2.1.14 on)", path));
    }
    let total_ios = number(v, path, "total_ios")? as u64;
    let clat = read_lat(clat_v, &clat_path, total_ios, scale as f64)?;
    let mut percentiles = Vec::new();
    // None with clat_percentiles=0 (lat_percentiles=1 lists them under lat_ns instead).
    if let Some(p) = clat_v.get("percentile").filter(|_| clat.n > 0) {
        let p = p.as_object().ok_or_else(|| format!("{}.percentile: must be an object", clat_path))?;
        for (k, val) in p {
            let pct: f64 = k.parse().map_err(|_| format!("{}.percentile: '{}' is not a percentage", clat_path, k))?;
            let whole =
                val.as_u64().ok_or_else(|| format!("{}.percentile.{}: must be a whole number", clat_path, k))?;
            // fio 2.x and 3.1 pad the list with `"0.00": 0`, no percentile.
            if pct > 0.0 {
                percentiles.push((pct, whole.saturating_mul(scale)));
            }
        }
        percentiles.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    // fio before 2.21 wrote io_bytes in KiB, and no io_kbytes.
    let io_unit = if fio2 && v.get("io_kbytes").is_none() { 1024 } else { 1 };
    Ok(DirResult {
        io_bytes: (number(v, path, "io_bytes")? as u64).saturating_mul(io_unit),
        bw_kib_s: number(v, path, "bw")?,
        iops: number(v, path, "iops")?,
        runtime_ms: number(v, path, "runtime")? as u64,
        total_ios,
        clat,
        lat: read_lat(field(v, path, lat_key)?, &format!("{}.{}", path, lat_key), total_ios, scale as f64)?,
        percentiles,
        bw_mean_kib_s: number(v, path, "bw_mean")?,
        // fio 3.0 added iops_mean.
        iops_mean: if fio2 { None } else { Some(number(v, path, "iops_mean")?) },
    })
}

/// fio writes `-nan`, `nan` and `inf` as bare words where JSON has no such numbers.
fn bare_numbers_as_null(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if c == '"' {
            in_string = true;
        } else {
            let word = ["-nan", "nan", "-inf", "inf"].iter().find(|w| rest.starts_with(**w));
            if let Some(w) = word {
                out.push_str("null");
                rest = &rest[w.len()..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A log: one row per line, 4 to 7 numbers separated by commas (5: the last is the priority;
/// 6: offset then priority; 7: then the issue time, fio 3.38's log_issue_time). The priority is
/// hexadecimal (`0x2004`) with log_prio, else 0 or 1. fio 2.x to 3.17 wrote no priority: their
/// fifth column is log_offset's offset, told by a value above 1 in it.
pub fn read_log(text: &str) -> Result<Vec<LogRow>, String> {
    let mut rows = Vec::new();
    // Whether a fifth and last column held a decimal above 1: an offset.
    let mut above_one = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let n = |k: usize, what: &str| -> Result<u64, String> {
            fields[k]
                .parse::<u64>()
                .map_err(|_| format!("line {}: the {} '{}' is not a whole number", i + 1, what, fields[k]))
        };
        if !(4..=7).contains(&fields.len()) {
            return Err(format!(
                "line {}: expected 'time, value, direction, block size[, offset], priority[, issue time]' (got {} fields)",
                i + 1,
                fields.len()
            ));
        }
        let ddir = n(2, "direction")?;
        if ddir > 2 {
            return Err(format!("line {}: the direction must be 0 (read), 1 (write) or 2 (trim), not {}", i + 1, ddir));
        }
        if fields.len() == 7 {
            n(6, "issue time")?;
        }
        if fields.len() == 5 {
            above_one |= fields[4].parse::<u64>().is_ok_and(|v| v > 1);
        }
        rows.push(LogRow {
            time_ms: n(0, "time")?,
            value: n(1, "value")?,
            ddir: ddir as u8,
            bs: n(3, "block size")?,
            offset: if fields.len() >= 6 { Some(n(4, "offset")?) } else { None },
            prio: match fields.len() {
                5 => Some(prio(fields[4], i)?),
                6 | 7 => Some(prio(fields[5], i)?),
                _ => None,
            },
        });
    }
    if above_one {
        for row in rows.iter_mut().filter(|r| r.offset.is_none()) {
            (row.offset, row.prio) = (row.prio, None);
        }
    }
    Ok(rows)
}

/// A priority as fio writes it: decimal, or hexadecimal (`0x2004`) with log_prio.
fn prio(text: &str, i: usize) -> Result<u64, String> {
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    };
    parsed.ok_or_else(|| format!("line {}: the priority '{}' is not a whole number", i + 1, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_logs_and_names_the_bad_line() {
        let rows = read_log("500, 17398, 0, 0, 0\n152, 1, 0, 4096, 4046848, 0\n\n").unwrap();
        assert_eq!(rows[0], LogRow { time_ms: 500, value: 17398, ddir: 0, bs: 0, offset: None, prio: Some(0) });
        assert_eq!(rows[1].offset, Some(4046848));
        assert_eq!(
            read_log("1, 2, 3\n").unwrap_err(),
            "line 1: expected 'time, value, direction, block size[, offset], priority[, issue time]' (got 3 fields)"
        );
        assert!(read_log("1, 2, 0, 4096, 0\n1, x, 0, 4096, 0\n").unwrap_err().starts_with("line 2: the value 'x'"));
        assert!(read_log("1, 2, 5, 4096, 0\n").unwrap_err().contains("direction"));
    }

    #[test]
    fn reads_fio_3_38_logs_with_issue_times_and_hexadecimal_priorities() {
        // fio's HOWTO "Log File Formats" and iolog.c flush_samples (axboe/fio f5344384):
        // log_offset, log_prio and log_issue_time give seven columns, the priority in hex.
        let rows = read_log("412, 81234, 0, 4096, 1048576, 0x4004, 411918766\n913, 9, 1, 4096, 0x0000\n").unwrap();
        assert_eq!(
            rows[0],
            LogRow { time_ms: 412, value: 81234, ddir: 0, bs: 4096, offset: Some(1048576), prio: Some(0x4004) }
        );
        assert_eq!((rows[1].offset, rows[1].prio), (None, Some(0)));
        assert!(read_log("1, 2, 0, 4096, 0, 0x, 7\n").unwrap_err().starts_with("line 1: the priority '0x'"));
    }

    #[test]
    fn reads_the_offsets_of_fio_2_logs_where_later_fio_writes_a_priority() {
        // axboe/fio iolog.c flush_samples: before fio-3.18, log_offset=1 writes `time, value,
        // ddir, bs, offset` (no priority); from 3.18 a fifth column is the priority (0 or 1,
        // or hexadecimal with log_prio).
        let rows = read_log("12, 230, 1, 4096, 0\n13, 251, 1, 4096, 1052672\n").unwrap();
        assert_eq!((rows[0].offset, rows[0].prio), (Some(0), None));
        assert_eq!((rows[1].offset, rows[1].prio), (Some(1052672), None));
        let rows = read_log("12, 230, 1, 4096, 1\n13, 251, 1, 4096, 0\n").unwrap();
        assert_eq!((rows[0].offset, rows[0].prio), (None, Some(1)));
        let rows = read_log("12, 230, 1, 4096, 0x2004\n13, 251, 1, 4096, 0x0000\n").unwrap();
        assert_eq!((rows[0].offset, rows[0].prio), (None, Some(0x2004)));
    }

    #[test]
    fn reads_fio_3_1_json_without_a_job_runtime() {
        // The shape of fio 3.1's output (louwrentius/fio-plot
        // HPDL380G8-H420i-Crucial-MX200/randread-1-1.json, commit 8cf36d05): no job_runtime
        // (fio added it in 3.8) nor N (3.20), job options, latency_ns, disk_util, and a
        // repeated "0.00" percentile.
        let dir = |runtime: u64, ios: u64| {
            serde_json::json!({"io_bytes": ios * 4096, "io_kbytes": ios * 4, "bw": 26456, "iops": 6614.07, "runtime": runtime,
                "total_ios": ios, "clat_ns": {"min": 3220, "max": 13054796, "mean": 135557.0, "stddev": 25998.8,
                "percentile": {"1.000000": 126464, "99.990000": 569344}}, "lat_ns": {"min": 54092, "max": 13067420, "mean": 147792.4},
                "bw_mean": 26458.46, "iops_mean": 6614.6})
        };
        let mut text = serde_json::json!({"fio version": "fio-3.1", "jobs": [{"jobname": "random-read", "groupid": 0,
            "elapsed": 61, "job options": {"rw": "randread", "log_avg_msec": "500"},
            "read": dir(60001, 396851), "write": dir(0, 0), "trim": dir(0, 0), "latency_ns": {"2": 0.0}}],
            "disk_util": [{"name": "sdb", "util": 86.08}]})
        .to_string();
        // fio 3.1 repeats "0.00" in the percentiles it lists.
        text = text.replace(r#""99.990000":569344"#, r#""99.990000":569344,"0.00":0,"0.00":0"#);
        let results = read_json(&text).unwrap();
        assert_eq!(results.jobs[0].runtime_ms, 60001);
        let read = &results.jobs[0].dirs[0];
        assert_eq!(read.percentiles, [(1.0, 126464), (99.99, 569344)]);
        // fio 3.20 added N, each direction's sample count: its IOs before.
        assert_eq!((read.clat.n, read.lat.n, results.jobs[0].dirs[1].clat.n), (396851, 396851, 0));
        // With clat_percentiles=0 fio lists no completion percentiles.
        let without = text.replace(r#""percentile":{"1.000000":126464,"99.990000":569344,"0.00":0,"0.00":0},"#, "");
        assert_ne!(without, text);
        assert_eq!(read_json(&without).unwrap().jobs[0].dirs[0].percentiles, []);
    }

    #[test]
    fn reads_fio_2_json_in_microseconds_and_kib() {
        // The shape of fio 2.x's output (axboe/fio stat.c add_ddir_status_json at fio-2.2.10,
        // and a fio-2.2.10 output quoted in a public README of cloud disk tests): `slat`,
        // `clat` (with its percentiles, padded with "0.00") and `lat` in µs; io_bytes in KiB
        // (9374944 4-KiB writes: 37499776); no io_kbytes, iops_mean, job_runtime nor N.
        let idle = serde_json::json!({"io_bytes": 0, "bw": 0, "iops": 0.0, "runtime": 0, "total_ios": 0,
            "short_ios": 0, "drop_ios": 0, "slat": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0},
            "clat": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "percentile": {"1.000000": 0, "0.00": 0}},
            "lat": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0},
            "bw_min": 0, "bw_max": 0, "bw_agg": 0.0, "bw_mean": 0.0, "bw_dev": 0.0});
        let write = serde_json::json!({"io_bytes": 37499776, "bw": 62499, "iops": 15624.70, "runtime": 600008,
            "total_ios": 9374944, "short_ios": 0, "drop_ios": 0,
            "slat": {"min": 17, "max": 9602, "mean": 32.18, "stddev": 48.61},
            "clat": {"min": 964, "max": 261110, "mean": 8151.19, "stddev": 3262.83,
                "percentile": {"1.000000": 1752, "99.990000": 150528, "0.00": 0}},
            "lat": {"min": 989, "max": 261142, "mean": 8182.26, "stddev": 3262.73},
            "bw_min": 1, "bw_max": 23552, "bw_agg": 25.02, "bw_mean": 15639.5, "bw_dev": 770.29});
        let text =
            serde_json::json!({"fio version": "fio-2.2.10", "timestamp": 1510963172, "jobs": [{"jobname": "test",
            "groupid": 0, "error": 0, "elapsed": 661, "read": idle, "write": write, "trim": idle,
            "latency_us": {"2": 0.0}, "latency_ms": {"10": 98.39}}]})
            .to_string();
        let results = read_json(&text).unwrap();
        assert_eq!((results.version.as_str(), results.jobs[0].runtime_ms), ("fio-2.2.10", 600008));
        let w = &results.jobs[0].dirs[1];
        assert_eq!((w.io_bytes, w.total_ios, w.iops_mean), (9374944 * 4096, 9374944, None));
        assert_eq!(w.clat, LatResult { min_ns: 964e3, max_ns: 261110e3, mean_ns: 8151.19e3, n: 9374944 });
        assert_eq!((w.lat.min_ns, w.lat.mean_ns), (989e3, 8182.26e3));
        assert_eq!(w.percentiles, [(1.0, 1_752_000), (99.99, 150_528_000)]);
        assert_eq!(results.jobs[0].dirs[0].percentiles, []);
        // fio 2.21 writes io_bytes in bytes beside io_kbytes.
        let bytes = text.replace(r#""io_bytes":37499776"#, r#""io_bytes":38399770624,"io_kbytes":37499776"#);
        assert_ne!(bytes, text);
        assert_eq!(read_json(&bytes).unwrap().jobs[0].dirs[1].io_bytes, 9374944 * 4096);
        // fio before 2.1.14 writes no total_ios: refused, named.
        let no_count = text.replace(r#","total_ios":9374944"#, "");
        assert_ne!(no_count, text);
        assert_eq!(
            read_json(&no_count).unwrap_err(),
            "jobs[0].write.total_ios: missing (fio writes it from 2.1.14 on)"
        );
        // Neither fio 3's clat_ns nor fio 2's clat: both named.
        let neither = text.replacen(r#""clat":"#, r#""xlat":"#, 1);
        assert_eq!(read_json(&neither).unwrap_err(), "jobs[0].read.clat_ns: missing (fio 2.x writes clat)");
    }

    #[test]
    fn reads_fio_json_with_its_nan_and_names_missing_fields() {
        assert_eq!(bare_numbers_as_null(r#"{"a":-nan,"b":"nan","c":[inf]}"#), r#"{"a":null,"b":"nan","c":[null]}"#);
        let err =
            read_json(r#"fio: warning {"fio version":"fio-3.33","jobs":[{"jobname":"a","groupid":0}]}"#).unwrap_err();
        assert_eq!(err, "jobs[0].read: missing");
        assert!(read_json("no json").is_err());
    }
}
