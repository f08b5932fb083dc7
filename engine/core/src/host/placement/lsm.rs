//! An LSM tree with RocksDB's leveled compaction (docs/design/placement.md section 4.3): puts of
//! uniformly drawn keys fill a memtable, flushed as an L0 file written sequentially; when L0
//! holds `level0_file_num_compaction_trigger` files, all of them and the L1 files they overlap
//! are merged into L1; a level over its target (L1 `max_bytes_for_level_base`, x10 each level
//! down) gives one file, in turn by key, to be merged with the files it overlaps one level down.
//! A compaction reads its inputs, deletes them (a TRIM each, unless `app.discard` is off) and
//! writes the merged files sequentially (the simulator carries no data: the reads are issued
//! before the TRIMs).
//! RocksDB's sizes are scaled down by `app.scale` (**model**). No write-ahead log is written
//! (**model**: the LSM's own WA is its flushes' and compactions').
//!
//! Files lie in fixed-size LBA slots (a file's size at most), taken from a free list, the slot
//! freed longest ago first (**model**: a file system places a new file in space it freed a while
//! ago rather than in the blocks it just freed; without discard that is when the drive learns
//! the old file is gone); a file holds sorted keys, duplicates of a key keep one copy on merging. Tagged, a file carries its
//! level, at most the last tag. Puts cost no drive time: the drive's answers pace them.

use std::collections::VecDeque;

use super::{AppCounters, TRIM_MAX_UNITS};
use crate::command::{Op, Request};
use crate::config::{AppConfig, L0_TRIGGER, LEVEL_MULTIPLIER, LSM_LEVELS as LEVELS, ROCKSDB_L1_BYTES};
use crate::rng::Rng;
use crate::units::UNIT_BYTES;

struct File {
    /// Sorted, each once.
    keys: Vec<u32>,
    slot: u32,
}

impl File {
    fn first(&self) -> u32 {
        self.keys[0]
    }
    fn last(&self) -> u32 {
        *self.keys.last().expect("a file holds keys")
    }
}

pub struct LsmHost {
    keys: u64,
    value_bytes: u64,
    /// Entries a memtable or file holds at most, and a slot's 4 KiB units.
    entries: usize,
    slot_units: u32,
    /// Targets of levels 1.. (index = level), bytes.
    targets: [u64; LEVELS],
    /// Tags the app may use (1: untagged).
    tags: u8,
    io_units: u32,
    memtable: Vec<u32>,
    /// Level 0 oldest first; the others by key.
    levels: [Vec<File>; LEVELS],
    /// Per level, the key from which the next file to compact is looked for.
    cursor: [u32; LEVELS],
    /// Free slots, freed longest ago first.
    free: VecDeque<u32>,
    discard: bool,
    /// Commands of the work in hand (first the TRIM of the whole span).
    pending: VecDeque<Request>,
    counters: AppCounters,
}

impl LsmHost {
    /// The LSM over `span_units` (4 KiB units from 0), reading and writing at most `io_units`
    /// per command, with `tags` tags (1: untagged; the last level of RocksDB's `num_levels` takes
    /// what comes down and is never compacted).
    pub fn new(app: &AppConfig, span_units: u64, io_units: u32, tags: u8) -> Self {
        let file_bytes = app.file_bytes();
        let slot_units = (file_bytes / UNIT_BYTES) as u32;
        let slots = (span_units / slot_units as u64) as u32;
        let mut targets = [0; LEVELS];
        targets[1] = ROCKSDB_L1_BYTES / app.scale as u64;
        for l in 2..LEVELS {
            targets[l] = targets[l - 1] * LEVEL_MULTIPLIER;
        }
        let span = span_units as u32;
        let pending = (0..span.div_ceil(TRIM_MAX_UNITS))
            .map(|i| {
                let at = i * TRIM_MAX_UNITS;
                let units = (span - at).min(TRIM_MAX_UNITS);
                Request::at(Op::Trim, at as u64 * UNIT_BYTES, units * UNIT_BYTES as u32)
            })
            .collect();
        LsmHost {
            keys: app.keys,
            value_bytes: app.value_bytes as u64,
            entries: (file_bytes / app.value_bytes as u64) as usize,
            slot_units,
            targets,
            tags,
            io_units,
            memtable: Vec::new(),
            levels: std::array::from_fn(|_| Vec::new()),
            cursor: [0; LEVELS],
            // Lowest slots first.
            free: (0..slots).collect(),
            discard: app.discard,
            pending,
            counters: AppCounters::default(),
        }
    }

    pub fn counters(&self) -> AppCounters {
        self.counters
    }

    /// Files in each level.
    pub fn files_per_level(&self) -> [usize; LEVELS] {
        std::array::from_fn(|l| self.levels[l].len())
    }

