//! fio's zone and data placement options (issue 21, phase 5; docs/design/placement.md,
//! section 5): `zonemode=zbd` job files write a zoned drive at its zones' write pointers with
//! no refused command and device WA exactly 1; on a conventional drive fio's emulated zones are
//! written in order; zone options that do not fit the drive are refused with their line; FDP's
//! `plids` and `plid_select` spread writes over the drive's placement handles.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::common::{placement_drive, zoned_over, MIB};
use ssdlab_core::bench::{Completion, Observer};
use ssdlab_core::command::Op;
use ssdlab_core::config::{Precondition, RunConfig, WorkloadSpec};
use ssdlab_core::host::fio::{import_for, Device, FioJobFile};
use ssdlab_core::{Bench, DriveConfig};

fn device(drive: &DriveConfig) -> Device {
    Device::of(drive, drive.user_bytes)
}

fn import(text: &str, drive: &DriveConfig) -> FioJobFile {
    import_for(text, &device(drive)).unwrap_or_else(|e| panic!("{}: {}", e.field, e.message))
}

fn refusal(text: &str, drive: &DriveConfig) -> String {
    import_for(text, &device(drive)).expect_err("refused").message
}

/// The job file's run on `drive`, from a secure erase.
fn bench(text: &str, drive: DriveConfig) -> Bench {
    let file = import(text, &drive);
    let mut cfg = RunConfig::new(drive, WorkloadSpec::by_id("sequential-write").unwrap(), 3600);
    cfg.precondition = Precondition::None;
    cfg.phases = file.phases;
    Bench::new(cfg).unwrap()
}

/// Every write's place and length, in issue order (at queue depth 1, completion order).
#[derive(Default)]
struct Writes(Rc<RefCell<Vec<(u64, u32)>>>);

impl Observer for Writes {
    fn completed(&mut self, c: &Completion) -> bool {
        if c.op == Op::Write {
            self.0.borrow_mut().push((c.offset_bytes, c.bytes));
        }
        false
    }
}

/// Random writes and a sequential job over their own zones (the drive's 4 open zones shared
/// out by job_max_open_zones), then a random job of mixed sizes over all of them: ten drive
/// writes, a zone picked while full reset first.
const ZBD: &str = "[global]
ioengine=io_uring
direct=1
zonemode=zbd
zonesize=4m
iodepth=8

[random]
rw=randwrite
bs=64k
size=240m
io_size=1920m
job_max_open_zones=3

[sequential]
rw=write
bs=128k
offset=240m
size=240m
io_size=960m

[mixed]
stonewall
rw=randwrite
bssplit=4k/20:64k/40:192k/40
io_size=1920m
";

#[test]
fn zbd_jobs_write_a_zoned_drive_at_its_write_pointers() {
    let mut bench = bench(ZBD, zoned_over(2, 4, 8));
    bench.run_to_end();
    let c = bench.drive().counters();
    eprintln!(
        "zbd: host {} MiB, NAND {} MiB ({} MiB map), {} GC moves, {} zone resets, {} refused",
        c.host_write_bytes / MIB,
        c.nand_write_bytes / MIB,
        c.map_write_bytes / MIB,
        c.gc_moves,
        bench.zone_resets(),
        bench.refused_commands()
    );
    assert_eq!(bench.refused_commands(), 0, "every write at a write pointer, every reset of a written zone");
    // Each job moves its io_size; a last write of mixed sizes may pass it.
    let planned = (1920 + 960 + 1920) * MIB;
    assert!((planned..planned + (192 << 10)).contains(&c.host_write_bytes), "{} bytes", c.host_write_bytes);
    // Device WA 1 but for the end: every NAND program of data is a host write (none a copy),
    // and when the jobs are done the drive programs the open zones' part pages, padded.
    let programmed = c.nand_write_bytes - c.map_write_bytes;
    let page = bench.config().drive.geometry.units_per_program() as u64 * 4096;
    assert!(
        programmed >= c.host_write_bytes && programmed - c.host_write_bytes < 4 * page,
        "{programmed} of {} programmed",
        c.host_write_bytes
    );
    assert_eq!(c.gc_moves, 0);
    // Ten drive writes over 120 zones: most zones were filled and reset several times.
    assert!(bench.zone_resets() > 500, "{} resets", bench.zone_resets());
    let zones = bench.drive().zones().unwrap();
    assert!(zones.open_zones() <= 4);
    bench.ftl().check_invariants().unwrap();
}

