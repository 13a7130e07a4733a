//! A small POSIX-ish shell grammar: words with single/double quotes and backslashes, `$?`,
//! `$$`, and command lists joined by `;`, newlines, `&&` and `||`. `#` starts a comment.

/// One piece of a word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Text(String),
    /// `$?`: the previous command's exit status, expanded when the command runs.
    Status,
    /// `$$`: the shell's process id.
    Pid,
}

/// A word: parts concatenated at expansion time.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Word(pub Vec<Part>);

impl Word {
    /// The word's text with `$?` replaced by `status` and `$$` by `pid`.
    pub fn expand(&self, status: i32, pid: u32) -> String {
        let mut s = String::new();
        for p in &self.0 {
            match p {
                Part::Text(t) => s.push_str(t),
                Part::Status => s.push_str(&status.to_string()),
                Part::Pid => s.push_str(&pid.to_string()),
            }
        }
        s
    }

    fn push_char(&mut self, c: char) {
        match self.0.last_mut() {
            Some(Part::Text(t)) => t.push(c),
            _ => self.0.push(Part::Text(c.to_string())),
        }
    }
}

/// How a command is joined to the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Join {
    /// First command, `;` or newline: always runs.
    Always,
    /// `&&`: runs if the previous status was 0.
    And,
    /// `||`: runs if the previous status was not 0.
    Or,
}

/// One simple command and how it joins the previous one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    pub join: Join,
    pub words: Vec<Word>,
}

/// Why a script does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A quote is still open at the end (an interactive shell waits for more input).
    #[error("syntax error: unterminated quoted string")]
    Unterminated,
    #[error("syntax error: '{0}' unexpected")]
    Unexpected(&'static str),
    #[error("syntax error: '{0}' is not supported by this shell")]
    Unsupported(char),
}

/// Parses a script into commands.
pub fn parse(script: &str) -> Result<Vec<Command>, ParseError> {
    let mut p = Parser {
        commands: Vec::new(),
        words: Vec::new(),
        word: None,
        join: Join::Always,
    };
    let mut chars = script.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\r' => p.end_word(),
            '\n' | ';' | '&' | '|' => {
                p.end_word();
                let (next, op) = operator(c, &mut chars)?;
                p.end_command(next, op)?;
            }
            '#' if p.word.is_none() => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                p.end_command(Join::Always, "newline")?;
            }
            '<' | '>' | '(' | ')' | '`' => return Err(ParseError::Unsupported(c)),
            '\'' => single_quoted(&mut chars, p.word())?,
            '"' => double_quoted(&mut chars, p.word())?,
            '\\' => match chars.next() {
                None => return Err(ParseError::Unterminated),
                Some('\n') => {}
                Some(e) => p.word().push_char(e),
            },
            '$' if matches!(chars.peek(), Some('?' | '$')) => {
                let part = special(chars.next());
                p.word().0.push(part);
            }
            c => p.word().push_char(c),
        }
    }
    p.finish()
}

/// A [`parse`] under way.
struct Parser {
    commands: Vec<Command>,
    /// The words of the command being read.
    words: Vec<Word>,
    /// The word being read.
    word: Option<Word>,
    /// How the command being read joins the one before.
    join: Join,
}

impl Parser {
    /// The word being read, begun if none is.
    fn word(&mut self) -> &mut Word {
        self.word.get_or_insert_with(Word::default)
    }

    /// Ends the word being read, if any.
    fn end_word(&mut self) {
        if let Some(w) = self.word.take() {
            self.words.push(w);
        }
    }

    /// Ends the command being read at an operator joining the next one `next`; `op` is the
    /// operator's text for errors.
    fn end_command(&mut self, next: Join, op: &'static str) -> Result<(), ParseError> {
        if self.words.is_empty() {
            // An empty command is fine after `;`/newline, but not around `&&`/`||`.
            if next != Join::Always || self.join != Join::Always {
                return Err(ParseError::Unexpected(op));
            }
        } else {
            self.commands.push(Command {
                join: self.join,
                words: std::mem::take(&mut self.words),
            });
        }
        self.join = next;
        Ok(())
    }

    /// The commands, at the end of the script.
    fn finish(mut self) -> Result<Vec<Command>, ParseError> {
        self.end_word();
        if self.words.is_empty() && self.join != Join::Always {
            return Err(ParseError::Unexpected("end of input"));
        }
        if !self.words.is_empty() {
            self.commands.push(Command {
                join: self.join,
                words: self.words,
            });
        }
        Ok(self.commands)
    }
}

