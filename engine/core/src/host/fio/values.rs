//! Values as fio 3.33 reads them: sizes with its suffixes (and `kb_base`), times with their
//! default units, booleans, percentages and the `read,write,trim` lists. Errors say what was
//! given and what is allowed; the caller adds the line and the option.

/// A size, a percentage of the range (`size=20%`, `offset=50%`) or a number of zones (`size=4z`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Amount {
    Bytes(u64),
    Percent(f64),
    /// Zones, as fio's zoned options take them; the job turns them into bytes once its zone
    /// size is known (`Amount::in_zones`).
    Zones(u64),
}

impl Amount {
    /// Bytes, a percentage taken of `span_bytes` (zones were made bytes before).
    pub fn bytes(self, span_bytes: u64) -> u64 {
        match self {
            Amount::Bytes(b) => b,
            Amount::Percent(p) => (span_bytes as f64 * p / 100.0) as u64,
            Amount::Zones(_) => 0,
        }
    }

    /// Zones made bytes with the job's zone size (as fio's zbd.c does after reading the job),
    /// which it must have: a zoned drive's in zonemode=zbd, else the job's zonesize.
    pub fn in_zones(self, zone_bytes: Option<u64>) -> Result<Amount, String> {
        match (self, zone_bytes) {
            (Amount::Zones(n), Some(z)) => {
                n.checked_mul(z).map(Amount::Bytes).ok_or_else(|| format!("{} zones of {} bytes is too large", n, z))
            }
            (Amount::Zones(n), None) => Err(format!(
                "'{}z' counts zones, and the job has no zone size: give zonesize, or zonemode=zbd on a zoned drive (fio would read it as 0)",
                n
            )),
            (a, _) => Ok(a),
        }
    }
}

/// A size, a percentage or, with fio's 'z' suffix, a number of zones (`offset=524z`): what
/// `size`, `io_size`, `offset`, `offset_increment` and `zoneskip` take.
pub fn zoned_amount(text: &str, kb_base: u64) -> Result<Amount, String> {
    match text.trim().strip_suffix('z') {
        Some(n) => n
            .parse::<u64>()
            .map(Amount::Zones)
            .map_err(|_| format!("'{}' is not a number of zones (e.g. 4z)", text.trim())),
        None => amount(text, kb_base),
    }
}

/// fio's integer with a size suffix. With `kb_base=1024` (fio's default) k, m, g, t and p (alone
/// or with a trailing b or i) are powers of 1024 and kib, mib, ... powers of 1000; `kb_base=1000`
/// swaps them. `0x` reads hexadecimal.
pub fn size(text: &str, kb_base: u64) -> Result<u64, String> {
    match amount(text, kb_base)? {
        Amount::Bytes(b) => Ok(b),
        Amount::Percent(_) | Amount::Zones(_) => {
            Err(format!("'{}' must be a size here, not a percentage", text.trim()))
        }
    }
}

