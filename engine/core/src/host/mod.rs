//! What issues commands. The host runs the workload's phases one after another; in a phase,
//! each job keeps its queue depth of commands outstanding (closed loop), paced by its rate limit
//! and think time, until the phase's runtime is over or every job has moved its bytes. The host
//! may also rest between bursts. Workload sources sit behind one trait, one file each (the
//! synthetic jobs, trace replay, and a log-structured store on a zoned drive).

pub mod apps;
pub mod fio;
pub mod placement;
mod position;
mod synthetic;
pub mod trace;
mod zones;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::command::{Completion, Op, Request};
use std::sync::Arc;

use crate::config::{AppConfig, DriveConfig, JobSpec, Phase, RunConfig, Trace, ZoneStoreConfig};
use crate::rng::Rng;
use crate::units::{MAX_JOBS, NS_PER_S, UNIT_BYTES};

use placement::zone_store::StoreApp;
use placement::{AppCounters, AppHost, ZoneStore};
pub use synthetic::Generator;
use trace::TraceFeed;
use zones::{JobZones, ZoneBook};

/// Whose command it was: the app's own, or a host cleaner's (its copies, reads and resets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    App,
    Cleaner,
}

/// Where a job's commands come from.
pub trait WorkloadSource {
    /// The next command, drawing from `rng` if it needs chance.
    fn next(&mut self, rng: &mut Rng) -> Request;

    /// The drive's answer to the oldest command handed out and not yet answered (commands are
    /// issued and answered in the order drawn); says whose it was.
    fn completed(&mut self, _completion: Completion) -> Origin {
        Origin::App
    }
}

/// A job's source (an enum, so the hot path dispatches statically).
pub enum Source {
    Synthetic(Generator),
    Trace(TraceFeed),
    ZoneStore(Box<ZoneStore>),
    App(Box<AppHost>),
}

impl Source {
    #[inline(always)]
    fn next(&mut self, rng: &mut Rng) -> Request {
        match self {
            Source::Synthetic(g) => g.next(rng),
            Source::Trace(t) => t.next(rng),
            Source::ZoneStore(s) => s.next(rng),
            Source::App(a) => a.next(rng),
        }
    }

    #[inline(always)]
    fn completed(&mut self, completion: Completion) -> Origin {
        match self {
            Source::Synthetic(g) => g.completed(completion),
            Source::Trace(t) => t.completed(completion),
            Source::ZoneStore(s) => s.completed(completion),
            Source::App(a) => a.completed(completion),
        }
    }
}

/// A run's zone store and the drive it maps onto (`RunConfig::zone_store`).
struct StoreOn {
    store: ZoneStoreConfig,
    drive: DriveConfig,
}

/// A run's app host (`RunConfig::app`): what it is, its largest command and the tags it may
/// use.
struct AppOn {
    app: AppConfig,
    io_units: u32,
    tags: u8,
}

/// Units an app host reads or writes per command at most (128 KiB).
const APP_IO_UNITS: u32 = 32;

/// How many requests a job draws ahead of use, so their map entries and block metadata can be
/// loaded into cache meanwhile; the sequence is unchanged.
const LOOKAHEAD: usize = 32;
/// Commands whose load hints are issued together (see `Host::hint_group`).
const HINT_GROUP: usize = 8;
/// Bits of a slot key that hold the job's index (the rest is the time, ns: up to 2^50, 13 days).
const JOB_BITS: u32 = MAX_JOBS.trailing_zeros();
const JOB_MASK: u64 = (1 << JOB_BITS) - 1;

