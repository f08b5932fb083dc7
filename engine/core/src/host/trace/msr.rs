//! MSR Cambridge / SNIA IOTTA CSV (`Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`):
//! Timestamp in Windows filetime ticks (100 ns), Type `Read` or `Write`, Offset and Size in
//! bytes. The host and disk columns are not used: one file replays onto one drive.

use std::io::BufRead;

use super::{number, Builder, Lines, TraceError};
use crate::command::Op;

const COLUMNS: &str = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime";
const NS_PER_TICK: u128 = 100;

/// The column-name line some copies start with (`Timestamp,Hostname,...`).
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
    while let Some((n, line)) = lines.next_line(&mut b.skipped)? {
        let line = line.trim();
        // Files joined together repeat it.
        if is_header(line) {
            b.skip_header();
            continue;
        }
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

#[cfg(test)]
mod tests {
    use super::super::tests::{commands, read_any_line_end};
    use super::super::Format;
    use crate::command::Op;

    #[test]
    fn passes_over_column_headers_comments_and_blank_lines() {
        // Two CSVs joined: each starts with its column names, the second with a comment too.
        let text = "\
Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
128166372003061629,hm,0,Write,7014912,4096,26

# second file
Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
128166372003071629,hm,0,Read,512,1024,113
";
        let loaded = read_any_line_end(text, Format::Msr);
        assert_eq!(commands(&loaded), [(0, Op::Write, 7014912, 4096), (1_000_000, Op::Read, 512, 1024)]);
        assert_eq!(loaded.skipped.to_string(), "skipped 2 header lines, 1 comment lines");
    }
}
