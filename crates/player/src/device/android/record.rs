//! `screenrecord` on a long-lived `exec:` stream: the phone's screen as raw H.264 (Annex B),
//! a frame whenever the screen changes, until its time limit (180 s at most) or until the stream
//! is closed (adbd then hangs the process up and it stops). `--output-format=h264` to stdout
//! exists since Android 5.0 (4.4 wrote files only).

use crate::device::{Device, DeviceError};
use std::io::Write;
use std::sync::mpsc;
use std::time::Duration;

/// The longest one `screenrecord` runs (`kMaxTimeLimitSec`).
pub const MAX_RECORDING: Duration = Duration::from_secs(180);

/// The command line of one recording of at most `limit` (whole seconds, 1 to 180) at
/// `bit_rate` bits per second, raw H.264 on stdout.
pub fn screenrecord_line(limit: Duration, bit_rate: u32) -> String {
    let secs = limit.as_secs().clamp(1, MAX_RECORDING.as_secs());
    format!("screenrecord --output-format=h264 --bit-rate {bit_rate} --time-limit {secs} -")
}

/// What the phone printed instead of a video (`/system/bin/sh: screenrecord: not found`,
/// `ERROR: unable to create video/avc codec instance`, ...): its first line, or `None` where
/// the bytes start as an H.264 stream does (a start code).
pub fn refusal(head: &[u8]) -> Option<String> {
    if head.is_empty() || head.starts_with(&[0, 0, 0, 1]) || head.starts_with(&[0, 0, 1]) {
        return None;
    }
    let text = String::from_utf8_lossy(head);
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    Some(line.chars().take(200).collect())
}

impl Device {
    /// Starts one recording ([`screenrecord_line`]) on a thread of its own: the video goes to
    /// `output`, which is dropped when the recording ends. Dropping the returned sender closes
    /// the stream at once, which stops the recording. If it cannot start, `failed` gets the
    /// error; `None`: the thread could not start.
    pub fn screenrecord(
        &self,
        limit: Duration,
        bit_rate: u32,
        output: Box<dyn Write + Send>,
        failed: impl FnOnce(DeviceError) + Send + 'static,
    ) -> Option<mpsc::Sender<Vec<u8>>> {
        let service = format!("exec:{}", screenrecord_line(limit, bit_rate));
        self.stream_on_thread_lingering("screenrecord", service, output, failed, Duration::ZERO)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_and_what_a_phone_says_instead_of_a_video() {
        assert_eq!(
            screenrecord_line(Duration::from_secs(600), 4_000_000),
            "screenrecord --output-format=h264 --bit-rate 4000000 --time-limit 180 -"
        );
        assert_eq!(refusal(&[0, 0, 0, 1, 0x67]), None);
        assert_eq!(
            refusal(b"/system/bin/sh: screenrecord: not found\n").as_deref(),
            Some("/system/bin/sh: screenrecord: not found")
        );
        assert_eq!(refusal(b""), None);
    }
}
