//! `autoplay sim`: run the simulated phone so the real `adb` can connect to it.

use super::choice::choice;
use anyhow::{Context, bail};
use autoplay_sim::adb::auth::NewKeys;
use autoplay_sim::app::hazards::{HazardOptions, LockScreen};
use autoplay_sim::app::rules::{
    BrushRetap, CompletionCheck, EndForm, EraseRule, FinishedKeyLook, InputOrder, InputRules,
    Language, Mistakes, Preset, Retap, SameDigitAgain, SelectionAfterEntry,
};
use autoplay_sim::app::style::Style;
use autoplay_sim::app::{AppOptions, KeypadStyle, Theme};
use autoplay_sim::timing::TimingMode;
use autoplay_sim::{AuthConfig, SimConfig, Stall, profile};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Run the simulated phone: a Sudoku app behind the real ADB protocol (`adb connect`).
#[derive(Debug, Args)]
#[command(
    after_help = "Then: adb connect 127.0.0.1:5555 && adb shell dumpsys sudoku\n\n\
Timing: --timing phone makes the phone's work cost what the profile's phone costs (each `input` \
command's Java start-up, each native process such as `sendevent`, `screencap` raw and PNG, the app's \
UI time per tap; the table is in docs/simulated-phone.md, \"The simulated phone's timing model\"); \
the default, instant, costs nothing.\n\n\
Android versions: from Android 10 the shell may not write /dev/input (`raw` and `events` \
fail with Permission denied) unless --adb-root; `input` costs a Java start-up per call up to \
Android 11, a smaller `cmd input` cost from Android 12; with --inject-denied a refused injection \
is thrown from Android 13, dropped at dispatch before (see --inject-denied). The profiles cover \
Android 6 (small), 9 (budget), 11 (entry), 12 (midrange), 13 (tablet), 14 (pixel), 15 (flagship) \
and 16 (emulator); docs/simulated-phone.md has the sources.\n\n\
Realism knobs (all off by default): --input-latency-ms makes every `input` command slower, \
--drop-taps loses taps at random, --popup-after shows a 'Rate this app' dialog that swallows \
taps until BACK, --disconnect-after drops the connection once (the phone keeps listening, so \
adb reconnects). App hazards: --mistake-limit ends the game after N wrong digits, \
--background-after sends the app to the background (the launcher shows), --screen-off-after \
turns the display off after idle time (waking it shows the --lock-screen).\n\n\
Input rules (how the app takes taps, the classes of behaviour read from real apps' source; each \
combines with every style, profile and fault knob): --input-rules PRESET sets them together, the \
flags after it (--input-order, --retap, --retap-brush, --after-entry, --same-digit, --erase, \
--lock-correct, --refuse-conflicts, --mistakes, --completion, --completion-check, --game-over, \
--language, --finished-keys, --undo-key, --frame-reads) change one each. `dumpsys sudoku` shows them under \
\"rules\", with the mistake count.\n\n\
Real apps' screens and puzzles (docs/simulated-phone.md): --style faded draws entries in the \
givens' ink at half opacity, --style shaded givens on grey cells with the selected digit's \
equals in red; --cover lays a coach mark (a dimmed screen, a gesture stroke across the board) \
over the first game; --several-solutions makes levels with more than one solution, and \
--completion-check says whether any valid full board or only the app's stored solution counts \
as solved (other entries marked in red). Another app on the same phone: --package NAME. The \
display size the user chose: --override-density DPI."
)]
pub struct SimArgs {
    /// Address to listen on (loopback only unless --listen-any).
    #[arg(long, default_value = "127.0.0.1:5555")]
    listen: SocketAddr,
    /// Allow a non-loopback --listen address (exposes an unauthenticated shell unless --auth).
    #[arg(long)]
    listen_any: bool,
    #[arg(long, default_value = "pixel", value_parser = parse_profile, help = profile_help())]
    profile: &'static profile::Profile,
    /// App colour theme.
    #[arg(long, value_parser = choice::<Theme>(), default_value = "light")]
    theme: Theme,
    /// Keypad layout (default: row; a --style may bring its own).
    #[arg(long, value_parser = choice::<KeypadStyle>())]
    keypad: Option<KeypadStyle>,
    #[arg(long, default_value = "classic", value_parser = parse_style, help = style_help())]
    style: Style,
    /// Show digits that break a rule in red.
    #[arg(long)]
    show_conflicts: bool,
    /// The level list is one list that scrolls (swipe up for later levels), as most real
    /// apps have it, instead of pages with Prev and Next buttons.
    #[arg(long)]
    scrolling_levels: bool,
    /// The app's package name (default org.autoplay.sudoku): another app on the same phone.
    /// `dumpsys window`'s focus, `am start -n NAME/.GameActivity`, `monkey -p NAME`,
    /// `uiautomator dump`'s package attributes and `dumpsys sudoku` follow it.
    #[arg(long, value_name = "NAME", value_parser = parse_package)]
    package: Option<String>,
    /// Levels have more than one solution, as apps make them that blank cells of a full grid
    /// at random: each level's givens are thinned until a second solution exists; the app
    /// keeps the grid it blanked as its solution (see --completion-check).
    #[arg(long)]
    several_solutions: bool,
    /// A coach mark covers the first game the app opens: the screen dimmed, a thick white
    /// gesture stroke drawn across the board; a tap anywhere (taken by it) or BACK dismisses it.
    #[arg(long)]
    cover: bool,
    /// An app without numbered levels, as the apps most people use are: a home screen with New
    /// Game (and Continue while a game is under way), a sheet of five difficulties (Easy,
    /// Medium, Hard, Expert, Master; each new game a fresh puzzle of it, drawn from --seed),
    /// "Start a new game?" before a game in progress is thrown away, the difficulty in the
    /// game's header, and a result screen with New Game.
    #[arg(long)]
    new_games: bool,
    /// A free app's ads: a full-screen ad after every completed game (BACK closes it only after
    /// a few seconds, some never; its close control shows late, in a corner; a tap on its body
    /// opens a store page in another app) and a banner under the board.
    #[arg(long)]
    ads: bool,
    /// Seed for the app's randomness (e.g. which taps --drop-taps loses).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Require ADB authentication (RSA key signature), like a phone with USB debugging secured.
    #[arg(long)]
    auth: bool,
    /// Trusted host keys in Android's adb_keys format (lines of an adbkey.pub); with --auth,
    /// keys accepted the first time are appended here.
    #[arg(long, value_name = "FILE", requires = "auth")]
    adb_keys: Option<PathBuf>,
    /// With --auth: refuse keys not in --adb-keys (the user taps "Deny") instead of accepting
    /// them the first time ("Always allow").
    #[arg(long, requires = "auth")]
    deny_new_keys: bool,
    /// Whether the phone's work takes time: `instant` (nothing costs anything) or `phone`
    /// (the profile's measured costs; docs/simulated-phone.md has the table).
    #[arg(long, value_parser = choice::<TimingMode>(), default_value = "instant")]
    timing: TimingMode,
    /// Realism: extra milliseconds each `input` command takes.
    #[arg(long, value_name = "N", default_value_t = 0)]
    input_latency_ms: u64,
    /// Realism: probability (0..1) that a tap is silently lost.
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = parse_probability)]
    drop_taps: f64,
    /// Realism: after N taps a "Rate this app" dialog swallows taps until BACK.
    #[arg(long, value_name = "N")]
    popup_after: Option<u64>,
    /// Realism: a busy phone. Every N-th read of a tap stream (the `raw` channel's `dd`, the
    /// tap injector's stdin) comes MS milliseconds late, so the taps sent meanwhile reach the
    /// app together, however far apart they were sent (e.g. `8:60`).
    #[arg(long, value_name = "N:MS", value_parser = parse_stall)]
    stream_stall: Option<Stall>,
    /// Realism: drop the TCP connection after N shell commands (once).
    #[arg(long, value_name = "N")]
    disconnect_after: Option<u64>,
    /// Realism: a phone still starting (just plugged in, or rebooting). For MS milliseconds
    /// after it listens, adb answers but the system server is not up: `wm` and `dumpsys window`
    /// fail as they do then, `getprop sys.boot_completed` is empty.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    starting_ms: u64,
    /// App hazard: "Game over" after N wrong digits (digits that differ from the solution),
    /// like popular apps' default of 3.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    mistake_limit: Option<u32>,
    /// Phone hazard: after N taps the app goes to the background (the launcher shows).
    #[arg(long, value_name = "N")]
    background_after: Option<u64>,
    /// Phone hazard: the display turns off after SECS seconds without input.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    screen_off_after: Option<Duration>,
    /// A userdebug phone after `adb root`: the shell may write /dev/input on any Android
    /// version (stock Android 10 and later refuse it, so `raw` and `events` cannot work there).
    #[arg(long)]
    adb_root: bool,
    /// A phone that refuses injected input, as Xiaomi (MIUI, HyperOS), Honor and others do
    /// before "USB debugging (Security settings)" is on and the phone rebooted. From Android 13
    /// `input` and the tap injector get a SecurityException at once. Up to Android 12 the
    /// injector is answered `ok` and its taps are dropped, with only a line in `logcat -d`
    /// ("Permission denied: injecting event from pid ... uid 2000"), while `input` prints the
    /// SecurityException (exit 1 up to Android 11, 255 from 12); the wake, sleep and power keys
    /// and HOME still work there. Root (--adb-root) may inject whatever the setting says.
    #[arg(long)]
    inject_denied: bool,
    /// The lock screen shown when the display turns back on.
    #[arg(long, value_parser = choice::<LockScreen>(), default_value = "swipe")]
    lock_screen: LockScreen,
    /// How the phone is held: the display's rotation in degrees from its natural portrait
    /// (90: landscape, the natural top on the left; the app puts its keypad beside the board).
    /// The touch panel keeps its natural axes, as real panels do: writers of raw touch events
    /// must turn their coordinates; `input` and the injector take the rotated display's.
    #[arg(long, value_name = "DEGREES", default_value = "0", value_parser = parse_rotation)]
    rotation: u8,
    /// The display density the user chose (Settings > Display size, or `wm density DPI`):
    /// the app is laid out at it, and `wm density` prints `Physical density:` and then
    /// `Override density: DPI`, as real phones do (72 or more, as `wm` takes).
    #[arg(long, value_name = "DPI", value_parser = clap::value_parser!(u32).range(72..))]
    override_density: Option<u32>,
    #[command(flatten)]
    rules: RulesArgs,
    /// A way real phones print their commands, on top of the profile's own (repeatable; see
    /// `--help` for each and which profiles have them).
    #[arg(long = "quirk", value_name = "QUIRK", value_parser = choice::<Quirk>())]
    quirks: Vec<Quirk>,
    /// Answer shell commands starting with PREFIX with FILE's bytes (repeatable; the longest
    /// prefix wins), e.g. 'getevent -p=their-getevent.txt': replays a user's phone's output
    /// (from a bug report) against the player.
    #[arg(long = "shell-output", value_name = "PREFIX=FILE", value_parser = parse_shell_output)]
    shell_outputs: Vec<(String, PathBuf)>,
}

