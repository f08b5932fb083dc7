//! Power loss: what the host was told against what the NAND holds [000].
//!
//! A buffered write is acknowledged before it is programmed. While a power cut is coming the
//! drive keeps a short log of recent host writes with two times each: when the host was told
//! (`ack_ns`) and when the data became durable on NAND (`durable_ns`, when its program
//! completed). At a cut, writes acknowledged but not yet durable survive only if the capacitor
//! bank holds the energy to program them (and the dirty mapping journal); the rest are lost.

use std::collections::VecDeque;

use crate::config::PowerConfig;

/// Not yet known: the unit is still in the buffer, its program not booked.
pub const PENDING: u64 = u64::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteRecord {
    pub lpa: u32,
    /// Order of the write among all host writes, so "last version" is well defined.
    pub seq: u64,
    pub ack_ns: u64,
    pub durable_ns: u64,
}

/// Recent host writes whose durability a cut could still change.
#[derive(Debug, Clone, Default)]
pub struct DurabilityLog {
    records: VecDeque<WriteRecord>,
    /// `seq` of `records[0]`.
    first_seq: u64,
    next_seq: u64,
}

impl DurabilityLog {
    /// Records a host write entering the drive; returns its sequence number.
    pub fn written(&mut self, lpa: u32) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.records.push_back(WriteRecord { lpa, seq, ack_ns: PENDING, durable_ns: PENDING });
        seq
    }

    /// The host was told write `seq` is done at `ack_ns`.
    pub fn acknowledged(&mut self, seq: u64, ack_ns: u64) {
        if let Some(r) = self.get_mut(seq) {
            r.ack_ns = ack_ns;
        }
    }

    fn get_mut(&mut self, seq: u64) -> Option<&mut WriteRecord> {
        let i = seq.checked_sub(self.first_seq)? as usize;
        self.records.get_mut(i)
    }

    /// The write `seq` is durable once its program completes at `done_ns`.
    pub fn programmed(&mut self, seq: u64, done_ns: u64) {
        if let Some(r) = self.get_mut(seq) {
            r.durable_ns = done_ns;
        }
    }

    /// Drops records that were acknowledged and durable before `now_ns`: no cut from now on can
    /// lose them.
    pub fn forget_durable_before(&mut self, now_ns: u64) {
        while matches!(self.records.front(), Some(r) if r.durable_ns <= now_ns && r.ack_ns <= now_ns) {
            self.records.pop_front();
            self.first_seq += 1;
        }
    }

    pub fn records(&self) -> impl Iterator<Item = &WriteRecord> {
        self.records.iter()
    }

    pub fn clear(&mut self) {
        self.first_seq = self.next_seq;
        self.records.clear();
    }
}

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

/// What one power cut did.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerCutReport {
    pub at_ns: u64,
    /// The host's truth: every write acknowledged by the cut that was still at risk, as
    /// (lpa, seq). Writes durable long before are not listed (they are on NAND either way).
    pub acknowledged: Vec<(u32, u64)>,
    /// The NAND's truth after the flush: every write from the same window that is durable.
    pub durable: Vec<(u32, u64)>,
    /// Acknowledged writes that are not durable: the data the host was promised and lost.
    pub acknowledged_writes_lost: u64,
    /// Units programmed by the capacitor flush.
    pub flushed_units: u64,
    pub energy_needed_uj: u64,
    pub energy_stored_uj: u64,
    /// Time the next power-on spends rebuilding the mapping table, ms.
    pub rebuild_ms: f64,
}

/// How long a flush of `pages` multi-plane pages takes over `dies` dies in parallel.
pub fn flush_time_ns(pages: u64, dies: u64, page_program_ns: u64) -> u64 {
    pages.div_ceil(dies) * page_program_ns
}

