//! A job file as written: `[global]` and job sections, each a list of `key=value` options
//! with the line that holds it. Comments and blank lines are skipped, aliases resolved to the
//! option the import reads; `include NAME` lines bring in the options of the file given under
//! that name, as fio does; a malformed line is an error naming it.

use std::collections::{BTreeMap, BTreeSet};

use super::options;
use super::Note;
use crate::units::ConfigError;

/// Included files nest at most this deep (fio itself only stops at a file that includes itself).
pub const MAX_INCLUDE_DEPTH: usize = 8;

/// One `key=value` line of a section.
#[derive(Debug, Clone)]
pub(super) struct Opt {
    pub line: usize,
    /// Lower case, alias resolved.
    pub key: String,
    /// As written (for messages and fio's JSON).
    pub written_key: String,
    pub value: String,
    /// In an included file: its name and the line there (`line` is then the job file's
    /// `include` line).
    pub from: Option<(String, usize)>,
}

impl Opt {
    pub fn text(&self) -> String {
        let text = if self.value.is_empty() {
            self.written_key.clone()
        } else {
            format!("{}={}", self.written_key, self.value)
        };
        match &self.from {
            Some((file, line)) => format!("{} ({} line {})", text, file, line),
            None => text,
        }
    }

    pub fn error(&self, message: impl std::fmt::Display) -> ConfigError {
        ConfigError::new("fio", format!("line {}: {}: {}", self.line, self.text(), message))
    }

    pub fn note(&self, message: impl Into<String>) -> Note {
        Note { line: self.line, option: self.text(), message: message.into() }
    }
}

pub(super) struct Section {
    pub name: String,
    pub options: Vec<Opt>,
}

impl Section {
    pub fn is_global(&self) -> bool {
        self.name.eq_ignore_ascii_case("global")
    }

    /// The options as written, `(key, value)` (fio's JSON "global options" and "job options").
    pub fn written(&self) -> Vec<(String, String)> {
        self.options.iter().map(|o| (o.written_key.clone(), o.value.clone())).collect()
    }
}

/// Every option a job read, in order: the line that set something, for notes about it.
#[derive(Debug, Clone, Default)]
pub(super) struct Seen(Vec<Opt>);

impl Seen {
    pub fn push(&mut self, o: &Opt) {
        self.0.push(o.clone());
    }

    /// The line that last set `key` for this job.
    pub fn line_of(&self, key: &str) -> Option<&Opt> {
        self.0.iter().rev().find(|o| o.key == key)
    }
}

/// The lines of a job file or an included one, past a byte-order mark (Windows editors write
/// one; the page's File.text() drops it and the trace readers skip it, so the command line does
/// too).
fn lines(text: &str) -> std::str::Lines<'_> {
    text.strip_prefix('\u{feff}').unwrap_or(text).lines()
}

/// A comment starts a line with `;` or `#`, or follows whitespace.
fn strip_comment(line: &str) -> &str {
    let t = line.trim_start();
    if t.starts_with(';') || t.starts_with('#') {
        return "";
    }
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if (b == b';' || b == b'#') && i > 0 && bytes[i - 1].is_ascii_whitespace() {
            return &line[..i];
        }
    }
    line
}

/// Splits the text into sections; errors name the line. `includes` holds the text of the files
/// the job file includes, by the name written after `include`; fio takes includes only within a
/// section and their options into that section.
pub(super) fn read(text: &str, includes: &BTreeMap<String, String>) -> Result<Vec<Section>, ConfigError> {
    let mut out: Vec<Section> = Vec::new();
    for (i, raw) in lines(text).enumerate() {
        let number = i + 1;
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        let error = |m: String| ConfigError::new("fio", format!("line {}: {}", number, m));
        if let Some(rest) = line.strip_prefix('[') {
            out.push(header(rest, line).map_err(error)?);
            continue;
        }
        let Some(section) = out.last_mut() else {
            return Err(error(format!(
                "'{}' comes before any section; a job file starts with [global] or a job's [name]",
                line
            )));
        };
        match include_name(line) {
            Some(name) => {
                let mut chain = Vec::new();
                include(name, number, includes, &mut chain, &mut section.options)
                    .map_err(|m| error(format!("{}: {}", line, m)))?;
            }
            None => section.options.push(option(line, number).map_err(error)?),
        }
    }
    Ok(out)
}

