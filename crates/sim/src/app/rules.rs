//! How the app takes taps: the rule classes real Sudoku apps follow (read from their source code,
//! `../shared/real-apps/BEHAVIOUR.md`, "Behaviour classes seen across real apps"), one field of
//! [`InputRules`] per class. The default is the app's own behaviour (cell-first, a re-tapped
//! cell stays selected, the same digit again is entered again, the erase key clears, mistakes
//! counted against the solution, English dialogs). `autoplay sim` sets them one by one or by a
//! [`Preset`] named by what it does.
//!
//! The rules only decide what a tap means; `super::model` applies them, `super::render` and
//! `super::a11y` show their results (the brush, greyed or re-flowed keys, the end screens in
//! their language).
//!
//! The app's rules and what the player learns of them (`sudoku_autoplay::calibration`): a
//! re-tapped cell and a re-tapped brush are the same types on both sides ([`Retap`],
//! [`BrushRetap`]). The other three differ, and are named apart: [`SelectionAfterEntry`] is the
//! calibration's `AfterEntry` without `unknown` (the player's word for a screen that does not
//! show the selection); [`SameDigitAgain`] adds `reenter`, which the calibration records as
//! `nothing` (both leave the digit: the player does not tell them apart), and the calibration's
//! `SameDigit` is absent where the probe did not try; [`FinishedKeyLook`] is how a finished
//! digit's key looks (shown, hidden, greyed, removed), where the calibration records only
//! whether the keys stay in place or re-flow (`FinishedKeys::{Stay, Reflow}`), all a tap needs.

use std::time::Duration;

/// One rule's values with their names (`dumpsys`, the command line) and help.
pub trait Rule: Copy + PartialEq + 'static {
    const OPTIONS: &'static [(Self, &'static str, &'static str)];

    /// The name `dumpsys` and the command line use.
    fn name(self) -> &'static str {
        Self::OPTIONS
            .iter()
            .find(|(v, _, _)| *v == self)
            .map_or("?", |&(_, n, _)| n)
    }
}

/// Which comes first, the cell or the digit (classes 3 and 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InputOrder {
    /// Tap a cell, then a digit; a digit with no cell selected does nothing.
    #[default]
    CellFirst,
    /// Digit-first only: a digit key arms a brush, cell taps write it; no brush at start.
    DigitFirst,
    /// Digit-first only, with the brush on 1 when a game opens.
    DigitFirstArmed,
    /// Both: a digit with a cell selected goes into it; a digit key with no cell selected arms a
    /// brush, and cell taps then write it.
    Both,
}

impl Rule for InputOrder {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (
            InputOrder::CellFirst,
            "cell-first",
            "tap the cell, then the digit; a digit with no cell selected does nothing",
        ),
        (
            InputOrder::DigitFirst,
            "digit-first",
            "digit-first only: a digit key arms a brush, each cell tap writes it (no brush at start)",
        ),
        (
            InputOrder::DigitFirstArmed,
            "digit-first-armed",
            "digit-first only, the brush on 1 when a game opens",
        ),
        (
            InputOrder::Both,
            "both",
            "cell-first, but a digit key with no cell selected arms a digit-first brush",
        ),
    ];
}

/// A tap on the cell that is already selected (class 1): it stays selected, is deselected, or
/// pencil mode is toggled (digits then toggle pencil marks in the selected empty cell). And a
/// tap on the digit key that is the active brush (class 1): the brush stays, or is dropped.
/// The player's calibration records these two as they are: the same types.
pub use sudoku_autoplay::calibration::{BrushRetap, Retap};

impl Rule for Retap {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (Retap::Nothing, "nothing", "the cell stays selected"),
        (Retap::Deselect, "deselect", "the cell is deselected"),
        (
            Retap::Pencil,
            "pencil",
            "pencil mode is toggled (digits then toggle pencil marks)",
        ),
    ];
}

impl Rule for BrushRetap {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (BrushRetap::Nothing, "nothing", "the brush stays"),
        (BrushRetap::Clear, "clear", "the brush is dropped"),
    ];
}

