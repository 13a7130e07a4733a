//! The randomized fault campaign (issue 27): `cargo run --release --example chaos -- --runs 30
//! --seed 3`.
//!
//! Each run draws a simulated phone (profile, style, theme, keypad, level, strategy, and a mix
//! of the sim's fault knobs) from the seed, calibrates on a fault-free phone of the same look,
//! then runs `autoplay sim` with the faults and `autoplay --level N` as processes through a
//! private real adb server with a hard timeout, asks the phone for the truth (`adb shell
//! dumpsys sudoku`) and classifies the run: solved, false success (exit 0, not solved), honest
//! failure, under-claim (non-zero exit, solved), hang, panic, and `runs.csv` disagreeing with
//! the exit code. A run with only recoverable faults that is not solved is played again
//! without faults, to tell the fault's failures from the style's own. A run solved on a phone
//! that loses no tap but with repairs is listed too (the player's taps did not do what it
//! meant). Every run not solved prints the commands that reproduce it, and a summary table ends
//! the campaign.
//!
//! Options: `--runs N`, `--seed S`, `--only RUN` (one run of the seed's draws, to reproduce it),
//! `--list` and others: `--help`.

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const PROFILES: &[&str] = &[
    "budget", "pixel", "flagship", "tablet", "small", "emulator", "midrange", "entry",
];
const STYLES: &[&str] = &[
    "classic", "bold", "tinted", "disc", "actions", "held-out", "faded", "shaded",
];
const THEMES: &[&str] = &["light", "dark"];
const KEYPADS: &[&str] = &["row", "two-rows", "grid"];
const STRATEGIES: &[&str] = &["rowmajor", "mrv", "static", "fast"];
const LOCKS: &[&str] = &["none", "swipe", "pin"];
/// The profiles whose touch panel the shell may write (Android 9 and older).
const PANEL_WRITABLE: &[&str] = &["budget", "small"];
/// The simulated app's default package, and the others it is drawn under (`--package`).
const PACKAGE: &str = "org.autoplay.sudoku";
const OTHER_PACKAGES: &[&str] = &["com.example.sudoku", "net.puzzles.classic_sudoku"];

/// The intent that opens a level of the app in `package` (`{level}` stands for the level).
fn am_start(package: &str) -> String {
    format!("am start -n {package}/.GameActivity --ei level {{level}}")
}

/// splitmix64: the campaign's only randomness, from the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

/// One run's draw.
#[derive(Clone)]
struct Draw {
    look: Vec<String>,
    faults: Vec<String>,
    /// Every fault can be recovered from (no mistake limit with a search that writes wrong
    /// digits, no secured lock screen).
    recoverable: bool,
    /// How calibrate tells the player to open levels: `--am-start ...` or `--level-list WORDS`.
    navigation: [String; 2],
    /// The app's package (`--package`, in the look).
    package: &'static str,
    /// No fault loses a tap (no dropped taps, popup, lost link, background, dark screen): a
    /// solve should need no repair there.
    lossless: bool,
    level: u32,
    strategy: &'static str,
    /// An app without level numbers (`--new-games`): the difficulty of the new game played
    /// instead of `level`.
    new_game: Option<&'static str>,
}

impl Draw {
    /// What is played: `level 12`, or `a new hard game`.
    fn what(&self) -> String {
        match self.new_game {
            Some(d) => format!("a new {d} game"),
            None => format!("level {}", self.level),
        }
    }
}

/// The difficulties a new game is drawn from (the app's words, in another case).
const DIFFICULTIES: [&str; 5] = ["easy", "medium", "hard", "expert", "master"];

/// How the phone is held, its level list, its display size and the app's package, drawn in
/// that order (pushed to `look`): whether levels open from the list, and the package.
fn draw_setup(rng: &mut Rng, look: &mut Vec<String>, profile: &str) -> (bool, &'static str) {
    // How the phone is held: the app's layout, the frames and the touch panel's axes turn with
    // it (the calibration twin is held the same way).
    if rng.chance(0.15) {
        look.push(format!("--rotation {}", rng.pick(&["90", "180", "270"])));
    }
    // A level list that scrolls, as most real apps have; levels opened from the list by its
    // buttons' words, or by an intent.
    if rng.chance(0.3) {
        look.push("--scrolling-levels".into());
    }
    let list = rng.chance(0.3);
    // The display size the user chose in Settings: the app laid out at another density, and
    // `wm density` printing both lines.
    let sizes = display_sizes(profile);
    if rng.chance(0.15) && !sizes.is_empty() {
        let dpi = sizes[rng.below(sizes.len() as u64) as usize];
        look.push(format!("--override-density {dpi}"));
    }
    // Another app on the same phone: the package every command names follows it.
    let package = if rng.chance(0.15) {
        let p = rng.pick(OTHER_PACKAGES);
        look.push(format!("--package {p}"));
        p
    } else {
        PACKAGE
    };
    (list, package)
}

