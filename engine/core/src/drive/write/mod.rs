//! The write path: a write's units enter the buffer (waiting for programs to free space) and
//! are assembled into multi-plane pages, each programmed on the next die in the stripe. With
//! protected (or volatile) buffering a write is acknowledged once it is all buffered; writing
//! through, once the programs of its pages complete, and writes arriving before a page's
//! program starts join it (group commit).
//!
//! A write that covers only part of a map entry merges with the entry's current data: in the
//! buffer if it is still there, otherwise read from NAND first (read-modify-write). The command
//! and its page wait for that read; other commands do not.

mod buffer;
mod page;

use crate::command::Request;
use crate::config::RunConfig;
use crate::units::{NONE, UNIT_BYTES};

use super::compression::Compression;
use super::flash::Flash;
use super::ftl::Stream;
use super::gc::Gc;
use super::nand::Work;
use super::power::DurabilityLog;
use buffer::WriteBuffer;
use page::{Group, Page};

pub struct WritePath {
    buffer: WriteBuffer,
    /// The page being assembled, of the last write's placement handle.
    page: Page,
    /// Pages of other handles waiting for more of their data (empty on an untagged drive).
    parked: Vec<Page>,
    /// Kept when power cuts are scheduled, or from the first cut asked for during the run
    /// (`start_log`): recent writes with ack and durable times.
    pub log: Option<DurabilityLog>,
    compression: Compression,
    /// 4 KiB units one map entry spans (`map.unit_bytes`).
    entry_units: u32,
    user_units: u32,
    slots_per_program: u32,
    /// Each stream slot's turn over its dies: a zoned drive's over its zone's, a drive with
    /// reclaim groups each handle's over its group's (empty on other drives, whose pages go to
    /// the next die in the drive's stripe).
    die_turns: Vec<DieTurn>,
}

/// A zone's (or a reclaim group's) pages go to its dies in turn, so each die gets the same share
/// of them and a zone's blocks there end with the zone.
#[derive(Debug, Clone, Copy, Default)]
struct DieTurn {
    first: u32,
    dies: u32,
    next: u32,
}

/// What one write command's units did so far.
#[derive(Default)]
struct Progress {
    /// The buffer's clock: when the last unit entered.
    t: u64,
    /// When the pages holding its units are programmed (0: none booked yet).
    programmed_ns: u64,
    /// When read-modify-write data it waits for is in the controller.
    merged_ns: u64,
    /// Its units' sequence numbers in the durability log (only while one is kept).
    seqs: Option<Vec<u64>>,
}

impl WritePath {
    pub fn new(cfg: &RunConfig) -> Self {
        let d = &cfg.drive;
        let upp = d.geometry.units_per_program();
        let slots_per_unit = d.controller.slots_per_unit();
        WritePath {
            buffer: WriteBuffer::new(d.controller.write_buffer_bytes, cfg.has_partial_writes()),
            page: Page::new(upp as usize * slots_per_unit as usize, 0),
            parked: Vec::new(),
            log: (!cfg.power_cuts_ns.is_empty()).then(DurabilityLog::default),
            compression: Compression::new(cfg),
            entry_units: (d.map.unit_bytes / UNIT_BYTES) as u32,
            user_units: d.user_units() as u32,
            slots_per_program: upp * slots_per_unit,
            die_turns: match (&d.zoned, &d.placement) {
                (Some(z), _) => vec![DieTurn::default(); z.max_active_zones as usize],
                (None, Some(p)) if p.reclaim_groups > 1 => (0..p.handles as u8)
                    .map(|tag| {
                        let (first, dies) = p.dies_of(tag, d.geometry.dies);
                        DieTurn { first, dies, next: 0 }
                    })
                    .collect(),
                _ => Vec::new(),
            },
        }
    }

    /// Zoned drives: stream slot `tag` now writes a zone striped over dies `first..first + dies`,
    /// from its first.
    pub fn start_zone(&mut self, tag: u8, first: u32, dies: u32) {
        self.die_turns[tag as usize] = DieTurn { first, dies, next: 0 };
    }

    /// Programs what waits in handle `tag`'s page (padded), from `t`; returns when it is stored
    /// (`t` if nothing waits). A zone that ends leaves nothing behind in the buffer.
    pub fn flush_handle(&mut self, tag: u8, t: u64, flash: &mut Flash, gc: &mut Gc) -> u64 {
        if tag != self.page.tag {
            self.switch_page(tag, flash);
        }
        let stored = self.page.group_done_ns();
        self.close_group(flash);
        if self.page.units.is_empty() {
            return t.max(stored);
        }
        self.program_page(t, flash, gc)
    }

