//! Block traces: reading them (one file per format: MSR Cambridge / SNIA CSV, blkparse text,
//! DiskSim ASCII, fio iologs) into a `config::Trace`, and replaying one (`TraceFeed`: its
//! commands in order, each mapped into the tested span).
//!
//! Every reader streams lines and stops at the first line it cannot read, naming the line and
//! what it expected; lines that are not reads, writes or trims (comments, header lines,
//! flushes, file actions, other blktrace events) are skipped and counted, so nothing is dropped
//! silently. Blank lines, CRLF line ends and a byte order mark are accepted in every format.

mod blkparse;
mod disksim;
mod fio;
mod msr;

use std::fmt;
use std::io::{BufRead, Read};
use std::sync::Arc;

use serde::Serialize;

use super::WorkloadSource;
use crate::command::{Op, Request};
use crate::config::{Trace, TraceRecord};
use crate::rng::Rng;
use crate::units::{NS_PER_S, SECTOR_BYTES};

/// A trace file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Msr,
    Blkparse,
    /// DiskSim's own unit: milliseconds, decimals allowed.
    Disksim,
    /// The same columns with whole nanoseconds, as MQSim's and SSDSim's sample traces have them.
    DisksimNs,
    FioV2,
    FioV3,
}

/// Every format: its name (`--format`) and what it reads.
pub const FORMATS: [(Format, &str, &str); 6] = [
    (Format::Msr, "msr", "MSR Cambridge / SNIA CSV: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime"),
    (Format::Blkparse, "blkparse", "blkparse's default text output (its Q events)"),
    (Format::Disksim, "disksim", "DiskSim ASCII: time(ms) device sector sectors flags"),
    (Format::DisksimNs, "disksim-ns", "DiskSim ASCII with whole-nanosecond times (MQSim's and SSDSim's traces)"),
    (Format::FioV2, "fio-v2", "fio iolog version 2: filename action offset length"),
    (Format::FioV3, "fio-v3", "fio iolog version 3: timestamp(us) filename action offset length"),
];

impl Format {
    pub fn name(self) -> &'static str {
        FORMATS.iter().find(|f| f.0 == self).map_or("", |f| f.1)
    }

    pub fn from_name(name: &str) -> Option<Format> {
        FORMATS.iter().find(|f| f.1.eq_ignore_ascii_case(name.trim())).map(|f| f.0)
    }

    /// The unit of the TIME column where the same columns come in two units (DiskSim's ms,
    /// MQSim's and SSDSim's ns): a trace read in the wrong one is 10^6 off in time.
    pub fn time_unit(self) -> Option<&'static str> {
        match self {
            Format::Disksim => Some("ms"),
            Format::DisksimNs => Some("ns"),
            _ => None,
        }
    }

    /// "msr, blkparse, ...", for messages.
    pub fn names() -> String {
        FORMATS.iter().map(|f| f.1).collect::<Vec<_>>().join(", ")
    }
}

/// A trace that cannot be read: the line (1 = the first; 0 = the file as a whole) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceError {
    pub line: usize,
    pub message: String,
}