fn draw(rng: &mut Rng) -> Draw {
    let (mut look, profile, style) = draw_look(rng);
    let level = 1 + rng.below(40) as u32;
    let strategy = rng.pick(STRATEGIES);
    let mut faults = draw_faults(rng, profile);
    let mut app = draw_rules(rng, &mut look, style);
    let (list, package) = draw_setup(rng, &mut look, profile);
    let navigation = if list {
        ["--level-list".to_string(), "Levels".to_string()]
    } else {
        ["--am-start".to_string(), am_start(package)]
    };
    // Real apps' puzzles and screens (issue 35): levels with several solutions, judged by the
    // rules or against the solution the app stored; a coach mark over the first game (a tap
    // or BACK dismisses it: recoverable).
    draw_puzzles(rng, &mut look, &mut app);
    if rng.chance(0.1) {
        faults.list.push("--cover".into());
    }
    // A busy phone that reads the tap stream late now and then: taps sent apart come in together
    // (drawn last, so that the draws above stay what they were for a seed).
    if rng.chance(0.15) {
        let (every, ms) = (2 + rng.below(10), 20 + rng.below(80));
        faults.list.push(format!("--stream-stall {every}:{ms}"));
    }
    // An app without level numbers (new games of a difficulty) and a free app's ads between
    // games and under the board (drawn last too).
    let new_game = rng.chance(0.15).then(|| rng.pick(&DIFFICULTIES));
    if new_game.is_some() {
        look.push("--new-games".into());
    }
    if rng.chance(0.15) {
        look.push("--ads".into());
    }
    let faults_list = faults.list;
    // The smallest mistake limit the app has: a preset's 3, or the fault's.
    let limit = faults_list
        .iter()
        .filter_map(|f| f.strip_prefix("--mistake-limit ")?.parse::<u32>().ok())
        .chain(app.limit.then_some(3))
        .min();
    // (A popup that only BACK closes goes also on a phone that refuses `input keyevent` where
    // raw touches land: the player touches the navigation bar's back button.)
    const LOSSY: [&str; 6] = [
        "--drop-taps",
        "--popup-after",
        "--disconnect-after",
        "--background-after",
        "--screen-off-after",
        "--cover",
    ];
    let lossless = !faults_list
        .iter()
        .any(|f| LOSSY.iter().any(|l| f.starts_with(l)));
    // A tap lost any way (dropped, swallowed by a popup or a coach mark, sent to the launcher
    // or a dark screen, in flight when the link dropped) leaves a re-tap or brush trap set.
    let recoverable = faults.recoverable && app.allows(strategy, faults.drops, !lossless, limit);
    Draw {
        look,
        faults: faults_list,
        recoverable,
        navigation,
        package,
        lossless,
        level,
        strategy,
        new_game,
    }
}

/// The phone's look: profile, style, theme, keypad, seed, conflicts shown; and the profile and
/// the style.
fn draw_look(rng: &mut Rng) -> (Vec<String>, &'static str, &'static str) {
    let (profile, style, theme, keypad) = (
        rng.pick(PROFILES),
        rng.pick(STYLES),
        rng.pick(THEMES),
        rng.pick(KEYPADS),
    );
    let seed = rng.below(1_000_000);
    let mut look = vec![
        format!("--profile {profile}"),
        format!("--style {style}"),
        format!("--theme {theme}"),
        format!("--seed {seed}"),
    ];
    // The other styles bring their own keypad.
    if style == "classic" {
        look.push(format!("--keypad {keypad}"));
    }
    if rng.chance(0.2) {
        look.push("--show-conflicts".into());
    }
    (look, profile, style)
}

/// Each profile's physical density and shorter side in pixels (as `crates/sim/src/profile.rs`
/// has them).
const DENSITIES: &[(&str, u32, u32)] = &[
    ("budget", 320, 720),
    ("pixel", 420, 1080),
    ("flagship", 560, 1440),
    ("tablet", 320, 1600),
    ("small", 240, 480),
    ("emulator", 420, 1080),
    ("midrange", 440, 1080),
    ("entry", 320, 720),
];

/// The densities Settings' Display size offers besides the default, as AOSP's settingslib
/// `DisplayDensityUtils` computes them: one smaller (0.85), and up to three larger up to 1.5
/// times as long as the shorter side stays 320 dp or more.
fn display_sizes(profile: &str) -> Vec<u32> {
    let Some(&(_, density, short)) = DENSITIES.iter().find(|d| d.0 == profile) else {
        return Vec::new();
    };
    let d = density as f32;
    let max_scale = (160.0 * short as f32 / 320.0 / d).min(1.5);
    let larger = (((max_scale - 1.0) / 0.09) as u32).min(3);
    let mut sizes = vec![(d * 0.85) as u32];
    for i in 1..=larger {
        let step = (max_scale - 1.0) / larger as f32;
        sizes.push((d * (1.0 + step * i as f32)) as u32);
    }
    sizes
}

/// A run's faults.
struct Faults {
    list: Vec<String>,
    /// None of them is beyond what a player can get past.
    recoverable: bool,
    /// Taps get lost.
    drops: bool,
}

