//! The power section: capacitors and what the drive does without them.

use serde::{Deserialize, Serialize};

use super::limits::Limit;
use crate::units::MAX_SECONDS;

/// Power-loss protection and the write buffer's durability [000].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerConfig {
    /// The drive has a capacitor bank that can flush the buffer on power loss.
    pub capacitors: bool,
    /// Total capacitance, microfarads (the S3700: two 47 uF).
    pub capacitance_uf: u64,
    /// Voltage the bank is charged to, millivolts (the S3700's are 35 V parts).
    pub charge_mv: u64,
    /// Voltage below which the regulators can no longer run the drive, millivolts.
    pub cutoff_mv: u64,
    /// Power the drive draws while flushing, milliwatts (the S3700: up to 6 W active).
    pub flush_power_mw: u64,
    /// Without healthy capacitors, acknowledge writes from the buffer anyway (a consumer drive's
    /// volatile write cache); otherwise the drive writes through.
    pub volatile_cache: bool,
    /// Seconds between capacitor self-tests.
    pub self_test_interval_s: u32,
    /// Simulated second at which the capacitor bank fails (0: never); the next self-test finds it,
    /// turns write buffering off and raises the SMART flag.
    pub capacitor_fails_at_s: u32,
}

impl PowerConfig {
    /// Energy the bank delivers between charge and cutoff, microjoules: C (V^2 - Vmin^2) / 2.
    pub fn stored_energy_uj(&self) -> u64 {
        if !self.capacitors {
            return 0;
        }
        let v2 = |mv: u64| mv as u128 * mv as u128; // mV^2
                                                    // uF x mV^2 = 1e-6 F x 1e-6 V^2 = 1e-12 J; / 1e6 -> uJ.
        (self.capacitance_uf as u128 * (v2(self.charge_mv) - v2(self.cutoff_mv)) / 2 / 1_000_000) as u64
    }

    pub fn limits(&self) -> Vec<Limit> {
        vec![
            Limit::whole("power.capacitance_uf", self.capacitance_uf, 0, 1_000_000),
            Limit::whole("power.charge_mv", self.charge_mv, 0, 100_000),
            Limit::whole("power.cutoff_mv", self.cutoff_mv, 0, self.charge_mv),
            Limit::whole("power.flush_power_mw", self.flush_power_mw, 1, 100_000),
            Limit::whole("power.self_test_interval_s", self.self_test_interval_s as u64, 1, MAX_SECONDS as u64),
        ]
    }
}
