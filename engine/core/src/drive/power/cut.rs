//! What a power cut does: which at-risk writes the capacitor flush saves, and how long the next
//! power-on spends rebuilding the mapping table.

use super::durability::{DurabilityLog, WriteRecord};
use crate::config::DriveConfig;
use crate::units::UNIT_BYTES;

/// What one power cut did.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerCutReport {
    pub at_ns: u64,
    /// The host's truth: every write acknowledged by the cut that was still at risk, as
    /// (4 KiB unit of the host's address space, sequence number). Writes durable long before are
    /// not listed (they are on NAND either way). (An array's units need more than 32 bits.)
    pub acknowledged: Vec<(u64, u64)>,
    /// The NAND's truth after the flush: every write from the same window that is durable.
    pub durable: Vec<(u64, u64)>,
    /// Acknowledged writes that are not durable: the data the host was promised and lost.
    pub acknowledged_writes_lost: u64,
    /// Units programmed by the capacitor flush.
    pub flushed_units: u64,
    pub energy_needed_uj: u64,
    pub energy_stored_uj: u64,
    /// Time the next power-on spends rebuilding the mapping table, ms.
    pub rebuild_ms: f64,
}

impl PowerCutReport {
    /// Acknowledged writes that were not yet on NAND at the cut (saved by the flush or lost).
    pub fn writes_at_risk(&self) -> u64 {
        let already_durable = (self.durable.len() as u64).saturating_sub(self.flushed_units);
        (self.acknowledged.len() as u64).saturating_sub(already_durable)
    }
}

/// How long a flush of `pages` multi-plane pages takes over `dies` dies in parallel.
pub fn flush_time_ns(pages: u64, dies: u64, page_program_ns: u64) -> u64 {
    pages.div_ceil(dies) * page_program_ns
}

/// What the drive can do with the energy it has at a cut.
#[derive(Debug, Clone, Copy)]
pub struct Flush {
    /// Energy the capacitors hold, microjoules (0 without healthy capacitors).
    pub energy_uj: u64,
    /// Power drawn while flushing, milliwatts.
    pub power_mw: u64,
    /// Units one (multi-plane) page program stores.
    pub units_per_page: u64,
    /// Dies programming in parallel.
    pub dies: u64,
    pub page_program_ns: u64,
    /// Pages of dirty mapping updates, flushed first (without them the map could not be rebuilt).
    pub journal_pages: u64,
}

/// Decides, at a cut at `at_ns`, which at-risk writes the flush saves. Returns the report
/// without `rebuild_ms`.
pub fn cut(log: &DurabilityLog, at_ns: u64, flush: &Flush) -> PowerCutReport {
    let Flush { energy_uj, power_mw: flush_power_mw, units_per_page, dies, page_program_ns, journal_pages } = *flush;
    let acknowledged: Vec<(u64, u64)> =
        log.records().filter(|r| r.ack_ns <= at_ns).map(|r| (r.lpa as u64, r.seq)).collect();
    // Data in the drive at the cut but not yet on NAND, in the order it arrived.
    let at_risk: Vec<&WriteRecord> = log.records().filter(|r| r.ack_ns <= at_ns && r.durable_ns > at_ns).collect();
    let pages_needed = (at_risk.len() as u64).div_ceil(units_per_page) + journal_pages;
    let uj = |ns: u64| (flush_power_mw as u128 * ns as u128 / 1_000_000) as u64;
    let energy_needed_uj = uj(flush_time_ns(pages_needed, dies, page_program_ns));
    // Whole rounds of parallel programs the energy pays for.
    let round_uj = uj(page_program_ns).max(1);
    let affordable_pages = (energy_uj / round_uj) * dies;
    let data_pages = affordable_pages.saturating_sub(journal_pages);
    let flushed_units =
        if affordable_pages < journal_pages { 0 } else { (data_pages * units_per_page).min(at_risk.len() as u64) };
    let mut durable: Vec<(u64, u64)> =
        log.records().filter(|r| r.ack_ns <= at_ns && r.durable_ns <= at_ns).map(|r| (r.lpa as u64, r.seq)).collect();
    durable.extend(at_risk.iter().take(flushed_units as usize).map(|r| (r.lpa as u64, r.seq)));
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

/// Time the next power-on spends rebuilding the mapping table: the map is loaded from NAND (all
/// dies reading in parallel); after an unsafe shutdown (writes lost, or the journal not saved)
/// every block's summary is read too, to find what the journal missed.
pub fn rebuild_ns(drive: &DriveConfig, report: &PowerCutReport, journal_pages: u64) -> u64 {
    let (g, t) = (&drive.geometry, &drive.timing);
    let upp = g.units_per_program() as u64;
    let page_read_ns = t.read_ns + upp * t.unit_transfer_ns();
    let table_pages = (drive.user_units() * 4).div_ceil(upp * UNIT_BYTES);
    let mut rebuild = table_pages.div_ceil(g.dies as u64) * page_read_ns;
    let journal_saved = report.energy_stored_uj >= report.energy_needed_uj || journal_pages == 0;
    if report.acknowledged_writes_lost > 0 || !journal_saved {
        rebuild += g.total_blocks().div_ceil(g.dies as u64) * t.read_ns;
    }
    rebuild
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drive::power::PENDING;

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
        let full = cut(
            &log,
            50,
            &Flush {
                energy_uj: 1_000_000,
                power_mw: 6_000,
                units_per_page: 4,
                dies: 8,
                page_program_ns: 2_000_000,
                journal_pages: 1,
            },
        );
        assert_eq!(full.acknowledged.len(), 5);
        assert_eq!(full.acknowledged_writes_lost, 0);
        assert_eq!(full.flushed_units, 3);
        let none = cut(
            &log,
            50,
            &Flush {
                energy_uj: 0,
                power_mw: 6_000,
                units_per_page: 4,
                dies: 8,
                page_program_ns: 2_000_000,
                journal_pages: 1,
            },
        );
        assert_eq!(none.acknowledged_writes_lost, 3);
        assert_eq!(none.durable, vec![(1, 0), (2, 1)]);
        // 2 pages (1 data + 1 journal) over 8 dies: one round of 2 ms at 6 W = 12 mJ.
        assert_eq!(full.energy_needed_uj, 12_000);
    }
}
