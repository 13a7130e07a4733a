//! Telling screens apart when the board is not where the calibration says: the phone's state
//! (`dumpsys power`, `dumpsys window policy`, `dumpsys window`) and the texts of the window in
//! front (`uiautomator dump`), parsed into typed values here; [`super::phone`] acts on them.
//!
//! The app's completion and game-over screens are recognised by their words (English; the
//! board read back as solved needs no words). A screen with no words, or words that are
//! neither, is an unknown screen.

/// One shell line that prints everything [`PhoneState::parse`] reads.
pub const STATE_COMMAND: &str = "dumpsys power; dumpsys window policy; dumpsys window";

/// `uiautomator dump` to the shell's output.
pub const UI_DUMP_COMMAND: &str = "uiautomator dump /dev/tty";

/// What the system says about the display, the lock screen and the window in front.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PhoneState {
    /// `mWakefulness=` other than `Awake` (`Asleep`, `Dozing`, `Dreaming`): the app is not on a
    /// lit screen.
    pub asleep: bool,
    /// The wakefulness as said (`None`: no line found).
    pub wakefulness: Option<Wakefulness>,
    /// The lock screen shows (`showing=true` of the keyguard delegate).
    pub keyguard: bool,
    /// It needs a PIN, pattern or password (`secure=true`).
    pub secure: bool,
    /// The window with input focus: `PACKAGE/ACTIVITY`, or a system window such as
    /// `NotificationShade` (the lock screen).
    pub focus: Option<String>,
}

impl PhoneState {
    /// Parses the output of [`STATE_COMMAND`]; what is missing stays at its default.
    pub fn parse(text: &str) -> PhoneState {
        let mut s = PhoneState::default();
        let mut in_keyguard = false;
        let mut wakefulness = None;
        // Focus lines: each display's (Android 10+ print one per display, a foldable's cover
        // screen has its own), and the ones outside a display's block.
        let mut top = "0";
        let mut per_display: Vec<(&str, Option<String>)> = Vec::new();
        let mut global = None;
        for (display, l) in crate::device::display_lines(text) {
            if let Some(id) = l.strip_prefix("mTopFocusedDisplayId=") {
                top = id.trim();
            }
            // The first one is the device's (later ones belong to power groups); Samsung's
            // builds print `getWakefulnessLocked()=`.
            let awake = l
                .strip_prefix("mWakefulness=")
                .or_else(|| l.strip_prefix("getWakefulnessLocked()="));
            if let Some(v) = awake {
                wakefulness = wakefulness.or(parse_wakefulness(v));
            } else if l.starts_with("KeyguardServiceDelegate") {
                in_keyguard = true;
            } else if in_keyguard && let Some(v) = l.strip_prefix("showing=") {
                s.keyguard = v.trim() == "true";
            } else if in_keyguard && let Some(v) = l.strip_prefix("secure=") {
                s.secure = v.trim() == "true";
            } else if let Some(v) = l.strip_prefix("mCurrentFocus=") {
                match display {
                    Some(id) => per_display.push((id, parse_focus(v))),
                    None => global = Some(parse_focus(v)),
                }
            }
        }
        // The focused display's focus; else the one outside the display blocks.
        s.focus = per_display
            .into_iter()
            .find(|(id, _)| *id == top)
            .map(|(_, f)| f)
            .or(global)
            .flatten();
        s.asleep = wakefulness.is_some_and(|w| w != Wakefulness::Awake);
        s.wakefulness = wakefulness;
        s
    }

    /// The package of the focused window, if it belongs to an app.
    pub(crate) fn focused_package(&self) -> Option<&str> {
        self.focus.as_deref()?.split_once('/').map(|(p, _)| p)
    }
}

/// Android's wakefulness states (`PowerManagerInternal.WAKEFULNESS_*`), by name or number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Wakefulness {
    Asleep,
    Awake,
    Dreaming,
    Dozing,
}

fn parse_wakefulness(v: &str) -> Option<Wakefulness> {
    Some(match v.trim() {
        "Asleep" | "0" => Wakefulness::Asleep,
        "Awake" | "1" => Wakefulness::Awake,
        "Dreaming" | "2" => Wakefulness::Dreaming,
        "Dozing" | "3" => Wakefulness::Dozing,
        _ => return None,
    })
}

