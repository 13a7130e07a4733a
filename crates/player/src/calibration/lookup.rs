//! Which calibration a device uses: the files in the directories of a [`SearchPath`] made for
//! its screen size, ranked, with the reason for the choice and the files that could not be read.
//!
//! Calibrations are per app: where the app in front is known, the calibrations made for it
//! (`[app] package`) and those that name no app (older files, screenshots) take part, and the
//! ones made for other apps are left out, named; where only those remain, there is no
//! calibration for the app in front ([`LookupError::OtherApp`]), which names them.
//!
//! Ranking, best first: the calibration was made for the app in front, the keypad is where the
//! device's screen shows one (when a frame is given and a keypad is found on it), the
//! calibration names the device's model, it has `[navigation]`, then the order of the search
//! path, then the file name. To open a level by its number, only calibrations with
//! `[navigation]` take part: a level that cannot be opened is never played under its number.
//!
//! A run picks once ([`Found::pick_before_opening`]): the keypad's place can be compared only
//! on the game's screen, so the pick waits for the game's first frame where the candidates open
//! the game alike (or the run opens nothing); where they open it each their own way, the game
//! cannot be opened before the pick, which is made on the screen as it is.
//!
//! Nothing here prints: the reasons and the unreadable files are returned for the caller to show.

use super::{Calibration, CalibrationError, Navigation};
use crate::remedy::Remedy;
use crate::vision;
use image::RgbaImage;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The directories calibrations are looked up in, in order (the order breaks ranking ties).
/// Which directories a user's calibrations live in is the command line's business: the
/// library only reads the ones it is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchPath(Vec<PathBuf>);

impl SearchPath {
    /// `dirs` in order; a directory met again (by its canonical path) is left out.
    pub fn new(dirs: impl IntoIterator<Item = PathBuf>) -> SearchPath {
        let mut seen = Vec::new();
        let mut kept = Vec::new();
        for dir in dirs {
            let key = std::fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone());
            if !seen.contains(&key) {
                seen.push(key);
                kept.push(dir);
            }
        }
        SearchPath(kept)
    }

    /// The directories, in order.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.0
    }
}

impl From<&Path> for SearchPath {
    fn from(dir: &Path) -> SearchPath {
        SearchPath(vec![dir.to_path_buf()])
    }
}

impl From<PathBuf> for SearchPath {
    fn from(dir: PathBuf) -> SearchPath {
        SearchPath(vec![dir])
    }
}

/// `calibration`, `calibration and /home/u/.config/sudoku-autoplay/calibration`.
impl std::fmt::Display for SearchPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self.0.iter().map(|d| d.display().to_string()).collect();
        match names.as_slice() {
            [] => f.write_str("no directory"),
            [one] => f.write_str(one),
            [init @ .., last] => write!(f, "{} and {last}", init.join(", ")),
        }
    }
}

/// The calibrations found for a device.
#[derive(Debug)]
pub struct Found {
    /// What was looked for, for messages: "Pixel_7 at 1080x2400 in calibration and /home/u/...".
    pub wanted: String,
    /// Calibrations for the device's screen, in file-name order.
    pub candidates: Vec<Candidate>,
    /// Files that could not be read or parsed (the error names file, line and column).
    pub broken: Vec<CalibrationError>,
    /// Calibrations for the screen that were left out, each with why (no `[navigation]` for `--level`).
    pub left_out: Vec<(PathBuf, String)>,
    /// Calibrations for other screen sizes.
    pub other_screens: Vec<(PathBuf, (u32, u32))>,
    /// The package of the app in front, where it is known.
    pub app: Option<String>,
    /// Calibrations for the screen made for other apps than the one in front, with their
    /// package: left out.
    pub other_apps: Vec<(PathBuf, String)>,
    /// The device's screen as it is held (`None`: a file given by name).
    pub screen: Option<(u32, u32)>,
    /// Directories of the search path that do not exist.
    pub missing: Vec<PathBuf>,
}

/// One usable calibration.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub path: PathBuf,
    pub calibration: Calibration,
    /// Its `[device] model` is the device's.
    pub model_match: bool,
    /// Its `[app] package` is the app in front's.
    pub app_match: bool,
    /// Which directory of the search path it is in (0: the first).
    pub dir: usize,
}

