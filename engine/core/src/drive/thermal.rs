//! Heat (drives with `[thermal]`): one lumped RC node. Each second the dies' booked work sets
//! the power drawn, `C dT/dt = P - (T - T_ambient) / R` moves the temperature, and the firmware
//! throttles the host link in steps while the drive is too hot, leaving a step once it has
//! cooled `hysteresis_c` below its threshold. Called once per simulated second, never per IO.

use super::nand::{Work, WORK_KINDS};
use crate::config::ThermalConfig;
use crate::units::NS_PER_S;

/// Explicit Euler steps per second: only `+ - * /` on `f64`, so native and wasm give the same
/// bits (no `exp`). The config keeps R C above one step.
const STEPS_PER_SECOND: u32 = 10;

pub struct Thermal {
    cfg: ThermalConfig,
    resistance_k_per_w: f64,
    temperature_c: f64,
    /// 0: not throttled; `i + 1`: held to `throttle_mb_s[i]`.
    step: usize,
    /// The dies' booked time by kind at the last second's end, ns.
    counted_busy_ns: [u64; WORK_KINDS],
}

impl Thermal {
    /// A drive that has idled long enough to sit at its idle temperature.
    pub fn new(cfg: &ThermalConfig) -> Self {
        let resistance_k_per_w = cfg.resistance_k_per_w();
        Thermal {
            temperature_c: cfg.ambient_c + cfg.idle_w * resistance_k_per_w,
            resistance_k_per_w,
            step: 0,
            counted_busy_ns: [0; WORK_KINDS],
            cfg: cfg.clone(),
        }
    }

    pub fn temperature_c(&self) -> f64 {
        self.temperature_c
    }

    /// The throttle step: 0 when not throttled.
    pub fn step(&self) -> u32 {
        self.step as u32
    }

    /// A second has ended with the dies' booked time by kind so far (`Nand::total_busy_ns`):
    /// its work heats the drive, and the throttle follows the temperature. Returns the host
    /// link's cap for the next second, MB/s (None: not throttled).
    pub fn second_ended(&mut self, busy_ns: &[u64; WORK_KINDS]) -> Option<u32> {
        let die_s = |kinds: &[Work]| {
            kinds.iter().map(|&k| busy_ns[k as usize] - self.counted_busy_ns[k as usize]).sum::<u64>() as f64
                / NS_PER_S as f64
        };
        let c = &self.cfg;
        let power_w = c.idle_w
            + c.program_w * die_s(&[Work::HostProgram, Work::GcProgram, Work::Fold])
            + c.read_w * die_s(&[Work::HostRead, Work::GcRead, Work::Map])
            + c.erase_w * die_s(&[Work::Erase]);
        self.counted_busy_ns = *busy_ns;
        self.heat(power_w);
        self.throttle()
    }

    /// One second at `power_w`.
    fn heat(&mut self, power_w: f64) {
        let dt_s = 1.0 / STEPS_PER_SECOND as f64;
        let (ambient, r, capacity) = (self.cfg.ambient_c, self.resistance_k_per_w, self.cfg.heat_capacity_j_per_k);
        for _ in 0..STEPS_PER_SECOND {
            self.temperature_c += (power_w - (self.temperature_c - ambient) / r) * dt_s / capacity;
        }
    }

