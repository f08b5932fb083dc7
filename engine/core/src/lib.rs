//! SSD Lab's drive model. Platform-free: no wasm, CLI or browser knowledge lives here.
//!
//! Layers, top to bottom: host (closed-loop queue, link, controller, write buffer) in `sim`,
//! flash translation (`ftl`: page map, blocks, greedy victims), NAND timing (`nand`).

pub mod config;
pub mod ftl;
pub mod mapping;
pub mod metrics;
pub mod nand;
pub mod power;
pub mod presets;
pub mod rng;
pub mod sim;
pub mod workload;

pub use config::{ConfigError, DriveConfig, RunConfig, RunRequest};
pub use metrics::{Sample, Summary, FIELDS};
pub use sim::Simulation;
