//! SSD Lab's drive model. Platform-free: no wasm, CLI or browser knowledge lives here.
//!
//! The parts, calls flowing down (see ARCHITECTURE.md at the repository's root):
//!
//! - `experiment`: the articles' methods as lists of benches, one table each;
//! - `request`: a run request's names (preset, workload, GC policy) resolved into a `RunConfig`;
//! - `bench`: wires a host to a drive, owns the clock, power cuts and per-second samples;
//! - `host`: what issues commands (closed loop, queue depth, bursts; workload sources);
//! - `drive`: one SSD, taking commands and giving back completion times;
//! - `command`: what crosses from host to drive;
//! - `config`: plain data at the bottom (sections per drive part, presets from data files);
//! - `timeline`, `rng`, `units`: the ground floor.

pub mod bench;
pub mod command;
pub mod config;
pub mod drive;
pub mod experiment;
pub mod host;
pub mod request;
pub mod rng;
pub mod timeline;
pub mod units;

pub use bench::{Bench, Sample, Summary, FIELDS, FIELDS_V1};
pub use config::{presets, ConfigError, DriveConfig, RunConfig};
pub use request::RunRequest;