struct Job {
    source: Source,
    rng: Rng,
    /// Requests drawn ahead of use, a ring read at `upcoming_pos`.
    upcoming: [Request; LOOKAHEAD],
    upcoming_pos: usize,
    /// Rate limit: ns between commands (0: none), and when the next may issue.
    interval_ns: u64,
    next_allowed_ns: u64,
    /// Open-loop replay: the trace whose times the commands keep, and when the replay began.
    arrivals: Option<(Arc<Trace>, u64)>,
    thinktime_ns: u64,
    /// Bytes the job may still move, and commands it may still issue (u64::MAX: no limit).
    bytes_left: u64,
    ios_left: u64,
    /// Commands issued so far.
    issued: u64,
    /// No rate limit, trace times, limits or zones: issuing needs no bookkeeping (the common
    /// case).
    plain: bool,
    /// fio's `zonemode=zbd`: where the job's writes go (boxed: plain jobs stay small).
    zones: Option<Box<JobZones>>,
    /// A request drawn but not issued yet: a zone reset or finish went before it.
    retry: Option<Request>,
}

impl Job {
    fn new(spec: &JobSpec, span_bytes: u64, seed: u64, start_ns: u64, on: (Option<&StoreOn>, Option<&AppOn>)) -> Self {
        let app_host = |a: &AppOn| AppHost::new(&a.app, span_bytes / UNIT_BYTES, a.io_units, a.tags);
        let mut source = match (&spec.trace, on) {
            (Some(t), _) => Source::Trace(TraceFeed::new(t.clone(), span_bytes)),
            (None, (Some(s), app)) => {
                let (app, classes) = match app {
                    Some(a) => (StoreApp::Host(app_host(a)), a.tags as usize),
                    None => (
                        StoreApp::job(spec, span_bytes, seed),
                        spec.placement.handles().iter().map(|&h| h as usize + 1).max().unwrap_or(1),
                    ),
                };
                Source::ZoneStore(Box::new(ZoneStore::new(app, span_bytes, classes, &s.store, &s.drive)))
            }
            (None, (None, Some(a))) => Source::App(Box::new(app_host(a))),
            (None, (None, None)) => Source::Synthetic(Generator::new(spec, span_bytes, seed)),
        };
        let mut rng = Rng::new(seed);
        let upcoming = std::array::from_fn(|_| source.next(&mut rng));
        Job {
            source,
            rng,
            upcoming,
            upcoming_pos: 0,
            interval_ns: if spec.rate_iops == 0 { 0 } else { (NS_PER_S / spec.rate_iops as u64).max(1) },
            next_allowed_ns: 0,
            arrivals: spec.trace.as_ref().filter(|t| t.open_loop).map(|t| (t.clone(), start_ns)),
            thinktime_ns: spec.thinktime_ns,
            bytes_left: if spec.io_limit_bytes == 0 { u64::MAX } else { spec.io_limit_bytes },
            ios_left: spec.trace.as_ref().map_or(u64::MAX, |t| t.records.len() as u64),
            issued: 0,
            plain: spec.rate_iops == 0 && spec.io_limit_bytes == 0 && spec.trace.is_none() && spec.zones.is_none(),
            zones: spec.zones.as_ref().map(|m| Box::new(JobZones::new(spec, m, span_bytes))),
            retry: None,
        }
    }

    /// The next request as drawn (drawing the one `LOOKAHEAD` later).
    #[inline(always)]
    fn draw(&mut self) -> Request {
        let i = self.upcoming_pos;
        let req = self.upcoming[i];
        self.upcoming[i] = self.source.next(&mut self.rng);
        self.upcoming_pos = (i + 1) % LOOKAHEAD;
        req
    }

    /// The job has moved its bytes or issued all its commands.
    #[inline]
    fn exhausted(&self) -> bool {
        self.bytes_left == 0 || self.ios_left == 0
    }

    /// Whether its commands wait for a rate limit or trace times.
    #[inline]
    fn paced(&self) -> bool {
        self.interval_ns > 0 || self.arrivals.is_some()
    }

    /// The earliest its next command may issue (rate limit, or its time in an open-loop trace).
    #[inline]
    fn earliest_ns(&self) -> u64 {
        let arrival = match &self.arrivals {
            Some((trace, start)) => start.saturating_add(TraceFeed::arrival_ns(trace, self.issued as usize)),
            None => 0,
        };
        arrival.max(if self.interval_ns > 0 { self.next_allowed_ns } else { 0 })
    }
}

