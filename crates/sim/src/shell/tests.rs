use super::*;
use crate::app::{AppOptions, Phone};
use crate::profile;

fn device(name: &str, knobs: Knobs) -> Arc<Handset> {
    let p = profile::profile(name).unwrap().clone();
    Arc::new(Handset::new(Phone::new(p, AppOptions::default()), knobs))
}

async fn run(shell: &mut Shell, script: &str) -> (String, String, Flow) {
    let mut out = Output::default();
    let flow = shell.run(script, &mut out, false).await.unwrap();
    let text = |fd| {
        String::from_utf8(
            out.chunks
                .iter()
                .filter(|(f, _)| *f == fd)
                .flat_map(|(_, b)| b.clone())
                .collect(),
        )
        .unwrap()
    };
    (text(Fd::Stdout), text(Fd::Stderr), flow)
}

#[tokio::test]
async fn status_and_lists() {
    let mut sh = Shell::new(device("pixel", Knobs::default()));
    assert_eq!(run(&mut sh, "echo hi").await.0, "hi\n");
    let (out, err, _) = run(&mut sh, "nosuch a b; echo rc=$?").await;
    assert_eq!(out, "rc=127\n");
    assert_eq!(err, "/system/bin/sh: nosuch: inaccessible or not found\n");
    assert_eq!(
        run(&mut sh, "false && echo no || echo yes").await.0,
        "yes\n"
    );
    assert_eq!(
        run(&mut sh, "true && echo -n a; echo \"b $?\"").await.0,
        "ab 0\n"
    );
    assert_eq!(
        run(&mut sh, "echo a; exit 3; echo b").await,
        ("a\n".into(), "".into(), Flow::Exit(3))
    );
    assert_eq!(sh.status(), 3);
    let (_, err, _) = run(&mut sh, "echo 'open").await;
    assert!(err.contains("unterminated"), "{err}");
    let mut out = Output::default();
    assert_eq!(
        sh.run("echo 'open", &mut out, true).await,
        Err(Incomplete::OpenQuote)
    );
}

#[tokio::test]
async fn an_override_density_prints_as_real_phones_print_it_and_the_app_follows() {
    let mut p = profile::profile("pixel").unwrap().clone();
    p.override_density = Some(480);
    let phone = Phone::new(p, AppOptions::default());
    let physical = Phone::new(
        profile::profile("pixel").unwrap().clone(),
        AppOptions::default(),
    );
    assert!(
        phone.layout().dp > physical.layout().dp,
        "the app is laid out at the applied density"
    );
    let mut sh = Shell::new(Arc::new(Handset::new(phone, Knobs::default())));
    assert_eq!(
        run(&mut sh, "wm density").await.0,
        "Physical density: 420\nOverride density: 480\n"
    );
    let win = run(&mut sh, "dumpsys window").await.0;
    assert!(
        win.contains("init=1080x2400 420dpi base=1080x2400 480dpi cur=1080x2400"),
        "{win}"
    );
    assert_eq!(run(&mut sh, "getprop ro.sf.lcd_density").await.0, "420\n");
    assert!(
        run(&mut sh, "dumpsys sudoku")
            .await
            .0
            .contains("\"density\":480")
    );
}

#[tokio::test]
async fn android_12_prints_its_own_forms() {
    let mut sh = Shell::new(device("midrange", Knobs::default()));
    let win = run(&mut sh, "dumpsys window").await.0;
    assert!(
        win.contains("  Display: mDisplayId=0 rootTasks=7\n    init=1080x2400 440dpi cur=")
            && win.contains(
                "\n\n  mLayoutSeq=412\n  mCurrentFocus=Window{5a1c0de u0 org.autoplay.sudoku/org.autoplay.sudoku.GameActivity}\n  mFocusedApp="
            ),
        "{win}"
    );
    let props = run(&mut sh, "getprop").await.0;
    assert!(props.contains("[ro.build.version.sdk]: [31]"), "{props}");
    // `app_process` aborts on a class it cannot find, which it logs.
    let (_, err, _) = run(&mut sh, "CLASSPATH=/x app_process / no.Such").await;
    assert_eq!(err, "Aborted \n");
    let log = run(&mut sh, "logcat -d").await.0;
    assert!(
        log.contains(" E appproc : ERROR: could not find class 'no.Such'\n"),
        "{log}"
    );
    let (_, err, status) = run(&mut sh, "logcat").await;
    assert!(err.contains("use logcat -d"), "{err} {status:?}");
}

#[tokio::test]
async fn system_commands() {
    let mut sh = Shell::new(device("pixel", Knobs::default()));
    assert_eq!(
        run(&mut sh, "wm size").await.0,
        "Physical size: 1080x2400\n"
    );
    assert_eq!(
        run(&mut sh, "wm density").await.0,
        "Physical density: 420\n"
    );
    assert_eq!(
        run(&mut sh, "getprop ro.product.model").await.0,
        "Pixel_7\n"
    );
    assert_eq!(run(&mut sh, "getprop no.such.prop").await.0, "\n");
    assert!(
        run(&mut sh, "getprop")
            .await
            .0
            .contains("[ro.build.version.sdk]: [34]\n")
    );
    let win = run(&mut sh, "dumpsys window").await.0;
    assert!(win.contains("init=1080x2400 420dpi") && win.contains("mCurrentRotation=ROTATION_0"));
    let (_, err, _) = run(&mut sh, "dumpsys nothing; echo $?").await;
    assert!(err.contains("Can't find service: nothing"));
    let (out, err, _) = run(&mut sh, "am start -n com.other/.Main; echo rc=$?").await;
    assert!(out.ends_with("rc=255\n"), "{out}");
    assert!(
        err.contains("Activity class {com.other/com.other.Main} does not exist."),
        "{err}"
    );
    let (_, err, _) = run(&mut sh, "am start -n x --ei level 1").await;
    assert!(err.contains("Bad component name: x"));
    let (_, err, _) = run(
        &mut sh,
        "am start -n org.autoplay.sudoku/.GameActivity --ei level abc",
    )
    .await;
    assert!(err.contains("NumberFormatException"));
}