    pub fn memory_bytes(&self) -> u64 {
        self.buffer.memory_bytes()
    }

    /// Units in the write buffer at `t_ns`: admitted and not yet programmed.
    pub fn buffer_occupancy(&self, t_ns: u64) -> u32 {
        self.buffer.occupancy(t_ns)
    }

    /// The next unit's NAND slots (compression).
    #[inline]
    pub fn unit_slots(&mut self) -> u32 {
        self.compression.slots()
    }

    /// Starts the durability log at `now_ns` if it is not kept yet, with the writes waiting in
    /// the page being assembled (taken before now, so acknowledged by the time the host's
    /// commands in flight are done; durable when their page's program is). Returns None if the
    /// log was kept already, else when the programs booked before now complete: from then on
    /// every write the host could lose is in the log.
    pub fn start_log(&mut self, now_ns: u64) -> Option<u64> {
        if self.log.is_some() {
            return None;
        }
        let mut log = DurabilityLog::default();
        for page in std::iter::once(&mut self.page).chain(self.parked.iter_mut()) {
            page.seqs.clear();
            for lpa in page.writes() {
                let seq = log.written(lpa);
                log.acknowledged(seq, now_ns);
                page.seqs.push(seq);
            }
        }
        self.log = Some(log);
        Some(self.buffer.programs_done_ns().max(self.page.group_done_ns()))
    }

    /// Stores a write whose command reached the buffer at `t`; returns when it is acknowledged.
    #[inline]
    pub fn write(&mut self, req: Request, t: u64, write_through: bool, flash: &mut Flash, gc: &mut Gc) -> u64 {
        if req.tag != self.page.tag {
            self.switch_page(req.tag, flash);
        }
        let mut w = Progress {
            t: self.buffer.in_order(t),
            seqs: self.log.as_ref().map(|_| Vec::with_capacity(req.units as usize)),
            ..Progress::default()
        };
        let (first, end) = req.entry_span(self.entry_units, self.user_units);
        if !self.parked.is_empty() {
            // A copy waiting in another handle's page is older: this write's wins.
            for page in &mut self.parked {
                (first..end).for_each(|lpa| page.drop_unit(lpa));
            }
        }
        // Commands of whole units, more than one (a single unit goes the ordinary way).
        let whole_units =
            end - first > 1 && !req.partial_head && !req.partial_tail && (first, end) == (req.lpa, req.lpa + req.units);
        if whole_units
            && !write_through
            && self.log.is_none()
            && self.page.group.is_none()
            && self.compression.one_slot()
        {
            self.write_buffered_run(first, end, &mut w, flash, gc);
        } else {
            for lpa in first..end {
                self.write_unit(req, lpa, &mut w, write_through, flash, gc);
            }
        }
        flash.counters.host_write_bytes += req.bytes as u64;
        let t = w.t.max(w.merged_ns);
        // Writing through, the command is done when the programs of its pages are.
        let ack_ns = if write_through { t.max(w.programmed_ns) } else { t };
        if let (Some(log), Some(seqs)) = (self.log.as_mut(), w.seqs) {
            for seq in seqs {
                log.acknowledged(seq, ack_ns);
            }
        }
        ack_ns
    }

    /// A write of another placement handle: its page takes the place of the one being
    /// assembled, which waits for more of its handle's data (writing through, the program
    /// booked for it stores it now, as it stands).
    #[inline(never)]
    fn switch_page(&mut self, tag: u8, flash: &mut Flash) {
        self.close_group(flash);
        let next = match self.parked.iter().position(|p| p.tag == tag) {
            Some(i) => self.parked.swap_remove(i),
            None => Page::new(self.slots_per_program as usize, tag),
        };
        let out = std::mem::replace(&mut self.page, next);
        self.parked.push(out);
    }

