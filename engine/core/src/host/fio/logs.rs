//! What fio writes about a job: its logs (`write_iops_log`, `write_bw_log`, `write_lat_log`,
//! `log_avg_msec` and friends), its reporting group, the windows and percentiles of its
//! statistics, and its steady-state check (`steadystate`, `ss_dur`, `ss_ramp`).

use super::sections::{Opt, Seen};
use super::values;
use super::Notes;
use crate::units::{ConfigError, NS_PER_S};

/// fio's default percentiles of completion latency.
pub const DEFAULT_PERCENTILES: [f64; 17] =
    [1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99];

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

/// What the job's options say fio should report and log about it.
#[derive(Debug, Clone)]
pub(super) struct Reporting {
    pub group_reporting: bool,
    logs: Logs,
    /// Windows of the bandwidth and IOPS samples, ms.
    pub avg_ms: (u64, u64),
    pub percentiles: Vec<f64>,
    steadystate: Option<SteadyState>,
    ss_duration_s: u32,
    ss_ramp_ns: u64,
}

impl Default for Reporting {
    fn default() -> Self {
        Reporting {
            group_reporting: false,
            logs: Logs { per_job: true, ..Logs::default() },
            avg_ms: (500, 500),
            percentiles: DEFAULT_PERCENTILES.to_vec(),
            steadystate: None,
            ss_duration_s: 0,
            ss_ramp_ns: 0,
        }
    }
}

impl Reporting {
    /// Reads `o` if it is one of these options (false if not).
    pub fn apply(&mut self, o: &Opt) -> Result<bool, ConfigError> {
        let v = o.value.as_str();
        let err = |m: String| o.error(m);
        match o.key.as_str() {
            "group_reporting" => self.group_reporting = values::boolean(v).map_err(err)?,
            "write_iops_log" => self.logs.iops = Some(v.to_string()),
            "write_bw_log" => self.logs.bw = Some(v.to_string()),
            "write_lat_log" => self.logs.lat = Some(v.to_string()),
            "log_avg_msec" => self.logs.avg_msec = values::int(v).map_err(err)?,
            "log_max_value" => self.logs.max_value = values::boolean(v).map_err(err)?,
            "log_offset" => self.logs.offset = values::boolean(v).map_err(err)?,
            "per_job_logs" => self.logs.per_job = values::boolean(v).map_err(err)?,
            "bwavgtime" => self.avg_ms.0 = values::int(v).map_err(err)?.max(1),
            "iopsavgtime" => self.avg_ms.1 = values::int(v).map_err(err)?.max(1),
            "percentile_list" => self.percentiles = percentile_list(o)?,
            "steadystate" => self.steadystate = Some(steadystate(o)?),
            "steadystate_duration" => {
                let s = values::time_ns(v, NS_PER_S).map_err(err)? / NS_PER_S;
                if s > 86_400 {
                    return Err(err("a window of at most a day".into()));
                }
                self.ss_duration_s = s as u32;
            }
            "steadystate_ramp_time" => self.ss_ramp_ns = values::time_ns(v, NS_PER_S).map_err(err)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The steady-state check (none without a window) and the logs of job `name` (a log
    /// without a prefix takes the job's name).
    pub fn finish(&self, name: &str, seen: &Seen, notes: &mut Notes) -> (Option<SteadyState>, Logs) {
        let steadystate = match (&self.steadystate, self.ss_duration_s) {
            (Some(ss), d) if d > 0 => Some(SteadyState { duration_s: d, ramp_ns: self.ss_ramp_ns, ..ss.clone() }),
            (Some(_), _) => {
                if let Some(o) = seen.line_of("steadystate") {
                    notes.unsupported(o, "steadystate needs ss_dur (a window of whole seconds): not checked");
                }
                None
            }
            (None, _) => None,
        };
        let mut logs = self.logs.clone();
        for prefix in [&mut logs.iops, &mut logs.bw, &mut logs.lat].into_iter().flatten() {
            if prefix.is_empty() {
                *prefix = name.to_string();
            }
        }
        (steadystate, logs)
    }
}

/// `50:99:99.9`: 1 to 20 percentiles, each from 0 to 100.
fn percentile_list(o: &Opt) -> Result<Vec<f64>, ConfigError> {
    let list: Result<Vec<f64>, _> = o.value.split(':').map(|p| p.trim().parse::<f64>()).collect();
    let list = list.map_err(|_| o.error("is percentiles separated by ':', e.g. 50:99:99.9"))?;
    if list.is_empty() || list.len() > 20 || list.iter().any(|p| !(0.0..=100.0).contains(p)) {
        return Err(o.error("needs 1 to 20 percentiles, each from 0 to 100"));
    }
    Ok(list)
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

#[cfg(test)]
mod tests {
    use crate::host::fio::import;
    use crate::host::fio::testing::{notes_of, SPAN};

    #[test]
    fn logs_take_the_jobs_name_and_steady_state_needs_a_window() {
        let f = import(
            "[a]\nwrite_bw_log\nper_job_logs=0\npercentile_list=50:99\nss=iops_slope:0.1%\nss_dur=30\nss_ramp=10\n\
             [b]\nss=bw:2\n",
            SPAN,
        )
        .unwrap();
        let (a, b) = (&f.jobs[0][0], &f.jobs[0][1]);
        assert_eq!(a.logs.bw.as_deref(), Some("a"));
        assert_eq!(a.logs.file_name("a", "bw", 1), "a_bw.log");
        assert_eq!(a.percentiles, vec![50.0, 99.0]);
        let ss = a.steadystate.as_ref().unwrap();
        assert_eq!((ss.slope, ss.percent, ss.duration_s, ss.ramp_ns), (true, true, 30, 10_000_000_000));
        assert_eq!(ss.text, "iops_slope:0.100000%");
        assert_eq!(b.steadystate, None);
        // Without group_reporting a's check would judge it alone; it shares its phase with b.
        assert_eq!(notes_of(&f.report.unsupported), vec![(5, "ss=iops_slope:0.1%"), (9, "ss=bw:2")]);
    }

    #[test]
    fn malformed_values_are_errors_naming_the_line() {
        let err = |text: &str| import(text, SPAN).unwrap_err().message;
        assert!(err("[a]\nss=iops\n").contains("needs a limit"));
        assert!(err("[a]\nss=lat:1\n").starts_with("line 2: ss=lat:1: allowed: iops:LIMIT"));
        assert!(err("[a]\nss_dur=2d\n").contains("at most a day"));
        assert!(err("[a]\npercentile_list=50:101\n").contains("1 to 20 percentiles"));
        assert!(err("[a]\npercentile_list=50,99\n").contains("separated by ':'"));
    }
}
