//! `logcat`: the phone's log (`super::log`) in logcat's default `threadtime` format, `-d` to
//! dump it and `-c` to clear it. Streaming (`logcat` without `-d`) is not simulated.

use super::device::Handset;
use super::log::Buffer;
use super::output::Output;
use std::time::{SystemTime, UNIX_EPOCH};

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