/// The calibration picked, and why.
#[derive(Debug, Clone)]
pub struct Choice {
    pub path: PathBuf,
    pub calibration: Calibration,
    /// Why this one, when there was a choice (`None`: it was the only one).
    pub why: Option<String>,
}

/// The calibration for a run, picked once ([`Found::pick_before_opening`]).
#[derive(Debug)]
pub enum Pick {
    /// Picked before the game was opened: the candidates open it each their own way.
    Made(Choice),
    /// To be picked on the game's first frame ([`Pick::on_first_frame`]) among candidates that
    /// open the game alike; `opener`, the best of them without a frame, opens it and finds its
    /// board meanwhile.
    Waiting { found: Found, opener: Calibration },
}

impl Pick {
    /// The calibration that opens the game and finds its board: the one picked, or the opener.
    pub fn calibration(&self) -> &Calibration {
        match self {
            Pick::Made(choice) => &choice.calibration,
            Pick::Waiting { opener, .. } => opener,
        }
    }

    /// The package the calibration was made for, where the candidates left all name it.
    pub fn package(&self) -> Option<&str> {
        match self {
            Pick::Made(choice) => choice.calibration.package(),
            Pick::Waiting { found, .. } => found.package(),
        }
    }

    /// The calibration picked, `first` being the game's first frame.
    pub fn on_first_frame(self, first: &RgbaImage) -> Choice {
        match self {
            Pick::Made(choice) => choice,
            Pick::Waiting { found, .. } => found.pick(Some(first)),
        }
    }
}

/// Model names as `getprop` (`Pixel 7`) and `adb devices -l` (`Pixel_7`) give them compare equal.
fn same_model(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.trim().replace(' ', "_").to_lowercase();
    !a.trim().is_empty() && norm(a) == norm(b)
}

/// The phone a calibration is looked up for.
#[derive(Debug, Clone, Copy)]
pub struct Phone<'a> {
    /// `ro.product.model` (empty: unknown).
    pub model: &'a str,
    /// The screen as it is held.
    pub size: (u32, u32),
    /// The package of the app in front (`dumpsys window`), where it is an app's window.
    pub app: Option<&'a str>,
}

/// The `*.toml` calibrations in the directories of `search` for `phone` (its model, screen and
/// the app in front).
pub fn find(search: &SearchPath, phone: Phone<'_>) -> Found {
    let (model, size) = (phone.model, phone.size);
    let mut found = Found {
        wanted: format!(
            "{}{} at {}x{} in {}",
            phone.app.map_or(String::new(), |a| format!("{a} on ")),
            if model.is_empty() {
                "this device"
            } else {
                model
            },
            size.0,
            size.1,
            search
        ),
        candidates: Vec::new(),
        broken: Vec::new(),
        left_out: Vec::new(),
        other_screens: Vec::new(),
        app: phone.app.map(str::to_string),
        other_apps: Vec::new(),
        missing: Vec::new(),
        screen: Some(size),
    };
    for (i, dir) in search.dirs().iter().enumerate() {
        let mut paths: Vec<PathBuf> = match std::fs::read_dir(dir) {
            Ok(entries) => entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect(),
            Err(_) => {
                found.missing.push(dir.clone());
                continue;
            }
        };
        paths.sort();
        for path in paths {
            match Calibration::load(&path) {
                Err(e) => found.broken.push(e),
                Ok(cal) if (cal.device.width, cal.device.height) != size => {
                    found
                        .other_screens
                        .push((path, (cal.device.width, cal.device.height)));
                }
                Ok(cal) => found.candidates.push(Candidate {
                    model_match: same_model(cal.device.model.as_deref().unwrap_or(""), model),
                    app_match: phone.app.is_some() && cal.package() == phone.app,
                    path,
                    calibration: cal,
                    dir: i,
                }),
            }
        }
    }
    found.leave_out_other_apps();
    found
}