/// The focus line of a `dumpsys window`.
fn focus(w: &str) -> String {
    w.lines()
        .find_map(|l| l.trim().strip_prefix("mCurrentFocus="))
        .unwrap_or("")
        .to_string()
}

#[tokio::test]
async fn launch_commands_bring_the_app_back() {
    let mut sh = Shell::new(device("pixel", Knobs::default()));
    run(
        &mut sh,
        "am start -n org.autoplay.sudoku/.GameActivity --ei level 4",
    )
    .await;
    assert!(focus(&run(&mut sh, "dumpsys window").await.0).contains("org.autoplay.sudoku/"));
    run(&mut sh, "input keyevent KEYCODE_HOME").await;
    assert!(focus(&run(&mut sh, "dumpsys window").await.0).contains("com.android.launcher3/"));
    let (out, _, _) = run(
        &mut sh,
        "monkey -p org.autoplay.sudoku -c android.intent.category.LAUNCHER 1",
    )
    .await;
    assert!(out.contains("Events injected: 1"), "{out}");
    assert!(focus(&run(&mut sh, "dumpsys window").await.0).contains("org.autoplay.sudoku/"));
    let (_, err, _) = run(&mut sh, "monkey -p com.other 1; echo $?").await;
    assert!(err.contains("No activities found"), "{err}");
    // The level is still open after the round trip: `am start` without a level only brings it forward.
    run(
        &mut sh,
        "input keyevent 3; am start -n org.autoplay.sudoku/.GameActivity",
    )
    .await;
    let (xml, _, _) = run(&mut sh, "uiautomator dump /dev/tty").await;
    assert!(
        xml.contains("text=\"Level 4\"") && xml.ends_with("UI hierchary dumped to: /dev/tty\n"),
        "{xml}"
    );
}

#[tokio::test]
async fn power_keys_sleep_wake_and_the_swipe_unlocks() {
    let mut sh = Shell::new(device("pixel", Knobs::default()));
    run(&mut sh, "input keyevent KEYCODE_POWER").await;
    assert!(
        run(&mut sh, "dumpsys power")
            .await
            .0
            .contains("mWakefulness=Asleep")
    );
    let (_, err, _) = run(&mut sh, "uiautomator dump /dev/tty").await;
    assert!(err.contains("null root node"), "{err}");
    run(&mut sh, "input keyevent KEYCODE_WAKEUP").await;
    assert!(
        run(&mut sh, "dumpsys power")
            .await
            .0
            .contains("mWakefulness=Awake")
    );
    let policy = run(&mut sh, "dumpsys window policy").await.0;
    assert!(
        policy.contains("showing=true") && policy.contains("secure=false"),
        "{policy}"
    );
    assert_eq!(
        focus(&run(&mut sh, "dumpsys window").await.0),
        "Window{5a1c0de u0 NotificationShade}"
    );
    run(&mut sh, "input swipe 540 2000 540 600").await;
    assert!(
        run(&mut sh, "dumpsys window policy")
            .await
            .0
            .contains("showing=false")
    );
}

#[tokio::test]
async fn input_commands_reach_the_app() {
    let dev = device("budget", Knobs::default());
    let mut sh = Shell::new(dev.clone());
    let taps = |d: &Handset| d.phone().dumpsys()["taps"].as_u64().unwrap();
    let before = taps(&dev);
    assert_eq!(
        run(
            &mut sh,
            "input tap 100 200; input touchscreen tap 1.5 2; echo $?"
        )
        .await
        .0,
        "0\n"
    );
    assert_eq!(taps(&dev), before + 2);
    let (_, err, _) = run(&mut sh, "input tap 1; echo $?").await;
    assert!(err.contains("Invalid arguments for command: tap"));
    assert_eq!(
        run(&mut sh, "input keyevent KEYCODE_BACK 3 BACK; echo $?")
            .await
            .0,
        "0\n"
    );
    assert_eq!(run(&mut sh, "input keyevent NOPE; echo $?").await.0, "1\n");
    // Protocol B tap through sendevent on a profile that allows it.
    let script = "sendevent /dev/input/event2 3 57 1; sendevent /dev/input/event2 3 53 2048; \
                  sendevent /dev/input/event2 3 54 2048; sendevent /dev/input/event2 0 0 0; \
                  sendevent /dev/input/event2 3 57 4294967295; sendevent /dev/input/event2 0 0 0";
    let (_, err, _) = run(&mut sh, script).await;
    assert_eq!(err, "");
    assert_eq!(taps(&dev), before + 3);
    let gp = run(&mut sh, "getevent -lp").await.0;
    assert!(
        gp.contains("ABS_MT_POSITION_X     : value 0, min 0, max 4095"),
        "{gp}"
    );
    assert!(
        run(&mut sh, "getevent -p /dev/input/event2")
            .await
            .0
            .starts_with("add device 3: /dev/input/event2\n")
    );
}

