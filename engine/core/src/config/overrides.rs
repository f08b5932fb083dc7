//! Drive parameters overridden by path (`timing.program_ns=1500000`), as `ssdlab run --set`, a
//! JSON request's `set` and the page's advanced panel give them.

use super::limits::{choices, limit_of, UNSIGNED};
use super::{DriveConfig, PlacementConfig, PlacementKind, ZonedConfig};
use crate::units::ConfigError;

/// The sections a drive may lack that an override may add (`placement.handles=4` on a drive
/// without `[placement]`): each as a value of the right shape to set fields into, and the
/// fields that have no default, which must then all be set. Other absent sections (an SLC
/// cache, a thermal model) carry figures of a product, so they come with a preset.
fn addable_section(name: &str) -> Option<(serde_json::Value, &'static [&'static str])> {
    let shape = match name {
        "placement" => serde_json::to_value(PlacementConfig::new(PlacementKind::Fdp, 0)),
        "zoned" => serde_json::to_value(ZonedConfig {
            zone_bytes: 0,
            zone_capacity_bytes: 0,
            zone_dies: 0,
            max_open_zones: 0,
            max_active_zones: 0,
            append_max_bytes: 0,
        }),
        _ => return None,
    };
    let required: &[&str] = match name {
        "placement" => &["kind", "handles"],
        _ => &[
            "zone_bytes",
            "zone_capacity_bytes",
            "zone_dies",
            "max_open_zones",
            "max_active_zones",
            "append_max_bytes",
        ],
    };
    Some((shape.expect("a section serialises"), required))
}

/// Returns `drive` with the parameter at `path` (dot-separated, e.g. `timing.program_ns`)
/// replaced by `value`. Errors name the path and what it accepts.
pub fn set_parameter(drive: &DriveConfig, path: &str, value: serde_json::Value) -> Result<DriveConfig, ConfigError> {
    apply_parameters(drive, [(path, value)])
}

/// Applies every override, then validates the result once (so parameters that constrain each
/// other, like geometry and user capacity, can change together).
pub fn apply_parameters<'a>(
    drive: &DriveConfig,
    overrides: impl IntoIterator<Item = (&'a str, serde_json::Value)>,
) -> Result<DriveConfig, ConfigError> {
    apply_list(drive, overrides.into_iter().collect())
}

/// `apply_parameters`' work, not generic: compiled once, in this crate, with the drive's decoding
/// code it calls (a generic body is compiled again in each crate calling it).
fn apply_list(drive: &DriveConfig, overrides: Vec<(&str, serde_json::Value)>) -> Result<DriveConfig, ConfigError> {
    let mut tree = serde_json::to_value(drive).expect("a drive config serialises");
    let paths: Vec<&str> = overrides.iter().map(|(p, _)| *p).collect();
    // Sections the overrides add field by field, in the tree and in each field's type check
    // below (a section given whole, `zoned={...}`, is added by `with_section`).
    let mut added: Vec<(&str, serde_json::Value, &[&str])> = Vec::new();
    for path in paths.iter().filter(|p| p.contains('.')) {
        let section = path.split('.').next().unwrap_or_default();
        let absent = tree.get(section).is_none() && !added.iter().any(|(name, _, _)| *name == section);
        if let Some((shape, required)) = absent.then(|| addable_section(section)).flatten() {
            tree[section] = shape.clone();
            added.push((section, shape, required));
        }
    }
    for (path, value) in overrides {
        if value.is_object() && !path.contains('.') && tree.get(path).is_none() {
            tree = with_section(drive, tree, path, value)?;
            continue;
        }
        let mut node = &mut tree;
        for key in path.split('.') {
            let obj = node.as_object_mut().ok_or_else(|| unknown_parameter(drive, path))?;
            node = obj.get_mut(key).ok_or_else(|| unknown_parameter(drive, path))?;
        }
        let expected = match node {
            serde_json::Value::Number(n) if n.is_f64() => "a number",
            serde_json::Value::Number(_) => "a whole number",
            serde_json::Value::String(_) => "a name",
            serde_json::Value::Bool(_) => "true or false",
            serde_json::Value::Array(_) => "a list of whole numbers",
            _ => return Err(unknown_parameter(drive, path)),
        };
        // Check this one field's type now, so the error names it.
        let mut probe = serde_json::to_value(drive).expect("a drive config serialises");
        for (section, shape, _) in &added {
            probe[*section] = shape.clone();
        }
        let slot = path.split('.').fold(&mut probe, |n, k| &mut n[k]);
        *slot = value.clone();
        if let Err(e) = serde_json::from_value::<DriveConfig>(probe) {
            let detail = e.to_string();
            if detail.contains("variant") {
                return Err(ConfigError::new(path, detail));
            }
            // A negative whole number: the reason is the range, so say the range.
            if let Some(range) = negative_whole_number(drive, path, &value) {
                return Err(ConfigError::new(path, range));
            }
            return Err(ConfigError::new(path, format!("must be {} (got {})", expected, value)));
        }
        *node = value;
    }
    // An added section needs every field without a default.
    for (section, _, required) in &added {
        if let Some(field) = required.iter().find(|f| !paths.contains(&format!("{}.{}", section, f).as_str())) {
            let path = format!("{}.{}", section, field);
            let allowed = choices(&path).map_or_else(String::new, |c| format!(" (allowed: {})", c.join(", ")));
            return Err(ConfigError::new(
                path.clone(),
                format!(
                    "is needed to add [{}] to drive {}, which has none: set {} too{}",
                    section,
                    drive.id,
                    required.iter().map(|f| format!("{}.{}", section, f)).collect::<Vec<_>>().join(", "),
                    allowed
                ),
            ));
        }
    }
    let mut updated: DriveConfig = serde_json::from_value(tree).map_err(|e| ConfigError::new("set", e.to_string()))?;
    // A new cell type brings its own timings and P/E limit (one place: `CellType`).
    if updated.nand.cell != drive.nand.cell {
        updated.set_cell(updated.nand.cell, &paths);
    }
    updated.validate()?;
    Ok(updated)
}

