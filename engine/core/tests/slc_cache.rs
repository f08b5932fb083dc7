//! The SLC cache (issue 20) on a small, fast TLC drive defined here (no shipped preset): the
//! phases of a fill from a secure erase, each checked against the rate its timings give.

use ssdlab_core::config::{CellType, JobSpec, Phase, Precondition, RunConfig, SlcCacheConfig, WhenFull, WorkloadSpec};
use ssdlab_core::drive::nand::Work;
use ssdlab_core::{presets, Bench, DriveConfig};

const CACHE_BYTES: u64 = 512 << 20;
const SLC_PROGRAM_NS: u64 = 1_500_000;
const SLC_READ_NS: u64 = 50_000;
/// One-shot TLC: a wordline's three pages load, then program once.
const WORDLINE_NS: u64 = 6_000_000;

/// 4 dies on 4 channels, 16 KiB programs, 258-page blocks (1.4 MB in SLC mode), 4 GiB raw. The
/// controller, the link and GC stay out of the way, so the dies set every rate.
fn cache_drive(when_full: WhenFull) -> DriveConfig {
    let mut d = presets::by_id("s3700-200").unwrap();
    d.set_cell(CellType::Tlc, &[]);
    (d.geometry.channels, d.geometry.dies, d.geometry.planes, d.geometry.page_bytes) = (4, 4, 2, 8192);
    (d.geometry.pages_per_block, d.geometry.blocks_per_plane) = (258, 256);
    d.user_bytes = d.geometry.raw_bytes() * 3 / 4 / 4096 * 4096;
    (d.gc.start_free_blocks, d.gc.boost_below_free_blocks, d.gc.boost_until_free_blocks) = (6, 3, 5);
    d.gc.background_free_blocks = 8;
    (d.controller.gc_move_ns, d.controller.write_mb_s) = (0, 2000);
    d.timing.channel_mb_s = 400;
    (d.timing.program_ns, d.timing.program_ns_by_page) = (WORDLINE_NS, vec![0, 0, WORDLINE_NS]);
    (d.timing.slc_program_ns, d.timing.slc_read_ns) = (SLC_PROGRAM_NS, SLC_READ_NS);
    d.slc_cache = Some(SlcCacheConfig {
        dynamic_max_bytes: CACHE_BYTES,
        when_full,
        fold_while_writing_percent: 0,
        idle_fold: true,
        dynamic_share: None,
    });
    d.validate().unwrap();
    d
}

/// Sequential 128 KiB writes at QD 32 from a secure erase.
fn fill(drive: DriveConfig, seconds: u32) -> RunConfig {
    let workload = WorkloadSpec::by_id("sequential-write").unwrap();
    let mut cfg = RunConfig::new(drive, workload, seconds);
    (cfg.block_bytes, cfg.align_bytes, cfg.queue_depth) = (128 << 10, 128 << 10, 32);
    cfg.precondition = Precondition::None;
    cfg
}

/// What the timings give: one program's channel transfer, the bytes a program holds, and the
/// host's MB/s when every die programs SLC pages back to back.
struct Rates {
    xfer_ns: f64,
    program_bytes: f64,
    dies: f64,
    slc_mb_s: f64,
}

fn rates(d: &DriveConfig) -> Rates {
    let upp = d.geometry.units_per_program() as u64;
    let xfer_ns = (upp * d.timing.unit_transfer_ns()) as f64;
    let program_bytes = (upp * 4096) as f64;
    let dies = d.geometry.dies as f64;
    Rates { xfer_ns, program_bytes, dies, slc_mb_s: dies * program_bytes / (xfer_ns + SLC_PROGRAM_NS as f64) * 1e3 }
}

