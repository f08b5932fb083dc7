//! What a job issues: fio's `rw` (directions, sequential or random), the read/write mix and
//! the request sizes and alignment per direction (`bs`, `bssplit`, `ba`).

use super::sections::{Opt, Seen};
use super::values;
use super::Notes;
use crate::config::BlockSizes;
use crate::units::{ConfigError, SECTOR_BYTES};

/// The largest request a job may issue, bytes.
const MAX_REQUEST_BYTES: u64 = 16 << 20;

/// The directions' names, in fio's order (read, write, trim).
pub(super) const DIRECTIONS: [&str; 3] = ["reads", "writes", "trims"];

/// fio's rw values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rw {
    Read,
    Write,
    Trim,
    RandRead,
    RandWrite,
    RandTrim,
    Mixed,
    RandMixed,
    TrimWrite,
    RandTrimWrite,
}

impl Rw {
    fn parse(text: &str) -> Option<Rw> {
        Some(match text {
            "read" => Rw::Read,
            "write" => Rw::Write,
            "trim" => Rw::Trim,
            "randread" => Rw::RandRead,
            "randwrite" => Rw::RandWrite,
            "randtrim" => Rw::RandTrim,
            "rw" | "readwrite" => Rw::Mixed,
            "randrw" => Rw::RandMixed,
            "trimwrite" => Rw::TrimWrite,
            "randtrimwrite" => Rw::RandTrimWrite,
            _ => return None,
        })
    }

    fn random(self) -> bool {
        matches!(self, Rw::RandRead | Rw::RandWrite | Rw::RandTrim | Rw::RandMixed | Rw::RandTrimWrite)
    }

    /// Which directions the job issues: read, write, trim.
    fn directions(self) -> [bool; 3] {
        match self {
            Rw::Read | Rw::RandRead => [true, false, false],
            Rw::Write | Rw::RandWrite => [false, true, false],
            Rw::Trim | Rw::RandTrim => [false, false, true],
            Rw::Mixed | Rw::RandMixed => [true, true, false],
            Rw::TrimWrite | Rw::RandTrimWrite => [false, true, true],
        }
    }
}

/// The job's commands as its options set them.
#[derive(Debug, Clone)]
pub(super) struct Commands {
    rw: Rw,
    read_percent: u32,
    sizes: [Option<BlockSizes>; 3],
    align: [Option<u64>; 3],
}

impl Default for Commands {
    fn default() -> Self {
        Commands { rw: Rw::Read, read_percent: 50, sizes: [None, None, None], align: [None; 3] }
    }
}

/// The job's commands as the model runs them.
#[derive(Debug, Clone)]
pub(super) struct Mix {
    /// Which directions the job issues: read, write, trim.
    pub dirs: [bool; 3],
    /// Random positions (`randread`, `randrw`...).
    pub random: bool,
    pub read_percent: u32,
    pub trim_percent: u32,
    /// Request sizes of reads, writes and trims; a job that trims but does not write gives its
    /// writes the trims' sizes (TRIMs take the write sizes in the model).
    pub sizes: [BlockSizes; 3],
    /// Alignment of random requests, bytes; 0: each request's own size.
    pub align_bytes: u64,
}

