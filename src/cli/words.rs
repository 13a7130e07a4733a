//! The library's reasons in the command line's words: the library returns them as data (stop
//! reasons, stall hints, refusals, what to check in a calibration, and the [`Remedy`]s it names)
//! and knows nothing of the command line; this words them with `autoplay`'s own flags and
//! commands. [`error_text`] says an error's chain with each typed reason worded here.

use sudoku_autoplay::calibration::Check;
use sudoku_autoplay::remedy::{Advised, Remedy};

/// What to do, as this command line offers it.
pub fn remedy(r: Remedy) -> String {
    match r {
        Remedy::RightDigitsOnly => {
            "play with --strategy fast (it writes only right digits and takes none back)".into()
        }
        Remedy::FirstSteps(Some(n)) => format!(
            "--max-visible-steps {n} (only the steps before the wrong digit that would end it)"
        ),
        Remedy::FirstSteps(None) => {
            "--max-visible-steps N to show only the search's first steps".into()
        }
        Remedy::CalibratePhone => {
            "open the Sudoku app's game screen on the phone and run `autoplay calibrate -s SERIAL`"
                .into()
        }
        Remedy::CalibrationFile => "pass --calibration FILE".into(),
        Remedy::CalibrateScreenshot => {
            "recalibrate on this device (`autoplay calibrate --screenshot FILE`)".into()
        }
        Remedy::CalibrateKeys => "give the keys with `autoplay calibrate --keys`".into(),
        Remedy::CalibrateErase => "confirm with `autoplay calibrate --erase toggle` where tapping \
             the digit again clears it; where the app has an erase key, pass its centre as \
             `--erase X,Y`"
            .into(),
        Remedy::CalibrateNavigation => "make the calibration again with `autoplay calibrate \
             --am-start 'am start -n PACKAGE/ACTIVITY --ei level {level}'` (if the app opens a \
             level from an intent) or `--level-list WORDS` (if its level list's buttons say their \
             numbers: the words of the buttons that open the list), or add a `[navigation]` \
             section of kind \"taps\", \"level-grid\" or \"level-list\" to the file (README: \
             \"Opening levels\")"
            .into(),
        Remedy::PlayOpenLevel => {
            "drop --level to play the level that is open on the phone (recorded as level unknown)"
                .into()
        }
        Remedy::Resume => "then `autoplay resume`".into(),
        Remedy::Doctor => "check the touch panel and tap channel `autoplay doctor` reports".into(),
        Remedy::InputChannel => "try `--input input`".into(),
        Remedy::LongerReconnect => "--reconnect-timeout".into(),
        Remedy::MoreSteps => "--max-steps".into(),
        Remedy::Demo => "try `autoplay demo` without a phone".into(),
        Remedy::Verbose => "`autoplay -v` logs every repair".into(),
    }
}

/// `: A, or B` (nothing without remedies).
pub fn remedies(rs: &[Remedy]) -> String {
    if rs.is_empty() {
        return String::new();
    }
    let words: Vec<String> = rs.iter().map(|&r| remedy(r)).collect();
    format!(": {}", words.join(", or "))
}

/// A calibration's check, with what to pass.
pub fn check(c: &Check) -> String {
    match c {
        Check::EraseGuessed { .. } => format!("{c}{}", remedies(&c.remedies())),
        Check::Keypad(_) => c.to_string(),
    }
}

/// One error of a chain, in these words where it is a typed reason.
pub fn cause(e: &(dyn std::error::Error + 'static)) -> String {
    if let Some(a) = e.downcast_ref::<Advised>() {
        return format!("{}{}", a.message, remedies(&a.remedies));
    }
    e.to_string()
}

/// An error and its causes, `: `-separated, each cause said once (a message that already
/// includes its source's text is not followed by it again).
pub fn error_text(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut plain: Vec<String> = Vec::new();
    for c in e.chain() {
        let text = c.to_string();
        if !plain.iter().any(|p| p.contains(&text)) {
            parts.push(cause(c));
        }
        plain.push(text);
    }
    parts.join(": ")
}
