//! A job's command stream: reads, writes and TRIMs in the job's mix, of its sizes, sequential or
//! at random positions drawn by its distribution, within its range of the workload span.

use super::position::Positions;
use super::WorkloadSource;
use crate::command::{Op, Request};
use crate::config::{BlockSizes, JobSpec, Placement};
use crate::rng::Rng;

/// A size mix: fixed (no draw) or cumulative weights.
struct Sizes {
    sizes: Vec<u32>,
    weights_below: Vec<u64>,
}

impl Sizes {
    fn new(b: &BlockSizes) -> Self {
        let mut total = 0;
        let weights_below = b.entries.iter().map(|e| {
            total += e.1 as u64;
            total
        });
        Sizes { weights_below: weights_below.collect(), sizes: b.entries.iter().map(|e| e.0).collect() }
    }

    #[inline(always)]
    fn draw(&self, rng: &mut Rng) -> u32 {
        if let [only] = self.sizes[..] {
            return only;
        }
        let r = rng.below(*self.weights_below.last().unwrap_or(&1));
        self.sizes[self.weights_below.iter().position(|&w| r < w).unwrap_or(0)]
    }
}

/// Draws one job's requests.
pub struct Generator {
    read_percent: u64,
    trim_percent: u64,
    random_percent: u64,
    read_sizes: Sizes,
    write_sizes: Sizes,
    /// The job's range of the LBA space, bytes.
    offset: u64,
    range_bytes: u64,
    /// Random requests start at multiples of `align` from `offset`, at one of `slots` places
    /// where the largest request still fits.
    align: u64,
    slots: u64,
    positions: Positions,
    /// Sequential: where the next request starts, from `offset`.
    cursor: u64,
    /// The placement handle each write carries.
    tags: Tags,
}

/// A job's placement handles as the generator chooses among them (a list is boxed: the
/// generator of an untagged job stays small).
enum Tags {
    /// Every request's (0: untagged).
    Fixed(u8),
    Chosen(Box<Choice>),
}

enum Choice {
    RoundRobin {
        handles: Vec<u8>,
        next: usize,
    },
    Random(Vec<u8>),
    /// A handle per zone of the job's zoned distribution.
    ByZone(Vec<u8>),
}

impl Tags {
    fn new(placement: &Placement) -> Self {
        let chosen = |c| Tags::Chosen(Box::new(c));
        match placement {
            Placement::Untagged => Tags::Fixed(0),
            &Placement::Handle(h) => Tags::Fixed(h),
            Placement::RoundRobin(l) => chosen(Choice::RoundRobin { handles: l.clone(), next: 0 }),
            Placement::Random(l) => chosen(Choice::Random(l.clone())),
            Placement::ByZone(l) => chosen(Choice::ByZone(l.clone())),
        }
    }
}

impl Choice {
    /// The handle of a write at position `slot` (only writes move the round robin, as fio's
    /// does; other commands carry no handle).
    #[inline(never)]
    fn tag(&mut self, op: Op, slot: u64, positions: &Positions, rng: &mut Rng) -> u8 {
        if op != Op::Write {
            return 0;
        }
        match self {
            Choice::RoundRobin { handles, next } => {
                let tag = handles[*next];
                *next = (*next + 1) % handles.len();
                tag
            }
            Choice::Random(handles) => handles[rng.below(handles.len() as u64) as usize],
            Choice::ByZone(handles) => handles[positions.zone_of(slot)],
        }
    }
}

impl Generator {
    /// The job's requests over a workload span of `span_bytes` (`seed` orders a random map).
    pub fn new(job: &JobSpec, span_bytes: u64, seed: u64) -> Self {
        let range_bytes = job.range_bytes(span_bytes);
        let largest = (job.read_sizes.largest().max(job.write_sizes.largest()) as u64).clamp(1, range_bytes);
        let smallest = job.read_sizes.smallest().min(job.write_sizes.smallest());
        let align = if job.align_bytes == 0 { smallest as u64 } else { job.align_bytes as u64 }.max(1);
        let slots = (range_bytes - largest) / align + 1;
        Generator {
            read_percent: job.read_percent as u64,
            trim_percent: job.trim_percent as u64,
            random_percent: job.random_percent as u64,
            read_sizes: Sizes::new(&job.read_sizes),
            write_sizes: Sizes::new(&job.write_sizes),
            offset: job.offset_bytes,
            range_bytes,
            align,
            slots,
            positions: Positions::new(&job.distribution, slots, job.random_map, seed),
            cursor: 0,
            tags: Tags::new(&job.placement),
        }
    }