/// Android 10 and later (API 29+): the shell may read the input devices but not write them
/// (AOSP sepolicy commit 51156264b4b9ff3bd5a766d17f005eb5d6b4d029); Android 9 keeps the old
/// rule; `adb root` on a userdebug build writes anyway.
#[tokio::test]
async fn the_shell_may_not_write_the_panel_from_android_10() {
    for p in profile::PROFILES {
        let mut sh = Shell::new(device(p.name, Knobs::default()));
        let (out, err, _) = run(
            &mut sh,
            "dd if=/dev/zero of=/dev/input/event2 count=1; echo $?",
        )
        .await;
        let writable = p.sdk < 29 && p.panel_writable;
        if writable {
            assert_eq!(out, "0\n", "{}: {err}", p.name);
        } else {
            assert_eq!(out, "1\n", "{}", p.name);
            assert_eq!(
                err, "dd: /dev/input/event2: Permission denied\n",
                "{}",
                p.name
            );
        }
        let (out, _, _) = run(&mut sh, "getevent -p; echo $?").await;
        assert!(
            out.contains("add device") && out.ends_with("0\n"),
            "{}: getevent -p still reads: {out}",
            p.name
        );
        let root = Knobs {
            adb_root: true,
            ..Knobs::default()
        };
        let mut sh = Shell::new(device(p.name, root));
        let bs = super::evdev::record_size(p.userspace_64);
        let script = format!("dd if=/dev/zero of=/dev/input/event2 bs={bs} count=1; echo $?");
        let (out, err, _) = run(&mut sh, &script).await;
        assert!(out.ends_with("0\n"), "{} as root: {err}", p.name);
    }
}

#[tokio::test]
async fn the_panel_is_not_writable_on_the_flagship() {
    let mut sh = Shell::new(device("flagship", Knobs::default()));
    let (_, err, _) = run(&mut sh, "dd of=/dev/input/event2 bs=24; echo $?").await;
    assert_eq!(err, "dd: /dev/input/event2: Permission denied\n");
    let (_, err, _) = run(&mut sh, "sendevent /dev/input/event2 0 0 0; echo $?").await;
    assert_eq!(err, "sendevent: /dev/input/event2: Permission denied\n");
    assert_eq!(
        run(&mut sh, "sendevent /dev/input/event2 0 0 0; echo $?")
            .await
            .0,
        "1\n"
    );
}

#[tokio::test]
async fn screencap_raw_header() {
    let mut sh = Shell::new(device("budget", Knobs::default()));
    let mut out = Output::default();
    sh.run("screencap", &mut out, false).await.unwrap();
    let bytes = out.stdout();
    let word = |i: usize| u32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
    assert_eq!((word(0), word(1), word(2)), (720, 1520, 1));
    assert_eq!(bytes.len(), 16 + 720 * 1520 * 4);
    let mut out = Output::default();
    sh.run("screencap -p", &mut out, false).await.unwrap();
    let png = image::load_from_memory(&out.stdout()).unwrap();
    assert_eq!((png.width(), png.height()), (720, 1520));
}

#[tokio::test]
async fn disconnect_after_fires_once() {
    let knobs = Knobs {
        disconnect_after: Some(3),
        ..Knobs::default()
    };
    let mut sh = Shell::new(device("pixel", knobs));
    assert_eq!(run(&mut sh, "echo 1; echo 2").await.2, Flow::Continue);
    let (out, _, flow) = run(&mut sh, "echo 3; echo 4").await;
    assert_eq!((out.as_str(), flow), ("3\n", Flow::Hangup));
    assert_eq!(run(&mut sh, "echo 5; echo 6").await.2, Flow::Continue);
}

#[tokio::test]
async fn input_latency_delays_each_input_command() {
    let knobs = Knobs {
        input_latency: std::time::Duration::from_millis(40),
        ..Knobs::default()
    };
    let mut sh = Shell::new(device("pixel", knobs));
    let t = std::time::Instant::now();
    run(&mut sh, "input tap 1 1; echo x; input keyevent BACK").await;
    // A lower bound only (sleeps never end early); no upper bound is asserted.
    assert!(t.elapsed() >= std::time::Duration::from_millis(80));
}

