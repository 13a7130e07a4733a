//! The display: `wm size` (its natural size, or the override Android applies), `wm density`
//! (likewise) and `dumpsys window displays` (how it is turned as the phone is held).

/// The natural size turned by the rotation `dumpsys window displays` gives; its current size
/// (`cur=`) where that is the natural one either way round (a rotation it does not name still
/// shows there).
pub(crate) fn turned_size(natural: (u32, u32), state: DisplayState) -> (u32, u32) {
    let swapped = (natural.1, natural.0);
    let turned = if state.rotation.is_some_and(|r| r % 2 == 1) {
        swapped
    } else {
        natural
    };
    state
        .current
        .filter(|c| *c == natural || *c == swapped)
        .unwrap_or(turned)
}

/// A rotation as Android's dumps print it, in quarter turns: `1`, `ROTATION_90` (window
/// manager), `Rotation90` (input reader), or degrees.
pub(crate) fn quarter_turns(v: &str) -> Option<u8> {
    let v = v
        .strip_prefix("ROTATION_")
        .or_else(|| v.strip_prefix("Rotation"))
        .unwrap_or(v);
    match v.parse::<u32>().ok()? {
        n @ 0..=3 => Some(n as u8),
        n @ (90 | 180 | 270) => Some((n / 90) as u8),
        _ => None,
    }
}

/// What `dumpsys window displays` says of the built-in display (display 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DisplayState {
    /// Its size as apps see it now (`cur=1080x2400`).
    pub current: Option<(u32, u32)>,
    /// Its rotation in quarter turns: `mCurrentRotation=ROTATION_90` (Android 10 and later),
    /// `mRotation=1` (older releases, and beside it in newer ones).
    pub rotation: Option<u8>,
}

/// The lines of a `dumpsys window`, trimmed, each with the display whose block it stands in
/// (`Display: mDisplayId=N` opens one, an unindented line closes it).
pub(crate) fn display_lines(text: &str) -> impl Iterator<Item = (Option<&str>, &str)> {
    let mut display = None;
    text.lines().map(move |line| {
        let l = line.trim();
        if !line.starts_with(' ') {
            display = None;
        }
        if let Some(id) = l.strip_prefix("Display: mDisplayId=") {
            display = id.split_whitespace().next();
        }
        (display, l)
    })
}

/// Parses [`DisplayState`] from `dumpsys window displays` (or all of `dumpsys window`): the
/// first values in display 0's block, or outside any display's block (old releases have one).
pub(crate) fn parse_display_state(text: &str) -> DisplayState {
    let size = |v: &str| -> Option<(u32, u32)> {
        let (w, h) = v.split_once('x')?;
        Some((w.parse().ok()?, h.parse().ok()?))
    };
    let mut state = DisplayState::default();
    for (display, l) in display_lines(text) {
        if display.is_some_and(|d| d != "0") {
            continue;
        }
        for word in l.split_whitespace() {
            if let Some(v) = word.strip_prefix("cur=") {
                state.current = state.current.or(size(v));
            } else if let Some(v) = word
                .strip_prefix("mCurrentRotation=")
                .or_else(|| word.strip_prefix("mRotation="))
            {
                state.rotation = state.rotation.or(quarter_turns(v));
            }
        }
    }
    state
}

/// What `wm size` said: the natural size (`None`: not in its output) and the output itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WmSize {
    pub size: Option<(u32, u32)>,
    pub said: String,
}

impl WmSize {
    /// Whether it says that the window manager is not up (a phone still starting): from
    /// Android 10 `cmd`'s `cmd: Can't find service: window` (AOSP
    /// `frameworks/native/cmds/cmd/cmd.cpp`), before it `wm`'s own "Can't connect to window
    /// manager; is the system running?".
    pub fn system_not_up(&self) -> bool {
        self.size.is_none()
            && (self.said.contains("Can't find service: window")
                || self.said.contains("is the system running?"))
    }

    /// Why it gave no size, in words (`None` when it gave one): what `wm size` said, and where
    /// the window manager is not up yet, that the phone may still be starting.
    pub fn problem(&self) -> Option<String> {
        if self.size.is_some() {
            return None;
        }
        let said = format!("`wm size` said {:?}", self.said.trim());
        Some(if self.system_not_up() {
            format!(
                "{said}: the phone's window manager is not up (is the phone still starting? wait \
                 until it shows its lock or home screen)"
            )
        } else {
            said
        })
    }
}

/// `Physical size: 1080x2400` / `Override size: 720x1600`.
pub(crate) fn parse_wm_size(text: &str) -> Option<(u32, u32)> {
    let parse = |l: &str| {
        let (_, v) = l.split_once(':')?;
        let (w, h) = v.trim().split_once('x')?;
        Some((w.trim().parse().ok()?, h.trim().parse().ok()?))
    };
    let mut size = None;
    for line in text.lines() {
        if line.starts_with("Override size") {
            return parse(line);
        }
        if line.starts_with("Physical size") {
            size = parse(line);
        }
    }
    size
}