impl Commands {
    /// Reads `o` if it is one of these options (false if not).
    pub fn apply(&mut self, o: &Opt, kb: u64, notes: &mut Notes) -> Result<bool, ConfigError> {
        let v = o.value.as_str();
        let err = |m: String| o.error(m);
        match o.key.as_str() {
            "rw" => {
                let (base, modifier) = v.split_once(':').unwrap_or((v, ""));
                self.rw = Rw::parse(base.trim()).ok_or_else(|| {
                    err("not an rw value (allowed: read, write, trim, randread, randwrite, randtrim, rw, readwrite, \
                         randrw, trimwrite, randtrimwrite)"
                        .into())
                })?;
                if !modifier.trim().is_empty() {
                    notes.unsupported(o, "the offset modifier after ':' is not modelled; the job runs without it");
                }
            }
            "rwmixread" => self.read_percent = values::percent(v).map_err(err)?,
            "rwmixwrite" => self.read_percent = 100 - values::percent(v).map_err(err)?,
            "bs" => {
                if let Some(tail) = values::per_direction(v).into_iter().flatten().find_map(values::unread_tail) {
                    notes.note(
                        o,
                        &format!(
                            "fio reads a size up to its first separator and not '{}': one size per direction \
                             (a range is bsrange=, not modelled: give the sizes as a bssplit)",
                            tail
                        ),
                    );
                }
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    self.sizes[d] = match part {
                        Some(p) => Some(block_size(values::size(p, kb).map_err(err)?, o)?),
                        None => None,
                    };
                }
            }
            "bssplit" => {
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    self.sizes[d] = part.map(|p| bssplit(p, kb, o)).transpose()?;
                }
            }
            "ba" => {
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    let align = part.map(|p| values::size(p, kb)).transpose().map_err(err)?;
                    if align.is_some_and(|a| !a.is_multiple_of(SECTOR_BYTES as u64) || a > MAX_REQUEST_BYTES) {
                        return Err(err("must be a multiple of 512 bytes, at most 16 MiB".into()));
                    }
                    self.align[d] = align;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The mix the model runs: 4 KiB requests by default, trimwrite as trims and writes mixed
    /// 50/50, one alignment per job.
    pub fn finish(&self, seen: &Seen, notes: &mut Notes) -> Mix {
        let dirs = self.rw.directions();
        let default = || BlockSizes::fixed(4096);
        let read_sizes = self.sizes[0].clone().unwrap_or_else(default);
        let trim_sizes = self.sizes[2].clone().unwrap_or_else(default);
        // TRIMs take the write sizes in the model.
        let write_sizes =
            if dirs[2] && !dirs[1] { trim_sizes.clone() } else { self.sizes[1].clone().unwrap_or_else(default) };
        let (read_percent, trim_percent) = match self.rw {
            Rw::Read | Rw::RandRead => (100, 0),
            Rw::Write | Rw::RandWrite => (0, 0),
            Rw::Trim | Rw::RandTrim => (0, 100),
            Rw::Mixed | Rw::RandMixed => (self.read_percent, 0),
            Rw::TrimWrite | Rw::RandTrimWrite => (0, 50),
        };
        if trim_percent == 50 {
            if let Some(o) = seen.line_of("rw") {
                notes.unsupported(o, "trimming each block before writing it is run as trims and writes mixed 50/50");
            }
        }

        // Alignment of random requests: blockalign, by default each request's own size.
        let aligns: Vec<u64> = (0..3).filter(|&d| dirs[d]).filter_map(|d| self.align[d]).collect();
        let align_bytes = aligns.first().copied().unwrap_or(0);
        if aligns.iter().any(|&a| a != align_bytes) {
            if let Some(o) = seen.line_of("ba") {
                notes.unsupported(o, "one alignment per job: the first direction's applies to all");
            }
        }
        Mix {
            dirs,
            random: self.rw.random(),
            read_percent,
            trim_percent,
            sizes: [read_sizes, write_sizes, trim_sizes],
            align_bytes,
        }
    }
}

/// One size for every request; sizes are whole sectors up to 16 MiB.
fn block_size(bytes: u64, o: &Opt) -> Result<BlockSizes, ConfigError> {
    check_request_size(bytes, o)?;
    Ok(BlockSizes::fixed(bytes as u32))
}

fn check_request_size(bytes: u64, o: &Opt) -> Result<(), ConfigError> {
    if bytes == 0 || !bytes.is_multiple_of(SECTOR_BYTES as u64) || bytes > MAX_REQUEST_BYTES {
        return Err(
            o.error(format!("requests must be whole 512-byte sectors from 512 bytes to 16 MiB (got {} bytes)", bytes))
        );
    }
    Ok(())
}

/// One direction's bssplit (`4k/50:64k/:1m/10`): fio's sizes; a blank weight shares what the
/// others leave of 100 (`BlockSizes::parse`).
fn bssplit(text: &str, kb: u64, o: &Opt) -> Result<BlockSizes, ConfigError> {
    let mut canonical = Vec::new();
    let mut given = 0u64;
    for entry in text.split(':').filter(|e| !e.trim().is_empty()) {
        let (size, weight) = entry.split_once('/').unwrap_or((entry, ""));
        let bytes = values::size(size, kb).map_err(|m| o.error(m))?;
        check_request_size(bytes, o)?;
        let weight = weight.trim();
        if !weight.is_empty() {
            given += values::percent(weight).map_err(|m| o.error(m))? as u64;
        }
        canonical.push(format!("{}/{}", bytes, weight));
    }
    if given > 100 {
        return Err(o.error(format!("the percentages add up to {}, more than 100", given)));
    }
    BlockSizes::parse("bssplit", &canonical.join(":")).map_err(|e| o.error(e.message))
}

#[cfg(test)]
mod tests {
    use crate::host::fio::import;
    use crate::host::fio::testing::{notes_of, SPAN};

