//! fio's zone options (`zonemode` and the options of its `zbd` mode), read as fio's `zbd.c`
//! reads them: on a zoned drive the drive's zones (`zonesize` must match them, `zonecapacity`
//! is the drive's, `max_open_zones` at most the drive's limit unless `ignore_zone_limits`); on a
//! conventional drive zones emulated as fio emulates them on a regular block device. The job
//! then writes at the zones' write pointers (`host/zones.rs`).

use super::rw::Mix;
use super::sections::{Opt, Seen};
use super::values::{self, Amount};
use super::{Device, Notes};
use crate::config::ZoneMode;
use crate::units::ConfigError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Mode {
    #[default]
    None,
    Strided,
    Zbd,
}

/// The zone options as a job's lines set them.
#[derive(Debug, Clone, Default)]
pub(super) struct ZoneOptions {
    mode: Mode,
    zone_bytes: Option<u64>,
    capacity_bytes: Option<u64>,
    /// Bytes or zones: only whether it skips anything matters here.
    zoneskip: Option<Amount>,
    max_open: Option<u32>,
    job_max_open: u32,
    ignore_limits: bool,
    reset_threshold: f64,
    reset_frequency: f64,
    read_beyond_wp: bool,
}

/// The options read here; with `zonemode=none` fio ignores them.
const ZONE_OPTIONS: &[&str] = &[
    "zonesize",
    "zonecapacity",
    "zonerange",
    "zoneskip",
    "read_beyond_wp",
    "max_open_zones",
    "job_max_open_zones",
    "ignore_zone_limits",
    "zone_reset_threshold",
    "zone_reset_frequency",
];

/// fio's limit on write target zones (`ZBD_MAX_WRITE_ZONES`).
const MAX_WRITE_ZONES: u64 = 4096;