/// The density Android applies, from `wm density`: `Physical density: 420`, and when a density
/// was set (`wm density 480`, or the display size in the settings) a second line `Override
/// density: 480`, which is the one applied. AOSP's `WindowManagerShellCommand`
/// (`services/core/java/com/android/server/wm/WindowManagerShellCommand.java`,
/// `printInitialDisplayDensity`) prints the initial density, then the base density when they
/// differ; older releases' `wm` command (`cmds/wm/src/com/android/commands/wm/Wm.java`) the same.
pub(crate) fn parse_wm_density(text: &str) -> Option<u32> {
    let value =
        |l: &str, label: &str| -> Option<u32> { l.trim().strip_prefix(label)?.trim().parse().ok() };
    let mut density = None;
    for line in text.lines() {
        if let Some(d) = value(line, "Override density:") {
            return Some(d);
        }
        density = density.or_else(|| value(line, "Physical density:"));
    }
    density
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wm_size_of_real_phones() {
        let outputs = crate::real_outputs::with_truth("size");
        for (file, text, size) in &outputs {
            let size = size.as_array().unwrap();
            let want = (size[0].as_integer().unwrap(), size[1].as_integer().unwrap());
            let got = parse_wm_size(text).map(|(w, h)| (i64::from(w), i64::from(h)));
            assert_eq!(got, Some(want), "{file}");
        }
        assert!(outputs.len() >= 2);
        // A size read says no problem.
        for (file, text, _) in &outputs {
            let wm = WmSize {
                size: parse_wm_size(text),
                said: text.clone(),
            };
            assert_eq!(wm.problem(), None, "{file}");
        }
    }

    #[test]
    fn wm_size_of_phones_whose_system_is_not_up() {
        let outputs = crate::real_outputs::with_truth("starting");
        for (file, text, _) in &outputs {
            let wm = WmSize {
                size: parse_wm_size(text),
                said: text.clone(),
            };
            let problem = wm.problem().unwrap_or_default();
            assert!(
                problem.contains("is the phone still starting?"),
                "{file}: {problem}"
            );
        }
        assert_eq!(outputs.len(), 2);
        let other = WmSize {
            size: None,
            said: "/system/bin/sh: wm: not found\n".into(),
        };
        assert!(!other.problem().unwrap().contains("starting"));
    }

    #[test]
    fn the_display_as_the_phone_is_held() {
        // Real dumps (portrait), in the forms of Android 4.1, 9, 12 and 13.
        for (file, want) in [
            ("dumpsys-window/jellybean-sampleui-windows.txt", (480, 800)),
            (
                "dumpsys-window/miui-android9-dialog-window-focus.txt",
                (0, 0),
            ),
            (
                "dumpsys-window/android12-qualcomm-camera-displays-excerpt.txt",
                (720, 1650),
            ),
            ("dumpsys-window/mtk-board-android13-asleep.txt", (480, 800)),
        ] {
            let text = std::fs::read_to_string(format!(
                "{}/../../tests/data/android/{file}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            let s = parse_display_state(&text);
            assert_eq!(s.current.unwrap_or((0, 0)), want, "{file}");
            assert!(matches!(s.rotation, Some(0) | None), "{file}: {s:?}");
        }
        // Landscape: the current size and the rotation, in each form.
        let landscape = "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  \
            Display: mDisplayId=1\n    init=720x748 320dpi cur=748x720\n    \
            mCurrentRotation=ROTATION_270\n  \
            Display: mDisplayId=0 rootTasks=7\n    init=1080x2400 420dpi cur=2400x1080 app=2400x1017\n    \
            mRotation=1 mDeferredRotationPauseCount=0\n      mCurrentRotation=ROTATION_90\n";
        let s = parse_display_state(landscape);
        assert_eq!((s.current, s.rotation), (Some((2400, 1080)), Some(1)));
        assert_eq!(turned_size((1080, 2400), s), (2400, 1080));
        // Only a rotation (an old release's `mRotation=3`), or only a current size.
        let only_rotation = DisplayState {
            current: None,
            rotation: Some(3),
        };
        assert_eq!(turned_size((1080, 2400), only_rotation), (2400, 1080));
        let only_size = DisplayState {
            current: Some((2400, 1080)),
            rotation: None,
        };
        assert_eq!(turned_size((1080, 2400), only_size), (2400, 1080));
        // A current size that is not the natural one either way round (another display's
        // override) does not win over wm size.
        let other = DisplayState {
            current: Some((720, 748)),
            rotation: Some(0),
        };
        assert_eq!(turned_size((1080, 2400), other), (1080, 2400));
    }

    #[test]
    fn wm_size_prefers_override() {
        assert_eq!(
            parse_wm_size("Physical size: 1080x2400\n"),
            Some((1080, 2400))
        );
        assert_eq!(
            parse_wm_size("Physical size: 1080x2400\nOverride size: 720x1600\n"),
            Some((720, 1600))
        );
        assert_eq!(parse_wm_size("garbage"), None);
    }

    #[test]
    fn wm_density_is_the_one_applied() {
        assert_eq!(parse_wm_density("Physical density: 420\n"), Some(420));
        // As AOSP's WindowManagerShellCommand prints an overridden density.
        assert_eq!(
            parse_wm_density("Physical density: 420\nOverride density: 480\n"),
            Some(480)
        );
        assert_eq!(
            parse_wm_density("Physical density: 420\r\nOverride density: 480\r\n"),
            Some(480)
        );
        assert_eq!(parse_wm_density("garbage"), None);
        assert_eq!(parse_wm_density(""), None);
    }
}
