//! The controller section: firmware time per command and per GC relocation, the write data
//! path's rate, the write buffer, compression.

use serde::{Deserialize, Serialize};

use super::limits::{check_limits, Limit};
use super::nand::NandGeometry;
use crate::units::{ConfigError, UNIT_BYTES};

/// Controller costs and buffers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Controller {
    /// Controller firmware time per host write command, ns (one command at a time).
    pub write_overhead_ns: u64,
    /// Controller firmware time per host read command, ns (one command at a time).
    pub read_overhead_ns: u64,
    /// Pipelined latency a read's data spends in the controller (ECC decode, DMA), ns; it
    /// delays each read but does not occupy the controller.
    pub read_latency_ns: u64,
    /// Controller firmware time per unit a GC scan relocates, ns: each moved 4 KiB unit is
    /// ECC-corrected, re-encoded and remapped by the same processor that handles host
    /// commands, so on a drive with many dies collection becomes controller-bound. 0: GC costs
    /// NAND time only.
    pub gc_move_ns: u64,
    /// Rate of the controller's write data path (parity/ECC encoding, DMA into the buffer) that
    /// every host write's data passes through, MB/s; pipelined with the firmware. 0: no limit
    /// beyond the link and the NAND.
    pub write_mb_s: u64,
    /// Write buffer that acknowledges host writes before they are programmed, bytes.
    pub write_buffer_bytes: u64,
    /// Compress each 4 KiB unit before it is programmed (SandForce, in the Intel 330 and 520
    /// [000]): compressible data takes fewer NAND slots, so fewer pages are programmed.
    pub compression: bool,
    /// Granularity a compressed unit is stored at, bytes (512 to 4096, a power of two). Finer
    /// slots pack tighter but need a larger reverse map (4 bytes per slot).
    pub compression_slot_bytes: u32,
    /// At most this many dies in their array program at once (a power budget: the 870 QVO's
    /// post-cache speed is "a controller limitation rather than a NAND limitation", AnandTech).
    /// 0: no limit, and not listed as a parameter.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub max_programming_dies: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Controller {
    /// NAND slots per 4 KiB unit: 1 without compression.
    pub fn slots_per_unit(&self) -> u32 {
        if self.compression {
            (UNIT_BYTES / self.compression_slot_bytes.max(1) as u64) as u32
        } else {
            1
        }
    }

    /// (The compression slot's rule, a power of two from 512 to 4096, is in `check`.) The
    /// programming dies' limit is listed only when set (0 there: no limit).
    pub fn limits(&self, g: &NandGeometry) -> Vec<Limit> {
        let per_program = g.units_per_program() as u64 * UNIT_BYTES;
        let mut all = vec![
            Limit::whole("controller.write_overhead_ns", self.write_overhead_ns, 0, 10_000_000),
            Limit::whole("controller.read_overhead_ns", self.read_overhead_ns, 0, 10_000_000),
            Limit::whole("controller.read_latency_ns", self.read_latency_ns, 0, 10_000_000),
            Limit::whole("controller.gc_move_ns", self.gc_move_ns, 0, 1_000_000),
            Limit::whole("controller.write_mb_s", self.write_mb_s, 0, 1_000_000),
            Limit::whole("controller.write_buffer_bytes", self.write_buffer_bytes, per_program, 1 << 32),
        ];
        if self.max_programming_dies > 0 {
            all.push(Limit::whole(
                "controller.max_programming_dies",
                self.max_programming_dies as u64,
                0,
                g.dies as u64,
            ));
        }
        all
    }

    pub fn check(&self, g: &NandGeometry) -> Result<(), ConfigError> {
        check_limits(&self.limits(g))?;
        let slot = self.compression_slot_bytes;
        if !(512..=4096).contains(&slot) || !slot.is_power_of_two() {
            return Err(ConfigError::new(
                "controller.compression_slot_bytes",
                format!("must be 512, 1024, 2048 or 4096 (got {})", slot),
            ));
        }
        let slots_per_block = g.units_per_block() as u64 * self.slots_per_unit() as u64;
        if slots_per_block > u16::MAX as u64 {
            return Err(ConfigError::new(
                "controller.compression_slot_bytes",
                format!(
                    "a block may hold at most 65535 slots (got {} with {}-byte slots): use larger slots",
                    slots_per_block, slot
                ),
            ));
        }
        Ok(())
    }
}
