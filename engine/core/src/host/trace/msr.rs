//! MSR Cambridge / SNIA IOTTA CSV (`Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`):
//! Timestamp in Windows filetime ticks (100 ns), Type `Read` or `Write`, Offset and Size in
//! bytes. The host and disk columns are not used: one file replays onto one drive.

use std::io::BufRead;

use super::{number, Builder, Lines, TraceError};
use crate::command::Op;

const COLUMNS: &str = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime";
const NS_PER_TICK: u128 = 100;

/// The column-name line some copies start with.
pub(super) fn is_header(line: &str) -> bool {
    line.get(..10).is_some_and(|s| s.eq_ignore_ascii_case("timestamp,"))
}

/// Seven comma-separated fields, the fourth Read or Write.
pub(super) fn looks_like(line: &str) -> bool {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    fields.len() == 7 && fields[0].bytes().all(|b| b.is_ascii_digit()) && op(fields[3]).is_some()
}

fn op(text: &str) -> Option<Op> {
    if text.eq_ignore_ascii_case("read") {
        Some(Op::Read)
    } else if text.eq_ignore_ascii_case("write") {
        Some(Op::Write)
    } else {
        None
    }
}

pub(super) fn read<R: BufRead>(lines: &mut Lines<R>, b: &mut Builder) -> Result<(), TraceError> {
    let mut seen_data = false;
    while let Some((n, line)) = lines.next_line()? {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if !seen_data && is_header(line) {
            b.skip("header lines");
            continue;
        }
        seen_data = true;
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 7 {
            return Err(TraceError::new(
                n,
                format!("expected 7 comma-separated fields {} (got {})", COLUMNS, fields.len()),
            ));
        }
        let ticks: u64 = number(n, fields[0], "a Timestamp in filetime ticks (a whole number)")?;
        let op = op(fields[3])
            .ok_or_else(|| TraceError::new(n, format!("expected Type Read or Write (got '{}')", fields[3])))?;
        let offset = number(n, fields[4], "an Offset in bytes (a whole number)")?;
        let bytes = number(n, fields[5], "a Size in bytes (a whole number)")?;
        b.push(n, ticks as u128 * NS_PER_TICK, op, offset, bytes)?;
    }
    Ok(())
}
