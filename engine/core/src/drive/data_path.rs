//! The controller's write data path: every host write's data passes through it (parity and ECC
//! encoding, DMA into the buffer) at `controller.write_mb_s`, one command's data after another,
//! as it streams in from the link and alongside the firmware's work on the command. Where it is slower than the NAND it is what limits sequential
//! writes (the X25-E's 170 MB/s from 40 SLC dies [000]); 4 KB random writes hardly notice it.

use crate::units::ps_per_byte;

#[derive(Debug)]
pub struct DataPath {
    free_ns: u64,
    /// Time per byte, picoseconds.
    ps_per_byte: u64,
}

impl DataPath {
    /// The path at `mb_s`, or none for 0 (no limit).
    pub fn new(mb_s: u64) -> Option<Self> {
        (mb_s > 0).then(|| DataPath { free_ns: 0, ps_per_byte: ps_per_byte(mb_s) })
    }

    /// `bytes` of a write whose data starts arriving at `ready_ns` pass; returns when they are
    /// through.
    #[inline]
    pub fn pass(&mut self, ready_ns: u64, bytes: u32) -> u64 {
        let t = ready_ns.max(self.free_ns) + bytes as u64 * self.ps_per_byte / 1000;
        self.free_ns = t;
        t
    }

    /// Nothing passes before `t_ns` (power is off until then).
    pub fn stall_until(&mut self, t_ns: u64) {
        self.free_ns = self.free_ns.max(t_ns);
    }
}
