//! The articles' IO-consistency test on the full-size S3700 200GB preset: the shape the
//! AnandTech scatter shows must come out of the model.

mod common;

use ssdlab_core::{RunRequest, Simulation, Summary};

fn consistency(span: f64) -> Summary {
    let req = RunRequest::from_json(&format!(r#"{{"drive":"s3700-200","seconds":2000,"span":{}}}"#, span)).unwrap();
    let samples = Simulation::new(req.resolve().unwrap()).unwrap().run_to_end();
    Summary::from_samples(&samples, 1400)
}

#[test]
fn s3700_full_span_reproduces_the_article_shape_and_more_spare_area_helps() {
    let full = consistency(1.0);
    // A fast phase while spare area absorbs writes, well above steady state.
    assert!(full.iops_max as f64 >= 1.5 * full.steady_iops_mean, "{:?}", full);
    // From t = 1400 s: every second between 25K and 40K, spread under 25 %, mean near 32K.
    assert!(full.steady_iops_min >= 25_000 && full.steady_iops_max <= 40_000, "{:?}", full);
    assert!(full.steady_spread < 0.25, "{:?}", full);
    assert!((full.steady_iops_mean - 32_000.0).abs() / 32_000.0 < 0.15, "{:?}", full);

    // Testing half the LBAs leaves the rest as spare area: faster, less amplification.
    let half = consistency(0.5);
    assert!(half.steady_iops_mean > full.steady_iops_mean * 1.2, "{:?} vs {:?}", half, full);
    assert!(half.steady_write_amplification < full.steady_write_amplification - 0.3, "{:?} vs {:?}", half, full);
}