/// A calibration file given by name: the only candidate (unless it was made for another app
/// than `app`, the one in front).
pub fn file(path: &Path, app: Option<&str>) -> Result<Found, CalibrationError> {
    let calibration = Calibration::load(path)?;
    let mut found = Found {
        wanted: path.display().to_string(),
        candidates: vec![Candidate {
            path: path.to_path_buf(),
            app_match: app.is_some() && calibration.package() == app,
            calibration,
            model_match: true,
            dir: 0,
        }],
        broken: Vec::new(),
        left_out: Vec::new(),
        other_screens: Vec::new(),
        app: app.map(str::to_string),
        other_apps: Vec::new(),
        missing: Vec::new(),
        screen: None,
    };
    found.leave_out_other_apps();
    Ok(found)
}

/// Why no calibration can be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    /// No calibration for `wanted` (the model and screen, the directories searched);
    /// `others`: what the directories held instead, a line each.
    #[error("no calibration for {wanted}{}{others}", crate::remedy::plain(&self.remedies()))]
    NoCalibration { wanted: String, others: String },
    /// The app in front, `app`, has no calibration for `wanted`: `files` (with their packages)
    /// were made for other apps.
    #[error(
        "{app} is in front, and no calibration was made for it: {}; open {}, or calibrate this \
         one{}",
        other_apps(files),
        if files.len() == 1 { "that app" } else { "one of those apps" },
        crate::remedy::plain(&self.remedies())
    )]
    OtherApp {
        wanted: String,
        app: String,
        files: Vec<(PathBuf, String)>,
    },
    /// `needs` a calibration that opens levels, and none of `files` has `[navigation]`.
    #[error(
        "{needs} needs a [navigation] section to open the level, and {} {} none{}",
        files.join(" and "),
        if files.len() == 1 { "has" } else { "have" },
        crate::remedy::plain(&self.remedies())
    )]
    NoNavigation { needs: Opening, files: Vec<String> },
}

impl LookupError {
    /// What the command line offers: a calibration made or named; a calibration that opens
    /// levels, or the open level played.
    pub fn remedies(&self) -> Vec<Remedy> {
        match self {
            LookupError::NoCalibration { .. } => {
                vec![Remedy::CalibratePhone, Remedy::CalibrationFile]
            }
            LookupError::OtherApp { .. } => vec![Remedy::CalibratePhone],
            LookupError::NoNavigation { .. } => {
                vec![Remedy::CalibrateNavigation, Remedy::PlayOpenLevel]
            }
        }
    }
}

/// `a.toml was made for org.x, b.toml for org.y`.
pub fn other_apps(files: &[(PathBuf, String)]) -> String {
    let said: Vec<String> = files
        .iter()
        .enumerate()
        .map(|(i, (path, package))| {
            let made = if i == 0 { "was made for" } else { "for" };
            format!("{} {made} {package}", path.display())
        })
        .collect();
    said.join(", ")
}

/// What needs a calibration that opens levels (`[navigation]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opening {
    /// Playing level N.
    Level(u32),
    /// Playing the next levels one after another, on every device that appears.
    Levels,
    /// Opening a new game of a difficulty (an app without level numbers).
    NewGame(String),
}

impl std::fmt::Display for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Opening::Level(n) => write!(f, "opening level {n}"),
            Opening::Levels => f.write_str("playing level after level"),
            Opening::NewGame(d) => write!(f, "opening a new {d} game"),
        }
    }
}

impl Found {
    /// The package the candidates were made for, where they all name the same one.
    pub fn package(&self) -> Option<&str> {
        let first = self.candidates.first()?.calibration.package()?;
        self.candidates
            .iter()
            .all(|c| c.calibration.package() == Some(first))
            .then_some(first)
    }

    /// Where the app in front is known: the calibrations made for other apps leave the
    /// candidates when one made for it, or for no app in particular, is there (those made for
    /// it first); else they are all that is left, and [`Found::require`] names them.
    fn leave_out_other_apps(&mut self) {
        let Some(app) = self.app.clone() else {
            return;
        };
        self.candidates.sort_by_key(|c| !c.app_match);
        let (other, kept): (Vec<Candidate>, Vec<Candidate>) = std::mem::take(&mut self.candidates)
            .into_iter()
            .partition(|c| c.calibration.package().is_some_and(|p| p != app));
        self.candidates = kept;
        for c in other {
            let package = c.calibration.package().unwrap_or_default().to_string();
            if !self.candidates.is_empty() {
                let why = format!("made for {package}, not {app}");
                self.left_out.push((c.path.clone(), why));
            }
            self.other_apps.push((c.path, package));
        }
    }

