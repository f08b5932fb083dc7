//! blkparse's default text output (`blkparse -i TRACE`):
//!
//! ```text
//!   8,0    3        1     0.000000000   697  Q  WS 3414144 + 8 [jbd2/sda3-8]
//! ```
//!
//! device, CPU, sequence, seconds, PID, action, RWBS flags, then `SECTOR + SECTORS [PROCESS]`.
//! One event per IO is replayed: Q (queued), the moment the host handed the block layer its
//! request, before merging, scheduling and the traced device's own pace shaped it. A trace
//! filtered down to D (issued) events, as some published ones are, replays its D events; one
//! with only C (completed) events (`blkparse -a complete`) its C events, each at its
//! completion, later than its issue by the traced device's latency.
//! RWBS: D (discard) or E (secure erase) is a TRIM, W a write, R a read; flush-only events
//! (`FN`, `N`, any event with no sectors, a flush's completion `C WS 0 [0]`) and SCSI/ATA
//! pass-through commands (a byte count and the command bytes, no sectors) are skipped, as are
//! the other events (remaps `A`, `G`, `I`, completions `C` beside Q or D events, ...) and a
//! column header written as comments (`#Maj,Mn CPU ...`), as
//! some copies start, and blkparse's `Input file sda.blktrace.0 added` lines. The summary blkparse prints at the end
//! (`CPU0 (8,0):`, `Total (8,0):`, their counts, `Throughput`, `Events`, `Skips`, and with `-s`
//! each process's counts and waits before them) is skipped.

use std::io::BufRead;

use super::{decimal_ns, number, Builder, Lines, TraceError};
use crate::command::Op;

const LAYOUT: &str = "MAJ,MIN CPU SEQUENCE SECONDS PID ACTION RWBS SECTOR + SECTORS [PROCESS]";
const SECTOR: u64 = 512;

/// A device column `MAJ,MIN` first, then at least the columns up to the RWBS flags.
pub(super) fn looks_like(line: &str) -> bool {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    tokens.len() >= 7 && is_device(tokens[0]) && decimal_ns(tokens[3], 1).is_some()
}

fn is_device(token: &str) -> bool {
    token.split_once(',').is_some_and(|(major, minor)| {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        digits(major) && digits(minor)
    })
}

/// What blkparse prints to stdout before the events as it opens each per-CPU file
/// (`Input file sda.blktrace.0 added`), so a saved output starts with them.
pub(super) fn is_input_file_line(line: &str) -> bool {
    line.trim().strip_prefix("Input file ").is_some_and(|rest| rest.ends_with(" added"))
}

/// The start of blkparse's closing summary: `CPU3 (8,0):` or `Total (8,0):`, or with `-s` the
/// per-process statistics before them, each headed by the process and its PID
/// (`kworker/u8:2 (1406)`, `postgres (2210, ...)`).
fn is_summary_header(line: &str) -> bool {
    let head = line.split(" (").next().unwrap_or("");
    let digits = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    let process = line
        .trim_end()
        .strip_suffix(')')
        .and_then(|l| l.rsplit_once(" ("))
        .is_some_and(|(name, pid)| !name.trim().is_empty() && digits(pid.strip_suffix(", ...").unwrap_or(pid)));
    head == "Total" || head.strip_prefix("CPU").is_some_and(digits) || process
}

