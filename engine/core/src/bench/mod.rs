//! The bench: wires a host to a drive (or a RAID 0 array of them, `array.rs`), owns the clock,
//! the power-cut schedule and the per-second metrics. (Experiments as lists of benches belong
//! here too.)

pub mod array;
pub mod fio;
pub mod histogram;
mod report;
mod sample;
mod seconds;
mod summary;
mod target;

use std::collections::VecDeque;

use crate::command::Op;
use crate::config::{Precondition, RunConfig};
use crate::drive::ftl::Ftl;
use crate::drive::power::{CapacitorState, PowerCutReport};
use crate::drive::Drive;
use crate::host::placement::{AppCounters, ZoneStore};
use crate::host::{payload_bytes, Host, Origin};
use crate::units::{ConfigError, NS_PER_S, UNIT_BYTES};
use histogram::Histogram;
use target::Target;

pub use report::{default_steady_from_s, power_cut_json, power_cuts_json, results_json};
pub use sample::{csv, Sample, FIELDS, FIELDS_V1, FIELD_INFO, HOST_CPU_HZ};
use seconds::Seconds;
pub use summary::Summary;

/// One completed command, as per-job statistics and logs see it.
#[derive(Debug, Clone, Copy)]
pub struct Completion {
    /// The phase and the job (its index in the phase) that issued it.
    pub phase: usize,
    pub job: usize,
    /// When that phase started, ns.
    pub phase_start_ns: u64,
    pub op: Op,
    /// Where it starts (to the 4 KiB unit) and its payload.
    pub offset_bytes: u64,
    pub bytes: u32,
    pub issue_ns: u64,
    pub done_ns: u64,
}

/// Watches every completion (per-job results, logs); may end the running phase early.
pub trait Observer {
    /// Returns true to end the running phase now (e.g. its steady-state condition holds).
    fn completed(&mut self, c: &Completion) -> bool;
}

/// The most the model's mapping tables can grow to in this run (for a memory budget, e.g. the
/// browser's): all of them for a compressing drive (its fill is stored unit by unit); otherwise
/// what the run can rewrite, since a filled region costs nothing until it is rewritten. Host
/// writes are bounded by the link's rate over the run (in an array, by each member's link and
/// its share of the shared one: the stripe spreads writes evenly); each rewritten unit costs a
/// map entry and, with GC's copies, a few reverse-map slots. A random precondition rewrites its
/// passes at once. An array holds this for each member. A drive whose map keeps stripes (an SLC
/// cache) under only whole-unit sequential writes keeps an entry per program stripe each way
/// (twice that here, for the stripes its folding and its passes' ends split).
pub fn table_bytes_bound(cfg: &RunConfig) -> u64 {
    let d = &cfg.drive;
    let members = cfg.drives() as u64;
    let full = Ftl::table_bytes(d);
    if d.controller.compression {
        return full * members;
    }
    if Ftl::keeps_stripes(d) && only_sequential_writes(cfg) {
        let upp = d.geometry.units_per_program() as u64;
        let stripes = d.user_units().div_ceil(upp) + d.geometry.raw_units().div_ceil(upp);
        return (stripes * 4 * 2 + d.geometry.total_blocks() * 16).min(full) * members;
    }
    let user = d.user_units();
    let writes = cfg.plan().iter().flat_map(|p| &p.jobs).any(|j| j.read_percent < 100 || j.trace.is_some());
    let mut link_units = if writes { d.host.link_mb_s * 1_000_000 / UNIT_BYTES * cfg.seconds as u64 } else { 0 };
    if let Some(r) = cfg.raid.filter(|r| r.hba_mb_s > 0 && writes) {
        let shared_units = r.hba_mb_s * 1_000_000 / UNIT_BYTES * cfg.seconds as u64;
        link_units = link_units.min(shared_units.div_ceil(members));
    }
    let preconditioned = match cfg.precondition {
        Precondition::Random { passes } => (cfg.workload_units() as f64 * passes).round() as u64,
        _ => 0,
    };
    let rewritten = link_units + preconditioned;
    let changed = (rewritten + cfg.span_units() - cfg.workload_units()).min(user);
    let forward = if changed * 8 > user { user * 4 } else { changed * 16 };
    let reverse = (rewritten.min(user) * 3).min(d.geometry.raw_units()) * 4;
    (forward + reverse + d.geometry.total_blocks() * 16).min(full) * members
}

/// Every write of the run is sequential and whole 4 KiB units from a secure erase, with no
/// TRIM: the map keeps whole stripes.
fn only_sequential_writes(cfg: &RunConfig) -> bool {
    let whole = |bytes: u64| bytes.is_multiple_of(UNIT_BYTES);
    cfg.precondition == Precondition::None
        && cfg.trim_fraction == 0.0
        && !cfg.has_partial_writes()
        && cfg.plan().iter().flat_map(|p| &p.jobs).all(|j| {
            j.read_percent == 100
                || (j.random_percent == 0
                    && j.trim_percent == 0
                    && j.trace.is_none()
                    && whole(j.offset_bytes)
                    && j.write_sizes.entries.iter().all(|e| whole(e.0 as u64)))
        })
}

