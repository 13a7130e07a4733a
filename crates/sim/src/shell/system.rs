//! System commands: `wm`, `getprop`, `am`, `monkey`, `dumpsys`, `uiautomator`.

use super::device::Handset;
use super::output::Output;
use super::touch::{self, TouchNode};
use crate::app::geometry::Rect;
use crate::app::hazards::{LAUNCHER_ACTIVITY, LAUNCHER_PACKAGE};
use crate::app::{ACTIVITY, Key};
use crate::dispatch::Action;
use crate::profile::{Profile, WakeFormat};

/// The device's system properties.
pub fn properties(device: &Handset) -> Vec<(&'static str, String)> {
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
        ("ro.product.cpu.abi", p.abi.into()),
        ("ro.product.cpu.abilist", abilist(p.abi).into()),
        ("ro.product.device", p.device.into()),
        ("ro.product.manufacturer", "autoplay".into()),
        ("ro.product.model", p.model.into()),
        ("ro.product.name", p.product.into()),
        ("ro.sf.lcd_density", p.density.to_string()),
        // Set once the system server has started (empty while the phone is starting).
        (
            "sys.boot_completed",
            if device.system_up() { "1" } else { "" }.into(),
        ),
    ]
}

/// `ro.product.cpu.abilist` for a primary ABI.
fn abilist(abi: &str) -> &'static str {
    match abi {
        "arm64-v8a" => "arm64-v8a,armeabi-v7a,armeabi",
        "x86_64" => "x86_64,x86",
        "x86" => "x86",
        _ => "armeabi-v7a,armeabi",
    }
}