// How the simulated app takes taps (`autoplay_sim::app::rules`).
#[derive(Debug, Args)]
pub struct RulesArgs {
    #[arg(long, value_name = "PRESET", value_parser = parse_preset, help = preset_help())]
    input_rules: Option<&'static Preset>,
    /// Input rule: which comes first, the cell or the digit.
    #[arg(long, value_parser = choice::<InputOrder>())]
    input_order: Option<InputOrder>,
    /// Input rule: a tap on the cell that is already selected.
    #[arg(long, value_parser = choice::<Retap>())]
    retap: Option<Retap>,
    /// Input rule: a tap on the digit key that is the active brush (digit-first).
    #[arg(long, value_parser = choice::<BrushRetap>())]
    retap_brush: Option<BrushRetap>,
    /// Input rule: the selection after a digit went into a cell.
    #[arg(long, value_parser = choice::<SelectionAfterEntry>())]
    after_entry: Option<SelectionAfterEntry>,
    /// Input rule: the digit a cell holds, tapped again (default: the style's: cleared
    /// without an erase key, else entered again).
    #[arg(long, value_parser = choice::<SameDigitAgain>())]
    same_digit: Option<SameDigitAgain>,
    /// Input rule: the erase key.
    #[arg(long, value_parser = choice::<EraseRule>())]
    erase: Option<EraseRule>,
    /// Input rule: digits equal to the solution's cannot be overwritten or erased (only undo
    /// takes them back).
    #[arg(long)]
    lock_correct: bool,
    /// Input rule: a digit that repeats in its row, column or box is refused with an alert
    /// ("Invalid move", OK; BACK does not close it) and counts as a mistake.
    #[arg(long)]
    refuse_conflicts: bool,
    /// Input rule: what counts as a mistake (against --mistake-limit).
    #[arg(long, value_parser = choice::<Mistakes>())]
    mistakes: Option<Mistakes>,
    /// Input rule: how the completion shows.
    #[arg(long, value_parser = choice::<EndForm>())]
    completion: Option<EndForm>,
    /// Input rule: when the level counts as solved (with --several-solutions the two differ).
    #[arg(long, value_parser = choice::<CompletionCheck>())]
    completion_check: Option<CompletionCheck>,
    /// Input rule: how the game over (--mistake-limit) shows.
    #[arg(long, value_parser = choice::<EndForm>())]
    game_over: Option<EndForm>,
    /// Input rule: the language of the end screens and alerts.
    #[arg(long, value_parser = choice::<Language>())]
    language: Option<Language>,
    /// Input rule: the key of a digit placed nine times (default: the style's).
    #[arg(long, value_parser = choice::<FinishedKeyLook>())]
    finished_keys: Option<FinishedKeyLook>,
    /// Input rule: an undo key (the last entry back, last in first out) in the app bar, or the
    /// action row's Undo.
    #[arg(long)]
    undo_key: bool,
    /// Input rule: taps read the last drawn frame: two taps within one frame interval
    /// (16.7 ms) both see the state before the first.
    #[arg(long)]
    frame_reads: bool,
    /// Input rule: with a mistake limit, no counter ("Mistakes: 0/3") shows on the game screen
    /// (by default it shows in the app bar).
    #[arg(long)]
    hide_mistakes: bool,
    /// Input rule: the keypad (digits and erase key) shows only while a cell that takes digits
    /// is selected (cell-first and both orders).
    #[arg(long)]
    keypad_on_select: bool,
}

