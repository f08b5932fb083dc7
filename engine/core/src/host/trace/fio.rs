//! fio iologs (`write_iolog`, replayed by fio's `read_iolog`), versions 2 and 3.
//!
//! ```text
//! fio version 2 iolog              fio version 3 iolog
//! /dev/sdb add                     17 /dev/sdb add
//! /dev/sdb open                    108 /dev/sdb open
//! /dev/sdb write 0 4096            111 /dev/sdb write 0 4096
//! /dev/sdb wait 1000 0             14782 /dev/sdb read 1011712 4096
//! /dev/sdb close                   44583 /dev/sdb close
//! ```
//!
//! Offsets and lengths are bytes. Version 3's first column is microseconds since the run began
//! (fio writes `utime_since_now`); version 2 has no clock, only `wait` lines, each waiting its
//! offset in microseconds after the previous one (fio's manual). read, write and trim replay;
//! add/open/close and sync/datasync lines are skipped and counted. Every file's offsets land
//! on the one drive.

use std::io::BufRead;

use super::{number, Builder, Lines, TraceError};
use crate::command::Op;

pub(super) const HEADER_V2: &str = "fio version 2 iolog";
pub(super) const HEADER_V3: &str = "fio version 3 iolog";
const NS_PER_US: u128 = 1000;

pub(super) fn read<R: BufRead>(lines: &mut Lines<R>, b: &mut Builder, version: u8) -> Result<(), TraceError> {
    let (header, layout) = if version == 3 {
        (HEADER_V3, "TIMESTAMP FILENAME ACTION [OFFSET LENGTH]")
    } else {
        (HEADER_V2, "FILENAME ACTION [OFFSET LENGTH]")
    };
    match lines.next_line(&mut b.skipped)? {
        Some((_, first)) if first.trim() == header => b.skip_header(),
        Some((n, first)) => {
            return Err(TraceError::new(n, format!("expected the header '{}' (got '{}')", header, first.trim())))
        }
        None => return Err(TraceError::new(0, format!("is empty (expected the header '{}')", header))),
    }
    // Version 2's clock: the waits so far.
    let mut clock_ns: u128 = 0;
    while let Some((n, line)) = lines.next_line(&mut b.skipped)? {
        let mut t: Vec<&str> = line.split_whitespace().collect();
        if version == 3 {
            clock_ns = number::<u128>(n, t[0], "a TIMESTAMP in microseconds")?.saturating_mul(NS_PER_US);
            t.remove(0);
        }
        match t.len() {
            2 => match t[1] {
                "add" | "open" | "close" => b.skip("file add/open/close lines"),
                other => {
                    return Err(TraceError::new(
                        n,
                        format!("expected a file action add, open or close (got '{}')", other),
                    ))
                }
            },
            4 => {
                let offset: u64 = number(n, t[2], "an OFFSET in bytes")?;
                let length: u64 = number(n, t[3], "a LENGTH in bytes")?;
                let op = match t[1] {
                    "read" => Op::Read,
                    "write" => Op::Write,
                    "trim" => Op::Trim,
                    "sync" | "datasync" | "sync_file_range" => {
                        b.skip("sync lines");
                        continue;
                    }
                    "wait" if version == 2 => {
                        clock_ns = clock_ns.saturating_add(offset as u128 * NS_PER_US);
                        continue;
                    }
                    "wait" => {
                        b.skip("wait lines (version 3 keeps time in its first column)");
                        continue;
                    }
                    other => {
                        return Err(TraceError::new(
                            n,
                            format!("expected an action read, write, trim, sync, datasync or wait (got '{}')", other),
                        ))
                    }
                };
                b.push(n, clock_ns, op, offset, length)?;
            }
            _ => return Err(TraceError::new(n, format!("expected {} (got '{}')", layout, line.trim()))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{commands, read_any_line_end};
    use super::super::Format;
    use crate::command::Op;

    #[test]
    fn counts_the_version_line_and_passes_over_comments_and_blank_lines() {
        let v2 = "\n# written by a script\nfio version 2 iolog\n/dev/sdb add\n\n/dev/sdb write 0 4096\n/dev/sdb wait 1500 0\n/dev/sdb read 8192 4096\n";
        let loaded = read_any_line_end(v2, Format::FioV2);
        assert_eq!(commands(&loaded), [(0, Op::Write, 0, 4096), (1_500_000, Op::Read, 8192, 4096)]);
        assert_eq!(loaded.skipped.to_string(), "skipped 1 comment lines, 1 header lines, 1 file add/open/close lines");
        let v3 =
            "fio version 3 iolog\n# fio 3.33\n17 /dev/sdb add\n111 /dev/sdb write 0 4096\n\n211 /dev/sdb trim 0 4096\n";
        let loaded = read_any_line_end(v3, Format::FioV3);
        assert_eq!(commands(&loaded), [(0, Op::Write, 0, 4096), (100_000, Op::Trim, 0, 4096)]);
        assert_eq!(loaded.skipped.to_string(), "skipped 1 header lines, 1 comment lines, 1 file add/open/close lines");
    }
}
