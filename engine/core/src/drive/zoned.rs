//! A zoned namespace (NVMe ZNS) in front of the FTL (docs/design/placement.md, section 3).
//!
//! The LBA space is cut into zones; each is written only at its write pointer and reset whole.
//! A zone that is written (active) holds one of the FTL's host streams (`Stream::handle(slot)`)
//! and deals its pages over its own dies in turn, and its capacity is whole blocks on each of
//! them, so no block ever holds two zones. A reset unmaps what the zone held: its blocks hold
//! nothing valid, and GC (`Pacing::EraseOnly`) only erases them. Every NAND program of data is
//! a host write: device WA exactly 1.
//!
//! The rules and statuses are QEMU's emulated ZNS (`hw/nvme`): zone states, the write pointer,
//! Zone Append, the open and active limits, Zone Management Send's reset, finish, open, close.

use crate::command::{Completion, Op, Request, Status};
use crate::config::{DriveConfig, ZonedConfig};
use crate::units::UNIT_BYTES;

use super::ftl::Stream;
use super::Drive;

/// A zone's state (NVMe ZNS; Read Only and Offline are never entered: no media failures are
/// modelled).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoneState {
    Empty,
    ImplicitlyOpened,
    ExplicitlyOpened,
    Closed,
    Full,
}

impl ZoneState {
    /// Open: it takes writes now, and counts against `max_open_zones`.
    pub fn is_open(self) -> bool {
        matches!(self, ZoneState::ImplicitlyOpened | ZoneState::ExplicitlyOpened)
    }

    /// Active: open or closed, counted against `max_active_zones` (and holding a stream slot).
    pub fn is_active(self) -> bool {
        self.is_open() || self == ZoneState::Closed
    }
}

#[derive(Debug, Clone, Copy)]
struct Zone {
    state: ZoneState,
    /// The write pointer, units from the zone's start (the capacity once finished).
    wp: u32,
    /// Units written since the last reset (what a reset unmaps).
    written: u32,
    /// The stream slot it holds while active.
    slot: u8,
}

pub struct Zones {
    zone_units: u32,
    capacity_units: u32,
    zone_dies: u32,
    groups: u32,
    max_open: u32,
    max_active: u32,
    append_max_units: u32,
    zones: Vec<Zone>,
    /// Stream slots no active zone holds.
    free_slots: Vec<u8>,
    open: u32,
    active: u32,
    full: u32,
}

/// A write the zone layer took: where it goes and what it did to its zone.
struct Admitted {
    slot: u8,
    lpa: u32,
    /// The zone's first data: its slot starts on its dies.
    started: bool,
    /// The zone is full: its last blocks close.
    filled: bool,
    zone: u32,
}

/// What a Zone Management Send leaves for the drive to do.
#[derive(Default)]
struct Ended {
    /// The slot of an active zone that ended (finished or reset): its page is flushed and its
    /// open blocks closed.
    slot: Option<u8>,
    /// Units a reset unmaps, from the zone's first.
    unmap: u32,
    /// A reset emptied the zone (it was not empty already).
    reset: bool,
}

impl Zones {
    pub fn new(z: &ZonedConfig, drive: &DriveConfig) -> Self {
        let units = |bytes: u64| (bytes / UNIT_BYTES) as u32;
        let count = z.zones(drive) as usize;
        let empty = Zone { state: ZoneState::Empty, wp: 0, written: 0, slot: 0 };
        Zones {
            zone_units: units(z.zone_bytes),
            capacity_units: units(z.zone_capacity_bytes),
            zone_dies: z.zone_dies,
            groups: drive.geometry.dies / z.zone_dies,
            max_open: z.max_open_zones,
            max_active: z.max_active_zones,
            append_max_units: units(z.append_max_bytes),
            zones: vec![empty; count],
            free_slots: (0..z.max_active_zones as u8).rev().collect(),
            open: 0,
            active: 0,
            full: 0,
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.zones.capacity() * std::mem::size_of::<Zone>() + self.free_slots.capacity()) as u64
    }

    pub fn count(&self) -> u32 {
        self.zones.len() as u32
    }

    pub fn state(&self, zone: u32) -> ZoneState {
        self.zones[zone as usize].state
    }

    /// Zone `zone`'s write pointer, as an LBA (4 KiB units).
    pub fn write_pointer(&self, zone: u32) -> u32 {
        zone * self.zone_units + self.zones[zone as usize].wp
    }

    /// Zones open now (implicitly or explicitly).
    pub fn open_zones(&self) -> u32 {
        self.open
    }

    /// Zones active now (open or closed).
    pub fn active_zones(&self) -> u32 {
        self.active
    }