impl RulesArgs {
    /// The preset's rules with the flags' changes, and the preset's mistake limit.
    fn rules(&self) -> (InputRules, Option<u32>) {
        let (mut r, limit) = self.input_rules.map_or((InputRules::default(), None), |p| {
            (p.rules, p.mistake_limit)
        });
        r.order = self.input_order.unwrap_or(r.order);
        r.retap = self.retap.unwrap_or(r.retap);
        r.retap_brush = self.retap_brush.unwrap_or(r.retap_brush);
        r.after_entry = self.after_entry.unwrap_or(r.after_entry);
        r.same_digit = self.same_digit.or(r.same_digit);
        r.erase = self.erase.unwrap_or(r.erase);
        r.lock_correct |= self.lock_correct;
        r.refuse_conflicts |= self.refuse_conflicts;
        r.mistakes = self.mistakes.unwrap_or(r.mistakes);
        r.completion = self.completion.unwrap_or(r.completion);
        r.check = self.completion_check.unwrap_or(r.check);
        r.game_over = self.game_over.unwrap_or(r.game_over);
        r.language = self.language.unwrap_or(r.language);
        r.finished_keys = self.finished_keys.or(r.finished_keys);
        r.undo_key |= self.undo_key;
        r.frame_reads |= self.frame_reads;
        r.hide_mistakes |= self.hide_mistakes;
        r.keypad_on_select |= self.keypad_on_select;
        (r, limit)
    }
}