/// The selection after a digit went into a cell (class 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SelectionAfterEntry {
    #[default]
    Keep,
    /// Cleared: every entry must select its cell again.
    Clear,
}

impl Rule for SelectionAfterEntry {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (SelectionAfterEntry::Keep, "keep", "the cell stays selected"),
        (
            SelectionAfterEntry::Clear,
            "clear",
            "the selection is cleared after every entry",
        ),
    ];
}

/// The digit a cell already holds, tapped again (classes 6 and 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SameDigitAgain {
    /// Entered again (a wrong digit counts as a mistake again).
    Reenter,
    /// Nothing happens.
    Nothing,
    /// The cell is cleared.
    Clear,
    /// The cell is cleared [`CLEAR_LATE`] after the tap, whatever it holds by then.
    ClearLate,
}

/// How late [`SameDigitAgain::ClearLate`] clears (one real app: 190 ms).
pub const CLEAR_LATE: Duration = Duration::from_millis(190);

impl Rule for SameDigitAgain {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (
            SameDigitAgain::Reenter,
            "reenter",
            "entered again (a wrong one counts as a mistake again)",
        ),
        (SameDigitAgain::Nothing, "nothing", "nothing happens"),
        (SameDigitAgain::Clear, "clear", "the cell is cleared"),
        (
            SameDigitAgain::ClearLate,
            "clear-late",
            "the cell is cleared 190 ms later, whatever it holds by then",
        ),
    ];
}

/// The erase key (class 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EraseRule {
    /// It clears the selected cell (digit-first: it arms an eraser brush).
    #[default]
    Clears,
    /// There is none (the style's is not drawn).
    Absent,
    /// It is drawn and does nothing.
    Inert,
}

impl Rule for EraseRule {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (
            EraseRule::Clears,
            "clears",
            "it clears the selected cell (digit-first: arms an eraser brush)",
        ),
        (
            EraseRule::Absent,
            "absent",
            "there is none (and the same digit again clears, unless --same-digit says otherwise)",
        ),
        (EraseRule::Inert, "inert", "it is drawn and does nothing"),
    ];
}

/// What counts as a mistake (class 9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mistakes {
    /// Nothing is counted (no limit can end the game).
    None,
    /// A digit that differs from the solution.
    #[default]
    Solution,
    /// A digit that repeats in its row, column or box.
    Rules,
}

impl Rule for Mistakes {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (Mistakes::None, "none", "nothing is counted"),
        (
            Mistakes::Solution,
            "solution",
            "a digit that differs from the solution counts",
        ),
        (
            Mistakes::Rules,
            "rules",
            "a digit that repeats in its row, column or box counts",
        ),
    ];
}

/// When the app takes a level as solved (class 11; issue 35's apps with levels of several
/// solutions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CompletionCheck {
    /// Any full board that keeps the rules (and the givens).
    #[default]
    Rules,
    /// The board equals the solution the app stored; entries that differ from it are drawn
    /// in red as the app's own marks (whether they count as mistakes is `Mistakes`').
    Solution,
}

impl Rule for CompletionCheck {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (
            CompletionCheck::Rules,
            "rules",
            "any full board that keeps the rules is solved",
        ),
        (
            CompletionCheck::Solution,
            "solution",
            "only the solution the app stored is; entries that differ from it are marked in red",
        ),
    ];
}

/// How the completion or the game over shows (classes 9 and 11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EndForm {
    /// A dialog card: over the solved board; over an emptied page after a game over.
    #[default]
    Dialog,
    /// A screen of its own that replaces the board: big words, buttons under them.
    Screen,
    /// A line of words under the board, which stays (the keypad gives way to it and its
    /// buttons).
    Line,
}

impl Rule for EndForm {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (
            EndForm::Dialog,
            "dialog",
            "a dialog card (over the solved board; over an emptied page after a game over)",
        ),
        (
            EndForm::Screen,
            "screen",
            "a screen of its own replacing the board",
        ),
        (
            EndForm::Line,
            "line",
            "a line of words under the board, which stays; the keypad gives way",
        ),
    ];
}