    /// One unit of a write (or of a map entry a write widens to).
    #[inline]
    fn write_unit(
        &mut self,
        req: Request,
        lpa: u32,
        w: &mut Progress,
        write_through: bool,
        flash: &mut Flash,
        gc: &mut Gc,
    ) {
        if self.page.group_started(w.t, write_through) {
            self.close_group(flash); // its program has started: later data waits for the next
        }
        if !req.covers(lpa) {
            // Part of a unit, or of a map entry: the rest comes from its current data.
            if self.page.contains(lpa) {
                // Merged into the page being assembled: no new unit.
                self.page.merged(lpa);
                w.programmed_ns = w.programmed_ns.max(self.joined_page(lpa, &mut w.seqs));
                return;
            }
            let ppa = flash.ftl.ppa_of(lpa);
            if ppa != NONE && !self.buffer.being_programmed(lpa, w.t) {
                w.merged_ns = w.merged_ns.max(flash.read_for_merge(ppa, w.t));
            }
        }
        w.t = self.buffer.admit(w.t);
        let slots = self.compression.slots();
        let late = matches!(self.page.group, Some(g) if w.merged_ns > g.start_ns);
        if self.page.slots + slots > self.slots_per_program || late {
            // It does not fit in this page (or, writing through, its data would come too late
            // for the page's program): the page goes padded, the unit starts the next.
            self.page_full(w, write_through, flash, gc);
        }
        if write_through && self.page.group.is_none() && !self.open_group(w.t.max(w.merged_ns), flash, gc) {
            return; // the drive went read-only: the unit is not stored
        }
        self.page.push(lpa, slots, w.merged_ns);
        w.programmed_ns = w.programmed_ns.max(self.joined_page(lpa, &mut w.seqs));
        if self.page.slots == self.slots_per_program {
            self.page_full(w, write_through, flash, gc);
        }
    }

    /// `write_unit` of units `first..end`, each written whole in one slot, buffered (not
    /// writing through, no durability log): a page's worth of them at a time, not unit by unit.
    #[inline]
    fn write_buffered_run(&mut self, first: u32, end: u32, w: &mut Progress, flash: &mut Flash, gc: &mut Gc) {
        let mut lpa = first;
        while lpa < end {
            let n = (end - lpa).min(self.slots_per_program - self.page.slots);
            w.t = self.buffer.admit_run(w.t, n);
            self.page.push_run(lpa, n);
            lpa += n;
            if self.page.slots == self.slots_per_program {
                self.page_full(w, false, flash, gc);
            }
        }
    }

    /// The page is complete: it goes to its program.
    #[inline]
    fn page_full(&mut self, w: &mut Progress, write_through: bool, flash: &mut Flash, gc: &mut Gc) {
        if write_through {
            self.close_group(flash);
        } else {
            w.programmed_ns = w.programmed_ns.max(self.program_page(w.t, flash, gc));
        }
    }

    /// Unit `lpa`'s data has joined the page being assembled: records the write in the
    /// durability log (when one is kept) and returns when the page's program completes if it is
    /// already booked (writing through: the write is done then), else 0.
    #[inline]
    fn joined_page(&mut self, lpa: u32, seqs: &mut Option<Vec<u64>>) -> u64 {
        if let (Some(log), Some(seqs)) = (self.log.as_mut(), seqs.as_mut()) {
            let seq = log.written(lpa);
            self.page.seqs.push(seq);
            seqs.push(seq);
        }
        self.page.group_done_ns()
    }

    /// Programs the buffered page (padding it if it is not full) on the next die in the stripe;
    /// returns when the program completes.
    pub fn program_page(&mut self, ready_ns: u64, flash: &mut Flash, gc: &mut Gc) -> u64 {
        let ready_ns = ready_ns.max(std::mem::take(&mut self.page.ready_ns));
        let Some((die, stream, done)) = self.book_program(ready_ns, flash, gc) else { return ready_ns };
        self.store_page(die, stream, ready_ns, done, flash);
        gc.after_host_page(die, ready_ns, flash);
        done
    }

    /// Writing through: books the program of a new page whose first unit is ready at `ready_ns`,
    /// so commands arriving before it starts can join it. False if the drive went read-only.
    fn open_group(&mut self, ready_ns: u64, flash: &mut Flash, gc: &mut Gc) -> bool {
        match self.book_program(ready_ns, flash, gc) {
            Some((die, stream, done_ns)) => {
                // The page is not stored yet, so the program booked is still the stream's next.
                let start_ns = done_ns - flash.program_time_ns(die, stream);
                self.page.group = Some(Group { die, stream, start_ns, done_ns });
                gc.after_host_page(die, ready_ns, flash);
                true
            }
            None => false,
        }
    }

    /// Writing through: the group's program has started; its page is stored as it stands.
    pub fn close_group(&mut self, flash: &mut Flash) {
        if let Some(g) = self.page.group.take() {
            self.page.ready_ns = 0;
            self.store_page(g.die, g.stream, g.start_ns, g.done_ns, flash);
        }
    }

