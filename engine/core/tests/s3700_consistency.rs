//! The articles' IO-consistency test on the full-size S3700 200GB preset: the shape the
//! AnandTech scatter shows must come out of the model.

use std::sync::OnceLock;

use ssdlab_core::{Bench, RunRequest, Sample, Summary};

fn consistency(span: f64) -> (Summary, Vec<Sample>) {
    let req = RunRequest::from_json(&format!(r#"{{"drive":"s3700-200","seconds":2000,"span":{}}}"#, span)).unwrap();
    let samples = Bench::new(req.resolve().unwrap()).unwrap().run_to_end();
    (Summary::from_samples(&samples, 1400), samples)
}

/// Runs of consecutive seconds below 95 % of the median: (start, length).
fn dips(samples: &[Sample]) -> Vec<(u32, u32)> {
    let mut iops: Vec<u32> = samples.iter().map(|s| s.iops).collect();
    iops.sort_unstable();
    let threshold = iops[iops.len() / 2] as f64 * 0.95;
    let mut runs = Vec::new();
    let mut start = None;
    for s in samples {
        match (s.iops as f64) < threshold {
            true if start.is_none() => start = Some(s.second),
            false if start.is_some() => {
                let b = start.take().unwrap();
                runs.push((b, s.second - b));
            }
            _ => {}
        }
    }
    runs
}

/// The full-span run, made once for both tests that read it (a 2000 s run of the full-size drive).
fn full_span() -> &'static (Summary, Vec<Sample>) {
    static RUN: OnceLock<(Summary, Vec<Sample>)> = OnceLock::new();
    RUN.get_or_init(|| consistency(1.0))
}

#[test]
fn s3700_full_span_reproduces_the_article_shape_and_more_spare_area_helps() {
    let (full, _) = full_span();
    // A fast phase while spare area absorbs writes, well above steady state.
    assert!(full.iops_max as f64 >= 1.5 * full.steady_iops_mean, "{:?}", full);
    // From t = 1400 s: every second within 29,000-35,000 (the article: 29,150-34,865), mean
    // near 32K.
    assert!(full.steady_iops_min >= 29_000 && full.steady_iops_max <= 35_000, "{:?}", full);
    assert!(full.steady_spread < 0.25, "{:?}", full);
    assert!((full.steady_iops_mean - 32_000.0).abs() / 32_000.0 < 0.15, "{:?}", full);

    // Testing half the LBAs leaves the rest as spare area: faster, less amplification.
    let (half, _) = consistency(0.5);
    assert!(half.steady_iops_mean > full.steady_iops_mean * 1.2, "{:?} vs {:?}", half, full);
    assert!(half.steady_write_amplification < full.steady_write_amplification - 0.3, "{:?} vs {:?}", half, full);
}

#[test]
fn s3700_steady_state_shows_periodic_clean_ups() {
    // The article: "Roughly every 150 seconds there's a tangible drop in performance ...
    // roughly 30 - 40 seconds". The model's GC hysteresis should give the same rhythm.
    let (_, samples) = full_span();
    let runs: Vec<(u32, u32)> = dips(&samples[1000..]).into_iter().filter(|&(_, len)| len >= 10).collect();
    assert!(runs.len() >= 4, "expected several clean-up dips after 1000 s, got {:?}", runs);
    for pair in runs.windows(2) {
        let period = pair[1].0 - pair[0].0;
        assert!((100..=200).contains(&period), "dip period {} s in {:?}", period, runs);
    }
    for &(start, len) in &runs {
        assert!((15..=60).contains(&len), "dip length {} s in {:?}", len, runs);
        // Each dip is the drive-wide clean-up, and the samples say so.
        assert_eq!(samples[(start + len / 2) as usize].gc_boost, 1, "dip at {} s", start);
    }
    assert_eq!(samples[(runs[0].0 - 20) as usize].gc_boost, 0);
}