fn parse_preset(name: &str) -> Result<&'static Preset, String> {
    Preset::by_name(name).ok_or_else(|| {
        format!(
            "unknown input rules '{name}'; choose one of: {}",
            Preset::names().join(", ")
        )
    })
}

/// "Input rules preset: plain (...); ..." from the presets.
fn preset_help() -> String {
    let list: Vec<String> = autoplay_sim::app::rules::PRESETS
        .iter()
        .map(|p| {
            let limit = p
                .mistake_limit
                .map(|n| format!("; --mistake-limit {n} unless given"))
                .unwrap_or_default();
            format!("{} ({}{limit})", p.name, p.about)
        })
        .collect();
    format!(
        "Input rules preset, rules combined as real apps do (the flags below change single \
         rules): {}",
        list.join("; ")
    )
}

/// The phone quirks the command line can add (see [`profile::Quirks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quirk {
    Displays,
    AnrSnapshot,
    SamsungPower,
    WakefulnessObserver,
    Doze,
    DecoyPanels,
    ProtocolA,
    UiIdleError,
    RawHeader12,
    NoSysKeys,
    NoScreenrecord,
}

impl super::choice::Choice for Quirk {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            Quirk::Displays,
            "displays",
            "a second display (a cover screen): screencap without -d warns first, dumpsys window shows two focus lines (flagship)",
        ),
        (
            Quirk::AnrSnapshot,
            "anr-snapshot",
            "dumpsys input keeps an old ANR's snapshot with queued events (flagship)",
        ),
        (
            Quirk::SamsungPower,
            "samsung-power",
            "dumpsys power says getWakefulnessLocked()= instead of mWakefulness= (budget)",
        ),
        (
            Quirk::WakefulnessObserver,
            "wakefulness-observer",
            "dumpsys power also prints Android 16's wakefulness as a number (emulator)",
        ),
        (
            Quirk::Doze,
            "doze",
            "the display off is the always-on display: Dozing, not Asleep (budget)",
        ),
        (
            Quirk::DecoyPanels,
            "decoy-panels",
            "two more multitouch nodes that drive nothing, one listed before the real panel (tablet: one; emulator: ten)",
        ),
        (
            Quirk::ProtocolA,
            "protocol-a",
            "the touch panel speaks multitouch protocol A: no slots (small)",
        ),
        (
            Quirk::UiIdleError,
            "ui-idle-error",
            "uiautomator dump says 'ERROR: could not get idle state.' while the screen animates (flagship)",
        ),
        (
            Quirk::RawHeader12,
            "raw-header-12",
            "raw screencap has the 12-byte header of Android 7 and older (small)",
        ),
        (
            Quirk::NoSysKeys,
            "no-sys-keys",
            "no physical keys: monkey aborts unless --pct-syskeys 0 (emulator)",
        ),
        (
            Quirk::NoScreenrecord,
            "no-screenrecord",
            "no screenrecord, as some OEM builds leave it out: the shell says it is not found",
        ),
    ];
}

