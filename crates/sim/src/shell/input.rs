//! `input`, `sendevent` and `getevent`.

use super::device::Handset;
use super::output::Output;
use super::refusal;
use super::touch;
use crate::app::Key;
use crate::dispatch::Action;
use std::time::Instant;

const INPUT_USAGE: &str = "Usage: input [<source>] <command> [<arg>...]\n\n\
The commands and default sources are:\n\
      text <string> (Default: touchscreen)\n\
      keyevent [--longpress] <key code number or name> ... (Default: keyboard)\n\
      tap <x> <y> (Default: touchscreen)\n\
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n";

const SOURCES: [&str; 8] = [
    "touchscreen",
    "touchpad",
    "keyboard",
    "mouse",
    "dpad",
    "gamepad",
    "stylus",
    "trackball",
];

/// Key names `input keyevent` knows besides those the phone handles (they do nothing).
const OTHER_KEYS: [(&str, u32); 10] = [
    ("MENU", 82),
    ("ENTER", 66),
    ("DEL", 67),
    ("TAB", 61),
    ("SPACE", 62),
    ("ESCAPE", 111),
    ("VOLUME_UP", 24),
    ("VOLUME_DOWN", 25),
    ("APP_SWITCH", 187),
    ("DPAD_CENTER", 23),
];

/// A coordinate: Android's `input` accepts floats.
fn coord(s: &str) -> Option<i32> {
    let v: f64 = s.parse().ok()?;
    (v.is_finite() && v.abs() < 1e9).then(|| v.round() as i32)
}

/// `input [source] tap|swipe|keyevent|text ...` run as process `pid`: the exit status, and
/// when the app will have handled the injected events (the command waits for that).
pub fn input(
    device: &Handset,
    args: &[String],
    pid: u32,
    out: &mut Output,
) -> (i32, Option<Instant>) {
    let mut done = None;
    let status = run(device, args, pid, out, &mut done);
    (status, done)
}

fn run(
    device: &Handset,
    all: &[String],
    pid: u32,
    out: &mut Output,
    done: &mut Option<Instant>,
) -> i32 {
    let args = match all.first() {
        Some(s) if SOURCES.contains(&s.as_str()) => &all[1..],
        _ => all,
    };
    let Some(cmd) = args.first() else {
        out.err(INPUT_USAGE);
        return 1;
    };
    let rest = &args[1..];
    if device.injection_refused() && refused(device, cmd, rest) {
        let key = matches!(cmd.as_str(), "keyevent" | "text");
        let (text, status) = refusal::input_refused(device, pid, &all[0], key);
        out.err(text);
        return status;
    }
    match cmd.as_str() {
        "tap" => {
            let xy: Option<Vec<i32>> = rest.iter().map(|s| coord(s)).collect();
            match xy.as_deref() {
                Some([x, y]) => {
                    *done = Some(device.inject(Action::Tap(*x, *y)));
                    0
                }
                _ => bad_args(out, "tap", rest),
            }
        }
        "swipe" => input_swipe(device, rest, out, done),
        "keyevent" => input_keyevent(device, rest, out, done),
        "text" => {
            if rest.is_empty() {
                return bad_args(out, "text", rest);
            }
            // Nothing in the app takes text input.
            0
        }
        other => {
            out.err(format!("Error: Unknown command: {other}\n{INPUT_USAGE}"));
            1
        }
    }
}

/// `input swipe X1 Y1 X2 Y2 [MS]` (300 ms without one).
fn input_swipe(
    device: &Handset,
    rest: &[String],
    out: &mut Output,
    done: &mut Option<Instant>,
) -> i32 {
    let v: Option<Vec<i32>> = rest.iter().map(|s| coord(s)).collect();
    match v.as_deref() {
        Some([x1, y1, x2, y2]) => {
            *done = Some(device.inject(swipe(*x1, *y1, *x2, *y2, 300)));
            0
        }
        Some([x1, y1, x2, y2, ms]) if *ms >= 0 => {
            *done = Some(device.inject(swipe(*x1, *y1, *x2, *y2, *ms as u32)));
            0
        }
        _ => bad_args(out, "swipe", rest),
    }
}

/// `input keyevent CODE...`: every code checked before any key goes in.
fn input_keyevent(
    device: &Handset,
    rest: &[String],
    out: &mut Output,
    done: &mut Option<Instant>,
) -> i32 {
    let codes: Vec<&String> = rest.iter().filter(|a| !a.starts_with("--")).collect();
    if codes.is_empty() {
        return bad_args(out, "keyevent", rest);
    }
    let mut keys = Vec::new();
    for c in codes {
        match keycode(c) {
            Some(k) => keys.push(k),
            None => {
                out.err(format!("Error: Unknown keycode: {c}\n"));
                return 1;
            }
        }
    }
    for key in keys.into_iter().flatten() {
        *done = Some(device.inject(Action::Key(key)));
    }
    0
}

