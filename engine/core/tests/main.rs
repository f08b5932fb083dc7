//! The core's integration tests, one binary: each file below is a module, so the whole set links
//! once and the test harness spreads every test over the machine's cores (twenty binaries ran one
//! after another, each linked on its own, and a binary with one long test left the other core idle).
//! One file's tests: `cargo test --release -p ssdlab-core --test integration golden::`.

mod common;

mod app_hosts;
mod apps;
mod calibration;
mod d_choices;
mod data_path;
mod experiments;
mod fio;
mod fio_zones;
mod fuzz;
mod gc_policies;
mod golden;
mod host_interface;
mod mapping;
mod model;
mod placement;
mod placement_sweep;
mod power_loss;
mod presets;
mod raid;
mod s3700_consistency;
mod slc_cache;
mod thermal;
mod traces;
mod wear;
mod workloads;
mod zone_store;
mod zoned;