/// The language of the app's end screens and alerts (class 11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Language {
    #[default]
    English,
    /// Turkish, whatever the phone's locale (one real app's default).
    Turkish,
    /// Russian (Cyrillic script).
    Russian,
    /// Greek (Greek script).
    Greek,
    /// Each game picks one of [`RANDOM_WORDS`] (seeded): English wordings of real apps, Turkish,
    /// Russian, Greek.
    Random,
}

impl Rule for Language {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (
            Language::English,
            "english",
            "\"Level N complete\", \"Game over\"",
        ),
        (
            Language::Turkish,
            "turkish",
            "\"BAŞARILI\", \"BAŞARISIZ\" (one real app's default whatever the locale)",
        ),
        (
            Language::Russian,
            "russian",
            "\"Победа!\", \"Игра окончена\" (Cyrillic)",
        ),
        (
            Language::Greek,
            "greek",
            "\"Συγχαρητήρια!\", \"Τέλος παιχνιδιού\" (Greek script)",
        ),
        (
            Language::Random,
            "random",
            "each game picks its words from a list: real apps' English wordings, Turkish, Russian, Greek",
        ),
    ];
}

/// The key of a digit placed nine times (class 12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinishedKeyLook {
    /// It stays as it is.
    Shown,
    /// It disappears, the others stay where they are.
    Hidden,
    /// It is greyed and does nothing.
    Greyed,
    /// It disappears and the keys after it move up one place (the row re-flows).
    Removed,
}

impl Rule for FinishedKeyLook {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (FinishedKeyLook::Shown, "shown", "it stays as it is"),
        (
            FinishedKeyLook::Hidden,
            "hidden",
            "it disappears, the other keys stay in place",
        ),
        (
            FinishedKeyLook::Greyed,
            "greyed",
            "it is greyed and does nothing",
        ),
        (
            FinishedKeyLook::Removed,
            "removed",
            "it disappears and the keys after it move up one place (the row re-flows)",
        ),
    ];
}

/// How the app takes taps. `Default` is the app's own behaviour before these rules existed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InputRules {
    pub order: InputOrder,
    /// A tap on the selected cell.
    pub retap: Retap,
    /// A tap on the active brush's key.
    pub retap_brush: BrushRetap,
    pub after_entry: SelectionAfterEntry,
    /// `None`: the style's (a style without an erase key clears, others enter it again).
    pub same_digit: Option<SameDigitAgain>,
    pub erase: EraseRule,
    /// A digit equal to the solution's cannot be overwritten, erased or cleared (only undo
    /// takes it back).
    pub lock_correct: bool,
    /// A digit that repeats in its row, column or box is not written: an alert ("Invalid move",
    /// an OK button) shows, and it counts as a mistake unless `mistakes` is `none`.
    pub refuse_conflicts: bool,
    pub mistakes: Mistakes,
    /// How the completion shows.
    pub completion: EndForm,
    /// When the level counts as solved.
    pub check: CompletionCheck,
    /// How the game over (`--mistake-limit`) shows.
    pub game_over: EndForm,
    pub language: Language,
    /// `None`: the style's (hidden for styles that hide them, else shown).
    pub finished_keys: Option<FinishedKeyLook>,
    /// An undo key: the last entry back, last in first out (in the app bar, or the action row's
    /// Undo).
    pub undo_key: bool,
    /// Taps read the state of the last drawn frame: a tap sees another's effect only
    /// [`FRAME`] after it, so two taps within one frame interval both see the state before
    /// the first.
    pub frame_reads: bool,
    /// With a mistake limit, no counter ("Mistakes: 0/3") shows on the game screen.
    pub hide_mistakes: bool,
    /// The keypad (digits and erase key) shows only while a cell that takes digits is selected
    /// (cell-first and both orders; a digit-first app always shows its keys).
    pub keypad_on_select: bool,
}

/// One frame interval at 60 Hz.
pub const FRAME: Duration = Duration::from_micros(16_667);

impl InputRules {
    /// What the same digit again does in an app drawn in `style`.
    pub fn same_digit(&self, style: &super::style::Style) -> SameDigitAgain {
        use super::style::EraseKey;
        self.same_digit.unwrap_or(
            if style.erase == EraseKey::None || self.erase == EraseRule::Absent {
                SameDigitAgain::Clear
            } else {
                SameDigitAgain::Reenter
            },
        )
    }

