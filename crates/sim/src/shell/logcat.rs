//! The phone's log (`logcat`): the lines the system writes where the project's commands meet
//! it (a refused injection, a class `app_process` cannot find), in logcat's default
//! `threadtime` format, and `logcat -d` / `-c` to read and clear it. Streaming (`logcat`
//! without `-d`) is not simulated.

use super::device::Handset;
use super::output::Output;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// system_server's process id, and its input dispatcher's and a binder thread's ids.
pub const SYSTEM_SERVER: u32 = 1523;
pub const INPUT_DISPATCHER_TID: u32 = 1601;
pub const BINDER_TID: u32 = 2310;

/// Which buffer a line is in (`logcat -b`): native code logs to main, system_server's Java
/// code (`Slog`) to system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Buffer {
    Main,
    System,
}

impl Buffer {
    fn name(self) -> &'static str {
        match self {
            Buffer::Main => "main",
            Buffer::System => "system",
        }
    }
}

/// One log line.
#[derive(Debug, Clone)]
pub struct Entry {
    pub buffer: Buffer,
    pub pid: u32,
    pub tid: u32,
    /// `V`, `D`, `I`, `W`, `E`, `F`.
    pub priority: char,
    pub tag: &'static str,
    pub message: String,
}

/// The log buffers.
#[derive(Debug, Default)]
pub struct Log {
    lines: Mutex<Vec<(SystemTime, Entry)>>,
}

impl Log {
    /// Appends a line, stamped now.
    pub fn write(&self, entry: Entry) {
        self.lock().push((SystemTime::now(), entry));
    }

    /// Every line's message with its tag (`TAG: message`), oldest first.
    pub fn messages(&self) -> Vec<String> {
        self.lock()
            .iter()
            .map(|(_, e)| format!("{}: {}", e.tag, e.message))
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(SystemTime, Entry)>> {
        self.lines.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `logcat -d` (dump and exit), `logcat -c` (clear); filter specs and `-v threadtime` are
/// taken and ignored.
pub fn logcat(device: &Handset, args: &[String], out: &mut Output) -> i32 {
    let flag = |f: &str| args.iter().any(|a| a == f);
    if flag("-c") {
        device.log().lock().clear();
        return 0;
    }
    if !flag("-d") {
        out.err(
            "logcat: streaming the log is not supported by this simulated phone; use logcat -d\n",
        );
        return 1;
    }
    let mut shown: Vec<Buffer> = Vec::new();
    let mut text = String::new();
    for (at, e) in device.log().lock().iter() {
        if !shown.contains(&e.buffer) {
            shown.push(e.buffer);
            text.push_str(&format!("--------- beginning of {}\n", e.buffer.name()));
        }
        text.push_str(&format!(
            "{} {:5} {:5} {} {:<8}: {}\n",
            timestamp(*at),
            e.pid,
            e.tid,
            e.priority,
            e.tag,
            e.message
        ));
    }
    out.out(text);
    0
}

/// `MM-DD HH:MM:SS.mmm` in UTC, as `threadtime` prints it.
fn timestamp(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a month and day (Howard Hinnant's civil_from_days).
    let z = days as i64 + 719_468;
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    format!(
        "{month:02}-{day:02} {:02}:{:02}:{:02}.{:03}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_threadtimes() {
        // 2024-02-29 13:05:09.250 UTC.
        let at = UNIX_EPOCH + Duration::from_millis(1_709_211_909_250);
        assert_eq!(timestamp(at), "02-29 13:05:09.250");
        assert_eq!(timestamp(UNIX_EPOCH), "01-01 00:00:00.000");
    }
}
