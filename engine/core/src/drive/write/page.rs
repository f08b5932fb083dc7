//! The page being assembled in the buffer: the units that will be programmed together as one
//! multi-plane page, and, writing through, the program already booked for it (group commit).

use crate::drive::ftl::Stream;
use crate::units::NONE;

/// Writing through: the page's program, booked when its first unit came. Commands arriving
/// before it starts join it.
#[derive(Debug, Clone, Copy)]
pub struct Group {
    pub die: u32,
    /// The stream its page is stored on.
    pub stream: Stream,
    pub start_ns: u64,
    pub done_ns: u64,
}

pub struct Page {
    /// The placement handle of its units (0: untagged): a page holds one handle's data.
    pub tag: u8,
    /// Logical units (NONE: trimmed or rewritten while here), with the slots each takes.
    pub units: Vec<(u32, u32)>,
    /// The slots they add up to.
    pub slots: u32,
    /// Some units came as a run (`push_run`): storing the page looks for runs to map at once.
    pub runs: bool,
    /// When the page's data is all in the buffer (a read-modify-write may still be reading).
    pub ready_ns: u64,
    pub group: Option<Group>,
    /// The units' sequence numbers in the durability log (only while one is kept).
    pub seqs: Vec<u64>,
    /// Writes merged into a unit already here, in order, as (units here before it, unit): a
    /// log started now needs every write the page holds.
    pub merges: Vec<(u32, u32)>,
}

impl Page {
    pub fn new(capacity: usize, tag: u8) -> Self {
        Page {
            tag,
            units: Vec::with_capacity(capacity),
            slots: 0,
            runs: false,
            ready_ns: 0,
            group: None,
            seqs: Vec::with_capacity(capacity),
            merges: Vec::new(),
        }
    }

    #[inline]
    pub fn contains(&self, lpa: u32) -> bool {
        self.units.iter().any(|&(l, _)| l == lpa)
    }

    /// The group's program has started by `t_ns` (or the drive buffers again): later data
    /// waits for the next page.
    #[inline]
    pub fn group_started(&self, t_ns: u64, write_through: bool) -> bool {
        matches!(self.group, Some(g) if t_ns > g.start_ns || !write_through)
    }

    /// Unit `lpa` was trimmed, or written again into another handle's page: this copy goes
    /// unwritten (its slots stay in the page).
    pub fn drop_unit(&mut self, lpa: u32) {
        for entry in self.units.iter_mut().filter(|e| e.0 == lpa) {
            entry.0 = NONE;
        }
    }

    /// When the booked program completes, or 0 if none is booked.
    #[inline]
    pub fn group_done_ns(&self) -> u64 {
        self.group.map_or(0, |g| g.done_ns)
    }

    /// A write merged into unit `lpa`, already here.
    pub fn merged(&mut self, lpa: u32) {
        self.merges.push((self.units.len() as u32, lpa));
    }

    /// Every write the page holds, in the order they came: each unit's first (NONE if trimmed
    /// since), and the writes merged into it.
    pub fn writes(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.units.len() + self.merges.len());
        let mut merges = self.merges.iter().peekable();
        for (i, &(lpa, _)) in self.units.iter().enumerate() {
            while let Some(&(_, merged)) = merges.next_if(|&&(before, _)| before as usize <= i) {
                out.push(merged);
            }
            out.push(lpa);
        }
        out.extend(merges.map(|&(_, merged)| merged));
        out
    }

    #[inline]
    pub fn push(&mut self, lpa: u32, slots: u32, ready_ns: u64) {
        self.units.push((lpa, slots));
        self.slots += slots;
        self.ready_ns = self.ready_ns.max(ready_ns);
    }

    /// `push` of units `lpa..lpa + n`, one slot each, their data in the buffer already.
    #[inline]
    pub fn push_run(&mut self, lpa: u32, n: u32) {
        self.units.extend((lpa..lpa + n).map(|l| (l, 1)));
        self.slots += n;
        self.runs = true;
    }

    /// The page has gone to its program (or was dropped).
    pub fn clear(&mut self) {
        self.units.clear();
        self.slots = 0;
        self.runs = false;
        self.seqs.clear();
        self.merges.clear();
    }
}