/// `getprop [KEY [DEFAULT]]`
pub fn getprop(device: &Handset, args: &[String], out: &mut Output) -> i32 {
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
pub fn wm(device: &Handset, args: &[String], out: &mut Output) -> i32 {
    let p = device.profile();
    match args.first().map(String::as_str) {
        Some("size") if args.len() == 1 => {
            out.out(format!("Physical size: {}x{}\n", p.width, p.height));
            0
        }
        Some("density") if args.len() == 1 => {
            // AOSP `WindowManagerShellCommand.runDisplayDensity` (`printInitialDisplayDensity`
            // from Android 14): the initial density, then the base one if it differs.
            out.out(format!("Physical density: {}\n", p.density));
            if p.applied_density() != p.density {
                out.out(format!("Override density: {}\n", p.applied_density()));
            }
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

/// `dumpsys window [policy]` / `dumpsys power` / `dumpsys sudoku`.
pub fn dumpsys(device: &Handset, args: &[String], out: &mut Output) -> i32 {
    let p = device.profile();
    match args.first().map(String::as_str) {
        Some("window") if args.get(1).map(String::as_str) == Some("policy") => {
            out.out(policy_dump(device));
            0
        }
        Some("window") => {
            out.out(window_dump(device));
            0
        }
        Some("power") => {
            let mut phone = device.phone();
            phone.tick();
            let awake = phone.system().awake();
            out.out(power_dump(p, awake));
            0
        }
        Some("input") => {
            out.out(input_dump(device));
            0
        }
        Some("sudoku") => {
            let mut phone = device.phone();
            phone.tick();
            let state = phone.dumpsys();
            out.out(format!("{state}\n"));
            0
        }
        Some("-l") | None => {
            out.out("Currently running services:\n  input\n  power\n  sudoku\n  window\n");
            0
        }
        Some(other) => {
            out.err(format!("Can't find service: {other}\n"));
            1
        }
    }
}

/// `dumpsys window policy`, like PhoneWindowManager's dump: the keyguard delegate's state.
fn policy_dump(device: &Handset) -> String {
    let phone = device.phone();
    let s = phone.system();
    format!(
        "WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    \
         mLastFocusNeedsMenu=false\n    \
         KeyguardServiceDelegate\n      \
         showing={}\n      \
         showingAndNotOccluded={}\n      \
         inputRestricted={}\n      \
         occluded=false\n      \
         secure={}\n      \
         dreaming=false\n      \
         systemIsReady=true\n      \
         deviceHasKeyguard={}\n      \
         enabled=true\n      \
         interactiveState={}\n",
        s.keyguard_showing(),
        s.keyguard_showing(),
        s.keyguard_showing(),
        s.keyguard_secure(),
        s.options().lock_screen != crate::app::hazards::LockScreen::None,
        if s.awake() {
            "INTERACTIVE_STATE_AWAKE"
        } else {
            "INTERACTIVE_STATE_SLEEP"
        },
    )
}

/// `dumpsys window`: each display's size, rotation and focus. Android 12 (API 31-32) prints
/// its display block as a real Android 12 phone does (tests/data/android/dumpsys-window,
/// `android12-qualcomm-camera-displays-excerpt.txt`: `rootTasks=` on the display line, the
/// focus lines after a blank line and `mLayoutSeq=`); other releases the compact form.
fn window_dump(device: &Handset) -> String {
    let p = device.profile();
    let mut phone = device.phone();
    let (nav, status) = (phone.layout().nav_bar, phone.layout().status_bar);
    let focus = phone.focus();
    drop(phone);
    let app = match focus.split_once('/') {
        Some((pkg, activity)) => format!(
            "mFocusedApp=ActivityRecord{{3c1f2a9 u0 {pkg}/{} t7}}\n",
            activity.strip_prefix(pkg).unwrap_or(activity)
        ),
        None => String::new(),
    };
    // `init` is the natural size, `cur` the rotated one; `base` the overridden size and
    // density, printed only when they differ (AOSP `DisplayContent.dump`).
    let (cw, ch) = p.display_size();
    let base = match p.applied_density() {
        d if d != p.density => format!(" base={}x{} {d}dpi", p.width, p.height),
        _ => String::new(),
    };
    let (w, h, d) = (p.width, p.height, p.density);
    // `app` is what the app gets: the display without the navigation bar (beside it in
    // landscape), as real phones say (`android12-qualcomm-camera-displays-excerpt.txt`:
    // cur=720x1650 app=720x1554).
    let (aw, ah) = if nav.y == 0 {
        (cw - nav.w as u32, ch)
    } else {
        (cw, ch - nav.h as u32)
    };
    let init = format!("init={w}x{h} {d}dpi{base} cur={cw}x{ch} app={aw}x{ah} rng={w}x{w}-{h}x{h}");
    let rotation = format!("mCurrentRotation=ROTATION_{}", u32::from(p.rotation) * 90);
    let focus = format!("mCurrentFocus=Window{{5a1c0de u0 {focus}}}\n");
    let mut text = if (31..=32).contains(&p.sdk) {
        format!(
            "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  \
             Display: mDisplayId=0 rootTasks=7\n    {init}\n    \
             deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,{cw},{ch}))\n    \
             {rotation}\n\n  mLayoutSeq=412\n  {focus}{}",
            if app.is_empty() {
                app
            } else {
                format!("  {app}")
            }
        )
    } else {
        format!(
            "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  \
             Display: mDisplayId=0\n    {init}\n    {rotation}\n    {}{}",
            focus.trim_end(),
            if app.is_empty() {
                "\n".to_string()
            } else {
                format!("\n    {app}")
            }
        )
    };
    for id in 1..=u32::from(p.quirks.extra_displays) {
        text.push_str(&other_display(id));
    }
    text.push_str("\nWINDOW MANAGER WINDOWS (dumpsys window windows)\n");
    text.push_str(&bar_windows(p.sdk, [nav, status], (cw, ch)));
    text.push_str("  mTopFocusedDisplayId=0\n");
    text
}

/// The block of display `id` but the first (a cover screen): it has a focus of its own, its
/// launcher.
fn other_display(id: u32) -> String {
    format!(
        "  Display: mDisplayId={id}\n    \
         init=720x748 320dpi cur=720x748 app=720x700 rng=720x700-748x748\n    \
         mCurrentRotation=ROTATION_0\n    \
         mCurrentFocus=Window{{7e0c11{id} u0 {LAUNCHER_PACKAGE}/{LAUNCHER_ACTIVITY}}}\n    \
         mFocusedApp=ActivityRecord{{9b01d4{id} u0 {LAUNCHER_PACKAGE}/{LAUNCHER_ACTIVITY} t2}}\n"
    )
}

/// The navigation and status bars' windows, as `dumpsys window windows` lists them (the fields
/// a reader of the bars needs, in the release's form): the navigation bar is `NavigationBar`
/// up to Android 9 and `NavigationBar0` from Android 10 (one per display); the frame is an
/// `mFrame=` line up to Android 11, the `frame=` of a `Frames:` line from Android 12
/// (tests/data/android/dumpsys-window: `miui-android9-dialog-window-focus.txt`,
/// `android11-emulator-navigationbar0-excerpt.txt`, `vivo-phone-windows-no-mCurrentFocus.txt`).
fn bar_windows(sdk: u32, [nav, status]: [Rect; 2], (w, h): (u32, u32)) -> String {
    let nav_name = if sdk >= 29 {
        "NavigationBar0"
    } else {
        "NavigationBar"
    };
    let mut text = String::new();
    for (i, (hash, name, ty, r)) in [
        ("e56b35e", nav_name, "NAVIGATION_BAR", nav),
        ("46e6a2c", "StatusBar", "STATUS_BAR", status),
    ]
    .into_iter()
    .enumerate()
    {
        let f = format!("[{},{}][{},{}]", r.x, r.y, r.right(), r.bottom());
        let frame = if sdk >= 31 {
            format!(
                "Frames: parent=[0,0][{w},{h}] display=[0,0][{w},{h}] frame={f} last={f} insetsChanged=false"
            )
        } else {
            format!("mFrame={f} last={f}")
        };
        text.push_str(&format!(
            "  Window #{i} Window{{{hash} u0 {name}}}:\n    \
             mDisplayId=0 rootTaskId=1 mSession=Session{{6fdbba 684:u0a10144}}\n    \
             mOwnerUid=10144 showForAllUsers=true package=com.android.systemui appop=NONE\n    \
             mAttrs={{(0,0)(fillxfill) ty={ty} fmt=TRANSLUCENT}}\n    \
             Requested w={} h={} mLayoutSeq=67\n    \
             mViewVisibility=0x0 mHaveFrame=true mObscured=false\n    \
             {frame}\n    \
             isOnScreen=true\n    \
             isVisible=true\n",
            r.w, r.h
        ));
    }
    text
}

/// `dumpsys power` in the profile's format: the wakefulness (Samsung's getter line, or AOSP's
/// field and, on Android 16, the session observer's number), and the display's power state.
fn power_dump(p: &Profile, awake: bool) -> String {
    let (name, number) = match (awake, p.quirks.doze) {
        (true, _) => ("Awake", 1),
        (false, true) => ("Dozing", 3),
        (false, false) => ("Asleep", 0),
    };
    let line = match p.quirks.wakefulness {
        WakeFormat::Samsung => format!("getWakefulnessLocked()={name}"),
        WakeFormat::Plain | WakeFormat::Observer => format!("mWakefulness={name}"),
    };
    let display = match (awake, p.quirks.doze) {
        (true, _) => "ON",
        (false, true) => "DOZE",
        (false, false) => "OFF",
    };
    let mut text = format!(
        "POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  {line}\n  \
         mWakefulnessChanging=false\n  mIsPowered=true\n  mStayOn=false\n\n\
         Display Power: state={display}\n"
    );
    if p.quirks.wakefulness == WakeFormat::Observer {
        text.push_str(&format!(
            "\nWakefulness Session Observer:\n  \
             Wakefulness Session Power Group powerGroupId: 0\n    \
             current wakefulness: {number}\n"
        ));
    }
    text
}

/// `cat FILE...` of the files this phone has: `/proc/PID/io` of a live process (the counters
/// the kernel keeps when `CONFIG_TASK_IO_ACCOUNTING` is on, as on Android's GKI kernels), and
/// the files written in `/data/local/tmp` (pushed, or recorded by `screenrecord`).
pub fn cat(device: &Handset, args: &[String], out: &mut Output) -> i32 {
    let mut status = 0;
    for file in args {
        if let Some(bytes) = device.file(file) {
            out.out(bytes);
            continue;
        }
        let io = file
            .strip_prefix("/proc/")
            .and_then(|rest| rest.strip_suffix("/io"))
            .and_then(|pid| pid.parse::<u32>().ok())
            .and_then(|pid| device.io(pid));
        match io {
            Some(io) => out.out(format!(
                "rchar: {}\nwchar: {}\nsyscr: {}\nsyscw: {}\nread_bytes: 0\nwrite_bytes: 0\ncancelled_write_bytes: 0\n",
                io.rchar, io.wchar, io.syscr, io.syscw
            )),
            None => {
                out.err(format!("cat: {file}: No such file or directory\n"));
                status = 1;
            }
        }
    }
    status
}

/// `am start [-W] [-S] -n PACKAGE/ACTIVITY [--ei level N]`.
pub fn am(device: &Handset, args: &[String], out: &mut Output) -> i32 {
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

/// The component and `level` extra of `am start`'s arguments; an error is written to `out`,
/// its exit status returned.
fn intent<'a>(args: &'a [String], out: &mut Output) -> Result<(Option<&'a str>, Option<u32>), i32> {
    let mut component: Option<&str> = None;
    let mut level: Option<u32> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-W" | "-S" | "-R" | "--activity-clear-task" => {}
            "-n" => match it.next() {
                Some(c) => component = Some(c),
                None => return Err(am_error(out, "Argument expected after \"-n\"")),
            },
            "-a" | "-c" | "--user" => {
                if it.next().is_none() {
                    return Err(am_error(out, &format!("Argument expected after \"{a}\"")));
                }
            }
            "--ei" => {
                let (Some(key), Some(value)) = (it.next(), it.next()) else {
                    return Err(am_error(out, "Argument expected after \"--ei\""));
                };
                let Ok(v) = value.parse::<i32>() else {
                    out.err(format!(
                        "Exception occurred while executing 'start':\n\
                         java.lang.NumberFormatException: For input string: \"{value}\"\n"
                    ));
                    return Err(255);
                };
                if key == "level" {
                    match u32::try_from(v) {
                        Ok(l) if l > 0 => level = Some(l),
                        _ => {
                            out.err(format!("Error: level {v} does not exist\n"));
                            return Err(255);
                        }
                    }
                }
            }
            other if other.starts_with('-') => {
                return Err(am_error(out, &format!("Unknown option: {other}")));
            }
            other => component = Some(other),
        }
    }
    Ok((component, level))
}

fn am_start(device: &Handset, args: &[String], out: &mut Output) -> i32 {
    let (component, level) = match intent(args, out) {
        Ok(intent) => intent,
        Err(status) => return status,
    };
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
    let app = device.package();
    if package != app || full != format!("{app}{ACTIVITY}") {
        out.err(format!(
            "Error type 3\nError: Activity class {{{package}/{full}}} does not exist.\n"
        ));
        return 255;
    }
    // Without a level the app's task comes to the front as it was (a launcher intent).
    let Some(level) = level else {
        device.phone().bring_to_front();
        return 0;
    };
    match device.phone().start_level(level) {
        Ok(()) => 0,
        Err(e) => {
            out.err(format!("Error: {e}\n"));
            255
        }
    }
}

/// `monkey -p PACKAGE [-c CATEGORY] [-v] COUNT`: with a count of 1, what scripts use to launch
/// an app by package (its launcher activity comes to the front).
pub fn monkey(device: &Handset, args: &[String], out: &mut Output) -> i32 {
    let mut package = None;
    let mut count = None;
    let mut syskeys = true;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-p" | "-c" | "--throttle" | "-s" | "--pct-syskeys" => {
                let Some(v) = it.next() else {
                    out.err(format!("** Error: Missing argument for {a}\n"));
                    return 1;
                };
                if a == "-p" {
                    package = Some(v.clone());
                } else if a == "--pct-syskeys" {
                    syskeys = v.parse::<f64>().map_or(true, |p| p > 0.0);
                }
            }
            "-v" => {}
            n => count = n.parse::<u64>().ok(),
        }
    }
    let Some(count) = count else {
        out.err("** Error: Count not specified\n");
        return 1;
    };
    let app = device.package();
    if package.as_deref() != Some(app.as_str()) {
        out.err("** No activities found to run, monkey aborted.\n");
        return 251;
    }
    // A phone without physical keys (an emulator): the default share of system keys aborts
    // (tests/data/android/monkey/emulator-sys-keys-exit-251-excerpt.txt).
    if syskeys && device.profile().quirks.no_sys_keys {
        out.out("** SYS_KEYS has no physical keys but with factor 2.0%.\n");
        return 251;
    }
    // Only the launch is simulated, not the random events that would follow it.
    device.phone().bring_to_front();
    out.out(format!(
        "  bash arg: -p\n  bash arg: {app}\n  bash arg: {count}\nargs: [-p, {app}, {count}]\n \
         arg: \"-p\"\n arg: \"{app}\"\n arg: \"{count}\"\ndata=\"{app}\"\nEvents injected: {count}\n\
         ## Network stats: elapsed time=11ms (0ms mobile, 0ms wifi, 11ms not connected)\n"
    ));
    0
}