impl Quirk {
    fn apply(self, q: &mut profile::Quirks) {
        match self {
            Quirk::Displays => q.extra_displays = q.extra_displays.max(1),
            Quirk::AnrSnapshot => q.anr_snapshot = true,
            Quirk::SamsungPower => q.wakefulness = profile::WakeFormat::Samsung,
            Quirk::WakefulnessObserver => q.wakefulness = profile::WakeFormat::Observer,
            Quirk::Doze => q.doze = true,
            Quirk::DecoyPanels => q.decoy_panels = q.decoy_panels.max(2),
            Quirk::ProtocolA => q.protocol_a = true,
            Quirk::UiIdleError => q.ui_idle_error = true,
            Quirk::RawHeader12 => q.raw_header_12 = true,
            Quirk::NoSysKeys => q.no_sys_keys = true,
            Quirk::NoScreenrecord => q.no_screenrecord = true,
        }
    }
}

fn parse_shell_output(s: &str) -> Result<(String, PathBuf), String> {
    match s.split_once('=') {
        Some((prefix, file)) if !prefix.trim().is_empty() && !file.is_empty() => {
            Ok((prefix.trim().to_string(), PathBuf::from(file)))
        }
        _ => Err(format!(
            "'{s}' is not PREFIX=FILE (e.g. 'getevent -p=getevent.txt')"
        )),
    }
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() && v < 1e7 => Ok(Duration::from_secs_f64(v)),
        _ => Err(format!("'{s}' is not a number of seconds above 0")),
    }
}

/// "Device profile: budget (720x1520, Android 9), ..." from the profile table.
fn profile_help() -> String {
    let list: Vec<String> = profile::PROFILES
        .iter()
        .map(|p| {
            format!(
                "{} ({}x{}, Android {}{})",
                p.name,
                p.width,
                p.height,
                p.release,
                if p.shell_may_write_panel(false) {
                    ", touch panel writable"
                } else {
                    ""
                }
            )
        })
        .collect();
    format!("Device profile: {}", list.join(", "))
}

/// "App style: classic (...), bold (...), ..." from the presets.
fn style_help() -> String {
    let list: Vec<String> = Style::all()
        .map(|s| format!("{} ({})", s.name, s.about))
        .collect();
    format!(
        "App style, how the app draws its game screen: {}",
        list.join("; ")
    )
}

