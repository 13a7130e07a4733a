//! The phone's log buffers: the lines the system writes where the project's commands meet it
//! (a refused injection, a class `app_process` cannot find); `super::logcat` reads them.

use std::sync::Mutex;
use std::time::SystemTime;

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
    /// The name `logcat -b` takes.
    pub fn name(self) -> &'static str {
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

    /// The lines, oldest first, each with when it was written.
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(SystemTime, Entry)>> {
        self.lines.lock().unwrap_or_else(|e| e.into_inner())
    }
}
