//! What the host asks for: a stream of requests (read or write, where, how much), drawn from the
//! run's seeded generator.

use crate::config::{ConfigError, UNIT_BYTES};
use crate::rng::Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Read,
    Write,
    /// The host says it no longer needs these LBAs (ATA DATA SET MANAGEMENT / NVMe deallocate).
    Trim,
}

/// One host command: the 4 KiB logical units it touches, its payload, and whether its first or
/// last unit is only partly covered (a write there must merge with the unit's old contents).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub op: Op,
    pub lpa: u32,
    pub units: u32,
    pub bytes: u32,
    pub partial_head: bool,
    pub partial_tail: bool,
}

impl Request {
    /// The command covering `bytes` from byte `offset` of the LBA space.
    pub fn at(op: Op, offset: u64, bytes: u32) -> Request {
        let end = offset + bytes as u64;
        let lpa = offset / UNIT_BYTES;
        Request {
            op,
            lpa: lpa as u32,
            units: (end.div_ceil(UNIT_BYTES) - lpa) as u32,
            bytes,
            partial_head: offset % UNIT_BYTES != 0,
            partial_tail: end % UNIT_BYTES != 0,
        }
    }

    /// True if the `i`-th unit of the command is only partly written.
    #[inline]
    pub fn partial(&self, i: u32) -> bool {
        (i == 0 && self.partial_head) || (i + 1 == self.units && self.partial_tail)
    }

    /// True if the command writes all of unit `lpa`.
    #[inline]
    pub fn covers(&self, lpa: u32) -> bool {
        lpa >= self.lpa && lpa < self.lpa + self.units && !self.partial(lpa - self.lpa)
    }

    /// The units a write must store when each map entry spans `entry_units` units: its own,
    /// widened to whole entries (below `limit`, the end of the LBA space).
    #[inline]
    pub fn entry_span(&self, entry_units: u32, limit: u32) -> (u32, u32) {
        let end = self.lpa + self.units;
        if entry_units == 1 {
            return (self.lpa, end);
        }
        (self.lpa / entry_units * entry_units, (end.div_ceil(entry_units) * entry_units).min(limit))
    }
}

/// The access pattern of a workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Uniformly random aligned blocks over the tested span.
    Random,
    /// Consecutive blocks from the start of the span, wrapping around.
    Sequential,
}

/// A named workload: pattern, read share, default transfer size and queue depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkloadSpec {
    pub id: &'static str,
    pub pattern: Pattern,
    /// Percentage of requests that are reads (0..=100).
    pub read_percent: u32,
    /// Default transfer size, bytes.
    pub block_bytes: u32,
    /// Default host queue depth.
    pub queue_depth: u32,
    /// Percentage of commands that TRIM a block instead of reading or writing it (files being
    /// deleted).
    pub trim_percent: u32,
    /// Skew: this percentage of requests go to the first `hot_span_percent` of the span
    /// (0 for uniform).
    pub hot_percent: u32,
    pub hot_span_percent: u32,
    pub description: &'static str,
}

/// Every workload, by name. All start from a secure erase and a sequential fill of the span.
pub const WORKLOADS: [WorkloadSpec; 9] = [
    WorkloadSpec {
        id: "consistency",
        pattern: Pattern::Random,
        read_percent: 0,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "the articles' IO-consistency test: 4 KB random writes over the whole span [000, 002]",
    },
    WorkloadSpec {
        id: "random-write",
        pattern: Pattern::Random,
        read_percent: 0,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "random writes (set the size with block_bytes)",
    },
    WorkloadSpec {
        id: "random-read",
        pattern: Pattern::Random,
        read_percent: 100,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "random reads of filled data [003]",
    },
    WorkloadSpec {
        id: "mixed-70-30",
        pattern: Pattern::Random,
        read_percent: 70,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "70 % reads, 30 % writes, random [003]",
    },
    WorkloadSpec {
        id: "hot-cold",
        pattern: Pattern::Random,
        read_percent: 0,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 90,
        hot_span_percent: 10,
        description: "random writes, 90 % of them to 10 % of the span (where GC victim policy matters)",
    },
    WorkloadSpec {
        id: "sequential-write",
        pattern: Pattern::Sequential,
        read_percent: 0,
        block_bytes: 131072,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "128 KB sequential writes [000]",
    },
    WorkloadSpec {
        id: "sequential-read",
        pattern: Pattern::Sequential,
        read_percent: 100,
        block_bytes: 131072,
        queue_depth: 32,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "128 KB sequential reads [000]",
    },
    WorkloadSpec {
        id: "redo-log",
        pattern: Pattern::Sequential,
        read_percent: 0,
        block_bytes: 1536,
        queue_depth: 1,
        trim_percent: 0,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "a database redo log: 1.5 KB sequential writes at QD1, smaller than and unaligned to the 4 KB map unit, so most pay a read-modify-write [000]",
    },
    WorkloadSpec {
        id: "write-trim",
        pattern: Pattern::Random,
        read_percent: 0,
        block_bytes: 4096,
        queue_depth: 32,
        trim_percent: 10,
        hot_percent: 0,
        hot_span_percent: 0,
        description: "random writes with 10 % of commands TRIMming a block (files deleted): trimmed data is not copied by GC [002]",
    },
];

