//! fio's data placement options (fio 3.34 to 3.38: `fdp`, `dataplacement`, `plids`/`fdp_pli`,
//! `plid_select`/`fdp_pli_select`, `dp_scheme`), read as fio's `dataplacement.c` uses them: the
//! job's writes carry placement handles from its list, in turn or at random. A placement index
//! is a handle of the drive's `[placement]` (FDP's reclaim unit handles, or stream ids).

use super::sections::{Opt, Seen};
use super::{Device, Notes};
use crate::config::{Placement, PlacementKind};
use crate::units::ConfigError;

/// fio's limit on a job's placement IDs (`FIO_MAX_DP_IDS`).
const MAX_IDS: usize = 128;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Select {
    #[default]
    RoundRobin,
    Random,
    Scheme,
}

/// The placement options as a job's lines set them.
#[derive(Debug, Clone, Default)]
pub(super) struct DataPlacement {
    fdp: bool,
    /// `dataplacement`: None for `none` or not given.
    kind: Option<PlacementKind>,
    ids: Option<Vec<u32>>,
    select: Select,
}

impl DataPlacement {
    /// Reads `o` if it is one of these options (false if not).
    pub fn apply(&mut self, o: &Opt) -> Result<bool, ConfigError> {
        let v = o.value.trim();
        match o.key.as_str() {
            "fdp" => self.fdp = super::values::boolean(v).map_err(|m| o.error(m))?,
            "dataplacement" => {
                self.kind = match v {
                    "none" => None,
                    "fdp" => Some(PlacementKind::Fdp),
                    "streams" => Some(PlacementKind::Streams),
                    _ => return Err(o.error("allowed: none (fio's default), fdp or streams")),
                }
            }
            "plid_select" => {
                self.select = match v {
                    "roundrobin" => Select::RoundRobin,
                    "random" => Select::Random,
                    "scheme" => Select::Scheme,
                    _ => return Err(o.error("allowed: roundrobin (fio's default), random or scheme")),
                }
            }
            "plids" => self.ids = Some(ids(o)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The handles the job's writes carry on `device`.
    pub fn finish(&self, device: &Device, seen: &Seen, notes: &mut Notes) -> Result<Placement, ConfigError> {
        let kind = self.kind.or(self.fdp.then_some(PlacementKind::Fdp));
        let Some(kind) = kind else {
            for key in ["plids", "plid_select"] {
                if let Some(o) = seen.line_of(key) {
                    notes.ignored(o, "no data placement (dataplacement=none, fdp=0): fio uses no placement IDs");
                }
            }
            return Ok(Placement::Untagged);
        };
        let o = seen.line_of("dataplacement").or(seen.line_of("fdp")).expect("a placement option was read");
        let name = match kind {
            PlacementKind::Fdp => "FDP",
            PlacementKind::Streams => "stream",
        };
        let handles = match &device.placement {
            Some(p) if p.kind == kind => p.handles,
            _ => {
                notes.unsupported(
                    o,
                    &format!("drive {} has no {} placement handles: the job's writes go untagged", device.id, name),
                );
                return Ok(Placement::Untagged);
            }
        };
        let list: Vec<u32> = match (&self.ids, kind) {
            (Some(ids), _) => ids.clone(),
            // fio's dataplacement.c: "stream IDs must be provided for dataplacement=streams".
            (None, PlacementKind::Streams) => {
                return Err(o.error("stream IDs must be provided for dataplacement=streams (fio): give plids"))
            }
            // FDP without plids: every handle the drive has.
            (None, PlacementKind::Fdp) => (0..handles.min(MAX_IDS as u32)).collect(),
        };
        if let Some(&bad) = list.iter().find(|&&h| h >= handles) {
            let at = seen.line_of("plids").expect("plids were read");
            return Err(at.error(format!(
                "handle {} is not one of this drive's {} (fio: PID index {} must be smaller than {})",
                bad, handles, bad, handles
            )));
        }
        let list: Vec<u8> = list.into_iter().map(|h| h as u8).collect();
        let select = match self.select {
            Select::Scheme => {
                if let Some(o) = seen.line_of("plid_select") {
                    notes.unsupported(
                        o,
                        "placement by dp_scheme's offset ranges is not read from its file: handles are chosen round robin",
                    );
                }
                Select::RoundRobin
            }
            s => s,
        };
        Ok(match (select, list.as_slice()) {
            (_, [only]) => Placement::Handle(*only),
            (Select::Random, _) => Placement::Random(list),
            _ => Placement::RoundRobin(list),
        })
    }
}

/// `plids=1,2-4,5`: indices or ranges, sorted as fio sorts them.
fn ids(o: &Opt) -> Result<Vec<u32>, ConfigError> {
    let mut out = Vec::new();
    for part in o.value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let number = |t: &str| {
            t.trim().parse::<u32>().map_err(|_| o.error(format!("'{}' is not an index or a range (e.g. 0,2-4)", part)))
        };
        let (start, end) = (number(a)?, number(b)?);
        if start > end || end > 0xFFFF {
            return Err(o.error(format!("'{}': a range runs up, to at most 65535 (fio)", part)));
        }
        if out.len() + (end - start) as usize >= MAX_IDS {
            return Err(o.error(format!("only {} IDs supported (fio)", MAX_IDS)));
        }
        out.extend(start..=end);
    }
    if out.is_empty() {
        return Err(o.error("needs at least one index, e.g. plids=0-3"));
    }
    out.sort_unstable();
    Ok(out)
}