/// `tree` with the optional section `name` (e.g. `zoned`, which the drive lacks) given whole, as
/// an object of its fields; errors name the section.
fn with_section(
    drive: &DriveConfig,
    mut tree: serde_json::Value,
    name: &str,
    section: serde_json::Value,
) -> Result<serde_json::Value, ConfigError> {
    let mut probe = tree.clone();
    probe.as_object_mut().expect("a drive config is an object").insert(name.to_string(), section.clone());
    match serde_json::from_value::<DriveConfig>(probe) {
        Err(e) if e.to_string().starts_with(&format!("unknown field `{}`", name)) => {
            Err(unknown_parameter(drive, name))
        }
        Err(e) => Err(ConfigError::new(name, format!("is not a whole section: {}", e))),
        Ok(_) => {
            tree.as_object_mut().expect("a drive config is an object").insert(name.to_string(), section);
            Ok(tree)
        }
    }
}

/// For a negative whole number given to an unsigned parameter: its limit in words, or "0 or
/// more" for a number without one.
fn negative_whole_number(drive: &DriveConfig, path: &str, value: &serde_json::Value) -> Option<String> {
    let n = value.as_i64().filter(|n| *n < 0)?;
    let range = limit_of(drive, path).map_or_else(|| UNSIGNED.to_string(), |l| l.words());
    Some(format!("{} (got {})", range, n))
}

fn unknown_parameter(drive: &DriveConfig, path: &str) -> ConfigError {
    let mut allowed = parameter_paths(drive);
    for section in ["placement", "zoned"] {
        if let Some((serde_json::Value::Object(fields), _)) =
            addable_section(section).filter(|_| !allowed.iter().any(|p| p.starts_with(&format!("{}.", section))))
        {
            allowed.extend(fields.keys().map(|f| format!("{}.{} (adds [{}])", section, f, section)));
        }
    }
    ConfigError::new("set", format!("unknown parameter '{}' (allowed: {})", path, allowed.join(", ")))
}

/// Every settable parameter path of a drive config, e.g. `timing.program_ns`.
pub fn parameter_paths(drive: &DriveConfig) -> Vec<String> {
    parameter_values(drive).into_iter().map(|(path, _)| path).collect()
}