    /// What the key of a finished digit does in an app drawn in `style`.
    pub fn finished_keys(&self, style: &super::style::Style) -> FinishedKeyLook {
        self.finished_keys.unwrap_or(if style.hide_completed {
            FinishedKeyLook::Hidden
        } else {
            FinishedKeyLook::Shown
        })
    }

    /// Each rule's value, for `dumpsys` (the style's where the rule defers to it).
    pub fn json(&self, style: &super::style::Style) -> serde_json::Value {
        use super::style::EraseKey;
        let erase = if style.erase == EraseKey::None {
            EraseRule::Absent
        } else {
            self.erase
        };
        serde_json::json!({
            "input_order": self.order.name(),
            "retap": self.retap.name(),
            "retap_brush": self.retap_brush.name(),
            "after_entry": self.after_entry.name(),
            "same_digit": self.same_digit(style).name(),
            "erase": erase.name(),
            "lock_correct": self.lock_correct,
            "refuse_conflicts": self.refuse_conflicts,
            "mistakes": self.mistakes.name(),
            "completion": self.completion.name(),
            "completion_check": self.check.name(),
            "game_over": self.game_over.name(),
            "language": self.language.name(),
            "finished_keys": self.finished_keys(style).name(),
            "undo_key": self.undo_key,
            "frame_reads": self.frame_reads,
            "hide_mistakes": self.hide_mistakes,
            "keypad_on_select": self.keypad_on_select,
        })
    }
}

/// Rules combined as the apps of one behaviour do, named by what they do.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    pub name: &'static str,
    pub about: &'static str,
    pub rules: InputRules,
    /// The mistake limit that goes with them (unless `--mistake-limit` says otherwise).
    pub mistake_limit: Option<u32>,
}

const DEFAULT: InputRules = InputRules {
    order: InputOrder::CellFirst,
    retap: Retap::Nothing,
    retap_brush: BrushRetap::Nothing,
    after_entry: SelectionAfterEntry::Keep,
    same_digit: None,
    erase: EraseRule::Clears,
    lock_correct: false,
    refuse_conflicts: false,
    mistakes: Mistakes::Solution,
    completion: EndForm::Dialog,
    check: CompletionCheck::Rules,
    game_over: EndForm::Dialog,
    language: Language::English,
    finished_keys: None,
    undo_key: false,
    frame_reads: false,
    hide_mistakes: false,
    keypad_on_select: false,
};