/// The files a job file's (or an included file's) `include` lines name, with their lines: for
/// the command line to read them.
pub fn includes_of(text: &str) -> Vec<(usize, &str)> {
    lines(text).enumerate().filter_map(|(i, raw)| include_name(strip_comment(raw)).map(|n| (i + 1, n))).collect()
}

/// The file given for `include NAME`, as its key among `includes` and its text: by the name
/// written, else by its file name (the page's file chooser gives files by name only).
fn given<'a>(includes: &'a BTreeMap<String, String>, name: &str) -> Option<(&'a String, &'a String)> {
    includes.get_key_value(name).or_else(|| includes.get_key_value(file_name(name)))
}

/// The files given with the job file that neither it nor the files it includes name: the page
/// takes whatever files are chosen with the job, and one no include line names is not read.
pub(super) fn unused_includes<'a>(text: &'a str, includes: &'a BTreeMap<String, String>) -> Vec<&'a str> {
    let mut used = BTreeSet::new();
    let mut pending: Vec<&str> = includes_of(text).into_iter().map(|(_, n)| n).collect();
    while let Some(name) = pending.pop() {
        if let Some((key, inner)) = given(includes, name) {
            if used.insert(key.as_str()) {
                pending.extend(includes_of(inner).into_iter().map(|(_, n)| n));
            }
        }
    }
    includes.keys().map(String::as_str).filter(|k| !used.contains(k)).collect()
}

/// The file an `include FILE` line names (fio reads it in place of the line).
fn include_name(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("include")?;
    rest.starts_with(char::is_whitespace).then(|| rest.trim()).filter(|n| !n.is_empty())
}

/// The options of the included file `name` (and of the files it includes) onto `options`, each
/// with its place in that file; `chain` is the files being read, outermost first.
fn include(
    name: &str,
    number: usize,
    includes: &BTreeMap<String, String>,
    chain: &mut Vec<String>,
    options: &mut Vec<Opt>,
) -> Result<(), String> {
    if chain.iter().any(|c| c == name) {
        return Err(format!("'{}' includes itself ({} -> {})", name, chain.join(" -> "), name));
    }
    if chain.len() >= MAX_INCLUDE_DEPTH {
        return Err(format!(
            "includes nest {} files deep at most ({} -> {})",
            MAX_INCLUDE_DEPTH,
            chain.join(" -> "),
            name
        ));
    }
    let Some((_, text)) = given(includes, name) else {
        return Err(format!(
            "the job file includes '{}', which was not given: choose it together with the job file, or paste \
             its options in place of this line (the command line reads it from beside the job file)",
            name
        ));
    };
    chain.push(name.to_string());
    for (i, raw) in lines(text).enumerate() {
        let line = strip_comment(raw).trim();
        let place = format!("{} line {}", name, i + 1);
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            return Err(format!(
                "{}: '{}': an included file holds options only, no [sections] (as in fio)",
                place, line
            ));
        }
        match include_name(line) {
            Some(inner) => include(inner, number, includes, chain, options)?,
            None => {
                // Listed at the job file's include line, with its own place in its text.
                let mut o = option(line, number).map_err(|m| format!("{}: {}", place, m))?;
                o.from = Some((name.to_string(), i + 1));
                options.push(o);
            }
        }
    }
    chain.pop();
    Ok(())
}

/// The last part of a path as written (`dir/x.fio`, `dir\\x.fio`: `x.fio`).
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// `[name]`: `rest` is the line after its `[`.
fn header(rest: &str, line: &str) -> Result<Section, String> {
    let name = rest
        .strip_suffix(']')
        .ok_or_else(|| format!("'{}': a section header is [name], e.g. [global] or [job1]", line))?
        .trim();
    if name.is_empty() {
        return Err("a section needs a name between the brackets, e.g. [job1]".into());
    }
    Ok(Section { name: name.to_string(), options: Vec::new() })
}