impl TraceError {
    fn new(line: usize, message: impl Into<String>) -> Self {
        TraceError { line, message: message.into() }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for TraceError {}

/// Which format `text` (the start of a trace) is in, from its first lines; None if it fits
/// none of them.
pub fn detect(text: &str) -> Option<Format> {
    let mut lines = records(text);
    let first = lines.next()?;
    if first.starts_with(fio::HEADER_V2) {
        return Some(Format::FioV2);
    }
    if first.starts_with(fio::HEADER_V3) {
        return Some(Format::FioV3);
    }
    if msr::is_header(first) || msr::looks_like(first) {
        return Some(Format::Msr);
    }
    if blkparse::looks_like(first) || blkparse::is_input_file_line(first) {
        return Some(Format::Blkparse);
    }
    if disksim::looks_like(first) {
        let times = std::iter::once(first).chain(lines).map(|l| l.split_whitespace().next().unwrap_or(""));
        return Some(if disksim::whole_ns(times) { Format::DisksimNs } else { Format::Disksim });
    }
    None
}

/// The lines of `text` past blank lines and comments, as the readers pass them.
fn records(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(|l| l.trim_start_matches('\u{feff}').trim()).filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The message when the format of `text` (the start of a trace) cannot be told; it names a
/// well-known format that is not read when the first line has its shape.
pub fn undetected(text: &str) -> TraceError {
    let list: Vec<String> = FORMATS.iter().map(|f| format!("{} ({})", f.1, f.2)).collect();
    let unread = records(text).next().and_then(unread_format);
    let looks =
        unread.map_or(String::new(), |what| format!(" (its first line looks like {}, which is not read)", what));
    TraceError::new(
        0,
        format!(
            "cannot tell the trace's format from its first lines{}; name its format, one of: {}",
            looks,
            list.join("; ")
        ),
    )
}

/// Published block-trace formats this module does not read, by the shape of a line.
fn unread_format(line: &str) -> Option<&'static str> {
    let f: Vec<&str> = line.split(',').map(str::trim).collect();
    let whole = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let op = |s: &str| matches!(s, "R" | "W" | "r" | "w");
    if f.len() < 5 || !whole(f[0]) {
        return None;
    }
    if whole(f[1]) && whole(f[2]) && op(f[3]) && decimal_ns(f[4], 1).is_some() {
        Some("a UMass/SPC trace (ASU,LBA,size,opcode,timestamp in s)")
    } else if f.len() == 5 && op(f[1]) && f[2..].iter().all(|s| whole(s)) {
        Some("an Alibaba block trace (device_id,opcode,offset,length,timestamp)")
    } else if f.len() == 5 && f.iter().all(|s| whole(s)) && matches!(f[3], "0" | "1") {
        Some("a Tencent CBS trace (Timestamp,Offset,Size,IOType,VolumeID)")
    } else {
        None
    }
}

/// The kinds of skipped lines every format may hold: comments, and a format's header lines
/// (an MSR CSV's column names, a fio iolog's `fio version N iolog`).
const COMMENTS: &str = "comment lines";
const HEADERS: &str = "header lines";

/// Lines a reader skipped, by kind ("flush events", "file add/open/close lines"), in the
/// order first met. As JSON: `[{"what": "flush events", "count": 12}, ...]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Skipped(pub Vec<(String, u64)>);

impl Serialize for Skipped {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Kind<'a> {
            what: &'a str,
            count: u64,
        }
        s.collect_seq(self.0.iter().map(|(what, count)| Kind { what, count: *count }))
    }
}

impl Skipped {
    fn add(&mut self, what: &str, n: u64) {
        match self.0.iter_mut().find(|(w, _)| w == what) {
            Some((_, count)) => *count += n,
            None => self.0.push((what.to_string(), n)),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(what, n)| format!("{} {}", n, what)).collect();
        write!(f, "skipped {}", parts.join(", "))
    }
}

/// The largest read or write a trace may hold (as for synthetic jobs); a TRIM may cover up to
/// 4 GiB, what a record holds.
pub const MAX_IO_BYTES: u64 = 1 << 24;

/// Collects a reader's records: times relative to the first record, sizes checked.
#[derive(Default)]
struct Builder {
    records: Vec<TraceRecord>,
    first_ns: Option<u128>,
    skipped: Skipped,
    /// Which of the file's events were replayed, when a reader fell back on others than its usual.
    replayed: Option<&'static str>,
}

impl Builder {
    /// A command at `time_ns` (the trace's own clock), covering `bytes` from byte `offset`.
    fn push(&mut self, line: usize, time_ns: u128, op: Op, offset: u64, bytes: u64) -> Result<(), TraceError> {
        if bytes == 0 {
            self.skip("zero-length commands");
            return Ok(());
        }
        let limit = if op == Op::Trim { u32::MAX as u64 } else { MAX_IO_BYTES };
        if bytes > limit {
            return Err(TraceError::new(
                line,
                format!("a {:?} of {} bytes is larger than a command may be (at most {} bytes)", op, bytes, limit),
            ));
        }
        if offset.checked_add(bytes).is_none() {
            return Err(TraceError::new(line, format!("offset {} + {} bytes is past any disk", offset, bytes)));
        }
        // Records before the first (an unsorted trace) issue at once.
        let first = *self.first_ns.get_or_insert(time_ns);
        let time_ns = u64::try_from(time_ns.saturating_sub(first))
            .map_err(|_| TraceError::new(line, "comes more than 584 years after the first command"))?;
        self.records.push(TraceRecord { time_ns, op, offset_bytes: offset, bytes: bytes as u32 });
        Ok(())
    }