/// What one event line holds.
enum Event {
    Skip(&'static str),
    Io { time_ns: u128, op: Op, offset: u64, bytes: u64 },
}

pub(super) fn read<R: BufRead>(lines: &mut Lines<R>, b: &mut Builder) -> Result<(), TraceError> {
    // D events, replayed only if the trace has no Q events; C events only if it has neither.
    let mut issued = Builder::default();
    let mut completed = Builder::default();
    let mut in_summary = false;
    while let Some((n, line)) = lines.next_line(&mut b.skipped)? {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if !is_device(tokens[0]) {
            if is_input_file_line(line) {
                b.skip("input file lines");
                continue;
            }
            in_summary |= is_summary_header(line);
            if !in_summary {
                return Err(TraceError::new(
                    n,
                    format!("expected a blkparse event line ({}) (got '{}')", LAYOUT, line),
                ));
            }
            b.skip("summary lines");
            continue;
        }
        in_summary = false;
        if tokens.len() < 7 {
            return Err(TraceError::new(n, format!("expected {} (got {} columns)", LAYOUT, tokens.len())));
        }
        let action = tokens[5];
        if !["Q", "D", "C"].contains(&action) {
            b.skip(&format!("{} events", action));
            continue;
        }
        if action == "C" {
            // Counted here, in the order met; taken back if the C events are replayed.
            b.skip("C events");
        }
        match (event(n, &tokens)?, action) {
            (Event::Skip(what), "C") => completed.skip(what),
            (Event::Skip(what), _) => b.skip(what),
            (Event::Io { time_ns, op, offset, bytes }, _) => {
                let target = match action {
                    "Q" => &mut *b,
                    "D" => &mut issued,
                    _ => &mut completed,
                };
                target.push(n, time_ns, op, offset, bytes)?;
            }
        }
    }
    let d_events = issued.records.len() as u64;
    if b.records.is_empty() && issued.records.is_empty() && !completed.records.is_empty() {
        b.records = completed.records;
        b.replayed = Some("its C (completed) events, at their completions: it has neither Q nor D events");
        b.skipped.0.retain(|(what, _)| what != "C events");
        for (what, count) in completed.skipped.0 {
            b.skipped.add(&what, count);
        }
    } else if b.records.is_empty() {
        b.records = issued.records;
        b.replayed = Some("its D (issued) events: it has no Q events");
    } else if d_events > 0 {
        b.skipped.add("D events", d_events);
    }
    for (what, count) in issued.skipped.0 {
        b.skipped.add(&what, count);
    }
    Ok(())
}

/// A Q, D or C event line's command, or why it has none.
fn event(n: usize, tokens: &[&str]) -> Result<Event, TraceError> {
    let time_ns = decimal_ns(tokens[3], 1_000_000_000)
        .ok_or_else(|| TraceError::new(n, format!("expected SECONDS like 0.000123456 (got '{}')", tokens[3])))?;
    let rwbs = tokens[6];
    let op = if rwbs.contains(['D', 'E']) {
        Op::Trim
    } else if rwbs.contains('W') {
        Op::Write
    } else if rwbs.contains('R') {
        Op::Read
    } else {
        return Ok(Event::Skip("flush events"));
    };
    // An event with no sectors: a flush with no data (`Q FWS [jbd2/sda3-8]`, or `Q WBS
    // [parted]`, a barrier as blkparse before the F flag wrote it), or with `-t` its
    // elapsed time in parentheses (`Q WS (    417) [x]`).
    if tokens.get(7).is_some_and(|t| t.starts_with(['[', '('])) {
        return Ok(Event::Skip("flush events"));
    }
    // A flush's completion: a sector, no count, then the error (`C  WS 0 [0]`).
    if tokens.get(8).is_some_and(|t| t.starts_with('[')) {
        return Ok(Event::Skip("flush events"));
    }
    // A SCSI/ATA pass-through command (smartctl, udev's ata_id): its byte count, then its
    // command bytes in parentheses (`D   R 512 (85 08 0e 00 ..) [smartctl]`); no sectors.
    if tokens.get(8).is_some_and(|t| t.starts_with('(')) {
        return Ok(Event::Skip("pass-through commands"));
    }
    if tokens.len() < 10 || tokens[8] != "+" {
        return Err(TraceError::new(n, format!("expected SECTOR + SECTORS after the RWBS flags ({})", LAYOUT)));
    }
    let sector: u64 = number(n, tokens[7], "a SECTOR (a whole number)")?;
    let sectors: u64 = number(n, tokens[9], "a number of SECTORS")?;
    let offset = sector.checked_mul(SECTOR).ok_or_else(|| TraceError::new(n, "the SECTOR is past any disk"))?;
    Ok(Event::Io { time_ns, op, offset, bytes: sectors.saturating_mul(SECTOR) })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{commands, read_any_line_end};
    use super::super::Format;
    use crate::command::Op;

    #[test]
    fn reads_a_whole_blkparse_output_with_its_column_header_remaps_and_summary() {
        // The shape of a real `blkparse -i` output of a partition on a mapped device: the
        // column header as two comment lines, a remap (A) before each Q, the closing summary.
        let text = "\
#Maj,Mn CPU   SeqNo     Seconds     PID  Evt Typ Sector   +Len Description
#------ --- ------- --------------- -----|--|---|---------+--- -------------------------------------
259,0    1        1     0.000000000  2211  A   W 812000 + 16 <- (253,1) 640000
259,0    1        2     0.000000180  2211  A   W 829000 + 16 <- (259,2) 812000
259,0    1        3     0.000000350  2211  Q   W 829000 + 16 [kworker/u8:2]
259,0    1        4     0.000004100  2211  G   W 829000 + 16 [kworker/u8:2]
259,0    1        5     0.000009800  2211  D   W 829000 + 16 [kworker/u8:2]
259,0    1        6     0.000210000     0  C   W 829000 + 16 [0]
259,0    2        1     0.001500000  3100  A   R 90000 + 8 <- (259,2) 73000
259,0    2        2     0.001500200  3100  Q   R 90000 + 8 [cat]
259,0    2        3     0.001600000     0  C   R 90000 + 8 [0]

CPU1 (259,0):
 Reads Queued:           0,        0KiB\t Writes Queued:           1,        8KiB
 Read Dispatches:        0,        0KiB\t Write Dispatches:        1,        8KiB
Total (259,0):
 Reads Queued:           1,        4KiB\t Writes Queued:           1,        8KiB

Throughput (R/W): 2,500KiB/s / 5,000KiB/s
Events (259,0): 9 entries
Skips: 0 forward (0 -   0.0%)
";
        let loaded = read_any_line_end(text, Format::Blkparse);
        assert_eq!(commands(&loaded), [(0, Op::Write, 829000 * 512, 8192), (1_499_850, Op::Read, 90000 * 512, 4096)]);
        assert_eq!(
            loaded.skipped.to_string(),
            "skipped 2 comment lines, 3 A events, 1 G events, 2 C events, 8 summary lines, 1 D events"
        );
    }

    #[test]
    fn passes_over_the_input_file_lines_blkparse_prints_before_its_events() {
        // `blkparse -i sdx > out.txt` saves its `Input file sdx.blktrace.N added` lines first
        // (quoted in public notes: a CentOS blktrace walkthrough, a btrfs discard report) and,
        // with several traces parsed one after another, again after a summary. Such a file was
        // neither detected nor read.
        let text = "\
Input file sdx.blktrace.0 added
Input file sdx.blktrace.1 added
 65,112  0        1     0.000000000  2501  Q  WS 1953394280 + 640 [dd]
 65,112  0        2     0.000663382     0  C  WS 1953394280 + 640 [0]
Total (65,112):
 Writes Queued:           1,      320KiB
Input file sdy.blktrace.0 added
 65,128  1        1     0.000800000  2502  Q   R 4096 + 8 [cat]
";
        let loaded = read_any_line_end(text, Format::Blkparse);
        assert_eq!(
            commands(&loaded),
            [(0, Op::Write, 1953394280 * 512, 640 * 512), (800_000, Op::Read, 4096 * 512, 4096)]
        );
        assert_eq!(loaded.skipped.to_string(), "skipped 3 input file lines, 1 C events, 2 summary lines");
    }

    #[test]
    fn passes_over_the_per_process_statistics_of_blkparse_s() {
        // `blkparse -s` prints each process's counts and waits after the events, headed
        // `comm (pid)` or `comm (pid, ...)` (blkparse.c show_process_stats), before the CPU and
        // device summary: they were refused as no event line.
        let text = "\
  8,0    1        1     0.000000000  3100  Q   R 90000 + 8 [cat]
  8,0    1        2     0.000100000     0  C   R 90000 + 8 [0]
cat (3100)
 Reads Queued:           1,        4KiB\t Writes Queued:           0,        0KiB
 Allocation wait:        0        \t Allocation wait:        0
kworker/u8:2 (1406, ...)
 Reads Queued:           0,        0KiB\t Writes Queued:           0,        0KiB

CPU1 (8,0):
 Reads Queued:           1,        4KiB\t Writes Queued:           0,        0KiB
";
        let loaded = read_any_line_end(text, Format::Blkparse);
        assert_eq!(commands(&loaded), [(0, Op::Read, 90000 * 512, 4096)]);
        assert_eq!(loaded.skipped.to_string(), "skipped 1 C events, 7 summary lines");
    }

    #[test]
    fn passes_over_barriers_and_pass_through_commands_that_name_no_sectors() {
        // The shape of a real trace of a disk polled by smartctl and udev (a forum post quoted
        // in a public repository, blkparse of Ubuntu 12.04): barrier flushes written before
        // blkparse had the F flag (`Q WBS [parted]`), and SCSI/ATA pass-through commands whose
        // byte count and command bytes stand where sectors would (`D   R 512 (85 08 ..)`).
        let text = "\
  8,16   0        1     0.329879634  4183  Q WBS [parted]
  8,16   0        2     0.329881220  4183  G WBS [parted]
  8,16   0        4     0.329972236     0  C  WS 0 [0]
  8,16   0        7     0.337848437  4103  G   N [kworker/0:0]
  8,16   0        8     0.337849010  4103  I   N 0 (00 ..) [kworker/0:0]
  8,16   0        9     0.337849374  4103  D   N 0 (00 ..) [kworker/0:0]
  8,16   0       14     0.338680944  4187  I   R 254 (12 00 00 00 fe 00 ..) [scsi_id]
  8,16   0       15     0.338682153  4187  D   R 254 (12 00 00 00 fe 00 ..) [scsi_id]
  8,16   0       16     0.338696471     3  C   R (12 00 00 00 fe 00 ..) [0]
  8,16   0       17     0.340000000  4190  Q   R 2048 + 8 [cat]
  8,16   0       18     0.340100000  4190  D   R 2048 + 8 [cat]
  8,16   0       36     0.550130414  4213  D   R 512 (85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00 ..) [smartctl]
  8,16   0       40     0.560000000  4190  Q  WS 4096 + 16 [cat]
";
        let loaded = read_any_line_end(text, Format::Blkparse);
        assert_eq!(commands(&loaded), [(0, Op::Read, 2048 * 512, 4096), (220_000_000, Op::Write, 4096 * 512, 8192)]);
        assert_eq!(
            loaded.skipped.to_string(),
            "skipped 2 flush events, 2 G events, 2 C events, 2 I events, 2 pass-through commands, 1 D events"
        );
    }

    #[test]
    fn replays_the_completions_of_a_trace_with_neither_q_nor_d_events() {
        // The shape blkparse writes for completions only (`blkparse -a complete`): each IO's C
        // event with the error after its sectors, a flush's completion with no count. Refused
        // as holding nothing to replay before C events stood in for missing Q and D events.
        let text = "\
  8,0    1        1     0.000210000     0  C   W 829000 + 16 [0]
  8,0    1        2     0.001600000     0  C   R 90000 + 8 [0]
  8,0    1        3     0.002000000     0  C  WS 0 [0]
  8,0    0        4     0.003000000     0  C  DS 1000 + 2048 [0]
";
        let loaded = read_any_line_end(text, Format::Blkparse);
        assert_eq!(
            commands(&loaded),
            [
                (0, Op::Write, 829000 * 512, 8192),
                (1_390_000, Op::Read, 90000 * 512, 4096),
                (2_790_000, Op::Trim, 1000 * 512, 2048 * 512)
            ]
        );
        assert_eq!(loaded.skipped.to_string(), "skipped 1 flush events");
        // Said where the trace is summed up (the CLI's replay and the page's import report).
        let summary = loaded.summary().to_string();
        assert!(summary.contains("; replayed its C (completed) events, at their completions"), "{summary}");
    }

    #[test]
    fn says_when_it_replays_d_events_for_want_of_q_events() {
        let text = "\
259,0    1        5     0.000009800  2211  D   W 829000 + 16 [kworker/u8:2]
259,0    1        6     0.000210000     0  C   W 829000 + 16 [0]
";
        let loaded = read_any_line_end(text, Format::Blkparse);
        assert_eq!(commands(&loaded), [(0, Op::Write, 829000 * 512, 8192)]);
        assert_eq!(loaded.replayed, Some("its D (issued) events: it has no Q events"));
        let with_q = read_any_line_end(&text.replace("  D   W", "  Q   W"), Format::Blkparse);
        assert_eq!(with_q.replayed, None);
    }
}
