//! Replaying a block trace: its commands in order, each mapped into the tested span. (The
//! formats, MSR Cambridge / SNIA CSV, blkparse, DiskSim ASCII and fio iologs, are read into a
//! `config::Trace` here, one file each.)

use std::sync::Arc;

use super::WorkloadSource;
use crate::command::Request;
use crate::config::Trace;
use crate::rng::Rng;
use crate::units::SECTOR_BYTES;

pub struct TraceFeed {
    trace: Arc<Trace>,
    next: usize,
    span_bytes: u64,
}

impl TraceFeed {
    pub fn new(trace: Arc<Trace>, span_bytes: u64) -> Self {
        TraceFeed { trace, next: 0, span_bytes }
    }

    /// When record `i` arrives, ns after the replay starts (open loop).
    #[inline]
    pub fn arrival_ns(trace: &Trace, i: usize) -> u64 {
        trace.records.get(i).map_or(u64::MAX, |r| (r.time_ns as f64 * trace.time_scale) as u64)
    }
}

impl WorkloadSource for TraceFeed {
    /// The next record as a command; a trace from a larger disk wraps into the tested span
    /// (whole sectors, so alignment within a 4 KiB unit is kept). Past the end it repeats the
    /// last record (the host never issues those: the job stops after the last one).
    fn next(&mut self, _rng: &mut Rng) -> Request {
        let records = &self.trace.records;
        let r = records[self.next.min(records.len().saturating_sub(1))];
        self.next += 1;
        let sector = SECTOR_BYTES as u64;
        let bytes = (r.bytes as u64).div_ceil(sector).clamp(1, self.span_bytes / sector) * sector;
        // Sector positions where the command fits in the span.
        let starts = (self.span_bytes - bytes) / sector + 1;
        let offset = r.offset_bytes / sector % starts * sector;
        Request::at(r.op, offset, bytes as u32)
    }
}
