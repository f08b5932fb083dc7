//! How long a job runs and where its phase ends: `runtime`, `time_based`, `ramp_time`, the
//! bytes it moves when not time-based (`io_size` times `loops`), `stonewall` and
//! `new_group`, which start the next phase and reporting group, and `create_only`, a job that
//! runs no I/O.

use super::sections::{Opt, Seen};
use super::values::{self, Amount};
use super::Notes;
use crate::units::{ConfigError, NS_PER_S};

/// The job's limits as its options set them.
#[derive(Debug, Clone)]
pub(super) struct Limits {
    io_size: Option<Amount>,
    loops: u64,
    runtime_ns: u64,
    time_based: bool,
    pub ramp_ns: u64,
    pub stonewall: bool,
    pub new_group: bool,
    /// fio only lays out the job's files and ends it (filesetup.c: `td->done = 1`).
    pub create_only: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            io_size: None,
            loops: 1,
            runtime_ns: 0,
            time_based: false,
            ramp_ns: 0,
            stonewall: false,
            new_group: false,
            create_only: false,
        }
    }
}

impl Limits {
    /// Reads `o` if it is one of these options (false if not).
    pub fn apply(&mut self, o: &Opt, kb: u64) -> Result<bool, ConfigError> {
        let v = o.value.as_str();
        let err = |m: String| o.error(m);
        match o.key.as_str() {
            "io_size" => self.io_size = Some(values::zoned_amount(v, kb).map_err(err)?),
            "loops" => {
                self.loops = values::int(v).map_err(err)?;
                if self.loops == 0 {
                    return Err(err("must be at least 1".into()));
                }
            }
            "runtime" => self.runtime_ns = values::time_ns(v, NS_PER_S).map_err(err)?,
            "time_based" => self.time_based = values::boolean(v).map_err(err)?,
            "ramp_time" => self.ramp_ns = values::time_ns(v, NS_PER_S).map_err(err)?,
            "stonewall" => self.stonewall = values::boolean(v).map_err(err)?,
            "new_group" => self.new_group = values::boolean(v).map_err(err)?,
            "create_only" => self.create_only = values::boolean(v).map_err(err)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// io_size given in zones, made bytes with the job's zone size.
    pub fn in_zones(&mut self, zone_bytes: Option<u64>, seen: &Seen) -> Result<(), ConfigError> {
        if let Some(a) = &mut self.io_size {
            *a = a.in_zones(zone_bytes).map_err(|m| seen.line_of("io_size").expect("read").error(m))?;
        }
        Ok(())
    }

    /// What needs saying about the limits as a whole. fio turns time_based off in a job without a
    /// runtime (init.c: "time_based requires a runtime/timeout setting"): it moves its bytes and ends.
    pub fn check(&mut self, seen: &Seen, notes: &mut Notes) {
        if self.time_based && self.runtime_ns == 0 {
            self.time_based = false;
            if let Some(o) = seen.line_of("time_based") {
                notes.ignored(
                    o,
                    "fio turns time_based off without a runtime: the job moves its bytes and ends, as fio's does",
                );
            }
        }
    }

    /// The bytes a clone covering `range_bytes` moves before it stops; 0: it runs until its
    /// time is up. Time-based jobs loop until the runtime; others stop after io_size (or their
    /// range) times loops.
    pub fn io_limit(&self, range_bytes: u64, span_bytes: u64) -> u64 {
        if self.time_based {
            0
        } else {
            self.io_size.map_or(range_bytes, |a| a.bytes(span_bytes)).saturating_mul(self.loops).max(1)
        }
    }

    /// The job ends this long after its phase starts (ramp included), ns; 0: no time limit.
    pub fn limit_ns(&self) -> u64 {
        if self.runtime_ns > 0 {
            self.ramp_ns + self.runtime_ns
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::host::fio::import;
    use crate::host::fio::testing::{notes_of, SPAN};
    use crate::units::NS_PER_S;

    #[test]
    fn a_job_runs_for_its_time_or_its_bytes() {
        let f = import(
            "[a]\nrw=write\nsize=1g\nio_size=10%\nloops=2\n[b]\nrw=read\nruntime=1m\ntime_based\nramp_time=500ms\n\
             [c]\nrw=read\ntime_based\n",
            SPAN,
        )
        .unwrap();
        let jobs = &f.phases[0].jobs;
        assert_eq!(jobs[0].io_limit_bytes, 2 * (SPAN / 10));
        // [c] is time_based without a runtime, which fio turns off: it reads its span once.
        assert_eq!((jobs[1].io_limit_bytes, jobs[2].io_limit_bytes), (0, SPAN));
        assert_eq!((f.phases[0].runtime_ns, f.phases[0].ramp_ns), (60 * NS_PER_S + NS_PER_S / 2, NS_PER_S / 2));
        assert_eq!(notes_of(&f.report.unsupported), vec![(8, "runtime=1m"), (10, "ramp_time=500ms")]);
        assert_eq!(notes_of(&f.report.ignored), vec![(13, "time_based")]);
    }

    #[test]
    fn malformed_values_are_errors_naming_the_line() {
        let err = |text: &str| import(text, SPAN).unwrap_err().message;
        assert!(err("[a]\nruntime=2.5s\n").contains("not a time"));
        assert!(err("[a]\nloops=0\n").starts_with("line 2: loops=0: must be at least 1"));
    }
}
