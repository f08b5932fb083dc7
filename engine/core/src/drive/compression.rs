//! Compression (SandForce, in the Intel 330 and 520 [000]): each 4 KiB unit is stored in as many
//! NAND slots as its data compresses to, so compressible data programs fewer pages.

use crate::config::RunConfig;
use crate::rng::Rng;

pub struct Compression {
    /// NAND slots per 4 KiB unit (1 without compression).
    slots_per_unit: u32,
    /// The mean slots a unit of this run's data takes, in 1/1024ths.
    mean_slots_1024: u32,
    /// Draws each unit's compressed size; separate from the host's generator so the requests do
    /// not change.
    rng: Rng,
}

impl Compression {
    pub fn new(cfg: &RunConfig) -> Self {
        let slots_per_unit = cfg.drive.controller.slots_per_unit();
        Compression {
            slots_per_unit,
            mean_slots_1024: ((1.0 - cfg.compressibility) * slots_per_unit as f64 * 1024.0).round() as u32,
            rng: Rng::new(cfg.seed ^ 0x636f_6d70_7265_7373),
        }
    }

    /// Every unit takes one slot (no compression): `slots` draws nothing.
    #[inline]
    pub fn one_slot(&self) -> bool {
        self.slots_per_unit == 1
    }

    /// The next unit's slots: 1 per unit without compression; otherwise the run's mean
    /// compressed size, rounded up or down at random so the mean is kept (at least one slot).
    #[inline]
    pub fn slots(&mut self) -> u32 {
        if self.slots_per_unit == 1 {
            return 1;
        }
        let (whole, part) = (self.mean_slots_1024 / 1024, self.mean_slots_1024 % 1024);
        let up = part > 0 && self.rng.below(1024) < part as u64;
        (whole + up as u32).clamp(1, self.slots_per_unit)
    }
}