/// A size, or a percentage from 0 to 100 (`20%`).
pub fn amount(text: &str, kb_base: u64) -> Result<Amount, String> {
    let t = text.trim();
    let bad = || format!("'{}' is not a size (e.g. 4096, 4k, 64KiB, 1m, 10g or 0x1000)", t);
    if t.ends_with('z') {
        return Err(format!(
            "'{}': the 'z' suffix (a number of zones) isn't applicable here (fio takes it for size, io_size, offset, offset_increment and zoneskip)",
            t
        ));
    }
    if let Some(p) = t.strip_suffix('%') {
        let v: f64 = p.trim().parse().map_err(|_| format!("'{}' is not a percentage (e.g. 20%)", t))?;
        if !(0.0..=100.0).contains(&v) {
            return Err(format!("'{}' must be a percentage from 0 to 100", t));
        }
        return Ok(Amount::Percent(v));
    }
    let (number, suffix) = if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        let end = hex.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(hex.len());
        (u64::from_str_radix(&hex[..end], 16).map_err(|_| bad())?, &hex[end..])
    } else {
        let end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        (t[..end].parse::<u64>().map_err(|_| bad())?, &t[end..])
    };
    // fio ends the suffix at its first separator and reads no further (`4k-512k` is 4k).
    let suffix = suffix.split(SEPARATORS).next().unwrap_or("");
    let s = suffix.trim().to_ascii_lowercase();
    let other = if kb_base == 1000 { 1024 } else { 1000 };
    let (power, base) = match s.as_str() {
        "" | "b" => (0, 1),
        "kib" => (1, other),
        "mib" => (2, other),
        "gib" => (3, other),
        "tib" => (4, other),
        "pib" => (5, other),
        // fio takes any other suffix by its first letter (parse.c get_mult_bytes), so `1Mi` is 1m.
        "k" | "kb" | "ki" => (1, kb_base),
        "m" | "mb" | "mi" => (2, kb_base),
        "g" | "gb" | "gi" => (3, kb_base),
        "t" | "tb" | "ti" => (4, kb_base),
        "p" | "pb" | "pi" => (5, kb_base),
        _ => return Err(bad()),
    };
    let scale = (0..power).try_fold(1u64, |acc, _| acc.checked_mul(base)).ok_or_else(bad)?;
    number.checked_mul(scale).map(Amount::Bytes).ok_or_else(|| format!("'{}' is too large", t))
}

/// fio's parse.c `is_separator`: where a size's suffix ends.
const SEPARATORS: [char; 4] = [':', '-', ',', '/'];

/// What fio leaves unread after a size's separator (`-512k` of `4k-512k`), if anything.
pub fn unread_tail(text: &str) -> Option<&str> {
    let t = text.trim();
    let start = t.find(|c: char| !c.is_ascii_alphanumeric() && c != '%' && !c.is_whitespace())?;
    // A leading sign or a bare separator is not a size followed by a tail.
    (start > 0 && SEPARATORS.contains(&t[start..].chars().next()?)).then(|| &t[start..])
}

/// A time in ns. Without a suffix the value is in `default_unit_ns` (seconds for runtime,
/// ramp_time and the steady-state times; microseconds for thinktime); suffixes d, h, m, s (or
/// sec), ms (or msec), us (or usec) and ns.
pub fn time_ns(text: &str, default_unit_ns: u64) -> Result<u64, String> {
    let t = text.trim();
    let end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let bad = || format!("'{}' is not a time (a whole number with d, h, m, s, ms, us or ns, e.g. 60s or 500ms)", t);
    let number: u64 = t[..end].parse().map_err(|_| bad())?;
    let unit = match t[end..].trim().to_ascii_lowercase().as_str() {
        "" => default_unit_ns,
        "d" => 86_400_000_000_000,
        "h" => 3_600_000_000_000,
        "m" => 60_000_000_000,
        "s" | "sec" => 1_000_000_000,
        "ms" | "msec" => 1_000_000,
        "us" | "usec" => 1_000,
        "ns" | "nsec" => 1,
        _ => return Err(bad()),
    };
    number.checked_mul(unit).ok_or_else(|| format!("'{}' is too long", t))
}

/// A plain whole number (`iodepth=32`, `numjobs=4`); fio's size suffixes are accepted, as fio
/// accepts them for every integer.
pub fn int(text: &str) -> Result<u64, String> {
    size(text, 1024).map_err(|_| format!("'{}' is not a whole number", text.trim()))
}

/// A boolean: a bare option, 1/0, true/false, yes/no, on/off.
pub fn boolean(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "" | "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        other => Err(format!("'{}' is not a boolean (1 or 0)", other)),
    }
}

/// A whole percentage from 0 to 100.
pub fn percent(text: &str) -> Result<u32, String> {
    let v = int(text.trim().trim_end_matches('%'))?;
    if v > 100 {
        return Err(format!("'{}' must be a percentage from 0 to 100", text.trim()));
    }
    Ok(v as u32)
}

