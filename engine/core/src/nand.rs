//! NAND timing as resource timelines. Each die has a `busy_until`: its operations run in the
//! order they are booked. A channel is shared by several dies whose work is booked at different
//! points in the future, so each channel keeps a calendar of booked transfers and a transfer
//! takes the first gap that fits; a transfer booked later can still use an earlier idle gap.
//! Every booking respects every earlier one, so contention between host programs, GC reads,
//! GC programs and erases comes out exactly without an event per NAND operation.

use std::collections::VecDeque;

use crate::config::{NandGeometry, NandTiming, UNIT_BYTES};

/// Busy intervals of one channel, sorted and disjoint, from the present on.
#[derive(Debug, Clone, Default)]
pub struct Calendar {
    busy: VecDeque<(u64, u64)>,
}

impl Calendar {
    /// Books `len_ns` at the earliest start >= `ready_ns` that fits between booked transfers;
    /// forgets intervals that end before `now_ns` (nothing is ever booked before the present).
    #[inline]
    pub fn book(&mut self, ready_ns: u64, len_ns: u64, now_ns: u64) -> u64 {
        let (start, i) = self.find(ready_ns, len_ns, now_ns);
        self.insert(i, start, len_ns);
        start
    }

    /// The earliest start >= `ready_ns` where `len_ns` fits, and where it goes in the list.
    #[inline]
    fn find(&mut self, ready_ns: u64, len_ns: u64, now_ns: u64) -> (u64, usize) {
        while matches!(self.busy.front(), Some(&(_, end)) if end <= now_ns) {
            self.busy.pop_front();
        }
        let mut start = ready_ns.max(now_ns);
        let mut i = self.busy.partition_point(|&(_, end)| end <= start);
        while i < self.busy.len() {
            let (s, e) = self.busy[i];
            if s >= start + len_ns {
                break;
            }
            start = start.max(e);
            i += 1;
        }
        (start, i)
    }

    /// Books `len_ns` at `ready_ns` or later if it can end by `deadline_ns`; returns the start.
    #[inline]
    fn book_before(&mut self, ready_ns: u64, len_ns: u64, deadline_ns: u64, now_ns: u64) -> Option<u64> {
        let (start, i) = self.find(ready_ns, len_ns, now_ns);
        if start + len_ns > deadline_ns {
            return None;
        }
        self.insert(i, start, len_ns);
        Some(start)
    }

    #[inline]
    fn insert(&mut self, i: usize, start: u64, len_ns: u64) {
        let end = start + len_ns;
        // Merge with touching neighbours to keep the calendar short.
        let joins_prev = i > 0 && self.busy[i - 1].1 == start;
        let joins_next = i < self.busy.len() && self.busy[i].0 == end;
        match (joins_prev, joins_next) {
            (true, true) => {
                self.busy[i - 1].1 = self.busy[i].1;
                self.busy.remove(i);
            }
            (true, false) => self.busy[i - 1].1 = end,
            (false, true) => self.busy[i].0 = start,
            (false, false) => self.busy.insert(i, (start, end)),
        }
    }

    pub fn len(&self) -> usize {
        self.busy.len()
    }

    pub fn is_empty(&self) -> bool {
        self.busy.is_empty()
    }
}

pub struct Nand {
    channel_of_die: Vec<u32>,
    channels: Vec<Calendar>,
    die_free_ns: Vec<u64>,
    /// The idle interval each die has before its last booked operation (one booked to start
    /// later than the die came free, e.g. a program waiting for its data): a read that fits
    /// there runs in it rather than queueing behind that operation.
    die_gap: Vec<(u64, u64)>,
    /// The host's clock: no operation is booked before it.
    now_ns: u64,
    /// Channel time to move one 4 KiB unit between controller and die, ns.
    unit_transfer_ns: u64,
    read_ns: u64,
    program_ns: u64,
    erase_ns: u64,
}