fn parse_style(name: &str) -> Result<Style, String> {
    Style::by_name(name).ok_or_else(|| {
        format!(
            "unknown style '{name}'; choose one of: {}",
            Style::names().join(", ")
        )
    })
}

/// `--rotation`: 0, 90, 180 or 270 degrees, as quarter turns.
fn parse_rotation(s: &str) -> Result<u8, String> {
    match s {
        "0" => Ok(0),
        "90" => Ok(1),
        "180" => Ok(2),
        "270" => Ok(3),
        _ => Err(format!("'{s}' is not a rotation: use 0, 90, 180 or 270")),
    }
}

fn parse_profile(name: &str) -> Result<&'static profile::Profile, String> {
    profile::profile(name).ok_or_else(|| {
        format!(
            "unknown profile '{name}'; choose one of: {}",
            profile::names().join(", ")
        )
    })
}

/// A Java package name as Android takes it (`PackageParser.validateName`): two or more
/// dot-separated parts, each a letter followed by letters, digits or underscores.
fn parse_package(s: &str) -> Result<String, String> {
    let parts: Vec<&str> = s.split('.').collect();
    let part = |p: &&str| {
        p.starts_with(|c: char| c.is_ascii_alphabetic())
            && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if parts.len() >= 2 && parts.iter().all(part) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "'{s}' is not a package name: use two or more dot-separated parts, each a letter \
             followed by letters, digits or underscores (e.g. com.example.sudoku)"
        ))
    }
}

fn parse_probability(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("'{s}' is not a probability between 0 and 1")),
    }
}

fn parse_stall(s: &str) -> Result<Stall, String> {
    let parsed = s.split_once(':').and_then(|(n, ms)| {
        Some(Stall {
            every: n.parse().ok().filter(|&n| n > 0)?,
            late: Duration::from_millis(ms.parse().ok()?),
        })
    });
    parsed.ok_or_else(|| format!("'{s}' is not N:MS (every N-th read MS milliseconds late)"))
}

impl SimArgs {
    fn config(&self) -> anyhow::Result<SimConfig> {
        let mut profile = self.profile.clone();
        for q in &self.quirks {
            q.apply(&mut profile.quirks);
        }
        profile.rotation = self.rotation;
        profile.override_density = self.override_density;
        let mut config = SimConfig::new(profile);
        for (prefix, file) in &self.shell_outputs {
            let bytes = std::fs::read(file).with_context(|| {
                format!(
                    "--shell-output '{prefix}={}': cannot read the file",
                    file.display()
                )
            })?;
            config.shell_outputs.push((prefix.clone(), bytes));
        }
        let (rules, preset_limit) = self.rules.rules();
        config.app = AppOptions {
            theme: self.theme,
            keypad: self.keypad.unwrap_or_default(),
            style: self.style,
            seed: self.seed,
            show_conflicts: self.show_conflicts,
            drop_taps: self.drop_taps,
            popup_after: self.popup_after,
            mistake_limit: self.mistake_limit.or(preset_limit),
            rules,
            hazards: HazardOptions {
                background_after: self.background_after,
                screen_off_after: self.screen_off_after,
                lock_screen: self.lock_screen,
            },
            palette: None,
            scrolling_levels: self.scrolling_levels,
            package: self.package.clone(),
            several_solutions: self.several_solutions,
            cover: self.cover,
            new_games: self.new_games,
            ads: self.ads,
        };
        config.input_latency = Duration::from_millis(self.input_latency_ms);
        config.timing = self.timing;
        config.disconnect_after = self.disconnect_after;
        config.starting = Duration::from_millis(self.starting_ms);
        config.stream_stall = self.stream_stall;
        config.adb_root = self.adb_root;
        config.inject_denied = self.inject_denied;
        config.auth = self.auth.then(|| AuthConfig {
            keys_file: self.adb_keys.clone(),
            new_keys: if self.deny_new_keys {
                NewKeys::Deny
            } else {
                NewKeys::Accept
            },
        });
        Ok(config)
    }
}