/// fio's per-direction list `read,write,trim`: one value applies to all three; a list not
/// ending in a comma carries its last value on (`8k,32k` is 8k reads, 32k writes and trims);
/// an empty entry keeps the default (`,8k`).
pub fn per_direction(text: &str) -> [Option<&str>; 3] {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let mut out = [None; 3];
    for (i, slot) in out.iter_mut().enumerate() {
        let part = match parts.get(i) {
            Some(p) => *p,
            None => *parts.last().unwrap_or(&""),
        };
        *slot = (!part.is_empty()).then_some(part);
    }
    out
}

/// Values fio expands from the environment or evaluates (`${VAR}`, `$mb_memory`, `(1+2)`).
pub fn needs_evaluation(value: &str) -> bool {
    value.contains('$') || value.trim_start().starts_with('(')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_times_and_lists_read_as_fio_3_33_reads_them() {
        assert_eq!(size("4k", 1024), Ok(4096));
        assert_eq!(size("4KB", 1024), Ok(4096));
        assert_eq!(size("4KiB", 1024), Ok(4000));
        assert_eq!(size("4KiB", 1000), Ok(4096));
        assert_eq!(size("4k", 1000), Ok(4000));
        assert_eq!(size("0x1000", 1024), Ok(4096));
        assert_eq!(size("4096b", 1024), Ok(4096));
        // fio reads up to the first separator (spdk test/vhost/fio/vhost_fio.job: bs=4k-512k).
        assert_eq!(size("4k-512k", 1024), Ok(4096));
        assert_eq!(size("1m:2m", 1024), Ok(1 << 20));
        assert_eq!((unread_tail("4k-512k"), unread_tail("4k"), unread_tail("-4k")), (Some("-512k"), None, None));
        assert!(size("4k+", 1024).is_err());
        assert_eq!(size("10G", 1024), Ok(10 << 30));
        // weka/tools wekatester/fio-jobfiles/default/011-bandwidthR.job writes blocksize=1Mi.
        assert_eq!((size("1Mi", 1024), size("4ki", 1000)), (Ok(1 << 20), Ok(4000)));
        assert!(size("4q", 1024).unwrap_err().contains("not a size"));
        assert!(size("", 1024).is_err());
        assert!(size("99999999999999p", 1024).unwrap_err().contains("too large"));
        assert_eq!(amount("20%", 1024), Ok(Amount::Percent(20.0)));
        assert!(amount("120%", 1024).is_err());
        assert_eq!(time_ns("60", 1_000_000_000), Ok(60_000_000_000));
        assert_eq!(time_ns("5m", 1_000_000_000), Ok(300_000_000_000));
        assert_eq!(time_ns("500ms", 1_000_000_000), Ok(500_000_000));
        assert_eq!(time_ns("2000", 1_000), Ok(2_000_000));
        assert!(time_ns("2.5s", 1).unwrap_err().contains("whole number"));
        assert_eq!(per_direction("8k,32k"), [Some("8k"), Some("32k"), Some("32k")]);
        assert_eq!(per_direction("8k,32k,"), [Some("8k"), Some("32k"), None]);
        assert_eq!(per_direction(",8k"), [None, Some("8k"), Some("8k")]);
        assert_eq!(per_direction("4k"), [Some("4k"); 3]);
        assert_eq!(boolean(""), Ok(true));
        assert!(boolean("maybe").is_err());
        assert_eq!(percent("70"), Ok(70));
        assert!(percent("170").is_err());
        assert_eq!((Amount::Percent(10.0).bytes(1000), Amount::Bytes(7).bytes(1000)), (100, 7));
        assert!(needs_evaluation("${BS}") && needs_evaluation(" (1+2)") && !needs_evaluation("4k"));
    }
}
