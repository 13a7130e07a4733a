//! Writing a calibration as documented TOML (what `autoplay calibrate` saves).

use super::{
    AfterEntry, BrushRetap, Calibration, DeviceTemplate, Erase, InputMode, Navigation, Retap,
    VERSION,
};
use serde::Serialize;

impl Calibration {
    /// The calibration as documented TOML.
    pub fn to_toml(&self) -> String {
        let list = |v: &[u32]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let pt = |p: [u32; 2]| format!("[{}, {}]", p[0], p[1]);
        let mut s = String::new();
        s.push_str("# sudoku-autoplay calibration profile (written by `autoplay calibrate`).\n");
        s.push_str("# Coordinates are screen pixels; see crates/player/src/calibration/mod.rs for the format.\n");
        s.push_str(&format!("version = {VERSION}\n\n"));
        s.push_str("[device]\n# Screen size this calibration is valid for.\n");
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
        s.push_str("\n[board]\n# Outer grid line centres [x0, y0, x1, y1], then the 10 column and 10 row lines.\n");
        s.push_str(&format!("rect = [{}]\n", list(&self.board.rect)));
        s.push_str(&format!("cols = [{}]\n", list(&self.board.cols.0)));
        s.push_str(&format!("rows = [{}]\n", list(&self.board.rows.0)));
        s.push_str(&format!("line_width = {}\n", self.board.line_width));
        s.push_str("\n[keypad]\n# Tap points of the keys 1..9; erase: the erase key's tap point, or \"toggle\"\n# when the app clears a cell by tapping its digit again.\n");
        let digits: Vec<String> = self.keypad.digits.iter().map(|&p| pt(p)).collect();
        s.push_str(&format!("digits = [{}]\n", digits.join(", ")));
        match self.keypad.erase {
            Erase::Key(p) => s.push_str(&format!("erase = {}\n", pt(p))),
            Erase::Toggle => s.push_str("erase = \"toggle\"\n"),
        }
        if self.keypad.erase_guessed {
            s.push_str(
                "# No erase key was recognised: \"toggle\" is a guess. Check it on the phone, then confirm\n\
                 # with `autoplay calibrate --erase toggle` (or give the key: --erase X,Y).\n\
                 erase_guessed = true\n",
            );
        }
        s.push_str("\n[input]\n# \"cell-first\": tap the cell, then the digit; \"digit-first\": the reverse.\n");
        let mode = match self.input.mode {
            InputMode::CellFirst => "cell-first",
            InputMode::DigitFirst => "digit-first",
        };
        s.push_str(&format!("mode = \"{mode}\"\n"));
        // The app's other input rules, where they differ from the plain default.
        let input = &self.input;
        match input.retap {
            Retap::Nothing => {}
            Retap::Deselect => s.push_str(
                "# A tap on the selected cell deselects it: the player never taps a selected cell again.\nretap = \"deselect\"\n",
            ),
            Retap::Pencil => s.push_str(
                "# A tap on the selected cell toggles pencil mode: the player never taps a selected cell again.\nretap = \"pencil\"\n",
            ),
        }
        if input.after_entry == AfterEntry::Clear {
            s.push_str("# The app drops the selection after each entry: every write selects its cell.\nafter_entry = \"clear\"\n");
        }
        if input.brush_retap == BrushRetap::Clear {
            s.push_str(
                "# A tap on the brush's own key drops the brush.\nbrush_retap = \"clear\"\n",
            );
        }
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

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}
