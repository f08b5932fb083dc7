//! NAND timing as resource timelines. Each die has a `busy_until`: its operations run in the
//! order they are booked. A channel is shared by several dies whose work is booked at different
//! points in the future, so each channel keeps a calendar of booked transfers (`timeline.rs`).
//! Every booking respects every earlier one, so contention between host programs, GC reads,
//! GC programs and erases comes out exactly without an event per NAND operation.

use crate::config::{NandGeometry, NandTiming};
use crate::timeline::Calendar;

/// What a die spends its time on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    HostRead = 0,
    HostProgram = 1,
    GcRead = 2,
    GcProgram = 3,
    Erase = 4,
    /// Map pages and the map journal.
    Map = 5,
    /// Folding: reading an SLC-mode block's data and programming it into native blocks.
    Fold = 6,
}

pub const WORK_KINDS: usize = 7;
/// Column names of each kind of work, in `Work`'s order.
pub const WORK_NAMES: [&str; WORK_KINDS] =
    ["host_read", "host_program", "gc_read", "gc_program", "erase", "map", "fold"];

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
    /// Per die and kind of work: time booked so far, ns.
    busy_ns: Vec<[u64; WORK_KINDS]>,
    /// The same summed over dies.
    total_busy_ns: [u64; WORK_KINDS],
    /// Drives with `controller.max_programming_dies`: when each of the allowed concurrent array
    /// programs comes free, ns.
    program_slots: Option<Box<[u64]>>,
}

impl Nand {
    pub fn new(g: &NandGeometry, t: &NandTiming, max_programming_dies: u32) -> Self {
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
            busy_ns: vec![[0; WORK_KINDS]; g.dies as usize],
            total_busy_ns: [0; WORK_KINDS],
            program_slots: (max_programming_dies > 0).then(|| vec![0; max_programming_dies as usize].into()),
        }
    }

    /// Time each die has been booked for each kind of work, ns (per die, in `Work`'s order).
    pub fn busy_ns(&self) -> &[[u64; WORK_KINDS]] {
        &self.busy_ns
    }

    /// The same summed over the dies.
    pub fn total_busy_ns(&self) -> [u64; WORK_KINDS] {
        self.total_busy_ns
    }

    #[inline]
    fn account(&mut self, d: usize, work: Work, ns: u64) {
        self.busy_ns[d][work as usize] += ns;
        self.total_busy_ns[work as usize] += ns;
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
    pub fn program(&mut self, die: u32, ready_ns: u64, units: u32, work: Work) -> u64 {
        self.program_as(die, ready_ns, units, work, self.program_ns)
    }

    /// `program` with the array time `program_ns` given by the caller (a page's time by its
    /// block's mode and its type in the wordline: `PageTimes`).
    #[inline]
    pub fn program_as(&mut self, die: u32, ready_ns: u64, units: u32, work: Work, program_ns: u64) -> u64 {
        let c = self.channel_of_die[die as usize] as usize;
        let d = die as usize;
        let len = units as u64 * self.unit_transfer_ns;
        let start = self.channels[c].book(ready_ns.max(self.die_free_ns[d]), len, self.now_ns);
        let mut end = start + len + program_ns;
        if let Some(slots) = &mut self.program_slots {
            end = book_program_slot(slots, start + len, program_ns);
        }
        self.account(d, work, len + program_ns);
        self.occupy(d, start, end)
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
    pub fn read(&mut self, die: u32, ready_ns: u64, units: u32, work: Work) -> u64 {
        self.read_as(die, ready_ns, units, work, self.read_ns)
    }

    /// `read` with the array time `read_ns` given by the caller (as `program_as`).
    #[inline]
    pub fn read_as(&mut self, die: u32, ready_ns: u64, units: u32, work: Work, read_ns: u64) -> u64 {
        let c = self.channel_of_die[die as usize] as usize;
        let d = die as usize;
        let len = units as u64 * self.unit_transfer_ns;
        let (gap_from, gap_until) = self.die_gap[d];
        let start = ready_ns.max(gap_from).max(self.now_ns);
        if start + read_ns + len <= gap_until {
            if let Some(x) = self.channels[c].book_before(start + read_ns, len, gap_until, self.now_ns) {
                self.die_gap[d].0 = x + len;
                self.account(d, work, read_ns + len);
                return x + len;
            }
        }
        let sensed = ready_ns.max(self.die_free_ns[d]) + read_ns;
        let start = self.channels[c].book(sensed, len, self.now_ns);
        // The die holds the page from sensing until its data has crossed the channel.
        self.account(d, work, start + len - (sensed - read_ns));
        self.occupy(d, sensed - read_ns, start + len)
    }

    #[inline]
    pub fn erase(&mut self, die: u32, ready_ns: u64) -> u64 {
        let d = die as usize;
        let start = ready_ns.max(self.die_free_ns[d]);
        self.account(d, Work::Erase, self.erase_ns);
        self.occupy(d, start, start + self.erase_ns)
    }

    pub fn memory_bytes(&self) -> u64 {
        let slots = self.program_slots.as_ref().map_or(0, |s| s.len() as u64 * 8);
        (self.channel_of_die.capacity() * 4 + self.die_free_ns.capacity() * 8 + self.die_gap.capacity() * 16) as u64
            + self.channels.iter().map(|c| c.memory_bytes()).sum::<u64>()
            + self.busy_ns.capacity() as u64 * (WORK_KINDS as u64 * 8)
            + slots
    }
}

/// Books an array program of `program_ns` that may start at `ready_ns` on one of the slots (the
/// dies allowed to program at once); returns when it ends. It takes the slot that came free
/// last before `ready_ns` (leaving earlier-free ones to programs booked out of order), else the
/// one that comes free first, and waits for it. Transfer-only pages (0 ns) take no slot.
fn book_program_slot(slots: &mut [u64], ready_ns: u64, program_ns: u64) -> u64 {
    if program_ns == 0 {
        return ready_ns;
    }
    let free_before = slots.iter().enumerate().filter(|&(_, &f)| f <= ready_ns).max_by_key(|&(_, &f)| f);
    let (i, start) = match free_before {
        Some((i, _)) => (i, ready_ns),
        None => slots.iter().enumerate().min_by_key(|&(_, &f)| f).map(|(i, &f)| (i, f)).expect("at least one slot"),
    };
    slots[i] = start + program_ns;
    slots[i]
}
