//! The last calibration, saved: `ssdlab calibrate --save public/calibration.json` writes every
//! target's outcome, and both the page's "how close is the model" view and the table in
//! docs/CALIBRATION.md (`ssdlab calibrate --from public/calibration.json --markdown`) are read
//! from that file. `differences` says where it no longer matches calibration.toml, so a target
//! added to one and not the other fails a test.

use serde::Serialize;

use super::calibrate::{targets, Outcome, Target};
use super::evidence::cited;

/// Where the saved outcomes live, from the repository's root (the page serves `public/`).
pub const SAVED_PATH: &str = "public/calibration.json";

#[derive(Serialize)]
struct Saved<'a> {
    held: usize,
    targets: usize,
    outcomes: Vec<SavedOutcome<'a>>,
}

/// An outcome with its source's cited works by title and its own words (as the page shows them).
#[derive(Serialize)]
struct SavedOutcome<'a> {
    #[serde(flatten)]
    outcome: &'a Outcome,
    cites: Vec<&'static str>,
    says: &'a str,
}

/// Fields of a saved outcome that are not its target's.
const DERIVED: [&str; 5] = ["expected", "simulated", "holds", "cites", "says"];

/// The outcomes as the saved file holds them (with how many hold, for a reader's summary).
pub fn to_json(outcomes: &[Outcome]) -> String {
    let held = outcomes.iter().filter(|o| o.holds).count();
    let outcomes: Vec<SavedOutcome> = outcomes
        .iter()
        .map(|o| {
            let (cites, says) = cited(&o.target.source);
            SavedOutcome { outcome: o, cites, says }
        })
        .collect();
    let saved = Saved { held, targets: outcomes.len(), outcomes };
    serde_json::to_string_pretty(&saved).unwrap_or_default() + "\n"
}

/// The outcomes of a saved file; an outcome whose target no longer parses is an error naming it.
pub fn parse(json: &str) -> Result<Vec<Outcome>, String> {
    let file: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("not JSON: {}", e))?;
    let Some(list) = file.get("outcomes").and_then(|o| o.as_array()) else {
        return Err("no \"outcomes\" list".into());
    };
    list.iter()
        .enumerate()
        .map(|(i, o)| {
            let mut fields = o.as_object().cloned().ok_or(format!("outcome {}: not an object", i + 1))?;
            let simulated = fields.get("simulated").and_then(|v| v.as_f64());
            for k in DERIVED {
                fields.remove(k);
            }
            let target: Target = serde_json::from_value(fields.into_iter().collect())
                .map_err(|e| format!("outcome {}: {}", i + 1, e))?;
            let simulated = simulated.ok_or(format!(
                "outcome {} ({} {}): no simulated value",
                i + 1,
                target.drive,
                target.figure
            ))?;
            Ok(Outcome::new(target, simulated))
        })
        .collect()
}

/// `saved` updated with `fresh` (outcomes just run): calibration.toml's targets in its order, each
/// with its fresh outcome, else its saved one if its definition is unchanged; targets with
/// neither are left out (and `differences` names them).
pub fn merge(saved: Vec<Outcome>, fresh: Vec<Outcome>) -> Vec<Outcome> {
    let mut pool: Vec<Outcome> = fresh.into_iter().chain(saved).collect();
    targets().into_iter().filter_map(|t| pool.iter().position(|o| o.target == t).map(|i| pool.swap_remove(i))).collect()
}

/// Where saved outcomes and calibration.toml disagree, one sentence each (empty: they match).
pub fn differences(saved: &[Outcome]) -> Vec<String> {
    let all = targets();
    let name = |t: &Target| format!("{} \"{}\"", t.drive, t.figure);
    let mut out: Vec<String> = all
        .iter()
        .filter(|t| !saved.iter().any(|o| &o.target == *t))
        .map(|t| {
            let why = if saved.iter().any(|o| o.target.drive == t.drive && o.target.figure == t.figure) {
                "changed in calibration.toml since it was saved"
            } else {
                "has no saved outcome"
            };
            format!("{} {}: run `ssdlab calibrate --drive {} --save {}`", name(t), why, t.drive, SAVED_PATH)
        })
        .collect();
    out.extend(
        saved
            .iter()
            .filter(|o| !all.contains(&o.target))
            .filter(|o| !all.iter().any(|t| t.drive == o.target.drive && t.figure == o.target.figure))
            .map(|o| format!("{} is saved but not in calibration.toml", name(&o.target))),
    );
    if out.is_empty() && saved.iter().map(|o| &o.target).ne(all.iter()) {
        out.push("the saved outcomes are not in calibration.toml's order".into());
    }
    out
}

/// The table of docs/CALIBRATION.md.
pub fn markdown(outcomes: &[Outcome]) -> String {
    let mut s = String::from(
        "| drive | figure | target | simulated | | source | known miss: why |\n|---|---|---|---|---|---|---|\n",
    );
    for o in outcomes {
        let t = &o.target;
        s += &format!(
            "| {} | {} | {} | {:.2} | {} | {} | {} |\n",
            t.drive,
            t.figure,
            o.expected,
            o.simulated,
            if o.holds { "✓" } else { "✗" },
            t.source,
            t.miss.as_deref().unwrap_or("")
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(t: &Target, v: f64) -> Outcome {
        Outcome::new(t.clone(), v)
    }

    #[test]
    fn saved_outcomes_read_back_as_written() {
        let all = targets();
        let outcomes: Vec<Outcome> = all.iter().take(3).enumerate().map(|(i, t)| outcome(t, i as f64 * 1.5)).collect();
        let back = parse(&to_json(&outcomes)).unwrap();
        assert_eq!(back.len(), 3);
        for (a, b) in outcomes.iter().zip(&back) {
            assert_eq!((&a.target, a.simulated, a.holds, &a.expected), (&b.target, b.simulated, b.holds, &b.expected));
        }
    }

    #[test]
    fn a_target_missing_changed_or_extra_is_named() {
        let all = targets();
        let full: Vec<Outcome> = all.iter().map(|t| outcome(t, 1.0)).collect();
        assert_eq!(differences(&full), Vec::<String>::new());

        let mut fewer = full.clone();
        let gone = fewer.remove(4);
        let d = differences(&fewer);
        assert_eq!(d.len(), 1, "{:?}", d);
        assert!(
            d[0].starts_with(&format!("{} \"{}\" has no saved outcome", gone.target.drive, gone.target.figure)),
            "{}",
            d[0]
        );

        let mut changed = full.clone();
        changed[2].target.tolerance = Some(0.5);
        assert!(differences(&changed)[0].contains("changed in calibration.toml"), "{:?}", differences(&changed));

        let mut extra = full.clone();
        extra[0].target.figure = "a figure nobody published".into();
        let d = differences(&extra);
        assert!(d.iter().any(|s| s.contains("is saved but not in calibration.toml")), "{:?}", d);

        let mut shuffled = full;
        shuffled.swap(0, 1);
        assert_eq!(differences(&shuffled), vec!["the saved outcomes are not in calibration.toml's order".to_string()]);
    }

    #[test]
    fn merge_keeps_unchanged_outcomes_and_puts_fresh_ones_in_file_order() {
        let all = targets();
        let saved: Vec<Outcome> = all.iter().skip(1).map(|t| outcome(t, 1.0)).collect();
        let fresh = vec![outcome(&all[0], 2.0), outcome(&all[3], 3.0)];
        let merged = merge(saved, fresh);
        assert_eq!(differences(&merged), Vec::<String>::new());
        assert_eq!((merged[0].simulated, merged[1].simulated, merged[3].simulated), (2.0, 1.0, 3.0));
    }
}
