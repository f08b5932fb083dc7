//! The controller's processor: firmware handles one command (or map clean-up) at a time.

#[derive(Debug, Default)]
pub struct Firmware {
    free_ns: u64,
}

impl Firmware {
    /// Work of `len_ns` that can start at `ready_ns`; returns when it is done.
    #[inline]
    pub fn run(&mut self, ready_ns: u64, len_ns: u64) -> u64 {
        let t = ready_ns.max(self.free_ns) + len_ns;
        self.free_ns = t;
        t
    }

    /// Nothing runs before `t_ns` (power is off until then).
    pub fn stall_until(&mut self, t_ns: u64) {
        self.free_ns = self.free_ns.max(t_ns);
    }
}
