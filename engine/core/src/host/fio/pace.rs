//! How fast a job issues: the commands it keeps in flight (`iodepth`, as its `ioengine` and
//! think time allow), its rate limits (`rate_iops`, `rate`) and its think time (`thinktime`
//! and friends).

use super::options;
use super::rw::{Mix, DIRECTIONS};
use super::sections::{Opt, Seen};
use super::values;
use super::Notes;
use crate::config::BlockSizes;
use crate::units::ConfigError;

/// The job's pace as its options set it.
#[derive(Debug, Clone)]
pub(super) struct Pace {
    iodepth: u32,
    engine: Option<Opt>,
    rate_iops: [Option<u64>; 3],
    rate_bytes: [Option<u64>; 3],
    thinktime_ns: u64,
    thinktime_blocks: u64,
}

impl Default for Pace {
    fn default() -> Self {
        Pace {
            iodepth: 1,
            engine: None,
            rate_iops: [None; 3],
            rate_bytes: [None; 3],
            thinktime_ns: 0,
            thinktime_blocks: 1,
        }
    }
}

impl Pace {
    /// Reads `o` if it is one of these options (false if not).
    pub fn apply(&mut self, o: &Opt, kb: u64, notes: &mut Notes) -> Result<bool, ConfigError> {
        let v = o.value.as_str();
        let err = |m: String| o.error(m);
        match o.key.as_str() {
            "iodepth" => {
                let depth = values::int(v).map_err(err)?;
                if !(1..=65536).contains(&depth) {
                    return Err(err("must be between 1 and 65536".into()));
                }
                self.iodepth = depth as u32;
            }
            "ioengine" => self.engine = Some(o.clone()),
            "rate_iops" => {
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    self.rate_iops[d] = part.map(values::int).transpose().map_err(err)?;
                }
            }
            "rate" => {
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    self.rate_bytes[d] = part.map(|p| values::size(p, kb)).transpose().map_err(err)?;
                }
            }
            "rate_process" => match v {
                "linear" => {}
                "poisson" => notes.unsupported(o, "Poisson arrivals are not modelled; commands are evenly spaced"),
                _ => return Err(err("allowed: linear, poisson".into())),
            },
            "thinktime" => self.thinktime_ns = values::time_ns(v, 1_000).map_err(err)?,
            "thinktime_blocks" => self.thinktime_blocks = values::int(v).map_err(err)?.max(1),
            "thinktime_blocks_type" => match v {
                "complete" => {}
                "issue" => notes.unsupported(o, "think time counted at issue is not modelled; it follows completions"),
                _ => return Err(err("allowed: complete, issue".into())),
            },
            "thinktime_spin" => {
                values::time_ns(v, 1_000).map_err(err)?;
                notes.note(o, "spinning is part of the think time: the pause is as long");
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The queue depth fio runs the job at: a synchronous engine, or think time after every
    /// command, keeps one command in flight whatever iodepth says.
    pub fn queue_depth(&self, seen: &Seen, notes: &mut Notes) -> u32 {
        let engine = self.engine.as_ref().map_or("psync", |o| o.value.as_str());
        let engine = engine.split(':').next().unwrap_or(engine).trim();
        if let Some(o) = &self.engine {
            if options::NON_BLOCK_ENGINES.contains(&engine) {
                notes.unsupported(
                    o,
                    "this engine does no block I/O to a drive; the simulator runs the job's rw pattern on the drive",
                );
            } else {
                notes.ignored(o, "the I/O engine: the simulator hands each command to the drive itself");
            }
        }
        let mut depth = self.iodepth;
        if options::SYNC_ENGINES.contains(&engine) {
            if depth > 1 {
                let why = format!(
                    "a synchronous engine keeps one command in flight: the job runs at queue depth 1, as fio runs it \
                     (iodepth={} needs an asynchronous engine such as libaio)",
                    depth
                );
                match (&self.engine, seen.line_of("iodepth")) {
                    (Some(o), _) => notes.note(o, &why),
                    (None, Some(o)) => notes.note(o, &format!("fio's default engine is psync; {}", why)),
                    (None, None) => {}
                }
            }
            depth = 1;
        }
        if self.thinktime_ns > 0 && depth > 1 {
            let batch = self.thinktime_blocks.min(depth as u64) as u32;
            if let Some(o) = seen.line_of("thinktime") {
                if batch == 1 {
                    notes.note(
                        o,
                        "fio waits for every command to complete before thinking (thinktime_blocks=1): the job runs \
                         at queue depth 1, as fio runs it",
                    );
                } else {
                    notes.unsupported(
                        o,
                        "thinking after a batch of commands is not modelled: each of the batch's queue slots thinks \
                         after its own command",
                    );
                }
            }
            depth = batch;
        }
        depth
    }

    /// The pause after each command at queue depth `depth` (`queue_depth`'s). At depth 1 fio
    /// thinks once every `thinktime_blocks` commands: the pause is spread over them, the same
    /// average pace (N commands and one pause T take as long as N commands each followed by T/N).
    pub fn think_ns(&self, depth: u32, seen: &Seen, notes: &mut Notes) -> u64 {
        let blocks = self.thinktime_blocks;
        if self.thinktime_ns == 0 || depth > 1 || blocks == 1 {
            return self.thinktime_ns;
        }
        if let Some(o) = seen.line_of("thinktime_blocks") {
            notes.note(
                o,
                &format!(
                    "at queue depth 1, fio's pause after every {} commands is spread over them: {} us after each, \
                     the same average pace",
                    blocks,
                    self.thinktime_ns / blocks / 1000
                ),
            );
        }
        self.thinktime_ns / blocks
    }

    /// The job's rate limit, commands per second. fio holds each direction to its own rate;
    /// the simulator limits the whole job, so a job whose every direction is limited runs at
    /// their sum, its mix following the rates (as fio's does when the drive keeps up).
    pub fn rate(&self, mix: &mut Mix, seen: &Seen, notes: &mut Notes) -> u32 {
        let dirs = mix.dirs;
        let line = seen.line_of("rate_iops").or(seen.line_of("rate"));
        let mut rates = [None; 3];
        for d in (0..3).filter(|&d| dirs[d]) {
            rates[d] = match (self.rate_iops[d], self.rate_bytes[d]) {
                (Some(iops), _) => Some(iops),
                (None, Some(bytes)) => {
                    if !mix.sizes[d].is_fixed() {
                        if let Some(o) = seen.line_of("rate") {
                            notes.note(o, "a rate in bytes becomes commands per second at the mean request size");
                        }
                    }
                    Some((bytes as f64 / mean_bytes(&mix.sizes[d])).round().max(1.0) as u64)
                }
                (None, None) => None,
            };
        }
        let used: Vec<usize> = (0..3).filter(|&d| dirs[d]).collect();
        let limited: Vec<u64> = used.iter().filter_map(|&d| rates[d]).collect();
        if limited.is_empty() {
            return 0;
        }
        let Some(o) = line else { return 0 };
        if limited.len() < used.len() {
            let which: Vec<&str> = used.iter().filter(|&&d| rates[d].is_some()).map(|&d| DIRECTIONS[d]).collect();
            notes.unsupported(
                o,
                &format!(
                    "fio limits only the {}; the simulator can limit only the whole job: no limit applied",
                    which.join(" and ")
                ),
            );
            return 0;
        }
        // Saturating: fio's rates are 64-bit, and a sum past the cap is capped anyway.
        let total = limited.iter().fold(0u64, |sum, &r| sum.saturating_add(r));
        if dirs[0] && dirs[1] {
            follow_rates(rates, total, &mut mix.read_percent, o, notes);
        }
        total.min(100_000_000) as u32
    }
}

/// A read/write mix limited in both directions follows the rates (`total` their sum).
fn follow_rates(rates: [Option<u64>; 3], total: u64, read_percent: &mut u32, o: &Opt, notes: &mut Notes) {
    let (r, w) = (rates[0].unwrap_or(0), rates[1].unwrap_or(0));
    let mix = ((r as f64 * 100.0 / total.max(1) as f64).round() as u32).min(100);
    if mix != *read_percent {
        notes.note(
            o,
            &format!(
                "fio holds reads to {}/s and writes to {}/s: the {}/{} mix becomes {}/{} when the drive keeps up",
                r,
                w,
                read_percent,
                100 - *read_percent,
                mix,
                100 - mix
            ),
        );
        *read_percent = mix;
    }
}

/// Mean request size of a mix, bytes.
fn mean_bytes(b: &BlockSizes) -> f64 {
    let total: u64 = b.entries.iter().map(|e| e.1 as u64).sum();
    b.entries.iter().map(|e| e.0 as f64 * e.1 as f64).sum::<f64>() / total.max(1) as f64
}

#[cfg(test)]
mod tests {
    use crate::host::fio::import;
    use crate::host::fio::testing::{notes_of, SPAN};