pub struct Host {
    phases: Vec<Phase>,
    /// The phase running, when it started, and when its runtime is over (u64::MAX: when its
    /// jobs are done).
    phase: usize,
    phase_start_ns: u64,
    phase_end_ns: u64,
    jobs: Vec<Job>,
    /// Every queue slot of every job: when it can issue next, and its job, packed into one key
    /// (time << JOB_BITS | job) so the heap compares plain integers.
    slots: BinaryHeap<Reverse<u64>>,
    /// When the host rests (None: never).
    rests: Option<Rests>,
    span_bytes: u64,
    seed: u64,
    /// The zones' write pointers, when a job writes zones (fio's `zonemode=zbd`).
    zones: Option<Box<ZoneBook>>,
    /// The zone store its one job writes through (None: jobs issue to the drive directly).
    store: Option<Box<StoreOn>>,
    /// The app host its one job runs (None: the jobs' own commands).
    app: Option<Box<AppOn>>,
}

/// The host's rests, in which the drive is idle (`Drive::idle`).
#[derive(Debug, Clone, Copy)]
enum Rests {
    /// Bursts of work and rests between them, the run's `burst_s` and `idle_s`, ns.
    Bursts { burst_ns: u64, period_ns: u64 },
    /// A phase without jobs: the host rests through its runtime, once.
    Phase { from_ns: u64, until_ns: u64 },
}

#[inline]
fn key(t_ns: u64, job: usize) -> u64 {
    (t_ns << JOB_BITS) | job as u64
}

impl Host {
    pub fn new(cfg: &RunConfig) -> Self {
        let burst_ns = cfg.burst_s as u64 * NS_PER_S;
        let mut host = Host {
            phases: cfg.plan(),
            phase: 0,
            phase_start_ns: 0,
            phase_end_ns: 0,
            jobs: Vec::new(),
            slots: BinaryHeap::new(),
            rests: (cfg.idle_s > 0)
                .then_some(Rests::Bursts { burst_ns, period_ns: burst_ns + cfg.idle_s as u64 * NS_PER_S }),
            span_bytes: cfg.host_units() * UNIT_BYTES,
            seed: cfg.seed,
            zones: None,
            store: cfg.zone_store.map(|store| Box::new(StoreOn { store, drive: cfg.drive.clone() })),
            app: cfg.app.map(|app| {
                // Through a store: appends of at most the drive's Zone Append, a class per tag
                // (an open zone each, one left for the cleaner).
                let (io_units, available) = match (&cfg.zone_store, &cfg.drive.zoned) {
                    (Some(_), Some(z)) => {
                        let append = (z.append_max_bytes.min(z.zone_capacity_bytes) / UNIT_BYTES) as u32;
                        (APP_IO_UNITS.min(append), z.max_open_zones.saturating_sub(1))
                    }
                    _ => (APP_IO_UNITS, cfg.drive.placement.as_ref().map_or(1, |p| p.handles)),
                };
                Box::new(AppOn { app, io_units, tags: app.tags(available) as u8 })
            }),
        };
        let span_bytes = host.span_bytes;
        let zoned = host.phases.iter().flat_map(|p| &p.jobs).find_map(|j| j.zones.as_ref());
        host.zones = zoned.map(|m| Box::new(ZoneBook::new(m, span_bytes)));
        host.start_phase(0, 0);
        host
    }

