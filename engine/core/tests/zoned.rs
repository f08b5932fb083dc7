//! Zoned namespaces (issue 21, phase 4): zones written at their write pointers and reset whole,
//! on a small drive defined here. The drive never moves data (device WA exactly 1, GC moves 0),
//! each broken rule fails with its NVMe status, and the open and active counts follow the
//! zones' states (docs/design/placement.md, sections 3 and 6.5).

use std::collections::HashMap;

use ssdlab_core::command::{Completion, Op, Request, Status};
use ssdlab_core::config::{Isolation, PlacementConfig, PlacementKind, Precondition, RunConfig, WorkloadSpec};
use ssdlab_core::drive::zoned::ZoneState;
use ssdlab_core::drive::Drive;
use ssdlab_core::rng::Rng;
use ssdlab_core::{presets, DriveConfig};

use crate::common::{zoned_over, MIB};

/// 4 KiB units in a zone (and its capacity): 4 blocks of 128 units on each of its 2 dies.
const ZONE_UNITS: u32 = 1024;

/// The small zoned drive with zones over both dies.
fn zoned_drive(max_open: u32, max_active: u32) -> DriveConfig {
    zoned_over(2, max_open, max_active)
}

/// The drive alone (the tests below are its host): a run of reads only builds it, as a zoned
/// drive takes no workload writing outside its zones.
fn drive(d: DriveConfig) -> Drive {
    let mut cfg = RunConfig::new(d, WorkloadSpec::by_id("sequential-read").unwrap(), 10);
    cfg.precondition = Precondition::None;
    cfg.validate().unwrap();
    Drive::new(&cfg).unwrap()
}

/// A command on `units` 4 KiB units from unit `lpa`.
fn command(op: Op, lpa: u32, units: u32) -> Request {
    Request::at(op, lpa as u64 * 4096, units * 4096)
}

/// A host at queue depth 1: each command issues when the last completed.
struct Host {
    drive: Drive,
    now_ns: u64,
}

impl Host {
    fn new(d: DriveConfig) -> Self {
        Host { drive: drive(d), now_ns: 0 }
    }

    fn run(&mut self, op: Op, lpa: u32, units: u32) -> Completion {
        let (done_ns, completion) = self.drive.submit(command(op, lpa, units), self.now_ns);
        assert!(done_ns > self.now_ns, "{op:?} at {lpa} completed at {done_ns}, issued at {}", self.now_ns);
        self.now_ns = done_ns;
        completion
    }

    fn state(&self, zone: u32) -> ZoneState {
        self.drive.zones().unwrap().state(zone)
    }

    fn write_pointer(&self, zone: u32) -> u32 {
        self.drive.zones().unwrap().write_pointer(zone)
    }

    /// The open and active counts the drive keeps agree with its zones' states.
    fn check_counts(&self) {
        let zones = self.drive.zones().unwrap();
        let states: Vec<ZoneState> = (0..zones.count()).map(|z| zones.state(z)).collect();
        let open = states.iter().filter(|s| s.is_open()).count() as u32;
        let active = states.iter().filter(|s| s.is_active()).count() as u32;
        assert_eq!((zones.open_zones(), zones.active_zones()), (open, active), "counts against states {states:?}");
    }
}

/// fio's `zonemode=zbd` in small: 64 KiB writes, each at the write pointer of a zone drawn at
/// random from the `open` zones being written; a zone that fills is replaced by one drawn from
/// the rest, reset first if it holds data. One write in 512 resets its zone instead (fio's
/// `zone_reset_frequency`; about one zone in nine), so zones also end inside a block.
fn rewrite_zones(host: &mut Host, open: usize, bytes: u64, seed: u64) {
    let mut rng = Rng::new(seed);
    let zones = host.drive.zones().unwrap().count();
    let mut writing: Vec<u32> = Vec::new();
    let mut written = 0;
    while written < bytes {
        while writing.len() < open {
            let zone = rng.below(zones as u64) as u32;
            if writing.contains(&zone) {
                continue;
            }
            if host.state(zone) != ZoneState::Empty {
                assert_eq!(host.run(Op::ZoneReset, zone * ZONE_UNITS, 0), Completion::Done);
            }
            writing.push(zone);
        }
        let i = rng.below(writing.len() as u64) as usize;
        let zone = writing[i];
        if rng.below(512) == 0 && host.state(zone) != ZoneState::Empty {
            assert_eq!(host.run(Op::ZoneReset, zone * ZONE_UNITS, 0), Completion::Done);
            writing.swap_remove(i);
            continue;
        }
        let wp = host.write_pointer(zone);
        assert_eq!(host.run(Op::Write, wp, 16), Completion::Done, "write at {wp} in zone {zone}");
        written += 64 << 10;
        if host.state(zone) == ZoneState::Full {
            writing.swap_remove(i);
        }
    }
    host.check_counts();
}

