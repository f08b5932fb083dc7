//! The articles' experiments: each gives the table its definition promises, the same for the
//! same seed, and behaves as the article's figure does where a small drive can show it.

use ssdlab_core::experiment::{by_id, ArticleDrive, ExperimentRequest, Runner, Table, EXPERIMENTS};
use ssdlab_core::{Bench, RunRequest};

/// A 1/8-size S3700 that reaches garbage collection quickly.
const SMALL: &str = r#"{"geometry.blocks_per_plane": 256, "user_bytes": 25000001536, "gc.start_free_blocks": 6,
    "gc.boost_below_free_blocks": 3, "gc.boost_until_free_blocks": 5, "gc.background_free_blocks": 12}"#;

fn request(experiment: &str, extra: serde_json::Value) -> ExperimentRequest {
    let mut r = serde_json::json!({ "experiment": experiment, "drive": "s3700-200",
        "set": serde_json::from_str::<serde_json::Value>(SMALL).unwrap() });
    for (k, v) in extra.as_object().unwrap() {
        r[k] = v.clone();
    }
    ExperimentRequest::from_json(&r.to_string()).unwrap()
}

fn run(r: &ExperimentRequest) -> Table {
    Runner::new(r).unwrap().run_to_end().unwrap().clone()
}

fn column(t: &Table, name: &str) -> Vec<f64> {
    let i = t.columns.iter().position(|c| c == name).unwrap_or_else(|| panic!("no column {name}"));
    t.rows.iter().map(|r| r[i].as_f64().unwrap_or(f64::NAN)).collect()
}