    /// Zones full now (written to their capacity, or finished).
    pub fn full_zones(&self) -> u32 {
        self.full
    }

    /// The zone's first LBA (4 KiB units).
    pub fn start(&self, zone: u32) -> u32 {
        zone * self.zone_units
    }

    /// The dies zone `zone` is striped over: its first and how many.
    fn dies_of(&self, zone: u32) -> (u32, u32) {
        ((zone % self.groups) * self.zone_dies, self.zone_dies)
    }

    /// The zone `lpa` lies in, if it lies in one.
    fn zone_of(&self, lpa: u32) -> Option<u32> {
        let zone = lpa / self.zone_units;
        ((zone as usize) < self.zones.len()).then_some(zone)
    }

    /// Takes the open (and, from Empty, active) resources a zone in `state` needs to be opened;
    /// the active limit is checked first, as QEMU's `nvme_aor_check` does.
    fn open_from(&mut self, zone: u32) -> Result<(), Status> {
        let z = self.zones[zone as usize];
        if z.state.is_open() {
            return Ok(());
        }
        if z.state == ZoneState::Empty && self.active >= self.max_active {
            return Err(Status::TooManyActiveZones);
        }
        if self.open >= self.max_open {
            return Err(Status::TooManyOpenZones);
        }
        if z.state == ZoneState::Empty {
            self.active += 1;
            self.zones[zone as usize].slot = self.free_slots.pop().expect("a slot per active zone");
        }
        self.open += 1;
        Ok(())
    }

    /// The zone leaves the active states (full or reset): its open and active resources and its
    /// slot are given back; returns the slot if it held one.
    fn deactivate(&mut self, zone: u32) -> Option<u8> {
        let z = self.zones[zone as usize];
        self.open -= z.state.is_open() as u32;
        if !z.state.is_active() {
            return None;
        }
        self.active -= 1;
        self.free_slots.push(z.slot);
        Some(z.slot)
    }

    /// A write (or Zone Append: `append`) of `req`'s units: checked against the zone's state,
    /// write pointer, capacity and the open and active limits, in QEMU's order; on success the
    /// write pointer moves past it.
    fn admit(&mut self, req: &Request, append: bool) -> Result<Admitted, Status> {
        if req.partial_head || req.partial_tail {
            return Err(Status::InvalidField); // a zoned namespace's LBA here is 4 KiB
        }
        let zone = self.zone_of(req.lpa).ok_or(Status::InvalidField)?;
        let z = self.zones[zone as usize];
        let start = self.start(zone);
        if append && (req.lpa != start || req.units > self.append_max_units) {
            return Err(Status::InvalidField);
        }
        if z.state == ZoneState::Full {
            return Err(Status::ZoneIsFull);
        }
        if !append && req.lpa != start + z.wp {
            return Err(Status::ZoneInvalidWrite);
        }
        if z.wp + req.units > self.capacity_units {
            return Err(Status::ZoneBoundaryError);
        }
        // Its first data since it became active (written, or explicitly opened, from Empty).
        let started = z.wp == 0;
        self.open_from(zone)?;
        let z = &mut self.zones[zone as usize];
        if !z.state.is_open() {
            z.state = ZoneState::ImplicitlyOpened;
        }
        let lpa = start + z.wp;
        z.wp += req.units;
        z.written += req.units;
        let (slot, filled) = (z.slot, z.wp == self.capacity_units);
        if filled {
            self.deactivate(zone);
            self.zones[zone as usize].state = ZoneState::Full;
            self.full += 1;
        }
        Ok(Admitted { slot, lpa, started, filled, zone })
    }

    /// Zone Management Send on the zone starting at `lpa`: the state change QEMU makes, or
    /// Invalid Zone State Transition.
    fn manage(&mut self, op: Op, lpa: u32) -> Result<Ended, Status> {
        let zone = self.zone_of(lpa).filter(|&z| self.start(z) == lpa).ok_or(Status::InvalidField)?;
        let state = self.zones[zone as usize].state;
        let mut ended = Ended::default();
        match (op, state) {
            (Op::ZoneReset, ZoneState::Empty) => {}
            (Op::ZoneReset, _) => {
                self.full -= (state == ZoneState::Full) as u32;
                ended.reset = true;
                ended.slot = self.deactivate(zone);
                let z = &mut self.zones[zone as usize];
                ended.unmap = z.written;
                (z.state, z.wp, z.written) = (ZoneState::Empty, 0, 0);
            }
            (Op::ZoneFinish, ZoneState::Full) => {}
            (Op::ZoneFinish, _) => {
                self.full += 1;
                ended.slot = self.deactivate(zone);
                let z = &mut self.zones[zone as usize];
                (z.state, z.wp) = (ZoneState::Full, self.capacity_units);
            }
            (Op::ZoneOpen, ZoneState::Empty | ZoneState::Closed | ZoneState::ImplicitlyOpened) => {
                self.open_from(zone)?;
                self.zones[zone as usize].state = ZoneState::ExplicitlyOpened;
            }
            (Op::ZoneOpen, ZoneState::ExplicitlyOpened) => {}
            (Op::ZoneClose, ZoneState::ImplicitlyOpened | ZoneState::ExplicitlyOpened) => {
                self.open -= 1;
                self.zones[zone as usize].state = ZoneState::Closed;
            }
            (Op::ZoneClose, ZoneState::Closed) => {}
            _ => return Err(Status::InvalidZoneStateTransition),
        }
        Ok(ended)
    }
}