/// One SLC block's fold on a die: its stripes (returned) read in SLC mode and programmed
/// natively (a third of them a wordline's program), then its erase; and that time, ns.
fn fold_of_one_block(d: &DriveConfig, r: &Rates) -> (f64, f64) {
    let stripes = (SlcCacheConfig::slc_block_bytes(d) as f64 / r.program_bytes).floor();
    let fold_ns = stripes * (SLC_READ_NS as f64 + r.xfer_ns)
        + stripes * r.xfer_ns
        + stripes / 3.0 * WORDLINE_NS as f64
        + d.timing.erase_ns as f64;
    (stripes, fold_ns)
}

fn mean_mb_s(samples: &[ssdlab_core::Sample], seconds: std::ops::Range<usize>) -> f64 {
    let n = seconds.len() as f64;
    samples[seconds].iter().map(|s| s.mb_s).sum::<f64>() / n
}

#[test]
fn a_fill_writes_at_the_slc_rate_until_the_configured_cache_is_full() {
    let drive = cache_drive(WhenFull::FoldFirst);
    let r = rates(&drive);
    let slc_block_bytes = SlcCacheConfig::slc_block_bytes(&drive) as f64;
    let mut bench = Bench::new(fill(drive, 16)).unwrap();
    let mut samples = Vec::new();
    // Step until the first fold: the host data programmed by then is what the cache held.
    let in_slc = loop {
        bench.advance(1, &mut samples);
        let c = bench.drive().counters();
        if c.die_busy_ns[Work::Fold as usize] > 0 {
            break c.die_busy_ns[Work::HostProgram as usize] as f64 / (r.xfer_ns + SLC_PROGRAM_NS as f64)
                * r.program_bytes;
        }
        assert!(!bench.finished(), "no fold in the run");
    };
    assert!(
        (in_slc - CACHE_BYTES as f64).abs() <= r.dies * slc_block_bytes,
        "cache held {in_slc} bytes of {CACHE_BYTES} (one block per die: {})",
        r.dies * slc_block_bytes
    );
    // The cache lasts ~12.6 s: seconds 1-10 at the SLC rate (second 0 also fills the buffer).
    let mb_s = mean_mb_s(&samples, 1..10);
    assert!((mb_s / r.slc_mb_s - 1.0).abs() < 0.05, "{mb_s} MB/s vs {} in SLC", r.slc_mb_s);
    bench.run_to_end();
    bench.drive().ftl().check_invariants().unwrap();
}

#[test]
fn fold_first_then_writes_at_the_rate_folding_allows() {
    let drive = cache_drive(WhenFull::FoldFirst);
    let r = rates(&drive);
    // Per SLC block and die: its stripes read in SLC mode and programmed natively (a third of
    // them a wordline's program), its erase, then as many host pages in SLC mode.
    let (stripes, fold_ns) = fold_of_one_block(&drive, &r);
    let host_ns = stripes * (r.xfer_ns + SLC_PROGRAM_NS as f64);
    let fold_bound_mb_s = r.dies * stripes * r.program_bytes / (fold_ns + host_ns) * 1e3;
    let mut bench = Bench::new(fill(drive, 30)).unwrap();
    let samples = bench.run_to_end();
    let mb_s = mean_mb_s(&samples, 18..30);
    assert!((mb_s / fold_bound_mb_s - 1.0).abs() < 0.05, "{mb_s} MB/s vs {fold_bound_mb_s} folding first");
    assert!(mb_s < 0.5 * r.slc_mb_s, "{mb_s} vs {}", r.slc_mb_s);
    bench.drive().ftl().check_invariants().unwrap();
}

#[test]
fn a_one_second_rest_folds_and_raises_the_next_seconds_speed() {
    let mut cfg = fill(cache_drive(WhenFull::FoldFirst), 23);
    // 20 s of writes (the cache is full from ~13 s), 1 s of rest, then writes again.
    (cfg.burst_s, cfg.idle_s) = (20, 1);
    let mut bench = Bench::new(cfg).unwrap();
    let samples = bench.run_to_end();
    let (before, rest, after) = (samples[19].mb_s, samples[20].mb_s, samples[21].mb_s);
    // The rest: only the commands in flight when it began complete.
    assert!(rest <= (32 * (128 << 10)) as f64 / 1e6, "{rest} MB/s while resting");
    assert!(after > 1.5 * before, "{before} MB/s before the rest, {after} after");
    bench.drive().ftl().check_invariants().unwrap();
}