    /// Books the next host page's program: the die is the next in the stripe, the stream
    /// GC's `make_room` gives (native, or the SLC cache's); returns them and when the program
    /// completes, or None if the drive has gone read-only (the page in the buffer is then
    /// dropped: its old copies stay mapped, and later writes are refused).
    fn book_program(&mut self, ready_ns: u64, flash: &mut Flash, gc: &mut Gc) -> Option<(u32, Stream, u64)> {
        let die = match self.die_turns.get_mut(self.page.tag as usize) {
            None => flash.next_die(),
            Some(turn) => {
                turn.next += 1;
                turn.first + (turn.next - 1) % turn.dies
            }
        };
        let stream = gc.make_room(die, ready_ns, flash, Stream::handle(self.page.tag));
        let ftl = &mut flash.ftl;
        if !ftl.worn_out() && ftl.needs_block(die, stream, self.slots_per_program) && ftl.die_free_blocks(die) == 0 {
            ftl.set_worn_out();
        }
        if ftl.worn_out() {
            self.page.clear();
            return None;
        }
        Some((die, stream, flash.program_next(die, ready_ns, stream, Work::HostProgram)))
    }

    /// Maps the page's units to `die`'s `stream` (padding the rest of the page) and hands
    /// their buffer space to the program completing at `done`.
    fn store_page(&mut self, die: u32, stream: Stream, ready_ns: u64, done: u64, flash: &mut Flash) {
        let units = self.page.units.len() as u32;
        if self.page.runs {
            self.store_runs(die, stream, flash);
        } else {
            for &(lpa, slots) in &self.page.units {
                if lpa != NONE {
                    flash.ftl.write(die, stream, lpa, slots);
                }
            }
        }
        if self.page.slots < self.slots_per_program {
            flash.ftl.pad_to_program(die, stream);
        }
        self.buffer.programming(self.page.units.iter().map(|&(lpa, _)| lpa), units, done);
        if let Some(log) = self.log.as_mut() {
            for &seq in &self.page.seqs {
                log.programmed(seq, done);
            }
        }
        self.page.clear();
        flash.journal_map_updates(ready_ns, units);
    }

    /// `store_page`'s mapping of a page holding runs (a sequential write's): each run of
    /// consecutive units is mapped at once (`Ftl::write_run`).
    #[inline(never)]
    fn store_runs(&self, die: u32, stream: Stream, flash: &mut Flash) {
        debug_assert!(self.compression.one_slot(), "runs come only where every unit takes one slot");
        let mut rest = &self.page.units[..];
        while let Some((&(lpa, _), after)) = rest.split_first() {
            rest = after;
            if lpa != NONE {
                let more = after.iter().zip(1..).take_while(|&(&(l, _), k)| l == lpa.wrapping_add(k)).count();
                flash.ftl.write_run(die, stream, lpa, 1 + more as u32);
                rest = &after[more..];
            }
        }
    }

    /// A TRIM drops unit `lpa` from the pages being assembled (its slots go unwritten).
    pub fn drop_from_page(&mut self, lpa: u32) {
        self.page.drop_unit(lpa);
        for page in &mut self.parked {
            page.drop_unit(lpa);
        }
    }

    /// Power fails at `at_ns`: a booked program completes as it stands.
    pub fn power_failing(&mut self, flash: &mut Flash) {
        self.close_group(flash);
    }

    /// After the cut's reckoning: if the flush saved everything, what was still in the page is
    /// programmed; otherwise it never reaches the map (those LPAs keep their previous data).
    /// The buffer and the log start empty.
    pub fn power_lost(&mut self, at_ns: u64, all_saved: bool, flash: &mut Flash, gc: &mut Gc) {
        self.program_waiting(at_ns, all_saved, flash, gc);
        self.buffer.emptied(at_ns);
        if let Some(log) = self.log.as_mut() {
            log.clear();
        }
    }

    /// Every page waiting for more data (each handle's), from `at_ns`: programmed (padded) if
    /// `keep`, else gone (a power cut whose flush did not save everything).
    pub fn program_waiting(&mut self, at_ns: u64, keep: bool, flash: &mut Flash, gc: &mut Gc) {
        self.close_group(flash);
        for parked in std::mem::take(&mut self.parked) {
            let current = std::mem::replace(&mut self.page, parked);
            self.program_or_drop(at_ns, keep, flash, gc);
            self.page = current;
        }
        self.program_or_drop(at_ns, keep, flash, gc);
    }

    /// The page being assembled, at a power cut: programmed if the flush saved everything,
    /// else gone.
    fn program_or_drop(&mut self, at_ns: u64, all_saved: bool, flash: &mut Flash, gc: &mut Gc) {
        if all_saved && !self.page.units.is_empty() {
            self.program_page(at_ns, flash, gc);
        }
        self.page.clear();
    }
}
