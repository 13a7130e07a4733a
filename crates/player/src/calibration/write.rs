//! Writing a calibration as documented TOML (what `autoplay calibrate` saves).

use super::{
    AfterEntry, BrushRetap, Calibration, DEFAULT_CLEAR_LATE_MS, DeviceTemplate, Erase,
    FinishedKeys, InputMode, InputSection, Navigation, Retap, SameDigit, TakeBack, VERSION,
};
use serde::Serialize;

impl Calibration {
    /// The calibration as documented TOML.
    pub fn to_toml(&self) -> String {
        let mut s = String::new();
        s.push_str("# sudoku-autoplay calibration profile (made by calibrating the app on a phone or a screenshot).\n");
        s.push_str("# Coordinates are screen pixels; see crates/player/src/calibration/mod.rs for the format.\n");
        s.push_str(&format!("version = {VERSION}\n\n"));
        s.push_str(&self.device_and_board_toml());
        s.push_str(&self.keypad_toml());
        s.push_str(&self.input.to_toml());
        s.push_str(&self.tail_toml());
        s
    }

    /// The `[device]` and `[board]` sections.
    fn device_and_board_toml(&self) -> String {
        let mut s = String::from("[device]\n# Screen size this calibration is valid for.\n");
        s.push_str(&format!(
            "width = {}\nheight = {}\n",
            self.device.width, self.device.height
        ));
        if let Some(m) = &self.device.model {
            s.push_str(&format!("model = {}\n", toml_string(m)));
        }
        if let Some(d) = self.device.density {
            s.push_str(&format!("density = {d}\n"));
        }
        if let Some(package) = self.package() {
            s.push_str(
                "\n[app]\n# The app it was made for (the one in front when calibrating): the player picks this\n\
                 # calibration when that app is in front.\n",
            );
            s.push_str(&format!("package = {}\n", toml_string(package)));
        }
        s.push_str("\n[board]\n# Outer grid line centres [x0, y0, x1, y1], then the 10 column and 10 row lines.\n");
        s.push_str(&format!("rect = [{}]\n", list(&self.board.rect)));
        s.push_str(&format!("cols = [{}]\n", list(&self.board.cols.0)));
        s.push_str(&format!("rows = [{}]\n", list(&self.board.rows.0)));
        s.push_str(&format!("line_width = {}\n", self.board.line_width));
        s
    }

    /// The `[keypad]` section.
    fn keypad_toml(&self) -> String {
        let pt = |p: [u32; 2]| format!("[{}, {}]", p[0], p[1]);
        let mut s = String::from(
            "\n[keypad]\n# Tap points of the keys 1..9; erase: the erase key's tap point, or \"toggle\"\n# when the app clears a cell by tapping its digit again.\n",
        );
        let digits: Vec<String> = self.keypad.digits.iter().map(|&p| pt(p)).collect();
        s.push_str(&format!("digits = [{}]\n", digits.join(", ")));
        match self.keypad.erase {
            Erase::Key(p) => s.push_str(&format!("erase = {}\n", pt(p))),
            Erase::Toggle => s.push_str("erase = \"toggle\"\n"),
        }
        if self.keypad.erase_guessed {
            s.push_str(
                "# No erase key was recognised: \"toggle\" is a guess. Check it on the phone, then confirm\n\
                 # it by deleting this line (or give the key instead: erase = [X, Y]).\n\
                 erase_guessed = true\n",
            );
        }
        s
    }

    /// `[navigation]` and the device templates, when there are any.
    fn tail_toml(&self) -> String {
        #[derive(Serialize)]
        struct Tail<'a> {
            #[serde(skip_serializing_if = "Option::is_none")]
            navigation: Option<&'a Navigation>,
            #[serde(skip_serializing_if = "<[_]>::is_empty")]
            templates: &'a [DeviceTemplate],
        }
        let tail = Tail {
            navigation: self.navigation.as_ref(),
            templates: &self.templates,
        };
        let mut s = String::new();
        if self.navigation.is_some() {
            s.push_str("\n# How the player opens level N.");
        }
        if let Ok(t) = toml::to_string(&tail)
            && !t.trim().is_empty()
        {
            if !self.templates.is_empty() && self.navigation.is_none() {
                s.push_str("\n# Device digit templates: 32x32 grey levels, base64.");
            }
            s.push('\n');
            s.push_str(&t);
        }
        s
    }
}

