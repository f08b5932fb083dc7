//! Busy intervals of a shared resource (a NAND channel, the host link). A transfer takes the first
//! gap that fits, so one booked later can still use an earlier idle gap; every booking respects
//! every earlier one, so contention comes out exactly without an event per operation.

/// Busy intervals, sorted and disjoint. `busy[past..]` are the ones still to end: a plain vector
/// with a moving start, since binary search and indexing on a slice are cheaper than on a
/// `VecDeque`, and the past is dropped in bulk.
#[derive(Debug, Clone, Default)]
pub struct Calendar {
    busy: Vec<(u64, u64)>,
    past: usize,
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
    #[inline(always)]
    fn find(&mut self, ready_ns: u64, len_ns: u64, now_ns: u64) -> (u64, usize) {
        while matches!(self.busy.get(self.past), Some(&(_, end)) if end <= now_ns) {
            self.past += 1;
        }
        if self.past >= 64 && self.past * 2 >= self.busy.len() {
            self.busy.drain(..self.past);
            self.past = 0;
        }
        let ahead = &self.busy[self.past..];
        let mut start = ready_ns.max(now_ns);
        let mut i = ahead.partition_point(|&(_, end)| end <= start);
        while let Some(&(s, e)) = ahead.get(i) {
            if s >= start + len_ns {
                break;
            }
            start = start.max(e);
            i += 1;
        }
        (start, self.past + i)
    }

    /// Books `len_ns` at `ready_ns` or later if it can end by `deadline_ns`; returns the start.
    #[inline]
    pub fn book_before(&mut self, ready_ns: u64, len_ns: u64, deadline_ns: u64, now_ns: u64) -> Option<u64> {
        let (start, i) = self.find(ready_ns, len_ns, now_ns);
        if start + len_ns > deadline_ns {
            return None;
        }
        self.insert(i, start, len_ns);
        Some(start)
    }

    #[inline(always)]
    fn insert(&mut self, i: usize, start: u64, len_ns: u64) {
        let end = start + len_ns;
        // Merge with touching neighbours to keep the calendar short.
        let joins_prev = i > self.past && self.busy[i - 1].1 == start;
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
        self.busy.len() - self.past
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn memory_bytes(&self) -> u64 {
        self.busy.capacity() as u64 * 16
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