    #[test]
    fn fio_rules_for_rates_and_think_time() {
        let f = import(
            "[a]\nioengine=libaio\nrw=randrw\nrwmixread=70\nrate_iops=100\niodepth=8\n\
             [b]\nioengine=libaio\nrw=randread\niodepth=8\nthinktime=1000\n",
            SPAN,
        )
        .unwrap();
        let jobs = &f.phases[0].jobs;
        // Each direction at 100/s: 200/s, half reads.
        assert_eq!((jobs[0].rate_iops, jobs[0].read_percent), (200, 50));
        // Think time after every command: queue depth 1, 1 ms pauses.
        assert_eq!((jobs[1].queue_depth, jobs[1].thinktime_ns), (1, 1_000_000));
        assert_eq!(notes_of(&f.report.notes), vec![(5, "rate_iops=100"), (11, "thinktime=1000")]);
    }

    #[test]
    fn think_time_after_a_batch_at_queue_depth_1_is_spread_over_it() {
        // A fio tutorial's job (stored in a public notes repository): no iodepth, so queue
        // depth 1, thinking 1 ms after every 4 commands. It ran as a pause after each command,
        // a quarter of fio's pace, with no note.
        let f = import("[job2]\nrw=randwrite\nthinktime=1000\nthinktime_blocks=4\nthinktime_spin=500\n", SPAN).unwrap();
        let job = &f.phases[0].jobs[0];
        assert_eq!((job.queue_depth, job.thinktime_ns), (1, 250_000));
        assert!(
            f.report.notes.iter().any(|n| n.line == 4 && n.message.contains("250 us after each")),
            "{:?}",
            f.report
        );
    }