/// Every settable parameter of a drive config with its value, by path: the one place a path
/// is read (`ssdlab params`, `ssdlab presets --sources`, the page's drive parameters).
pub fn parameter_values(drive: &DriveConfig) -> Vec<(String, serde_json::Value)> {
    fn walk(prefix: &str, v: serde_json::Value, out: &mut Vec<(String, serde_json::Value)>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, child) in m {
                    let p = if prefix.is_empty() { k } else { format!("{}.{}", prefix, k) };
                    walk(&p, child, out);
                }
            }
            leaf => out.push((prefix.to_string(), leaf)),
        }
    }
    let mut out = Vec::new();
    walk("", serde_json::to_value(drive).expect("a drive config serialises"), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{presets, GcPacing};

    #[test]
    fn set_parameter_changes_one_field_and_names_bad_ones() {
        let d = presets::by_id("s3700-200").unwrap();
        let d2 = set_parameter(&d, "timing.program_ns", serde_json::json!(1_000_000)).unwrap();
        assert_eq!(d2.timing.program_ns, 1_000_000);
        assert_eq!(d2.geometry, d.geometry);
        let lazy = set_parameter(&d, "gc.pacing", serde_json::json!("lazy")).unwrap();
        assert_eq!(lazy.gc.pacing, GcPacing::Lazy);

        let e = set_parameter(&d, "timing.nope", serde_json::json!(1)).unwrap_err();
        assert_eq!(e.field, "set");
        assert!(e.message.contains("timing.program_ns"), "{}", e.message);
        let e = set_parameter(&d, "timing.program_ns", serde_json::json!("fast")).unwrap_err();
        assert_eq!(e.field, "timing.program_ns");
        let e = set_parameter(&d, "gc.start_free_blocks", serde_json::json!(1)).unwrap_err();
        assert_eq!(e.field, "gc.start_free_blocks");
        // Half the blocks in service: 2048 less the 184 the firmware reserves (9 %).
        assert!(e.message.contains("between 2 and 932"), "{}", e.message);
        let e = set_parameter(&d, "gc.reserved_percent", serde_json::json!(60.0)).unwrap_err();
        assert_eq!(e.field, "gc.reserved_percent");
        assert_eq!(e.message, "must be between 0 and 50 (got 60)");
        // A negative whole number is out of range, and the message says the range.
        let e = set_parameter(&d, "gc.paced_percent", serde_json::json!(-50)).unwrap_err();
        assert_eq!(e.message, "must be between 10 and 1000 (got -50)");
        let e = set_parameter(&d, "power.capacitor_fails_at_s", serde_json::json!(-1)).unwrap_err();
        assert_eq!(e.message, "must be 0 or more (got -1)");
    }

    #[test]
    fn a_section_the_drive_lacks_is_given_whole() {
        let d = presets::by_id("s3700-200").unwrap();
        let placement = serde_json::json!({"kind": "fdp", "handles": 4});
        let fdp = set_parameter(&d, "placement", placement).unwrap();
        assert_eq!(fdp.placement.map(|p| p.handles), Some(4));
        let e = set_parameter(&d, "placement", serde_json::json!({"kind": "fdp"})).unwrap_err();
        assert_eq!(e.field, "placement");
        assert!(e.message.contains("missing field `handles`"), "{}", e.message);
        // Its fields are checked as the drive's are.
        let e = set_parameter(&d, "placement", serde_json::json!({"kind": "fdp", "handles": 40})).unwrap_err();
        assert_eq!(e.field, "placement.handles");
        let e = set_parameter(&d, "colour", serde_json::json!({"red": 1})).unwrap_err();
        assert_eq!(e.field, "set");
        assert!(e.message.starts_with("unknown parameter 'colour'"), "{}", e.message);
    }

    /// `[placement]` and `[zoned]` are set by path like any section, and added to a drive that
    /// has none when every field without a default is given; each bad value is refused by name.
    #[test]
    fn placement_and_zones_are_set_and_added_by_path() {
        use crate::config::{Isolation, PlacementKind};
        use serde_json::json;
        let d = presets::by_id("s3700-200").unwrap();
        assert!(d.placement.is_none() && d.zoned.is_none());
        let refused = |sets: &[(&str, serde_json::Value)]| {
            apply_parameters(&d, sets.iter().map(|(p, v)| (*p, v.clone()))).expect_err("refused")
        };

        let fdp = apply_parameters(&d, [("placement.kind", json!("fdp")), ("placement.handles", json!(4))]).unwrap();
        let p = fdp.placement.as_ref().unwrap();
        assert_eq!((p.kind, p.handles, p.isolation), (PlacementKind::Fdp, 4, Isolation::Initial));
        let persistent = set_parameter(&fdp, "placement.isolation", json!("persistent")).unwrap();
        assert_eq!(persistent.placement.unwrap().isolation, Isolation::Persistent);

        let e = refused(&[("placement.handles", json!(4))]);
        assert_eq!(e.field, "placement.kind");
        assert!(
            e.message.contains("add [placement] to drive s3700-200") && e.message.contains("streams, fdp"),
            "{}",
            e.message
        );
        let e = refused(&[("placement.kind", json!("fdp")), ("placement.handles", json!(17))]);
        assert_eq!((e.field.as_str(), e.message.as_str()), ("placement.handles", "must be between 1 and 16 (got 17)"));
        let e = refused(&[("placement.kind", json!("zns")), ("placement.handles", json!(4))]);
        assert_eq!(e.field, "placement.kind");
        assert!(e.message.contains("fdp"), "{}", e.message);
        let e = refused(&[("placement.kind", json!("fdp")), ("placement.handles", json!(-1))]);
        assert_eq!(e.field, "placement.handles");
        assert_eq!(set_parameter(&d, "placement.nope", json!(1)).unwrap_err().field, "set");
        let e = set_parameter(&d, "placemnt.handles", json!(1)).unwrap_err();
        assert!(e.message.contains("placement.handles (adds [placement])"), "{}", e.message);

        // Zones over all 33 dies, one 4 MiB block on each: 625 zones of 320 MB.
        let stripe = 33 * (4 << 20);
        let zoned = [
            ("zoned.zone_bytes", json!(320_000_000)),
            ("zoned.zone_capacity_bytes", json!(stripe)),
            ("zoned.zone_dies", json!(33)),
            ("zoned.max_open_zones", json!(8)),
            ("zoned.max_active_zones", json!(14)),
            ("zoned.append_max_bytes", json!(1 << 20)),
        ];
        let z = apply_parameters(&d, zoned.iter().map(|(p, v)| (*p, v.clone()))).unwrap();
        let zc = z.zoned.as_ref().unwrap();
        assert_eq!((zc.zones(&z), zc.zone_capacity_bytes, zc.max_active_zones), (625, stripe, 14));
        let e = refused(&zoned[..5]);
        assert_eq!(e.field, "zoned.append_max_bytes");
        let with = |path: &str, value: serde_json::Value| {
            let mut sets = zoned.to_vec();
            sets.iter_mut().find(|(p, _)| *p == path).unwrap().1 = value;
            refused(&sets)
        };
        let e = with("zoned.max_active_zones", json!(17));
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            ("zoned.max_active_zones", "must be between 1 and 16 (got 17)")
        );
        let e = with("zoned.max_open_zones", json!(15));
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            ("zoned.max_open_zones", "must be between 1 and 14 (got 15)")
        );
        assert_eq!(with("zoned.zone_dies", json!(34)).field, "zoned.zone_dies");
        assert_eq!(with("zoned.zone_dies", json!(2)).field, "zoned.zone_dies");
        assert_eq!(with("zoned.zone_capacity_bytes", json!(stripe + 4096)).field, "zoned.zone_capacity_bytes");
        assert_eq!(with("zoned.zone_bytes", json!(300_000_000)).field, "zoned.zone_bytes");
        assert_eq!(with("zoned.append_max_bytes", json!(1000)).field, "zoned.append_max_bytes");
        assert_eq!(with("zoned.zone_bytes", json!("big")).field, "zoned.zone_bytes");
        // What the design keeps apart from zones is refused naming [zoned] and the other part.
        let mut both = zoned.to_vec();
        both.extend([("placement.kind", json!("fdp")), ("placement.handles", json!(4))]);
        let e = refused(&both);
        assert_eq!(e.field, "zoned");
        assert!(e.message.contains("[placement]"), "{}", e.message);
        let mut compressing = zoned.to_vec();
        compressing.push(("controller.compression", json!(true)));
        assert!(refused(&compressing).message.contains("controller.compression"));
        let cached = presets::by_id("980pro-1000").unwrap();
        assert!(cached.slc_cache.is_some());
        let e =
            apply_parameters(&cached, [("placement.kind", json!("fdp")), ("placement.handles", json!(4))]).unwrap_err();
        assert_eq!(e.field, "placement");
        assert!(e.message.contains("[slc_cache]"), "{}", e.message);
    }
}