#[tokio::test]
async fn dd_into_the_panel_takes_records_of_the_writers_size() {
    use super::dd::Dd;
    use super::evdev::{self, InputEvent};
    use super::touch::{ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID, EV_ABS};
    let ev = |kind, code, value| InputEvent { kind, code, value };
    let tap = [
        ev(EV_ABS, ABS_MT_TRACKING_ID, 5),
        ev(EV_ABS, ABS_MT_POSITION_X, 100),
        ev(EV_ABS, ABS_MT_POSITION_Y, 100),
        ev(0, 0, 0),
        ev(EV_ABS, ABS_MT_TRACKING_ID, -1),
        ev(0, 0, 0),
    ];
    for (name, size) in [("pixel", 24), ("budget", 16)] {
        let root = Knobs {
            adb_root: true,
            ..Knobs::default()
        };
        let dev = device(name, root);
        let args: Vec<String> = vec!["of=/dev/input/event2".into(), format!("bs={size}")];
        let mut dd = Dd::start(&dev, &args).unwrap();
        let bytes = evdev::encode(&tap, size);
        // Split across reads at record boundaries: whole records each time.
        dd.feed(&dev, &bytes[..2 * size]).unwrap();
        dd.feed(&dev, &bytes[2 * size..]).unwrap();
        assert_eq!(dev.phone().dumpsys()["taps"], 1, "{name}");
        // A read that ends mid-record makes a short write, whose retry fails (EINVAL).
        let e = dd.feed(&dev, &bytes[..size + 3]).unwrap_err();
        assert_eq!(
            e,
            super::dd::DdEnd::Failed("dd: write error: Invalid argument".into())
        );
        // The other size is refused the same way on the first record.
        let other = if size == 24 { 16 } else { 24 };
        let mut dd = Dd::start(&dev, &args).unwrap();
        let r = dd.feed(&dev, &evdev::encode(&tap[..1], other));
        assert!(r.is_err(), "{name}: {other}-byte records must not pass");
    }
}

#[tokio::test]
async fn dd_count_and_summary() {
    let dev = device("budget", Knobs::default());
    let mut sh = Shell::new(dev.clone());
    // From a script, dd's stdin is empty.
    let (_, err, _) = run(&mut sh, "dd of=/dev/null bs=24; echo $?").await;
    assert_eq!(err, "0+0 records in\n0+0 records out\n0 bytes copied\n");
    let (_, err, _) = run(&mut sh, "dd of=/sdcard/x; dd if=/sdcard/y of=/dev/null").await;
    assert!(
        err.contains("/sdcard/x: No such file") && err.contains("only copies from stdin"),
        "{err}"
    );
    let args = vec![
        "of=/dev/input/event2".to_string(),
        "bs=16".into(),
        "count=1".into(),
    ];
    let mut dd = super::dd::Dd::start(&dev, &args).unwrap();
    assert_eq!(dd.feed(&dev, &[0u8; 32]), Err(super::dd::DdEnd::Done));
    let mut out = Output::default();
    assert_eq!(
        super::dd::end(&dd, Err(super::dd::DdEnd::Done), &mut out),
        0
    );
    assert!(
        String::from_utf8_lossy(&out.merged()).starts_with("1+0 records in\n1+0 records out\n")
    );
}

#[tokio::test]
async fn abi_properties_and_input_dump() {
    let mut sh = Shell::new(device("budget", Knobs::default()));
    assert_eq!(
        run(&mut sh, "getprop ro.product.cpu.abi").await.0,
        "armeabi-v7a\n"
    );
    let dump = run(&mut sh, "dumpsys input").await.0;
    assert!(dump.contains("  InboundQueue: <empty>\n"), "{dump}");
    assert!(dump.contains("      WaitQueue: <empty>\n"), "{dump}");
}

#[tokio::test]
async fn phone_timing_makes_taps_wait_for_the_app() {
    let knobs = Knobs {
        timing: crate::timing::TimingMode::Phone,
        ..Knobs::default()
    };
    let dev = device("pixel", knobs);
    let mut sh = Shell::new(dev.clone());
    let ui = std::time::Duration::from_millis(dev.profile().timing.app_tap_ms.into());
    // Queue taps straight into the dispatcher (as a raw stream does): they wait for the app.
    for _ in 0..20 {
        dev.inject(crate::dispatch::Action::Tap(1, 1));
    }
    let dump = run(&mut sh, "dumpsys input").await.0;
    assert!(dump.contains("InboundQueue: length="), "{dump}");
    let t = std::time::Instant::now();
    // `input tap` (on Android 14: `cmd input`) pays its fixed cost, then waits until the app
    // handled its tap, behind the 20.
    run(&mut sh, "input tap 1 1").await;
    // Lower bounds only (sleeps never end early).
    let input = dev.costs().input(dev.profile().sdk) + ui;
    assert!(t.elapsed() >= input, "{:?}", t.elapsed());
    assert_eq!(dev.phone().dumpsys()["taps"], 21);
    assert!(t.elapsed() >= ui);
}

#[tokio::test]
async fn proc_io_counts_a_processs_bytes_and_exec_replaces_the_shell() {
    let dev = device("pixel", Knobs::default());
    let mut sh = Shell::new(dev.clone());
    let (out, _, _) = run(&mut sh, "echo pid:$$; cat /proc/$$/io").await;
    let pid = sh.pid();
    assert!(
        out.starts_with(&format!("pid:{pid}\nrchar: 0\nwchar: 0\n")),
        "{out}"
    );
    // A copying process's counters, as the kernel keeps them.
    let counters = super::Io {
        rchar: 48,
        wchar: 24,
        syscr: 2,
        syscw: 1,
    };
    dev.set_io(pid, counters);
    let (out, _, _) = run(&mut sh, "cat /proc/$$/io").await;
    assert!(
        out.contains("rchar: 48\nwchar: 24\nsyscr: 2\nsyscw: 1\n"),
        "{out}"
    );
    // No such process (or it ended): no such file.
    let (out, err, _) = run(&mut sh, "cat /proc/1/io /proc/self/status").await;
    assert_eq!((out.as_str(), sh.status()), ("", 1));
    assert!(
        err.contains("/proc/1/io: No such file") && err.contains("/proc/self/status"),
        "{err}"
    );
    drop(sh);
    assert_eq!(dev.io(pid), None, "the process ended with its shell");

    let mut sh = Shell::new(dev.clone());
    let mut out = Output::default();
    let flow = sh
        .run("exec echo hi; echo not reached", &mut out, false)
        .await;
    assert_eq!(flow, Ok(Flow::Exit(0)));
    assert_eq!(String::from_utf8_lossy(&out.stdout()), "hi\n");
}

