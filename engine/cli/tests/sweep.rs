//! `ssdlab sweep`: an experiment whose article measures one drive runs on it when no --drive
//! is given, and says so; one whose articles compare several drives asks for one; --help lists
//! each experiment's default.

use std::process::{Command, Output};

use ssdlab_core::experiment::{ArticleDrive, EXPERIMENTS};

fn ssdlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ssdlab")).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn raid_scaling_runs_on_the_article_s_drive_when_none_is_given() {
    let tiny = ["sweep", "raid-scaling", "--drive-counts", "1,2", "--seconds", "2", "--ramp-seconds", "0", "--json"];
    let out = ssdlab(&tiny);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("drive: s3700-800 (the article's drive: [004] stripes 24 x DC S3700 800 GB"),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["request"]["drive"], "s3700-800");
    // The same table as with the drive named, which prints no such line.
    let named = ssdlab(&[&tiny[..], &["--drive", "s3700-800"]].concat());
    assert!(named.status.success(), "{}", text(&named.stderr));
    assert!(!text(&named.stderr).contains("the article's drive"));
    let named: serde_json::Value = serde_json::from_slice(&named.stdout).unwrap();
    assert_eq!(v["table"], named["table"]);
    assert_eq!(v["table"]["rows"].as_array().unwrap().len(), 4, "{}", v["table"]);
}

#[test]
fn an_experiment_run_on_several_drives_asks_for_one_and_says_why() {
    let out = ssdlab(&["sweep", "io-consistency", "--seconds", "1"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("drive: is required for io-consistency: its articles run it on many drives"), "{stderr}");
}

#[test]
fn help_and_list_give_each_experiment_s_drive() {
    let help = text(&ssdlab(&["sweep", "--help"]).stdout);
    let list = text(&ssdlab(&["sweep", "--list"]).stdout);
    let drive_help = help.lines().find(|l| l.trim_start().starts_with("--drive <ID>")).unwrap_or_default();
    for e in &EXPERIMENTS {
        match e.drive {
            ArticleDrive::One { preset, .. } => {
                assert!(drive_help.contains(&format!("{} {}", e.id, preset)), "{}: {drive_help}", e.id);
                assert!(list.contains(&format!("drive: {} by default", preset)), "{}: {list}", e.id);
            }
            ArticleDrive::Several(why) => {
                assert!(drive_help.contains(e.id), "{}: {drive_help}", e.id);
                assert!(list.contains(why), "{}: {list}", e.id);
            }
        }
    }
}