/// Decides, at a cut at `at_ns`, which at-risk writes the flush saves. `units_per_page` units
/// share one program; `journal_pages` of dirty mapping updates are flushed first (without them
/// the map could not be rebuilt). Returns the report without `rebuild_ms`.
pub fn cut(
    log: &DurabilityLog,
    at_ns: u64,
    energy_uj: u64,
    flush_power_mw: u64,
    units_per_page: u64,
    dies: u64,
    page_program_ns: u64,
    journal_pages: u64,
) -> PowerCutReport {
    let acknowledged: Vec<(u32, u64)> =
        log.records().filter(|r| r.ack_ns <= at_ns).map(|r| (r.lpa, r.seq)).collect();
    // Data in the drive at the cut but not yet on NAND, in the order it arrived.
    let at_risk: Vec<&WriteRecord> =
        log.records().filter(|r| r.ack_ns <= at_ns && r.durable_ns > at_ns).collect();
    let pages_needed = (at_risk.len() as u64).div_ceil(units_per_page) + journal_pages;
    let uj = |ns: u64| (flush_power_mw as u128 * ns as u128 / 1_000_000) as u64;
    let energy_needed_uj = uj(flush_time_ns(pages_needed, dies, page_program_ns));
    // Whole rounds of parallel programs the energy pays for.
    let round_uj = uj(page_program_ns).max(1);
    let affordable_pages = (energy_uj / round_uj) * dies;
    let data_pages = affordable_pages.saturating_sub(journal_pages);
    let flushed_units = if affordable_pages < journal_pages {
        0
    } else {
        (data_pages * units_per_page).min(at_risk.len() as u64)
    };
    let mut durable: Vec<(u32, u64)> = log
        .records()
        .filter(|r| r.ack_ns <= at_ns && r.durable_ns <= at_ns)
        .map(|r| (r.lpa, r.seq))
        .collect();
    durable.extend(at_risk.iter().take(flushed_units as usize).map(|r| (r.lpa, r.seq)));
    durable.sort_unstable_by_key(|&(_, seq)| seq);
    PowerCutReport {
        at_ns,
        acknowledged_writes_lost: (acknowledged.len() - durable.len()) as u64,
        acknowledged,
        durable,
        flushed_units,
        energy_needed_uj,
        energy_stored_uj: energy_uj,
        rebuild_ms: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log_with(records: &[(u32, u64, u64)]) -> DurabilityLog {
        let mut log = DurabilityLog::default();
        for &(lpa, ack, durable) in records {
            let seq = log.written(lpa);
            log.acknowledged(seq, ack);
            if durable != PENDING {
                log.programmed(seq, durable);
            }
        }
        log
    }

    #[test]
    fn enough_energy_saves_everything_and_none_loses_exactly_the_buffer() {
        // Two durable, three in the buffer, one acknowledged after the cut.
        let log = log_with(&[(1, 10, 20), (2, 11, 25), (3, 30, 90), (4, 31, PENDING), (5, 32, PENDING), (6, 60, 95)]);
        let full = cut(&log, 50, 1_000_000, 6_000, 4, 8, 2_000_000, 1);
        assert_eq!(full.acknowledged.len(), 5);
        assert_eq!(full.acknowledged_writes_lost, 0);
        assert_eq!(full.flushed_units, 3);
        let none = cut(&log, 50, 0, 6_000, 4, 8, 2_000_000, 1);
        assert_eq!(none.acknowledged_writes_lost, 3);
        assert_eq!(none.durable, vec![(1, 0), (2, 1)]);
        // 2 pages (1 data + 1 journal) over 8 dies: one round of 2 ms at 6 W = 12 mJ.
        assert_eq!(full.energy_needed_uj, 12_000);
    }

    #[test]
    fn capacitor_energy_is_half_c_v_squared_between_charge_and_cutoff() {
        let cfg = crate::presets::s3700_200().power;
        // 94 uF x (35^2 - 12^2) V^2 / 2 = 50.8 mJ.
        assert_eq!(cfg.stored_energy_uj(), 50_807);
        assert!(CapacitorState::Failed.smart_flag() && !CapacitorState::Failed.buffers_writes(&cfg));
        assert!(CapacitorState::FailedUnnoticed.buffers_writes(&cfg));
        assert_eq!(CapacitorState::FailedUnnoticed.energy_uj(&cfg), 0);
    }
}
