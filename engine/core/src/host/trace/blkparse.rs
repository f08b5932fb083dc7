//! blkparse's default text output (`blkparse -i TRACE`):
//!
//! ```text
//!   8,0    3        1     0.000000000   697  Q  WS 3414144 + 8 [jbd2/sda3-8]
//! ```
//!
//! device, CPU, sequence, seconds, PID, action, RWBS flags, then `SECTOR + SECTORS [PROCESS]`.
//! One event per IO is replayed: Q (queued), the moment the host handed the block layer its
//! request, before merging, scheduling and the traced device's own pace shaped it. A trace
//! filtered down to D (issued) events, as some published ones are, replays its D events.
//! RWBS: D (discard) or E (secure erase) is a TRIM, W a write, R a read; flush-only events
//! (`FN`, `N`, a flush with no sectors) are skipped. The summary blkparse prints at the end
//! (`CPU0 (8,0):`, `Total (8,0):`, their counts, `Throughput`, `Events`, `Skips`) is skipped.

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

/// The start of blkparse's closing summary: `CPU3 (8,0):` or `Total (8,0):`.
fn is_summary_header(line: &str) -> bool {
    let head = line.split(" (").next().unwrap_or("");
    head == "Total" || head.strip_prefix("CPU").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

pub(super) fn read<R: BufRead>(lines: &mut Lines<R>, b: &mut Builder) -> Result<(), TraceError> {
    // D events, replayed only if the trace has no Q events.
    let mut issued = Builder::default();
    let mut in_summary = false;
    while let Some((n, line)) = lines.next_line()? {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() {
            continue;
        }
        if !is_device(tokens[0]) {
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
        if action != "Q" && action != "D" {
            b.skip(&format!("{} events", action));
            continue;
        }
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
            b.skip("flush events");
            continue;
        };
        // A flush with no data (`Q FWS [jbd2/sda3-8]`) names no sectors.
        if op == Op::Write && rwbs.contains('F') && tokens.get(7).is_some_and(|t| t.starts_with('[')) {
            b.skip("flush events");
            continue;
        }
        if tokens.len() < 10 || tokens[8] != "+" {
            return Err(TraceError::new(n, format!("expected SECTOR + SECTORS after the RWBS flags ({})", LAYOUT)));
        }
        let sector: u64 = number(n, tokens[7], "a SECTOR (a whole number)")?;
        let sectors: u64 = number(n, tokens[9], "a number of SECTORS")?;
        let offset = sector.checked_mul(SECTOR).ok_or_else(|| TraceError::new(n, "the SECTOR is past any disk"))?;
        let target = if action == "Q" { &mut *b } else { &mut issued };
        target.push(n, time_ns, op, offset, sectors.saturating_mul(SECTOR))?;
    }
    let d_events = issued.records.len() as u64;
    if b.records.is_empty() {
        b.records = issued.records;
    } else if d_events > 0 {
        b.skipped.add("D events", d_events);
    }
    for (what, count) in issued.skipped.0 {
        b.skipped.add(&what, count);
    }
    Ok(())
}