/// Which zone's live data each block holds: a block with two zones' is an error.
fn zones_by_block(drive: &Drive) -> Result<HashMap<u32, u32>, String> {
    let ftl = drive.ftl();
    let zones = drive.zones().unwrap().count();
    let mut owner = HashMap::new();
    for lpa in 0..zones * ZONE_UNITS {
        let ppa = ftl.ppa_of(lpa);
        if ppa == u32::MAX {
            continue;
        }
        let zone = lpa / ZONE_UNITS;
        let block = ppa / ftl.slots_per_block();
        if let Some(other) = owner.insert(block, zone).filter(|&z| z != zone) {
            return Err(format!("block {block} holds zones {other} and {zone}"));
        }
    }
    Ok(owner)
}

#[test]
fn zones_rewritten_many_times_are_never_copied() {
    for zone_dies in [2, 1] {
        let mut host = Host::new(zoned_over(zone_dies, 4, 8));
        // Ten drive writes: every block erased and reused several times over.
        rewrite_zones(&mut host, 4, 10 * 480 * MIB, 21);
        let c = host.drive.counters();
        eprintln!(
            "zones over {zone_dies} dies: host {} MiB, NAND {} MiB ({} MiB of it map journal), {} GC moves, {} erases",
            c.host_write_bytes / MIB,
            c.nand_write_bytes / MIB,
            c.map_write_bytes / MIB,
            c.gc_moves,
            c.erases
        );
        assert_eq!(c.gc_moves, 0);
        // Every NAND program of data is a host write: device WA exactly 1 (map journal pages apart).
        assert_eq!(c.nand_write_bytes - c.map_write_bytes, c.host_write_bytes);
        assert!(c.host_write_bytes >= 10 * 480 * MIB);
        // 9,600 blocks' worth written on 1,024 blocks: all but those in use at the end erased.
        let filled = c.host_write_bytes / (512 << 10);
        assert!(c.erases + 1024 >= filled, "{} erases for {filled} blocks filled", c.erases);
        assert!(!host.drive.ftl().worn_out());
        // A full zone fills whole blocks on its own dies: 8 blocks, split evenly over them.
        let zones = host.drive.zones().unwrap();
        let mut blocks_of: HashMap<u32, Vec<u32>> = HashMap::new();
        for (block, zone) in zones_by_block(&host.drive).unwrap() {
            blocks_of.entry(zone).or_default().push(block);
        }
        let full: Vec<u32> = (0..zones.count()).filter(|&z| zones.state(z) == ZoneState::Full).collect();
        assert!(full.len() > 20, "{} full zones", full.len());
        for zone in full {
            let dies: Vec<u32> = blocks_of[&zone].iter().map(|b| b / 512).collect();
            let expected: Vec<u32> = (0..2).filter(|d| zone_dies == 2 || d % 2 == zone % 2).collect();
            for die in 0..2 {
                let on_die = dies.iter().filter(|&&d| d == die).count();
                let wanted = if expected.contains(&die) { 8 / zone_dies as usize } else { 0 };
                assert_eq!(on_die, wanted, "zone {zone}: blocks on die {die}");
            }
        }
        host.drive.ftl().check_invariants().unwrap();
    }
}