/// `uiautomator dump [FILE]`: the window in front as XML. Only `/dev/tty` (or `/dev/stdout`)
/// prints it; this phone has no file system to keep other files on.
pub fn uiautomator(device: &Handset, args: &[String], out: &mut Output) -> i32 {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let (file, known) = match words.as_slice() {
        ["dump", rest @ ..] => {
            let file = rest.iter().find(|a| !a.starts_with("--")).copied();
            (file.unwrap_or("/sdcard/window_dump.xml"), true)
        }
        _ => ("", false),
    };
    if !known {
        out.err("Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\ndump: creates an XML dump of current UI hierarchy\n");
        return 1;
    }
    // An animating screen never becomes idle within uiautomator's wait (printed on stdout,
    // exit status 0, as real phones do).
    if device.profile().quirks.ui_idle_error && device.animating() {
        out.out("ERROR: could not get idle state.\n");
        return 0;
    }
    let Some(xml) = device.phone().ui_dump() else {
        out.err("ERROR: null root node returned by UiTestAutomationBridge.\n");
        return 1;
    };
    if file == "/dev/tty" || file == "/dev/stdout" {
        out.out(xml);
    }
    out.out(format!("UI hierchary dumped to: {file}\n"));
    0
}

fn am_error(out: &mut Output, msg: &str) -> i32 {
    out.err(format!("Error: {msg}\n"));
    255
}