#[test]
fn without_idle_folding_a_rest_changes_nothing() {
    let mut drive = cache_drive(WhenFull::FoldFirst);
    drive.slc_cache.as_mut().unwrap().idle_fold = false;
    // No idle GC either: the rest is idle time only.
    drive.gc.background_free_blocks = 0;
    let mut cfg = fill(drive, 23);
    (cfg.burst_s, cfg.idle_s) = (20, 1);
    let samples = Bench::new(cfg).unwrap().run_to_end();
    let (before, after) = (samples[19].mb_s, samples[21].mb_s);
    assert!(after < 1.2 * before, "{before} MB/s before the rest, {after} after");
}

#[test]
fn direct_writes_natively_once_the_cache_is_full_and_folds_only_when_free_blocks_run_low() {
    let drive = cache_drive(WhenFull::Direct);
    let r = rates(&drive);
    // One-shot TLC: three pages per wordline program.
    let native_mb_s = r.dies * 3.0 * r.program_bytes / (3.0 * r.xfer_ns + WORDLINE_NS as f64) * 1e3;
    let start_free = drive.gc.start_free_blocks;
    let mut bench = Bench::new(fill(drive, 100)).unwrap();
    let mut samples = Vec::new();
    let free_at_first_fold = loop {
        bench.advance(1, &mut samples);
        let fold_ns = bench.drive().counters().die_busy_ns[Work::Fold as usize];
        if fold_ns > 0 {
            let ftl = bench.drive().ftl();
            break (0..4).map(|d| ftl.die_free_blocks(d)).max().unwrap();
        }
        assert!(!bench.finished(), "no fold in the run");
    };
    // The cache ends at ~12.6 s; then the dies write natively until GC needs room.
    let mb_s = mean_mb_s(&samples, 15..40);
    assert!((mb_s / native_mb_s - 1.0).abs() < 0.05, "{mb_s} MB/s vs {native_mb_s} natively");
    assert!(samples.len() > 60, "folded from second {}", samples.len());
    assert!(free_at_first_fold <= start_free, "{free_at_first_fold} free blocks at the first fold");
    bench.run_to_end();
    bench.drive().ftl().check_invariants().unwrap();
}

#[test]
fn random_writes_and_trims_keep_the_cache_within_its_blocks_and_the_ftl_whole() {
    for when_full in WhenFull::ALL {
        let drive = cache_drive(when_full);
        let per_die = drive.slc_cache.as_ref().unwrap().blocks_per_die(&drive);
        for workload in ["random-write", "write-trim"] {
            // Long enough for direct's native writes to bring GC, which folds SLC blocks too.
            let mut cfg = fill(drive.clone(), 100);
            cfg.workload = WorkloadSpec::by_id(workload).unwrap();
            (cfg.block_bytes, cfg.align_bytes) = (4096, 4096);
            let mut bench = Bench::new(cfg).unwrap();
            bench.run_to_end();
            let (d, ftl) = (bench.drive(), bench.drive().ftl());
            assert!(d.counters().die_busy_ns[Work::Fold as usize] > 0, "{when_full:?} {workload}: no folding");
            assert!((0..4).all(|die| ftl.slc_blocks(die) <= per_die), "{when_full:?} {workload}");
            ftl.check_invariants().unwrap();
        }
    }
}

