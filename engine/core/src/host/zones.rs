//! fio's `zonemode=zbd` on the host side (fio's `zbd.c`, rewritten): the write pointer of every
//! zone as the host knows it, the zones being written (fio's "write target zones", at most
//! `max_open`), and where each write of a zoned job goes. A command is placed when it issues, so
//! the host's write pointers are the drive's: the drive applies each command at submission, in
//! issue order. A write that needs its zone reset (or finished) first issues that command
//! instead and is placed again at the job's next issue.

use crate::command::{Op, Request};
use crate::config::{JobSpec, ZoneMode};

/// The zones as the host knows them, shared by every zoned job of the run, across phases.
pub struct ZoneBook {
    zone_bytes: u64,
    capacity_bytes: u64,
    /// Resets and finishes go to the drive (a zoned drive); else only the book moves.
    device: bool,
    max_open: u32,
    /// Bytes written from each zone's start.
    wp: Vec<u64>,
    /// Each zone is being written (a write target).
    target: Vec<bool>,
    /// The write targets, in the order they were taken (fio picks among them by position).
    writing: Vec<u32>,
    /// Bytes below the write pointers (fio's `wp_valid_data_bytes`).
    written_bytes: u64,
    /// Writes until the next reset by `zone_reset_frequency`.
    writes_to_reset: u64,
    resets: u64,
}

/// One job's part: its zones, how it writes them and how many it writes at once.
pub struct JobZones {
    /// Its zones: `first..end`.
    first: u32,
    end: u32,
    random: bool,
    /// Its smallest write and read: lengths shrink to multiples of them.
    min_write: u64,
    min_read: u64,
    /// A sequential job's zone.
    current: u32,
    /// Write targets it holds (against `job_max_open`).
    holds: u32,
    mode: ZoneMode,
}

impl JobZones {
    pub fn new(spec: &JobSpec, mode: &ZoneMode, span_bytes: u64) -> Self {
        let first = spec.offset_bytes.div_ceil(mode.zone_bytes) as u32;
        let end = ((spec.offset_bytes + spec.range_bytes(span_bytes)) / mode.zone_bytes) as u32;
        JobZones {
            first,
            end: end.max(first + 1),
            random: spec.random_percent > 0,
            min_write: spec.write_sizes.smallest() as u64,
            min_read: spec.read_sizes.smallest() as u64,
            current: first,
            holds: 0,
            mode: mode.clone(),
        }
    }
}

impl ZoneBook {
    pub fn new(mode: &ZoneMode, span_bytes: u64) -> Self {
        let zones = (span_bytes / mode.zone_bytes) as usize;
        ZoneBook {
            zone_bytes: mode.zone_bytes,
            capacity_bytes: mode.capacity_bytes,
            device: mode.device,
            max_open: mode.max_open,
            wp: vec![0; zones],
            target: vec![false; zones],
            writing: Vec::new(),
            written_bytes: 0,
            writes_to_reset: 0,
            resets: 0,
        }
    }

    /// Zone resets so far (fio's "zone resets" in its status line).
    pub fn resets(&self) -> u64 {
        self.resets
    }

    fn start(&self, zone: u32) -> u64 {
        zone as u64 * self.zone_bytes
    }

    fn remainder(&self, zone: u32) -> u64 {
        self.capacity_bytes - self.wp[zone as usize]
    }

    /// The command a job issues for `drawn` (its next request as drawn), and whether `drawn` is
    /// still to be issued (a reset or finish went first).
    pub fn place(&mut self, drawn: Request, z: &mut JobZones) -> (Request, bool) {
        match drawn.op {
            Op::Write => self.place_write(drawn, z),
            Op::Read if !z.mode.read_beyond_wp => (self.place_read(drawn, z), false),
            _ => (drawn, false),
        }
    }

