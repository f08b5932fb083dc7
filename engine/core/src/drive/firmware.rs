//! The controller's processor: firmware handles one piece of work at a time: a host command, a
//! map clean-up, or (with `controller.gc_move_ns`) the units a GC scan relocates.
//!
//! Host commands arrive in order, so a busy-until time is exact for them. GC relocations are
//! booked at their die's time, which during idle-time collection runs ahead of the other dies';
//! with them the processor keeps a calendar, so work booked later can use idle time before
//! work booked earlier (and one die's idle-time collection does not hold up another's).

use crate::timeline::Calendar;

#[derive(Debug, Default)]
pub struct Firmware {
    free_ns: u64,
    /// Only when GC relocations take controller time: the busy intervals from the present on.
    calendar: Option<Calendar>,
    now_ns: u64,
}

impl Firmware {
    /// A processor that GC relocations share with host commands (`gc_moves` true) or not.
    pub fn new(gc_moves: bool) -> Self {
        Firmware { calendar: gc_moves.then(Calendar::default), ..Firmware::default() }
    }

    /// Work of `len_ns` that can start at `ready_ns`; returns when it is done.
    #[inline]
    pub fn run(&mut self, ready_ns: u64, len_ns: u64) -> u64 {
        if let Some(c) = self.calendar.as_mut() {
            return c.book(ready_ns, len_ns, self.now_ns) + len_ns;
        }
        let t = ready_ns.max(self.free_ns) + len_ns;
        self.free_ns = t;
        t
    }

    /// The host's clock: nothing is booked before it.
    #[inline]
    pub fn set_now(&mut self, now_ns: u64) {
        self.now_ns = now_ns;
    }

    /// Nothing runs before `t_ns` (power is off until then).
    pub fn stall_until(&mut self, t_ns: u64) {
        self.free_ns = self.free_ns.max(t_ns);
        if let Some(c) = self.calendar.as_mut() {
            c.busy_until(t_ns);
        }
    }

    pub fn memory_bytes(&self) -> u64 {
        self.calendar.as_ref().map_or(0, |c| c.memory_bytes())
    }
}