fn draw_faults(rng: &mut Rng, profile: &str) -> Faults {
    let mut faults = Vec::new();
    let mut recoverable = true;
    if rng.chance(0.3) {
        faults.push("--timing phone".to_string());
    }
    if rng.chance(0.3) {
        faults.push(format!("--input-latency-ms {}", rng.below(40)));
    }
    let mut drops = false;
    if rng.chance(0.35) {
        let p = [0.01, 0.05, 0.1, 0.2][rng.below(4) as usize];
        faults.push(format!("--drop-taps {p}"));
        drops = true;
    }
    if rng.chance(0.25) {
        faults.push(format!("--popup-after {}", 20 + rng.below(300)));
    }
    if rng.chance(0.25) {
        faults.push(format!("--disconnect-after {}", 5 + rng.below(60)));
    }
    if rng.chance(0.25) {
        faults.push(format!("--background-after {}", 20 + rng.below(300)));
    }
    if rng.chance(0.15) {
        let lock = rng.pick(LOCKS);
        // Android's display settings offer 15 s and 30 s as their shortest screen timeouts;
        // a shorter one turns the screen off between a wake-up and the taps it allows on a
        // slow phone, which no player can get past without changing the user's settings.
        faults.push(format!("--screen-off-after {}", 15 + rng.below(16)));
        faults.push(format!("--lock-screen {lock}"));
        recoverable &= lock != "pin";
    }
    if rng.chance(0.2) {
        // Judged with the app's rules below (an app that counts no mistakes never ends it).
        faults.push(format!("--mistake-limit {}", 1 + rng.below(5)));
    }
    // A phone still starting when the play begins, drawn from a stream of its own so that the
    // draws before it was added stay as they were (seeds reproduce their runs).
    let mut side = Rng(rng.0 ^ 0x5354_4152_5449_4e47);
    if side.chance(0.1) {
        faults.push(format!("--starting-ms {}", 1000 + side.below(5000)));
    }
    recoverable &= draw_device_faults(rng, &mut faults, profile);
    Faults {
        list: faults,
        recoverable,
        drops,
    }
}

/// The phone's own faults: root, refused input, secured USB debugging, how its commands print.
/// False if one is beyond what a player can get past.
fn draw_device_faults(rng: &mut Rng, faults: &mut Vec<String>, profile: &str) -> bool {
    let mut recoverable = true;
    // A userdebug phone after `adb root` (the shell may write the panel: `raw` where the version
    // forbids it), and a phone that refuses injected input (Xiaomi's setting: no channel can
    // tap; up to Android 12 the injector is told nothing, from 13 it is refused at once).
    let root = rng.chance(0.2);
    if root {
        faults.push("--adb-root".into());
    }
    if rng.chance(0.08) {
        faults.push("--inject-denied".into());
        // Root may inject whatever the setting says, and where the shell may write the touch
        // panel (Android 9 and older) raw touches need no permission to inject.
        recoverable &= root || PANEL_WRITABLE.contains(&profile);
    }
    // USB debugging secured: the adb server's key is accepted the first time ("Always allow"),
    // or refused ("Deny"), which nothing on the host can get past.
    if rng.chance(0.15) {
        faults.push("--auth".into());
        if rng.chance(0.3) {
            faults.push("--deny-new-keys".into());
            recoverable = false;
        }
    }
    // How real phones print their commands (several displays, an old ANR, Samsung's or
    // Android 16's wakefulness, dozing, decoy touch nodes, protocol A, uiautomator's idle-state
    // errors, 12-byte raw headers, no physical keys): the player reads them all.
    if rng.chance(0.4) {
        for _ in 0..1 + rng.below(3) {
            faults.push(format!("--quirk {}", rng.pick(QUIRKS)));
        }
    }
    recoverable
}

/// How the app takes taps (`../shared/real-apps/BEHAVIOUR.md`): the app's, so the calibration
/// twin has them too and `autoplay calibrate` probes them there. What they let the player do
/// decides whether the run can be solved.
fn draw_rules(rng: &mut Rng, look: &mut Vec<String>, style: &str) -> AppRules {
    let mut app = AppRules::default();
    if rng.chance(0.2) {
        let preset = rng.pick(INPUT_PRESETS);
        look.push(format!("--input-rules {preset}"));
        app.preset(preset);
    } else if rng.chance(0.3) {
        for _ in 0..1 + rng.below(2) {
            let (flag, values) = INPUT_RULES[rng.below(INPUT_RULES.len() as u64) as usize];
            let value = match values {
                [] => None,
                _ => Some(rng.pick(values)),
            };
            if look
                .iter()
                .any(|l| l.split_whitespace().next() == Some(flag))
            {
                continue;
            }
            look.push(value.map_or(flag.to_string(), |v| format!("{flag} {v}")));
            app.flag(flag, value);
        }
    }
    if style == "disc" {
        app.erase_key = false;
    }
    app
}