impl Nand {
    pub fn new(g: &NandGeometry, t: &NandTiming) -> Self {
        Nand {
            // Dies are spread over channels round-robin (die d on channel d mod channels).
            channel_of_die: (0..g.dies).map(|d| d % g.channels).collect(),
            channels: vec![Calendar::default(); g.channels as usize],
            die_free_ns: vec![0; g.dies as usize],
            die_gap: vec![(0, 0); g.dies as usize],
            now_ns: 0,
            unit_transfer_ns: UNIT_BYTES * 1000 / t.channel_mb_s,
            read_ns: t.read_ns,
            program_ns: t.program_ns,
            erase_ns: t.erase_ns,
        }
    }

    /// Advances the present; calendars drop what ends before it.
    #[inline]
    pub fn set_now(&mut self, now_ns: u64) {
        self.now_ns = now_ns;
    }

    /// When the die finishes the work booked on it so far.
    pub fn die_free_ns(&self, die: u32) -> u64 {
        self.die_free_ns[die as usize]
    }

    /// Nothing starts before `t_ns` (power is off until then).
    pub fn stall_until(&mut self, t_ns: u64) {
        for d in self.die_free_ns.iter_mut() {
            *d = (*d).max(t_ns);
        }
        self.die_gap.fill((0, 0));
    }

    /// Transfers `units` to the die and programs them (one multi-plane program); returns when
    /// the program completes.
    #[inline]
    pub fn program(&mut self, die: u32, ready_ns: u64, units: u32) -> u64 {
        let c = self.channel_of_die[die as usize] as usize;
        let d = die as usize;
        let len = units as u64 * self.unit_transfer_ns;
        let start = self.channels[c].book(ready_ns.max(self.die_free_ns[d]), len, self.now_ns);
        self.occupy(d, start, start + len + self.program_ns)
    }

    /// The die works from `start` to `end` (its last booking); returns `end`.
    #[inline]
    fn occupy(&mut self, d: usize, start: u64, end: u64) -> u64 {
        if start > self.die_free_ns[d] {
            self.die_gap[d] = (self.die_free_ns[d], start);
        }
        self.die_free_ns[d] = end;
        end
    }

    /// Reads one (multi-plane) page and transfers `units` of it to the controller; returns when
    /// the data is in the controller.
    #[inline]
    pub fn read(&mut self, die: u32, ready_ns: u64, units: u32) -> u64 {
        let c = self.channel_of_die[die as usize] as usize;
        let d = die as usize;
        let len = units as u64 * self.unit_transfer_ns;
        let (gap_from, gap_until) = self.die_gap[d];
        let start = ready_ns.max(gap_from).max(self.now_ns);
        if start + self.read_ns + len <= gap_until {
            if let Some(x) = self.channels[c].book_before(start + self.read_ns, len, gap_until, self.now_ns) {
                self.die_gap[d].0 = x + len;
                return x + len;
            }
        }
        let sensed = ready_ns.max(self.die_free_ns[d]) + self.read_ns;
        let start = self.channels[c].book(sensed, len, self.now_ns);
        self.occupy(d, sensed - self.read_ns, start + len)
    }

    #[inline]
    pub fn erase(&mut self, die: u32, ready_ns: u64) -> u64 {
        let d = die as usize;
        let start = ready_ns.max(self.die_free_ns[d]);
        self.occupy(d, start, start + self.erase_ns)
    }

    pub fn memory_bytes(&self) -> u64 {
        (self.channel_of_die.capacity() * 4
            + self.channels.iter().map(|c| c.busy.capacity() * 16).sum::<usize>()
            + self.die_free_ns.capacity() * 8) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_fills_earlier_gaps_and_never_overlaps() {
        let mut c = Calendar::default();
        assert_eq!(c.book(100, 10, 0), 100); // [100,110)
        assert_eq!(c.book(0, 10, 0), 0); // an earlier gap is used: [0,10)
        assert_eq!(c.book(95, 10, 0), 110); // [95,105) overlaps, so after 110
        assert_eq!(c.book(10, 85, 0), 10); // exactly fills [10,95)
        assert_eq!(c.len(), 2); // [0,95) merged, [100,120)
        assert_eq!(c.book(0, 5, 200), 200); // the past is gone
        assert_eq!(c.len(), 1);
    }
}
