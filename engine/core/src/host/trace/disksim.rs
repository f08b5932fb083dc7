//! DiskSim ASCII traces: `TIME DEVICE SECTOR SECTORS FLAGS` separated by blanks, one command
//! a line. FLAGS is hexadecimal (DiskSim reads it with `%x`); bit 0 set is a read, clear a write.
//!
//! DiskSim's TIME is milliseconds (`%lf`). The sample traces of MQSim and SSDSim keep the
//! columns but count whole nanoseconds (MQSim's default `Time_Unit`; SSDSim's clock): e.g.
//! CMU-SAFARI/MQSim `traces/tpcc-small.trace` (`938944000 13 93230992 32 0`) and SSDSim's
//! `example.ascii` (`26214000 0 303574 7 0`); those read as `disksim-ns`. The device column is
//! not used (one drive), and columns after FLAGS (SSDSim's priority) are ignored. The IODA
//! replayer's traces (huaicheng/replayer, its replay.c) are DiskSim ASCII in milliseconds; its
//! replay_id.c's, with a request id before TIME, are not read (no format is detected).

use std::io::BufRead;

use super::{decimal_ns, number, Builder, Lines, TraceError};
use crate::command::Op;

const LAYOUT: &str = "TIME DEVICE SECTOR SECTORS FLAGS";
const SECTOR: u64 = 512;

/// At least five columns of numbers (the fifth hexadecimal).
pub(super) fn looks_like(line: &str) -> bool {
    let t: Vec<&str> = line.split_whitespace().collect();
    let whole = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    t.len() >= 5
        && decimal_ns(t[0], 1).is_some()
        && t[1..4].iter().all(|s| whole(s))
        && u32::from_str_radix(t[4].trim_start_matches("0x"), 16).is_ok()
}

/// Whether the first lines' TIMEs (`times`) count whole nanoseconds (MQSim, SSDSim) rather
/// than DiskSim's milliseconds. Decimal times are milliseconds. Whole numbers are told by the
/// usual gap between commands: read as ns, a median gap under 1000 would be more than a
/// million commands a second one after another (a DiskSim trace in whole ms: `0`, `3`, `7`...);
/// MQSim's and SSDSim's traces count at 1 us steps (`938944000`, `939855000`).
pub(super) fn whole_ns<'a>(times: impl Iterator<Item = &'a str>) -> bool {
    let mut whole: Vec<u128> = Vec::new();
    for t in times.take(1000) {
        if t.contains('.') {
            // Decimal from the first time that is not zero: milliseconds. One later among
            // whole numbers is a malformed line, for the reader to name.
            if whole.iter().all(|&w| w == 0) {
                return false;
            }
            break;
        }
        match t.parse() {
            Ok(v) => whole.push(v),
            Err(_) => break,
        }
    }
    let mut gaps: Vec<u128> = whole.windows(2).filter(|w| w[1] > w[0]).map(|w| w[1] - w[0]).collect();
    if gaps.is_empty() {
        // All at one time: a large clock reading is ns.
        return whole.iter().any(|&t| t >= 1_000_000);
    }
    gaps.sort_unstable();
    gaps[gaps.len() / 2] >= 1000
}