    /// Slots in use (a file each).
    pub fn slots_used(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }

    pub fn next(&mut self, rng: &mut Rng) -> Request {
        while self.pending.is_empty() {
            self.work(rng);
        }
        self.pending.pop_front().expect("work planned")
    }

    fn level_bytes(&self, level: usize) -> u64 {
        self.levels[level].iter().map(|f| f.keys.len() as u64).sum::<u64>() * self.value_bytes
    }

    /// The next piece of work: a compaction if one is due, else a memtable's puts and flush.
    fn work(&mut self, rng: &mut Rng) {
        if self.levels[0].len() >= L0_TRIGGER {
            let inputs = std::mem::take(&mut self.levels[0]);
            self.compact(inputs, 1);
            return;
        }
        if let Some(level) = (1..LEVELS - 1).find(|&l| self.level_bytes(l) > self.targets[l]) {
            // The first file from the level's cursor on, in turn round the key space.
            let files = &self.levels[level];
            let i = files.iter().position(|f| f.first() >= self.cursor[level]).unwrap_or(0);
            let file = self.levels[level].remove(i);
            self.cursor[level] = file.last().wrapping_add(1);
            self.compact(vec![file], level + 1);
            return;
        }
        while self.memtable.len() < self.entries {
            self.memtable.push(rng.below(self.keys) as u32);
            self.counters.put_bytes += self.value_bytes;
        }
        let mut keys = std::mem::take(&mut self.memtable);
        keys.sort_unstable();
        keys.dedup();
        let written = self.write_files(vec![keys], 0);
        self.counters.flush_write_bytes += written;
    }

    /// Merges `inputs` (files taken out of their level) with the files of `to` they overlap
    /// into new files of `to`: reads, the inputs deleted (TRIMmed with discard) and their slots
    /// freed, writes.
    fn compact(&mut self, mut inputs: Vec<File>, to: usize) {
        let lo = inputs.iter().map(File::first).min().expect("inputs");
        let hi = inputs.iter().map(File::last).max().expect("inputs");
        let (overlap, keep): (Vec<File>, Vec<File>) =
            std::mem::take(&mut self.levels[to]).into_iter().partition(|f| f.first() <= hi && f.last() >= lo);
        self.levels[to] = keep;
        inputs.extend(overlap);
        let mut keys: Vec<u32> = Vec::with_capacity(inputs.iter().map(|f| f.keys.len()).sum());
        for f in &inputs {
            let units = self.units(f.keys.len());
            self.counters.compaction_read_bytes += units as u64 * UNIT_BYTES;
            self.chunks(Op::Read, f.slot, units, 0);
            keys.extend_from_slice(&f.keys);
        }
        keys.sort_unstable();
        keys.dedup();
        // The inputs go before the outputs are written, so the outputs (no more files than the
        // inputs: merging only drops keys) always find free slots.
        for f in &inputs {
            if self.discard {
                self.pending.push_back(Request::at(
                    Op::Trim,
                    f.slot as u64 * self.slot_units as u64 * UNIT_BYTES,
                    self.slot_units * UNIT_BYTES as u32,
                ));
            }
            self.free.push_back(f.slot);
        }
        let outputs = keys.chunks(self.entries).map(<[u32]>::to_vec).collect();
        let written = self.write_files(outputs, to);
        self.counters.compaction_write_bytes += written;
    }

    /// Each key list written as a file of `level` in a free slot; returns the bytes written.
    fn write_files(&mut self, files: Vec<Vec<u32>>, level: usize) -> u64 {
        let tag = level.min(self.tags as usize - 1) as u8;
        let mut bytes = 0;
        for keys in files {
            // The run's check leaves room for every file (`AppConfig::lsm_bytes`); a compaction
            // frees its inputs' slots first.
            let slot = self.free.pop_front().expect("a free slot");
            let units = self.units(keys.len());
            self.chunks(Op::Write, slot, units, tag);
            bytes += units as u64 * UNIT_BYTES;
            self.levels[level].push(File { keys, slot });
        }
        if level > 0 {
            self.levels[level].sort_unstable_by_key(File::first);
        }
        bytes
    }

    fn units(&self, entries: usize) -> u32 {
        (entries as u64 * self.value_bytes).div_ceil(UNIT_BYTES) as u32
    }

    /// `units` from the start of `slot` as commands of `op` of at most `io_units` each.
    fn chunks(&mut self, op: Op, slot: u32, units: u32, tag: u8) {
        let start = slot * self.slot_units;
        let mut at = 0;
        while at < units {
            let n = (units - at).min(self.io_units);
            let mut req = Request::at(op, (start + at) as u64 * UNIT_BYTES, n * UNIT_BYTES as u32);
            req.tag = tag;
            self.pending.push_back(req);
            at += n;
        }
    }
}