    fn skip(&mut self, what: &str) {
        self.skipped.add(what, 1);
    }

    /// A format's header line, passed over.
    fn skip_header(&mut self) {
        self.skip(HEADERS);
    }
}

/// The longest line read: a longer one is not a trace line (and reading stops there).
const MAX_LINE_BYTES: usize = 64 << 10;

/// A trace's lines, numbered from 1, without their line ends.
struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    number: usize,
}

impl<R: BufRead> Lines<R> {
    fn new(reader: R) -> Self {
        Lines { reader, buf: Vec::new(), number: 0 }
    }

    /// The next line that may hold a record, and its number, or None at the end. Every format
    /// may hold blank lines and comments (`#` first, as blkparse's column header
    /// `#Maj,Mn CPU ...` has it): blank lines are passed over, comments counted in `skipped`.
    fn next_line(&mut self, skipped: &mut Skipped) -> Result<Option<(usize, &str)>, TraceError> {
        loop {
            if !self.read()? {
                return Ok(None);
            }
            let text = self.text().trim();
            if text.starts_with('#') {
                skipped.add(COMMENTS, 1);
            } else if !text.is_empty() {
                return Ok(Some((self.number, self.text())));
            }
        }
    }

    /// Reads the next line into `buf`; false at the end.
    fn read(&mut self) -> Result<bool, TraceError> {
        self.buf.clear();
        let line = self.number + 1;
        let n = (&mut self.reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| TraceError::new(line, format!("cannot be read ({})", e)))?;
        if n == 0 {
            return Ok(false);
        }
        self.number = line;
        if self.buf.len() > MAX_LINE_BYTES {
            return Err(TraceError::new(line, format!("is longer than {} bytes: not a trace line", MAX_LINE_BYTES)));
        }
        std::str::from_utf8(&self.buf).map_err(|_| TraceError::new(line, "is not text (UTF-8)"))?;
        Ok(true)
    }

    /// The line read last, without its line end (CRLF or LF) and, on line 1, a byte order mark.
    fn text(&self) -> &str {
        let text = std::str::from_utf8(&self.buf).unwrap_or_default();
        let text = if self.number == 1 { text.trim_start_matches('\u{feff}') } else { text };
        text.trim_end_matches(['\n', '\r'])
    }
}

/// `text` as a number of type T, or an error saying what `what` should be.
fn number<T: std::str::FromStr>(line: usize, text: &str, what: &str) -> Result<T, TraceError> {
    text.parse().map_err(|_| TraceError::new(line, format!("expected {} (got '{}')", what, text)))
}

/// A decimal number of `unit_ns`-long units (`12.345` ms) as whole ns; digits and at most one
/// point, no sign. Digits past the nanosecond are dropped.
fn decimal_ns(text: &str, unit_ns: u128) -> Option<u128> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) || whole.len() > 30 {
        return None;
    }
    let mut ns = if whole.is_empty() { 0 } else { whole.parse::<u128>().ok()?.checked_mul(unit_ns)? };
    let mut scale = unit_ns;
    for d in fraction.bytes() {
        scale /= 10;
        if scale == 0 {
            break;
        }
        ns = ns.checked_add((d - b'0') as u128 * scale)?;
    }
    Some(ns)
}

/// A trace read from a file: its commands, its format and what was skipped.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub trace: Trace,
    pub format: Format,
    pub skipped: Skipped,
    /// Which events were replayed, when not the format's usual ones (a blkparse trace without Q
    /// events replays its D or C events, whose times are later than the host's requests).
    pub replayed: Option<&'static str>,
}

