//! Heat: what the drive's work draws, how its cooling carries it away, and where the firmware
//! throttles. Only drives with the section have a temperature (`drive/thermal.rs`).

use serde::{Deserialize, Serialize};

use super::limits::{check_limits, Limit};
use crate::units::{range, ConfigError};

/// What cools the drive: each setting is one thermal resistance to the air around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cooling {
    /// The bare M.2 board in a case.
    Bare,
    /// A thin heat spreader (a label or a metal plate) on the chips.
    Spreader,
    /// A finned heatsink.
    Heatsink,
    /// A fan blowing on the drive.
    Fan,
}

impl Cooling {
    pub const ALL: [Cooling; 4] = [Cooling::Bare, Cooling::Spreader, Cooling::Heatsink, Cooling::Fan];
}

/// Throttle steps a drive may have.
pub const MAX_THROTTLE_STEPS: usize = 4;
/// The hottest threshold allowed, °C.
const MAX_THRESHOLD_C: u64 = 150;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThermalConfig {
    /// The cooling fitted in this run.
    pub cooling: Cooling,
    /// Air around the drive, °C.
    pub ambient_c: f64,
    /// Heat the drive stores per kelvin, J/K (one lumped node: board, chips and what is on them).
    pub heat_capacity_j_per_k: f64,
    /// Thermal resistance from the drive to the air with each cooling setting, K/W.
    pub bare_k_per_w: f64,
    pub spreader_k_per_w: f64,
    pub heatsink_k_per_w: f64,
    pub fan_k_per_w: f64,
    /// Power with no work (controller, PHY, leakage), W.
    pub idle_w: f64,
    /// Power of one die for as long as it programs (folds included), reads or erases, with its
    /// share of the controller and channel moving that data, W.
    pub program_w: f64,
    pub read_w: f64,
    pub erase_w: f64,
    /// Throttle steps: above `throttle_above_c[i]` °C the host link is held to
    /// `throttle_mb_s[i]` MB/s, from the next second; hotter steps are slower.
    pub throttle_above_c: Vec<u32>,
    pub throttle_mb_s: Vec<u32>,
    /// A step is left once the drive is this much cooler than its threshold, K.
    pub hysteresis_c: f64,
}

impl ThermalConfig {
    /// The thermal resistance of the cooling fitted, K/W.
    pub fn resistance_k_per_w(&self) -> f64 {
        match self.cooling {
            Cooling::Bare => self.bare_k_per_w,
            Cooling::Spreader => self.spreader_k_per_w,
            Cooling::Heatsink => self.heatsink_k_per_w,
            Cooling::Fan => self.fan_k_per_w,
        }
    }

    /// The numbers' limits. The smallest resistance and capacity keep the time constant (R C)
    /// above the model's 100 ms integration step, so the temperature never overshoots.
    pub fn limits(&self) -> Vec<Limit> {
        let watts = |path, w| Limit::real(path, w, 0.0, 50.0);
        let kelvin_per_watt = |path, r| Limit::real(path, r, 0.5, 100.0);
        vec![
            Limit::real("thermal.ambient_c", self.ambient_c, -20.0, 60.0),
            Limit::real("thermal.heat_capacity_j_per_k", self.heat_capacity_j_per_k, 0.5, 100_000.0),
            kelvin_per_watt("thermal.bare_k_per_w", self.bare_k_per_w),
            kelvin_per_watt("thermal.spreader_k_per_w", self.spreader_k_per_w),
            kelvin_per_watt("thermal.heatsink_k_per_w", self.heatsink_k_per_w),
            kelvin_per_watt("thermal.fan_k_per_w", self.fan_k_per_w),
            watts("thermal.idle_w", self.idle_w),
            watts("thermal.program_w", self.program_w),
            watts("thermal.read_w", self.read_w),
            watts("thermal.erase_w", self.erase_w),
            Limit::real("thermal.hysteresis_c", self.hysteresis_c, 0.0, 50.0),
        ]
    }