#[test]
fn io_consistency_gives_the_same_seconds_as_a_plain_run() {
    let table = run(&request("io-consistency", serde_json::json!({ "seconds": 120, "seed": 7 })));
    let mut run = RunRequest::from_json(r#"{"drive":"s3700-200","seconds":120,"seed":7}"#).unwrap();
    run.set = serde_json::from_str(SMALL).unwrap();
    let samples = Bench::new(run.resolve().unwrap()).unwrap().run_to_end();
    assert_eq!(table.rows.len(), 120);
    let iops: Vec<f64> = samples.iter().map(|s| s.iops as f64).collect();
    assert_eq!(column(&table, "iops"), iops);
    assert_eq!(column(&table, "second"), (0..120).map(|s| s as f64).collect::<Vec<_>>());
}

#[test]
fn four_corners_rise_with_queue_depth_and_repeat_for_the_same_seed() {
    let r = request(
        "four-corners",
        serde_json::json!({ "seconds": 6, "ramp_seconds": 1, "queue_depths": [1, 4, 32], "seed": 3 }),
    );
    let table = run(&r);
    assert_eq!(table.rows.len(), 4 * 3);
    assert_eq!(table, run(&r), "same request, same seed: same table");
    let iops = column(&table, "iops");
    let mean = column(&table, "latency_mean_us");
    let max = column(&table, "latency_max_us");
    let p99 = column(&table, "latency_p99_us");
    // Rows: corner by corner, queue depths in order. Random reads scale with queue depth
    // (dies work in parallel) and wait longer at depth.
    let (rr1, rr4, rr32) = (iops[6], iops[7], iops[8]);
    assert!(rr4 > 2.5 * rr1 && rr32 > rr4, "random read IOPS {rr1} {rr4} {rr32}");
    assert!(mean[8] > mean[6], "latency grows with queue depth: {} vs {}", mean[8], mean[6]);
    for i in 0..table.rows.len() {
        assert!(iops[i] > 0.0 && max[i] >= mean[i] && p99[i] <= max[i], "row {i}: {:?}", table.rows[i]);
    }
    // Little's law: at queue depth 32, IOPS x mean latency = 32 commands in flight.
    let in_flight = iops[8] * mean[8] / 1e6;
    assert!((in_flight - 32.0).abs() < 1.0, "random read QD32 in flight {in_flight}");
    // Random writes after the full-span preconditioning are at steady state: no faster
    // than the drive's steady-state rating allows at any depth, unlike a fresh drive's.
    let fresh = run(&request(
        "four-corners",
        serde_json::json!({ "seconds": 6, "ramp_seconds": 1, "queue_depths": [32], "precondition": "fill" }),
    ));
    let fresh_rw = column(&fresh, "iops")[3];
    assert!(iops[11] < fresh_rw, "preconditioned random write {} vs fresh {}", iops[11], fresh_rw);
}

#[test]
fn more_spare_area_lowers_write_amplification_and_raises_iops() {
    let table = run(&request("spare-area", serde_json::json!({ "seconds": 300, "spans": [1.0, 0.75] })));
    let wa = column(&table, "write_amplification");
    let iops = column(&table, "steady_iops_mean");
    let spare = column(&table, "spare_percent");
    assert_eq!(table.rows.len(), 2);
    assert!(spare[1] > spare[0]);
    assert!(wa[1] < wa[0] && iops[1] > iops[0], "WA {wa:?}, IOPS {iops:?}");
    // The capacity it would be sold as [002]: three quarters of 200 GB.
    assert_eq!(column(&table, "advertised_gb"), vec![200.0, 150.0]);
}

#[test]
fn endurance_projects_the_nand_limit_from_the_measured_write_amplification() {
    let table = run(&request("endurance", serde_json::json!({ "seconds": 300, "spans": [1.0] })));
    let wa = column(&table, "write_amplification")[0];
    let cfg = RunRequest::from_json(&format!(r#"{{"drive":"s3700-200","set":{}}}"#, SMALL)).unwrap().resolve().unwrap();
    let e = &cfg.drive.endurance;
    let expected_pb = cfg.drive.geometry.raw_bytes() as f64 * e.pe_cycles as f64 / wa / 1e15;
    let got = column(&table, "nand_limited_pb")[0];
    assert!((got - expected_pb).abs() < 0.01 * expected_pb, "{got} vs {expected_pb}");
    let rated = column(&table, "rated_pb")[0];
    assert!((rated - 3.65).abs() < 0.01, "10 DWPD x 5 y x 200 GB = 3.65 PB, got {rated}");
}

#[test]
fn bad_requests_name_the_field_and_what_it_accepts() {
    let e = ExperimentRequest::from_json(r#"{"experiment":"nope","drive":"s3700-200"}"#).unwrap().plan().err().unwrap();
    assert_eq!(e.field, "experiment");
    assert!(e.message.contains("four-corners"), "{}", e.message);
    let e = request("four-corners", serde_json::json!({ "queue_depths": [0] })).plan().err().unwrap();
    assert_eq!(e.field, "queue_depths");
    let e = request("spare-area", serde_json::json!({ "spans": [1.5] })).plan().err().unwrap();
    assert_eq!(e.field, "spans");
    assert!(e.message.contains("0.01 and 1.0"), "{}", e.message);
    let e = request("four-corners", serde_json::json!({ "precondition": "lots" })).plan().err().unwrap();
    assert_eq!(e.field, "precondition");
    let e = request("dirty-recovery", serde_json::json!({ "states": ["dirty", "clean"] })).plan().err().unwrap();
    assert_eq!(e.field, "states");
    assert!(e.message.contains("'clean'") && e.message.contains("secure-erased, dirty, rested, trimmed"), "{e}");
    let e = request("dirty-recovery", serde_json::json!({ "dirty_seconds": 0 })).plan().err().unwrap();
    assert_eq!(e.field, "dirty_seconds");
    let e = ExperimentRequest::from_json(r#"{"experiment":"io-consistency","drive":"s3700-200","sekonds":5}"#)
        .err()
        .unwrap();
    assert_eq!(e.field, "sekonds");
    for def in &EXPERIMENTS {
        assert!(by_id(def.id).is_ok() && !def.about.is_empty() && def.article.starts_with('['));
    }
}

#[test]
fn a_request_without_a_drive_runs_on_the_article_s_drive_or_is_told_why_not() {
    for def in &EXPERIMENTS {
        let mut r = ExperimentRequest::from_json(&format!(r#"{{"experiment":"{}"}}"#, def.id)).unwrap();
        match def.drive {
            ArticleDrive::One { preset, source } => {
                ssdlab_core::presets::by_id(preset).unwrap();
                assert!(source.starts_with(&def.article[..5]), "{}: {source}", def.id);
                assert_eq!(r.default_drive().unwrap(), Some(source));
                assert_eq!(r.drive, preset);
                // A named drive is kept.
                r.drive = "s3700-100".into();
                assert_eq!(r.default_drive().unwrap(), None);
                assert_eq!(r.drive, "s3700-100");
            }
            ArticleDrive::Several(why) => {
                let e = r.default_drive().unwrap_err();
                assert_eq!(e.field, "drive");
                assert!(e.message.contains(why), "{e}");
                assert_eq!(r.plan().err().unwrap().field, "drive");
            }
        }
    }
}

#[test]
fn raid_scaling_nearly_doubles_to_16_drives_then_the_shared_link_caps_it() {
    let r = ExperimentRequest::from_json(
        r#"{"experiment":"raid-scaling","drive":"s3700-800","seconds":3,"ramp_seconds":1,"drive_counts":[4,8,16,24]}"#,
    )
    .unwrap();
    let table = run(&r);
    let iops = column(&table, "iops");
    let drives = column(&table, "drives");
    let read: Vec<f64> =
        (0..table.rows.len()).filter(|&i| table.rows[i][1] == "random-read").map(|i| iops[i]).collect();
    assert_eq!(drives, vec![4.0, 4.0, 8.0, 8.0, 16.0, 16.0, 24.0, 24.0]);
    // [004]: 4 -> 8 -> 16 about +100 % each, 16 -> 24 only +25 %, ~1.01 M at 24.
    assert!(read[1] / read[0] > 1.8 && read[2] / read[1] > 1.8, "{read:?}");
    let last = read[3] / read[2];
    assert!(last > 1.1 && last < 1.4, "16 -> 24: {last}");
    assert!((read[3] - 1_010_755.0).abs() < 0.15 * 1_010_755.0, "{read:?}");
}

/// The 980 Pro at 1/15 of its blocks (72 GB raw, 50 GB for the host) with a 20 GB SLC cache:
/// the same dies, timings and link, so the same phases, each a fifteenth as long. Its
/// `dynamic_share` still holds that cache on an empty drive, as the preset's holds its 114 GB:
/// 0.85 of the 118 blocks a die lends, 100, for the cache's 99.
fn small_980pro(experiment: &str, extra: serde_json::Value) -> ExperimentRequest {
    let mut r = small_samsung("980pro-1000", experiment, extra);
    r.set.insert("slc_cache.dynamic_share".into(), serde_json::json!(0.85));
    r
}

/// A Samsung drive of 16 dies of 1152-page TLC blocks (the 980 Pro, the 980) at 1/15 of its blocks.
fn small_samsung(drive: &str, experiment: &str, extra: serde_json::Value) -> ExperimentRequest {
    // GC's thresholds as `calibrate::scaled` takes them down to 120 blocks per die.
    let set = serde_json::json!({
        "geometry.blocks_per_plane": 120, "user_bytes": 50_000_001_024u64, "gc.start_free_blocks": 4,
        "gc.boost_below_free_blocks": 2, "gc.boost_until_free_blocks": 3, "gc.background_free_blocks": 4,
        "slc_cache.dynamic_max_bytes": 20_000_000_000u64 });
    let mut r = serde_json::json!({ "experiment": experiment, "drive": drive, "set": set });
    for (k, v) in extra.as_object().unwrap() {
        r[k] = v.clone();
    }
    ExperimentRequest::from_json(&r.to_string()).unwrap()
}

#[test]
fn whole_drive_fill_writes_at_the_slc_rate_until_the_cache_is_full_then_fills_the_span() {
    let table = run(&small_980pro("whole-drive-fill", serde_json::json!({})));
    let (gb, mb_s, free) = (column(&table, "gb_written"), column(&table, "mb_s"), column(&table, "slc_free_gb"));
    assert!((free[0] + column(&table, "slc_data_gb")[0] - 20.0).abs() < 0.2, "a 20 GB cache");
    // One 1 MiB command at a time, each fetched at host.write_fetch_mb_s (4,000 MB/s), while the
    // dies' SLC programs could take more: the fetch sets the pace.
    let in_cache = mb_s[1..4].iter().sum::<f64>() / 3.0;
    assert!((in_cache / 4000.0 - 1.0).abs() < 0.03, "{in_cache} MB/s in the cache");
    // The speed falls in the second the cache fills: at its size, within an SLC block per die
    // (0.2 GB).
    let end_of_fast = mb_s.iter().position(|&v| v < 3000.0).expect("the speed falls");
    let in_slc = column(&table, "slc_data_gb")[end_of_fast - 1];
    assert!((in_slc - 20.0).abs() < 0.2 && free[end_of_fast - 1] < 0.2, "{in_slc} GB in SLC when full");
    assert!(gb[end_of_fast] - gb[end_of_fast - 1] < 2.0, "fast until {} GB", gb[end_of_fast]);
    let after = mb_s[end_of_fast + 2..end_of_fast + 10].iter().sum::<f64>() / 8.0;
    assert!(after < 0.5 * in_cache, "{after} MB/s after the cache");
    // Written: the whole span, and the folded data is what the drive reports.
    assert!((gb.last().unwrap() - 50.0).abs() < 0.01, "{} GB written", gb.last().unwrap());
    assert!(column(&table, "fold_mb_s").iter().any(|&f| f > 0.0));
}

/// A fill is as long as the drive needs (the 870 QVO 4TB's takes ~24,000 s), counted in bytes;
/// `seconds` caps it only when given.
#[test]
fn a_whole_drive_fill_ends_when_the_span_is_written_and_counts_its_progress_in_bytes() {
    let mut runner = Runner::new(&small_980pro("whole-drive-fill", serde_json::json!({}))).unwrap();
    assert_eq!(runner.configs().next().unwrap().seconds, ssdlab_core::config::MAX_SECONDS);
    runner.advance(20_000).unwrap();
    let p = runner.progress();
    let span = 50_000_001_024u64 / 4096 * 4096;
    assert_eq!(p.bytes, span);
    let written = column(runner.table(), "gb_written").last().copied().unwrap() * 1e9;
    assert!(p.written_bytes > 0 && (p.written_bytes as f64 - written).abs() < 1e6, "{p:?} against {written}");
    let capped = run(&small_980pro("whole-drive-fill", serde_json::json!({ "seconds": 3 })));
    assert_eq!(column(&capped, "second"), vec![0.0, 1.0, 2.0]);
    assert!(column(&capped, "gb_written")[2] < 15.0);
    // A point its seconds end counts none.
    let mut timed =
        Runner::new(&request("four-corners", serde_json::json!({ "seconds": 2, "queue_depths": [1] }))).unwrap();
    timed.advance(1_000).unwrap();
    assert_eq!((timed.progress().bytes, timed.progress().written_bytes), (0, 0));
}

/// A fill ends inside its last second: that row's MB/s is its rate over the part it
/// ran, not its bytes over a whole second (an S3700 writes at one speed to the end: 358 MB/s,
/// where the last row read 89 MB/s).
#[test]
fn a_fill_s_last_partial_second_reads_at_its_rate() {
    let r = serde_json::json!({ "experiment": "whole-drive-fill", "drive": "s3700-200",
        "set": { "user_bytes": 2_000_000_000u64 } });
    let table = run(&ExperimentRequest::from_json(&r.to_string()).unwrap());
    let (mb_s, gb) = (column(&table, "mb_s"), column(&table, "gb_written"));
    let n = mb_s.len();
    let last_share = (gb[n - 1] - gb[n - 2]) / (gb[n - 2] - gb[n - 3]);
    assert!(last_share < 0.95, "the fill ends inside its last second: {gb:?}");
    assert!((mb_s[n - 1] / mb_s[n - 2] - 1.0).abs() < 0.02, "{mb_s:?}");
}

#[test]
fn idle_recovery_writes_faster_after_a_longer_rest() {
    let r = small_980pro("idle-recovery", serde_json::json!({ "write_gb": 24, "then_gb": 1, "rest_seconds": [0, 5] }));
    let table = run(&r);
    let (rest, write, mb_s) = (column(&table, "rest_s"), &table.columns, column(&table, "mb_s"));
    assert!(write.contains(&"write".to_string()));
    assert_eq!(rest, vec![0.0, 0.0, 5.0, 5.0], "{:?}", table.rows);
    // Before the rest: the cache and then some; after no rest, the post-cache speed; after 5 s
    // of folding, back in SLC.
    let (before, after_none, after_rest) = (mb_s[0], mb_s[1], mb_s[3]);
    assert!(after_none < 0.6 * before, "{after_none} after no rest vs {before} before");
    assert!(after_rest > 1.5 * after_none, "{after_rest} after 5 s vs {after_none} after none");
    assert_eq!(mb_s[0], mb_s[2], "the same writes before the rest");
}

/// The 980 (fold-first) at 1/15 of its blocks with a 20 GB cache: once the cache is full, each
/// SLC block the host writes waits for one SLC block's fold on its die, so the speed after the
/// cache is the dies' fold-and-write cycle, computed here from the preset's timings.
#[test]
fn the_980_after_its_cache_writes_at_the_rate_folding_first_allows() {
    let d = ssdlab_core::presets::by_id("980-1000").unwrap();
    let (t, g) = (&d.timing, &d.geometry);
    let program_bytes = (g.units_per_program() as u64 * 4096) as f64;
    let xfer = (g.units_per_program() as u64 * t.unit_transfer_ns()) as f64;
    let stripes = (g.pages_per_block / 3) as f64;
    let fold = stripes * (t.slc_read_ns as f64 + 2.0 * xfer) + stripes / 3.0 * t.program_ns as f64 + t.erase_ns as f64;
    let write = stripes * (xfer + t.slc_program_ns as f64);
    let expected = g.dies as f64 * stripes * program_bytes / (fold + write) * 1e3;
    let table = run(&small_samsung("980-1000", "whole-drive-fill", serde_json::json!({})));
    let (gb, mb_s) = (column(&table, "gb_written"), column(&table, "mb_s"));
    // In the cache: one 1 MiB command at a time, fetched at host.write_fetch_mb_s.
    let in_cache = mb_s[1..4].iter().sum::<f64>() / 3.0;
    assert!((in_cache / d.host.write_fetch_mb_s as f64 - 1.0).abs() < 0.03, "{in_cache} MB/s in the cache");
    // From the cache's end until the native blocks run low (~30 GB at this size: the cache's
    // 20 GB of SLC data take three times that of blocks; the full drive keeps the rate to ~800 GB).
    let after: Vec<f64> = gb.iter().zip(&mb_s).filter(|(g, _)| (21.0..30.0).contains(*g)).map(|(_, m)| *m).collect();
    let after = after.iter().sum::<f64>() / after.len() as f64;
    assert!((after / expected - 1.0).abs() < 0.05, "{after} MB/s after the cache vs {expected} from the timings");
}

/// The Atom 50 1TB at 120 of its 1820 blocks per plane: its user span (66 GB) and SLC cache
/// (18.5 GB) scaled with them, GC's thresholds as `calibrate::scaled` takes them. The same dies,
/// channels and timings: the same speeds, each phase 120/1820 as long.
const ATOM50_SCALE: f64 = 120.0 / 1820.0;

#[test]
fn the_atom_50_fills_in_slc_then_writes_tlc_directly_then_folds_to_the_end() {
    let set = serde_json::json!({
        "geometry.blocks_per_plane": 120, "user_bytes": 65_934_065_664u64, "gc.start_free_blocks": 4,
        "gc.boost_below_free_blocks": 2, "gc.boost_until_free_blocks": 3, "gc.background_free_blocks": 4,
        "slc_cache.dynamic_max_bytes": 18_460_000_000u64 });
    let r = serde_json::json!({ "experiment": "whole-drive-fill", "drive": "atom50-1000", "set": set });
    let table = run(&ExperimentRequest::from_json(&r.to_string()).unwrap());
    let (gb, mb_s, fold) = (column(&table, "gb_written"), column(&table, "mb_s"), column(&table, "fold_mb_s"));
    let mean = |from: usize, to: usize| mb_s[from..to].iter().sum::<f64>() / (to - from) as f64;
    // Where a phase ends: the first second of two below the speed, as calibrate's phase_end_gb.
    let end_below = |limit: f64| (1..mb_s.len() - 1).find(|&i| mb_s[i] < limit && mb_s[i + 1] < limit).unwrap();
    let full_size_gb = |i: usize| gb[i - 1] / ATOM50_SCALE;
    // Issue 20 (TPU's fill): over 4.5 GB/s until 280 GB; ~2 GB/s direct to TLC until almost
    // 500 GB; ~500 MB/s while folding, to the end.
    let (cache_end, direct_end) = (end_below(3000.0), end_below(1200.0));
    assert!(mean(0, cache_end) > 4500.0, "{} MB/s in the SLC cache", mean(0, cache_end));
    assert!((full_size_gb(cache_end) / 280.0 - 1.0).abs() < 0.05, "cache full at {} GB", full_size_gb(cache_end));
    let direct = mean(cache_end + 1, direct_end - 1);
    assert!((direct / 2000.0 - 1.0).abs() < 0.15, "{direct} MB/s direct to TLC");
    assert!((full_size_gb(direct_end) / 490.0 - 1.0).abs() < 0.15, "direct until {} GB", full_size_gb(direct_end));
    // The direct phase writes TLC without folding; its end is where folding starts.
    assert!(fold[..direct_end - 1].iter().all(|&f| f == 0.0), "no folding before {} GB", gb[direct_end - 1]);
    let folding = mean(direct_end + 1, mb_s.len() - 1);
    assert!((folding / 500.0 - 1.0).abs() < 0.15, "{folding} MB/s while folding");
    assert!(fold[direct_end + 1..mb_s.len() - 1].iter().all(|&f| f > 0.0), "folding to the end");
    assert!((gb.last().unwrap() / ATOM50_SCALE / 1000.0 - 1.0).abs() < 0.01, "the whole span written");
}

/// The 870 QVO 1TB at 1/21 of its blocks (128 per plane): GC's thresholds as `calibrate::scaled`
/// takes them, its 42 GB cache a 2 GB one.
fn small_870qvo(extra: serde_json::Value) -> ExperimentRequest {
    let set = serde_json::json!({
        "geometry.blocks_per_plane": 128, "user_bytes": 46_869_274_624u64, "gc.start_free_blocks": 4,
        "gc.boost_below_free_blocks": 2, "gc.boost_until_free_blocks": 3, "gc.background_free_blocks": 4,
        "slc_cache.dynamic_max_bytes": 2_000_000_000u64 });
    let mut r = serde_json::json!({ "experiment": "dirty-recovery", "set": set });
    for (k, v) in extra.as_object().unwrap() {
        r[k] = v.clone();
    }
    ExperimentRequest::from_json(&r.to_string()).unwrap()
}

#[test]
fn a_dirty_drive_recovers_more_the_longer_it_rests_and_at_once_after_trim() {
    let r = small_870qvo(serde_json::json!({ "dirty_seconds": 300, "rest_seconds": [5, 120] }));
    let table = run(&r);
    let (state, rest) = (table.columns.iter().position(|c| c == "state").unwrap(), column(&table, "rest_s"));
    let rows: Vec<String> =
        table.rows.iter().zip(&rest).map(|(r, s)| format!("{} {s}", r[state].as_str().unwrap())).collect();
    assert_eq!(rows, ["secure-erased 0", "dirty 0", "rested 5", "rested 120", "trimmed 5", "trimmed 120"]);
    let [erased, dirty, rested_5, rested_120, trimmed_5, trimmed_120] = column(&table, "mb_s")[..] else { panic!() };
    // Dirty: the blocks nearly all valid data, each write waits for GC's relocations.
    assert!(dirty < 0.05 * erased, "dirty {dirty} vs secure-erased {erased} MB/s");
    // A rest folds the cache's data and collects (to gc.background_free_blocks): the longer, the
    // faster the write after it.
    assert!(
        rested_5 > dirty && rested_120 > 2.0 * rested_5,
        "dirty {dirty}, rested 5 s {rested_5}, 120 s {rested_120}"
    );
    // TRIM empties the blocks: an erase each makes them free, so the drive writes as a
    // secure-erased one does.
    for trimmed in [trimmed_5, trimmed_120] {
        assert!((trimmed / erased - 1.0).abs() < 0.03, "trimmed {trimmed} vs secure-erased {erased}");
    }
}

/// dirty-recovery's default rests include every rest of CDRLabs' test it models: "I let the
/// computer sit for about 30 minutes and then reran the test" (docs/sources/today-drives.md,
/// 870 QVO 1 TB, TRIM and recovery), 1800 s; its dirty and trimmed rows need them.
#[test]
fn dirty_recovery_rests_by_default_as_long_as_cdrlabs_did() {
    let (_, points) = small_870qvo(serde_json::json!({})).plan().unwrap();
    let rests = |state: &str| -> Vec<u64> {
        let of = |p: &&ssdlab_core::experiment::Point| p.labels.iter().any(|l| l.0 == "state" && l.1 == state);
        points
            .iter()
            .filter(of)
            .map(|p| p.labels.iter().find(|l| l.0 == "rest_s").unwrap().1.as_u64().unwrap())
            .collect()
    };
    for state in ["rested", "trimmed"] {
        assert!(rests(state).contains(&1800), "{state}: {:?}", rests(state));
    }
}