/// Reads a trace in `format` (detected from its first lines if None), named `name` in messages
/// and results; it replays open-loop at its own clock until told otherwise.
pub fn load<R: BufRead>(mut reader: R, format: Option<Format>, name: &str) -> Result<Loaded, TraceError> {
    let format = match format {
        Some(f) => f,
        None => {
            let head = reader.fill_buf().map_err(|e| TraceError::new(0, format!("cannot be read ({})", e)))?;
            // Whole lines only (a cut last line could look like another format).
            let whole = head.iter().rposition(|&b| b == b'\n').map_or(head, |end| &head[..end]);
            let head = String::from_utf8_lossy(whole);
            detect(&head).ok_or_else(|| undetected(&head))?
        }
    };
    let mut lines = Lines::new(reader);
    let mut b = Builder::default();
    match format {
        Format::Msr => msr::read(&mut lines, &mut b)?,
        Format::Blkparse => blkparse::read(&mut lines, &mut b)?,
        Format::Disksim => disksim::read(&mut lines, &mut b, false)?,
        Format::DisksimNs => disksim::read(&mut lines, &mut b, true)?,
        Format::FioV2 => fio::read(&mut lines, &mut b, 2)?,
        Format::FioV3 => fio::read(&mut lines, &mut b, 3)?,
    }
    if b.records.is_empty() {
        let skipped = if b.skipped.is_empty() { String::new() } else { format!(" ({})", b.skipped) };
        return Err(TraceError::new(0, format!("holds no reads, writes or TRIMs to replay{}", skipped)));
    }
    let trace = Trace { name: name.to_string(), records: b.records, open_loop: true, time_scale: 1.0 };
    Ok(Loaded { trace, format, skipped: b.skipped, replayed: b.replayed })
}

/// What a trace holds, for the CLI and the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceSummary {
    pub name: String,
    pub format: &'static str,
    /// The TIME column's unit where the format's columns come in two (`Format::time_unit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_unit: Option<&'static str>,
    pub records: u64,
    /// From the first command to the last, at the trace's own clock.
    pub duration_s: f64,
    pub reads: u64,
    pub writes: u64,
    pub trims: u64,
    /// Bytes read and written (TRIMs move none).
    pub read_bytes: u64,
    pub write_bytes: u64,
    /// Lines skipped, by kind.
    pub skipped: Skipped,
    /// Which events were replayed, when not the format's usual ones (`Loaded::replayed`).
    pub replayed: Option<&'static str>,
}

impl Loaded {
    pub fn summary(&self) -> TraceSummary {
        let records = &self.trace.records;
        let count = |op: Op| records.iter().filter(|r| r.op == op).count() as u64;
        let bytes = |op: Op| records.iter().filter(|r| r.op == op).map(|r| r.bytes as u64).sum();
        TraceSummary {
            name: self.trace.name.clone(),
            format: self.format.name(),
            time_unit: self.format.time_unit(),
            records: records.len() as u64,
            duration_s: records.iter().map(|r| r.time_ns).max().unwrap_or(0) as f64 / NS_PER_S as f64,
            reads: count(Op::Read),
            writes: count(Op::Write),
            trims: count(Op::Trim),
            read_bytes: bytes(Op::Read),
            write_bytes: bytes(Op::Write),
            skipped: self.skipped.clone(),
            replayed: self.replayed,
        }
    }
}

impl fmt::Display for TraceSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let share = |n: u64| 100.0 * n as f64 / self.records.max(1) as f64;
        let unit = self.time_unit.map_or(String::new(), |u| format!(", TIME read as {}", u));
        write!(
            f,
            "{} ({}{}): {} commands over {:.3} s, {:.0} % reads, {:.0} % writes, {:.0} % TRIMs",
            self.name,
            self.format,
            unit,
            self.records,
            self.duration_s,
            share(self.reads),
            share(self.writes),
            share(self.trims)
        )?;
        if let Some(replayed) = self.replayed {
            write!(f, "; replayed {}", replayed)?;
        }
        if !self.skipped.is_empty() {
            write!(f, "; {}", self.skipped)?;
        }
        Ok(())
    }
}

pub struct TraceFeed {
    trace: Arc<Trace>,
    next: usize,
    span_bytes: u64,
}

impl TraceFeed {
    pub fn new(trace: Arc<Trace>, span_bytes: u64) -> Self {
        TraceFeed { trace, next: 0, span_bytes }
    }

    /// When record `i` arrives, ns after the replay starts (open loop).
    #[inline]
    pub fn arrival_ns(trace: &Trace, i: usize) -> u64 {
        trace.records.get(i).map_or(u64::MAX, |r| (r.time_ns as f64 * trace.time_scale) as u64)
    }
}