impl WorkloadSpec {
    pub fn by_id(id: &str) -> Result<WorkloadSpec, ConfigError> {
        WORKLOADS.iter().find(|w| w.id == id).copied().ok_or_else(|| {
            let names: Vec<&str> = WORKLOADS.iter().map(|w| w.id).collect();
            ConfigError::new("workload", format!("unknown workload '{}' (allowed: {})", id, names.join(", ")))
        })
    }
}

/// Draws requests for one run.
#[derive(Debug, Clone)]
pub struct Generator {
    pattern: Pattern,
    read_percent: u64,
    trim_percent: u64,
    bytes: u32,
    align: u64,
    /// Aligned start positions available in the span, and in its hot part.
    slots: u64,
    hot_slots: u64,
    hot_percent: u64,
    span_bytes: u64,
    /// Sequential: byte offset of the next request.
    cursor: u64,
}

impl Generator {
    /// Requests of `block_bytes` over `span_units`; random ones start at multiples of
    /// `align_bytes` (fio's `blockalign`), sequential ones where the previous one ended.
    pub fn new(spec: &WorkloadSpec, block_bytes: u32, align_bytes: u32, span_units: u64) -> Self {
        let span_bytes = span_units * UNIT_BYTES;
        let bytes = (block_bytes as u64).clamp(1, span_bytes) as u32;
        let align = (align_bytes as u64).max(1);
        let slots = (span_bytes - bytes as u64) / align + 1;
        Generator {
            pattern: spec.pattern,
            read_percent: spec.read_percent as u64,
            trim_percent: spec.trim_percent as u64,
            bytes,
            align,
            slots,
            hot_slots: (slots * spec.hot_span_percent as u64 / 100).max(1),
            hot_percent: spec.hot_percent as u64,
            span_bytes,
            cursor: 0,
        }
    }

    #[inline]
    pub fn next(&mut self, rng: &mut Rng) -> Request {
        // Draw the op only for mixed workloads, so pure ones use one draw per request.
        let mut op = match self.read_percent {
            0 => Op::Write,
            100 => Op::Read,
            p => {
                if rng.below(100) < p {
                    Op::Read
                } else {
                    Op::Write
                }
            }
        };
        if self.trim_percent > 0 && rng.below(100) < self.trim_percent {
            op = Op::Trim;
        }
        let offset = match self.pattern {
            Pattern::Random if self.hot_percent == 0 => rng.below(self.slots) * self.align,
            Pattern::Random => {
                let slot = if rng.below(100) < self.hot_percent {
                    rng.below(self.hot_slots)
                } else {
                    self.hot_slots + rng.below(self.slots - self.hot_slots)
                };
                slot * self.align
            }
            Pattern::Sequential => {
                if self.cursor + self.bytes as u64 > self.span_bytes {
                    self.cursor = 0;
                }
                let at = self.cursor;
                self.cursor += self.bytes as u64;
                at
            }
        };
        Request::at(op, offset, self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_stay_in_the_span_and_follow_the_mix() {
        let mut rng = Rng::new(1);
        let spec = WorkloadSpec::by_id("mixed-70-30").unwrap();
        let mut g = Generator::new(&spec, 8192, 8192, 1001);
        let mut reads = 0;
        for _ in 0..10_000 {
            let r = g.next(&mut rng);
            assert!(r.lpa % 2 == 0 && r.lpa + r.units <= 1001 && r.units == 2 && !r.partial_head && !r.partial_tail);
            reads += (r.op == Op::Read) as u32;
        }
        assert!((6_700..7_300).contains(&reads), "{}", reads);

        let spec = WorkloadSpec::by_id("sequential-write").unwrap();
        let mut g = Generator::new(&spec, 131072, 131072, 100);
        let starts: Vec<u32> = (0..4).map(|_| g.next(&mut rng).lpa).collect();
        assert_eq!(starts, vec![0, 32, 64, 0]);

        // 1.5 KB sequential: contiguous, crossing 4 KiB units unaligned.
        let spec = WorkloadSpec::by_id("redo-log").unwrap();
        let mut g = Generator::new(&spec, 1536, 1536, 100);
        let r: Vec<Request> = (0..3).map(|_| g.next(&mut rng)).collect();
        assert_eq!((r[0].lpa, r[0].units, r[0].partial_head, r[0].partial_tail), (0, 1, false, true));
        assert_eq!((r[1].lpa, r[1].units, r[1].partial_head, r[1].partial_tail), (0, 1, true, true));
        assert_eq!((r[2].lpa, r[2].units, r[2].partial_head, r[2].partial_tail), (0, 2, true, true));
        assert!(r[2].partial(0) && r[2].partial(1));

        let spec = WorkloadSpec::by_id("write-trim").unwrap();
        let mut g = Generator::new(&spec, 4096, 4096, 1000);
        let trims = (0..10_000).filter(|_| g.next(&mut rng).op == Op::Trim).count();
        assert!((800..1_200).contains(&trims), "{}", trims);
        assert!(WorkloadSpec::by_id("nope").unwrap_err().message.contains("random-read"));
    }
}