#[test]
fn direct_folding_while_writing_refills_the_cache_at_the_rate_its_timings_give() {
    let mut drive = cache_drive(WhenFull::Direct);
    // A fold stripe a native page: per SLC block and die, as many native host pages as the
    // block has stripes, its fold, then as many host pages in SLC mode again.
    drive.slc_cache.as_mut().unwrap().fold_while_writing_percent = 100;
    let r = rates(&drive);
    let (stripes, fold_ns) = fold_of_one_block(&drive, &r);
    let native_ns = stripes * r.xfer_ns + stripes / 3.0 * WORDLINE_NS as f64;
    let slc_ns = stripes * (r.xfer_ns + SLC_PROGRAM_NS as f64);
    let expected = r.dies * 2.0 * stripes * r.program_bytes / (native_ns + fold_ns + slc_ns) * 1e3;
    let mut bench = Bench::new(fill(drive, 40)).unwrap();
    let mut samples = Vec::new();
    while bench.drive().counters().die_busy_ns[Work::Fold as usize] == 0 && !bench.finished() {
        bench.advance(1, &mut samples);
    }
    // Without it, direct folds only once GC needs room (second 81, above); with it, from the
    // cache's end (~12.6 s).
    assert!((12..14).contains(&samples.len()), "first fold in second {}", samples.len());
    samples.extend(bench.run_to_end());
    let mb_s = mean_mb_s(&samples, 20..40);
    assert!((mb_s / expected - 1.0).abs() < 0.05, "{mb_s} MB/s vs {expected} folding while writing");
    bench.drive().ftl().check_invariants().unwrap();
}

#[test]
fn the_cache_columns_follow_the_data_from_slc_to_native_blocks() {
    let drive = cache_drive(WhenFull::FoldFirst);
    let (dies, unit_bytes) = (drive.geometry.dies as f64, 4096.0);
    let program_units = drive.geometry.units_per_program() as f64;
    let mut bench = Bench::new(fill(drive, 30)).unwrap();
    let samples = bench.run_to_end();
    let c = bench.drive().counters();
    let sum = |f: fn(&ssdlab_core::Sample) -> f64| samples.iter().map(f).sum::<f64>();
    // Each second's columns add up to the drive's counters.
    let folded = sum(|s| s.fold_mb_s) * 1e6 / unit_bytes;
    assert!(c.folded_units > 0 && (folded - c.folded_units as f64).abs() < 1e-6, "{folded} vs {}", c.folded_units);
    let fold_ns = sum(|s| s.die_fold) * dies * 1e9;
    let counted_ns = c.die_busy_ns[Work::Fold as usize] as f64;
    assert!((fold_ns / counted_ns - 1.0).abs() < 1e-9, "{fold_ns} vs {counted_ns}");
    // Nothing is overwritten: every unit the drive took is folded or still in SLC, but for the
    // pages being assembled.
    let end = samples.last().unwrap();
    let taken = (c.host_write_bytes / 4096) as f64;
    let accounted = folded + end.slc_data_gb * 1e9 / unit_bytes;
    assert!(accounted <= taken && taken - accounted <= dies * program_units, "{taken} units taken, {accounted} placed");
    // While the cache takes the writes, every host page goes to SLC and its free space falls by
    // what was written; once full, the host waits for folds that free blocks.
    let first = &samples[1];
    assert_eq!(first.host_to_slc, 1.0);
    assert!(first.slc_free_gb > 0.0 && first.slc_free_gb < CACHE_BYTES as f64 / 1e9);
    assert!(samples[1..10].windows(2).all(|w| w[1].slc_free_gb < w[0].slc_free_gb));
    let full = &samples[20];
    assert!(full.slc_free_gb < 0.01, "{} GB free once full", full.slc_free_gb);
    assert!(full.fold_mb_s > 0.0 && full.die_fold > 0.0 && full.slc_blocks > 0);
    // No column of the cache moves on a drive without one.
    let samples = Bench::new(fill(presets::by_id("s3700-200").unwrap(), 3)).unwrap().run_to_end();
    let cache_columns = |s: &ssdlab_core::Sample| {
        [s.die_fold, s.slc_free_gb, s.slc_data_gb, s.fold_mb_s, s.host_to_slc, s.slc_blocks as f64]
    };
    assert!(samples.iter().all(|s| cache_columns(s) == [0.0; 6]));
}