impl Drive {
    /// The zone layer, on a zoned drive.
    pub fn zones(&self) -> Option<&Zones> {
        self.zones.as_deref()
    }

    /// A command on a zoned drive: reads and TRIMs as on any drive; writes and Zone Appends at
    /// the zone's write pointer, through the zone's stream slot; zone management.
    #[inline(never)]
    pub(super) fn submit_zoned(&mut self, mut req: Request, issue_ns: u64) -> (u64, Completion) {
        let zones = self.zones.as_deref_mut().expect("a zoned drive");
        match req.op {
            Op::Read | Op::Trim => self.execute(req, issue_ns),
            Op::Write | Op::Append if self.flash.ftl.worn_out() => {
                self.execute(Request { op: Op::Write, ..req }, issue_ns)
            }
            Op::Write | Op::Append => {
                let append = req.op == Op::Append;
                let w = match zones.admit(&req, append) {
                    Ok(w) => w,
                    Err(status) => return self.refuse(issue_ns, status),
                };
                let (first_die, dies) = zones.dies_of(w.zone);
                if w.started {
                    self.writes.start_zone(w.slot, first_die, dies);
                }
                req =
                    Request { op: Op::Write, lpa: w.lpa, offset_bytes: w.lpa as u64 * UNIT_BYTES, tag: w.slot, ..req };
                let (done_ns, completion) = self.execute(req, issue_ns);
                if w.filled {
                    // Its last page is programmed by now (the capacity is whole pages on each die).
                    self.end_zone(w.slot, first_die, dies, done_ns);
                }
                match completion {
                    Completion::Done if append => (done_ns, Completion::Appended { lpa: w.lpa }),
                    other => (done_ns, other),
                }
            }
            Op::ZoneReset | Op::ZoneFinish | Op::ZoneOpen | Op::ZoneClose => {
                let zone = req.lpa / zones.zone_units;
                let ended = match zones.manage(req.op, req.lpa) {
                    Ok(ended) => ended,
                    Err(status) => return self.refuse(issue_ns, status),
                };
                let (first_die, dies) = zones.dies_of(zone);
                self.flash.set_now(issue_ns);
                let t = self.interface.admit(issue_ns);
                let t = self.interface.send_command(t, 0, issue_ns);
                let mut done_ns = self.flash.firmware.run(t, self.cfg.controller.write_overhead_ns);
                if let Some(slot) = ended.slot {
                    done_ns = done_ns.max(self.end_zone(slot, first_die, dies, done_ns));
                }
                self.flash.counters.zone_resets += ended.reset as u64;
                let start = req.lpa;
                for lpa in start..start + ended.unmap {
                    self.flash.ftl.trim(lpa);
                }
                self.interface.complete(done_ns);
                (done_ns, Completion::Done)
            }
        }
    }

    /// A zone left the active states: what waits of it in the buffer is programmed (padded), and
    /// its open blocks close where they stand, so the slot's next zone starts blocks of its own.
    /// Returns when its data is stored.
    fn end_zone(&mut self, slot: u8, first_die: u32, dies: u32, t: u64) -> u64 {
        let stored = self.writes.flush_handle(slot, t, &mut self.flash, &mut self.gc);
        for die in first_die..first_die + dies {
            self.flash.ftl.close_open(die, Stream::handle(slot));
        }
        stored
    }

    /// A command the zone layer refuses: it crosses the link and the controller fails it.
    fn refuse(&mut self, issue_ns: u64, status: Status) -> (u64, Completion) {
        self.flash.set_now(issue_ns);
        let t = self.interface.admit(issue_ns);
        let done_ns = self.reject_write(t, issue_ns);
        self.interface.complete(done_ns);
        (done_ns, Completion::Failed(status))
    }
}