    #[test]
    fn a_rate_on_some_directions_only_is_not_applied() {
        let f =
            import("[a]\nrw=randrw\nrate_iops=,100\n[b]\nrw=randrw\nrate=1m\nbssplit=4k/50:64k/50\n", SPAN).unwrap();
        let jobs = &f.phases[0].jobs;
        assert_eq!(jobs[0].rate_iops, 0);
        assert_eq!(notes_of(&f.report.unsupported), vec![(3, "rate_iops=,100")]);
        assert!(f.report.unsupported[0].message.starts_with("fio limits only the writes;"));
        // 1 MiB/s at a mean of 34 KiB per request, each direction.
        assert_eq!(jobs[1].rate_iops, 2 * (1048576.0f64 / 34816.0).round() as u32);
        assert!(f.report.notes.iter().any(|n| n.line == 6 && n.message.contains("mean request size")));
    }

    #[test]
    fn malformed_values_are_errors_naming_the_line() {
        let err = |text: &str| import(text, SPAN).unwrap_err().message;
        assert!(err("[a]\niodepth=0\n").starts_with("line 2: iodepth=0: must be between 1 and 65536"));
        assert!(err("[a]\nrate_process=bursty\n").contains("allowed: linear, poisson"));
        assert!(err("[a]\nthinktime_blocks_type=never\n").contains("allowed: complete, issue"));
    }
}
