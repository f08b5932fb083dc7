//! Reads fio's JSON output and its per-interval logs, fio's own or the simulator's, into the
//! figures a comparison needs. Errors name the missing field's path or the log's line.

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
    pub iops_mean: f64,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct LatResult {
    pub min_ns: f64,
    pub max_ns: f64,
    pub mean_ns: f64,
    pub n: u64,
}

/// One row of a log: `time (ms), value, direction, block size[, offset], priority`.
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
            Ok(JobResult {
                name: field(j, &path, "jobname")?.as_str().ok_or(format!("{}.jobname: must be text", path))?.into(),
                group: number(j, &path, "groupid")? as u64,
                runtime_ms: number(j, &path, "job_runtime")? as u64,
                dirs: [dir("read")?, dir("write")?, dir("trim")?],
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

fn read_lat(v: &Value, path: &str) -> Result<LatResult, String> {
    Ok(LatResult {
        min_ns: number(v, path, "min")?,
        max_ns: number(v, path, "max")?,
        mean_ns: number(v, path, "mean")?,
        n: number(v, path, "N")? as u64,
    })
}

fn read_dir(v: &Value, path: &str) -> Result<DirResult, String> {
    let clat_path = format!("{}.clat_ns", path);
    let clat_v = field(v, path, "clat_ns")?;
    let clat = read_lat(clat_v, &clat_path)?;
    let mut percentiles = Vec::new();
    if clat.n > 0 {
        let p = field(clat_v, &clat_path, "percentile")?
            .as_object()
            .ok_or_else(|| format!("{}.percentile: must be an object", clat_path))?;
        for (k, val) in p {
            let pct: f64 = k.parse().map_err(|_| format!("{}.percentile: '{}' is not a percentage", clat_path, k))?;
            let ns = val.as_u64().ok_or_else(|| format!("{}.percentile.{}: must be whole ns", clat_path, k))?;
            percentiles.push((pct, ns));
        }
        percentiles.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    Ok(DirResult {
        io_bytes: number(v, path, "io_bytes")? as u64,
        bw_kib_s: number(v, path, "bw")?,
        iops: number(v, path, "iops")?,
        runtime_ms: number(v, path, "runtime")? as u64,
        total_ios: number(v, path, "total_ios")? as u64,
        clat,
        lat: read_lat(field(v, path, "lat_ns")?, &format!("{}.lat_ns", path))?,
        percentiles,
        bw_mean_kib_s: number(v, path, "bw_mean")?,
        iops_mean: number(v, path, "iops_mean")?,
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

/// A log: one row per line, 4 to 6 numbers separated by commas (5: the last is the priority;
/// 6: offset then priority).
pub fn read_log(text: &str) -> Result<Vec<LogRow>, String> {
    let mut rows = Vec::new();
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
        if !(4..=6).contains(&fields.len()) {
            return Err(format!(
                "line {}: expected 'time, value, direction, block size[, offset], priority' (got {} fields)",
                i + 1,
                fields.len()
            ));
        }
        let ddir = n(2, "direction")?;
        if ddir > 2 {
            return Err(format!("line {}: the direction must be 0 (read), 1 (write) or 2 (trim), not {}", i + 1, ddir));
        }
        rows.push(LogRow {
            time_ms: n(0, "time")?,
            value: n(1, "value")?,
            ddir: ddir as u8,
            bs: n(3, "block size")?,
            offset: if fields.len() == 6 { Some(n(4, "offset")?) } else { None },
            prio: if fields.len() >= 5 { Some(n(fields.len() - 1, "priority")?) } else { None },
        });
    }
    Ok(rows)
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
            "line 1: expected 'time, value, direction, block size[, offset], priority' (got 3 fields)"
        );
        assert!(read_log("1, 2, 0, 4096, 0\n1, x, 0, 4096, 0\n").unwrap_err().starts_with("line 2: the value 'x'"));
        assert!(read_log("1, 2, 5, 4096, 0\n").unwrap_err().contains("direction"));
    }

    #[test]
    fn reads_fio_json_with_its_nan_and_names_missing_fields() {
        assert_eq!(bare_numbers_as_null(r#"{"a":-nan,"b":"nan","c":[inf]}"#), r#"{"a":null,"b":"nan","c":[null]}"#);
        let err =
            read_json(r#"fio: warning {"fio version":"fio-3.33","jobs":[{"jobname":"a","groupid":0}]}"#).unwrap_err();
        assert_eq!(err, "jobs[0].job_runtime: missing");
        assert!(read_json("no json").is_err());
    }
}