#[test]
fn zone_options_that_do_not_fit_the_drive_are_refused_by_line() {
    let zoned = zoned_over(2, 4, 8);
    let err = refusal("[a]\nrw=randwrite\nzonemode=zbd\nzonesize=8m\n", &zoned);
    assert!(
        err.starts_with("line 4: zonesize=8m: job parameter zonesize 8388608 does not match disk zone size 4194304"),
        "{err}"
    );
    // The drive's zone size is taken when none is given.
    let f = import("[a]\nrw=randwrite\nzonemode=zbd\n", &zoned);
    assert_eq!(f.phases[0].jobs[0].zones.as_ref().map(|z| (z.zone_bytes, z.max_open)), Some((4 * MIB, 4)));
    let err = refusal("[global]\nzonemode=zbd\n[a]\nrw=randwrite\nmax_open_zones=6\n", &zoned);
    assert!(
        err.starts_with("line 5: max_open_zones=6: Specified --max_open_zones (6) is larger than max (4)"),
        "{err}"
    );
    let f = import("[global]\nzonemode=zbd\n[a]\nrw=randwrite\nmax_open_zones=6\nignore_zone_limits=1\n", &zoned);
    assert_eq!(f.phases[0].jobs[0].zones.as_ref().unwrap().max_open, 6);
    let f = import("[global]\nzonemode=zbd\n[a]\nrw=randwrite\nmax_open_zones=2\nzonecapacity=2m\n", &zoned);
    assert_eq!(f.phases[0].jobs[0].zones.as_ref().map(|z| (z.capacity_bytes, z.max_open)), Some((4 * MIB, 2)));
    assert!(f.report.ignored.iter().any(|n| n.line == 6 && n.message.contains("fio takes its zone capacity")));
    // A job without zonemode=zbd on a zoned drive: its writes will fail, and the import says so.
    let f = import("[a]\nrw=randwrite\n", &zoned);
    assert!(f.report.notes.iter().any(|n| n.message.contains("Zone Invalid Write")), "{:?}", f.report.notes);
    // A range holding no whole zone.
    let err = refusal("[a]\nrw=write\nzonemode=zbd\noffset=1m\nsize=4m\n", &zoned);
    assert!(err.starts_with("line 4: offset=1m: io_size must be at least one zone"), "{err}");
}

#[test]
fn sizes_and_offsets_in_zones_count_the_job_s_zones() {
    // fio's 'z' suffix (size, io_size, offset, offset_increment, zoneskip): the drive's zones
    // in zonemode=zbd (4 MiB here), else the job's zonesize; as fio's examples use it.
    let range = |text: &str, drive: &DriveConfig| {
        let j = &import(text, drive).phases[0].jobs[0];
        (j.offset_bytes, j.size_bytes, j.io_limit_bytes)
    };
    let zoned = zoned_over(2, 4, 8);
    let zbd = "[a]\nrw=write\nbs=64k\nzonemode=zbd\noffset=2z\nsize=3z\nio_size=6z\n";
    assert_eq!(range(zbd, &zoned), (8 * MIB, 12 * MIB, 24 * MIB));
    let conventional = placement_drive(None);
    let emulated = "[global]\nzonemode=zbd\nzonesize=1m\n[a]\nrw=write\noffset=4z\nsize=2z\nzoneskip=0z\n";
    assert_eq!(range(emulated, &conventional), (4 * MIB, 2 * MIB, 2 * MIB));
    // zonemode=none with a zonesize: fio still counts in it.
    assert_eq!(range("[a]\nrw=write\nzonesize=1m\nsize=5z\n", &conventional).1, 5 * MIB);
    let err = refusal("[a]\nrw=write\nsize=2z\n", &conventional);
    assert!(err.starts_with("line 3: size=2z: '2z' counts zones, and the job has no zone size"), "{err}");
    let err = refusal("[a]\nrw=write\nbs=4z\n", &conventional);
    assert!(err.starts_with("line 3: bs=4z: '4z': the 'z' suffix (a number of zones) isn't applicable here"), "{err}");
    let err = refusal("[a]\nrw=write\nzonemode=zbd\noffset=az\n", &zoned);
    assert!(err.starts_with("line 4: offset=az: 'az' is not a number of zones"), "{err}");
}

#[test]
fn zbd_on_a_conventional_drive_writes_emulated_zones_in_order() {
    let drive = placement_drive(None);
    let text = "[global]\nzonemode=zbd\nzonesize=1m\nbs=16k\n[a]\nrw=randwrite\nsize=64m\nio_size=256m\n";
    let f = import(text, &drive);
    let note = f.report.notes.iter().find(|n| n.line == 2).expect("zonemode's note");
    assert!(
        note.message.starts_with("zonemode=zbd on a conventional drive: zones emulated as fio does"),
        "{}",
        note.message
    );
    let mut bench = bench(text, drive.clone());
    let writes = Writes::default();
    let seen = writes.0.clone();
    bench.observe(Box::new(writes));
    bench.run_to_end();
    // Resets send nothing (a conventional drive would refuse a Zone Management Send).
    assert_eq!(bench.refused_commands(), 0);
    assert!(bench.zone_resets() >= 64 * 3 - 64, "{} resets", bench.zone_resets());
    // Each write starts where the last write to its zone ended, or at the zone's start.
    let mut end: BTreeMap<u64, u64> = BTreeMap::new();
    let seen = seen.borrow();
    assert_eq!(seen.len() as u64, 256 * MIB / (16 << 10));
    for &(offset, bytes) in seen.iter() {
        let zone = offset / MIB;
        let at = offset % MIB;
        let last = end.get(&zone).copied().unwrap_or(0);
        assert!(at == last || at == 0 && last == MIB, "zone {zone}: write at {at}, its last ended at {last}");
        end.insert(zone, at + bytes as u64);
    }
    assert!(end.len() > 60, "{} zones written", end.len());

    // Without zonemode=zbd, fio ignores the zone options; strided access has its own reason.
    let f = import("[a]\nrw=randwrite\nzonesize=1m\nzonerange=1m\n", &drive);
    let ignored: Vec<&str> = f.report.ignored.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(ignored, ["zonemode=none: fio ignores zonesize", "zonemode=none: fio ignores zonerange"]);
    assert!(f.phases[0].jobs[0].zones.is_none());
    let f = import("[a]\nrw=randwrite\nzonemode=strided\nzonesize=1m\n", &drive);
    assert!(f.report.unsupported.iter().any(|n| n.line == 3 && n.message.starts_with("strided access")));
    assert!(f.phases[0].jobs[0].zones.is_none());
    // fio needs the zone size on a regular device.
    let err = refusal("[a]\nrw=randwrite\nzonemode=zbd\n", &drive);
    assert!(err.starts_with("line 3: zonemode=zbd: Specifying the zone size is mandatory"), "{err}");
}