    /// Enters each step whose threshold the drive has reached, leaves each it has cooled
    /// `hysteresis_c` below.
    fn throttle(&mut self) -> Option<u32> {
        let (above, t) = (&self.cfg.throttle_above_c, self.temperature_c);
        while self.step < above.len() && t >= above[self.step] as f64 {
            self.step += 1;
        }
        while self.step > 0 && t < above[self.step - 1] as f64 - self.cfg.hysteresis_c {
            self.step -= 1;
        }
        self.step.checked_sub(1).map(|i| self.cfg.throttle_mb_s[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Cooling;

    fn config() -> ThermalConfig {
        ThermalConfig {
            cooling: Cooling::Bare,
            ambient_c: 40.0,
            heat_capacity_j_per_k: 20.0,
            bare_k_per_w: 10.0,
            spreader_k_per_w: 8.0,
            heatsink_k_per_w: 5.0,
            fan_k_per_w: 3.0,
            idle_w: 0.5,
            program_w: 0.25,
            read_w: 0.1,
            erase_w: 0.2,
            throttle_above_c: vec![70, 80],
            throttle_mb_s: vec![500, 40],
            hysteresis_c: 3.0,
        }
    }

    /// Die time of `dies` programming through each of `seconds` seconds, cumulative.
    fn programming(dies: u64, seconds: u64) -> [u64; WORK_KINDS] {
        let mut busy = [0; WORK_KINDS];
        busy[Work::HostProgram as usize] = dies * seconds * NS_PER_S;
        busy
    }

    #[test]
    fn under_constant_power_the_temperature_rises_monotonically_to_ambient_plus_power_times_resistance() {
        let mut cfg = config();
        cfg.throttle_above_c = vec![150];
        let mut th = Thermal::new(&cfg);
        // Idle: it stays at T_a + P_idle R.
        assert_eq!(th.temperature_c(), 45.0);
        th.second_ended(&[0; WORK_KINDS]);
        assert!((th.temperature_c() - 45.0).abs() < 1e-12, "{}", th.temperature_c());
        // Eight dies programming: P = 0.5 + 8 x 0.25 = 2.5 W, so T -> 40 + 2.5 x 10 = 65 °C,
        // with time constant R C = 200 s.
        let mut last = th.temperature_c();
        for s in 1..=3000 {
            th.second_ended(&programming(8, s));
            assert!(th.temperature_c() > last, "second {s}");
            assert!(th.temperature_c() < 65.0 + 1e-9, "second {s}: {}", th.temperature_c());
            last = th.temperature_c();
            if s == 200 {
                // One time constant: 1 - 1/e of the way from 45 to 65 (Euler at 0.1 s: within 0.01 K).
                assert!((last - (45.0 + 20.0 * (1.0 - (-1.0f64).exp()))).abs() < 0.01, "{last}");
            }
        }
        // After 15 time constants: within 20 e^-15 K of it.
        assert!((last - 65.0).abs() < 1e-5, "{last}");
        // A fan's lower resistance holds the same power cooler: 40 + 2.5 x 3.
        cfg.cooling = Cooling::Fan;
        let mut fan = Thermal::new(&cfg);
        for s in 1..=2000 {
            fan.second_ended(&programming(8, s));
        }
        assert!((fan.temperature_c() - 47.5).abs() < 1e-6, "{}", fan.temperature_c());
    }

    #[test]
    fn the_throttle_enters_each_step_at_its_threshold_and_leaves_it_cooler_by_the_hysteresis() {
        let mut th = Thermal::new(&config());
        // 16 dies programming: 4.5 W, heading for 85 °C; crossing 70 °C enters step 1.
        let mut busy = [0; WORK_KINDS];
        let mut work = |th: &mut Thermal, dies: u64| {
            busy[Work::HostProgram as usize] += dies * NS_PER_S;
            (th.second_ended(&busy), th.temperature_c())
        };
        let mut cap = None;
        while cap.is_none() {
            let (c, t) = work(&mut th, 16);
            assert!(c.is_none() || t >= 70.0, "{t}");
            cap = c;
        }
        assert_eq!((cap, th.step()), (Some(500), 1));
        // On to 80 °C: step 2.
        while cap == Some(500) {
            cap = work(&mut th, 16).0;
        }
        assert_eq!((cap, th.step()), (Some(40), 2));
        assert!(th.temperature_c() >= 80.0);
        // Throttled, the dies idle: it cools, but stays in step 2 until below 77 °C.
        let (mut cap, mut t) = work(&mut th, 0);
        while cap == Some(40) {
            assert!(t >= 77.0, "{t}");
            (cap, t) = work(&mut th, 0);
        }
        assert!(t < 77.0 && t > 67.0, "{t}");
        assert_eq!((cap, th.step()), (Some(500), 1));
        // Then below 67 °C: no throttle.
        while cap.is_some() {
            (cap, t) = work(&mut th, 0);
        }
        assert!(t < 67.0, "{t}");
        assert_eq!(th.step(), 0);
    }
}