pub struct Bench {
    cfg: RunConfig,
    host: Host,
    drive: Target,
    seconds: Seconds,
    /// Scheduled power cuts still to come, ns.
    cuts_ns: VecDeque<u64>,
    cut_reports: Vec<PowerCutReport>,
    observer: Option<Box<dyn Observer>>,
    /// Commands the drive refused (a worn-out drive's writes, a zoned drive's broken rules).
    refused: u64,
}

impl Bench {
    /// Builds the drive (or each member of the array), secure-erased, and preconditions it: by
    /// default fills the tested span sequentially (the articles' preconditioning; it takes no
    /// simulated time, the test phase starts at t = 0 after it).
    pub fn new(cfg: RunConfig) -> Result<Self, ConfigError> {
        cfg.validate()?;
        let drive = Target::new(&cfg)?;
        let dies = cfg.drive.geometry.dies * cfg.drives();
        Ok(Bench {
            host: Host::new(&cfg),
            drive,
            seconds: Seconds::new(cfg.seconds, cfg.drive.host.host_cpu_cycles_per_io, dies),
            cuts_ns: cfg.power_cuts_ns.iter().copied().collect(),
            cut_reports: Vec::new(),
            observer: None,
            refused: 0,
            cfg,
        })
    }

    /// `o` sees every completion from now on.
    pub fn observe(&mut self, o: Box<dyn Observer>) {
        self.observer = Some(o);
    }

    /// Takes the observer back (to read what it gathered).
    pub fn take_observer(&mut self) -> Option<Box<dyn Observer>> {
        self.observer.take()
    }

    /// Commands the drive refused so far (failed, or refused by a read-only drive).
    pub fn refused_commands(&self) -> u64 {
        self.refused
    }

    /// Zone resets the host made (fio's `zonemode=zbd`).
    pub fn zone_resets(&self) -> u64 {
        self.host.zone_resets()
    }

    pub fn config(&self) -> &RunConfig {
        &self.cfg
    }

    /// The workload's phase running now (its index in the plan).
    pub fn phase(&self) -> usize {
        self.host.phase().0
    }

    pub fn seconds_done(&self) -> u32 {
        self.seconds.done()
    }

    pub fn finished(&self) -> bool {
        self.seconds.finished()
    }

    /// Every command's latency in the seconds completed so far.
    pub fn latencies(&self) -> &Histogram {
        self.seconds.latencies()
    }

    /// The drive (an array's first member).
    pub fn drive(&self) -> &Drive {
        self.drive.first()
    }

    /// The array's members (None for one drive without `raid`).
    pub fn members(&self) -> Option<&[Drive]> {
        self.drive.array().map(|a| a.members())
    }

    /// The host's zone store, if the run writes through one (`RunConfig::zone_store`).
    pub fn zone_store(&self) -> Option<&ZoneStore> {
        self.host.zone_store()
    }

    /// What the run's app host asked of the drive (`RunConfig::app`; None without one).
    pub fn app_counters(&self) -> Option<AppCounters> {
        self.host.app_counters()
    }

    /// The drive's FTL (an array's first member's).
    pub fn ftl(&self) -> &Ftl {
        self.drive.first().ftl()
    }

    /// What each power cut so far did.
    pub fn power_cuts(&self) -> &[PowerCutReport] {
        &self.cut_reports
    }

    pub fn capacitors(&self) -> CapacitorState {
        self.drive.capacitors()
    }

    /// Bytes held by the model (mapping tables dominate; every member of an array).
    pub fn memory_bytes(&self) -> u64 {
        self.drive.memory_bytes()
    }

    /// Runs until `max_ios` more host IOs have been issued or the run is finished; appends every
    /// second completed meanwhile to `out`. Returns the number of IOs processed.
    pub fn advance(&mut self, max_ios: u64, out: &mut Vec<Sample>) -> u64 {
        let mut done = 0;
        while done < max_ios && !self.finished() {
            self.step(out);
            done += 1;
        }
        done
    }

    /// Runs until second `second` is complete (or `max_ios` more IOs, or the end): a step that
    /// stops on a second's boundary. Returns the number of IOs processed.
    pub fn advance_to_second(&mut self, second: u32, max_ios: u64, out: &mut Vec<Sample>) -> u64 {
        let mut done = 0;
        while done < max_ios && !self.finished() && self.seconds.done() < second {
            self.step(out);
            done += 1;
        }
        done
    }