#[tokio::test]
async fn app_process_runs_only_the_injector_it_was_given() {
    use sudoku_autoplay::device::tap::injector::{INJECTOR_DEX, INJECTOR_PATH, KIND_TAP, record};
    let dev = device("pixel", Knobs::default());
    let mut sh = Shell::new(dev.clone());
    let start =
        format!("CLASSPATH={INJECTOR_PATH} app_process / org.autoplay.inject.Main; echo $?");
    // Nothing pushed yet: the runtime aborts (the ClassNotFoundException goes to logcat).
    assert_eq!(run(&mut sh, &start).await.1, "Aborted \n");
    // Other bytes: the same.
    dev.write_file(INJECTOR_PATH, b"dex\n035\0".to_vec())
        .unwrap();
    assert_eq!(run(&mut sh, &start).await.0, "134\n");
    assert!(dev.write_file("/system/x", vec![]).is_err());
    // Ours: hello, and with no stdin it ends at once.
    dev.write_file(INJECTOR_PATH, INJECTOR_DEX.to_vec())
        .unwrap();
    let hello = format!(
        "autoplay-inject 2 sdk=34 dex={}\n",
        sudoku_autoplay::device::tap::injector::dex_signature(INJECTOR_DEX).unwrap()
    );
    assert_eq!(run(&mut sh, &start).await.0, format!("{hello}0\n"));
    // Records: a tap goes through the dispatcher; a bad kind and a torn record as the dex does.
    let mut out = Output::default();
    let mut inj = super::inject::start(
        &dev,
        Some(INJECTOR_PATH),
        &["/".into(), "org.autoplay.inject.Main".into()],
        4242,
        &mut out,
    )
    .ok()
    .unwrap();
    let before = dev.phone().dumpsys()["taps"].as_u64().unwrap();
    let mut bytes = record(KIND_TAP, 7, 100, 200).to_vec();
    bytes.extend(record(9, 8, 0, 0));
    bytes.extend(&record(KIND_TAP, 9, 1, 1)[..5]);
    inj.feed(&dev, &bytes, &mut out);
    assert_eq!(inj.finish(&mut out), 1);
    assert_eq!(
        String::from_utf8(out.stdout()).unwrap(),
        format!(
            "{hello}ok 7\nerr 8 bad kind 9\nfatal java.io.EOFException: truncated record (5 of 16 bytes)\n"
        )
    );
    assert_eq!(dev.phone().dumpsys()["taps"].as_u64().unwrap(), before + 1);
}

/// The tap injector started on `dev` (its dex pushed), and what it printed.
fn injector(dev: &Handset) -> (super::inject::Injector, Output) {
    use sudoku_autoplay::device::tap::injector::{INJECTOR_DEX, INJECTOR_PATH};
    dev.write_file(INJECTOR_PATH, INJECTOR_DEX.to_vec())
        .unwrap();
    let mut out = Output::default();
    let inj = super::inject::start(
        dev,
        Some(INJECTOR_PATH),
        &["/".into(), "org.autoplay.inject.Main".into()],
        4242,
        &mut out,
    )
    .ok()
    .unwrap();
    (inj, out)
}

#[tokio::test]
async fn from_android_13_a_refusing_phone_throws_at_once() {
    use sudoku_autoplay::device::tap::injector::{KIND_TAP, record};
    let knobs = Knobs {
        inject_denied: true,
        ..Knobs::default()
    };
    let dev = device("pixel", knobs);
    let mut sh = Shell::new(dev.clone());
    let (out, err, _) = run(&mut sh, "input tap 1 1; echo $?").await;
    assert_eq!(out, "255\n");
    assert!(
        err.starts_with(&format!(
            "\nException occurred while executing 'tap':\n{}\n",
            super::refusal::DENIED
        )),
        "{err}"
    );
    assert!(
        run(&mut sh, "input keyevent KEYCODE_WAKEUP; echo $?")
            .await
            .0
            .ends_with("255\n"),
        "every injection is refused on entry"
    );
    let (mut inj, mut out) = injector(&dev);
    inj.feed(&dev, &record(KIND_TAP, 3, 1, 1), &mut out);
    let text = String::from_utf8(out.stdout()).unwrap();
    assert!(
        text.contains(&format!("\nerr 3 {}\n", super::refusal::DENIED)),
        "{text}"
    );
    assert_eq!(taps(&dev), 0);
    assert_eq!(
        run(&mut sh, "logcat -d").await.0,
        "",
        "nothing reached the dispatcher"
    );
    // Root is granted every permission.
    let root = device(
        "pixel",
        Knobs {
            inject_denied: true,
            adb_root: true,
            ..Knobs::default()
        },
    );
    let mut sh = Shell::new(root.clone());
    assert_eq!(run(&mut sh, "input tap 1 1; echo $?").await.0, "0\n");
    assert_eq!(taps(&root), 1);
}