impl ZoneOptions {
    /// Reads `o` if it is one of these options (false if not).
    pub fn apply(&mut self, o: &Opt, kb: u64) -> Result<bool, ConfigError> {
        let v = o.value.as_str();
        let err = |m: String| o.error(m);
        let fraction = |v: &str| match v.trim().parse::<f64>() {
            Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
            _ => Err(o.error("must be a number from 0 to 1")),
        };
        match o.key.as_str() {
            "zonemode" => {
                self.mode = match v.trim() {
                    "none" => Mode::None,
                    "strided" => Mode::Strided,
                    "zbd" => Mode::Zbd,
                    _ => return Err(err("allowed: none (fio's default), strided or zbd".into())),
                }
            }
            "zonesize" => self.zone_bytes = Some(values::size(v, kb).map_err(err)?),
            "zonecapacity" => self.capacity_bytes = Some(values::size(v, kb).map_err(err)?),
            "zonerange" => {
                values::size(v, kb).map_err(err)?;
            }
            "zoneskip" => self.zoneskip = Some(values::zoned_amount(v, kb).map_err(err)?),
            "read_beyond_wp" => self.read_beyond_wp = values::boolean(v).map_err(err)?,
            "max_open_zones" => self.max_open = Some(values::int(v).map_err(err)?.min(u32::MAX as u64) as u32),
            "job_max_open_zones" => self.job_max_open = values::int(v).map_err(err)?.min(u32::MAX as u64) as u32,
            "ignore_zone_limits" => self.ignore_limits = values::boolean(v).map_err(err)?,
            "zone_reset_threshold" => self.reset_threshold = fraction(v)?,
            "zone_reset_frequency" => self.reset_frequency = fraction(v)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The zone size the job's options in zones count in, as fio's zbd.c takes it: a zoned
    /// drive's in zonemode=zbd, else the job's zonesize (None: it has none).
    pub fn zone_bytes(&self, device: &Device) -> Option<u64> {
        match (&device.zoned, self.mode) {
            (Some(z), Mode::Zbd) => Some(z.zone_bytes),
            _ => self.zone_bytes.filter(|&b| b > 0),
        }
    }

    /// The job's zone mode on `device` (None: it writes where its positions fall).
    pub fn finish(
        &self,
        mix: &Mix,
        device: &Device,
        seen: &Seen,
        notes: &mut Notes,
    ) -> Result<Option<ZoneMode>, ConfigError> {
        let line = |key: &str| seen.line_of(key);
        let writes = mix.dirs[1];
        match self.mode {
            Mode::None => {
                for o in ZONE_OPTIONS.iter().filter_map(|k| line(k)) {
                    notes.ignored(o, &format!("zonemode=none: fio ignores {}", o.key));
                }
                if device.zoned.is_some() && writes {
                    notes.notes.insert(super::Note {
                        line: 0,
                        option: "zonemode=none".into(),
                        message: format!(
                            "drive {} is zoned: a write away from its zone's write pointer fails (Zone Invalid Write); zonemode=zbd writes at the write pointers",
                            device.id
                        ),
                    });
                }
                return Ok(None);
            }
            Mode::Strided => {
                if let Some(o) = line("zonemode") {
                    notes.unsupported(o, "strided access (zonesize bytes of each zonerange, then the next) is not modelled: positions are the job's own");
                }
                for o in ZONE_OPTIONS.iter().filter_map(|k| line(k)) {
                    notes.ignored(o, "zonemode=strided is not modelled (see the zonemode line)");
                }
                return Ok(None);
            }
            Mode::Zbd => {}
        }
        let mode_line = line("zonemode").expect("zonemode=zbd was read");
        if let Some(o) = line("zonerange") {
            notes.ignored(o, "zonemode=zbd: zonesize is the zone; fio ignores zonerange");
        }
        let skips = matches!(self.zoneskip, Some(Amount::Bytes(b) | Amount::Zones(b)) if b > 0)
            || matches!(self.zoneskip, Some(Amount::Percent(p)) if p > 0.0);
        if let Some(o) = line("zoneskip").filter(|_| skips) {
            notes.unsupported(
                o,
                "skipping zones in zonemode=zbd is not modelled: a sequential job writes its zones in turn",
            );
        }
        if let Some(o) = line("job_max_open_zones").filter(|_| !writes && self.job_max_open > 0) {
            notes.ignored(o, "'job_max_open_zones' is valid only for write jobs (fio)");
        }
        if let Some(o) = line("rw").filter(|_| mix.dirs[2]) {
            notes.unsupported(o, "trims in zonemode=zbd go to the drive as TRIM; fio resets the zone instead");
        }
        let (zone_bytes, capacity_bytes, device_open) = match &device.zoned {
            Some(z) => {
                if let Some(size) = self.zone_bytes.filter(|&s| s != z.zone_bytes) {
                    let o = line("zonesize").expect("zonesize was read");
                    return Err(o.error(format!(
                        "job parameter zonesize {} does not match disk zone size {} (drive {}'s zoned.zone_bytes)",
                        size, z.zone_bytes, device.id
                    )));
                }
                if let Some(o) = line("zonecapacity") {
                    notes.ignored(
                        o,
                        &format!(
                            "drive {} is zoned: fio takes its zone capacity ({} bytes)",
                            device.id, z.zone_capacity_bytes
                        ),
                    );
                }
                (z.zone_bytes, z.zone_capacity_bytes, Some(z.max_open_zones))
            }
            None => {
                let Some(size) = self.zone_bytes else {
                    return Err(mode_line.error(format!(
                        "Specifying the zone size is mandatory for regular file/block device with --zonemode=zbd (fio); drive {} has no zones: give zonesize",
                        device.id
                    )));
                };
                if size < 512 {
                    return Err(line("zonesize")
                        .expect("read")
                        .error("zone size must be at least 512 bytes for --zonemode=zbd (fio)"));
                }
                let capacity = self.capacity_bytes.unwrap_or(size);
                if capacity > size {
                    return Err(line("zonecapacity").expect("read").error(format!(
                        "job parameter zonecapacity {} is larger than zone size {} (fio)",
                        capacity, size
                    )));
                }
                notes.note(
                    mode_line,
                    &format!(
                        "zonemode=zbd on a conventional drive: zones emulated as fio does on a regular block device; resets only move the job's write pointer (drive {} has no zones)",
                        device.id
                    ),
                );
                (size, capacity, None)
            }
        };
        let max_open = match (device_open, self.max_open) {
            (Some(limit), Some(given)) if given > limit && !self.ignore_limits => {
                return Err(line("max_open_zones").expect("read").error(format!(
                    "Specified --max_open_zones ({}) is larger than max ({}) (fio): drive {} opens at most {} zones (ignore_zone_limits=1 lifts this; its writes beyond the limit then fail)",
                    given, limit, device.id, limit
                )));
            }
            (_, Some(given)) => given,
            (Some(limit), None) => limit,
            (None, None) => 0,
        };
        if max_open as u64 > MAX_WRITE_ZONES {
            return Err(line("max_open_zones")
                .expect("read")
                .error(format!("'max_open_zones' value is larger than {} (fio)", MAX_WRITE_ZONES)));
        }
        if self.job_max_open > 0 && max_open == 0 && writes {
            return Err(line("job_max_open_zones").expect("read").error(
                "'job_max_open_zones' cannot be used without a global open zones limit (fio): give max_open_zones",
            ));
        }
        let largest = mix.sizes[1].largest() as u64;
        if writes && largest > capacity_bytes {
            return Err(mode_line.error(format!(
                "a write of {} bytes does not fit a zone's capacity of {} bytes (fio: zone capacity smaller than the block size)",
                largest, capacity_bytes
            )));
        }
        Ok(Some(ZoneMode {
            zone_bytes,
            capacity_bytes,
            device: device.zoned.is_some(),
            max_open,
            job_max_open: self.job_max_open,
            reset_threshold: self.reset_threshold,
            reset_frequency: self.reset_frequency,
            read_beyond_wp: self.read_beyond_wp,
        }))
    }
}

/// A clone's range as fio aligns it in zonemode=zbd (`zbd_zone_align_file_sizes`): its start up
/// to a zone's start, its end down to one; at least one zone.
pub(super) fn align(
    mode: &ZoneMode,
    start: u64,
    range: u64,
    seen: &Seen,
    notes: &mut Notes,
) -> Result<(u64, u64), ConfigError> {
    let zone = mode.zone_bytes;
    let first = start.div_ceil(zone) * zone;
    let end = (start + range) / zone * zone;
    let at = seen.line_of("offset").or(seen.line_of("size")).or(seen.line_of("zonemode")).expect("zonemode was read");
    if end <= first {
        return Err(at.error(format!(
            "io_size must be at least one zone (fio): the job's range from {} to {} holds no whole zone of {} bytes",
            start,
            start + range,
            zone
        )));
    }
    if first != start {
        notes.note(at, &format!("rounded up offset from {} to {} (fio: a zone's start)", start, first));
    }
    if end != start + range {
        notes.note(
            at,
            &format!("rounded down io_size from {} to {} (fio: whole zones)", start + range - first, end - first),
        );
    }
    Ok((first, end - first))
}
