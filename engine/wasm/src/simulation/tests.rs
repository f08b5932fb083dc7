#![allow(clippy::unwrap_used)]
use super::*;
#[cfg(feature = "full")]
use crate::catalog::check_request;
use crate::json;

#[test]
#[cfg(feature = "full")]
fn runs_a_fio_job_file() {
    let job = "[w]\nioengine=libaio\nrw=randwrite\niodepth=16\nruntime=2\ntime_based\n";
    let set = r#"{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
        "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}"#;
    let request = format!(r#"{{"drive":"s3700-200","set":{},"fio":{}}}"#, set, serde_json::Value::String(job.into()));
    let mut sim = Simulation::new(&request).unwrap();
    let columns = sim.advance(1e9);
    // The job file's runtime ends the run; its queue depth keeps the drive busy.
    assert!(sim.finished());
    assert_eq!(sim.seconds_done(), 2);
    let iops = FIELDS.iter().position(|f| *f == "iops").unwrap();
    assert!(columns[iops * 2..iops * 2 + 2].iter().all(|&n| n > 1000.0), "{columns:?}");
}

#[test]
#[cfg(feature = "full")]
fn replays_a_trace_in_a_run_request() {
    let request = serde_json::json!({
        "drive": "s3700-200", "seconds": 30, "queue_depth": 4,
        "set": {"geometry.blocks_per_plane": 64, "user_bytes": 6000000000u64, "gc.start_free_blocks": 6,
                "gc.boost_below_free_blocks": 3, "gc.boost_until_free_blocks": 5, "gc.background_free_blocks": 8},
        "trace": {"text": "0 0 0 8 0\n1500000000 0 8 8 1\n", "name": "two.trace"}
    });
    assert_eq!(json(&check_request(&request.to_string()))["ok"], true);
    let mut sim = Simulation::new(&request.to_string()).unwrap();
    let mut columns = Vec::new();
    while !sim.finished() {
        columns.extend(sim.advance(1e6));
    }
    // Two commands, a second and a half apart: the run ends with the trace, after 2 s.
    assert_eq!(sim.seconds_done(), 2);
    let iops = FIELDS.iter().position(|f| *f == "iops").unwrap();
    assert_eq!(&columns[iops * 2..iops * 2 + 2], &[1.0, 1.0]);
    let bad = request.to_string().replace("1500000000 0 8 8 1", "1500000000 0 8 8");
    let e = json(&check_request(&bad));
    assert_eq!(e["field"], "trace");
    assert!(e["message"].as_str().unwrap().starts_with("line 2:"), "{e}");
}

#[test]
fn reports_power_cuts_and_the_resolved_drive() {
    let request = r#"{"drive":"s3700-200","seconds":3,"power_cuts_s":[1.5],
        "set":{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
               "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}}"#;
    let mut sim = Simulation::new(request).unwrap();
    while !sim.finished() {
        sim.advance(1e6);
    }
    let cuts = json(&sim.power_cuts_json());
    assert_eq!(cuts.as_array().unwrap().len(), 1);
    assert_eq!(cuts[0]["at_s"], 1.5);
    assert_eq!(cuts[0]["acknowledged_writes_lost"], 0);
    assert!(cuts[0]["rebuild_ms"].as_f64().unwrap() > 0.0);
    assert_eq!(json(&sim.parameters_json())["geometry.blocks_per_plane"], 64);
}

#[test]
fn steps_a_second_cuts_power_and_shows_the_drive_inside() {
    let request = r#"{"drive":"s3700-200","seconds":20,
        "set":{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
               "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}}"#;
    let mut sim = Simulation::new(request).unwrap();
    // A step: one second, then on to the end of second 3.
    let cols = sim.advance_inside(1e9, 1);
    assert_eq!(cols.len(), FIELDS.len(), "exactly one second");
    assert_eq!(sim.seconds_done(), 1);
    sim.advance_inside(1e9, 3);
    assert_eq!(sim.seconds_done(), 3);
    let at = sim.cut_power_now();
    assert!((3.0..4.0).contains(&at), "{}", at);
    sim.advance_inside(1e9, 5);
    let cuts = json(&sim.power_cuts_json());
    assert_eq!(cuts.as_array().unwrap().len(), 1);
    assert_eq!(cuts[0]["acknowledged_writes_lost"], 0);
    let (dies, row) = (33, json(&sim.inside_layout())["row"].as_u64().unwrap() as usize);
    let second_5 = &sim.inside()[row..];
    assert!(second_5[..dies * WORK_KINDS].iter().sum::<f64>() > 0.0, "the dies worked");
    // The blocks in service: 64 per die less the 5 (9 %) the firmware reserves.
    assert_eq!(second_5[dies * WORK_KINDS + 32..dies * WORK_KINDS + 48].iter().sum::<f64>(), (dies * 59) as f64);
    sim.set_capacitors_healthy(false);
    sim.cut_power_now();
    sim.advance_inside(1e9, 7);
    let cuts = json(&sim.power_cuts_json());
    assert!(cuts[1]["acknowledged_writes_lost"].as_u64().unwrap() > 0, "{cuts}");
}

#[test]
fn records_the_inside_of_every_member_of_an_array() {
    let request = r#"{"drive":"s3700-200","seconds":6,"raid":{"drives":3,"stripe_kib":16},
        "set":{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
               "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}}"#;
    let mut sim = Simulation::new(request).unwrap();
    let layout = json(&sim.inside_layout());
    let n_of = |k: &str| layout[k].as_u64().unwrap() as usize;
    let (dies, member_row, row) = (n_of("dies"), n_of("member_row"), n_of("row"));
    assert_eq!((n_of("members"), member_row, row), (3, dies * WORK_KINDS + 50, 3 * member_row));
    let field = |name: &str| FIELDS.iter().position(|f| *f == name).unwrap();
    let cols = sim.advance_inside(1e9, u32::MAX);
    let inside = sim.inside();
    let n = cols.len() / FIELDS.len();
    assert_eq!((n, inside.len()), (6, 6 * row));
    for r in 0..n {
        // The sample's share is the mean over every member's dies; each member did its part.
        let at = &inside[r * row..(r + 1) * row];
        let program = |m: usize| (0..dies).map(|d| at[m * member_row + d * WORK_KINDS + 1]).sum::<f64>() / dies as f64;
        let mean = (0..3).map(program).sum::<f64>() / 3.0;
        // (To 1e-4: for an array the two differ in the fifth digit; a single drive's agree exactly.)
        let sample = cols[field("die_host_program") * n + r];
        assert!((mean - sample).abs() < 1e-4 * sample, "second {r}: {mean} vs {sample}");
        assert!((0..3).all(|m| program(m) > 0.05), "second {r}: {:?}", (0..3).map(program).collect::<Vec<_>>());
        // Each member counts its own blocks in service (59 per die after the firmware reserve).
        for m in 0..3 {
            let erase = &at[m * member_row + dies * WORK_KINDS + 32..m * member_row + dies * WORK_KINDS + 48];
            assert_eq!(erase.iter().sum::<f64>(), (dies * 59) as f64);
        }
    }
}

#[test]
fn records_each_seconds_inside_and_every_latency() {
    let request = r#"{"drive":"s3700-200","seconds":12,
        "set":{"geometry.blocks_per_plane":64,"user_bytes":6000000000,"gc.start_free_blocks":6,
               "gc.boost_below_free_blocks":3,"gc.boost_until_free_blocks":5,"gc.background_free_blocks":8}}"#;
    let mut sim = Simulation::new(request).unwrap();
    let layout = json(&sim.inside_layout());
    let (dies, row) = (layout["dies"].as_u64().unwrap() as usize, layout["row"].as_u64().unwrap() as usize);
    assert_eq!(row, dies * WORK_KINDS + 32 + 16 + 2);
    let field = |name: &str| FIELDS.iter().position(|f| *f == name).unwrap();
    let (mut seconds, mut ios) = (0, 0.0);
    while !sim.finished() {
        // Stops after second 5 first, as a step does.
        let cols = sim.advance_inside(7_000.0, if seconds < 5 { 5 } else { u32::MAX });
        let inside = sim.inside();
        let n = cols.len() / FIELDS.len();
        assert_eq!(inside.len(), n * row);
        for r in 0..n {
            let at = &inside[r * row..(r + 1) * row];
            // The dies' shares add up to the sample's drive-wide share of each kind.
            for (k, name) in [
                "die_host_read",
                "die_host_program",
                "die_gc_read",
                "die_gc_program",
                "die_erase",
                "die_map",
                "die_fold",
            ]
            .iter()
            .enumerate()
            {
                let sum: f64 = (0..dies).map(|d| at[d * WORK_KINDS + k]).sum::<f64>() / dies as f64;
                let sample = cols[field(name) * n + r];
                assert!((sum - sample).abs() < 1e-9, "{name} second {}: {sum} vs {sample}", seconds + r);
            }
            let erase_bins = &at[dies * WORK_KINDS + 32..dies * WORK_KINDS + 48];
            // The blocks in service: 64 per die less the 5 (9 %) the firmware reserves.
            assert_eq!(erase_bins.iter().sum::<f64>(), (dies * 59) as f64);
            assert_eq!(at[row - 2], cols[field("erase_count_min") * n + r]);
            assert_eq!(at[row - 1], cols[field("erase_count_max") * n + r]);
            ios += cols[field("iops") * n + r];
        }
        seconds += n;
        if seconds < 5 {
            assert!(sim.seconds_done() <= 5);
        }
    }
    assert_eq!(seconds, 12);
    let h = sim.latency_histogram();
    let counted: f64 = h.chunks(3).map(|b| b[2]).sum();
    // Every command's latency, in the seconds it completed in.
    assert_eq!(counted, ios);
    assert!(h.chunks(3).all(|b| b[0] < b[1]));
}

/// The inside row's part after the erase histogram: handle counts, then zones.
#[cfg(feature = "full")]
fn extra_part(sim: &Simulation) -> (serde_json::Value, Vec<f64>) {
    let layout = json(&sim.inside_layout());
    let (dies, row) = (layout["dies"].as_u64().unwrap() as usize, layout["row"].as_u64().unwrap() as usize);
    let inside = sim.inside();
    let last = &inside[inside.len() - row..];
    (layout, last[dies * WORK_KINDS + 50..].to_vec())
}

/// A drive given FDP handles by `set` and a job tagging its writes over handles 0-3: each die's
/// counts by handle add up to its blocks holding data (open and closed), and tags other than
/// handle 0 reached the blocks.
#[test]
#[cfg(feature = "full")]
fn counts_each_dies_blocks_by_placement_handle() {
    let job = "[w]\nrw=randwrite\nbs=64k\niodepth=16\nruntime=4\ntime_based\nfdp=1\nplids=0-3\n";
    let request = serde_json::json!({
        "drive": "s3700-200", "fio": job,
        "set": {"geometry.blocks_per_plane": 64, "user_bytes": 6000000000u64, "gc.start_free_blocks": 6,
                "gc.boost_below_free_blocks": 3, "gc.boost_until_free_blocks": 5, "gc.background_free_blocks": 8,
                "placement.kind": "fdp", "placement.handles": 4}
    });
    let mut sim = Simulation::new(&request.to_string()).unwrap();
    sim.advance_inside(1e9, u32::MAX);
    assert!(sim.finished());
    let (layout, part) = extra_part(&sim);
    assert_eq!(layout["handles"], 4);
    assert!(layout.get("zones").is_none());
    let dies = layout["dies"].as_u64().unwrap() as usize;
    assert_eq!(part.len(), dies * 5);
    let ftl = sim.sim.drive().ftl();
    let in_service = sim.sim.config().drive.blocks_in_service_per_die() as f64;
    for d in 0..dies {
        let counts = &part[d * 5..(d + 1) * 5];
        let free = ftl.die_free_blocks(d as u32) as f64 + ftl.has_victim(d as u32) as u8 as f64;
        assert_eq!(counts.iter().sum::<f64>(), in_service - free, "die {d}: {counts:?}");
    }
    let per_handle = |h: usize| (0..dies).map(|d| part[d * 5 + h]).sum::<f64>();
    assert!((1..4).all(|h| per_handle(h) > 0.0), "{:?}", (0..5).map(per_handle).collect::<Vec<_>>());
}

/// On a zoned drive each zone's state and write pointer (a share of its capacity) are the
/// drive's zone table: empty zones at 0, full ones at 1, open ones between.
#[test]
#[cfg(feature = "full")]
fn shows_each_zones_state_and_write_pointer() {
    let job = "[z]\nzonemode=zbd\nzonesize=2g\nrw=randwrite\nbs=128k\niodepth=32\nio_size=30g\n";
    let request = serde_json::json!({ "drive": "zn540-small", "precondition": "none", "seconds": 60, "fio": job });
    let mut sim = Simulation::new(&request.to_string()).unwrap();
    sim.advance_inside(1e9, u32::MAX);
    let (layout, part) = extra_part(&sim);
    assert!(layout.get("handles").is_none());
    assert_eq!(layout["zones"], 20);
    let names = layout["zone_states"].as_array().unwrap();
    assert_eq!(part.len(), 40);
    let zones = sim.sim.drive().zones().unwrap();
    let capacity = (1056u64 << 20) / 4096;
    let mut seen = std::collections::BTreeSet::new();
    for z in 0..20 {
        let (state, wp) = (names[part[2 * z] as usize].as_str().unwrap(), part[2 * z + 1]);
        let written = zones.write_pointer(z as u32) - zones.start(z as u32);
        assert_eq!(wp, written as f64 / capacity as f64, "zone {z}");
        assert_eq!(state, ZONE_STATES.iter().find(|(s, _)| *s == zones.state(z as u32)).unwrap().1);
        match state {
            "empty" => assert_eq!(wp, 0.0),
            "full" => assert_eq!(wp, 1.0),
            _ => assert!(wp > 0.0 && wp < 1.0, "zone {z} {state} at {wp}"),
        }
        seen.insert(state);
    }
    assert!(seen.contains("full") && seen.len() > 1, "{seen:?}");
}
