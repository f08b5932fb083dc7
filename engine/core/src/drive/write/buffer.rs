//! The write buffer's space: host units admitted in command order, released when the program
//! holding them completes; and, when writes can cover part of a unit, which recently
//! programmed units are still in the buffer to merge with.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::units::UNIT_BYTES;

pub struct WriteBuffer {
    capacity_units: u64,
    used_units: u64,
    /// When the last unit entered the buffer.
    admitted_ns: u64,
    /// Host programs whose data still occupies the buffer: (completion time, units).
    programs_in_flight: BinaryHeap<Reverse<(u64, u32)>>,
    /// Only when requests can cover part of a unit: units whose program is under way, with its
    /// completion time; their data is still in the buffer to merge with.
    recent_programs: Option<VecDeque<(u32, u64)>>,
}

impl WriteBuffer {
    pub fn new(buffer_bytes: u64, partial_writes: bool) -> Self {
        WriteBuffer {
            capacity_units: buffer_bytes / UNIT_BYTES,
            used_units: 0,
            admitted_ns: 0,
            programs_in_flight: BinaryHeap::new(),
            recent_programs: partial_writes.then(VecDeque::new),
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        self.programs_in_flight.capacity() as u64 * 16
            + self.recent_programs.as_ref().map_or(0, |r| r.capacity() as u64 * 16)
    }

    /// The buffer admits in command order: space another command waited for is not free any
    /// earlier for a later one.
    #[inline]
    pub fn in_order(&self, t_ns: u64) -> u64 {
        t_ns.max(self.admitted_ns)
    }

    /// Admits one unit at `t_ns` or, if the buffer is full, once the oldest programs finish and
    /// release their space; returns the time it enters.
    #[inline]
    pub fn admit(&mut self, mut t_ns: u64) -> u64 {
        while self.used_units >= self.capacity_units {
            let Reverse((freed_ns, units)) =
                self.programs_in_flight.pop().expect("a full buffer has programs in flight");
            t_ns = t_ns.max(freed_ns);
            self.used_units -= units as u64;
        }
        self.used_units += 1;
        self.admitted_ns = t_ns;
        t_ns
    }

    /// `admit` of `n` units in turn; returns when the last enters.
    #[inline]
    pub fn admit_run(&mut self, mut t_ns: u64, n: u32) -> u64 {
        let mut left = n as u64;
        loop {
            let room = self.capacity_units.saturating_sub(self.used_units).min(left);
            self.used_units += room;
            left -= room;
            if left == 0 {
                break;
            }
            let Reverse((freed_ns, units)) =
                self.programs_in_flight.pop().expect("a full buffer has programs in flight");
            t_ns = t_ns.max(freed_ns);
            self.used_units -= units as u64;
        }
        self.admitted_ns = t_ns;
        t_ns
    }

    /// A page of `lpas` is being programmed, done at `done_ns`: its units leave the buffer then.
    #[inline]
    pub fn programming(&mut self, lpas: impl Iterator<Item = u32>, units: u32, done_ns: u64) {
        if let Some(recent) = self.recent_programs.as_mut() {
            recent.extend(lpas.map(|lpa| (lpa, done_ns)));
        }
        self.programs_in_flight.push(Reverse((done_ns, units)));
    }

    /// When the last host program booked so far completes (0 if none is in flight).
    pub fn programs_done_ns(&self) -> u64 {
        self.programs_in_flight.iter().map(|&Reverse((done, _))| done).max().unwrap_or(0)
    }

    /// Whether unit `lpa` is in a page whose program has not finished at `t_ns`.
    pub fn being_programmed(&mut self, lpa: u32, t_ns: u64) -> bool {
        let Some(recent) = self.recent_programs.as_mut() else { return false };
        while recent.len() as u64 > self.capacity_units || matches!(recent.front(), Some(&(_, done)) if done <= t_ns) {
            recent.pop_front();
        }
        recent.iter().any(|&(l, done)| l == lpa && done > t_ns)
    }

    /// Units in the buffer at `t_ns`: admitted and not yet programmed.
    pub fn occupancy(&self, t_ns: u64) -> u32 {
        let freed: u64 = self
            .programs_in_flight
            .iter()
            .filter(|&&Reverse((done, _))| done <= t_ns)
            .map(|&Reverse((_, u))| u as u64)
            .sum();
        self.used_units.saturating_sub(freed) as u32
    }

    /// Power failed at `at_ns`: whatever was in the buffer is flushed or lost; it is empty.
    pub fn emptied(&mut self, at_ns: u64) {
        self.programs_in_flight.clear();
        if let Some(recent) = self.recent_programs.as_mut() {
            recent.clear();
        }
        self.used_units = 0;
        self.admitted_ns = at_ns;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admitting_a_run_waits_as_admitting_its_units_one_by_one() {
        let (mut run, mut units) = (WriteBuffer::new(10 * UNIT_BYTES, false), WriteBuffer::new(10 * UNIT_BYTES, false));
        let (mut t_run, mut t_units) = (0, 0);
        // Runs of up to a page (8 units), in a buffer of 10, each programmed as pages of 4.
        for (k, n) in [3u32, 8, 1, 7, 4, 8, 8, 2, 5, 8].into_iter().enumerate() {
            t_run = run.admit_run(t_run, n);
            t_units = (0..n).fold(t_units, |t, _| units.admit(t));
            assert_eq!(
                (t_run, run.used_units, run.admitted_ns),
                (t_units, units.used_units, units.admitted_ns),
                "run {k}"
            );
            for b in [&mut run, &mut units] {
                for page in 0..n.div_ceil(4) {
                    b.programming(
                        std::iter::empty(),
                        4.min(n - page * 4),
                        t_run + 1_000 * (k as u64 + page as u64 + 1),
                    );
                }
            }
        }
        assert!(t_run > 0, "the buffer filled and waited");
    }
}