    #[test]
    fn rw_mixes_and_sizes_read_as_fio_reads_them() {
        let f = import(
            "[a]\nrw=randrw\nrwmixwrite=30\nbs=8k,32k\n[b]\nrw=trim\nbs=,,64k\n[c]\nrw=trimwrite\nbssplit=4k/:8k/20\n",
            SPAN,
        )
        .unwrap();
        let jobs = &f.phases[0].jobs;
        assert_eq!((jobs[0].read_percent, jobs[0].random_percent), (70, 100));
        assert_eq!(
            (jobs[0].read_sizes.entries.clone(), jobs[0].write_sizes.entries.clone()),
            (vec![(8192, 1)], vec![(32768, 1)])
        );
        // A trim job's trims take the write sizes in the model.
        assert_eq!((jobs[1].trim_percent, jobs[1].write_sizes.entries.clone()), (100, vec![(65536, 1)]));
        assert_eq!((jobs[2].trim_percent, jobs[2].read_percent), (50, 0));
        assert_eq!(jobs[2].write_sizes.entries, vec![(4096, 80), (8192, 20)]);
        assert_eq!(notes_of(&f.report.unsupported), vec![(9, "rw=trimwrite")]);
    }

    #[test]
    fn a_size_range_in_bs_runs_its_first_size_as_fio_does() {
        // spdk test/vhost/fio/vhost_fio.job: blocksize=4k-512k, which fio runs as 4k.
        let f = import("[global]\nblocksize=4k-512k\n[a]\nrw=randwrite\n", SPAN).unwrap();
        assert_eq!(f.phases[0].jobs[0].write_sizes.entries, vec![(4096, 1)]);
        assert_eq!(notes_of(&f.report.notes), vec![(2, "blocksize=4k-512k")]);
        assert!(f.report.notes[0].message.contains("not '-512k'"), "{:?}", f.report.notes);
    }

    #[test]
    fn malformed_values_are_errors_naming_the_line() {
        let err = |text: &str| import(text, SPAN).unwrap_err().message;
        assert!(err("[a]\nrw=sideways\n").starts_with("line 2: rw=sideways: not an rw value (allowed: read,"));
        assert!(err("[a]\n\nbs=4q\n").starts_with("line 3: bs=4q: '4q' is not a size"));
        assert!(err("[a]\nbs=1000\n").contains("whole 512-byte sectors"));
        assert!(err("[a]\nbssplit=4k/60:8k/60\n").contains("more than 100"));
        assert!(err("[a]\nba=1000\n").contains("multiple of 512 bytes"));
    }
}