/// `1, 2, 3`.
fn list(v: &[u32]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One rule of `[input]`: what the player does about it, and its `key = value` line(s).
type Rule = (&'static str, String);

impl InputSection {
    /// The `[input]` section, each rule that differs from the plain default with a comment on
    /// what the player does about it, then what the probe saw.
    fn to_toml(&self) -> String {
        let mut s = String::from(
            "\n[input]\n# How the app takes taps (calibrating on the phone probes them; see `seen`).\n\
             # mode: \"cell-first\" (tap the cell, then the digit), \"digit-first\" (the reverse: a brush),\n\
             # \"both\" (cell-first, and a digit with no cell selected arms a brush).\n",
        );
        let mode = match self.mode {
            InputMode::CellFirst => "cell-first",
            InputMode::DigitFirst => "digit-first",
            InputMode::Both => "both",
        };
        s.push_str(&format!("mode = \"{mode}\"\n"));
        for (comment, line) in self.selection_rules().into_iter().chain(self.undo_rules()) {
            s.push_str(&format!("# {comment}\n{line}\n"));
        }
        if !self.seen.is_empty() {
            s.push_str("\n[input.seen]\n# What calibrating saw on the phone for each rule.\n");
            for (k, v) in &self.seen {
                s.push_str(&format!("{k} = {}\n", toml_string(v)));
            }
        }
        s
    }

    /// The rules about selecting cells and writing digits.
    fn selection_rules(&self) -> Vec<Rule> {
        let mut out: Vec<Rule> = Vec::new();
        match self.retap {
            Retap::Nothing => {}
            Retap::Deselect => out.push((
                "A tap on the selected cell deselects it: the player never taps a selected cell again.",
                "retap = \"deselect\"".into(),
            )),
            Retap::Pencil => out.push((
                "A tap on the selected cell toggles pencil mode: the player never taps a selected cell again.",
                "retap = \"pencil\"".into(),
            )),
        }
        match self.after_entry {
            AfterEntry::Keep => {}
            AfterEntry::Clear => out.push((
                "The app drops the selection after each entry: every write selects its cell.",
                "after_entry = \"clear\"".into(),
            )),
            AfterEntry::Unknown => out.push((
                "The screen does not show whether an entry keeps the selection: every write starts from a given cell.",
                "after_entry = \"unknown\"".into(),
            )),
        }
        if self.brush_retap == BrushRetap::Clear {
            out.push((
                "A tap on the brush's own key drops the brush.",
                "brush_retap = \"clear\"".into(),
            ));
        }
        match self.same_digit {
            None => {}
            Some(SameDigit::Nothing) => out.push((
                "The digit a cell holds, tapped again, changes nothing.",
                "same_digit = \"nothing\"".into(),
            )),
            Some(SameDigit::Clear) => out.push((
                "The digit a cell holds, tapped again, clears it.",
                "same_digit = \"clear\"".into(),
            )),
            Some(SameDigit::ClearLate) => out.push((
                "The digit a cell holds, tapped again, clears it a moment later (whatever it holds \
                 then): the player waits that long before writing there again.",
                format!(
                    "same_digit = \"clear-late\"\nclear_late_ms = {}",
                    self.clear_late_ms.unwrap_or(DEFAULT_CLEAR_LATE_MS)
                ),
            )),
        }
        out
    }

    /// The rules about taking digits back, timing, finished keys and mistakes.
    fn undo_rules(&self) -> Vec<Rule> {
        let mut out: Vec<Rule> = Vec::new();
        if let Some(t) = self.take_back {
            let (word, comment) = match t {
                TakeBack::Erase => ("erase", "The search's undos: the erase key."),
                TakeBack::Digit => ("digit", "The search's undos: the digit again."),
                TakeBack::Undo => (
                    "undo",
                    "The search's undos: the undo key (last in first out, as the search takes digits back).",
                ),
                TakeBack::None => (
                    "none",
                    "Nothing took a digit back: only searches that never take one back can be played (the fast search).",
                ),
            };
            out.push((comment, format!("take_back = \"{word}\"")));
        }
        if let Some([x, y]) = self.undo {
            out.push((
                "The undo key (the last entry back).",
                format!("undo = [{x}, {y}]"),
            ));
        }
        if self.locked {
            out.push((
                "Neither erase nor the digit again takes a right digit back (locked, or no erase key that works).",
                "locked = true".into(),
            ));
        }
        if self.frame_reads {
            out.push((
                "Taps are read against the last drawn frame: taps go out at least a frame apart.",
                "frame_reads = true".into(),
            ));
        }
        match self.finished_keys {
            FinishedKeys::Stay => {}
            FinishedKeys::Reflow => out.push((
                "The key of a digit placed nine times disappears and the keys after it move up one place.",
                "finished_keys = \"reflow\"".into(),
            )),
            FinishedKeys::Unknown => out.push((
                "Not seen whether keys move when a digit is finished: the player looks the first time.",
                "finished_keys = \"unknown\"".into(),
            )),
        }
        if let Some(n) = self.mistake_limit {
            out.push((
                "The game ends after this many mistakes (a counter shows on the game screen).",
                format!("mistake_limit = {n}"),
            ));
        }
        out
    }
}

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}