/// Levels with more than one solution (as apps that blank cells at random make them), and how
/// the app checks the board: by the rules (then it counts no solution mismatch as a mistake),
/// or against the solution it stored (entries that differ are marked in red).
fn draw_puzzles(rng: &mut Rng, look: &mut Vec<String>, app: &mut AppRules) {
    if !rng.chance(0.12) {
        return;
    }
    look.push("--several-solutions".into());
    app.several = true;
    if rng.chance(0.5) {
        look.push("--completion-check solution".into());
        app.solution_check = true;
    } else {
        look.push("--completion-check rules".into());
        if !look.iter().any(|l| l.starts_with("--mistakes")) {
            look.push("--mistakes rules".into());
            app.flag("--mistakes", Some("rules"));
        }
    }
}

/// What an app's input rules let the player do (`autoplay sim --input-rules` and its flags).
#[derive(Clone, Copy)]
struct AppRules {
    /// The app ends the game after a few mistakes (a preset's limit).
    limit: bool,
    /// It counts mistakes at all.
    counts: bool,
    locked: bool,
    undo: bool,
    erase_key: bool,
    erase_clears: bool,
    /// The digit again clears (`None`: the style's: where there is no erase key).
    same_clears: Option<bool>,
    /// A tap on the selected cell deselects it or flips pencil mode, or a digit with no cell
    /// selected arms a brush: a lost tap can leave the app in a state the player cannot see.
    retap_hazard: bool,
    /// Levels have several solutions (`--several-solutions`).
    several: bool,
    /// No mistake counter shows (`--hide-mistakes`): the player cannot know the app counts.
    hidden_counter: bool,
    /// The app checks the board against the solution it stored (`--completion-check solution`).
    solution_check: bool,
}

impl Default for AppRules {
    fn default() -> Self {
        AppRules {
            limit: false,
            counts: true,
            locked: false,
            undo: false,
            erase_key: true,
            erase_clears: true,
            same_clears: None,
            retap_hazard: false,
            several: false,
            solution_check: false,
            hidden_counter: false,
        }
    }
}

impl AppRules {
    fn preset(&mut self, name: &str) {
        match name {
            "deselect-brush" => {
                self.retap_hazard = true;
                self.same_clears = Some(true);
                self.undo = true;
                self.counts = false;
            }
            "digit-first" => {
                self.same_clears = Some(true);
                self.erase_key = false;
            }
            "stale-brush" => {
                self.same_clears = Some(true);
                self.erase_key = false;
                self.undo = true;
                self.counts = false;
            }
            "locked-correct-limit3" => {
                self.locked = true;
                self.undo = true;
                self.limit = true;
            }
            "pencil-toggle" => {
                self.retap_hazard = true;
                self.same_clears = Some(false);
                self.counts = false;
                self.undo = true;
            }
            "refuse-conflicts-limit3" => self.limit = true,
            "limit3-greyed" => {
                self.same_clears = Some(false);
                self.undo = true;
                self.limit = true;
            }
            "clear-after-entry" => self.same_clears = Some(true),
            _ => {}
        }
    }

    fn flag(&mut self, flag: &str, value: Option<&str>) {
        match (flag, value) {
            ("--input-order", Some("both")) | ("--retap", Some(_)) => self.retap_hazard = true,
            ("--hide-mistakes", _) => self.hidden_counter = true,
            ("--same-digit", Some(v)) => self.same_clears = Some(v.starts_with("clear")),
            ("--erase", Some("absent")) => self.erase_key = false,
            ("--erase", Some("inert")) => self.erase_clears = false,
            ("--lock-correct", _) => self.locked = true,
            ("--mistakes", Some("none")) => self.counts = false,
            ("--undo-key", _) => self.undo = true,
            _ => {}
        }
    }

    /// Whether a player can solve a level with `strategy` on this app (`drops`: taps get lost
    /// at random; `loses`: any tap may get lost (`LOSSY`); `limit`: a mistake limit is set).
    fn allows(&self, strategy: &str, drops: bool, loses: bool, limit: Option<u32>) -> bool {
        let fast = strategy == "fast";
        // Guarded, a write goes astray only when three taps in a row are lost (0.8% at 20%):
        // a limit of 3 or more leaves room for that chance, a smaller one does not.
        let guarded_enough = limit.is_some_and(|n| n >= 3);
        let limit = limit.is_some();
        let same_clears = self.same_clears.unwrap_or(!self.erase_key);
        let takes_back = (self.erase_key && self.erase_clears) || same_clears || self.undo;
        // A search whose wrong digits hit a limit, right digits locked without undo, no way to
        // take a digit back: refused before the first tap, or a game over. Under lost taps a
        // mistake limit of 3 or more stays recoverable with `fast` where its counter shows (the
        // player then guards each write: taps on givens, so a lost cell tap sends no digit
        // astray, and the cell twice, so an alert that refused a digit and that a tap on the
        // cell closes sends none either; in apps that take the digit first, the key three
        // times, so a lost key tap leaves no other digit to write).
        !(limit
            && self.counts
            && (!fast || (drops && (self.hidden_counter || !guarded_enough))))
            && !(self.locked && ((!fast && !self.undo) || drops))
            && (fast || takes_back)
            && !(self.retap_hazard && loses)
            // A search's valid digits that differ from the stored solution count as mistakes.
            && !(self.several && self.solution_check && limit && self.counts)
    }
}