    /// The limits, and the steps: one threshold and one speed each, hotter thresholds with
    /// slower speeds, each within the host link's speed.
    pub fn check(&self, link_mb_s: u64) -> Result<(), ConfigError> {
        check_limits(&self.limits())?;
        let (above, mb_s) = (&self.throttle_above_c, &self.throttle_mb_s);
        if above.is_empty() || above.len() > MAX_THROTTLE_STEPS {
            return Err(ConfigError::new(
                "thermal.throttle_above_c",
                format!("needs 1 to {} thresholds (got {})", MAX_THROTTLE_STEPS, above.len()),
            ));
        }
        if mb_s.len() != above.len() {
            return Err(ConfigError::new(
                "thermal.throttle_mb_s",
                format!("needs one speed per threshold: {} (got {})", above.len(), mb_s.len()),
            ));
        }
        for i in 0..above.len() {
            let coolest = if i == 0 { 1 } else { above[i - 1] as u64 + 1 };
            range(&format!("thermal.throttle_above_c[{}]", i), above[i] as u64, coolest, MAX_THRESHOLD_C)?;
            let fastest = if i == 0 { link_mb_s } else { mb_s[i - 1] as u64 };
            range(&format!("thermal.throttle_mb_s[{}]", i), mb_s[i] as u64, 1, fastest)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{presets, set_parameter, DriveConfig};
    use serde_json::json;

    fn hot_drive() -> DriveConfig {
        let mut d = presets::by_id("s3700-200").unwrap();
        d.thermal = Some(ThermalConfig {
            cooling: Cooling::Bare,
            ambient_c: 40.0,
            heat_capacity_j_per_k: 20.0,
            bare_k_per_w: 12.0,
            spreader_k_per_w: 10.0,
            heatsink_k_per_w: 6.0,
            fan_k_per_w: 4.0,
            idle_w: 0.5,
            program_w: 0.3,
            read_w: 0.1,
            erase_w: 0.1,
            throttle_above_c: vec![75, 85],
            throttle_mb_s: vec![200, 40],
            hysteresis_c: 2.0,
        });
        d.validate().unwrap();
        d
    }

    fn refusal(d: &DriveConfig, path: &str, value: serde_json::Value) -> (String, String) {
        let e = set_parameter(d, path, value).unwrap_err();
        (e.field, e.message)
    }

    #[test]
    fn the_cooling_is_a_parameter_and_bad_values_are_named_with_their_range() {
        let d = hot_drive();
        let fan = set_parameter(&d, "thermal.cooling", json!("fan")).unwrap();
        assert_eq!(fan.thermal.as_ref().unwrap().resistance_k_per_w(), 4.0);
        assert_eq!(d.thermal.as_ref().unwrap().resistance_k_per_w(), 12.0);
        assert_eq!(refusal(&d, "thermal.cooling", json!("ice")).0, "thermal.cooling");
        assert_eq!(
            refusal(&d, "thermal.fan_k_per_w", json!(0.1)),
            ("thermal.fan_k_per_w".into(), "must be between 0.5 and 100 (got 0.1)".into())
        );
        assert_eq!(refusal(&d, "thermal.idle_w", json!(-1.0)).0, "thermal.idle_w");
        assert_eq!(
            refusal(&d, "thermal.throttle_mb_s", json!([200])),
            ("thermal.throttle_mb_s".into(), "needs one speed per threshold: 2 (got 1)".into())
        );
        // A hotter step is slower, and no step is faster than the link (s3700: SATA, 550 MB/s).
        assert_eq!(
            refusal(&d, "thermal.throttle_mb_s", json!([200, 300])),
            ("thermal.throttle_mb_s[1]".into(), "must be between 1 and 200 (got 300)".into())
        );
        assert_eq!(refusal(&d, "thermal.throttle_mb_s", json!([600, 40])).0, "thermal.throttle_mb_s[0]");
        assert_eq!(
            refusal(&d, "thermal.throttle_above_c", json!([75, 70])),
            ("thermal.throttle_above_c[1]".into(), "must be between 76 and 150 (got 70)".into())
        );
        assert_eq!(refusal(&d, "thermal.throttle_above_c", json!([])).0, "thermal.throttle_above_c");
        // A drive without the section has none of its parameters.
        let plain = presets::by_id("s3700-200").unwrap();
        assert_eq!(refusal(&plain, "thermal.cooling", json!("fan")).0, "set");
    }
}
