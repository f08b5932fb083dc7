//! A host log-structured store on a zoned drive (docs/design/placement.md, section 4.5).
//!
//! The app (a synthetic job, or an app host: the cache or the LSM) writes 4 KiB units of its own
//! span; the store appends each write (Zone Append) to the open zone of the write's class (its
//! tag) and keeps a map of app unit -> LBA, and each zone's live units; an app's TRIM kills its
//! units (no command), its read reads where each run of them lies. When free zones fall to
//! `free_zones`, a greedy cleaner takes the full zone with the fewest live units, reads each run
//! of them, appends them to its own open zone and resets the victim (a zone whose units all died
//! together, as a cache's evicted region or an LSM's compacted files, is reset uncopied). A
//! synthetic job's first writes fill its range once in order (as the drive's fill does for a
//! block drive), so the cleaner starts from a known utilisation; an app host starts as it does
//! on a block drive.
//!
//! The store decides where each command goes when it draws it: the host is the zones' only
//! writer and the drive takes commands in the order they are drawn, so every append lands where
//! the store expects, and each answer (`completed`) is checked against that. The simulator
//! carries no data: a copy's append is issued after its read is issued, not after it completes,
//! and the victim's reset after its copies are issued (**model**; the job's queue depth bounds
//! how far ahead). The cleaner runs in the app's own queue slots, before its next write.

use std::collections::VecDeque;

use crate::command::{Completion, Op, Request};
use crate::config::{BlockSizes, DriveConfig, JobSpec, ZoneStoreConfig, ZonedConfig};
use crate::host::{Generator, Origin, WorkloadSource};

use super::{AppCounters, AppHost};
use crate::rng::Rng;
use crate::units::UNIT_BYTES;

/// No LBA (an app unit not written yet), or no app unit (a dead slot of a zone).
const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    AppWrite,
    AppRead,
    CleanerRead,
    CleanerWrite,
    /// The cleaner's victim reset.
    Reset,
}

/// A command the store handed out, waiting for its answer.
#[derive(Debug, Clone, Copy)]
struct Issued {
    kind: Kind,
    units: u32,
    /// Where an append must land (NONE for other commands).
    append_at: u32,
}

/// What the store's commands did, counted as the drive answers them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StoreCounters {
    /// Host bytes the app wrote, and the cleaner's copies.
    pub app_write_bytes: u64,
    pub cleaner_write_bytes: u64,
    pub cleaner_read_bytes: u64,
    /// Zones the cleaner reset.
    pub resets: u64,
    /// Commands the drive refused, or appends stored elsewhere than the store expected (0
    /// unless the store breaks a zone rule).
    pub refused: u64,
}

/// The store's app (one per run, inside the boxed store: its size does not matter).
#[allow(clippy::large_enum_variant)]
pub enum StoreApp {
    /// A synthetic job: first its range once in order (`fill_writes` writes), then its own.
    Job {
        fill: Generator,
        fill_writes: u64,
        app: Generator,
    },
    Host(AppHost),
}

impl StoreApp {
    /// The synthetic job `job` over `app_bytes`: its range filled once in order at its
    /// smallest write size, then its writes.
    pub fn job(job: &JobSpec, app_bytes: u64, seed: u64) -> Self {
        let size = job.write_sizes.smallest();
        let fill_job = JobSpec { random_percent: 0, write_sizes: BlockSizes::fixed(size), ..job.clone() };
        StoreApp::Job {
            fill: Generator::new(&fill_job, app_bytes, seed),
            fill_writes: job.range_bytes(app_bytes) / size as u64,
            app: Generator::new(job, app_bytes, seed),
        }
    }

    fn next(&mut self, rng: &mut Rng) -> Request {
        match self {
            StoreApp::Job { fill, fill_writes, .. } if *fill_writes > 0 => {
                *fill_writes -= 1;
                fill.next(rng)
            }
            StoreApp::Job { app, .. } => app.next(rng),
            StoreApp::Host(h) => h.next(rng),
        }
    }
}

pub struct ZoneStore {
    app: StoreApp,
    zone_units: u32,
    capacity: u32,
    append_max: u32,
    free_zones: usize,
    /// Where each app unit is stored (an LBA; NONE before its first write).
    map: Vec<u32>,
    /// The app unit in each zone's slot (`zone * capacity + offset`; NONE: dead or unwritten).
    owner: Vec<u32>,
    /// Per zone: live units, and units appended since its reset (its write pointer as the host
    /// sees it).
    live: Vec<u32>,
    written: Vec<u32>,
    /// Empty zones, taken in the order they were reset.
    free: VecDeque<u32>,
    /// The zone each class appends to, and the cleaner's (None: the next takes a free one).
    open: Vec<Option<u32>>,
    cleaner: Option<u32>,
    /// Commands planned and not yet handed out, and those handed out and not yet answered.
    pending: VecDeque<(Request, Issued)>,
    issued: VecDeque<Issued>,
    /// App units of one cleaner copy (reused).
    moving: Vec<u32>,
    counters: StoreCounters,
}

