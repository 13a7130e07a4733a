//! A tiny line discipline for interactive shells opened with a pty (`adb shell` from a
//! terminal): echoes what is typed, turns Enter (`\r`) into a line, handles backspace,
//! Ctrl-C and Ctrl-D, and writes `\r\n` for `\n` like a terminal in cooked mode ([`crlf`], applied
//! to the echo too).

/// Longest line the editor keeps; further typing is ignored until Enter.
const MAX_LINE: usize = 64 * 1024;

/// What a chunk of typed bytes produced.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Typed {
    /// Bytes to send back (the echo).
    pub echo: Vec<u8>,
    /// Completed lines, each ending in `\n`.
    pub lines: Vec<String>,
    /// Ctrl-D on an empty line: end of input.
    pub eof: bool,
}

/// The line being edited.
#[derive(Debug, Default)]
pub struct LineEditor {
    line: Vec<u8>,
}

impl LineEditor {
    /// Feeds typed bytes.
    pub fn feed(&mut self, bytes: &[u8]) -> Typed {
        let mut t = Typed::default();
        for &b in bytes {
            match b {
                b'\r' | b'\n' => {
                    t.echo.push(b'\n');
                    self.line.push(b'\n');
                    t.lines.push(
                        String::from_utf8_lossy(&std::mem::take(&mut self.line)).into_owned(),
                    );
                }
                0x7f | 0x08 => {
                    if self.line.pop().is_some() {
                        t.echo.extend_from_slice(b"\x08 \x08");
                    }
                }
                0x03 => {
                    self.line.clear();
                    t.echo.extend_from_slice(b"^C\n");
                    t.lines.push(String::new());
                }
                0x04 if self.line.is_empty() => {
                    t.eof = true;
                    return t;
                }
                0x04 => {}
                _ if self.line.len() >= MAX_LINE => {}
                _ => {
                    self.line.push(b);
                    t.echo.push(b);
                }
            }
        }
        t
    }
}

/// Converts `\n` to `\r\n` for a terminal.
pub fn crlf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 16);
    for &b in bytes {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editing() {
        let mut e = LineEditor::default();
        let t = e.feed(b"echo hx\x7fi\r");
        assert_eq!(t.lines, vec!["echo hi\n".to_string()]);
        assert_eq!(crlf(&t.echo), b"echo hx\x08 \x08i\r\n");
        let t = e.feed(b"abc\x03");
        assert_eq!(t.lines, vec![String::new()]);
        assert!(e.feed(b"\x04").eof);
        assert_eq!(crlf(b"a\nb\n"), b"a\r\nb\r\n");
    }
}