/// The operator that starts with `c` (a newline, `;`, `&&` or `||`): how the next command
/// joins, and its text for errors.
fn operator(c: char, chars: &mut Chars) -> Result<(Join, &'static str), ParseError> {
    Ok(match c {
        '&' if chars.peek() == Some(&'&') => {
            chars.next();
            (Join::And, "&&")
        }
        '|' if chars.peek() == Some(&'|') => {
            chars.next();
            (Join::Or, "||")
        }
        '&' | '|' => return Err(ParseError::Unsupported(c)),
        '\n' => (Join::Always, "newline"),
        _ => (Join::Always, ";"),
    })
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// The rest of a `'...'` (after its opening quote) into `w`: every character as it is.
fn single_quoted(chars: &mut Chars, w: &mut Word) -> Result<(), ParseError> {
    w.0.push(Part::Text(String::new()));
    loop {
        match chars.next() {
            None => return Err(ParseError::Unterminated),
            Some('\'') => return Ok(()),
            Some(c) => w.push_char(c),
        }
    }
}

/// The rest of a `"..."` (after its opening quote) into `w`: backslash escapes `"`, `\`, `$`,
/// `` ` `` and a newline; `$?` and `$$` expand.
fn double_quoted(chars: &mut Chars, w: &mut Word) -> Result<(), ParseError> {
    w.0.push(Part::Text(String::new()));
    loop {
        match chars.next() {
            None => return Err(ParseError::Unterminated),
            Some('"') => return Ok(()),
            Some('\\') => match chars.next() {
                None => return Err(ParseError::Unterminated),
                Some(e @ ('"' | '\\' | '$' | '`')) => w.push_char(e),
                Some('\n') => {}
                Some(other) => {
                    w.push_char('\\');
                    w.push_char(other);
                }
            },
            Some('$') if matches!(chars.peek(), Some('?' | '$')) => {
                w.0.push(special(chars.next()));
            }
            Some(c) => w.push_char(c),
        }
    }
}

/// The parameter after a `$`: `?` or `$`.
fn special(c: Option<char>) -> Part {
    match c {
        Some('$') => Part::Pid,
        _ => Part::Status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(script: &str) -> Vec<(Join, Vec<String>)> {
        parse(script)
            .unwrap()
            .into_iter()
            .map(|c| (c.join, c.words.iter().map(|w| w.expand(7, 42)).collect()))
            .collect()
    }

    fn v(words: &[&str]) -> Vec<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_and_lists() {
        assert_eq!(
            texts("input tap 1 2; echo rc=$?"),
            vec![
                (Join::Always, v(&["input", "tap", "1", "2"])),
                (Join::Always, v(&["echo", "rc=7"]))
            ]
        );
        assert_eq!(
            texts("a && b || c\nd;"),
            vec![
                (Join::Always, v(&["a"])),
                (Join::And, v(&["b"])),
                (Join::Or, v(&["c"])),
                (Join::Always, v(&["d"]))
            ]
        );
        assert_eq!(texts(""), vec![]);
        assert_eq!(texts(" ;; \n\n"), vec![]);
        assert_eq!(
            texts("echo hi # comment"),
            vec![(Join::Always, v(&["echo", "hi"]))]
        );
    }

    #[test]
    fn quotes() {
        assert_eq!(
            texts(r#"echo 'a b;$?' "c $? \"d\"" e\ f '' pid:$$ "$$""#),
            vec![(
                Join::Always,
                v(&["echo", "a b;$?", "c 7 \"d\"", "e f", "", "pid:42", "42"])
            )]
        );
        assert_eq!(
            texts("echo a'b'\"c\""),
            vec![(Join::Always, v(&["echo", "abc"]))]
        );
    }

    #[test]
    fn errors() {
        assert_eq!(parse("echo 'abc"), Err(ParseError::Unterminated));
        assert_eq!(parse("echo \"abc"), Err(ParseError::Unterminated));
        assert_eq!(parse("&& echo"), Err(ParseError::Unexpected("&&")));
        assert_eq!(
            parse("echo &&"),
            Err(ParseError::Unexpected("end of input"))
        );
        assert_eq!(parse("echo a | cat"), Err(ParseError::Unsupported('|')));
        assert_eq!(parse("echo a > f"), Err(ParseError::Unsupported('>')));
    }
}