#[test]
fn a_phase_without_jobs_is_a_rest_in_which_the_drive_folds() {
    let run = |idle_fold: bool| {
        let mut drive = cache_drive(WhenFull::FoldFirst);
        drive.slc_cache.as_mut().unwrap().idle_fold = idle_fold;
        drive.gc.background_free_blocks = 0;
        let cfg = fill(drive, 60);
        let writes = |name: &str, offset: u64, bytes: u64| {
            let mut job = JobSpec::named(&cfg.workload, 128 << 10, 128 << 10, 32);
            (job.offset_bytes, job.size_bytes, job.io_limit_bytes) = (offset, bytes, bytes);
            Phase { name: name.into(), jobs: vec![job], runtime_ns: 0, ramp_ns: 0 }
        };
        // Past the cache (512 MiB), 5 s of rest, then writes again.
        let first = 640 << 20;
        let rest = Phase { name: "rest".into(), jobs: Vec::new(), runtime_ns: 5_000_000_000, ramp_ns: 0 };
        let phases = vec![writes("before", 0, first), rest, writes("after", first, 128 << 20)];
        let mut bench = Bench::new(RunConfig { phases, ..cfg }).unwrap();
        let samples = bench.run_to_end();
        bench.drive().ftl().check_invariants().unwrap();
        let resting: Vec<usize> = (1..samples.len()).filter(|&i| samples[i].iops == 0).collect();
        assert!(resting.len() >= 4, "seconds without IOs: {resting:?}");
        // Whole seconds: the last but one before the rest, the second after it.
        let (before, after) = (resting[0] - 2, *resting.last().unwrap() + 2);
        (samples[before].mb_s, samples[after].mb_s)
    };
    // The drive is idle in the rest: it folds, and writes after it faster than before it.
    let (before, after) = run(true);
    assert!(after > 1.5 * before, "{before} MB/s before the rest, {after} after");
    let (before, after) = run(false);
    assert!(after < 1.2 * before, "without idle folding: {before} MB/s before the rest, {after} after");
    let cfg = fill(cache_drive(WhenFull::FoldFirst), 60);
    let mut job = JobSpec::named(&cfg.workload, 128 << 10, 128 << 10, 32);
    job.io_limit_bytes = 1 << 20;
    let (first, rest) = (
        Phase { name: "w".into(), jobs: vec![job], runtime_ns: 0, ramp_ns: 0 },
        Phase { name: "rest".into(), jobs: Vec::new(), runtime_ns: 1_000_000_000, ramp_ns: 0 },
    );
    // A rest needs a runtime and a phase after it.
    let mut cfg = RunConfig { phases: vec![first, Phase { runtime_ns: 0, ..rest }], ..cfg };
    assert!(cfg.validate().unwrap_err().to_string().contains("needs a runtime"));
    cfg.phases[1].runtime_ns = 1;
    assert!(cfg.validate().unwrap_err().to_string().contains("a phase after it"));
}

