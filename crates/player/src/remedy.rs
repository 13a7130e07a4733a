//! What a person can do about a failure, where the command line offers it (a flag, a command):
//! the library names it as data ([`Remedy`]) and knows nothing of the command line; the
//! `autoplay` binary words each remedy with its own flags and commands (`src/cli/explain.rs`).
//! The library's own `Display` says them in plain words, for logs and for other callers.
//!
//! The errors that carry remedies: [`Advised`] (a message and its remedies), and the typed
//! reasons whose remedies follow from their fields (`play::stop::Stop`, `play::Stalled`,
//! `play::forbidden::Forbidden`, `calibration::lookup::LookupError`, ...), each with a
//! `remedies()`.

use std::fmt;

/// Something the person can do, that the command line offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Remedy {
    /// Play the search that writes only right digits and takes none back (`fast`).
    RightDigitsOnly,
    /// Show only the search's first steps: at most `Some(n)` fit; `None`, a number of the
    /// person's choice.
    FirstSteps(Option<usize>),
    /// Make a calibration on the phone, its game screen open.
    CalibratePhone,
    /// Name the calibration file to use.
    CalibrationFile,
    /// Make a calibration from a screenshot of this device as it is held now.
    CalibrateScreenshot,
    /// Give calibrate the number pad's keys.
    CalibrateKeys,
    /// Give calibrate the erase key, or tell it that the digit again clears a cell.
    CalibrateErase,
    /// Give calibrate a way to open levels (an intent, or the words of the level list's
    /// buttons).
    CalibrateNavigation,
    /// Play the level that is open instead of opening one by its number.
    PlayOpenLevel,
    /// Continue the run from its session once the phone is set right.
    Resume,
    /// See what the player concludes about the phone's touch panel and tap channels.
    Doctor,
    /// Tap through `input tap` (the channel every phone takes).
    InputChannel,
    /// Wait longer for a phone whose link was lost.
    LongerReconnect,
    /// Let the search take more steps.
    MoreSteps,
    /// Watch the simulated phone play, without a phone.
    Demo,
    /// Log every repair and what the player decided.
    Verbose,
    /// Play again with the phone's screen recorded.
    Record,
}

impl fmt::Display for Remedy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Remedy::RightDigitsOnly => {
                f.write_str("play the fast search (it writes only right digits and takes none back)")
            }
            Remedy::FirstSteps(Some(n)) => write!(
                f,
                "show only the search's first {n} steps (the steps before the wrong digit that would end it)"
            ),
            Remedy::FirstSteps(None) => f.write_str("show only the search's first steps"),
            Remedy::CalibratePhone => {
                f.write_str("calibrate the phone with the app's game screen open")
            }
            Remedy::CalibrationFile => f.write_str("name a calibration file"),
            Remedy::CalibrateScreenshot => {
                f.write_str("calibrate again from a screenshot of this device")
            }
            Remedy::CalibrateKeys => f.write_str("give calibrate the keys' centres"),
            Remedy::CalibrateErase => f.write_str(
                "give calibrate the erase key, or tell it that tapping the digit again clears a cell",
            ),
            Remedy::CalibrateNavigation => {
                f.write_str("give calibrate a way to open levels, or add [navigation] to the file")
            }
            Remedy::PlayOpenLevel => f.write_str(
                "play the level that is open on the phone instead (recorded as level unknown)",
            ),
            Remedy::Resume => f.write_str("then resume the run"),
            Remedy::Doctor => {
                f.write_str("check the touch panel and tap channel the player finds on the phone")
            }
            Remedy::InputChannel => f.write_str("try the `input tap` channel"),
            Remedy::LongerReconnect => f.write_str("wait longer for the phone"),
            Remedy::MoreSteps => f.write_str("let the search take more steps"),
            Remedy::Demo => f.write_str("watch the simulated phone play, without a phone"),
            Remedy::Verbose => f.write_str("log every repair"),
            Remedy::Record => f.write_str("play it again with the phone's screen recorded"),
        }
    }
}

/// A failure, and what the person can do about it (and the error that caused it, if any).
#[derive(Debug, thiserror::Error)]
#[error("{message}{}", plain(remedies))]
pub struct Advised {
    /// What went wrong (and what to do that the command line does not offer).
    pub message: String,
    /// What to do through the command line, any one of them.
    pub remedies: Vec<Remedy>,
    #[source]
    pub source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

impl Advised {
    pub fn new(message: impl Into<String>, remedies: &[Remedy]) -> Advised {
        Advised {
            message: message.into(),
            remedies: remedies.to_vec(),
            source: None,
        }
    }

    /// The same, caused by `source`.
    pub fn because(
        mut self,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Advised {
        self.source = Some(source.into());
        self
    }
}

/// `: A, or B` in the library's plain words (nothing when there is no remedy).
pub fn plain(remedies: &[Remedy]) -> String {
    if remedies.is_empty() {
        return String::new();
    }
    let words: Vec<String> = remedies.iter().map(Remedy::to_string).collect();
    format!(": {}", words.join(", or "))
}
