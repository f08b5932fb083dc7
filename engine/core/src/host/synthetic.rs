//! The synthetic workloads' request generator: reads, writes and TRIMs in the named workload's
//! mix, sequential or uniformly random (optionally skewed to a hot zone) over the tested span.

use super::WorkloadSource;
use crate::command::{Op, Request};
use crate::config::{Pattern, WorkloadSpec};
use crate::rng::Rng;
use crate::units::UNIT_BYTES;

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
}

impl WorkloadSource for Generator {
    #[inline]
    fn next(&mut self, rng: &mut Rng) -> Request {
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
    use crate::config::WorkloadSpec;
    use crate::host::WorkloadSource;

    #[test]
    fn requests_stay_in_the_span_and_follow_the_mix() {
        let mut rng = Rng::new(1);
        let spec = WorkloadSpec::by_id("mixed-70-30").unwrap();
        let mut g = Generator::new(&spec, 8192, 8192, 1001);
        let mut reads = 0;
        for _ in 0..10_000 {
            let r = g.next(&mut rng);
            assert!(
                r.lpa.is_multiple_of(2)
                    && r.lpa + r.units <= 1001
                    && r.units == 2
                    && !r.partial_head
                    && !r.partial_tail
            );
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
