//! A job file as written: `[global]` and job sections, each a list of `key=value` options
//! with the line that holds it. Comments and blank lines are skipped, aliases resolved to the
//! option the import reads; `include` lines are reported (not read); a malformed line is an
//! error naming it.

use super::options;
use super::{ImportReport, Note};
use crate::units::ConfigError;

/// One `key=value` line of a section.
#[derive(Debug, Clone)]
pub(super) struct Opt {
    pub line: usize,
    /// Lower case, alias resolved.
    pub key: String,
    /// As written (for messages and fio's JSON).
    pub written_key: String,
    pub value: String,
}

impl Opt {
    pub fn text(&self) -> String {
        if self.value.is_empty() {
            self.written_key.clone()
        } else {
            format!("{}={}", self.written_key, self.value)
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

/// Splits the text into sections; errors name the line.
pub(super) fn read(text: &str, report: &mut ImportReport) -> Result<Vec<Section>, ConfigError> {
    let mut out: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
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
        if let Some(file) = line.strip_prefix("include ") {
            report.unsupported.push(Note {
                line: number,
                option: line.to_string(),
                message: format!("included files are not read; paste the options of '{}' here", file.trim()),
            });
            continue;
        }
        let Some(section) = out.last_mut() else {
            return Err(error(format!(
                "'{}' comes before any section; a job file starts with [global] or a job's [name]",
                line
            )));
        };
        section.options.push(option(line, number).map_err(error)?);
    }
    Ok(out)
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
    Ok(Opt { line: number, key: options::canonical(&lower).to_string(), written_key, value: value.trim().to_string() })
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
        let mut report = ImportReport::default();
        let s = read("; c\n[global]\n\n  BlockSize = 4k \ninclude x.fio\n[a]\ntime_based\n", &mut report).unwrap();
        assert_eq!(s.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["global", "a"]);
        let o = &s[0].options[0];
        assert_eq!((o.line, o.key.as_str(), o.text()), (4, "bs", "BlockSize=4k".to_string()));
        assert_eq!((s[1].options[0].line, s[1].options[0].text()), (7, "time_based".to_string()));
        assert_eq!(report.unsupported[0].line, 5);
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