#[tokio::test]
async fn before_android_13_a_refusing_phone_drops_what_the_injector_sends() {
    use sudoku_autoplay::device::tap::injector::{KIND_DOWN, KIND_MOVE, KIND_TAP, KIND_UP, record};
    let knobs = Knobs {
        inject_denied: true,
        ..Knobs::default()
    };
    for name in ["midrange", "entry", "budget"] {
        let dev = device(name, knobs.clone());
        let mut sh = Shell::new(dev.clone());
        let (mut inj, mut out) = injector(&dev);
        let mut bytes = record(KIND_TAP, 3, 100, 200).to_vec();
        for (kind, seq) in [(KIND_MOVE, 4), (KIND_DOWN, 5), (KIND_UP, 6)] {
            bytes.extend(record(kind, seq, 100, 200));
        }
        inj.feed(&dev, &bytes, &mut out);
        let text = String::from_utf8(out.stdout()).unwrap();
        assert!(
            text.ends_with("\nok 3\nok 4\nok 5\nok 6\n"),
            "{name}: {text}"
        );
        assert_eq!(taps(&dev), 0, "{name}: nothing reached the app");
        let log = run(&mut sh, "logcat -d").await.0;
        let line = "W InputDispatcher: Permission denied: injecting event from pid 4242 uid 2000 \
                    to window 5a1c0de org.autoplay.sudoku/org.autoplay.sudoku.GameActivity owned by uid 1";
        assert_eq!(
            log.matches(line).count(),
            2,
            "{name}: one per gesture: {log}"
        );
        assert!(log.starts_with("--------- beginning of main\n"), "{log}");
        assert_eq!(run(&mut sh, "logcat -c; logcat -d").await.0, "");
    }
}

#[tokio::test]
async fn before_android_13_a_refusing_phone_throws_at_input_but_lets_the_policy_keys_through() {
    let knobs = Knobs {
        inject_denied: true,
        ..Knobs::default()
    };
    for (name, status, first) in [
        (
            "midrange",
            "255",
            "\nException occurred while executing 'tap':\n",
        ),
        ("entry", "1", ""),
        ("budget", "1", ""),
    ] {
        let dev = device(name, knobs.clone());
        let mut sh = Shell::new(dev.clone());
        let (out, err, _) = run(&mut sh, "input tap 1 1; echo $?").await;
        assert_eq!(out, format!("{status}\n"), "{name}");
        assert!(
            err.starts_with(&format!("{first}{}\n", super::refusal::DENIED_OLD)),
            "{name}: {err}"
        );
        let log = run(&mut sh, "logcat -d").await.0;
        assert!(
            log.contains("W InputManager: Input event injection from pid ")
                && log.contains("--------- beginning of system\n"),
            "{name}: {log}"
        );
        // KEYCODE_UNKNOWN reaches the focused window: refused; the wake and sleep keys and
        // HOME are the policy's: they work; so do touches on a dark screen.
        let (out, err, _) = run(&mut sh, "input keyevent 0; echo $?").await;
        assert_eq!(out, format!("{status}\n"), "{name}: {err}");
        assert!(
            err.contains("sendKeyEvent") || err.contains("injectKeyEvent"),
            "{err}"
        );
        let script = "input keyevent KEYCODE_SLEEP; input tap 1 1; echo $?; \
                      input keyevent KEYCODE_WAKEUP; echo $?; dumpsys sudoku";
        let (out, err, _) = run(&mut sh, script).await;
        assert!(out.starts_with("0\n0\n"), "{name}: {out} {err}");
        assert!(out.contains("\"display\":\"on\""), "{out}");
        assert_eq!(
            taps(&dev),
            1,
            "{name}: the tap on the dark screen was the app's"
        );
    }
}

/// A phone of profile `name` with `quirks`, its shell, and its tap count.
fn quirky(name: &str, quirks: profile::Quirks) -> (Arc<Handset>, Shell) {
    let mut p = profile::profile(name).unwrap().clone();
    p.quirks = quirks;
    let dev = Arc::new(Handset::new(
        Phone::new(p, AppOptions::default()),
        Knobs::default(),
    ));
    let sh = Shell::new(dev.clone());
    (dev, sh)
}

fn taps(d: &Handset) -> u64 {
    d.phone().dumpsys()["taps"].as_u64().unwrap()
}

#[tokio::test]
async fn a_protocol_a_panel_taps_on_an_empty_frame_only() {
    let q = profile::Quirks {
        protocol_a: true,
        ..profile::Quirks::NONE
    };
    let (dev, mut sh) = quirky("small", q);
    let p = "sendevent /dev/input/event2";
    let listing = run(&mut sh, "getevent -p").await.0;
    assert!(!listing.contains("002f"), "no slot axis: {listing}");
    // Protocol B's records: the contact never lifts (a tracking id of -1 is a contact here).
    run(&mut sh, &format!("{p} 3 47 0; {p} 3 57 5; {p} 3 53 100; {p} 3 54 700; {p} 1 330 1; {p} 0 0 0; {p} 3 57 -1; {p} 1 330 0; {p} 0 0 0")).await;
    assert_eq!(taps(&dev), 0);
    // Protocol A: a contact closed by SYN_MT_REPORT, then a frame without contacts.
    run(&mut sh, &format!("{p} 0 2 0; {p} 0 0 0")).await;
    let before = taps(&dev);
    run(&mut sh, &format!("{p} 3 53 100; {p} 3 54 700; {p} 0 2 0; {p} 1 330 1; {p} 0 0 0; {p} 0 2 0; {p} 1 330 0; {p} 0 0 0")).await;
    assert_eq!(taps(&dev), before + 1);
}

