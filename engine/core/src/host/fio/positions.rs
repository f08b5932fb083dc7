//! Where a job's commands land: its range on the drive's tested span (`offset`, `size`,
//! `filesize`, `offset_increment` per clone, `offset_align`), the share of random positions
//! (`percentage_random`, `norandommap`) and how random positions spread (`random_distribution`:
//! zipf, pareto, zoned, zoned_abs). Ranges beyond the span wrap into it and are reported.

use super::rw::Mix;
use super::sections::{Opt, Seen};
use super::values::{self, Amount};
use super::Notes;
use crate::config::{Distribution, Zone};
use crate::units::{ConfigError, SECTOR_BYTES};

/// Where random requests land, before the job's range is known.
#[derive(Debug, Clone)]
enum Spread {
    Resolved(Distribution),
    /// zoned_abs: (access %, bytes) per zone.
    Absolute(Vec<(u32, u64)>),
}

/// The job's positions as its options set them.
#[derive(Debug, Clone)]
pub(super) struct Positions {
    size: Option<Amount>,
    filesize: Option<u64>,
    offset: Option<Amount>,
    offset_increment: Option<Amount>,
    offset_align: u64,
    random_map: bool,
    random_percent: [Option<u32>; 3],
    spread: Spread,
}

impl Default for Positions {
    fn default() -> Self {
        Positions {
            size: None,
            filesize: None,
            offset: None,
            offset_increment: None,
            offset_align: 0,
            random_map: true,
            random_percent: [None; 3],
            spread: Spread::Resolved(Distribution::Uniform),
        }
    }
}

/// The job's positions over the tested span, before each clone takes its range.
#[derive(Debug, Clone)]
pub(super) struct Placed {
    pub random_percent: u32,
    pub random_map: bool,
    /// The first clone's start and each next clone's step, bytes.
    offset: u64,
    increment: u64,
    offset_align: u64,
    /// The job's range, bytes; None: to the end of the span.
    pub size: Option<u64>,
    spread: Spread,
}