/// Whether a phone that refuses injected input (`--inject-denied`) refuses `input CMD REST`:
/// from Android 13 every injection; before, what reaches a window, not what the system's
/// policy takes first (the wake, sleep and power keys and HOME; touches on a dark screen),
/// see [`refusal`].
fn refused(device: &Handset, cmd: &str, rest: &[String]) -> bool {
    let on_entry = refusal::on_entry(device.profile().sdk);
    match cmd {
        "tap" | "swipe" => on_entry || device.phone().system().awake(),
        "keyevent" => {
            let codes: Vec<Option<Option<Key>>> = rest
                .iter()
                .filter(|a| !a.starts_with("--"))
                .map(|c| keycode(c))
                .collect();
            let policy = |k: &Option<Option<Key>>| {
                matches!(
                    k,
                    Some(Some(Key::Wakeup | Key::Sleep | Key::Power | Key::Home))
                )
            };
            // An unknown key code is an error before anything is injected.
            codes.iter().all(Option::is_some) && codes.iter().any(|k| on_entry || !policy(k))
        }
        "text" => !rest.is_empty(),
        _ => false,
    }
}

fn swipe(x1: i32, y1: i32, x2: i32, y2: i32, ms: u32) -> Action {
    Action::Swipe {
        from: (x1, y1),
        to: (x2, y2),
        ms,
    }
}

fn bad_args(out: &mut Output, cmd: &str, rest: &[String]) -> i32 {
    out.err(format!(
        "Error: Invalid arguments for command: {cmd}: {}\n{INPUT_USAGE}",
        rest.join(" ")
    ));
    1
}

/// Parses a key code (number, `BACK`, `KEYCODE_BACK`): `Some(Some(key))` for keys the app
/// handles, `Some(None)` for known keys it ignores, `None` for unknown ones.
fn keycode(s: &str) -> Option<Option<Key>> {
    if let Ok(n) = s.parse::<u32>() {
        return match n {
            4 => Some(Some(Key::Back)),
            3 => Some(Some(Key::Home)),
            26 => Some(Some(Key::Power)),
            223 => Some(Some(Key::Sleep)),
            224 => Some(Some(Key::Wakeup)),
            // 0 is KEYCODE_UNKNOWN: injected like any other, taken by no app.
            0..=316 => Some(None),
            _ => None,
        };
    }
    let name = s.strip_prefix("KEYCODE_").unwrap_or(s);
    match name {
        "BACK" => Some(Some(Key::Back)),
        "HOME" => Some(Some(Key::Home)),
        "POWER" => Some(Some(Key::Power)),
        "SLEEP" => Some(Some(Key::Sleep)),
        "WAKEUP" => Some(Some(Key::Wakeup)),
        _ if OTHER_KEYS.iter().any(|(n, _)| *n == name) => Some(None),
        _ => None,
    }
}

/// `sendevent DEVICE TYPE CODE VALUE` (decimal, like the real tool's atoi).
pub fn sendevent(device: &Handset, args: &[String], out: &mut Output) -> i32 {
    let [dev, kind, code, value] = args else {
        out.err("use: sendevent device type code value\n");
        return 1;
    };
    let Some(real) = touch::node_kind(device.profile(), dev) else {
        out.err(format!("could not open {dev}, No such file or directory\n"));
        return 1;
    };
    if !device.panel_writable() {
        out.err(format!("sendevent: {dev}: Permission denied\n"));
        return 1;
    }
    let num = |s: &str| -> i64 { s.parse::<i64>().unwrap_or(0) };
    // The kernel takes u16 type/code and an i32 value (4294967295 is -1).
    let (kind, code, value) = (num(kind) as u16, num(code) as u16, num(value) as i32);
    if real {
        device.touch_event(kind, code, value);
    }
    0
}

/// `getevent -p` / `-lp` (optionally for one device). Streaming events is not simulated.
pub fn getevent(device: &Handset, args: &[String], out: &mut Output) -> i32 {
    let mut describe = false;
    let mut labels = false;
    let mut only: Option<&str> = None;
    for a in args {
        if let Some(flags) = a.strip_prefix('-') {
            for f in flags.chars() {
                match f {
                    'p' => describe = true,
                    'l' => labels = true,
                    'i' | 'q' | 'n' | 't' => {}
                    _ => {
                        out.err(format!("getevent: invalid option -- {f}\n"));
                        return 1;
                    }
                }
            }
        } else {
            only = Some(a);
        }
    }
    if !describe {
        out.err(
            "getevent: streaming live events is not supported by this simulated phone; \
             use getevent -p or getevent -lp\n",
        );
        return 1;
    }
    let text = touch::describe(device.profile(), labels);
    match only {
        None => out.out(text),
        Some(path) => {
            let needle = format!(": {path}\n");
            let blocks: Vec<&str> = text
                .split("add device ")
                .filter(|b| b.contains(&needle))
                .collect();
            if blocks.is_empty() {
                out.err(format!(
                    "could not open {path}, No such file or directory\n"
                ));
                return 1;
            }
            for b in blocks {
                out.out(format!("add device {b}"));
            }
        }
    }
    0
}