/// The presets of `--input-rules`, the first the default.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "plain",
        about: "the default: cell-first, a re-tapped cell stays selected, the same digit is \
                entered again, erase clears, mistakes against the solution, English dialogs",
        rules: DEFAULT,
        mistake_limit: None,
    },
    Preset {
        name: "deselect-brush",
        about: "cell-first, and a digit with no cell selected arms a brush; a re-tapped cell is \
                deselected, a re-tapped brush dropped; the same digit clears; undo key; \
                mistakes not counted",
        rules: InputRules {
            order: InputOrder::Both,
            retap: Retap::Deselect,
            retap_brush: BrushRetap::Clear,
            same_digit: Some(SameDigitAgain::Clear),
            undo_key: true,
            mistakes: Mistakes::None,
            ..DEFAULT
        },
        mistake_limit: None,
    },
    Preset {
        name: "digit-first",
        about: "digit-first only, the brush on 1 at start; the same digit clears; no erase key; \
                mistakes by the rules, no limit; the completion a screen of its own",
        rules: InputRules {
            order: InputOrder::DigitFirstArmed,
            same_digit: Some(SameDigitAgain::Clear),
            erase: EraseRule::Absent,
            mistakes: Mistakes::Rules,
            completion: EndForm::Screen,
            ..DEFAULT
        },
        mistake_limit: None,
    },
    Preset {
        name: "stale-brush",
        about: "digit-first only, the brush on 1 at start; the same digit clears; no erase key; \
                taps read the last drawn frame; undo key",
        rules: InputRules {
            order: InputOrder::DigitFirstArmed,
            same_digit: Some(SameDigitAgain::Clear),
            erase: EraseRule::Absent,
            frame_reads: true,
            undo_key: true,
            mistakes: Mistakes::None,
            ..DEFAULT
        },
        mistake_limit: None,
    },
    Preset {
        name: "locked-correct-limit3",
        about: "digit-first; correct digits locked (only undo removes them); game over after 3 \
                digits that differ from the solution; finished keys removed, the row re-flows; \
                Turkish dialogs (BAŞARILI / BAŞARISIZ); taps read the last drawn frame; undo key",
        rules: InputRules {
            order: InputOrder::DigitFirst,
            lock_correct: true,
            finished_keys: Some(FinishedKeyLook::Removed),
            language: Language::Turkish,
            frame_reads: true,
            undo_key: true,
            ..DEFAULT
        },
        mistake_limit: Some(3),
    },
    Preset {
        name: "pencil-toggle",
        about: "cell-first; a re-tapped cell toggles pencil mode; the same digit does nothing; \
                no mistakes counted; the completion a line under the board; undo key",
        rules: InputRules {
            retap: Retap::Pencil,
            same_digit: Some(SameDigitAgain::Nothing),
            mistakes: Mistakes::None,
            completion: EndForm::Line,
            undo_key: true,
            ..DEFAULT
        },
        mistake_limit: None,
    },
    Preset {
        name: "refuse-conflicts-limit3",
        about: "cell-first; digits that break a rule refused with an alert and counted; game \
                over after 3",
        rules: InputRules {
            refuse_conflicts: true,
            mistakes: Mistakes::Rules,
            ..DEFAULT
        },
        mistake_limit: Some(3),
    },
    Preset {
        name: "limit3-greyed",
        about: "cell-first; the same digit does nothing; game over after 3 digits that differ \
                from the solution (a dialog); finished keys greyed; the \
                completion a screen of its own; undo key",
        rules: InputRules {
            same_digit: Some(SameDigitAgain::Nothing),
            finished_keys: Some(FinishedKeyLook::Greyed),
            completion: EndForm::Screen,
            undo_key: true,
            ..DEFAULT
        },
        mistake_limit: Some(3),
    },
    Preset {
        name: "clear-after-entry",
        about: "cell-first; the selection cleared after every entry; the same digit clears 190 ms \
                later; completion and game over in words picked at random",
        rules: InputRules {
            after_entry: SelectionAfterEntry::Clear,
            same_digit: Some(SameDigitAgain::ClearLate),
            language: Language::Random,
            ..DEFAULT
        },
        mistake_limit: None,
    },
];

impl Preset {
    pub fn by_name(name: &str) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.name == name)
    }

    pub fn names() -> Vec<&'static str> {
        PRESETS.iter().map(|p| p.name).collect()
    }
}

/// The words of the end screens and alerts. `{n}` is the level, `{m}` the mistakes.
#[derive(Debug, PartialEq, Eq)]
pub struct Words {
    pub complete_title: &'static str,
    pub complete_sub: &'static str,
    pub over_title: &'static str,
    pub over_sub: &'static str,
    pub home: &'static str,
    pub next: &'static str,
    pub retry: &'static str,
    pub invalid: &'static str,
    pub ok: &'static str,
    /// The mistake counter's label (`{label}: m/n`).
    pub mistakes: &'static str,
}

pub const ENGLISH: Words = Words {
    complete_title: "Level {n} complete",
    complete_sub: "Well done!",
    over_title: "Game over",
    over_sub: "You made {m} mistakes",
    home: "Home",
    next: "Next level",
    retry: "Try again",
    invalid: "Invalid move",
    ok: "OK",
    mistakes: "Mistakes",
};

pub const TURKISH: Words = Words {
    complete_title: "BAŞARILI",
    complete_sub: "Bölüm {n} tamamlandı",
    over_title: "BAŞARISIZ",
    over_sub: "{m} hata yaptınız",
    home: "Ana sayfa",
    next: "Sonraki",
    retry: "Tekrar dene",
    invalid: "Geçersiz hamle",
    ok: "TAMAM",
    mistakes: "Hata",
};