/// `autoplay sim --quirk` values.
const QUIRKS: &[&str] = &[
    "displays",
    "anr-snapshot",
    "samsung-power",
    "wakefulness-observer",
    "doze",
    "decoy-panels",
    "protocol-a",
    "ui-idle-error",
    "raw-header-12",
    "no-sys-keys",
];

/// `autoplay sim --input-rules` presets.
const INPUT_PRESETS: &[&str] = &[
    "plain",
    "deselect-brush",
    "digit-first",
    "stale-brush",
    "locked-correct-limit3",
    "pencil-toggle",
    "refuse-conflicts-limit3",
    "limit3-greyed",
    "clear-after-entry",
];

/// One input rule's flag and the values drawn (none: a switch).
const INPUT_RULES: &[(&str, &[&str])] = &[
    (
        "--input-order",
        &["digit-first", "digit-first-armed", "both"],
    ),
    ("--retap", &["deselect", "pencil"]),
    ("--retap-brush", &["clear"]),
    ("--after-entry", &["clear"]),
    ("--same-digit", &["nothing", "clear", "clear-late"]),
    ("--erase", &["absent", "inert"]),
    ("--lock-correct", &[]),
    ("--refuse-conflicts", &[]),
    ("--mistakes", &["rules", "none"]),
    ("--completion", &["screen", "line"]),
    ("--game-over", &["screen", "line"]),
    ("--language", &["turkish", "russian", "greek", "random"]),
    ("--finished-keys", &["hidden", "greyed", "removed"]),
    ("--undo-key", &[]),
    ("--frame-reads", &[]),
    ("--hide-mistakes", &[]),
    ("--keypad-on-select", &[]),
];

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Class {
    Solved,
    FalseSuccess,
    HonestFailure,
    UnderClaim,
    Hang,
    Panic,
    CsvDisagrees,
    SetupFailed,
}

struct Outcome {
    class: Class,
    code: Option<i32>,
    last_line: String,
    solved: bool,
    /// The `repairs` of the run's `runs.csv` row.
    repairs: Option<u64>,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Env {
    bin: PathBuf,
    adb_port: u16,
    timeout: Duration,
    /// `autoplay --budget`: half the timeout, the rest for opening, reading, verifying and
    /// filling in.
    budget: String,
}

impl Env {
    fn adb(&self, args: &[&str]) -> std::process::Output {
        Command::new("adb")
            .args(["-P", &self.adb_port.to_string()])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("adb")
    }

    fn sim(&self, port: u16, args: &[String]) -> Child {
        let args: Vec<String> = args
            .iter()
            .flat_map(|a| a.split_whitespace().map(str::to_string))
            .collect();
        Command::new(&self.bin)
            .args(["sim", "--listen", &format!("127.0.0.1:{port}")])
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("autoplay sim")
    }

