//! The controller's processor: firmware handles one piece of work at a time, first come first
//! served: a host command, a map clean-up, or (with `controller.gc_move_ns`) the units a GC
//! scan relocates.

#[derive(Debug, Default)]
pub struct Firmware {
    free_ns: u64,
    /// The host's clock.
    now_ns: u64,
}

impl Firmware {
    /// Work of `len_ns` that can start at `ready_ns`; returns when it is done.
    #[inline]
    pub fn run(&mut self, ready_ns: u64, len_ns: u64) -> u64 {
        let t = ready_ns.max(self.free_ns) + len_ns;
        self.free_ns = t;
        t
    }

    /// Work of `len_ns` the controller takes on as it is decided (GC relocations): queued
    /// behind what it has already been given from the host's present on; returns when it is
    /// done.
    #[inline]
    pub fn run_now(&mut self, len_ns: u64) -> u64 {
        self.run(self.now_ns, len_ns)
    }

    /// The host's clock.
    #[inline]
    pub fn set_now(&mut self, now_ns: u64) {
        self.now_ns = now_ns;
    }

    /// Nothing runs before `t_ns` (power is off until then).
    pub fn stall_until(&mut self, t_ns: u64) {
        self.free_ns = self.free_ns.max(t_ns);
    }
}