    /// Phase `index` starts at `t_ns`: its jobs get their queue slots.
    fn start_phase(&mut self, index: usize, t_ns: u64) {
        self.phase = index;
        self.phase_start_ns = t_ns;
        self.slots.clear();
        self.jobs.clear();
        let Some(phase) = self.phases.get(index) else { return };
        self.phase_end_ns = if phase.runtime_ns == 0 { u64::MAX } else { t_ns + phase.runtime_ns };
        if phase.jobs.is_empty() {
            self.rests = Some(Rests::Phase { from_ns: t_ns, until_ns: self.phase_end_ns });
        }
        for (j, spec) in phase.jobs.iter().enumerate() {
            // The first job of the first phase draws from the run's seed itself.
            let seed = self.seed ^ ((index as u64) << 32 | j as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
            self.jobs.push(Job::new(spec, self.span_bytes, seed, t_ns, (self.store.as_deref(), self.app.as_deref())));
            self.slots.extend((0..spec.queue_depth).map(|_| Reverse(key(t_ns, j))));
        }
    }

    /// When the host issues its next command, and from which job; None once every phase is
    /// done. Rate limits push a slot later; a finished phase drains (its outstanding commands
    /// complete) before the next one starts.
    #[inline(always)]
    pub fn next_issue(&mut self) -> Option<(u64, usize)> {
        loop {
            let Some(&Reverse(k)) = self.slots.peek() else {
                if self.phase + 1 >= self.phases.len() {
                    return None;
                }
                self.start_phase(self.phase + 1, self.phase_end_ns.min(u64::MAX / 2));
                continue;
            };
            let (t, j) = (k >> JOB_BITS, (k & JOB_MASK) as usize);
            let job = &self.jobs[j];
            if job.plain && t < self.phase_end_ns {
                return Some((t, j));
            }
            if t >= self.phase_end_ns || job.exhausted() {
                self.retire_slot();
                continue;
            }
            if job.paced() {
                let earliest = job.earliest_ns();
                if earliest > t {
                    *self.slots.peek_mut().expect("peeked") = Reverse(key(earliest, j));
                    continue;
                }
            }
            return Some((t, j));
        }
    }

    /// The top slot's job is done (its phase is over or its bytes are moved): the slot issues
    /// no more. When the phase's last slot goes, the next phase starts once the drive has
    /// answered every command (the latest slot time).
    #[cold]
    fn retire_slot(&mut self) {
        let Reverse(k) = self.slots.pop().expect("peeked");
        let t = k >> JOB_BITS;
        if self.slots.is_empty() {
            // Stonewall: the next phase starts when this one's last command has completed.
            self.phase_end_ns = t.max(if self.phase_end_ns == u64::MAX { 0 } else { self.phase_end_ns });
        }
    }

    /// The next command of job `j` (whose slot `next_issue` returned).
    #[inline(always)]
    pub fn next_request(&mut self, j: usize) -> Request {
        let job = &mut self.jobs[j];
        if job.plain {
            return job.draw();
        }
        let mut req = match job.retry.take() {
            Some(r) => r,
            None => job.draw(),
        };
        if let (Some(z), Some(book)) = (job.zones.as_deref_mut(), self.zones.as_deref_mut()) {
            let (placed, again) = book.place(req, z);
            if again {
                job.retry = Some(req);
            }
            req = placed;
        }
        if job.interval_ns > 0 {
            let issued = self.slots.peek().map_or(0, |&Reverse(k)| k >> JOB_BITS);
            job.next_allowed_ns = job.next_allowed_ns.max(issued) + job.interval_ns;
        }
        if job.bytes_left != u64::MAX && !req.op.manages_zones() {
            let moved = if req.op == Op::Trim { 0 } else { req.bytes as u64 };
            job.bytes_left = job.bytes_left.saturating_sub(moved.max(1));
        }
        job.ios_left = job.ios_left.saturating_sub(1);
        job.issued += 1;
        req
    }

    /// Every `HINT_GROUP`th command of job `j` (after `next_request`), the load hints of the
    /// next `HINT_GROUP` commands at once, as (unit whose map entry to load, unit whose old
    /// block to load): the commands 24..32 ahead and 8..16 ahead (whose map entries were loaded
    /// two groups ago). Issued together, their misses overlap (one hint per command, natively,
    /// left most of each miss exposed; wasm has no prefetch instruction: see `ftl::prefetch_in`).
    #[inline(always)]
    pub fn hint_group(&self, j: usize) -> Option<[(u32, u32); HINT_GROUP]> {
        let job = &self.jobs[j];
        let pos = job.upcoming_pos;
        pos.is_multiple_of(HINT_GROUP).then(|| {
            std::array::from_fn(|k| {
                let at = |d: usize| job.upcoming[(pos + d + k) % LOOKAHEAD].lpa;
                (at(LOOKAHEAD - HINT_GROUP), at(HINT_GROUP))
            })
        })
    }

    /// The command issued last (from the top slot, job `j`) completes at `done_ns` as the drive
    /// says: its source hears the answer, and the slot issues again then, after the job's think
    /// time. Returns whose command it was.
    #[inline(always)]
    pub fn completed(&mut self, j: usize, done_ns: u64, completion: Completion) -> Origin {
        let job = &mut self.jobs[j];
        let origin = job.source.completed(completion);
        let again = done_ns + job.thinktime_ns;
        *self.slots.peek_mut().expect("a slot issued") = Reverse(key(again, j));
        origin
    }

    /// The zone store of the running phase's job, if the run writes through one.
    pub fn zone_store(&self) -> Option<&ZoneStore> {
        self.jobs.iter().find_map(|j| match &j.source {
            Source::ZoneStore(s) => Some(s.as_ref()),
            _ => None,
        })
    }

    /// The counters of the running phase's app host (`RunConfig::app`), directly or through a
    /// zone store.
    pub fn app_counters(&self) -> Option<AppCounters> {
        self.jobs.iter().find_map(|j| match &j.source {
            Source::App(a) => Some(a.counters()),
            Source::ZoneStore(s) => s.app_counters(),
            _ => None,
        })
    }

    /// If `issue_ns` falls in one of the host's rests, or follows a rest phase (reported once),
    /// the rest: (from, until).
    #[inline]
    pub fn rest_at(&mut self, issue_ns: u64) -> Option<(u64, u64)> {
        match self.rests? {
            Rests::Bursts { burst_ns, period_ns } => {
                let into_period = issue_ns % period_ns;
                (into_period >= burst_ns)
                    .then(|| (issue_ns - into_period + burst_ns, issue_ns - into_period + period_ns))
            }
            Rests::Phase { from_ns, until_ns } => {
                self.rests = None;
                Some((from_ns, until_ns))
            }
        }
    }

    /// The phase running now (its index in the plan) and when it started.
    pub fn phase(&self) -> (usize, u64) {
        (self.phase, self.phase_start_ns)
    }

    /// Ends the running phase at `t_ns` (its jobs issue no more after it), e.g. once the
    /// workload's steady-state condition holds.
    pub fn end_phase(&mut self, t_ns: u64) {
        self.phase_end_ns = self.phase_end_ns.min(t_ns);
    }

    /// When the last command in flight completes (its slot's next issue time: a bound, past
    /// the completion by the job's think time); 0 with none in flight.
    pub fn in_flight_until(&self) -> u64 {
        self.slots.iter().map(|&Reverse(k)| k >> JOB_BITS).max().unwrap_or(0)
    }

    /// Zone resets the host made (fio's `zonemode=zbd`).
    pub fn zone_resets(&self) -> u64 {
        self.zones.as_ref().map_or(0, |z| z.resets())
    }

    /// When the last phase's last command completed (once `next_issue` has returned None).
    pub fn drained_ns(&self) -> u64 {
        self.phase_end_ns
    }

    /// Nothing is issued before `t_ns` (the host rests, or the drive is off).
    pub fn wait_until(&mut self, t_ns: u64) {
        self.slots = self
            .slots
            .iter()
            .map(|&Reverse(k)| Reverse(key((k >> JOB_BITS).max(t_ns), (k & JOB_MASK) as usize)))
            .collect();
    }
}

/// Host payload a command moves (a TRIM moves none).
#[inline]
pub fn payload_bytes(req: &Request) -> u64 {
    if req.op == Op::Trim {
        0
    } else {
        req.bytes as u64
    }
}