    #[inline(always)]
    fn sequential(&mut self, bytes: u32) -> u64 {
        if self.cursor + bytes as u64 > self.range_bytes {
            self.cursor = 0;
        }
        let at = self.cursor;
        self.cursor += bytes as u64;
        at
    }
}

impl WorkloadSource for Generator {
    #[inline(always)]
    fn next(&mut self, rng: &mut Rng) -> Request {
        // Draw only what varies, so a pure workload uses one draw per request.
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
        let bytes = if op == Op::Read { self.read_sizes.draw(rng) } else { self.write_sizes.draw(rng) };
        let random = match self.random_percent {
            0 => false,
            100 => true,
            p => rng.below(100) < p,
        };
        let at = if random { self.positions.draw(rng, self.slots) * self.align } else { self.sequential(bytes) };
        let tag = match &mut self.tags {
            Tags::Fixed(tag) => *tag,
            Tags::Chosen(choice) => choice.tag(op, at / self.align, &self.positions, rng),
        };
        Request { tag, ..Request::at(op, self.offset + at, bytes) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::WorkloadSpec;
    use crate::host::WorkloadSource;
    use crate::units::UNIT_BYTES;

    fn named(id: &str, bytes: u32, units: u64) -> Generator {
        let spec = WorkloadSpec::by_id(id).unwrap();
        Generator::new(&JobSpec::named(&spec, bytes, bytes, 32), units * UNIT_BYTES, 1)
    }

    #[test]
    fn requests_stay_in_the_span_and_follow_the_mix() {
        let mut rng = Rng::new(1);
        let mut g = named("mixed-70-30", 8192, 1001);
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

        let mut g = named("sequential-write", 131072, 100);
        let starts: Vec<u32> = (0..4).map(|_| g.next(&mut rng).lpa).collect();
        assert_eq!(starts, vec![0, 32, 64, 0]);

        // 1.5 KB sequential: contiguous, crossing 4 KiB units unaligned.
        let mut g = named("redo-log", 1536, 100);
        let r: Vec<Request> = (0..3).map(|_| g.next(&mut rng)).collect();
        assert_eq!((r[0].lpa, r[0].units, r[0].partial_head, r[0].partial_tail), (0, 1, false, true));
        assert_eq!((r[1].lpa, r[1].units, r[1].partial_head, r[1].partial_tail), (0, 1, true, true));
        assert_eq!((r[2].lpa, r[2].units, r[2].partial_head, r[2].partial_tail), (0, 2, true, true));
        assert!(r[2].partial(0) && r[2].partial(1));

        let mut g = named("write-trim", 4096, 1000);
        let trims = (0..10_000).filter(|_| g.next(&mut rng).op == Op::Trim).count();
        assert!((800..1_200).contains(&trims), "{}", trims);
        assert!(WorkloadSpec::by_id("nope").unwrap_err().message.contains("random-read"));
    }

    #[test]
    fn a_job_keeps_to_its_range_and_mixes_sizes_and_patterns() {
        let mut rng = Rng::new(2);
        let mut job = JobSpec::named(&WorkloadSpec::by_id("random-write").unwrap(), 4096, 0, 8);
        job.write_sizes = BlockSizes::parse("bssplit", "4k/50:64k/50").unwrap();
        job.offset_bytes = 1 << 20;
        job.size_bytes = 4 << 20;
        job.random_percent = 50;
        let mut g = Generator::new(&job, 64 << 20, 1);
        let (mut big, mut in_order) = (0, 0);
        let mut last_end = 0;
        for _ in 0..10_000 {
            let r = g.next(&mut rng);
            let start = r.lpa as u64 * UNIT_BYTES;
            assert!(start >= 1 << 20 && start + r.bytes as u64 <= 5 << 20, "{:?}", r);
            big += (r.bytes == 65536) as u32;
            in_order += (start == last_end) as u32;
            last_end = start + r.bytes as u64;
        }
        assert!((4_700..5_300).contains(&big), "{}", big);
        assert!(in_order > 2_000, "sequential share {}", in_order);
    }
}
