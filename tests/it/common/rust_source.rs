//! The player's Rust sources as the structure tests read them (`library_words.rs`,
//! `layering.rs`; the simulated phone's `crates/sim/tests/layering.rs` through `#[path]`): each
//! file's module path, its code with comments and string literals blanked, its string literals
//! (escapes decoded, `\` line continuations joined), and which parts are test code
//! (`#[cfg(test)]` items, and the files of `#[cfg(test)] mod name;`), left out.

use std::path::{Path, PathBuf};

/// One source file of the player.
#[derive(Debug)]
pub struct SourceFile {
    /// Relative to `crates/player/src`, e.g. `play/perform/verify.rs`.
    pub path: PathBuf,
    /// Its module path, e.g. `["play", "perform", "verify"]` (`lib.rs`: empty).
    pub module: Vec<String>,
    /// The code outside test items, comments and string literals blanked (lines kept).
    pub code: String,
    /// The string literals outside test items: (line, decoded text).
    pub strings: Vec<(usize, String)>,
}

/// The player's non-test source files (files only test code declares are left out).
pub fn player_sources() -> Vec<SourceFile> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/player/src");
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    let parsed: Vec<(PathBuf, Scanned)> = files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(root.join(&p)).unwrap();
            (p, scan(&text))
        })
        .collect();
    let test_files: Vec<PathBuf> = parsed
        .iter()
        .flat_map(|(p, s)| s.test_mods.iter().map(|m| child_file(&root, p, m)))
        .flatten()
        .collect();
    parsed
        .into_iter()
        .filter(|(p, _)| !test_files.contains(p))
        .map(|(path, s)| SourceFile {
            module: module_of(&path),
            path,
            code: s.code,
            strings: s.strings,
        })
        .collect()
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            collect(root, &p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}

/// The file of module `name` declared in `parent` (`name.rs` or `name/mod.rs`).
fn child_file(root: &Path, parent: &Path, name: &str) -> Option<PathBuf> {
    let dir = match parent.file_name()?.to_str()? {
        "lib.rs" | "mod.rs" => parent.parent()?.to_path_buf(),
        f => parent.parent()?.join(f.trim_end_matches(".rs")),
    };
    [
        dir.join(format!("{name}.rs")),
        dir.join(name).join("mod.rs"),
    ]
    .into_iter()
    .find(|p| root.join(p).exists())
}

/// `play/perform/mod.rs` -> `play::perform`; `lib.rs` -> the crate root.
pub fn module_of(path: &Path) -> Vec<String> {
    let mut parts: Vec<String> = path
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// What scanning one file found.
#[derive(Debug, Default)]
pub struct Scanned {
    pub code: String,
    pub strings: Vec<(usize, String)>,
    /// Modules declared `#[cfg(test)] mod name;`.
    pub test_mods: Vec<String>,
}

/// Blanks comments and string literals out of `text` (keeping its lines), decodes the string
/// literals, then leaves out the items under `#[cfg(test)]`.
pub fn scan(text: &str) -> Scanned {
    let (code, strings) = lex(text);
    let mut out = Scanned::default();
    let mut removed: Vec<(usize, usize)> = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]") {
        let start = from + at;
        let item = start + "#[cfg(test)]".len();
        let rest = &code[item..];
        let semi = rest.find(';');
        let brace = rest.find('{');
        let end = match (semi, brace) {
            (Some(s), Some(b)) if s < b => item + s + 1,
            (Some(s), None) => item + s + 1,
            (_, Some(b)) => matching_brace(&code, item + b),
            (None, None) => code.len(),
        };
        let head = rest[..end - item].trim();
        if let Some(name) = head.strip_prefix("mod ").and_then(|m| m.strip_suffix(';')) {
            out.test_mods.push(name.trim().to_string());
        }
        removed.push((start, end));
        from = end;
    }
    let line_of = |offset: usize| code[..offset].matches('\n').count() + 1;
    let lines_removed: Vec<(usize, usize)> = removed
        .iter()
        .map(|&(a, b)| (line_of(a), line_of(b)))
        .collect();
    let mut kept = code.clone();
    for &(a, b) in removed.iter().rev() {
        let blank: String = code[a..b]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        kept.replace_range(a..b, &blank);
    }
    out.code = kept;
    out.strings = strings
        .into_iter()
        .filter(|(line, _)| !lines_removed.iter().any(|&(a, b)| (a..=b).contains(line)))
        .collect();
    out
}