#[tokio::test]
async fn decoy_nodes_are_listed_first_and_drive_nothing() {
    let q = profile::Quirks {
        decoy_panels: 2,
        ..profile::Quirks::NONE
    };
    let (dev, mut sh) = quirky("small", q);
    let listing = run(&mut sh, "getevent -p").await.0;
    let order: Vec<&str> = listing
        .lines()
        .filter_map(|l| l.strip_prefix("add device "))
        .collect();
    assert_eq!(order.len(), 5, "{listing}");
    assert!(order[2].ends_with("/dev/input/event2") && order[3].ends_with("/dev/input/event3"));
    let tap = |d: &str| {
        format!(
            "sendevent {d} 3 47 0; sendevent {d} 3 57 5; sendevent {d} 3 53 100; sendevent {d} 3 54 700; sendevent {d} 0 0 0; sendevent {d} 3 57 -1; sendevent {d} 0 0 0"
        )
    };
    run(&mut sh, &tap("/dev/input/event2")).await;
    assert_eq!(taps(&dev), 0, "the first node is a decoy");
    run(&mut sh, &tap("/dev/input/event3")).await;
    assert_eq!(taps(&dev), 1);
    let input = run(&mut sh, "dumpsys input").await.0;
    assert!(
        input.contains("Touch Input Mapper (mode - DISABLED)")
            && input.contains("Viewport INTERNAL: displayId=0")
    );
}

#[tokio::test]
async fn system_outputs_follow_the_quirks() {
    let q = profile::Quirks {
        extra_displays: 1,
        anr_snapshot: true,
        wakefulness: profile::WakeFormat::Samsung,
        raw_header_12: true,
        no_sys_keys: true,
        ..profile::Quirks::NONE
    };
    let (_, mut sh) = quirky("pixel", q);
    let power = run(&mut sh, "dumpsys power").await.0;
    assert!(power.contains("getWakefulnessLocked()=Awake") && !power.contains("mWakefulness="));
    let window = run(&mut sh, "dumpsys window").await.0;
    assert_eq!(window.matches("mCurrentFocus=").count(), 2, "{window}");
    assert!(
        run(&mut sh, "dumpsys input")
            .await
            .0
            .contains("at time of last ANR")
    );
    let mut out = Output::default();
    sh.run("screencap", &mut out, false).await.unwrap();
    let bytes = out.merged();
    assert!(bytes.starts_with(b"[Warning] Multiple displays"));
    let image = &bytes[screencap::MULTIPLE_DISPLAYS_WARNING.len()..];
    assert_eq!(image.len(), 12 + 1080 * 2400 * 4, "a 12-byte header");
    let (_, err, _) = run(&mut sh, "screencap -d 0 -p > /dev/null; echo").await;
    assert!(!err.contains("Warning"));
    let monkey = "monkey -p org.autoplay.sudoku -c android.intent.category.LAUNCHER 1; echo rc=$?";
    assert!(
        run(&mut sh, monkey)
            .await
            .0
            .contains("SYS_KEYS has no physical keys")
    );
    let monkey = "monkey -p org.autoplay.sudoku --pct-syskeys 0 1";
    assert!(run(&mut sh, monkey).await.0.contains("Events injected: 1"));
}

#[tokio::test]
async fn uiautomator_cannot_get_idle_while_the_screen_animates() {
    let q = profile::Quirks {
        ui_idle_error: true,
        ..profile::Quirks::NONE
    };
    let (_, mut sh) = quirky("pixel", q);
    run(
        &mut sh,
        "am start -n org.autoplay.sudoku/.GameActivity --ei level 1",
    )
    .await;
    assert!(
        run(&mut sh, "uiautomator dump /dev/tty")
            .await
            .0
            .contains("<hierarchy")
    );
    run(&mut sh, "input tap 540 1200").await;
    let (out, _, _) = run(&mut sh, "uiautomator dump /dev/tty; echo rc=$?").await;
    assert_eq!(out, "ERROR: could not get idle state.\nrc=0\n");
    tokio::time::sleep(device::ANIMATION).await;
    assert!(
        run(&mut sh, "uiautomator dump /dev/tty")
            .await
            .0
            .contains("<hierarchy")
    );
}

#[tokio::test]
async fn canned_answers_replace_commands_by_prefix() {
    let dev = device(
        "pixel",
        Knobs {
            shell_outputs: vec![
                ("getevent".into(), b"A\n".to_vec()),
                ("getevent -lp".into(), b"B\n".to_vec()),
            ],
            ..Knobs::default()
        },
    );
    let mut sh = Shell::new(dev);
    assert_eq!(run(&mut sh, "getevent -p; echo rc=$?").await.0, "A\nrc=0\n");
    assert_eq!(
        run(&mut sh, "getevent -lp").await.0,
        "B\n",
        "the longest prefix"
    );
    assert_eq!(
        run(&mut sh, "wm size").await.0,
        "Physical size: 1080x2400\n"
    );
}