    /// At least one candidate, or an error saying what was found instead and how to make one.
    pub fn require(self) -> Result<Found, LookupError> {
        if !self.candidates.is_empty() {
            return Ok(self);
        }
        if let (Some(app), false) = (&self.app, self.other_apps.is_empty()) {
            return Err(LookupError::OtherApp {
                wanted: self.wanted.clone(),
                app: app.clone(),
                files: self.other_apps,
            });
        }
        let mut others = String::new();
        self.describe_others(&mut others);
        Err(LookupError::NoCalibration {
            wanted: self.wanted,
            others,
        })
    }

    /// Keeps the candidates that can open a level (`[navigation]`); without any, an error
    /// that says how to add navigation, or to play the open level instead.
    pub(crate) fn with_navigation(self, needs: Opening) -> Result<Found, LookupError> {
        let mut found = self.require()?;
        let (keep, drop): (Vec<Candidate>, Vec<Candidate>) = found
            .candidates
            .into_iter()
            .partition(|c| match (&needs, &c.calibration.navigation) {
                (Opening::NewGame(_), nav) => matches!(nav, Some(Navigation::NewGame { .. })),
                (_, nav) => nav
                    .as_ref()
                    .is_some_and(|n| !matches!(n, Navigation::NewGame { .. })),
            });
        found.candidates = keep;
        let names: Vec<String> = drop.iter().map(|c| c.path.display().to_string()).collect();
        for c in drop {
            let why = match needs {
                Opening::NewGame(_) => {
                    format!("no way to new games in [navigation], which {needs} needs")
                }
                _ => format!("no [navigation], which {needs} needs"),
            };
            found.left_out.push((c.path, why));
        }
        if !found.candidates.is_empty() {
            return Ok(found);
        }
        Err(LookupError::NoNavigation {
            needs,
            files: names,
        })
    }

    /// Picks the calibration for a run once, as early as it can be: where the run opens
    /// nothing (`opens` false) or the candidates that can still be picked (those made for the
    /// app in front, where there are any) open the game alike, the pick waits for the game's
    /// first frame, on which their keypads tell them apart ([`Pick::Waiting`]); else it is made
    /// now, on the screen as it is (`screen`). Panics if there is no candidate: call
    /// [`Found::require`] first.
    pub fn pick_before_opening(
        self,
        opens: bool,
        screen: impl FnOnce() -> Option<RgbaImage>,
    ) -> Pick {
        let unseen = ScreenKeys(None);
        let app_match = self.candidates.iter().any(|c| c.app_match);
        let contenders: Vec<&Candidate> = self
            .candidates
            .iter()
            .filter(|c| c.app_match == app_match)
            .collect();
        // Stable: the search path's order, then file-name order, breaks ties.
        let opener = contenders
            .iter()
            .min_by_key(|c| unseen.rank(c))
            .expect("Found::pick_before_opening needs a candidate")
            .calibration
            .clone();
        let alike = !opens
            || contenders
                .iter()
                .all(|c| c.calibration.navigation == opener.navigation);
        if alike {
            Pick::Waiting {
                found: self,
                opener,
            }
        } else {
            Pick::Made(self.pick(screen().as_ref()))
        }
    }

    /// Picks the best candidate (see the module documentation); `frame` is the device's screen.
    /// Panics if there is none: call [`Found::require`] first.
    pub fn pick(mut self, frame: Option<&RgbaImage>) -> Choice {
        let keys = ScreenKeys::of(frame);
        let alone = self.candidates.len() == 1 && self.left_out.is_empty();
        // `sort_by_key` is stable: the search path's order, then file-name order, breaks ties.
        self.candidates.sort_by_key(|c| keys.rank(c));
        let mut ranked = self.candidates.into_iter();
        let best = ranked.next().expect("Found::pick needs a candidate");
        let why = (!alone).then(|| {
            let mut text = format!(
                "{} picked for {}: {}",
                best.path.display(),
                self.wanted,
                keys.reasons(&best, frame.is_some()).join(", ")
            );
            let others: Vec<String> = ranked
                .map(|c| format!("{} ({})", c.path.display(), keys.not_because(&c, &best)))
                .chain(
                    self.left_out
                        .iter()
                        .map(|(p, why)| format!("{} ({why})", p.display())),
                )
                .collect();
            if !others.is_empty() {
                let _ = write!(text, "; not {}", others.join(", "));
            }
            text
        });
        tracing::debug!(
            path = %best.path.display(),
            keypad_fits = ?keys.fits(&best.calibration),
            keypad_off_px = ?keys.off(&best.calibration),
            model_match = best.model_match,
            app_match = best.app_match,
            navigation = best.calibration.navigation.is_some(),
            why = why.as_deref().unwrap_or("the only calibration for the screen"),
            "calibration chosen"
        );
        Choice {
            path: best.path,
            calibration: best.calibration,
            why,
        }
    }

