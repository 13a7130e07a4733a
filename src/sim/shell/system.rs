//! System commands: `wm`, `getprop`, `am`, `dumpsys`.

use super::{Device, Output};
use crate::sim::app::{ACTIVITY, PACKAGE};

/// The device's system properties.
pub fn properties(device: &Device) -> Vec<(&'static str, String)> {
    let p = device.profile();
    vec![
        (
            "ro.boot.serialno",
            format!("SIM{}", p.device.to_uppercase()),
        ),
        ("ro.build.characteristics", "default".into()),
        ("ro.build.type", "user".into()),
        ("ro.build.version.release", p.release.into()),
        ("ro.build.version.sdk", p.sdk.to_string()),
        ("ro.product.brand", "autoplay".into()),
        ("ro.product.cpu.abi", "arm64-v8a".into()),
        ("ro.product.device", p.device.into()),
        ("ro.product.manufacturer", "autoplay".into()),
        ("ro.product.model", p.model.into()),
        ("ro.product.name", p.product.into()),
        ("ro.sf.lcd_density", p.density.to_string()),
        ("sys.boot_completed", "1".into()),
    ]
}

/// `getprop [KEY [DEFAULT]]`
pub fn getprop(device: &Device, args: &[String], out: &mut Output) -> i32 {
    let props = properties(device);
    match args {
        [] => {
            for (k, v) in props {
                out.out(format!("[{k}]: [{v}]\n"));
            }
        }
        [key, rest @ ..] => {
            let value = props
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .or_else(|| rest.first().cloned())
                .unwrap_or_default();
            out.out(format!("{value}\n"));
        }
    }
    0
}

/// `wm size` / `wm density`.
pub fn wm(device: &Device, args: &[String], out: &mut Output) -> i32 {
    let p = device.profile();
    match args.first().map(String::as_str) {
        Some("size") if args.len() == 1 => {
            out.out(format!("Physical size: {}x{}\n", p.width, p.height));
            0
        }
        Some("density") if args.len() == 1 => {
            out.out(format!("Physical density: {}\n", p.density));
            0
        }
        Some("size" | "density") => {
            out.err("Error: changing the display is not allowed on this simulated phone\n");
            255
        }
        Some(other) => {
            out.err(format!("Unknown command: {other}\n"));
            255
        }
        None => {
            out.err("Window manager (window) commands:\n  size\n  density\n");
            255
        }
    }
}

/// `dumpsys window` / `dumpsys sudoku`.
pub fn dumpsys(device: &Device, args: &[String], out: &mut Output) -> i32 {
    let p = device.profile();
    match args.first().map(String::as_str) {
        Some("window") => {
            let focus = format!("{PACKAGE}/{PACKAGE}{ACTIVITY}");
            out.out(format!(
                "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  \
                 Display: mDisplayId=0\n    \
                 init={w}x{h} {d}dpi cur={w}x{h} app={w}x{h} rng={w}x{w}-{h}x{h}\n    \
                 mCurrentRotation=ROTATION_0\n  \
                 mCurrentFocus=Window{{5a1c0de u0 {focus}}}\n",
                w = p.width,
                h = p.height,
                d = p.density,
            ));
            0
        }
        Some("sudoku") => {
            let state = device.phone().dumpsys();
            out.out(format!("{state}\n"));
            0
        }
        Some("-l") | None => {
            out.out("Currently running services:\n  sudoku\n  window\n");
            0
        }
        Some(other) => {
            out.err(format!("Can't find service: {other}\n"));
            1
        }
    }
}

/// `am start [-W] [-S] -n PACKAGE/ACTIVITY [--ei level N]`, and `am force-stop PACKAGE`.
pub fn am(device: &Device, args: &[String], out: &mut Output) -> i32 {
    match args.first().map(String::as_str) {
        Some("start" | "start-activity") => am_start(device, &args[1..], out),
        Some(other) => {
            out.err(format!("Unknown command: {other}\n"));
            255
        }
        None => {
            out.err("Activity manager (activity) commands:\n  start [-W] [-S] -n <COMPONENT> [--ei <KEY> <INT>]\n");
            255
        }
    }
}

fn am_start(device: &Device, args: &[String], out: &mut Output) -> i32 {
    let mut component: Option<&str> = None;
    let mut level: Option<u32> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-W" | "-S" | "-R" | "--activity-clear-task" => {}
            "-n" => match it.next() {
                Some(c) => component = Some(c),
                None => return am_error(out, "Argument expected after \"-n\""),
            },
            "-a" | "-c" | "--user" => {
                if it.next().is_none() {
                    return am_error(out, &format!("Argument expected after \"{a}\""));
                }
            }
            "--ei" => {
                let (Some(key), Some(value)) = (it.next(), it.next()) else {
                    return am_error(out, "Argument expected after \"--ei\"");
                };
                let Ok(v) = value.parse::<i32>() else {
                    out.err(format!(
                        "Exception occurred while executing 'start':\n\
                         java.lang.NumberFormatException: For input string: \"{value}\"\n"
                    ));
                    return 255;
                };
                if key == "level" {
                    match u32::try_from(v) {
                        Ok(l) if l > 0 => level = Some(l),
                        _ => {
                            out.err(format!("Error: level {v} does not exist\n"));
                            return 255;
                        }
                    }
                }
            }
            other if other.starts_with('-') => {
                return am_error(out, &format!("Unknown option: {other}"));
            }
            other => component = Some(other),
        }
    }
    let Some(component) = component else {
        return am_error(
            out,
            "Intent does not match any activities: no -n <COMPONENT> given",
        );
    };
    let Some((package, activity)) = component.split_once('/') else {
        out.err(format!("Error: Bad component name: {component}\n"));
        return 255;
    };
    let full = if activity.starts_with('.') {
        format!("{package}{activity}")
    } else {
        activity.to_string()
    };
    let extras = if level.is_some() { " (has extras)" } else { "" };
    out.out(format!(
        "Starting: Intent {{ cmp={package}/{activity}{extras} }}\n"
    ));
    if package != PACKAGE || full != format!("{PACKAGE}{ACTIVITY}") {
        out.err(format!(
            "Error type 3\nError: Activity class {{{package}/{full}}} does not exist.\n"
        ));
        return 255;
    }
    match device.phone().start_level(level.unwrap_or(1)) {
        Ok(()) => 0,
        Err(e) => {
            out.err(format!("Error: {e}\n"));
            255
        }
    }
}

fn am_error(out: &mut Output, msg: &str) -> i32 {
    out.err(format!("Error: {msg}\n"));
    255
}
