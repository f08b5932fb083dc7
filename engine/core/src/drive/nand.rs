//! NAND timing as resource timelines. Each die has a `busy_until`: its operations run in the
//! order they are booked. A channel is shared by several dies whose work is booked at different
//! points in the future, so each channel keeps a calendar of booked transfers (`timeline.rs`).
//! Every booking respects every earlier one, so contention between host programs, GC reads,
//! GC programs and erases comes out exactly without an event per NAND operation.

use crate::config::{NandGeometry, NandTiming};
use crate::timeline::Calendar;

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
            unit_transfer_ns: t.unit_transfer_ns(),
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
        (self.channel_of_die.capacity() * 4 + self.die_free_ns.capacity() * 8 + self.die_gap.capacity() * 16) as u64
            + self.channels.iter().map(|c| c.memory_bytes()).sum::<u64>()
    }
}