    /// Appends what else the directories held: unreadable files, calibrations for other
    /// screens; and the directories that do not exist.
    fn describe_others(&self, msg: &mut String) {
        for d in &self.missing {
            let _ = write!(msg, "\n  no such directory: {}", d.display());
        }
        for e in &self.broken {
            let _ = write!(msg, "\n  skipped, unreadable: {e}");
        }
        for (p, (w, h)) in &self.other_screens {
            let turned = if self.screen == Some((*h, *w)) {
                ": the phone held the other way round; turn it back, or calibrate it as it is \
                 held now"
            } else {
                ""
            };
            let _ = write!(
                msg,
                "\n  not used: {} (for a {w}x{h} screen{turned})",
                p.display()
            );
        }
    }
}

/// The keypad on the device's screen (when a frame was given and one is found there), which
/// the calibrations' keypads are compared with.
struct ScreenKeys(Option<[vision::keypad::Key; 9]>);

impl ScreenKeys {
    fn of(frame: Option<&RgbaImage>) -> ScreenKeys {
        ScreenKeys(frame.and_then(|f| {
            let geometry = vision::detect_board(f).ok()?;
            vision::keypad::find_keypad(f, &geometry)
                .ok()
                .map(|k| k.keys)
        }))
    }

    /// Mean distance per key between the keys seen and the calibration's, in pixels.
    fn off(&self, cal: &Calibration) -> Option<u64> {
        self.0.as_ref().map(|keys| {
            let sum: u64 = keys
                .iter()
                .map(|k| {
                    let [x, y] = cal.keypad.digits[(k.digit - 1) as usize];
                    (x as i64 - k.center.0 as i64).unsigned_abs()
                        + (y as i64 - k.center.1 as i64).unsigned_abs()
                })
                .sum();
            sum / keys.len().max(1) as u64
        })
    }

    /// Whether the keys are within a quarter cell of where the calibration has them.
    fn fits(&self, cal: &Calibration) -> Option<bool> {
        let cell = u64::from(cal.cell_width());
        self.off(cal).map(|d| d <= cell / 4)
    }

    /// The ranking key, best first.
    fn rank(&self, c: &Candidate) -> (bool, bool, bool, bool) {
        (
            !c.app_match,
            self.fits(&c.calibration) != Some(true),
            !c.model_match,
            c.calibration.navigation.is_none(),
        )
    }

    /// Why `best` was picked (`compared`: a frame was given).
    fn reasons(&self, best: &Candidate, compared: bool) -> Vec<String> {
        let reason = match self.fits(&best.calibration) {
            Some(true) => "its keypad is where the screen shows one",
            Some(false) => "no calibration's keypad is where the screen shows one",
            None if compared => {
                "the screen shows no keypad to compare with (is the game screen open?)"
            }
            None => "the screen was not compared",
        };
        let mut reasons = vec![reason.to_string()];
        if best.app_match {
            reasons.insert(0, "it was made for the app in front".into());
        }
        if best.model_match {
            reasons.push("it names the model".into());
        }
        if best.calibration.navigation.is_some() {
            reasons.push("it has [navigation]".into());
        }
        reasons
    }