/// `dumpsys input`'s dispatcher section, in Android's format: touches the app has not handled
/// yet are in the `InboundQueue`, the one it is handling in its connection's `WaitQueue`
/// (each as its DOWN and UP motion events, a key as its DOWN and UP key events).
fn input_dump(device: &Handset) -> String {
    let p = device.profile();
    let backlog = device.input_backlog();
    let entries = |busy: bool| -> Vec<String> {
        backlog
            .iter()
            .filter(|(_, b)| *b == busy)
            .flat_map(|(a, _)| queued_events(*a))
            .collect()
    };
    let queue = |name: &str, items: Vec<String>, indent: &str| -> String {
        if items.is_empty() {
            format!("{indent}{name}: <empty>\n")
        } else {
            let mut s = format!("{indent}{name}: length={}\n", items.len());
            for i in items {
                s.push_str(&format!("{indent}  {i}\n"));
            }
            s
        }
    };
    let app = device.package();
    let window = format!("5a1c0de {app}/{app}{ACTIVITY}");
    // The dispatcher's display is in the current rotation.
    let (w, h) = p.display_size();
    let nodes = touch::touch_nodes(p);
    let (hub, reader) = input_devices(p, &nodes);
    // Another app's ANR, long past: its snapshot stays until the next ANR or a reboot.
    let anr = if p.quirks.anr_snapshot {
        ANR_SNAPSHOT
    } else {
        ""
    };
    format!(
        "INPUT MANAGER (dumpsys input)\n\n\
         Input Manager State:\n  Interactive: true\n\n\
         Event Hub State:\n  BuiltInKeyboardId: -2\n  Devices:\n{hub}\n\
         Input Reader State (Nums of device: {n}):\n{reader}\n\
         Input Dispatcher State:\n  DispatchEnabled: true\n  DispatchFrozen: false\n  \
         FocusedDisplayId: 0\n  FocusedWindows:\n    displayId=0, name='{window}'\n  \
         PendingEvent: <none>\n{inbound}  Connections:\n    \
         0: channelName='{window}', windowName='{window}', status=NORMAL, monitor=false, responsive=true\n\
         {outbound}{wait}  Display: {w}x{h}\n{anr}",
        n = nodes.len(),
        inbound = queue("InboundQueue", entries(false), "  "),
        outbound = queue("OutboundQueue", Vec::new(), "      "),
        wait = queue("WaitQueue", entries(true), "      "),
    )
}

