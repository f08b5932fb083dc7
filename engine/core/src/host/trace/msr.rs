//! MSR Cambridge / SNIA IOTTA CSV (`Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`):
//! Timestamp in Windows filetime ticks (100 ns), Type `Read` or `Write`, Offset and Size in
//! bytes. The host and disk columns are not used: one file replays onto one drive.

use std::io::BufRead;

use super::{number, Builder, Lines, TraceError};
use crate::command::Op;

const COLUMNS: &str = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime";
const NS_PER_TICK: u128 = 100;

/// The column-name line some copies start with (`Timestamp,Hostname,...`, in any case or
/// spelling of the names): seven columns, Timestamp first and Type fourth. Other SNIA CSVs
/// start with `Timestamp,` too (SYSTOR '17: `Timestamp,Response,IOType,LUN,Offset,Size`) and
/// are not this format.
pub(super) fn is_header(line: &str) -> bool {
    let names: Vec<&str> = line.split(',').map(str::trim).collect();
    names.len() == 7 && names[0].eq_ignore_ascii_case("timestamp") && names[3].eq_ignore_ascii_case("type")
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

    #[test]
    fn only_msr_s_own_column_names_are_its_header() {
        use super::super::{detect, load};
        // Lower-case names with an underscore, as some copies write them, are MSR's header.
        let text =
            "timestamp,hostname,disknumber,type,offset,size,response_time\n128166372003061629,hm,0,Write,512,4096,26\n";
        assert_eq!(detect(text), Some(Format::Msr));
        // SNIA's SYSTOR '17 traces also start `Timestamp,` but are another layout (the README
        // of SNIA IOTTA set 4964, quoted in several public repositories): not told as MSR.
        let systor =
            "Timestamp,Response,IOType,LUN,Offset,Size\n1456095145.133076000,0.000806000,R,0,899056122368,131072\n";
        assert_eq!(detect(systor), None);
        let e = load(systor.as_bytes(), None, "t").unwrap_err();
        assert!(e.message.starts_with("cannot tell the trace's format"), "{e}");
    }
}