#[test]
fn each_broken_rule_fails_with_its_status() {
    let mut host = Host::new(zoned_drive(2, 3));
    let failed = |s: Status| Completion::Failed(s);
    let (z0, z1, z2, z3) = (0, ZONE_UNITS, 2 * ZONE_UNITS, 3 * ZONE_UNITS);
    assert_eq!(host.run(Op::Write, z0, 16), Completion::Done);
    // Not at the write pointer (16): before it, after it, in an empty zone past its start.
    assert_eq!(host.run(Op::Write, z0, 16), failed(Status::ZoneInvalidWrite));
    assert_eq!(host.run(Op::Write, z0 + 32, 16), failed(Status::ZoneInvalidWrite));
    assert_eq!(host.run(Op::Write, z1 + 8, 8), failed(Status::ZoneInvalidWrite));
    // Across the zone's capacity.
    assert_eq!(host.run(Op::Write, z0 + 16, ZONE_UNITS), failed(Status::ZoneBoundaryError));
    assert_eq!(host.write_pointer(0), 16, "a failed write moves no write pointer");
    // Two open zones at most: a third fails; closing one lets it open.
    assert_eq!(host.run(Op::Write, z1, 16), Completion::Done);
    assert_eq!(host.run(Op::Write, z2, 16), failed(Status::TooManyOpenZones));
    assert_eq!(host.run(Op::ZoneClose, z1, 0), Completion::Done);
    assert_eq!(host.state(1), ZoneState::Closed);
    assert_eq!(host.run(Op::Write, z2, 16), Completion::Done);
    host.check_counts();
    // Three active zones at most (two open, one closed): a fourth fails even with one closed.
    assert_eq!(host.run(Op::ZoneClose, z2, 0), Completion::Done);
    assert_eq!(host.run(Op::Write, z3, 16), failed(Status::TooManyActiveZones));
    assert_eq!(host.run(Op::ZoneOpen, z3, 0), failed(Status::TooManyActiveZones));
    host.check_counts();
    // Finish makes a zone full: a write to it fails, and so do open and close.
    assert_eq!(host.run(Op::ZoneFinish, z0, 0), Completion::Done);
    assert_eq!(host.state(0), ZoneState::Full);
    assert_eq!(host.run(Op::Write, z0 + 16, 16), failed(Status::ZoneIsFull));
    assert_eq!(host.run(Op::ZoneOpen, z0, 0), failed(Status::InvalidZoneStateTransition));
    assert_eq!(host.run(Op::ZoneClose, z0, 0), failed(Status::InvalidZoneStateTransition));
    // Closing an empty zone is no transition either; management names a zone by its start.
    assert_eq!(host.run(Op::ZoneClose, z3, 0), failed(Status::InvalidZoneStateTransition));
    assert_eq!(host.run(Op::ZoneReset, z3 + 1, 0), failed(Status::InvalidField));
    // A reset empties a full zone, and its write pointer is back at its start.
    assert_eq!(host.run(Op::ZoneReset, z0, 0), Completion::Done);
    assert_eq!((host.state(0), host.write_pointer(0)), (ZoneState::Empty, z0));
    assert_eq!(host.drive.ftl().ppa_of(z0), u32::MAX, "a reset unmaps the zone");
    host.check_counts();
    // Each status has its NVMe code.
    let codes = [
        (Status::ZoneBoundaryError, 0x1b8),
        (Status::ZoneIsFull, 0x1b9),
        (Status::ZoneInvalidWrite, 0x1bc),
        (Status::TooManyActiveZones, 0x1bd),
        (Status::TooManyOpenZones, 0x1be),
        (Status::InvalidZoneStateTransition, 0x1bf),
    ];
    for (status, code) in codes {
        assert_eq!(status.code(), code, "{}", status.name());
    }
    host.drive.ftl().check_invariants().unwrap();
}

#[test]
fn zone_append_writes_at_the_write_pointer_and_says_where() {
    let mut host = Host::new(zoned_drive(2, 2));
    // A zone opened explicitly, before any write, takes writes and stays explicitly opened.
    let zone = 6 * ZONE_UNITS;
    assert_eq!(host.run(Op::ZoneOpen, zone, 0), Completion::Done);
    assert_eq!(host.run(Op::Append, zone, 16), Completion::Appended { lpa: zone });
    assert_eq!(host.run(Op::Write, zone + 16, 16), Completion::Done);
    assert_eq!(host.state(6), ZoneState::ExplicitlyOpened);
    assert_eq!(host.run(Op::ZoneFinish, zone, 0), Completion::Done);
    let zone = 5 * ZONE_UNITS;
    let mut expected = zone;
    for units in [16, 1, 64, 7] {
        assert_eq!(host.run(Op::Append, zone, units), Completion::Appended { lpa: expected });
        expected += units;
        assert_eq!(host.write_pointer(5), expected);
    }
    assert_eq!(host.state(5), ZoneState::ImplicitlyOpened);
    // An append names the zone's start, and carries at most append_max_bytes (256 KiB).
    assert_eq!(host.run(Op::Append, expected, 16), Completion::Failed(Status::InvalidField));
    assert_eq!(host.run(Op::Append, zone, 65), Completion::Failed(Status::InvalidField));
    // A write at the pointer an append left is in order.
    assert_eq!(host.run(Op::Write, expected, 8), Completion::Done);
    // Appends fill the zone to its capacity and no further.
    let mut wp = expected + 8;
    while wp < zone + ZONE_UNITS {
        let units = 64.min(zone + ZONE_UNITS - wp);
        assert_eq!(host.run(Op::Append, zone, units), Completion::Appended { lpa: wp });
        wp += units;
    }
    assert_eq!(host.state(5), ZoneState::Full);
    assert_eq!(host.run(Op::Append, zone, 1), Completion::Failed(Status::ZoneIsFull));
    host.check_counts();
    assert_eq!(host.drive.zones().unwrap().active_zones(), 0);
    host.drive.ftl().check_invariants().unwrap();
}