/// The dispatcher's snapshot of another app's ANR, long past (`Quirks::anr_snapshot`).
const ANR_SNAPSHOT: &str = "\nInput Dispatcher State at time of last ANR:\n  ANR:\n    Time: 2026-11-02 09:14:51\n    \
     Reason: Window:b06524a com.android.chrome/org.chromium.chrome.browser.ChromeTabbedActivity is not \
     responding. Waited 5001ms for MotionEvent\n  DispatchEnabled: true\n  FocusedDisplayId: 0\n  \
     Connections:\n    1484: channelName='b06524a com.android.chrome/org.chromium.chrome.browser.ChromeTabbedActivity', \
     status=NORMAL, monitor=false, responsive=false\n      OutboundQueue: <empty>\n      \
     WaitQueue: length=2\n        MotionEvent(deviceId=3, source=TOUCHSCREEN, displayId=0, action=DOWN), age=5009ms, wait=5009ms\n        \
     MotionEvent(deviceId=3, source=TOUCHSCREEN, displayId=0, action=UP), age=5008ms, wait=5008ms\n  \
     PendingEvent: <none>\n  InboundQueue: length=1\n    MotionEvent(deviceId=3, source=TOUCHSCREEN, displayId=0, action=DOWN), age=4990ms\n";

/// One queued action as the dispatcher lists it: its DOWN and UP events.
fn queued_events(action: Action) -> Vec<String> {
    match action {
        Action::Tap(x, y) => vec![motion("DOWN", x, y), motion("UP", x, y)],
        Action::Swipe { from, to, .. } => {
            vec![motion("DOWN", from.0, from.1), motion("UP", to.0, to.1)]
        }
        Action::Key(k) => {
            let code = match k {
                Key::Back => "KEYCODE_BACK",
                Key::Home => "KEYCODE_HOME",
                Key::Wakeup => "KEYCODE_WAKEUP",
                Key::Sleep => "KEYCODE_SLEEP",
                Key::Power => "KEYCODE_POWER",
            };
            ["DOWN", "UP"]
                .iter()
                .map(|act| format!("KeyEvent(deviceId=-1, source=KEYBOARD, displayId=-1, action={act}, flags=0x00000000, keyCode={code}, scanCode=0, metaState=0x00000000, repeatCount=0)"))
                .collect()
        }
    }
}