/// The offset just past the `}` that closes the `{` at `open`.
fn matching_brace(code: &str, open: usize) -> usize {
    let mut depth = 0usize;
    for (i, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// The code with comments blanked and each string literal replaced by `""` (newlines kept),
/// and the string literals: (line, decoded text).
fn lex(text: &str) -> (String, Vec<(usize, String)>) {
    let chars: Vec<char> = text.chars().collect();
    let mut lx = Lexer {
        chars: &chars,
        code: String::with_capacity(text.len()),
        strings: Vec::new(),
        line: 1,
        i: 0,
    };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while lx.i < chars.len() {
        let i = lx.i;
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let word_start = i == 0 || !ident(chars[i - 1]);
        if c == '/' && next == Some('/') {
            while lx.i < chars.len() && chars[lx.i] != '\n' {
                lx.i += 1;
            }
        } else if c == '/' && next == Some('*') {
            lx.block_comment();
        } else if let Some(raw) = raw_string_at(&chars, i).filter(|_| word_start) {
            lx.raw_string(raw);
        } else if c == '"' || (word_start && c == 'b' && next == Some('"')) {
            lx.i += if c == 'b' { 2 } else { 1 };
            lx.string();
        } else if c == '\'' {
            lx.char_or_lifetime();
        } else {
            if c == '\n' {
                lx.line += 1;
            }
            lx.code.push(c);
            lx.i += 1;
        }
    }
    (lx.code, lx.strings)
}

/// A [`lex`] under way: at `chars[i]`, on `line`.
struct Lexer<'a> {
    chars: &'a [char],
    code: String,
    strings: Vec<(usize, String)>,
    line: usize,
    i: usize,
}

impl Lexer<'_> {
    /// A block comment (nested ones included), blanked but for its newlines.
    fn block_comment(&mut self) {
        let chars = self.chars;
        let mut depth = 0;
        while self.i < chars.len() {
            let i = self.i;
            if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                depth += 1;
                self.i += 2;
            } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                depth -= 1;
                self.i += 2;
                if depth == 0 {
                    break;
                }
            } else {
                if chars[i] == '\n' {
                    self.line += 1;
                    self.code.push('\n');
                }
                self.i += 1;
            }
        }
    }

    /// A raw string literal whose body starts at `start`, closed by `"` and `hashes` `#`.
    fn raw_string(&mut self, (start, hashes): (usize, usize)) {
        let chars = self.chars;
        let close: Vec<char> = std::iter::once('"')
            .chain(std::iter::repeat_n('#', hashes))
            .collect();
        let mut j = start;
        while j < chars.len() && !chars[j..].starts_with(&close) {
            j += 1;
        }
        let s: String = chars[start..j.min(chars.len())].iter().collect();
        self.strings.push((self.line, s.clone()));
        push_placeholder(&mut self.code, &mut self.line, &s);
        self.i = j + close.len();
    }

    /// A string literal from its body, at `i`.
    fn string(&mut self) {
        let (s, end, newlines) = string_body(self.chars, self.i);
        self.strings.push((self.line, s));
        self.code.push_str("\"\"");
        for _ in 0..newlines {
            self.code.push('\n');
        }
        self.line += newlines;
        self.i = end;
    }

    /// A char literal ('x', '\n', '\u{1F600}'), else a lifetime.
    fn char_or_lifetime(&mut self) {
        let (chars, i) = (self.chars, self.i);
        let len = if chars.get(i + 1) == Some(&'\\') {
            chars[i + 2..]
                .iter()
                .position(|&c| c == '\'')
                .map(|p| p + 3)
        } else {
            (chars.get(i + 2) == Some(&'\'')).then_some(3)
        };
        match len {
            Some(n) => {
                self.code.push_str("' '");
                self.i += n;
            }
            None => {
                self.code.push('\'');
                self.i += 1;
            }
        }
    }
}

/// Where a raw string literal that starts at `i` (`r"`, `r#"`, `br#"`) has its body, and its
/// number of `#`.
fn raw_string_at(chars: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if chars.get(j) == Some(&'b') {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = chars[j..].iter().take_while(|&&c| c == '#').count();
    j += hashes;
    (chars.get(j) == Some(&'"')).then_some((j + 1, hashes))
}

/// A string literal's body from `i` (after its opening quote): its decoded text, the offset past
/// its closing quote, and the newlines it spans.
fn string_body(chars: &[char], mut i: usize) -> (String, usize, usize) {
    let mut s = String::new();
    let mut newlines = 0;
    while i < chars.len() && chars[i] != '"' {
        if chars[i] == '\\' {
            match chars.get(i + 1) {
                Some('\n') => {
                    // A line continuation: the newline and the next line's indent go.
                    newlines += 1;
                    i += 2;
                    while chars.get(i).is_some_and(|c| c.is_whitespace()) {
                        if chars[i] == '\n' {
                            newlines += 1;
                        }
                        i += 1;
                    }
                    continue;
                }
                Some('n') => s.push('\n'),
                Some('t') => s.push('\t'),
                Some(&other) => s.push(other),
                None => {}
            }
            i += 2;
            continue;
        }
        if chars[i] == '\n' {
            newlines += 1;
        }
        s.push(chars[i]);
        i += 1;
    }
    (s, i + 1, newlines)
}

fn push_placeholder(code: &mut String, line: &mut usize, s: &str) {
    code.push_str("\"\"");
    for _ in s.matches('\n') {
        code.push('\n');
        *line += 1;
    }
}

#[test]
fn the_scanner_tells_code_from_comments_strings_and_tests() {
    let text = "// a comment with crate::level\nuse crate::board::Board; /* crate::vision */\n\
        fn f() -> &'static str { let c = '\"'; \"pass --calibration \\\n    FILE\" }\n\
        #[cfg(test)]\nmod tests { fn g() { \"--budget\"; } }\n#[cfg(test)]\nmod fake;\n";
    let s = scan(text);
    assert!(s.code.contains("use crate::board::Board;"), "{}", s.code);
    assert!(!s.code.contains("crate::level") && !s.code.contains("crate::vision"));
    assert_eq!(s.strings, vec![(3, "pass --calibration FILE".to_string())]);
    assert_eq!(s.test_mods, ["fake"]);
    assert_eq!(s.code.lines().count(), text.lines().count());
}