/// `whole_ns`: times are whole nanoseconds (MQSim, SSDSim) rather than DiskSim's milliseconds.
pub(super) fn read<R: BufRead>(lines: &mut Lines<R>, b: &mut Builder, whole_ns: bool) -> Result<(), TraceError> {
    while let Some((n, line)) = lines.next_line(&mut b.skipped)? {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() < 5 {
            return Err(TraceError::new(n, format!("expected {} (got {} columns)", LAYOUT, t.len())));
        }
        let time_ns = if whole_ns {
            number::<u128>(n, t[0], "a TIME in whole nanoseconds (give the format disksim for milliseconds)")?
        } else {
            decimal_ns(t[0], 1_000_000)
                .ok_or_else(|| TraceError::new(n, format!("expected a TIME in milliseconds (got '{}')", t[0])))?
        };
        number::<u64>(n, t[1], "a DEVICE number")?;
        let sector: u64 = number(n, t[2], "a starting SECTOR (a whole number)")?;
        let sectors: u64 = number(n, t[3], "a number of SECTORS")?;
        let flags = u32::from_str_radix(t[4].trim_start_matches("0x"), 16).map_err(|_| {
            TraceError::new(n, format!("expected FLAGS in hexadecimal, bit 0 set for a read (got '{}')", t[4]))
        })?;
        let op = if flags & 1 == 1 { Op::Read } else { Op::Write };
        let offset = sector.checked_mul(SECTOR).ok_or_else(|| TraceError::new(n, "the SECTOR is past any disk"))?;
        b.push(n, time_ns, op, offset, sectors.saturating_mul(SECTOR))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{commands, read_any_line_end};
    use super::super::Format;
    use crate::command::Op;

    #[test]
    fn passes_over_comments_and_blank_lines() {
        let text = "# time(ms) devno blkno bcount flags\n\n0.500 0 10 8 1\n# a note\n2.250 0 20 16 0\n\n";
        let loaded = read_any_line_end(text, Format::Disksim);
        assert_eq!(commands(&loaded), [(0, Op::Read, 5120, 4096), (1_750_000, Op::Write, 10240, 8192)]);
        assert_eq!(loaded.skipped.to_string(), "skipped 2 comment lines");
        let ns = read_any_line_end("# MQSim\n938944000 13 8 32 0\n939855000 13 16 16 1\n", Format::DisksimNs);
        assert_eq!(commands(&ns)[1], (911_000, Op::Read, 8192, 8192));
    }

    // A DiskSim ASCII trace written with whole milliseconds (DiskSim reads TIME with `%lf`, so
    // `12` is 12 ms), lines such as `0 0 1234 8 1`: read as ns it would be 10^6 too fast. Was
    // detected as disksim-ns; the usual gap tells it from MQSim's ns.
    #[test]
    fn whole_millisecond_times_are_told_from_nanoseconds_by_their_gaps() {
        let ms =
            read_any_line_end("0 0 1234 8 1\n3 0 99 8 0\n3 0 107 8 0\n12 1 5000 16 1\n20 0 8 8 0\n", Format::Disksim);
        assert_eq!(commands(&ms)[3], (12_000_000, Op::Read, 5000 * 512, 8192));
        // A whole-ns trace starting at 0, and one whose commands all share one large time.
        read_any_line_end("0 13 8 32 0\n1000 13 16 16 1\n912000 13 24 16 0\n", Format::DisksimNs);
        read_any_line_end("938944000 13 8 32 0\n938944000 13 16 16 1\n", Format::DisksimNs);
        read_any_line_end("5 0 8 8 0\n5 0 16 8 1\n", Format::Disksim);
        // The summary says which unit the times were read in.
        assert!(ms.summary().to_string().starts_with("t (disksim, TIME read as ms): 5 commands over 0.020 s"));
    }

    // The IODA replayer's traces (huaicheng/replayer): its replay.c reads `TIME DEVICE BLOCK
    // SIZE FLAG` with TIME in ms (`atof`), BLOCK and SIZE in 512-byte sectors (times its
    // `block_size`, 512) and FLAG 1 for a read, 0 for a write (`atoi`): DiskSim ASCII, whose
    // `%x` reads 0 and 1 alike. (Its README says bytes; its code multiplies by 512.) Lines
    // shaped as its MSN-FS sample's, decimal ms from 0.000 on device 5:
    #[test]
    fn reads_an_ioda_replayer_trace_as_disksim() {
        let loaded =
            read_any_line_end("0.000 5 174224 16 1\n0.221 5 162944 16 0\n2.516 5 176272 640 1\n", Format::Disksim);
        assert_eq!(
            commands(&loaded),
            [
                (0, Op::Read, 174_224 * 512, 8192),
                (221_000, Op::Write, 162_944 * 512, 8192),
                (2_516_000, Op::Read, 176_272 * 512, 327_680)
            ]
        );
    }
}
