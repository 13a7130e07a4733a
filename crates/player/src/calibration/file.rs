//! Reading a calibration file: size limit, TOML parsing with positions, cross-field checks.

use super::{Calibration, CalibrationError, Navigation, decode_glyph};
use crate::vision::glyph::LEN;
use std::path::Path;

/// Largest calibration file accepted, in bytes.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

impl Calibration {
    /// Loads and checks a calibration file.
    pub fn load(path: &Path) -> Result<Calibration, CalibrationError> {
        let io = |source| CalibrationError::Io {
            file: path.to_path_buf(),
            source,
        };
        let len = std::fs::metadata(path).map_err(io)?.len();
        if len > MAX_FILE_BYTES {
            return Err(CalibrationError::Invalid {
                file: path.to_path_buf(),
                message: format!(
                    "{len} bytes is too big for a calibration (limit {MAX_FILE_BYTES})"
                ),
            });
        }
        let text = std::fs::read_to_string(path).map_err(io)?;
        Self::parse(&text, path)
    }

    /// Parses calibration TOML; `file` is only used in error messages.
    pub fn parse(text: &str, file: &Path) -> Result<Calibration, CalibrationError> {
        let cal: Calibration = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((1, 1), |s| line_col(text, s.start));
            CalibrationError::Parse {
                file: file.to_path_buf(),
                line,
                column,
                message: e.message().trim().to_string(),
            }
        })?;
        cal.validate()
            .map_err(|message| CalibrationError::Invalid {
                file: file.to_path_buf(),
                message,
            })?;
        Ok(cal)
    }

    /// Cross-field checks: everything on screen, the rect matching the grid lines, templates sane.
    pub fn validate(&self) -> Result<(), String> {
        let (w, h) = (self.device.width, self.device.height);
        if w == 0 || h == 0 || w > crate::capture::MAX_SIDE || h > crate::capture::MAX_SIDE {
            return Err(format!("[device] size {w}x{h} is not a screen size"));
        }
        self.geometry()
            .check(w, h)
            .map_err(|e| format!("[board] {e}"))?;
        let g = self.geometry();
        if g.rect() != self.board.rect {
            return Err(format!(
                "[board] rect {:?} does not match the outer cols/rows {:?}",
                self.board.rect,
                g.rect()
            ));
        }
        let on_screen = |p: [u32; 2]| p[0] < w && p[1] < h;
        if let Some(i) = self.keypad.digits.iter().position(|&p| !on_screen(p)) {
            return Err(format!(
                "[keypad] digit {} at {:?} is off the {w}x{h} screen",
                i + 1,
                self.keypad.digits[i]
            ));
        }
        if let Some(p) = self.keypad.erase.point()
            && !on_screen(p)
        {
            return Err(format!("[keypad] erase {p:?} is off the {w}x{h} screen"));
        }
        if let Some(Navigation::AmStart { command }) = &self.navigation {
            check_am_start(command)?;
        }
        if let Some(package) = self.package() {
            check_package(package)?;
        }
        for t in &self.templates {
            if !(1..=9).contains(&t.digit) {
                return Err(format!("[[templates]] digit {} is not 1..9", t.digit));
            }
            if decode_glyph(&t.data).is_none() {
                return Err(format!(
                    "[[templates]] digit {}: data is not base64 of {LEN} grey levels",
                    t.digit
                ));
            }
        }
        Ok(())
    }
}

/// Checks `[app] package`: a Java package name as Android takes it (dot-separated parts of
/// letters, digits and `_`, each starting with a letter; `PackageParser.validateName`), which
/// also makes it safe in a file name and a `monkey -p` command.
fn check_package(package: &str) -> Result<(), String> {
    let part = |p: &str| {
        p.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let parts: Vec<&str> = package.split('.').collect();
    if package.len() > 255 || parts.len() < 2 || !parts.iter().all(|p| part(p)) {
        return Err(format!(
            "[app] package {package:?} is not a package name (such as org.example.sudoku)"
        ));
    }
    Ok(())
}

/// Longest accepted `[navigation]` am-start command.
const MAX_COMMAND_LEN: usize = 512;

/// Checks an am-start template before it can reach the device shell: it must contain `{level}`
/// and, apart from that placeholder, only letters, digits, spaces and `/._-=:,+%@` (the last
/// ones for deep links such as `am start -a android.intent.action.VIEW -d sudoku://level/{level}`;
/// no quotes, `;`, `$`, `&`, `|`, `?`, `#`, `~`, backquotes or newlines that a shell would
/// interpret).
fn check_am_start(command: &str) -> Result<(), String> {
    if !command.contains("{level}") {
        return Err("[navigation] command must contain {level}".into());
    }
    if command.len() > MAX_COMMAND_LEN {
        return Err(format!(
            "[navigation] command is {} bytes long (limit {MAX_COMMAND_LEN})",
            command.len()
        ));
    }
    let safe = |c: char| c.is_ascii_alphanumeric() || " /._-=:,+%@".contains(c);
    if let Some(bad) = command.replace("{level}", "").chars().find(|&c| !safe(c)) {
        return Err(format!(
            "[navigation] command contains {bad:?}, which the device shell would interpret: \
             use only letters, digits, spaces, `/._-=:,+%@` and the {{level}} placeholder"
        ));
    }
    Ok(())
}

fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
