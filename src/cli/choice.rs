//! The command line's names for the library's enums. The library's types know nothing of
//! clap: each is listed here once, with its name on the command line and its help, and
//! [`choice`] turns the list into a clap value parser.

use autoplay_sim::app::hazards::LockScreen;
use autoplay_sim::app::rules::{
    BrushRetap, CompletionCheck, EndForm, EraseRule, FinishedKeyLook, InputOrder, Language,
    Mistakes, Retap, Rule, SameDigitAgain, SelectionAfterEntry,
};
use autoplay_sim::app::{KeypadStyle, Theme};
use autoplay_sim::timing::TimingMode;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use sudoku_autoplay::calibration::InputMode;
use sudoku_autoplay::device::tap::ChannelKind;
use sudoku_autoplay::solver::Strategy;

/// A library enum as the command line offers it.
pub trait Choice: Copy + PartialEq + Send + Sync + 'static {
    /// Every value: the value, its name, its help.
    const ALL: &'static [(Self, &'static str, &'static str)];
}

/// A clap value parser for `T`: its names (with their help in `--help`), mapped to its values.
pub fn choice<T: Choice>() -> impl TypedValueParser<Value = T> {
    let names = T::ALL
        .iter()
        .map(|&(_, name, help)| PossibleValue::new(name).help(help));
    PossibleValuesParser::new(names).map(|name: String| {
        let found = T::ALL.iter().find(|(_, n, _)| *n == name);
        // The parser above has already refused any other name.
        found.map_or(T::ALL[0].0, |&(value, _, _)| value)
    })
}

/// The command line's name of `value`.
pub fn name<T: Choice>(value: T) -> &'static str {
    T::ALL
        .iter()
        .find(|(v, _, _)| *v == value)
        .map_or("?", |&(_, n, _)| n)
}

impl Choice for Strategy {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            Strategy::RowMajor,
            "rowmajor",
            "The article's backtracker: empty cells in row-major order, digits 1..9 ascending",
        ),
        (
            Strategy::Mrv,
            "mrv",
            "Minimum remaining values: the first cell (row-major) with the fewest candidates, recomputed after every placement",
        ),
        (
            Strategy::Static,
            "static",
            "Cells ordered once by their initial candidate count (ties row-major), then plain backtracking",
        ),
        (
            Strategy::Fast,
            "fast",
            "The fastest solver: bitboards, singles, locked candidates, triads (fills the solution directly)",
        ),
    ];
}

impl Choice for ChannelKind {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            ChannelKind::Input,
            "input",
            "`input tap X Y` lines in one persistent shell (works everywhere)",
        ),
        (
            ChannelKind::Events,
            "events",
            "`sendevent` lines to the touch panel (needs a writable panel)",
        ),
        (
            ChannelKind::Raw,
            "raw",
            "Binary touch records streamed into the touch panel by one `dd` (needs a writable panel)",
        ),
        (
            ChannelKind::Inject,
            "inject",
            "Binary tap records to one long-lived `app_process` injector (Android 10+ without root)",
        ),
    ];
}

impl Choice for InputMode {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            InputMode::CellFirst,
            "cell-first",
            "Tap the cell, then the digit (most apps)",
        ),
        (
            InputMode::DigitFirst,
            "digit-first",
            "Tap the digit, then the cell(s)",
        ),
        (
            InputMode::Both,
            "both",
            "Cell-first, but a digit with no cell selected arms a brush (played cell-first)",
        ),
    ];
}

impl Choice for TimingMode {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            TimingMode::Instant,
            "instant",
            "Everything is free: commands, screenshots and the app's UI time (fast tests)",
        ),
        (
            TimingMode::Phone,
            "phone",
            "Costs what the profile's phone costs (the timing table of docs/simulated-phone.md)",
        ),
    ];
}

impl Choice for Theme {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (Theme::Light, "light", "Dark digits on a light board"),
        (Theme::Dark, "dark", "Light digits on a dark board"),
    ];
}

impl Choice for KeypadStyle {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (KeypadStyle::Row, "row", "One row of 1..9 with erase below"),
        (
            KeypadStyle::TwoRows,
            "two-rows",
            "Two rows of five with erase (like OpenSudoku)",
        ),
        (
            KeypadStyle::Grid,
            "grid",
            "A 3x3 grid on a panel with erase beside it",
        ),
    ];
}

impl Choice for LockScreen {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            LockScreen::None,
            "none",
            "No lock screen: waking up shows the app again",
        ),
        (
            LockScreen::Swipe,
            "swipe",
            "A plain lock screen: a swipe up unlocks",
        ),
        (
            LockScreen::Pin,
            "pin",
            "A secured lock screen: a swipe up asks for the PIN",
        ),
    ];
}

/// The simulated app's input rules carry their own names and help ([`Rule`]).
macro_rules! rule_choices {
    ($($t:ty),*) => {
        $(impl Choice for $t {
            const ALL: &'static [(Self, &'static str, &'static str)] = <$t as Rule>::OPTIONS;
        })*
    };
}

rule_choices!(
    InputOrder,
    Retap,
    BrushRetap,
    SelectionAfterEntry,
    SameDigitAgain,
    CompletionCheck,
    EraseRule,
    Mistakes,
    EndForm,
    Language,
    FinishedKeyLook
);

#[cfg(test)]
mod tests {
    use super::*;

    fn parse<T: Choice>(s: &str) -> Result<T, clap::Error> {
        let cmd = clap::Command::new("t");
        choice::<T>().parse_ref(&cmd, None, std::ffi::OsStr::new(s))
    }

    #[test]
    fn names_map_to_values_and_back() {
        assert_eq!(parse::<Strategy>("rowmajor").unwrap(), Strategy::RowMajor);
        assert_eq!(
            parse::<InputMode>("digit-first").unwrap(),
            InputMode::DigitFirst
        );
        assert_eq!(
            parse::<KeypadStyle>("two-rows").unwrap(),
            KeypadStyle::TwoRows
        );
        assert!(parse::<Strategy>("RowMajor").is_err());
        assert_eq!(name(ChannelKind::Raw), "raw");
        // Every value is listed once.
        fn distinct<T: Choice>() {
            for (i, a) in T::ALL.iter().enumerate() {
                assert!(T::ALL[..i].iter().all(|b| b.0 != a.0 && b.1 != a.1));
            }
        }
        distinct::<Strategy>();
        distinct::<ChannelKind>();
        distinct::<InputMode>();
        distinct::<TimingMode>();
        distinct::<Theme>();
        distinct::<KeypadStyle>();
        distinct::<LockScreen>();
        assert_eq!(Strategy::ALL.len(), <Strategy as Choice>::ALL.len());
    }
}