/// Runs the phone until Ctrl-C.
pub fn run(args: SimArgs) -> anyhow::Result<i32> {
    if !args.listen.ip().is_loopback() && !args.listen_any {
        bail!(
            "refusing to listen on {}: not a loopback address. Use --listen 127.0.0.1:PORT, \
             or add --listen-any (and preferably --auth) to expose the phone on the network",
            args.listen
        );
    }
    if let (Some(k), Some(own)) = (args.keypad, args.style.keypad)
        && k != own
    {
        bail!(
            "--style {} has its own keypad ({}); drop --keypad {}",
            args.style.name,
            own.name(),
            k.name()
        );
    }
    let config = args.config()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        let addr = listener.local_addr()?;
        print_phone(&config, addr);
        println!("sim: connect with: adb connect {addr}");
        tokio::select! {
            r = autoplay_sim::serve(listener, config) => r?,
            _ = tokio::signal::ctrl_c() => println!("sim: stopped"),
        }
        Ok(0)
    })
}

/// What the phone is, where it listens, and what it answers from files.
fn print_phone(config: &SimConfig, addr: std::net::SocketAddr) {
    let p = &config.profile;
    let (w, h) = p.display_size();
    let turned = match p.rotation {
        0 => String::new(),
        r => format!(" turned {}°", u32::from(r) * 90),
    };
    let density = match p.override_density {
        Some(d) => format!("{d}dpi (physical {})", p.density),
        None => format!("{}dpi", p.density),
    };
    println!(
        "sim: {} ({}, {w}x{h}{turned} @{density}, Android {}, {:?} timing) listening on {addr}{}",
        p.model,
        p.name,
        p.release,
        config.timing,
        if config.auth.is_some() {
            ", auth on"
        } else {
            ""
        }
    );
    let quirks = p.quirks.describe();
    if !quirks.is_empty() {
        println!("sim: quirks: {}", quirks.join(", "));
    }
    if !config.shell_outputs.is_empty() {
        let prefixes: Vec<&str> = config
            .shell_outputs
            .iter()
            .map(|(p, _)| p.as_str())
            .collect();
        println!("sim: canned answers for: {}", prefixes.join(" | "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        sim: SimArgs,
    }

    fn parse(args: &[&str]) -> Result<SimArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("sim").chain(args.iter().copied())).map(|c| c.sim)
    }

    #[test]
    fn knobs_reach_the_config() {
        let a = parse(&[
            "--profile",
            "budget",
            "--theme",
            "dark",
            "--keypad",
            "two-rows",
            "--show-conflicts",
            "--seed",
            "9",
            "--input-latency-ms",
            "15",
            "--drop-taps",
            "0.25",
            "--popup-after",
            "40",
            "--disconnect-after",
            "7",
            "--starting-ms",
            "2500",
            "--stream-stall",
            "8:60",
            "--timing",
            "phone",
            "--auth",
            "--adb-keys",
            "/tmp/k",
            "--deny-new-keys",
        ])
        .unwrap();
        let c = a.config().unwrap();
        assert_eq!(c.profile.name, "budget");
        assert_eq!(
            (c.app.theme, c.app.keypad),
            (Theme::Dark, KeypadStyle::TwoRows)
        );
        assert!(c.app.show_conflicts);
        assert_eq!(
            (c.app.seed, c.app.drop_taps, c.app.popup_after),
            (9, 0.25, Some(40))
        );
        assert_eq!(c.input_latency, Duration::from_millis(15));
        assert_eq!(c.disconnect_after, Some(7));
        assert_eq!(c.starting, Duration::from_millis(2500));
        assert_eq!(
            c.stream_stall,
            Some(Stall {
                every: 8,
                late: Duration::from_millis(60)
            })
        );
        assert!(parse(&["--stream-stall", "0:60"]).is_err());
        assert_eq!(c.timing, TimingMode::Phone);
        let auth = c.auth.unwrap();
        assert_eq!(auth.new_keys, NewKeys::Deny);
        assert_eq!(
            auth.keys_file.as_deref(),
            Some(std::path::Path::new("/tmp/k"))
        );
    }

    #[test]
    fn a_style_brings_its_keypad_and_the_defaults_stay() {
        let s = parse(&["--style", "disc"]).unwrap().config().unwrap();
        assert_eq!(s.app.style.name, "disc");
        assert_eq!(s.app.keypad(), KeypadStyle::Grid);
        let d = parse(&[]).unwrap();
        assert_eq!(d.listen.to_string(), "127.0.0.1:5555");
        let c = d.config().unwrap();
        assert!(c.auth.is_none() && c.disconnect_after.is_none() && c.app.popup_after.is_none());
        assert_eq!(c.app.drop_taps, 0.0);
        assert_eq!(c.timing, TimingMode::Instant, "instant stays the default");
    }

    #[test]
    fn input_rules_come_from_a_preset_and_the_flags() {
        let c = parse(&[]).unwrap().config().unwrap();
        assert_eq!(c.app.rules, InputRules::default(), "today's behaviour");
        let c = parse(&[
            "--input-rules",
            "locked-correct-limit3",
            "--language",
            "russian",
        ])
        .unwrap()
        .config()
        .unwrap();
        let r = c.app.rules;
        assert!(r.lock_correct && r.frame_reads && r.undo_key);
        assert_eq!(r.order, InputOrder::DigitFirst);
        assert_eq!(r.language, Language::Russian, "a flag overrides the preset");
        assert_eq!(c.app.mistake_limit, Some(3), "the preset's limit");
        let c = parse(&[
            "--input-rules",
            "locked-correct-limit3",
            "--mistake-limit",
            "5",
        ])
        .unwrap()
        .config()
        .unwrap();
        assert_eq!(c.app.mistake_limit, Some(5), "--mistake-limit wins");
    }

    #[test]
    fn every_input_rule_has_its_flag() {
        let c = parse(&[
            "--input-order",
            "both",
            "--retap",
            "deselect",
            "--retap-brush",
            "clear",
            "--after-entry",
            "clear",
            "--same-digit",
            "clear-late",
            "--erase",
            "inert",
            "--refuse-conflicts",
            "--mistakes",
            "rules",
            "--completion",
            "line",
            "--game-over",
            "screen",
            "--finished-keys",
            "removed",
            "--style",
            "disc",
        ])
        .unwrap()
        .config()
        .unwrap();
        let r = c.app.rules;
        assert_eq!(
            (r.order, r.retap, r.retap_brush, r.after_entry),
            (
                InputOrder::Both,
                Retap::Deselect,
                BrushRetap::Clear,
                SelectionAfterEntry::Clear
            )
        );
        assert_eq!(
            (r.same_digit, r.erase, r.mistakes),
            (
                Some(SameDigitAgain::ClearLate),
                EraseRule::Inert,
                Mistakes::Rules
            )
        );
        assert_eq!(
            (r.completion, r.game_over),
            (EndForm::Line, EndForm::Screen)
        );
        assert_eq!(r.finished_keys, Some(FinishedKeyLook::Removed));
        assert!(r.refuse_conflicts && !r.lock_correct);
        let e = parse(&["--input-rules", "nope"]).err().unwrap().to_string();
        assert!(e.contains("choose one of: plain, deselect-brush"), "{e}");
    }

    #[test]
    fn bad_options_are_explained() {
        let e = parse(&["--profile", "nokia"]).err().unwrap().to_string();
        assert!(e.contains("choose one of: budget, pixel"), "{e}");
        let e = parse(&["--style", "fancy"]).err().unwrap().to_string();
        assert!(e.contains("choose one of: classic, bold"), "{e}");
        let e = parse(&["--override-density", "50"])
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("50"), "{e}");
        let c = parse(&["--override-density", "480"])
            .unwrap()
            .config()
            .unwrap();
        assert_eq!((c.profile.density, c.profile.applied_density()), (420, 480));
        let c = parse(&[
            "--several-solutions",
            "--completion-check",
            "solution",
            "--cover",
            "--style",
            "faded",
        ])
        .unwrap()
        .config()
        .unwrap();
        assert!(c.app.several_solutions && c.app.cover);
        assert_eq!(c.app.rules.check, CompletionCheck::Solution);
        assert_eq!(c.app.style.name, "faded");
        let e = parse(&["--package", "sudoku"]).err().unwrap().to_string();
        assert!(e.contains("not a package name"), "{e}");
        let c = parse(&["--package", "com.example.sudoku_2"])
            .unwrap()
            .config()
            .unwrap();
        assert_eq!(c.app.package(), "com.example.sudoku_2");
        let e = parse(&["--drop-taps", "2"]).err().unwrap().to_string();
        assert!(e.contains("between 0 and 1"), "{e}");
        assert!(
            parse(&["--adb-keys", "f"]).is_err(),
            "--adb-keys needs --auth"
        );
    }
}