    /// Cuts power now: just after the host's next command issues (or at once if none is due
    /// before the run ends); an array loses power as a whole. Returns when, ns, or None if the
    /// run is over. The same time in `power_cuts_ns` gives the same run: the cut follows every
    /// command issued so far, even those issued at the next command's instant. Without
    /// scheduled cuts the drive starts its log of writes at risk now, and the cut waits (a few
    /// ms) until every write taken before is in the log or safe: the host's commands in flight
    /// are done and the programs booked so far complete. (Keeping the log from the start costs
    /// every run ~9 % of its time in the browser, for a cut most runs never ask for.)
    pub fn cut_power_now(&mut self) -> Option<u64> {
        let end_ns = self.cfg.seconds as u64 * NS_PER_S;
        let next = self.host.next_issue().map_or(end_ns, |(t, _)| t + 1).max(self.seconds.done() as u64 * NS_PER_S + 1);
        let settled = self.drive.watch_durability(next).map_or(0, |programs| programs.max(self.host.in_flight_until()));
        let at = next.max(settled);
        if self.finished() || at >= end_ns {
            return None;
        }
        let i = self.cuts_ns.partition_point(|&c| c <= at);
        self.cuts_ns.insert(i, at);
        Some(at)
    }

    /// The capacitor bank fails now (the drive notices at its next self-test), or is replaced.
    pub fn set_capacitors_healthy(&mut self, healthy: bool) {
        self.drive.set_capacitors_healthy(healthy);
    }

    /// Runs to the end, returning every sample.
    pub fn run_to_end(&mut self) -> Vec<Sample> {
        // A run its writes end (a whole-drive fill) is capped far above the seconds it takes.
        let mut out = Vec::with_capacity(self.cfg.seconds.min(1 << 16) as usize);
        while !self.finished() {
            self.advance(u64::MAX, &mut out);
        }
        out
    }

    /// The host's next command: power cuts and rests due before it happen first.
    #[inline]
    fn step(&mut self, out: &mut Vec<Sample>) {
        let Some((issue_ns, job)) = self.next_issue(out) else {
            // The workload is done: every second up to its last completion is final. If it ended
            // before the run's time (its trace or its bytes ran out), the host closes the drive
            // there, which programs what its buffer holds: the last second's NAND writes include
            // it, so the run's write amplification counts every host write on both sides. A run
            // stopped by its time leaves that to after its last second, as fio's runtime does.
            let end_ns = self.host.drained_ns();
            if end_ns < self.cfg.seconds as u64 * NS_PER_S {
                self.drive.flush_buffer(end_ns);
            }
            self.seconds.end_at(end_ns, &mut self.drive, out);
            return;
        };
        self.seconds.cut(issue_ns, &mut self.drive, out);
        if self.finished() {
            return;
        }
        let req = self.host.next_request(job);
        if let Some(group) = self.host.hint_group(job) {
            self.drive.prefetch_group(&group);
        }
        let (done_ns, completion) = self.drive.submit(req, issue_ns);
        let origin = self.host.completed(job, done_ns, completion);
        if !completion.accepted() {
            self.refused += 1;
            return;
        }
        let bin = self.seconds.bin(done_ns);
        bin.complete_io(payload_bytes(&req), done_ns - issue_ns);
        if matches!(req.op, Op::Write | Op::Append) {
            bin.host_write_bytes += req.bytes as u64;
            if origin == Origin::Cleaner {
                bin.cleaner_write_bytes += req.bytes as u64;
            }
        }
        // fio counts a zone reset apart from its I/O (its "zone resets").
        if let Some(o) = self.observer.as_mut().filter(|_| !req.op.manages_zones()) {
            let (phase, phase_start_ns) = self.host.phase();
            let c = Completion {
                phase,
                job,
                phase_start_ns,
                op: req.op,
                offset_bytes: req.offset_bytes / UNIT_BYTES * UNIT_BYTES,
                bytes: req.bytes,
                issue_ns,
                done_ns,
            };
            if o.completed(&c) {
                self.host.end_phase(done_ns);
            }
        }
    }

    /// When the host issues next and from which job, after the power cuts and rests due before
    /// it; None once the workload is done.
    #[inline]
    fn next_issue(&mut self, out: &mut Vec<Sample>) -> Option<(u64, usize)> {
        let mut next = self.host.next_issue()?;
        while let Some(&at_ns) = self.cuts_ns.front() {
            if next.0 < at_ns {
                break;
            }
            self.cuts_ns.pop_front();
            self.power_cut(at_ns, out);
            next = self.host.next_issue()?;
        }
        if let Some((from_ns, until_ns)) = self.host.rest_at(next.0) {
            // The host waits for its next burst; meanwhile the drive collects in the background.
            self.drive.idle(from_ns, until_ns);
            self.host.wait_until(until_ns);
            next = self.host.next_issue()?;
        }
        Some(next)
    }

    fn power_cut(&mut self, at_ns: u64, out: &mut Vec<Sample>) {
        self.seconds.cut(at_ns, &mut self.drive, out);
        let (report, resume_ns) = self.drive.power_cut(at_ns);
        self.host.wait_until(resume_ns);
        self.seconds.bin(at_ns).acknowledged_writes_lost += report.acknowledged_writes_lost as u32;
        self.cut_reports.push(report);
    }
}