/// `key=value`, or a bare `key` (a boolean option set).
fn option(line: &str, number: usize) -> Result<Opt, String> {
    let (key, value) = line.split_once('=').unwrap_or((line, ""));
    let written_key = key.trim().to_string();
    if written_key.is_empty() || written_key.contains(char::is_whitespace) {
        return Err(format!("'{}' is not an option; options are written name=value, e.g. bs=4k", line));
    }
    let lower = written_key.to_ascii_lowercase();
    Ok(Opt {
        line: number,
        key: options::canonical(&lower).to_string(),
        written_key,
        value: value.trim().to_string(),
        from: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::fio::import;
    use crate::host::fio::testing::SPAN;

    #[test]
    fn comments_start_a_line_or_follow_whitespace() {
        assert_eq!(strip_comment("; all of it"), "");
        assert_eq!(strip_comment("  # all of it"), "");
        assert_eq!(strip_comment("bs=4k ; the rest"), "bs=4k ");
        assert_eq!(strip_comment("filename=a;b#c"), "filename=a;b#c");
    }

    #[test]
    fn options_keep_their_line_and_resolve_aliases() {
        let s = read("; c\n[global]\n\n  BlockSize = 4k \n[a]\ntime_based\n", &BTreeMap::new()).unwrap();
        assert_eq!(s.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["global", "a"]);
        let o = &s[0].options[0];
        assert_eq!((o.line, o.key.as_str(), o.text()), (4, "bs", "BlockSize=4k".to_string()));
        assert_eq!((s[1].options[0].line, s[1].options[0].text()), (6, "time_based".to_string()));
    }

    // The shape of fio's HOWTO example (including.fio with glob-include.fio and
    // test-include.fio): includes within sections, nested, their options in that section.
    #[test]
    fn included_files_bring_their_options_into_the_section() {
        let includes: BTreeMap<String, String> = [
            ("glob.fio", "; shared\nthread=1\ninclude\tdepth.fio\n"),
            ("depth.fio", "iodepth=4 # deep\n"),
            ("job.fio", "rw=randread\n"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let s = read("[global]\nbs=4k\ninclude glob.fio\n[a]\ninclude job.fio\nsize=1m\n", &includes).unwrap();
        let texts = |i: usize| s[i].options.iter().map(|o| (o.line, o.text())).collect::<Vec<_>>();
        assert_eq!(
            texts(0),
            [
                (2, "bs=4k".to_string()),
                (3, "thread=1 (glob.fio line 2)".to_string()),
                (3, "iodepth=4 (depth.fio line 1)".to_string())
            ]
        );
        assert_eq!(texts(1), [(5, "rw=randread (job.fio line 1)".to_string()), (6, "size=1m".to_string())]);
        // `includes=` is not the directive.
        assert_eq!(include_name("include"), None);
        assert_eq!(include_name("includes=1"), None);
    }

    #[test]
    fn an_include_not_given_or_circular_is_an_error_naming_the_line() {
        let err = |text: &str, includes: &[(&str, &str)]| {
            let map = includes.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            read(text, &map).err().expect("refused").message
        };
        assert_eq!(
            err("[a]\nbs=4k\ninclude x.fio\n", &[]),
            "line 3: include x.fio: the job file includes 'x.fio', which was not given: choose it together with the \
             job file, or paste its options in place of this line (the command line reads it from beside the job file)"
        );
        assert_eq!(
            err("[a]\ninclude x.fio\n", &[("x.fio", "include y.fio\n"), ("y.fio", "include x.fio\n")]),
            "line 2: include x.fio: 'x.fio' includes itself (x.fio -> y.fio -> x.fio)"
        );
        let deep: Vec<(String, String)> =
            (0..=MAX_INCLUDE_DEPTH).map(|i| (format!("{}", i), format!("include {}\n", i + 1))).collect();
        let deep: Vec<(&str, &str)> = deep.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert!(err("[a]\ninclude 0\n", &deep).starts_with("line 2: include 0: includes nest 8 files deep at most"));
        assert_eq!(
            err("[a]\ninclude x.fio\n", &[("x.fio", "bs=4k\n[b]\n")]),
            "line 2: include x.fio: x.fio line 2: '[b]': an included file holds options only, no [sections] (as in fio)"
        );
        assert!(err("include x.fio\n[a]\n", &[("x.fio", "")])
            .starts_with("line 1: 'include x.fio' comes before any section"));
    }

    // The page's file chooser gives included files by file name only: `include dir/x.fio` takes
    // the file given as x.fio when none is given under the path written.
    #[test]
    fn an_include_by_path_takes_the_file_given_by_its_file_name() {
        let given = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
        };
        let text = "[a]\ninclude common/x.fio\ninclude ..\\y.fio\n";
        let s = read(text, &given(&[("x.fio", "bs=8k\n"), ("y.fio", "iodepth=2\n")])).unwrap();
        let texts: Vec<_> = s[0].options.iter().map(|o| (o.line, o.text())).collect();
        assert_eq!(
            texts,
            [(2, "bs=8k (common/x.fio line 1)".to_string()), (3, "iodepth=2 (..\\y.fio line 1)".to_string())]
        );
        // The name written wins over a file of the same file name.
        let s = read(text, &given(&[("common/x.fio", "bs=16k\n"), ("x.fio", "bs=8k\n"), ("y.fio", "")])).unwrap();
        assert_eq!(s[0].options[0].text(), "bs=16k (common/x.fio line 1)");
        let err = read(text, &given(&[("x.fio", "bs=8k\n")])).err().expect("refused").message;
        assert!(
            err.starts_with("line 3: include ..\\y.fio: the job file includes '..\\y.fio', which was not given"),
            "{}",
            err
        );
    }

    #[test]
    fn a_file_given_that_no_include_line_names_is_reported_unused() {
        let given: BTreeMap<String, String> =
            [("x.fio", "include y.fio\n"), ("y.fio", "bs=8k\n"), ("z.fio", "iodepth=2\n")]
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
        // x.fio by its path, y.fio through x.fio: only z.fio is left.
        assert_eq!(unused_includes("[a]\ninclude dir/x.fio\n", &given), ["z.fio"]);
        assert_eq!(unused_includes("[a]\nbs=4k\n", &given), ["x.fio", "y.fio", "z.fio"]);
        let report = crate::host::fio::import_including(
            "[a]\nrw=randwrite\ninclude x.fio\n",
            &given,
            &crate::host::fio::Device { span_bytes: SPAN, ..Default::default() },
        )
        .unwrap()
        .report;
        let unused: Vec<_> =
            report.notes.iter().filter(|n| n.line == 0).map(|n| (n.option.as_str(), n.message.as_str())).collect();
        assert_eq!(unused, [("z.fio", "given with the job file, but no include line names it: not read")]);
    }

    #[test]
    fn a_byte_order_mark_starts_no_line() {
        let includes: BTreeMap<String, String> = [("x.fio".to_string(), "\u{feff}iodepth=4\r\n".to_string())].into();
        let s = read("\u{feff}[global]\r\nbs=4k\r\n[a]\r\ninclude x.fio\r\n", &includes).unwrap();
        assert_eq!(s.iter().map(|s| s.options.len()).collect::<Vec<_>>(), [1, 1]);
        assert_eq!(includes_of("\u{feff}include x.fio\n"), [(1, "x.fio")]);
    }

    #[test]
    fn malformed_lines_are_errors_naming_the_line() {
        let err = |text: &str| import(text, SPAN).unwrap_err().message;
        assert!(err("bs=4k\n").starts_with("line 1: 'bs=4k' comes before any section"));
        assert!(err("[a\n").starts_with("line 1: '[a': a section header"));
        assert!(err("[a]\n[ ]\n").starts_with("line 2: a section needs a name"));
        assert!(err("[a]\nb s=4k\n").starts_with("line 2: 'b s=4k' is not an option"));
    }
}
