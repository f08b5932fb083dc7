//! Power-loss protection [000]: the capacitor bank's state, the log of writes at risk
//! (`durability`), and what a cut does (`cut`: the flush the energy pays for, writes lost, the
//! map rebuild at power-on).
//!
//! A buffered write is acknowledged before it is programmed. At a cut, writes acknowledged but
//! not yet durable survive only if the capacitor bank holds the energy to program them (and the
//! dirty mapping journal); the rest are lost.

mod cut;
mod durability;

pub use cut::{cut, flush_time_ns, rebuild_ns, Flush, PowerCutReport};
pub use durability::{DurabilityLog, WriteRecord, PENDING};

use crate::config::PowerConfig;

/// The capacitor bank's state as the drive knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapacitorState {
    /// No capacitors fitted.
    Absent,
    Healthy,
    /// Failed, but the drive has not noticed yet: it still buffers writes on the strength of
    /// energy it no longer has.
    FailedUnnoticed,
    /// A self-test found the failure: buffering is off and the SMART flag is raised.
    Failed,
}

impl CapacitorState {
    pub fn initial(cfg: &PowerConfig) -> Self {
        if cfg.capacitors {
            CapacitorState::Healthy
        } else {
            CapacitorState::Absent
        }
    }

    /// Whether the drive acknowledges writes from its buffer (before they are programmed).
    pub fn buffers_writes(self, cfg: &PowerConfig) -> bool {
        match self {
            CapacitorState::Healthy | CapacitorState::FailedUnnoticed => true,
            CapacitorState::Absent | CapacitorState::Failed => cfg.volatile_cache,
        }
    }

    /// Energy actually available for a flush, microjoules.
    pub fn energy_uj(self, cfg: &PowerConfig) -> u64 {
        match self {
            CapacitorState::Healthy => cfg.stored_energy_uj(),
            _ => 0,
        }
    }

    pub fn smart_flag(self) -> bool {
        self == CapacitorState::Failed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacitor_energy_is_half_c_v_squared_between_charge_and_cutoff() {
        let cfg = crate::config::presets::by_id("s3700-200").unwrap().power;
        // 94 uF x (35^2 - 12^2) V^2 / 2 = 50.8 mJ.
        assert_eq!(cfg.stored_energy_uj(), 50_807);
        assert!(CapacitorState::Failed.smart_flag() && !CapacitorState::Failed.buffers_writes(&cfg));
        assert!(CapacitorState::FailedUnnoticed.buffers_writes(&cfg));
        assert_eq!(CapacitorState::FailedUnnoticed.energy_uj(&cfg), 0);
    }
}