    fn place_write(&mut self, drawn: Request, z: &mut JobZones) -> (Request, bool) {
        let drawn_zone = if z.random {
            ((drawn.offset_bytes / self.zone_bytes) as u32).clamp(z.first, z.end - 1)
        } else {
            z.current
        };
        let zone = self.target(drawn_zone, drawn.offset_bytes, z);
        let left = self.remainder(zone);
        if left > 0 && left < z.min_write {
            // Less than a write left: fio finishes the zone (write_zone_remainders=0).
            self.wp[zone as usize] = self.capacity_bytes;
            self.release(zone, z);
            return (self.management(Op::ZoneFinish, zone), true);
        }
        let reset_due = z.mode.reset_frequency > 0.0 && self.reset_due(z);
        if left == 0 || reset_due {
            // A full zone picked for writing is reset first (fio's "Reset the zone pointer if necessary").
            self.written_bytes -= self.wp[zone as usize];
            self.wp[zone as usize] = 0;
            self.resets += 1;
            if self.device {
                return (self.management(Op::ZoneReset, zone), true);
            }
        }
        let wp = self.wp[zone as usize];
        let bytes = (drawn.bytes as u64).min(self.capacity_bytes - wp) / z.min_write * z.min_write;
        self.wp[zone as usize] += bytes;
        self.written_bytes += bytes;
        if self.remainder(zone) == 0 {
            self.release(zone, z);
            if !z.random {
                z.current = if zone + 1 >= z.end { z.first } else { zone + 1 };
            }
        }
        (Request { tag: drawn.tag, ..Request::at(Op::Write, self.start(zone) + wp, bytes as u32) }, false)
    }

    /// The zone a write drawn in `zone` goes to: that zone if it is a write target or may become
    /// one (fio's `zbd_write_zone_get`), else one of the job's write targets, picked by the drawn
    /// position (fio's `pick_random_zone_idx`).
    fn target(&mut self, zone: u32, offset: u64, z: &mut JobZones) -> u32 {
        if self.target[zone as usize] {
            return zone;
        }
        let room = self.max_open == 0 || (self.writing.len() as u32) < self.max_open;
        let job_room = z.mode.job_max_open == 0 || z.holds < z.mode.job_max_open;
        if room && job_room {
            self.target[zone as usize] = true;
            self.writing.push(zone);
            z.holds += 1;
            return zone;
        }
        let mut mine: Vec<u32> = self.writing.iter().copied().filter(|&w| (z.first..z.end).contains(&w)).collect();
        if mine.is_empty() {
            // Other jobs hold every target: fio waits until one of them fills; the host, which
            // cannot wait for them, writes one of theirs (job_max_open_zones shares them out).
            mine.clone_from(&self.writing);
        }
        let range = (z.end - z.first) as u64 * self.zone_bytes;
        let at = offset.saturating_sub(self.start(z.first)).min(range - 1);
        mine[(at * mine.len() as u64 / range) as usize]
    }

    /// `zone` is no longer written (full, finished or reset): it leaves the write targets.
    fn release(&mut self, zone: u32, z: &mut JobZones) {
        if std::mem::take(&mut self.target[zone as usize]) {
            self.writing.retain(|&w| w != zone);
            z.holds = z.holds.saturating_sub(1);
        }
    }

    /// fio's `zone_reset_threshold`/`zone_reset_frequency`: above the threshold, every
    /// (1 / frequency)-th write resets its zone first.
    fn reset_due(&mut self, z: &JobZones) -> bool {
        let range = (z.end - z.first) as u64 * self.zone_bytes;
        if (self.written_bytes as f64) < range as f64 * z.mode.reset_threshold {
            return false;
        }
        if self.writes_to_reset == 0 {
            self.writes_to_reset = (1.0 / z.mode.reset_frequency).min(u32::MAX as f64) as u64;
        }
        self.writes_to_reset -= 1;
        self.writes_to_reset == 0
    }

    fn management(&self, op: Op, zone: u32) -> Request {
        Request::at(op, self.start(zone), 0)
    }