/// The handle of each unit the run wrote, counted.
fn units_per_handle(bench: &Bench, units: u32) -> BTreeMap<u8, u32> {
    let mut counts = BTreeMap::new();
    for lpa in 0..units {
        if let Some(tag) = bench.ftl().tag_of(lpa) {
            *counts.entry(tag).or_insert(0) += 1;
        }
    }
    counts
}

#[test]
fn fdp_placement_ids_spread_writes_over_the_drives_handles() {
    let fdp = placement_drive(Some(4));
    // 64 MiB of 4 KiB writes, one pass: every unit written once.
    let job = |select: &str| {
        format!("[global]\nioengine=io_uring_cmd\nfdp=1\nbs=4k\nsize=64m\n[a]\nrw=randwrite\nplids=0-3\n{select}")
    };
    let units = (64 * MIB / 4096) as u32;
    let mut rr = bench(&job(""), fdp.clone());
    rr.run_to_end();
    let counts = units_per_handle(&rr, units);
    eprintln!("plids=0-3 round robin: units per handle {counts:?}");
    assert_eq!(counts.values().sum::<u32>(), units);
    for (&handle, &n) in &counts {
        // Round robin: a quarter each, to within the pages still buffered at the end.
        assert!((n as f64 / (units / 4) as f64 - 1.0).abs() < 0.02, "handle {handle}: {n} of {units} units");
    }
    assert_eq!(counts.len(), 4);
    let mut random = bench(&job("plid_select=random\n"), fdp.clone());
    random.run_to_end();
    let counts = units_per_handle(&random, units);
    eprintln!("plids=0-3 at random: units per handle {counts:?}");
    assert_eq!(counts.len(), 4);
    for (&handle, &n) in &counts {
        assert!((n as f64 / (units / 4) as f64 - 1.0).abs() < 0.05, "handle {handle}: {n} of {units} units");
    }
    // Indices the drive does not have are refused with their line.
    let err = refusal("[global]\nfdp=1\nbs=4k\n\n[a]\nrw=randwrite\nplids=0,5\n", &fdp);
    assert!(err.starts_with("line 7: plids=0,5: handle 5 is not one of this drive's 4"), "{err}");
    // A drive without placement handles: named, and the writes go untagged.
    let f = import("[a]\nrw=randwrite\nfdp=1\n", &placement_drive(None));
    assert!(f.report.unsupported.iter().any(|n| n.line == 3 && n.message.contains("has no FDP placement handles")));
    assert_eq!(f.phases[0].jobs[0].placement, ssdlab_core::config::Placement::Untagged);
    let f = import("[a]\nrw=randwrite\ndataplacement=streams\nplids=1\n", &fdp);
    assert!(f.report.unsupported.iter().any(|n| n.message.contains("has no stream placement handles")));
}

#[test]
fn zoned_jobs_are_checked_against_the_drive_they_run_on() {
    let f = import("[a]\nrw=randwrite\nbs=64k\nzonemode=zbd\n", &zoned_over(2, 4, 8));
    let run_on = |drive: DriveConfig| {
        let mut cfg = RunConfig::new(drive, WorkloadSpec::by_id("sequential-write").unwrap(), 10);
        cfg.precondition = Precondition::None;
        cfg.phases = f.phases.clone();
        cfg.validate().map(|_| ()).map_err(|e| (e.field, e.message))
    };
    assert_eq!(run_on(zoned_over(1, 4, 8)), Ok(()));
    let (field, message) = run_on(placement_drive(None)).unwrap_err();
    assert_eq!(field, "phases[0].jobs[0] (a).zones.device");
    assert!(message.contains("has no zones"), "{message}");
    let mut larger = zoned_over(2, 4, 8);
    let z = larger.zoned.as_mut().unwrap();
    (z.zone_bytes, z.zone_capacity_bytes) = (8 * MIB, 8 * MIB);
    let (field, message) = run_on(larger).unwrap_err();
    assert_eq!(field, "phases[0].jobs[0] (a).zones.zone_bytes");
    assert!(message.contains("has zones of 8388608 bytes"), "{message}");
}