    /// Why `c` was not picked over `best`.
    fn not_because(&self, c: &Candidate, best: &Candidate) -> String {
        let mut why = Vec::new();
        match (self.fits(&c.calibration), self.off(&c.calibration)) {
            (Some(false), Some(d)) => why.push(format!("keypad {d} px off")),
            _ if self.rank(c) != self.rank(best) => {}
            _ if c.dir > best.dir => why.push("later in the search path".into()),
            _ => why.push("ranked by file name".into()),
        }
        if !c.app_match && best.app_match {
            why.push("made for no app in particular".into());
        }
        if !c.model_match && best.model_match {
            why.push("another model".into());
        }
        if c.calibration.navigation.is_none() && best.calibration.navigation.is_some() {
            why.push("no [navigation]".into());
        }
        why.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIM: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../calibration/sim-pixel.toml"
    );

    fn phone(model: &str, size: (u32, u32)) -> Phone<'_> {
        Phone {
            model,
            size,
            app: None,
        }
    }

    fn dir_with(files: &[(&str, String)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        dir
    }

    fn sim_text() -> String {
        std::fs::read_to_string(SIM).unwrap()
    }

    /// The shipped calibration without its [navigation] section.
    fn without_navigation() -> String {
        let text = sim_text();
        let start = text.find("# How the player opens level N.").unwrap();
        let end = start + text[start..].find("[[templates]]").unwrap();
        format!("{}{}", &text[..start], &text[end..])
    }

    #[test]
    fn broken_files_are_reported_and_the_valid_ones_used() {
        let dir = dir_with(&[
            (
                "a-broken.toml",
                sim_text().replacen("width = 1080", "width = 10 80", 1),
            ),
            ("b.toml", sim_text()),
            (
                "other.toml",
                std::fs::read_to_string(SIM.replace("pixel", "budget")).unwrap(),
            ),
        ]);
        let found = find(&dir.path().into(), phone("Pixel 7", (1080, 2400)))
            .require()
            .unwrap();
        assert_eq!(found.candidates.len(), 1);
        assert!(found.candidates[0].model_match, "Pixel 7 is Pixel_7");
        assert_eq!(found.broken.len(), 1);
        let e = found.broken[0].to_string();
        assert!(e.contains("a-broken.toml:9:"), "{e}");
        assert_eq!(found.other_screens[0].1, (720, 1520));
    }

    #[test]
    fn nothing_usable_says_what_was_there() {
        let dir = dir_with(&[("x.toml", "version = 1\n[device\n".into())]);
        let e = find(&dir.path().into(), phone("Pixel_7", (1080, 2400)))
            .require()
            .unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("no calibration for Pixel_7 at 1080x2400"),
            "{msg}"
        );
        assert!(
            msg.contains("skipped, unreadable") && msg.contains("x.toml:2:"),
            "{msg}"
        );
    }

    #[test]
    fn two_directories_are_searched_in_order_and_named() {
        let (local, user) = (dir_with(&[]), dir_with(&[]));
        std::fs::write(local.path().join("z-sim.toml"), sim_text()).unwrap();
        std::fs::write(user.path().join("a-mine.toml"), sim_text()).unwrap();
        let search = SearchPath::new([
            local.path().to_path_buf(),
            user.path().to_path_buf(),
            // The same directory again is searched once.
            local.path().join("."),
        ]);
        assert_eq!(search.dirs().len(), 2);
        let found = find(&search, phone("Pixel_7", (1080, 2400)));
        assert_eq!(found.candidates.len(), 2);
        assert!(
            found.wanted.ends_with(&format!(
                "in {} and {}",
                local.path().display(),
                user.path().display()
            )),
            "{}",
            found.wanted
        );
        // A tie goes to the first directory, whatever the file names.
        let choice = found.pick(None);
        assert!(choice.path.ends_with("z-sim.toml"), "{:?}", choice.path);
        let why = choice.why.unwrap();
        assert!(
            why.contains("a-mine.toml (later in the search path)"),
            "{why}"
        );

        // Nothing for the screen: the message names both directories, and one that is missing.
        let gone = local.path().join("gone");
        let e = find(
            &SearchPath::new([gone.clone(), user.path().to_path_buf()]),
            phone("Pixel_7", (720, 1520)),
        )
        .require()
        .unwrap_err()
        .to_string();
        let both = format!("in {} and {}", gone.display(), user.path().display());
        assert!(e.contains(&both), "{e}");
        assert!(
            e.contains(&format!("no such directory: {}", gone.display())),
            "{e}"
        );
        assert!(e.contains("a-mine.toml (for a 1080x2400 screen)"), "{e}");
    }

    #[test]
    fn level_needs_navigation_and_the_pick_says_why() {
        let dir = dir_with(&[("Pixel_7.toml", without_navigation())]);
        let e = find(&dir.path().into(), phone("Pixel_7", (1080, 2400)))
            .with_navigation(Opening::Level(5))
            .unwrap_err();
        assert_eq!(
            e.remedies(),
            [Remedy::CalibrateNavigation, Remedy::PlayOpenLevel],
            "a way to open levels, or the open level (worded with the flags: `cli::words`)"
        );
        let e = e.to_string();
        assert!(
            e.contains("opening level 5 needs a [navigation] section"),
            "{e}"
        );
        assert!(e.contains("Pixel_7.toml has none"), "{e}");

        // Beside the shipped one, a calibration without navigation never wins, and is named.
        std::fs::write(dir.path().join("sim-pixel.toml"), sim_text()).unwrap();
        let choice = find(&dir.path().into(), phone("Pixel_7", (1080, 2400)))
            .with_navigation(Opening::Level(5))
            .unwrap()
            .pick(None);
        assert!(choice.path.ends_with("sim-pixel.toml"));
        let why = choice.why.unwrap();
        assert!(
            why.contains("Pixel_7.toml (no [navigation], which opening level 5 needs)"),
            "{why}"
        );
        // Without --level, it has [navigation] breaks the tie.
        let choice = find(&dir.path().into(), phone("Pixel_7", (1080, 2400))).pick(None);
        assert!(choice.path.ends_with("sim-pixel.toml"), "{:?}", choice.path);
        assert!(choice.why.unwrap().contains("it has [navigation]"));
    }

    /// The shipped calibration made for `package` (an `[app]` section after `[device]`).
    fn for_app(package: &str) -> String {
        sim_text().replacen(
            "\n[board]",
            &format!("\n[app]\npackage = \"{package}\"\n\n[board]"),
            1,
        )
    }

    #[test]
    fn the_app_in_front_picks_its_calibration_and_others_are_left_out() {
        let dir = dir_with(&[
            ("Pixel_7-org.a.sudoku.toml", for_app("org.a.sudoku")),
            ("Pixel_7-org.b.sudoku.toml", for_app("org.b.sudoku")),
            ("Pixel_7.toml", sim_text()),
        ]);
        let search = SearchPath::from(dir.path());
        let on = |app| Phone {
            model: "Pixel_7",
            size: (1080, 2400),
            app,
        };
        // Its own file wins over the one for any app; the other app's is left out, named.
        let choice = find(&search, on(Some("org.b.sudoku")))
            .require()
            .unwrap()
            .pick(None);
        assert!(
            choice.path.ends_with("Pixel_7-org.b.sudoku.toml"),
            "{choice:?}"
        );
        let why = choice.why.unwrap();
        assert!(why.contains("it was made for the app in front"), "{why}");
        assert!(
            why.contains("Pixel_7-org.a.sudoku.toml (made for org.a.sudoku, not org.b.sudoku)"),
            "{why}"
        );
        assert!(
            why.contains("Pixel_7.toml (made for no app in particular)"),
            "{why}"
        );
        // An app without a file of its own gets the file for any app (as before files named apps).
        let choice = find(&search, on(Some("org.c.sudoku"))).pick(None);
        assert!(choice.path.ends_with("Pixel_7.toml"), "{choice:?}");
        // Where the app in front is not known, every file takes part, by file name.
        assert_eq!(find(&search, on(None)).candidates.len(), 3);

        // Only other apps' files: no calibration for the app in front, and the message names them.
        std::fs::remove_file(dir.path().join("Pixel_7.toml")).unwrap();
        let e = find(&search, on(Some("org.c.sudoku")))
            .require()
            .unwrap_err();
        assert_eq!(e.remedies(), [Remedy::CalibratePhone]);
        let e = e.to_string();
        assert!(
            e.starts_with("org.c.sudoku is in front, and no calibration was made for it: "),
            "{e}"
        );
        assert!(
            e.contains("Pixel_7-org.a.sudoku.toml was made for org.a.sudoku, ")
                && e.contains("Pixel_7-org.b.sudoku.toml for org.b.sudoku"),
            "{e}"
        );
        // A file named by the person is refused for another app too, and taken for its own.
        let named = dir.path().join("Pixel_7-org.a.sudoku.toml");
        let e = file(&named, Some("org.c.sudoku"))
            .unwrap()
            .require()
            .unwrap_err();
        assert!(matches!(e, LookupError::OtherApp { .. }), "{e}");
        assert!(
            file(&named, Some("org.a.sudoku"))
                .unwrap()
                .require()
                .is_ok()
        );
        assert!(file(&named, None).unwrap().require().is_ok());
    }

    /// A rendered screen of the sim's `pixel` profile (`screenshots/sim`).
    fn pixel_screen(keypad: &str) -> RgbaImage {
        let path = format!(
            "{}/../../screenshots/sim/pixel-light-{keypad}.png",
            env!("CARGO_MANIFEST_DIR")
        );
        image::open(path).unwrap().to_rgba8()
    }

    #[test]
    fn the_pick_waits_for_the_first_frame_only_where_the_candidates_open_alike() {
        let two_rows = std::fs::read_to_string(SIM.replace("pixel", "pixel-two-rows")).unwrap();
        let elsewhere = two_rows.replace(".GameActivity", ".Other");
        let found = |second: &str| {
            let dir = dir_with(&[("a.toml", second.to_string()), ("b.toml", sim_text())]);
            find(&dir.path().into(), phone("Pixel_7", (1080, 2400)))
        };
        let path = |choice: Choice| choice.path.file_name().unwrap().to_owned();
        let looked = std::cell::Cell::new(0);
        let screen = |keypad: &'static str| {
            let looked = &looked;
            move || {
                looked.set(looked.get() + 1);
                Some(pixel_screen(keypad))
            }
        };

        // The keypads differ, nothing else: the game's first frame picks, the screen before
        // opening is not looked at.
        let pick = found(&two_rows).pick_before_opening(true, screen("row"));
        assert!(matches!(pick, Pick::Waiting { .. }), "{pick:?}");
        assert_eq!(path(pick.on_first_frame(&pixel_screen("row"))), "b.toml");
        let pick = found(&two_rows).pick_before_opening(true, screen("row"));
        assert_eq!(
            path(pick.on_first_frame(&pixel_screen("two-rows"))),
            "a.toml"
        );
        assert_eq!(looked.get(), 0);

        // They open levels differently: picked before opening, on the screen as it is; the
        // opener is the one picked.
        let pick = found(&elsewhere).pick_before_opening(true, screen("row"));
        assert_eq!(looked.get(), 1);
        let Pick::Made(choice) = &pick else {
            panic!("{pick:?}")
        };
        assert_eq!(pick.calibration(), &choice.calibration);
        assert_eq!(
            path(pick.on_first_frame(&pixel_screen("two-rows"))),
            "b.toml"
        );
        // A screen without a keypad: the ranking without it (here, the file name).
        let pick = found(&elsewhere).pick_before_opening(true, || None);
        assert_eq!(path(pick.on_first_frame(&pixel_screen("row"))), "a.toml");
        // Where the run opens nothing, their navigations do not matter.
        let pick = found(&elsewhere).pick_before_opening(false, screen("row"));
        assert!(matches!(pick, Pick::Waiting { .. }), "{pick:?}");
        assert_eq!(looked.get(), 1);
    }

    #[test]
    fn a_package_must_be_a_package_name() {
        for bad in ["sudoku", "org..x", "org.1x", "org.x/y", "../../etc.passwd"] {
            let e = Calibration::parse(&for_app(bad), Path::new("x.toml")).unwrap_err();
            assert!(
                e.to_string().contains("is not a package name"),
                "{bad}: {e}"
            );
        }
        let cal = Calibration::parse(&for_app("org.x_2.y"), Path::new("x.toml")).unwrap();
        assert_eq!(cal.package(), Some("org.x_2.y"));
        let again = Calibration::parse(&cal.to_toml(), Path::new("y.toml")).unwrap();
        assert_eq!(again, cal, "written and read back");
    }
}