impl ZoneStore {
    /// The store for `app` over `app_bytes`, its tags `classes` (0 to classes - 1), on `drive`'s
    /// zones.
    pub fn new(app: StoreApp, app_bytes: u64, classes: usize, store: &ZoneStoreConfig, drive: &DriveConfig) -> Self {
        let zoned: &ZonedConfig = drive.zoned.as_ref().expect("a zone store runs on a zoned drive");
        let units = |bytes: u64| (bytes / UNIT_BYTES) as u32;
        let zones = zoned.zones(drive) as u32;
        let capacity = units(zoned.zone_capacity_bytes);
        Self {
            app,
            zone_units: units(zoned.zone_bytes),
            capacity,
            append_max: units(zoned.append_max_bytes).min(capacity),
            free_zones: store.free_zones as usize,
            map: vec![NONE; units(app_bytes) as usize],
            owner: vec![NONE; zones as usize * capacity as usize],
            live: vec![0; zones as usize],
            written: vec![0; zones as usize],
            free: (0..zones).collect(),
            open: vec![None; classes],
            cleaner: None,
            pending: VecDeque::new(),
            issued: VecDeque::new(),
            moving: Vec::new(),
            counters: StoreCounters::default(),
        }
    }

    pub fn counters(&self) -> StoreCounters {
        self.counters
    }

    /// The app host's counters (None for a synthetic job).
    pub fn app_counters(&self) -> Option<AppCounters> {
        match &self.app {
            StoreApp::Host(h) => Some(h.counters()),
            StoreApp::Job { .. } => None,
        }
    }

    /// Live app units in each zone.
    pub fn live_units(&self) -> &[u32] {
        &self.live
    }

    /// The next commands: the cleaner's, when free zones are down to the threshold and a zone
    /// is worth cleaning, else the app's next write.
    fn plan(&mut self, rng: &mut Rng) {
        if self.free.len() <= self.free_zones && self.clean() {
            return;
        }
        let app = loop {
            let app = self.app.next(rng);
            match app.op {
                Op::Trim => self.kill(app.lpa, app.units),
                Op::Read => {
                    if self.read(app.lpa, app.units) {
                        return;
                    }
                }
                _ => break app,
            }
        };
        // The write appended to its class's open zone; what does not fit there goes to the
        // next (a zone ends full, never padded).
        let class = app.tag as usize;
        let mut lpa = app.lpa;
        while lpa < app.lpa + app.units {
            let zone = match self.open[class] {
                Some(z) => z,
                None => {
                    let z = self.take_free();
                    self.open[class] = Some(z);
                    z
                }
            };
            let units = (app.lpa + app.units - lpa).min(self.capacity - self.written[zone as usize]);
            self.moving.clear();
            self.moving.extend(lpa..lpa + units);
            let at = self.place(zone);
            if self.written[zone as usize] == self.capacity {
                self.open[class] = None;
            }
            self.push(Op::Append, self.start(zone), units, Kind::AppWrite, at);
            lpa += units;
        }
    }

    /// The app's units `lpa..lpa + units` are dead (its TRIM): their places are freed.
    fn kill(&mut self, lpa: u32, units: u32) {
        let end = (lpa + units).min(self.map.len() as u32);
        for unit in lpa..end {
            let old = std::mem::replace(&mut self.map[unit as usize], NONE);
            if old != NONE {
                let (oz, off) = (old / self.zone_units, old % self.zone_units);
                self.owner[(oz * self.capacity + off) as usize] = NONE;
                self.live[oz as usize] -= 1;
            }
        }
    }

    /// The app's read of `lpa..lpa + units`: a read of each run of them stored together (its
    /// unwritten units read nothing). False if none is stored.
    fn read(&mut self, lpa: u32, units: u32) -> bool {
        let mut any = false;
        let mut unit = lpa;
        while unit < lpa + units {
            let at = self.map[unit as usize];
            if at == NONE {
                unit += 1;
                continue;
            }
            let mut len = 1;
            // A run ends at a zone's end: a read stays in its zone.
            while unit + len < lpa + units
                && self.map[(unit + len) as usize] == at + len
                && !(at + len).is_multiple_of(self.zone_units)
            {
                len += 1;
            }
            self.push(Op::Read, at, len, Kind::AppRead, NONE);
            any = true;
            unit += len;
        }
        any
    }