/// `Window{5a1c0de u0 org.x/org.x.Main}` -> `org.x/org.x.Main` (Android 4's
/// `Window{b4d2a948 org.x/org.x.Main paused=false}` too); a system window's name
/// (`NotificationShade`) as it is; `null` -> `None`.
fn parse_focus(v: &str) -> Option<String> {
    let inner = v.trim().strip_prefix("Window{")?.strip_suffix('}')?;
    let words: Vec<&str> = inner
        .split_whitespace()
        .skip(1)
        .filter(|w| !w.contains('='))
        .collect();
    let name = words.iter().find(|w| w.contains('/')).or(words.last())?;
    Some(name.to_string())
}

/// Whether `monkey -p PKG ... 1` launched the app (it prints `Events injected: 1`); the error
/// is its last line (`** No activities found to run, monkey aborted.`, `** SYS_KEYS has no
/// physical keys ...`).
pub(crate) fn monkey_launched(out: &str) -> Result<(), String> {
    if out
        .lines()
        .any(|l| l.trim().starts_with("Events injected:"))
    {
        return Ok(());
    }
    Err(out
        .lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .unwrap_or("no output")
        .to_string())
}

/// What `uiautomator dump` printed: the texts of the window in front ([`ui_texts`]), or the
/// error it printed instead of a dump (`ERROR: could not get idle state.` while the screen keeps
/// animating, `ERROR: null root node returned by UiTestAutomationBridge.`: both on stdout, with
/// exit status 0), which is not a screen without words.
pub(crate) fn ui_dump(out: &str) -> Result<Vec<String>, String> {
    if !out.contains("<hierarchy")
        && let Some(error) = out.lines().map(str::trim).find(|l| l.starts_with("ERROR:"))
    {
        return Err(error.to_string());
    }
    Ok(ui_texts(out))
}

/// The `text` and `content-desc` attributes of a `uiautomator dump`, in order, non-empty,
/// entities decoded.
pub(crate) fn ui_texts(xml: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in [" text=\"", " content-desc=\""] {
        let mut rest = xml;
        while let Some(at) = rest.find(attr) {
            rest = &rest[at + attr.len()..];
            let Some(end) = rest.find('"') else { break };
            let value = unescape(&rest[..end]);
            if !value.trim().is_empty() {
                out.push((xml.len() - rest.len(), value));
            }
            rest = &rest[end..];
        }
    }
    out.sort_by_key(|(at, _)| *at);
    let mut texts: Vec<String> = Vec::new();
    for (_, t) in out {
        if !texts.contains(&t) {
            texts.push(t);
        }
    }
    texts
}

/// One node of a `uiautomator dump`: its words (`text`, then `content-desc`) and its centre.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UiNode {
    pub words: String,
    pub center: (u32, u32),
    /// The node takes taps (a button).
    pub clickable: bool,
}