impl Positions {
    /// Reads `o` if it is one of these options (false if not).
    pub fn apply(&mut self, o: &Opt, kb: u64, notes: &mut Notes) -> Result<bool, ConfigError> {
        let v = o.value.as_str();
        let err = |m: String| o.error(m);
        match o.key.as_str() {
            "size" => self.size = Some(values::zoned_amount(v, kb).map_err(err)?),
            // A range (`1g-2g`) of file sizes: the first stands for it, as a size reads it.
            "filesize" => self.filesize = Some(values::size(v, kb).map_err(err)?),
            "offset" => self.offset = Some(values::zoned_amount(v, kb).map_err(err)?),
            "offset_increment" => self.offset_increment = Some(values::zoned_amount(v, kb).map_err(err)?),
            "offset_align" => self.offset_align = values::size(v, kb).map_err(err)?,
            "norandommap" => self.random_map = !values::boolean(v).map_err(err)?,
            "percentage_random" => {
                for (d, part) in values::per_direction(v).into_iter().enumerate() {
                    self.random_percent[d] = part.map(values::percent).transpose().map_err(err)?;
                }
            }
            "random_distribution" => self.spread = distribution(o, kb, notes)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The options given in zones, made bytes with the job's zone size.
    pub fn in_zones(&mut self, zone_bytes: Option<u64>, seen: &Seen) -> Result<(), ConfigError> {
        for (key, amount) in
            [("size", &mut self.size), ("offset", &mut self.offset), ("offset_increment", &mut self.offset_increment)]
        {
            if let Some(a) = amount {
                *a = a.in_zones(zone_bytes).map_err(|m| seen.line_of(key).expect("read").error(m))?;
            }
        }
        Ok(())
    }

    /// Share of random positions, per direction in fio, one per job here.
    fn random_percent(&self, mix: &Mix, seen: &Seen, notes: &mut Notes) -> u32 {
        if mix.random {
            let dirs = mix.dirs;
            let shares: Vec<u32> = (0..3).filter(|&d| dirs[d]).map(|d| self.random_percent[d].unwrap_or(100)).collect();
            if shares.iter().any(|&s| s != shares[0]) {
                if let Some(o) = seen.line_of("percentage_random") {
                    notes.unsupported(o, "one random share per job: the first direction's applies to all");
                }
            }
            shares.first().copied().unwrap_or(100)
        } else {
            if let Some(o) = seen.line_of("percentage_random") {
                notes.note(o, "has no effect on a sequential rw, as in fio");
            }
            0
        }
    }

    /// The positions over a tested span of `span_bytes`; a percentage offset aligns down to
    /// offset_align (or the smallest request).
    pub fn finish(&self, mix: &Mix, span_bytes: u64, seen: &Seen, notes: &mut Notes) -> Placed {
        let offset_align = if self.offset_align > 0 {
            self.offset_align
        } else {
            mix.sizes[0].smallest().min(mix.sizes[1].smallest()) as u64
        }
        .max(SECTOR_BYTES as u64);
        let placed = |a: Option<Amount>| match a {
            Some(Amount::Percent(p)) => Amount::Percent(p).bytes(span_bytes) / offset_align * offset_align,
            Some(a) => a.bytes(span_bytes),
            None => 0,
        };
        let size = match (self.size, self.filesize) {
            (Some(a), _) => {
                if let Some(o) = seen.line_of("filesize") {
                    notes.note(o, "size sets the job's range; the file's size does not change it");
                }
                Some(a.bytes(span_bytes))
            }
            (None, Some(b)) => {
                if let Some(o) = seen.line_of("filesize") {
                    notes.note(o, "with no size, the file's size is the job's range");
                }
                Some(b)
            }
            (None, None) => None,
        };
        if size.is_some_and(|b| b > span_bytes) {
            if let Some(o) = seen.line_of("size").or(seen.line_of("filesize")) {
                notes.unsupported(
                    o,
                    &format!("more than the drive's tested span ({}): the job covers the whole span", gib(span_bytes)),
                );
            }
        }
        Placed {
            random_percent: self.random_percent(mix, seen, notes),
            random_map: self.random_map,
            offset: placed(self.offset),
            increment: placed(self.offset_increment),
            offset_align,
            size,
            spread: self.spread.clone(),
        }
    }
}

impl Placed {
    /// Where clone `clone` starts and how many bytes it covers; a start beyond the span wraps
    /// into it.
    pub fn range(&self, clone: u32, span_bytes: u64, seen: &Seen, notes: &mut Notes) -> (u64, u64) {
        let mut start = self.offset.saturating_add(self.increment.saturating_mul(clone as u64));
        if start >= span_bytes {
            if let Some(o) = seen.line_of("offset_increment").or(seen.line_of("offset")) {
                notes.unsupported(
                    o,
                    &format!("starts beyond the drive's tested span ({}): the start wraps into it", gib(span_bytes)),
                );
            }
            start = start % span_bytes / self.offset_align * self.offset_align;
        }
        (start, self.size.unwrap_or(span_bytes).min(span_bytes - start).max(1))
    }

    /// How random positions spread over a range of `range_bytes`.
    pub fn distribution(&self, range_bytes: u64) -> Distribution {
        match &self.spread {
            Spread::Resolved(d) => d.clone(),
            Spread::Absolute(zones) => resolve_abs(zones, range_bytes),
        }
    }
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}

/// fio's random_distribution: random, zipf:THETA, pareto:H, zoned:A/S:..., zoned_abs:A/SIZE:...
/// (normal, a distribution's centre and one distribution per direction are not modelled).
fn distribution(o: &Opt, kb: u64, notes: &mut Notes) -> Result<Spread, ConfigError> {
    let dirs = values::per_direction(&o.value);
    if dirs[1].is_some() && dirs[1] != dirs[0] {
        notes.unsupported(o, "one distribution per job: the first applies to every direction");
    }
    let first = dirs[0].unwrap_or("random");
    let (kind, arg) = first.split_once(':').unwrap_or((first, ""));
    let resolved = match kind.trim() {
        "random" => Distribution::Uniform,
        "zipf" | "pareto" => {
            let mut parts = arg.split(':');
            let value = parts.next().unwrap_or("");
            if parts.next().is_some() {
                notes.unsupported(o, "the distribution's centre is not modelled; the hot end is spread over the range");
            }
            Distribution::parse("random_distribution", &format!("{}:{}", kind.trim(), value))
                .map_err(|e| o.error(e.message))?
        }
        "normal" | "gauss" => {
            notes.unsupported(o, "the normal distribution is not modelled; positions are uniform");
            Distribution::Uniform
        }
        "sequence" => {
            notes.unsupported(o, "a fixed sequence of blocks (newer fio) is not modelled; positions are uniform");
            Distribution::Uniform
        }
        "zoned" => zoned(arg, o)?,
        "zoned_abs" => return zoned_abs(arg, kb, o, notes),
        _ => {
            return Err(o.error(
                "unknown distribution (allowed: random, zipf:THETA, pareto:H, normal:DEV, zoned:A/S:..., \
                 zoned_abs:A/SIZE:...)",
            ))
        }
    };
    Ok(Spread::Resolved(resolved))
}

/// `zoned:50/5:30/15:20/`: a zone without a size takes what the others leave of 100.
fn zoned(arg: &str, o: &Opt) -> Result<Distribution, ConfigError> {
    let zones: Vec<(&str, &str)> =
        arg.split(':').filter(|z| !z.trim().is_empty()).map(|z| z.split_once('/').unwrap_or((z, ""))).collect();
    let pct = |x: &str| values::percent(x).map_err(|m| o.error(m));
    let mut sized = 0;
    let mut blank = 0;
    for (_, s) in &zones {
        if s.trim().is_empty() {
            blank += 1;
        } else {
            sized += pct(s)?;
        }
    }
    if blank > 1 {
        return Err(o.error("at most one zone may leave its size blank"));
    }
    let mut text = Vec::new();
    for (a, s) in &zones {
        let size = if s.trim().is_empty() { 100u32.saturating_sub(sized) } else { pct(s)? };
        text.push(format!("{}/{}", pct(a)?, size));
    }
    Distribution::parse("random_distribution", &format!("zoned:{}", text.join(":"))).map_err(|e| o.error(e.message))
}

/// `zoned_abs:60/20G:40/100G`: zones of absolute sizes, made percentages of the job's range
/// once it is known (`resolve_abs`).
fn zoned_abs(arg: &str, kb: u64, o: &Opt, notes: &mut Notes) -> Result<Spread, ConfigError> {
    let mut zones = Vec::new();
    for z in arg.split(':').filter(|z| !z.trim().is_empty()) {
        let (a, s) =
            z.split_once('/').ok_or_else(|| o.error("zones are ACCESS/SIZE, e.g. zoned_abs:60/20G:40/100G"))?;
        let access = values::percent(a).map_err(|m| o.error(m))?;
        let bytes = values::size(s, kb).map_err(|m| o.error(m))?;
        zones.push((access, bytes.max(1)));
    }
    if zones.is_empty() || zones.iter().map(|z| z.0).sum::<u32>() != 100 {
        return Err(o.error("the zones' access percentages must add up to 100"));
    }
    notes.note(o, "absolute zones become whole percentages of the job's range (rounded)");
    Ok(Spread::Absolute(zones))
}

/// Absolute zones as whole percentages of `range_bytes`; the part of the range no zone covers
/// becomes a zone no access lands in.
fn resolve_abs(zones: &[(u32, u64)], range_bytes: u64) -> Distribution {
    let mut out: Vec<Zone> = Vec::new();
    let mut left = 100u32;
    for &(access, bytes) in zones {
        if left == 0 {
            // The range ends inside an earlier zone: its accesses land in the last zone.
            if let Some(last) = out.last_mut() {
                last.access_percent += access;
            }
            continue;
        }
        let pct = ((bytes as f64 / range_bytes.max(1) as f64 * 100.0).round() as u32).clamp(1, left);
        left -= pct;
        out.push(Zone { access_percent: access, size_percent: pct });
    }
    if left > 0 {
        out.push(Zone { access_percent: 0, size_percent: left });
    }
    Distribution::Zoned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::fio::import;
    use crate::host::fio::testing::{notes_of, SPAN};

    #[test]
    fn zones_become_percentages_of_the_range() {
        let f = import(
            "[c]\nrw=randread\nrandom_distribution=zoned:50/5:30/15:20/\n\
             [d]\nrw=randread\nsize=1g\nrandom_distribution=zoned_abs:60/256m:40/256m\n",
            SPAN,
        )
        .unwrap();
        let jobs = &f.phases[0].jobs;
        assert_eq!(jobs[0].distribution, Distribution::parse("d", "zoned:50/5:30/15:20/80").unwrap());
        assert_eq!(jobs[1].distribution, Distribution::parse("d", "zoned:60/25:40/25:0/50").unwrap());
        assert_eq!(notes_of(&f.report.notes), vec![(7, "random_distribution=zoned_abs:60/256m:40/256m")]);
        // A range ending inside a zone: the zones past it add their accesses to the last.
        assert_eq!(
            resolve_abs(&[(60, 3 << 30), (40, 1 << 30)], 1 << 30),
            Distribution::parse("d", "zoned:100/100").unwrap()
        );
    }

    #[test]
    fn a_range_of_file_sizes_stands_for_its_first() {
        let f = import("[a]\nrw=write\nfilesize=1g-2g\n", SPAN).unwrap();
        assert_eq!(f.phases[0].jobs[0].size_bytes, 1 << 30);
    }

    #[test]
    fn sizes_beyond_the_span_wrap_and_are_reported() {
        let f = import("[a]\nrw=write\nsize=999g\n[b]\nrw=write\noffset=250g\nsize=1g\n", SPAN).unwrap();
        assert_eq!(f.phases[0].jobs[0].size_bytes, SPAN);
        assert_eq!(f.phases[0].jobs[1].offset_bytes, 50 << 30);
        assert_eq!(notes_of(&f.report.unsupported), vec![(3, "size=999g"), (6, "offset=250g")]);
        // Not time-based: the job makes one pass over what it covers.
        assert_eq!(f.phases[0].jobs[0].io_limit_bytes, SPAN);
    }

    #[test]
    fn malformed_zones_are_errors_naming_the_line() {
        let err = |text: &str| import(text, SPAN).unwrap_err().message;
        assert!(err("[a]\nrandom_distribution=zoned:50/5:30/\n").contains("add up to 100"));
        assert!(err("[a]\nrandom_distribution=zoned:50/:50/\n").starts_with("line 2: random_distribution"));
        assert!(err("[a]\nrandom_distribution=zoned_abs:60/1g:30/1g\n").contains("must add up to 100"));
    }
}