pub const RUSSIAN: Words = Words {
    complete_title: "Победа!",
    complete_sub: "Уровень {n} пройден",
    over_title: "Игра окончена",
    over_sub: "Ошибок: {m}",
    home: "Домой",
    next: "Дальше",
    retry: "Ещё раз",
    invalid: "Неверный ход",
    ok: "ОК",
    mistakes: "Ошибки",
};

pub const GREEK: Words = Words {
    complete_title: "Συγχαρητήρια!",
    complete_sub: "Το επίπεδο {n} ολοκληρώθηκε",
    over_title: "Τέλος παιχνιδιού",
    over_sub: "Κάνατε {m} λάθη",
    home: "Αρχική",
    next: "Επόμενο",
    retry: "Ξανά",
    invalid: "Μη έγκυρη κίνηση",
    ok: "ΟΚ",
    mistakes: "Λάθη",
};

/// What `--language random` picks from: real apps' English wordings, Turkish, Russian, Greek.
pub const RANDOM_WORDS: &[Words] = &[
    ENGLISH,
    Words {
        complete_title: "Congratulations!",
        complete_sub: "You solved the puzzle!",
        over_title: "Game Over",
        over_sub: "You made {m} mistakes and lost this game.",
        ..ENGLISH
    },
    Words {
        complete_title: "You Won!",
        complete_sub: "Level {n}",
        over_title: "Gameover",
        ..ENGLISH
    },
    Words {
        complete_title: "COMPLETED!",
        complete_sub: "Level {n}",
        over_title: "FAILED",
        ..ENGLISH
    },
    Words {
        complete_title: "Sudoku solved!",
        over_title: "You lost",
        ..ENGLISH
    },
    TURKISH,
    RUSSIAN,
    GREEK,
];

impl Language {
    /// The words of a game in this language; `pick` chooses for `Random`.
    pub fn words(self, pick: u64) -> &'static Words {
        match self {
            Language::English => &ENGLISH,
            Language::Turkish => &TURKISH,
            Language::Russian => &RUSSIAN,
            Language::Greek => &GREEK,
            Language::Random => &RANDOM_WORDS[(pick % RANDOM_WORDS.len() as u64) as usize],
        }
    }
}

/// `text` with `{n}` and `{m}` filled in.
pub fn fill(text: &str, level: u32, mistakes: u32) -> String {
    text.replace("{n}", &level.to_string())
        .replace("{m}", &mistakes.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distinct<T: Rule>() {
        for (i, a) in T::OPTIONS.iter().enumerate() {
            assert!(T::OPTIONS[..i].iter().all(|b| b.0 != a.0 && b.1 != a.1));
        }
    }

    #[test]
    fn names_are_distinct_and_the_default_is_plain() {
        distinct::<InputOrder>();
        distinct::<Retap>();
        distinct::<BrushRetap>();
        distinct::<SelectionAfterEntry>();
        distinct::<SameDigitAgain>();
        distinct::<EraseRule>();
        distinct::<Mistakes>();
        distinct::<EndForm>();
        distinct::<Language>();
        distinct::<FinishedKeyLook>();
        assert_eq!(PRESETS[0].rules, InputRules::default());
        let names = Preset::names();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "{n}");
        }
        assert_eq!(
            Preset::by_name("locked-correct-limit3")
                .unwrap()
                .mistake_limit,
            Some(3)
        );
    }

    #[test]
    fn the_app_font_draws_every_word() {
        use super::super::font::{Face, Text};
        for w in RANDOM_WORDS {
            for s in [
                w.complete_title,
                w.complete_sub,
                w.over_title,
                w.over_sub,
                w.home,
                w.next,
                w.retry,
                w.invalid,
                w.ok,
                w.mistakes,
            ] {
                for ch in s.chars().filter(|c| !c.is_whitespace()) {
                    for face in [Face::Regular, Face::Bold] {
                        assert!(Text::has_glyph(face, ch), "{ch:?} in {s:?}");
                    }
                }
            }
        }
    }
}