#[test]
fn with_max_programming_dies_at_most_that_many_dies_program_at_once() {
    let mut drive = cache_drive(WhenFull::Direct);
    drive.controller.max_programming_dies = 2;
    drive.validate().unwrap();
    let r = rates(&drive);
    // Two of the four dies in their array program at a time; the others' transfers overlap them.
    let slc_mb_s = 2.0 * r.program_bytes / SLC_PROGRAM_NS as f64 * 1e3;
    let native_mb_s = 2.0 * 3.0 * r.program_bytes / WORDLINE_NS as f64 * 1e3;
    assert!(slc_mb_s < 0.6 * r.slc_mb_s, "the limit must bind: {slc_mb_s} vs {} MB/s", r.slc_mb_s);
    let samples = Bench::new(fill(drive.clone(), 60)).unwrap().run_to_end();
    // The 512 MB cache fills by ~24 s at the limited SLC rate; then one-shot TLC wordlines.
    let (in_cache, native) = (mean_mb_s(&samples, 2..20), mean_mb_s(&samples, 30..60));
    assert!((in_cache / slc_mb_s - 1.0).abs() < 0.05, "{in_cache} MB/s in the cache vs {slc_mb_s}");
    assert!((native / native_mb_s - 1.0).abs() < 0.05, "{native} MB/s natively vs {native_mb_s}");
    // A limit of every die is no limit (the cache fills by ~12 s at the dies' SLC rate).
    drive.controller.max_programming_dies = drive.geometry.dies;
    let free = mean_mb_s(&Bench::new(fill(drive.clone(), 10)).unwrap().run_to_end(), 2..10);
    assert!((free / r.slc_mb_s - 1.0).abs() < 0.05, "{free} MB/s vs {} with no limit", r.slc_mb_s);
    // More than the dies is refused by name.
    drive.controller.max_programming_dies = drive.geometry.dies + 1;
    assert_eq!(drive.validate().unwrap_err().field, "controller.max_programming_dies");
}

/// The whole span once, 128 KiB sequential at QD 32, from a secure erase: per-second samples.
fn whole_fill(drive: DriveConfig) -> Vec<ssdlab_core::Sample> {
    let cfg = fill(drive, 2000);
    let bytes = cfg.workload_units() * 4096;
    let mut job = JobSpec::named(&cfg.workload, 128 << 10, 128 << 10, 32);
    (job.size_bytes, job.io_limit_bytes) = (bytes, bytes);
    let phases = vec![Phase { name: "fill".into(), jobs: vec![job], runtime_ns: 0, ramp_ns: 0 }];
    let mut bench = Bench::new(RunConfig { phases, ..cfg }).unwrap();
    let samples = bench.run_to_end();
    bench.drive().ftl().check_invariants().unwrap();
    samples
}

/// A whole-drive fill's measures: SLC capacity (data in SLC and room for more, GB) when a share
/// of the fill is written, and the speeds once the cache is first full (MB/s).
struct FillShape {
    capacity_at: Vec<f64>,
    mean_mb_s: f64,
    median_after_cache: f64,
    first_third_after_cache: f64,
    last_third_after_cache: f64,
    last_tenth: f64,
}

fn fill_shape(drive: DriveConfig, shares_written: &[f64]) -> FillShape {
    let mut samples = whole_fill(drive);
    samples.pop(); // a part of a second
    let gb: Vec<f64> = samples
        .iter()
        .scan(0.0, |sum, s| {
            *sum += s.mb_s / 1e3;
            Some(*sum)
        })
        .collect();
    let total = *gb.last().unwrap();
    let at = |share: f64| gb.iter().position(|&g| g >= share * total).unwrap();
    let capacity = |i: usize| samples[i].slc_data_gb + samples[i].slc_free_gb;
    let mean = |w: &[ssdlab_core::Sample]| w.iter().map(|s| s.mb_s).sum::<f64>() / w.len() as f64;
    let after = &samples[samples.iter().position(|s| s.host_to_slc < 0.5).unwrap()..];
    let third = after.len() / 3;
    let mut sorted: Vec<f64> = after.iter().map(|s| s.mb_s).collect();
    sorted.sort_by(f64::total_cmp);
    FillShape {
        capacity_at: shares_written.iter().map(|&f| capacity(at(f))).collect(),
        mean_mb_s: total * 1e3 / samples.len() as f64,
        median_after_cache: sorted[sorted.len() / 2],
        first_third_after_cache: mean(&after[..third]),
        last_third_after_cache: mean(&after[after.len() - third..]),
        last_tenth: mean(&samples[at(0.9)..]),
    }
}