    /// Connects the adb server to the phone: true once it is a device, or one that refused the
    /// server's key (`--deny-new-keys`: the play then runs against it and must fail honestly).
    fn connect(&self, serial: &str) -> bool {
        let start = Instant::now();
        let mut connected = false;
        while start.elapsed() < Duration::from_secs(20) {
            if !connected {
                let out = self.adb(&["connect", serial]);
                let text = String::from_utf8_lossy(&out.stdout).to_string();
                connected = text.contains("connected to") || text.contains("already connected");
            }
            if connected {
                let st = self.adb(&["-s", serial, "get-state"]);
                let text = String::from_utf8_lossy(&st.stdout).to_string()
                    + &String::from_utf8_lossy(&st.stderr);
                if text.trim() == "device" || text.contains("unauthorized") {
                    return true;
                }
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        false
    }

    fn autoplay(&self, dir: &Path, args: &[&str]) -> Command {
        let mut c = Command::new(&self.bin);
        c.env("HOME", dir)
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .env("XDG_DATA_HOME", dir.join("data"))
            .env("AUTOPLAY_DATA", dir.join("runs"))
            .env("AUTOPLAY_CALIBRATION_DIR", dir.join("cal"))
            .env("ANDROID_ADB_SERVER_PORT", self.adb_port.to_string())
            .args(args)
            .stdin(Stdio::null());
        c
    }

    /// Calibrates on a fault-free phone with the run's look (level 1 open), telling it how to
    /// open levels with `navigation`.
    fn calibrate(&self, dir: &Path, d: &Draw) -> Result<(), String> {
        let port = free_port();
        let serial = format!("127.0.0.1:{port}");
        let mut sim = self.sim(port, &d.look);
        let result = (|| {
            if !self.connect(&serial) {
                return Err("the calibration phone did not connect".to_string());
            }
            self.open_a_game(&serial, d);
            // An app without levels: calibrate finds the way to its new games itself.
            let navigation = if d.new_game.is_some() {
                &[][..]
            } else {
                &d.navigation[..]
            };
            let out = self
                .autoplay(dir, &["calibrate", "-s", &serial])
                .args(navigation)
                .output()
                .map_err(|e| e.to_string())?;
            if out.status.success() {
                Ok(())
            } else {
                Err(last_line(&out.stderr))
            }
        })();
        let _ = sim.kill();
        let _ = sim.wait();
        self.adb(&["disconnect", &serial]);
        result
    }

    /// One play on a phone with `args`: its class.
    fn play(&self, dir: &Path, sim_args: &[String], d: &Draw) -> Outcome {
        let port = free_port();
        let serial = format!("127.0.0.1:{port}");
        let mut sim = self.sim(port, sim_args);
        let outcome = if !self.connect(&serial) {
            Outcome {
                class: Class::SetupFailed,
                code: None,
                last_line: "the phone did not connect".into(),
                solved: false,
                repairs: None,
            }
        } else {
            self.play_on(dir, &serial, d)
        };
        let _ = sim.kill();
        let _ = sim.wait();
        self.adb(&["disconnect", &serial]);
        outcome
    }

    /// Opens a game as a user does: level 1 by the app's intent; in an app without levels,
    /// its New Game then Easy, found by their words in `uiautomator dump`.
    fn open_a_game(&self, serial: &str, d: &Draw) {
        if d.new_game.is_none() {
            let open = am_start(d.package).replace("{level}", "1");
            self.adb(&["-s", serial, "shell", &open]);
            return;
        }
        for words in ["New Game", "Easy"] {
            let dump = self.adb(&["-s", serial, "shell", "uiautomator dump /dev/tty"]);
            let dump = String::from_utf8_lossy(&dump.stdout).into_owned();
            let Some(node) = dump
                .split("<node")
                .find(|n| n.contains(&format!("text=\"{words}\"")))
            else {
                return;
            };
            let n: Vec<u32> = node
                .split("bounds=\"")
                .nth(1)
                .unwrap_or("")
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|t| t.parse().ok())
                .take(4)
                .collect();
            if let [x0, y0, x1, y1] = n[..] {
                let tap = format!("input tap {} {}", (x0 + x1) / 2, (y0 + y1) / 2);
                self.adb(&["-s", serial, "shell", &tap]);
                std::thread::sleep(Duration::from_millis(400));
            }
        }
    }

    /// Whether the phone's game is solved, and the one asked for (the level, or a game of the
    /// difficulty): the phone's own word (`dumpsys sudoku`).
    fn solved_on_phone(&self, serial: &str, d: &Draw) -> bool {
        let truth = self.adb(&["-s", serial, "shell", "dumpsys", "sudoku"]);
        let truth: serde_json::Value =
            serde_json::from_slice(&truth.stdout).unwrap_or(serde_json::Value::Null);
        truth["solved"] == true
            && match d.new_game {
                Some(difficulty) => truth["difficulty"]
                    .as_str()
                    .is_some_and(|t| t.eq_ignore_ascii_case(difficulty)),
                None => truth["level"] == d.level,
            }
    }

    /// [`Self::play`] on the phone connected as `serial`.
    fn play_on(&self, dir: &Path, serial: &str, d: &Draw) -> Outcome {
        let (level, strategy) = (d.level, d.strategy);
        self.open_a_game(serial, d);
        let runs = dir.join("runs").join("runs.csv");
        let rows_before = csv_rows(&runs).len();
        let level_s = level.to_string();
        let what = match d.new_game {
            Some(difficulty) => ["--new-game", difficulty],
            None => ["--level", level_s.as_str()],
        };
        let mut child = self
            .autoplay(
                dir,
                &[
                    "-s",
                    serial,
                    what[0],
                    what[1],
                    "--strategy",
                    strategy,
                    "--pace",
                    "0",
                    // A plan that fits the campaign's timeout: a run the player itself
                    // plans longer is no hang (a level with a slow search on a slow channel
                    // shows what fits, then fills the rest).
                    "--budget",
                    &self.budget,
                ],
            )
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("autoplay");
        let stderr = child.stderr.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut { stderr }, &mut s);
            s
        });
        let status = wait_at_most(&mut child, self.timeout);
        let err = reader.join().unwrap_or_default();
        let solved = self.solved_on_phone(serial, d);
        let rows = csv_rows(&runs);
        let row = (rows.len() > rows_before).then(|| rows.last().cloned().unwrap());
        let code = status.and_then(|s| s.code());
        let class = class_of(status.is_some(), code, solved, row.as_deref(), &err);
        Outcome {
            class,
            code,
            last_line: err
                .lines()
                .find(|l| l.starts_with("error"))
                .unwrap_or_else(|| err.lines().last().unwrap_or(""))
                .to_string(),
            solved,
            repairs: row.as_deref().and_then(|r| repairs_of(&runs, r)),
        }
    }
}