#[test]
fn a_conventional_drive_refuses_zone_commands() {
    let mut d = zoned_drive(2, 2);
    d.zoned = None;
    let mut host = Host { drive: drive(d), now_ns: 0 };
    for op in [Op::Append, Op::ZoneReset, Op::ZoneFinish, Op::ZoneOpen, Op::ZoneClose] {
        assert_eq!(host.run(op, 0, 1), Completion::Failed(Status::InvalidOpcode), "{op:?}");
    }
    assert_eq!(host.run(Op::Write, 100, 1), Completion::Done);
}

#[test]
fn zoned_settings_are_checked_naming_the_field() {
    let refused = |edit: fn(&mut DriveConfig)| {
        let mut d = zoned_drive(4, 8);
        edit(&mut d);
        d.validate().err().unwrap_or_else(|| panic!("taken: {:?}, user_bytes {}", d.zoned, d.user_bytes))
    };
    let field = |edit: fn(&mut DriveConfig)| refused(edit).field;
    assert_eq!(field(|d| d.zoned.as_mut().unwrap().zone_dies = 3), "zoned.zone_dies");
    let capacity = refused(|d| d.zoned.as_mut().unwrap().zone_capacity_bytes = 7 * MIB / 2);
    assert_eq!(capacity.field, "zoned.zone_capacity_bytes");
    assert!(capacity.message.contains("a whole number of blocks on each of the zone's 2 dies"), "{}", capacity.message);
    let open = refused(|d| d.zoned.as_mut().unwrap().max_open_zones = 9);
    assert_eq!(
        (open.field.as_str(), open.message.as_str()),
        ("zoned.max_open_zones", "must be between 1 and 8 (got 9)")
    );
    assert_eq!(field(|d| d.zoned.as_mut().unwrap().max_active_zones = 17), "zoned.max_active_zones");
    assert_eq!(field(|d| d.zoned.as_mut().unwrap().append_max_bytes = 0), "zoned.append_max_bytes");
    assert_eq!(field(|d| d.zoned.as_mut().unwrap().zone_bytes = 7 * MIB), "zoned.zone_bytes");
    // Three zones of 300 blocks, each on one die: two of them on die 0, which has 512 blocks.
    let room = refused(|d| {
        let z = d.zoned.as_mut().unwrap();
        (z.zone_bytes, z.zone_capacity_bytes, z.zone_dies) = (150 * MIB, 150 * MIB, 1);
        d.user_bytes = 450 * MIB;
    });
    assert_eq!(room.field, "zoned.zone_capacity_bytes");
    // Die 0 holds two of them beside GC's 2 blocks and 8 open ones: 251 blocks each at most.
    assert_eq!(room.message, format!("must be between {} and {} (got {})", 512 << 10, 251 * (512 << 10), 150 * MIB));
    let cache = refused(|d| d.slc_cache = presets::by_id("980pro-1000").unwrap().slc_cache);
    assert_eq!(cache.field, "zoned");
    assert!(cache.message.contains("SLC cache"), "{}", cache.message);
    let placement = refused(|d| {
        d.placement = Some(PlacementConfig { kind: PlacementKind::Fdp, handles: 2, isolation: Isolation::Initial })
    });
    assert_eq!(placement.field, "zoned");
    // The run: no scheduled power cuts, no fill before it.
    let d = zoned_drive(4, 8);
    let mut cfg = RunConfig::new(d, WorkloadSpec::by_id("sequential-write").unwrap(), 10);
    let writes = cfg.validate().err().unwrap();
    assert!(writes.field == "phases[0].jobs[0] (sequential-write)" && writes.message.contains("zonemode=zbd"));
    cfg.workload = WorkloadSpec::by_id("sequential-read").unwrap();
    assert_eq!(cfg.validate().err().unwrap().field, "precondition");
    cfg.precondition = Precondition::None;
    cfg.power_cuts_ns = vec![1_000_000_000];
    assert_eq!(cfg.validate().err().unwrap().field, "power_cuts_s");
}