/// The event hub's and the input reader's sections for the touch nodes: (hub, reader).
fn input_devices(p: &Profile, nodes: &[TouchNode]) -> (String, String) {
    // Viewports are in the current rotation.
    let (w, h) = p.display_size();
    let mut hub = String::new();
    let mut reader = String::new();
    for (i, n) in nodes.iter().enumerate() {
        let id = i + 3;
        hub.push_str(&format!(
            "    {id}: {name}\n      Classes: TOUCH | TOUCH_MT\n      Path: {path}\n",
            name = n.name,
            path = n.path
        ));
        // A decoy belongs to a display port that does not exist: its mapper is disabled and
        // has no viewport (as an emulator's virtio_input_multi_touch_N for absent displays).
        let (port, mode, viewport) = if n.real {
            (
                "<none>".to_string(),
                "DIRECT",
                format!(
                    "      Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, orientation={r}, \
                     logicalFrame=[0, 0, {w}, {h}], physicalFrame=[0, 0, {w}, {h}], deviceSize=[{w}, {h}], isActive=[1]\n{orientation}",
                    r = p.rotation,
                    orientation = mapper_orientation(p),
                ),
            )
        } else {
            (
                i.to_string(),
                "DISABLED",
                "      Viewport: <none>\n".to_string(),
            )
        };
        let slot = if n.real && p.quirks.protocol_a {
            "unknown range".to_string()
        } else {
            "min=0, max=9, flat=0, fuzz=0, resolution=0".to_string()
        };
        reader.push_str(&format!(
            "  Device {id}: {name}\n    EventHub Devices: [ {id} ] \n    IsExternal: false\n    \
             AssociatedDisplayPort: {port}\n    Sources: TOUCHSCREEN\n    \
             Touch Input Mapper (mode - {mode}):\n      Raw Touch Axes:\n        \
             X: min=0, max={mx}, flat=0, fuzz=0, resolution=0\n        \
             Y: min=0, max={my}, flat=0, fuzz=0, resolution=0\n        \
             TrackingId: min=0, max=65535, flat=0, fuzz=0, resolution=0\n        \
             Slot: {slot}\n{viewport}",
            name = n.name,
            mx = p.touch_max.0,
            my = p.touch_max.1,
        ));
    }
    (hub, reader)
}

/// The touch mapper's orientation line, in the forms real dumps print (`SurfaceOrientation: 0`
/// in an Android 8 dump, `InputDeviceOrientation: 0` and `: Rotation0` in newer ones: the
/// corpus's `dumpsys-input/`); which release prints which is our estimate.
fn mapper_orientation(p: &Profile) -> String {
    match p.sdk {
        ..=32 => format!("      SurfaceOrientation: {}\n", p.rotation),
        33 => format!("      InputDeviceOrientation: {}\n", p.rotation),
        _ => format!(
            "      InputDeviceOrientation: Rotation{}\n",
            u32::from(p.rotation) * 90
        ),
    }
}

fn motion(action: &str, x: i32, y: i32) -> String {
    format!(
        "MotionEvent(deviceId=3, source=TOUCHSCREEN, displayId=0, action={action}, actionButton=0x00000000, \
         flags=0x00000000, metaState=0x00000000, buttonState=0x00000000, classification=NONE, \
         edgeFlags=0x00000000, xPrecision=1.0, yPrecision=1.0, pointers=[0: ({x}.0, {y}.0)]), policyFlags=0x62000000"
    )
}