/// Waits for `child` at most `timeout` (then kills it: `None`).
fn wait_at_most(
    child: &mut std::process::Child,
    timeout: Duration,
) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            return Some(st);
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The class of a play: whether it `ended` in time, its exit `code`, whether the phone shows
/// the level `solved`, its `row` of runs.csv (if it wrote one), its stderr.
fn class_of(ended: bool, code: Option<i32>, solved: bool, row: Option<&str>, err: &str) -> Class {
    let panicked = err.contains("panicked at");
    match (ended, code) {
        _ if panicked => Class::Panic,
        (false, _) => Class::Hang,
        (_, Some(0)) if !solved => Class::FalseSuccess,
        (_, Some(0)) => match row {
            Some(r) if r.contains(",solved,") || r.contains("solved") => Class::Solved,
            _ => Class::CsvDisagrees,
        },
        (_, _) if solved => Class::UnderClaim,
        _ => match row {
            Some(r) if r.contains(",solved,") => Class::CsvDisagrees,
            _ => Class::HonestFailure,
        },
    }
}

/// The options of `autoplay sim` that are no fault or look of a phone (where it listens, its
/// logging, a file of keys).
const NOT_DRAWN: &[&str] = &[
    "--listen",
    "--listen-any",
    "--verbose",
    "--help",
    "--adb-keys",
    // Canned answers from files: a user's phone's outputs replayed, not a phone of its own.
    "--shell-output",
];

/// Every option `autoplay sim --help` lists is drawn (in `draw`) or in [`NOT_DRAWN`]: a knob
/// added to the simulated phone stops the campaign until it draws it too.
fn check_knobs(bin: &Path) {
    let help = Command::new(bin)
        .args(["sim", "--help"])
        .output()
        .expect("autoplay sim --help");
    let source = include_str!("chaos.rs");
    let missing: Vec<String> = String::from_utf8_lossy(&help.stdout)
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l
                .strip_prefix("-v, ")
                .or(l.strip_prefix("-h, "))
                .unwrap_or(l);
            l.starts_with("--").then(|| {
                l.split(|c: char| c.is_whitespace() || c == ',' || c == '=')
                    .next()
                    .unwrap_or("")
                    .trim_end_matches('.')
                    .to_string()
            })
        })
        .filter(|k| !NOT_DRAWN.contains(&k.as_str()) && !source.contains(&format!("\"{k} ")))
        .filter(|k| !source.contains(&format!("\"{k}\"")))
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "error: `autoplay sim` has knobs the campaign does not draw: {} (add them to `draw` in \
             examples/chaos.rs, or to NOT_DRAWN if they are no fault or look)",
            missing.join(", ")
        );
        std::process::exit(2);
    }
}

/// The `repairs` column of a `runs.csv` row (its fields hold no commas: serials, models and
/// boards do not).
fn repairs_of(path: &Path, row: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let at = text
        .lines()
        .next()?
        .split(',')
        .position(|c| c == "repairs")?;
    row.split(',').nth(at)?.parse().ok()
}

fn csv_rows(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .map(|s| s.lines().skip(1).map(str::to_string).collect())
        .unwrap_or_default()
}

fn last_line(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .lines()
        .find(|l| l.starts_with("error"))
        .unwrap_or("")
        .to_string()
}

/// The campaign's options.
struct Options {
    runs: u64,
    seed: u64,
    timeout: u64,
    bin: PathBuf,
    /// Play only this run (the others are drawn, not played).
    only: Option<u64>,
    /// Print the draws, play nothing.
    list: bool,
}

/// How to run the campaign (`--help`).
const USAGE: &str = "usage: chaos [--runs N] [--seed S] [--timeout SECS] [--bin PATH] [--only RUN] [--list]
  --runs N        runs drawn from the seed (30)
  --seed S        the draws' seed (1)
  --timeout SECS  hard limit per play (120)
  --bin PATH      the autoplay binary (default: the one next to this example, from `cargo build --release`)
  --only RUN      play only that run of the seed's draws, to reproduce it
  --list          print the draws, play nothing";

/// The options from the command line, or why they are not usable (a message for stderr).
fn options() -> Result<Options, String> {
    let mut o = Options {
        runs: 30,
        seed: 1,
        timeout: 120,
        bin: std::env::current_exe()
            .ok()
            .and_then(|p| Some(p.parent()?.parent()?.join("autoplay")))
            .unwrap_or_else(|| PathBuf::from("autoplay")),
        only: None,
        list: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = |what: &str| -> Result<u64, String> {
            let v = args
                .next()
                .ok_or(format!("{a} needs a value: {a} {what}"))?;
            v.parse()
                .map_err(|_| format!("{a} {what}: `{v}` is not a whole number"))
        };
        match a.as_str() {
            "--runs" => o.runs = number("N")?,
            "--seed" => o.seed = number("S")?,
            "--timeout" => o.timeout = number("SECS")?,
            "--only" => o.only = Some(number("RUN")?),
            "--bin" => o.bin = PathBuf::from(args.next().ok_or("--bin needs a value: --bin PATH")?),
            "--list" => o.list = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown option {other}\n{USAGE}")),
        }
    }
    if !o.bin.exists() {
        return Err(format!(
            "{} missing: run `cargo build --release` first (or give --bin PATH)",
            o.bin.display()
        ));
    }
    Ok(o)
}