#[tokio::test]
async fn another_package_is_another_app_everywhere() {
    let options = AppOptions {
        package: Some("com.example.other".into()),
        ..AppOptions::default()
    };
    let phone = Phone::new(profile::profile("pixel").unwrap().clone(), options);
    let mut sh = Shell::new(Arc::new(Handset::new(phone, Knobs::default())));
    let app = "com.example.other/com.example.other.GameActivity";
    let win = run(&mut sh, "dumpsys window").await.0;
    assert!(
        win.contains(&format!("mCurrentFocus=Window{{5a1c0de u0 {app}}}"))
            && win.contains(
                "mFocusedApp=ActivityRecord{3c1f2a9 u0 com.example.other/.GameActivity t7}"
            ),
        "{win}"
    );
    let (out, err, _) = run(
        &mut sh,
        "am start -n org.autoplay.sudoku/.GameActivity --ei level 3; echo $?",
    )
    .await;
    assert!(
        out.ends_with("255\n") && err.contains("does not exist"),
        "{out} {err}"
    );
    let (out, err, _) = run(
        &mut sh,
        "am start -n com.example.other/.GameActivity --ei level 3; echo $?",
    )
    .await;
    assert!(out.ends_with("0\n"), "{out} {err}");
    let state = run(&mut sh, "dumpsys sudoku").await.0;
    assert!(
        state.contains("\"package\":\"com.example.other\"") && state.contains("\"level\":3"),
        "{state}"
    );
    let (_, err, _) = run(&mut sh, "monkey -p org.autoplay.sudoku 1").await;
    assert!(err.contains("No activities found"), "{err}");
    let out = run(&mut sh, "monkey -p com.example.other 1; echo $?")
        .await
        .0;
    assert!(
        out.contains("data=\"com.example.other\"") && out.ends_with("0\n"),
        "{out}"
    );
    let xml = run(&mut sh, "uiautomator dump /dev/tty").await.0;
    assert!(
        xml.contains("package=\"com.example.other\"") && !xml.contains("org.autoplay.sudoku"),
        "{xml}"
    );
    assert!(run(&mut sh, "dumpsys input").await.0.contains(app));
}

#[tokio::test]
async fn a_phone_still_starting_has_no_window_manager_yet() {
    let starting = Knobs {
        starting: Duration::from_millis(300),
        ..Knobs::default()
    };
    // Android 14: `wm` is `cmd window`; Android 6: `wm`'s own program.
    let (pixel, small) = (device("pixel", starting.clone()), device("small", starting));
    let mut sh = Shell::new(pixel);
    let (out, err, _) = run(&mut sh, "wm size; echo rc=$?").await;
    assert_eq!(
        (out.as_str(), err.as_str()),
        ("rc=20\n", "cmd: Can't find service: window\n")
    );
    let (_, err, _) = run(&mut sh, "dumpsys window").await;
    assert_eq!(err, "Can't find service: window\n");
    assert_eq!(run(&mut sh, "getprop sys.boot_completed").await.0, "\n");
    let (_, err, _) = run(&mut Shell::new(small), "wm size").await;
    assert!(
        err.contains("Can't connect to window manager; is the system running?"),
        "{err}"
    );
    // Up: as usual.
    tokio::time::sleep(Duration::from_millis(350)).await;
    assert_eq!(
        run(&mut sh, "wm size").await.0,
        "Physical size: 1080x2400\n"
    );
    assert_eq!(run(&mut sh, "getprop sys.boot_completed").await.0, "1\n");
}

#[tokio::test]
async fn screenrecord_says_what_android_says_about_its_command_line() {
    let mut sh = Shell::new(device("pixel", Knobs::default()));
    let said = |(_, err, _): (String, String, Flow)| err;
    let cases = [
        (
            "screenrecord --time-limit 200 -",
            "Time limit 200s outside acceptable range [1,180]\n",
        ),
        (
            "screenrecord --bit-rate 50000 -",
            "Bit rate 50000bps outside acceptable range [100000,200000000]\n",
        ),
        ("screenrecord --bit-rate 4x -", "Unrecognized value: 4x\n"),
        (
            "screenrecord --size 0x10 -",
            "Invalid size 0x10, width and height may not be zero\n",
        ),
        (
            "screenrecord --size 720 -",
            "Invalid size '720', must be width x height\n",
        ),
        (
            "screenrecord --output-format avi -",
            "Unknown format 'avi'\n",
        ),
        ("screenrecord", "Must specify output file (see --help).\n"),
        (
            "screenrecord --verbose --output-format=h264 -",
            "ERROR: verbose output and '-' not compatible",
        ),
        ("screenrecord -", "ERROR: couldn't open file\n"),
    ];
    for (line, message) in cases {
        assert_eq!(said(run(&mut sh, line).await), message, "{line}");
    }
    let (_, err, _) = run(&mut sh, "screenrecord --help; echo rc=$?").await;
    assert!(
        err.starts_with("Usage: screenrecord [options] <filename>"),
        "{err}"
    );
    assert!(err.contains("Default / maximum is 180."), "{err}");
    let q = profile::Quirks {
        no_screenrecord: true,
        ..profile::Quirks::NONE
    };
    let (_, mut sh) = quirky("pixel", q);
    let (out, err, _) = run(&mut sh, "screenrecord --help; echo rc=$?").await;
    assert_eq!(out, "rc=127\n");
    assert_eq!(
        err,
        "/system/bin/sh: screenrecord: inaccessible or not found\n"
    );
}