    /// Greedy cleaning: the full zone with the fewest live units (the lowest numbered of
    /// equals), each run of its live units read and appended to the cleaner's zone, then the
    /// zone reset. False if no zone is full yet.
    fn clean(&mut self) -> bool {
        let victim = (0..self.live.len() as u32)
            .filter(|&z| self.written[z as usize] == self.capacity)
            .min_by_key(|&z| self.live[z as usize]);
        let Some(victim) = victim else { return false };
        let base = (victim * self.capacity) as usize;
        let mut offset = 0;
        while offset < self.capacity {
            if self.owner[base + offset as usize] == NONE {
                offset += 1;
                continue;
            }
            let to = match self.cleaner {
                Some(z) => z,
                None => {
                    let z = self.take_free();
                    self.cleaner = Some(z);
                    z
                }
            };
            let most = self.append_max.min(self.capacity - self.written[to as usize]);
            let mut len = 1;
            while len < most && offset + len < self.capacity && self.owner[base + (offset + len) as usize] != NONE {
                len += 1;
            }
            let from = base + offset as usize;
            self.moving.clear();
            self.moving.extend_from_slice(&self.owner[from..from + len as usize]);
            self.push(Op::Read, self.start(victim) + offset, len, Kind::CleanerRead, NONE);
            let at = self.place(to);
            self.push(Op::Append, self.start(to), len, Kind::CleanerWrite, at);
            if self.written[to as usize] == self.capacity {
                self.cleaner = None;
            }
            offset += len;
        }
        debug_assert_eq!(self.live[victim as usize], 0, "zone {victim} emptied");
        self.push(Op::ZoneReset, self.start(victim), 0, Kind::Reset, NONE);
        self.written[victim as usize] = 0;
        self.free.push_back(victim);
        true
    }

    /// An empty zone. The checks of the run keep one: cleaning starts with `free_zones` (at
    /// least 1) left, a victim's live data takes at most one more, and its reset gives one back.
    fn take_free(&mut self) -> u32 {
        self.free.pop_front().expect("the cleaner keeps a zone free")
    }

    /// The units in `moving` appended to `zone` at its write pointer: their old places die, their
    /// new LBAs (from the returned one on) are mapped.
    fn place(&mut self, zone: u32) -> u32 {
        let z = zone as usize;
        let at = self.start(zone) + self.written[z];
        let slot = z * self.capacity as usize + self.written[z] as usize;
        for (i, &unit) in self.moving.iter().enumerate() {
            let old = self.map[unit as usize];
            if old != NONE {
                let (oz, off) = (old / self.zone_units, old % self.zone_units);
                self.owner[(oz * self.capacity + off) as usize] = NONE;
                self.live[oz as usize] -= 1;
            }
            self.map[unit as usize] = at + i as u32;
            self.owner[slot + i] = unit;
        }
        let n = self.moving.len() as u32;
        self.live[z] += n;
        self.written[z] += n;
        at
    }

    fn start(&self, zone: u32) -> u32 {
        zone * self.zone_units
    }

    fn push(&mut self, op: Op, lba: u32, units: u32, kind: Kind, append_at: u32) {
        let bytes = units * UNIT_BYTES as u32;
        let req = Request::at(op, lba as u64 * UNIT_BYTES, bytes);
        self.pending.push_back((req, Issued { kind, units, append_at }));
    }
}

impl WorkloadSource for ZoneStore {
    fn next(&mut self, rng: &mut Rng) -> Request {
        if self.pending.is_empty() {
            self.plan(rng);
        }
        let (req, issued) = self.pending.pop_front().expect("a planned command");
        self.issued.push_back(issued);
        req
    }

    /// The drive's answer to the oldest command handed out (the host draws commands ahead, and
    /// issues and answers them in the order drawn).
    fn completed(&mut self, completion: Completion) -> Origin {
        let Issued { kind, units, append_at } = self.issued.pop_front().expect("an answer per command");
        let origin = if matches!(kind, Kind::AppWrite | Kind::AppRead) { Origin::App } else { Origin::Cleaner };
        let taken = match append_at {
            NONE => completion.accepted(),
            lpa => completion == Completion::Appended { lpa },
        };
        if !taken {
            self.counters.refused += 1;
            return origin;
        }
        let bytes = units as u64 * UNIT_BYTES;
        let c = &mut self.counters;
        match kind {
            Kind::AppWrite => c.app_write_bytes += bytes,
            Kind::CleanerWrite => c.cleaner_write_bytes += bytes,
            Kind::CleanerRead => c.cleaner_read_bytes += bytes,
            Kind::Reset => c.resets += 1,
            Kind::AppRead => {}
        }
        origin
    }
}