/// What the campaign counts.
#[derive(Default)]
struct Tally {
    counts: BTreeMap<Class, u64>,
    faults_only: u64,
    recoverable_unsolved: u64,
    repaired_lossless: u64,
}

fn main() {
    let o = options().unwrap_or_else(|e| {
        eprintln!("chaos: {e}");
        std::process::exit(2);
    });
    let env = Env {
        bin: o.bin,
        adb_port: free_port(),
        timeout: Duration::from_secs(o.timeout),
        budget: format!("{}s", o.timeout / 2),
    };
    check_knobs(&env.bin);
    let _ = env.adb(&["start-server"]);
    let mut rng = Rng(o.seed);
    let mut tally = Tally::default();
    for run in 1..=o.runs {
        let d = draw(&mut rng);
        if o.list {
            println!(
                "run {run:3}: {} {}{} | {}",
                d.what(),
                d.strategy,
                if d.recoverable {
                    ""
                } else {
                    " (not recoverable)"
                },
                d.look
                    .iter()
                    .chain(&d.faults)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        } else if o.only.is_none_or(|n| n == run) {
            one_run(&env, run, &d, &mut tally);
        }
    }
    let _ = env.adb(&["kill-server"]);
    if !o.list {
        summary(o.seed, tally.counts.values().sum(), &tally);
    }
}

/// Plays one drawn run (calibration, play, a replay without faults where it tells something)
/// and prints what happened.
fn one_run(env: &Env, run: u64, d: &Draw, tally: &mut Tally) {
    let dir = tempfile::tempdir().unwrap();
    let faulty: Vec<String> = d.look.iter().chain(&d.faults).cloned().collect();
    let sim_cmd = format!("autoplay sim {}", faulty.join(" "));
    let play_cmd = match d.new_game {
        Some(difficulty) => format!(
            "autoplay --new-game {difficulty} --strategy {} --pace 0",
            d.strategy
        ),
        None => format!(
            "autoplay --level {} --strategy {} --pace 0",
            d.level, d.strategy
        ),
    };
    let outcome = match env.calibrate(dir.path(), d) {
        Err(e) => Outcome {
            class: Class::SetupFailed,
            code: None,
            last_line: format!("calibration failed: {e}"),
            solved: false,
            repairs: None,
        },
        Ok(()) => env.play(dir.path(), &faulty, d),
    };
    *tally.counts.entry(outcome.class).or_default() += 1;
    println!(
        "run {run:3}: {:?} (exit {:?}) {} {} | {}",
        outcome.class,
        outcome.code,
        d.what(),
        d.strategy,
        faulty.join(" ")
    );
    if outcome.class == Class::Solved {
        // Taps all land there: a repair means the player's taps did not do what it meant
        // (its model of the app is off), even though the run ended well.
        if let (true, Some(n @ 1..)) = (d.lossless, outcome.repairs) {
            tally.repaired_lossless += 1;
            println!("    solved, but with {n} repair(s) on a phone that loses no tap");
            println!("    reproduce: {sim_cmd}");
            println!("               {play_cmd}");
        }
        return;
    }
    println!("    {}", outcome.last_line);
    println!("    reproduce: {sim_cmd}");
    println!(
        "               (calibrate with `autoplay calibrate {} '{}'` on level 1)",
        d.navigation[0], d.navigation[1]
    );
    println!("               {play_cmd}");
    if outcome.solved {
        // An under-claim: solved on the phone, but the player said otherwise.
        return;
    }
    if d.recoverable && !d.faults.is_empty() && without_faults(env, dir.path(), d) {
        tally.faults_only += 1;
    }
    if d.recoverable {
        tally.recoverable_unsolved += 1;
    }
}

/// The play of `d` again without its faults: whether it then solves (the faults' failure, not
/// the style's own); says which.
fn without_faults(env: &Env, dir: &Path, d: &Draw) -> bool {
    let again = env.play(dir, &d.look, d);
    let whose = if again.solved {
        " (the faults' failure)"
    } else {
        " (the style's own failure)"
    };
    println!("    without faults: {:?}{whose}", again.class);
    again.solved
}

fn summary(seed: u64, runs: u64, tally: &Tally) {
    println!("\nseed {seed}, {runs} runs played");
    println!("{:<16} {:>5}", "class", "runs");
    for class in [
        Class::Solved,
        Class::FalseSuccess,
        Class::HonestFailure,
        Class::UnderClaim,
        Class::Hang,
        Class::Panic,
        Class::CsvDisagrees,
        Class::SetupFailed,
    ] {
        println!(
            "{:<16} {:>5}",
            format!("{class:?}"),
            tally.counts.get(&class).copied().unwrap_or(0)
        );
    }
    println!(
        "recoverable runs not solved: {} ({} solved once the faults were off)",
        tally.recoverable_unsolved, tally.faults_only
    );
    println!(
        "solved with repairs on a phone that loses no tap: {}",
        tally.repaired_lossless
    );
}