impl WorkloadSource for TraceFeed {
    /// The next record as a command; a trace from a larger disk wraps into the tested span
    /// (whole sectors, so alignment within a 4 KiB unit is kept). Past the end it repeats the
    /// last record (the host never issues those: the job stops after the last one).
    fn next(&mut self, _rng: &mut Rng) -> Request {
        let records = &self.trace.records;
        let r = records[self.next.min(records.len().saturating_sub(1))];
        self.next += 1;
        let sector = SECTOR_BYTES as u64;
        let bytes = (r.bytes as u64).div_ceil(sector).clamp(1, self.span_bytes / sector) * sector;
        // Sector positions where the command fits in the span.
        let starts = (self.span_bytes - bytes) / sector + 1;
        let offset = r.offset_bytes / sector % starts * sector;
        Request::at(r.op, offset, bytes as u32)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// `text` read as `format`, after checking that detection tells that format and that the
    /// same text with CRLF line ends and a byte order mark reads the same.
    pub(in crate::host::trace) fn read_any_line_end(text: &str, format: Format) -> Loaded {
        assert_eq!(detect(text), Some(format), "{text}");
        let loaded = load(text.as_bytes(), None, "t").unwrap_or_else(|e| panic!("{e}"));
        let windows = format!("\u{feff}{}", text.replace('\n', "\r\n"));
        assert_eq!(detect(&windows), Some(format));
        let again = load(windows.as_bytes(), None, "t").unwrap_or_else(|e| panic!("CRLF and BOM: {e}"));
        assert_eq!(again.trace.records, loaded.trace.records);
        assert_eq!(again.skipped, loaded.skipped);
        loaded
    }

    /// The records as (time in ns, op, offset, bytes).
    pub(in crate::host::trace) fn commands(loaded: &Loaded) -> Vec<(u64, Op, u64, u32)> {
        loaded.trace.records.iter().map(|r| (r.time_ns, r.op, r.offset_bytes, r.bytes)).collect()
    }

    #[test]
    fn decimal_times_are_exact_to_the_nanosecond() {
        assert_eq!(decimal_ns("12.345", 1_000_000), Some(12_345_000));
        assert_eq!(decimal_ns("0.000000001", 1_000_000_000), Some(1));
        assert_eq!(decimal_ns("3", 1_000_000_000), Some(3_000_000_000));
        assert_eq!(decimal_ns(".5", 1_000_000), Some(500_000));
        assert_eq!(decimal_ns("1.2345678901", 1_000_000_000), Some(1_234_567_890));
        for bad in ["", ".", "-1", "1e3", "1.2.3", "x"] {
            assert_eq!(decimal_ns(bad, 1000), None, "{bad}");
        }
    }

    #[test]
    fn formats_are_named_and_listed() {
        for (f, name, _) in FORMATS {
            assert_eq!(Format::from_name(name), Some(f));
            assert_eq!(f.name(), name);
        }
        assert_eq!(Format::from_name("nope"), None);
        let e = undetected("").to_string();
        for (_, name, _) in FORMATS {
            assert!(e.contains(name), "{e}");
        }
    }

    // Published traces in formats not read are named by their shape: the UMass trace
    // repository's SPC format (its spec's example, `0,20941264,8192,W,0.551706,Alpha/NT`; read
    // by e.g. spc2fio.py), Alibaba's block traces (`device_id,opcode,offset,length,timestamp`,
    // as alibaba/block-traces publishes them) and Tencent CBS's
    // (`Timestamp,Offset,Size,IOType,VolumeID`).
    #[test]
    fn well_known_formats_not_read_are_named() {
        let said = |text: &str| {
            assert_eq!(detect(text), None, "{text}");
            undetected(text).message
        };
        assert!(said("0,20941264,8192,W,0.551706,Alpha/NT\n1,3435888,512,W,1.609859\n").starts_with(
            "cannot tell the trace's format from its first lines (its first line looks like a UMass/SPC trace"
        ));
        assert!(said("# ali\n0,R,126703644672,4096,1577808000000047\n").contains("looks like an Alibaba block trace"));
        assert!(said("1538323200,12910952,128,0,1063\n").contains("looks like a Tencent CBS trace"));
        assert!(!said("1,2,3\n").contains("looks like"));
    }
}