    /// A read below its zone's write pointer (fio's `zbd_adjust_block`): in its own zone if that
    /// holds a read's worth, else the nearest zone of the job's that does; left where drawn if
    /// none does.
    fn place_read(&self, drawn: Request, z: &JobZones) -> Request {
        let zone = ((drawn.offset_bytes / self.zone_bytes) as u32).clamp(z.first, z.end - 1);
        let holds = |zone: u32| self.wp[zone as usize] >= z.min_read;
        let found = (0..z.end - z.first).find_map(|d| {
            [zone.checked_add(d), zone.checked_sub(d)]
                .into_iter()
                .flatten()
                .find(|&c| (z.first..z.end).contains(&c) && holds(c))
        });
        let Some(found) = found else { return drawn };
        let written = self.wp[found as usize];
        let bytes = (drawn.bytes as u64).min(written);
        let bytes = bytes / z.min_read * z.min_read;
        let into = if written > bytes {
            drawn.offset_bytes.saturating_sub(self.start(zone)) % (written - bytes) / z.min_read * z.min_read
        } else {
            0
        };
        Request { tag: drawn.tag, ..Request::at(Op::Read, self.start(found) + into, bytes as u32) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::WorkloadSpec;

    const KIB: u64 = 1 << 10;
    const MIB: u64 = 1 << 20;

    /// Random 64 KiB writes over 4 zones of 1 MiB, zones emulated (or the drive's: `device`).
    fn job(device: bool, reset_frequency: f64) -> (ZoneBook, JobZones) {
        let mode = ZoneMode {
            zone_bytes: MIB,
            capacity_bytes: MIB,
            device,
            max_open: 0,
            job_max_open: 0,
            reset_threshold: 0.0,
            reset_frequency,
            read_beyond_wp: false,
        };
        let mut spec = JobSpec::named(&WorkloadSpec::by_id("sequential-write").unwrap(), 64 << 10, 64 << 10, 1);
        (spec.random_percent, spec.size_bytes) = (100, 4 * MIB);
        (ZoneBook::new(&mode, 4 * MIB), JobZones::new(&spec, &mode, 4 * MIB))
    }

    fn place(book: &mut ZoneBook, z: &mut JobZones, op: Op, offset: u64) -> (Request, bool) {
        book.place(Request::at(op, offset, 64 << 10), z)
    }

    #[test]
    fn every_nth_write_resets_its_zone_first_and_reads_stay_below_the_write_pointer() {
        // zone_reset_frequency=0.25 above a threshold of 0: fio resets before every 4th write.
        let (mut book, mut z) = job(false, 0.25);
        let offsets: Vec<u64> =
            (0..8).map(|_| place(&mut book, &mut z, Op::Write, 2 * MIB + 512 * KIB).0.offset_bytes - 2 * MIB).collect();
        assert_eq!(offsets, [0, 64, 128, 0, 64, 128, 192, 0].map(|k| k * KIB));
        assert_eq!(book.resets(), 2);
        // Zone 2 holds 64 KiB: a read drawn past it, or in an empty zone, reads those.
        let (read, again) = place(&mut book, &mut z, Op::Read, 2 * MIB + 512 * KIB);
        assert_eq!((read.offset_bytes, read.bytes, again), (2 * MIB, 64 << 10, false));
        assert_eq!(place(&mut book, &mut z, Op::Read, 0).0.offset_bytes, 2 * MIB);
        z.mode.read_beyond_wp = true;
        assert_eq!(place(&mut book, &mut z, Op::Read, 512 * KIB).0.offset_bytes, 512 * KIB);
    }

    #[test]
    fn a_zoned_drive_gets_the_reset_before_the_write() {
        let (mut book, mut z) = job(true, 0.0);
        for k in 0..16 {
            let (w, again) = place(&mut book, &mut z, Op::Write, MIB);
            assert_eq!((w.op, w.offset_bytes, again), (Op::Write, MIB + k * 64 * KIB, false));
        }
        // Full: the reset goes first, and the write is placed again at the next issue.
        let (reset, again) = place(&mut book, &mut z, Op::Write, MIB);
        assert_eq!((reset.op, reset.offset_bytes, again), (Op::ZoneReset, MIB, true));
        assert_eq!(place(&mut book, &mut z, Op::Write, MIB).0.offset_bytes, MIB);
    }
}