/// The nodes of a `uiautomator dump` that carry words and bounds, in order.
pub(crate) fn ui_nodes(xml: &str) -> Vec<UiNode> {
    let attr = |node: &str, name: &str| -> Option<String> {
        let at = node.find(&format!(" {name}=\""))? + name.len() + 3;
        let end = node[at..].find('"')?;
        Some(unescape(&node[at..at + end]))
    };
    xml.split("<node")
        .skip(1)
        .filter_map(|node| {
            let node = node.split('>').next()?;
            let words = [attr(node, "text"), attr(node, "content-desc")]
                .into_iter()
                .flatten()
                .filter(|w| !w.trim().is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            // bounds="[x0,y0][x1,y1]"
            let b = attr(node, "bounds")?;
            let n: Vec<u32> = b
                .split(|c: char| !c.is_ascii_digit())
                .filter(|t| !t.is_empty())
                .filter_map(|t| t.parse().ok())
                .collect();
            let &[x0, y0, x1, y1] = n.as_slice() else {
                return None;
            };
            (!words.is_empty() && x1 > x0 && y1 > y0).then(|| UiNode {
                words,
                center: ((x0 + x1) / 2, (y0 + y1) / 2),
                clickable: attr(node, "clickable").as_deref() == Some("true"),
            })
        })
        .collect()
}

/// A mistake counter among a screen's words: `Mistakes: 1/3` (any language: a count over a
/// small limit, preferring a text that also says "mistake" or "error" in a language we know).
/// Returns (mistakes so far, limit, the text).
pub(crate) fn mistake_counter(texts: &[String]) -> Option<(u32, u32, String)> {
    const WORDS: [&str; 12] = [
        "mistake", "error", "hata", "ошиб", "fehler", "erreur", "errore", "erro", "fout", "błęd",
        "错", "ミス",
    ];
    let counters: Vec<(u32, u32, &String)> = texts
        .iter()
        .filter_map(|t| {
            let (a, b) = t.split_once('/')?;
            let m: String = a
                .trim_end()
                .chars()
                .rev()
                .take_while(char::is_ascii_digit)
                .collect();
            let n: String = b
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let m: u32 = m.chars().rev().collect::<String>().parse().ok()?;
            let n: u32 = n.parse().ok()?;
            (n > 0 && n <= 20 && m <= n).then_some((m, n, t))
        })
        .collect();
    let named = counters.iter().find(|(_, _, t)| {
        let t = t.to_lowercase();
        WORDS.iter().any(|w| t.contains(w))
    });
    named
        .or(counters.first())
        .map(|&(m, n, t)| (m, n, t.clone()))
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// What the words on a screen say about the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Completed,
    GameOver,
    /// The app refused a digit (an alert that only its button closes).
    Refused,
    Neither,
}

/// Words of apps' game-over screens, in the languages real apps use most (lower case; a
/// screen in another language is told by what changed on it, see `perform`).
const GAME_OVER: &[&str] = &[
    "game over",
    "gameover",
    "you lost",
    "game lost",
    "failed",
    "out of lives",
    "no lives left",
    "no more lives",
    "too many mistakes",
    "mistakes limit",
    // Turkish, Russian, German, Spanish, French, Portuguese, Italian, Polish.
    "başarisiz",
    "oyun bitti",
    "kaybettiniz",
    "игра окончена",
    "вы проиграли",
    "поражение",
    "spiel vorbei",
    "verloren",
    "fin del juego",
    "juego terminado",
    "has perdido",
    "partie terminée",
    "vous avez perdu",
    "fim de jogo",
    "você perdeu",
    "hai perso",
    "koniec gry",
    "ゲームオーバー",
    "游戏结束",
];
/// Words of apps' completion screens.
const COMPLETED: &[&str] = &[
    "complete",
    "completed",
    "congratulations",
    "congrats",
    "well done",
    "solved",
    "you win",
    "you won",
    "victory",
    "excellent",
    "great job",
    "level cleared",
    "puzzle cleared",
    "bravo",
    "başarili",
    "tebrikler",
    "победа",
    "поздравляем",
    "пройден",
    "gelöst",
    "glückwunsch",
    "gewonnen",
    "felicidades",
    "resuelto",
    "félicitations",
    "parabéns",
    "complimenti",
    "gratulacje",
    "おめでとう",
    "恭喜",
];

/// Words of apps' alerts that refuse a digit (one that breaks a rule).
const REFUSED: &[&str] = &[
    "invalid move",
    "not allowed",
    "geçersiz hamle",
    "неверный ход",
    "ungültiger zug",
    "movimiento inválido",
    "coup invalide",
    "jogada inválida",
    "mossa non valida",
];

/// Classifies a screen by its words (whole words, any case; `ı` read as `i`, so Turkish
/// capitals match); game over wins, since a game-over screen may also say how much of the
/// puzzle was "completed".
pub(crate) fn classify(texts: &[String]) -> Verdict {
    let all: String = texts
        .iter()
        .map(|t| {
            t.to_lowercase()
                .chars()
                .map(|c| match c {
                    'ı' => 'i',
                    c if c.is_alphanumeric() => c,
                    _ => ' ',
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" | ");
    let words = format!(" {} ", all.split_whitespace().collect::<Vec<_>>().join(" "));
    // Scripts without spaces between words match anywhere.
    let has = |phrase: &&str| {
        if phrase.chars().any(|c| c as u32 >= 0x3000) {
            words.contains(*phrase)
        } else {
            words.contains(&format!(" {phrase} "))
        }
    };
    if GAME_OVER.iter().any(has) {
        Verdict::GameOver
    } else if COMPLETED.iter().any(has) {
        Verdict::Completed
    } else if REFUSED.iter().any(has) {
        Verdict::Refused
    } else {
        Verdict::Neither
    }
}

/// `"Rate this app", "Enjoying Sudoku? Tell us!"` (at most `n` texts), or `no text` when none.
pub fn quote(texts: &[String], n: usize) -> String {
    if texts.is_empty() {
        return "no text".into();
    }
    let mut s: Vec<String> = texts.iter().take(n).map(|t| format!("{t:?}")).collect();
    if texts.len() > n {
        s.push("...".into());
    }
    s.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Real phones' `dumpsys power` and `dumpsys window` outputs read as their truth says.
    #[test]
    fn real_outputs_read_as_recorded() {
        let power = crate::real_outputs::with_truth("wakefulness");
        for (file, text, w) in &power {
            let awake = w.as_str() == Some("Awake");
            assert_eq!(PhoneState::parse(text).asleep, !awake, "{file}: {w}");
        }
        let window = crate::real_outputs::with_truth("focus");
        for (file, text, focus) in &window {
            let state = PhoneState::parse(text);
            match focus.as_str().unwrap() {
                "" => assert_eq!(state.focused_package(), None, "{file}: {:?}", state.focus),
                f => assert_eq!(state.focus.as_deref(), Some(f), "{file}"),
            }
        }
        assert!(power.len() >= 2 && window.len() >= 5);
    }

    #[test]
    fn monkey_outputs_of_real_phones() {
        let outputs = crate::real_outputs::with_truth("launched");
        for (file, text, launched) in &outputs {
            assert_eq!(
                monkey_launched(text).is_ok(),
                launched.as_bool().unwrap(),
                "{file}: {:?}",
                monkey_launched(text)
            );
        }
        assert!(outputs.len() >= 2);
    }

    #[test]
    fn the_focused_displays_focus_wins() {
        let two = "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0\n    \
                   mCurrentFocus=Window{1 u0 org.x/org.x.Game}\n  Display: mDisplayId=1\n    \
                   mCurrentFocus=Window{2 u0 com.android.launcher3/com.android.launcher3.Launcher}\n\n\
                   WINDOW MANAGER WINDOWS (dumpsys window windows)\n  mTopFocusedDisplayId=0\n";
        assert_eq!(
            PhoneState::parse(two).focus.as_deref(),
            Some("org.x/org.x.Game")
        );
        let top1 = two.replace("mTopFocusedDisplayId=0", "mTopFocusedDisplayId=1");
        assert_eq!(
            PhoneState::parse(&top1).focused_package(),
            Some("com.android.launcher3")
        );
        // Outside display blocks (old releases, `windows` only): that line.
        let old = "  mCurrentFocus=Window{b4d2a948 org.x/org.x.Main paused=false}\n";
        assert_eq!(
            PhoneState::parse(old).focus.as_deref(),
            Some("org.x/org.x.Main")
        );
    }

    #[test]
    fn wakefulness_in_every_format() {
        let asleep = |t: &str| PhoneState::parse(t).asleep;
        assert!(!asleep("  mWakefulness=Awake\n"));
        assert!(asleep("  mWakefulness=Dozing\n"));
        assert!(asleep("  mWakefulness=Dreaming\n"));
        assert!(asleep("getWakefulnessLocked()=Asleep\n"));
        assert!(asleep("  mWakefulness=0\n"));
        // The device's line comes first; a power group's later line does not overrule it.
        assert!(asleep("  mWakefulness=Asleep\n    mWakefulness=Awake\n"));
    }

    #[test]
    fn phone_state_from_dumpsys() {
        let text = "POWER MANAGER (dumpsys power)\n  mWakefulness=Asleep\n\
            WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    KeyguardServiceDelegate\n      showing=true\n      \
            showingAndNotOccluded=true\n      secure=true\n\
            WINDOW MANAGER WINDOWS (dumpsys window windows)\n  mCurrentFocus=Window{5a1c0de u0 NotificationShade}\n  \
            mFocusedApp=ActivityRecord{3c1f2a9 u0 org.x/.Main t7}\n";
        let s = PhoneState::parse(text);
        assert_eq!(
            s,
            PhoneState {
                asleep: true,
                wakefulness: Some(Wakefulness::Asleep),
                keyguard: true,
                secure: true,
                focus: Some("NotificationShade".into()),
            }
        );
        assert_eq!(s.focused_package(), None);
        let awake = PhoneState::parse(
            "mWakefulness=Awake\nmCurrentFocus=Window{1 u0 com.android.launcher3/com.android.launcher3.Launcher}\n",
        );
        assert!(!awake.asleep && !awake.keyguard);
        assert_eq!(awake.focused_package(), Some("com.android.launcher3"));
        assert_eq!(PhoneState::parse("mCurrentFocus=null\n").focus, None);
        assert_eq!(PhoneState::parse("garbage\n"), PhoneState::default());
    }

    #[test]
    fn nodes_and_mistake_counters_of_a_ui_dump() {
        let xml = "<hierarchy><node index=\"0\" text=\"Hata: 1/3\" content-desc=\"\" bounds=\"[0,0][100,50]\"><node text=\"\" \
            content-desc=\"Undo\" bounds=\"[900,10][1000,60]\" /></node></hierarchy>";
        let nodes = ui_nodes(xml);
        assert_eq!(
            nodes,
            vec![
                UiNode {
                    words: "Hata: 1/3".into(),
                    center: (50, 25),
                    clickable: false
                },
                UiNode {
                    words: "Undo".into(),
                    center: (950, 35),
                    clickable: false
                }
            ]
        );
        let t = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            mistake_counter(&t(&["Level 5", "Hata: 1/3"])),
            Some((1, 3, "Hata: 1/3".into()))
        );
        assert_eq!(
            mistake_counter(&t(&["Hints 2/3", "Ошибки: 0 / 3"])),
            Some((0, 3, "Ошибки: 0 / 3".into())),
            "a counter that says mistakes wins"
        );
        assert_eq!(mistake_counter(&t(&["0/3"])).map(|c| c.1), Some(3));
        assert_eq!(mistake_counter(&t(&["Level 5/70", "12:30", "4/3"])), None);
    }

    #[test]
    fn texts_of_a_ui_dump() {
        let xml = "<?xml version='1.0' ?><hierarchy rotation=\"0\"><node index=\"0\" text=\"\" \
            content-desc=\"\"><node index=\"0\" text=\"Level 5 complete\" content-desc=\"\" /><node text=\"Tom &amp; Jerry &quot;x&quot;\" \
            content-desc=\"Close\" /><node text=\"Level 5 complete\" content-desc=\"\" /></node></hierarchy>";
        assert_eq!(
            ui_texts(xml),
            vec!["Level 5 complete", "Tom & Jerry \"x\"", "Close"]
        );
    }

    /// Real `uiautomator dump` outputs: a dump, or the error that replaced it.
    #[test]
    fn real_ui_dumps_and_their_errors() {
        let outputs = crate::real_outputs::with_truth("uiautomator");
        for (file, text, truth) in &outputs {
            let dump = ui_dump(text);
            match truth.as_str().unwrap() {
                "ok" => assert!(dump.is_ok_and(|t| !t.is_empty()), "{file}"),
                "idle-error" => assert_eq!(dump, Err("ERROR: could not get idle state.".into())),
                "null-root" => assert!(dump.is_err_and(|e| e.contains("null root node")), "{file}"),
                other => panic!("{file}: truth {other}"),
            }
        }
        assert!(outputs.len() >= 3);
    }

    #[test]
    fn words_tell_completion_from_game_over() {
        let t = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            classify(&t(&["Level 5 complete", "Well done!"])),
            Verdict::Completed
        );
        assert_eq!(
            classify(&t(&["Excellent!", "Mistakes 0/3"])),
            Verdict::Completed
        );
        assert_eq!(
            classify(&t(&["Game over", "You made 3 mistakes"])),
            Verdict::GameOver
        );
        assert_eq!(
            classify(&t(&["GAME OVER", "50% completed"])),
            Verdict::GameOver
        );
        assert_eq!(
            classify(&t(&["Rate this app", "Enjoying Sudoku? Tell us!"])),
            Verdict::Neither
        );
        assert_eq!(classify(&t(&["Incomplete", "Unsolved"])), Verdict::Neither);
        assert_eq!(
            classify(&t(&["BAŞARILI", "Bölüm 5 tamamlandı"])),
            Verdict::Completed
        );
        assert_eq!(classify(&t(&["BAŞARISIZ"])), Verdict::GameOver);
        assert_eq!(
            classify(&t(&["Игра окончена", "Ошибок: 3"])),
            Verdict::GameOver
        );
        assert_eq!(classify(&t(&["ПОБЕДА!"])), Verdict::Completed);
        assert_eq!(classify(&t(&["ゲームオーバー！"])), Verdict::GameOver);
        assert_eq!(classify(&t(&["Geçersiz hamle", "TAMAM"])), Verdict::Refused);
        assert_eq!(classify(&[]), Verdict::Neither);
        assert_eq!(quote(&t(&["a", "b", "c"]), 2), "\"a\", \"b\", ...");
    }
}
