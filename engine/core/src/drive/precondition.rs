//! Preconditioning beyond the sequential fill: random overwrites applied to the FTL alone, in no
//! simulated time, so a test can start in the steady state of random writes without simulating
//! the thousands of seconds it takes to get there.

use super::ftl::Stream;
use super::Drive;
use crate::rng::Rng;

impl Drive {
    /// Writes `writes` 4 KiB units at random positions in `0..units` (drawn from `seed`),
    /// exactly where the write path would put them (a multi-plane page at a time, pages dealt to
    /// the dies in turn), with garbage collection as it goes: a die about to open a block with
    /// `gc.start_free_blocks` or fewer free collects whole victims (by the configured policy)
    /// until it has more. Only the FTL changes: no NAND time, no counters, no wear-out check
    /// beyond the FTL's own.
    pub fn overwrite_random(&mut self, units: u64, writes: u64, seed: u64) {
        if units == 0 || writes == 0 {
            return;
        }
        let dies = self.cfg.geometry.dies;
        let per_program = self.cfg.geometry.units_per_program() * self.cfg.controller.slots_per_unit();
        let reserve = self.cfg.gc.start_free_blocks;
        let mut rng = Rng::new(seed);
        let (mut die, mut used) = (0, 0);
        for _ in 0..writes {
            let len = if self.flash.ftl.slots_per_unit() == 1 { 1 } else { self.writes.unit_slots() };
            if used + len > per_program {
                self.flash.ftl.pad_to_program(die, Stream::Host);
                die = (die + 1) % dies;
                used = 0;
            }
            if used == 0 && self.flash.ftl.needs_block(die, Stream::Host, per_program) {
                self.collect_until(die, reserve);
                if self.flash.ftl.worn_out() || self.flash.ftl.die_free_blocks(die) == 0 {
                    return;
                }
            }
            let lpa = rng.below(units) as u32;
            self.flash.ftl.write(die, Stream::Host, lpa, len);
            self.flash.map_note_write(lpa);
            used += len;
            if used == per_program {
                die = (die + 1) % dies;
                used = 0;
            }
        }
        if used > 0 {
            self.flash.ftl.pad_to_program(die, Stream::Host);
        }
    }

    /// Collects whole victims on `die` until it has more than `reserve` free blocks.
    fn collect_until(&mut self, die: u32, reserve: u32) {
        let ftl = &mut self.flash.ftl;
        let mut victims = 0;
        while ftl.die_free_blocks(die) <= reserve && !ftl.worn_out() {
            if !ftl.has_victim(die) && !ftl.pick_victim(die) {
                return;
            }
            victims += 1;
            if victims > self.cfg.blocks_in_service_per_die() {
                // Only full blocks to shuffle: no spare area left.
                ftl.set_worn_out();
                return;
            }
            while ftl.has_victim(die) && !ftl.worn_out() {
                ftl.scan_victim_stripe(die);
            }
        }
    }
}