/// With `dynamic_share` the cache holds no more than that share of the blocks native data does
/// not hold, so in a whole-drive fill it shrinks as the drive fills and its data is folded on
/// the way (direct, folding while writing, as the 980 Pro); without, it stays whole until the
/// native blocks run out and is folded at the end, the host waiting.
#[test]
fn with_a_dynamic_share_the_cache_shrinks_as_the_drive_fills_and_is_folded_on_the_way() {
    let shape = |share: Option<f64>| {
        let mut drive = cache_drive(WhenFull::Direct);
        let cache = drive.slc_cache.as_mut().unwrap();
        (cache.dynamic_share, cache.fold_while_writing_percent) = (share, 27);
        fill_shape(drive, &[0.0, 0.5, 0.9])
    };
    let (whole, shared) = (shape(None), shape(Some(0.4)));
    let cache_gb = whole.capacity_at[0];
    assert!((cache_gb - CACHE_BYTES as f64 / 1e9).abs() < 0.05, "{cache_gb} GB of cache");
    // An empty drive lends nearly the whole cache (0.4 of ~230 blocks a die: 92 of its 95).
    assert!(shared.capacity_at[0] > 0.9 * cache_gb, "{:?}", shared.capacity_at);
    // Half written, a third of it gone; nine tenths, three quarters. Without a share, none.
    assert!(
        shared.capacity_at[1] < 0.75 * cache_gb && shared.capacity_at[2] < 0.35 * cache_gb,
        "{:?}",
        shared.capacity_at
    );
    assert!(whole.capacity_at[1] > 0.99 * cache_gb, "{:?}", whole.capacity_at);
    // After the cache the speed holds to the end: no fold left for the last seconds.
    let (first, last) = (shared.first_third_after_cache, shared.last_third_after_cache);
    assert!(last > 0.95 * first, "{first} MB/s after the cache, {last} at the end");
    assert!(shared.last_tenth > 0.9 * shared.median_after_cache, "{}", shared.last_tenth);
    // Without a share the last tenth waits for the folds, and the whole fill is slower.
    assert!(whole.last_tenth < 0.6 * whole.median_after_cache, "{} vs {}", whole.last_tenth, whole.median_after_cache);
    assert!(shared.mean_mb_s > 1.05 * whole.mean_mb_s, "{} vs {} MB/s", shared.mean_mb_s, whole.mean_mb_s);
}

/// The memory bound the browser engine checks a run against: a cache drive's whole fill keeps
/// an entry per stripe, so the 4 TB QLC drive's fill fits under the page's 2.5 GiB (the unit
/// map's bound was 8.2 GB), and a real fill stays under its own bound; random writes do not get
/// the stripes' bound.
#[test]
fn a_sequential_fill_of_a_cache_drive_is_bounded_by_its_stripes() {
    use ssdlab_core::bench::table_bytes_bound;
    let whole_fill = |d: DriveConfig| {
        let mut cfg = fill(d, 20_000);
        (cfg.block_bytes, cfg.align_bytes, cfg.queue_depth) = (1 << 20, 1 << 20, 1);
        cfg
    };
    let qvo = whole_fill(presets::by_id("870qvo-4000").unwrap());
    assert!(table_bytes_bound(&qvo) < 2560 << 20, "{}", table_bytes_bound(&qvo));
    let mut random = qvo.clone();
    random.workload = WorkloadSpec::by_id("random-write").unwrap();
    assert!(
        table_bytes_bound(&random) > 3 * table_bytes_bound(&qvo),
        "{} vs {}",
        table_bytes_bound(&random),
        table_bytes_bound(&qvo)
    );

    let small = whole_fill(cache_drive(WhenFull::Direct));
    let mut bench = Bench::new(small.clone()).unwrap();
    bench.run_to_end();
    assert!(
        bench.memory_bytes() <= table_bytes_bound(&small),
        "{} vs {}",
        bench.memory_bytes(),
        table_bytes_bound(&small)
    );
}
