//! The player's device layer (host protocol, device services, capture, the tap channel)
//! against the simulated phone through a private real adb server.

use crate::common::AdbServer;
use autoplay_sim::{SimConfig, SimHandle, profile, spawn};
use std::time::Duration;
use sudoku_autoplay::device::direct::Direct;
use sudoku_autoplay::device::screen::Screen;
use sudoku_autoplay::device::tap::{self, Channel};
use sudoku_autoplay::device::tap::{ChannelKind, Tapper, TapperOptions};
use sudoku_autoplay::device::{CALL_TIMEOUT, Device, DeviceError, Server, select};
use sudoku_autoplay::phone::link::Link;
use sudoku_autoplay::play::stop::{StopFlag, is_restored};

fn phone(name: &str, tweak: impl FnOnce(&mut SimConfig)) -> (SimHandle, AdbServer, Server) {
    let mut config = SimConfig::new(profile::profile(name).unwrap().clone());
    tweak(&mut config);
    let sim = spawn(config).unwrap();
    let adb = AdbServer::start();
    adb.connect(&sim.serial());
    let server = Server::new(adb.addr());
    (sim, adb, server)
}

fn taps(sim: &SimHandle) -> u64 {
    sim.dumpsys()["taps"].as_u64().unwrap()
}

/// 300 taps through `chosen`: each is carried out, and the phone gets each once.
fn every_tap_arrives_once(
    sim: &SimHandle,
    device: &Device,
    chosen: Channel,
    size: (u32, u32),
    name: &str,
) {
    let before = taps(sim);
    let mut t = Tapper::open(device, chosen, size, TapperOptions::default()).unwrap();
    for i in 0..300 {
        t.tap(100 + i % 7, size.1 - 100).unwrap();
    }
    t.flush().unwrap();
    assert_eq!(t.taps_done(), 300);
    assert_eq!(taps(sim) - before, 300, "{name}: every tap arrived once");
}

#[test]
fn selection_shell_and_capture() {
    let (sim, _adb, server) = phone("pixel", |_| {});
    let list = server.devices().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].model, "Pixel_7");
    let device = select(&server, None).unwrap();
    assert_eq!(device.serial, sim.serial());
    let e = select(&server, Some("R58M0000")).unwrap_err();
    assert!(matches!(e, DeviceError::NotFound { .. }));
    assert!(e.to_string().contains(&sim.serial()), "{e}");

    let out = device.shell("echo hello; false", CALL_TIMEOUT).unwrap();
    assert_eq!((out.stdout.as_str(), out.code), ("hello\n", 1));
    assert_eq!(device.shell("nosuchcmd", CALL_TIMEOUT).unwrap().code, 127);
    assert_eq!(device.screen_size().unwrap(), (1080, 2400));
    assert_eq!(device.getprop("ro.product.model").unwrap(), "Pixel_7");

    let (screen, frame) = Screen::measure(&device).unwrap();
    assert_eq!(frame.dimensions(), (1080, 2400));
    assert_eq!(
        screen.measured.len(),
        2,
        "both methods measured: {}",
        screen.describe()
    );
    assert_eq!(screen.grab().unwrap().dimensions(), (1080, 2400));
}

#[test]
fn pipelined_taps_are_acknowledged() {
    let (sim, _adb, server) = phone("pixel", |_| {});
    let device = select(&server, None).unwrap();
    let before = taps(&sim);
    let mut t = Tapper::open(
        &device,
        Channel::input("test"),
        (1080, 2400),
        TapperOptions::default(),
    )
    .unwrap();
    for i in 0..500 {
        t.tap(100 + i % 7, 2300).unwrap();
    }
    t.flush().unwrap();
    assert_eq!(t.taps_done(), 500);
    assert_eq!(taps(&sim) - before, 500, "every tap reached the phone once");
    assert!(t.taps_per_sec() > 0.0);
}

#[test]
fn event_injection_maps_to_display_pixels() {
    let (sim, _adb, server) = phone("budget", |_| {});
    let device = select(&server, None).unwrap();
    let chosen = tap::choose(&device, Some(ChannelKind::Events)).unwrap();
    assert_eq!(chosen.kind, ChannelKind::Events, "{}", chosen.why);
    let panel = chosen.panel.clone().unwrap();
    assert_eq!((panel.max_x, panel.max_y), (4095, 4095));
    let before = taps(&sim);
    let mut t = Tapper::open(&device, chosen, (720, 1520), TapperOptions::default()).unwrap();
    for _ in 0..20 {
        t.tap(360, 1400).unwrap();
    }
    t.flush().unwrap();
    assert_eq!(taps(&sim) - before, 20);
}

/// Sends `n` taps through a link whose device drops the connection once on the way, and returns
/// how many taps the phone got after the link was restored, and how many were sent after it.
/// The tap channel does not recover by itself: the link (the run's one recovery layer) waits for
/// the device, reopens the channel and says `Restored` (the caller must look at the screen:
/// taps in flight may be lost); every tap sent after that arrives once.
fn taps_through_a_drop(sim: &SimHandle, link: &mut Link, n: u32) -> (u64, u64) {
    let (mut landed_before, mut sent_after) = (None, 0);
    for _ in 0..n {
        match link.tap(540, 2300) {
            Ok(()) => sent_after += u64::from(landed_before.is_some()),
            Err(e) if is_restored(&e) => {
                assert!(landed_before.is_none(), "one drop, one restore");
                landed_before = Some(taps(sim));
            }
            Err(e) => panic!("{e:#}"),
        }
    }
    link.flush().unwrap();
    let before = landed_before.expect("the link dropped and was restored");
    (taps(sim) - before, sent_after)
}

#[test]
fn a_dropped_connection_is_restored_by_the_link() {
    let (sim, _adb, server) = phone("pixel", |c| c.disconnect_after = Some(40));
    let device = select(&server, None).unwrap();
    let mut link = Link::new(device, Duration::from_secs(15), StopFlag::default());
    link.open_channel(Some(ChannelKind::Input), (1080, 2400), Duration::ZERO)
        .unwrap();
    let (landed, sent) = taps_through_a_drop(&sim, &mut link, 200);
    assert!(link.reconnects >= 1, "the session was reopened");
    assert!(sent > 0);
    assert_eq!(landed, sent, "no tap after the restore is lost or repeated");
}

#[test]
fn raw_records_reach_the_panel_on_two_profiles() {
    // pixel: 64-bit shell (24-byte records; Android 14, so only as root on a userdebug build);
    // budget: 32-bit userspace (16-byte records; Android 9, no root needed).
    for (name, size, record) in [("pixel", (1080, 2400), 24), ("budget", (720, 1520), 16)] {
        let (sim, _adb, server) = phone(name, |c| c.adb_root = name == "pixel");
        let device = select(&server, None).unwrap();
        let chosen = tap::choose(&device, None).unwrap();
        assert_eq!(chosen.kind, ChannelKind::Raw, "{name}: {}", chosen.why);
        assert_eq!(chosen.record, Some(record), "{name}");
        assert!(
            chosen.why.contains(&format!("{record}-byte")),
            "{}",
            chosen.why
        );
        every_tap_arrives_once(&sim, &device, chosen, size, name);
    }
}

#[test]
fn a_panel_that_cannot_be_written_falls_back_to_input() {
    let (sim, _adb, server) = phone("flagship", |_| {});
    let device = select(&server, None).unwrap();
    // Without a writable panel the next channel down is the injector; asked for `events`
    // (which skips the injector), the fallback is `input`.
    for asked in [None, Some(ChannelKind::Raw), Some(ChannelKind::Events)] {
        let chosen = tap::choose(&device, asked).unwrap();
        let (want, word) = match asked {
            Some(ChannelKind::Events) => (ChannelKind::Input, "sendevent"),
            _ => (ChannelKind::Inject, "app_process"),
        };
        assert_eq!(chosen.kind, want, "{asked:?}: {}", chosen.why);
        assert!(chosen.why.contains(word), "{}", chosen.why);
        if asked != Some(ChannelKind::Events) {
            assert!(chosen.why.contains("Permission denied"), "{}", chosen.why);
        }
    }
    let chosen = tap::choose(&device, Some(ChannelKind::Events)).unwrap();
    let mut t = Tapper::open(&device, chosen, (1440, 3200), TapperOptions::default()).unwrap();
    t.tap(720, 3000).unwrap();
    t.flush().unwrap();
    assert_eq!(taps(&sim), 1);
}

#[test]
fn a_stream_torn_mid_record_loses_nothing_after_it() {
    // Android 14 writes the panel only as root (a userdebug build after `adb root`).
    let (sim, adb, server) = phone("pixel", |c| c.adb_root = true);
    // By hand: half a tap (down, then 10 bytes of the next record), and the link drops.
    let mut s = adb.open_service(&sim.serial(), "exec:dd of=/dev/input/event2 bs=24");
    let mut bytes = Vec::new();
    let panel = sudoku_autoplay::device::tap::panel::TouchPanel {
        device: "/dev/input/event2".into(),
        max_x: 1079,
        max_y: 2399,
        protocol: sudoku_autoplay::device::android::Protocol::B,
        rotation: 0,
    };
    sudoku_autoplay::device::tap::panel::touch_down(&mut bytes, &panel, 24, (540, 2300), 9);
    std::io::Write::write_all(&mut s, &bytes[..5 * 24 + 10]).unwrap();
    std::io::Write::flush(&mut s).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    drop(s);
    // dd failed on the short write: the half record never became an event, and nothing was
    // tapped (the finger is still "down" on the panel).
    assert_eq!(taps(&sim), 0);
    let device = select(&server, None).unwrap();
    let chosen = tap::choose(&device, Some(ChannelKind::Raw)).unwrap();
    let mut t = Tapper::open(&device, chosen, (1080, 2400), TapperOptions::default()).unwrap();
    for _ in 0..50 {
        t.tap(540, 2300).unwrap();
    }
    t.flush().unwrap();
    // The kernel keeps the half packet until the next SYN_REPORT, whoever writes it: the probe's
    // SYN puts that finger down, and the new stream's release lifts it first (one tap where it
    // was, harmless on this app), then the 50.
    assert_eq!(taps(&sim), 51);

    // And a link that drops mid-run: the link reopens the raw channel, and every tap after that
    // arrives once.
    let (sim, _adb, server) = phone("pixel", |c| {
        c.disconnect_after = Some(40);
        c.adb_root = true;
    });
    let device = select(&server, None).unwrap();
    let mut link = Link::new(device, Duration::from_secs(15), StopFlag::default());
    let chosen = link
        .open_channel(None, (1080, 2400), Duration::ZERO)
        .unwrap();
    assert_eq!(chosen.kind, ChannelKind::Raw, "{}", chosen.why);
    let (landed, sent) = taps_through_a_drop(&sim, &mut link, 400);
    assert!(link.reconnects >= 1, "the link dropped and was reopened");
    assert!(sent > 0);
    assert_eq!(landed, sent, "no tap after the restore is lost or repeated");
}

/// Taps per second through the real adb server: the player's pipelined, acknowledged shell vs
/// one `adb shell input tap` process per tap; and the pipelined shell over the direct transport
/// (no adb server, as `autoplay demo --direct`). Run:
/// `cargo test --release --test it -- --ignored device_adb::bench_taps --nocapture`
#[test]
#[ignore = "benchmark"]
fn bench_taps() {
    let (sim, adb, server) = phone("pixel", |_| {});
    let n = 5000;
    let piped = pipelined(&select(&server, None).unwrap(), n);
    let per_process = 100;
    let start = std::time::Instant::now();
    for _ in 0..per_process {
        let out = adb.on(&sim.serial(), &["shell", "input", "tap", "100", "2300"]);
        assert_eq!(out.code(), 0);
    }
    let spawned = start.elapsed();
    let direct = Device::direct(Direct::connect(sim.serial().parse().unwrap()).unwrap());
    let direct = pipelined(&direct, n);
    assert_eq!(
        taps(&sim),
        (2 * n + per_process) as u64,
        "every tap arrived"
    );
    for (what, count, took) in [
        ("pipelined shell (acknowledged)", n, piped),
        ("one `adb shell input tap` per tap", per_process, spawned),
        ("pipelined shell, direct transport", n, direct),
    ] {
        println!(
            "{what}: {count} taps in {:.3} s = {:.0} taps/s",
            took.as_secs_f64(),
            count as f64 / took.as_secs_f64()
        );
    }
}

/// Sends `n` taps through the player's tap channel and waits until the phone ran them all.
fn pipelined(device: &Device, n: u32) -> Duration {
    let mut t = Tapper::open(
        device,
        Channel::input("bench"),
        (1080, 2400),
        TapperOptions::default(),
    )
    .unwrap();
    let start = std::time::Instant::now();
    for i in 0..n {
        t.tap(100 + i % 9, 2300).unwrap();
    }
    t.flush().unwrap();
    start.elapsed()
}

/// What the user runs, on a phone that costs what a phone costs: `autoplay --level N --input C
/// --pace 0` against the simulated phones with `--timing phone`, through a private real adb
/// server, for every channel each profile allows: the stock Android 14 `pixel` (`inject`,
/// `input`), the same phone as a userdebug build after `adb root` (`raw`, `events`), and the
/// Android 9 `budget` (all four); level 70 whole, level 20 whole (a longer replay, every step
/// shown) and a middle level (35) within `--budget 1m`. Prints the wall time of the command,
/// the taps/s it reports and taps per second of wall time. Run:
/// `cargo test --release --test it -- --ignored device_adb::bench_channels --nocapture`
#[test]
#[ignore = "benchmark (about 12 minutes)"]
fn bench_channels() {
    let calibration = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("calibration");
    let runs: &[(&str, bool, u32, &str, &[&str])] = &[
        ("pixel", false, 70, "none", &["auto", "inject", "input"]),
        ("pixel", false, 20, "none", &["inject", "input"]),
        ("pixel", false, 35, "1m", &["inject", "input"]),
        ("pixel", true, 70, "none", &["raw", "events"]),
        ("pixel", true, 35, "1m", &["raw", "events"]),
        ("tablet", false, 70, "none", &["auto"]),
        ("budget", false, 70, "none", &["auto", "inject"]),
        (
            "budget",
            false,
            35,
            "1m",
            &["raw", "inject", "events", "input"],
        ),
    ];
    let mut rows = Vec::new();
    for &(name, root, level, budget, channels) in runs {
        for &channel in channels {
            let (text, wall) = bench_run((name, root, level, budget), channel, &calibration);
            let (via, rate, taps) = summary_figures(&text);
            if channel != "auto" {
                assert_eq!(via, channel, "{text}");
            }
            let n: f64 = taps.replace(',', "").parse().unwrap_or(0.0);
            let phone = format!("{name}{}", if root { " (adb root)" } else { "" });
            let level_text = if budget == "none" {
                level.to_string()
            } else {
                format!("{level} (`--budget {budget}`)")
            };
            let picked = if channel == "auto" {
                format!("automatic: `{via}`")
            } else {
                format!("`{channel}`")
            };
            let row = format!(
                "| {phone} | {level_text} | {picked} | {taps} | {rate:.1} | {:.1} | {:.1} s |",
                n / wall.as_secs_f64(),
                wall.as_secs_f64()
            );
            println!("{row}");
            rows.push((name, root, level, via, rate));
        }
    }
    for level in [70, 20, 35] {
        let of = |c: &str| {
            rows.iter()
                .find(|r| r.0 == "pixel" && !r.1 && r.2 == level && r.3 == c)
                .map_or(f64::NAN, |r| r.4)
        };
        println!(
            "pixel level {level}: inject is {:.1}x input",
            of("inject") / of("input")
        );
    }
}

/// One `autoplay --level` run of `bench_channels`: (profile, adb root, level, budget) on a
/// phone-timed simulated phone through `channel`. Its output and wall time.
fn bench_run(
    (name, root, level, budget): (&str, bool, u32, &str),
    channel: &str,
    calibration: &std::path::Path,
) -> (String, Duration) {
    use autoplay_sim::timing::TimingMode;
    let (sim, adb, _server) = phone(name, |c| {
        c.timing = TimingMode::Phone;
        c.adb_root = root;
    });
    let data = tempfile::tempdir().unwrap();
    let mut cmd = crate::common::autoplay_command();
    cmd.args(["--level", &level.to_string()]);
    if channel != "auto" {
        cmd.args(["--input", channel]);
    }
    cmd.args(["--pace", "0", "--budget", budget, "--quiet", "-P"])
        .arg(adb.port.to_string())
        .args(["-s", &sim.serial(), "--calibration-dir"])
        .arg(calibration)
        .arg("--data-dir")
        .arg(data.path());
    let start = std::time::Instant::now();
    let out = crate::common::run_with_timeout(cmd, b"", Duration::from_secs(900));
    let wall = start.elapsed();
    let text = out.text();
    assert_eq!(out.code(), 0, "{text}\n{}", out.stderr);
    (text, wall)
}

/// The channel, the rate and the taps of a run's summary ("... 256 taps at 243 taps/s via
/// raw, ...").
fn summary_figures(text: &str) -> (String, f64, String) {
    let via = text
        .split(" taps/s via ")
        .nth(1)
        .and_then(|s| s.split([',', ' ', ')']).next())
        .unwrap_or("?")
        .to_string();
    let rate: f64 = text
        .split(" taps/s via ")
        .next()
        .and_then(|s| s.rsplit(" at ").next())
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("no rate in {text}"));
    let taps = text
        .split(" taps at ")
        .next()
        .and_then(|s| s.rsplit("; ").next())
        .unwrap_or("?")
        .to_string();
    (via, rate, taps)
}

/// `raw` with and without holding each tap down 5 ms (two writes per tap), on the phone-timed
/// Pixel through a private adb server: what a hold costs. The simulated app, like Android's
/// views, takes a tap whose down and up arrive together, so the player does not hold. Run:
/// `cargo test --release --test it -- --ignored device_adb::bench_hold --nocapture`
#[test]
#[ignore = "benchmark"]
fn bench_hold() {
    use autoplay_sim::timing::TimingMode;
    for hold in [0, 5] {
        let (sim, _adb, server) = phone("pixel", |c| {
            c.timing = TimingMode::Phone;
            c.adb_root = true;
        });
        let device = select(&server, None).unwrap();
        let chosen = tap::choose(&device, Some(ChannelKind::Raw)).unwrap();
        let opts = TapperOptions {
            hold: Duration::from_millis(hold),
            ..TapperOptions::default()
        };
        let mut t = Tapper::open(&device, chosen, (1080, 2400), opts).unwrap();
        let n = 1000;
        let start = std::time::Instant::now();
        for i in 0..n {
            t.tap(100 + i % 9, 2300).unwrap();
        }
        t.flush().unwrap();
        let took = start.elapsed();
        assert_eq!(taps(&sim), u64::from(n), "every held tap is one tap");
        println!(
            "raw, hold {hold} ms: {n} taps in {:.2} s = {:.0} taps/s",
            took.as_secs_f64(),
            f64::from(n) / took.as_secs_f64()
        );
    }
}

/// Android 10 and later (pixel: 14, tablet: 13) refuse the shell's writes to the panel, so the
/// automatic choice is the injector: pushed over the sync protocol, started once, and every
/// tap acknowledged and carried out once.
#[test]
fn the_injector_carries_taps_on_two_profiles() {
    // The tablet lists a decoy multitouch node first: its panel is the second node.
    for (name, size, release, panel) in [
        ("pixel", (1080, 2400), "14", "/dev/input/event2"),
        ("tablet", (1600, 2560), "13", "/dev/input/event3"),
    ] {
        let (sim, _adb, server) = phone(name, |_| {});
        assert_eq!(sim.file(tap::INJECTOR_PATH), None);
        let device = select(&server, None).unwrap();
        let chosen = tap::choose(&device, None).unwrap();
        assert_eq!(chosen.kind, ChannelKind::Inject, "{name}: {}", chosen.why);
        assert!(
            chosen.why.starts_with("inject: one app_process injector")
                && chosen.why.contains(&format!(
                    "(raw is not possible on Android {release}: the shell user may not write {panel} (dd: {panel}: Permission denied))"
                )),
            "{}",
            chosen.why
        );
        assert_eq!(
            sim.file(tap::INJECTOR_PATH).as_deref(),
            Some(tap::INJECTOR_DEX),
            "{name}: the player pushed the committed dex"
        );
        every_tap_arrives_once(&sim, &device, chosen, size, name);
    }
}

/// An injector already on the phone that is not this one (an older build, or anything else at
/// that path) does not start as ours: the player replaces it, then uses it.
#[test]
fn a_stale_injector_on_the_phone_is_replaced() {
    let (sim, _adb, server) = phone("pixel", |_| {});
    let stale = b"dex\n035\0an older autoplay-inject".to_vec();
    sim.put_file(tap::INJECTOR_PATH, stale.clone()).unwrap();
    let device = select(&server, None).unwrap();
    let chosen = tap::choose(&device, Some(ChannelKind::Inject)).unwrap();
    assert_eq!(chosen.kind, ChannelKind::Inject, "{}", chosen.why);
    assert_eq!(
        sim.file(tap::INJECTOR_PATH).as_deref(),
        Some(tap::INJECTOR_DEX)
    );
    // Replaced again if it goes stale between the choice and the channel's opening.
    sim.put_file(tap::INJECTOR_PATH, stale).unwrap();
    let mut t = Tapper::open(&device, chosen, (1080, 2400), TapperOptions::default()).unwrap();
    for _ in 0..20 {
        t.tap(540, 2300).unwrap();
    }
    t.flush().unwrap();
    assert_eq!(taps(&sim), 20);
    assert_eq!(
        sim.file(tap::INJECTOR_PATH).as_deref(),
        Some(tap::INJECTOR_DEX)
    );
}

/// A link that drops while the injector's stream is carrying taps: the Tapper's call fails,
/// the link reopens the channel (a new injector) and says `Restored`; every tap sent after
/// that arrives once (nothing is resent blindly).
#[test]
fn a_dropped_link_mid_stream_restores_the_injector() {
    let (sim, _adb, server) = phone("pixel", |c| c.disconnect_after = Some(40));
    let device = select(&server, None).unwrap();
    let mut link = Link::new(device, Duration::from_secs(15), StopFlag::default());
    let chosen = link
        .open_channel(None, (1080, 2400), Duration::ZERO)
        .unwrap();
    assert_eq!(chosen.kind, ChannelKind::Inject, "{}", chosen.why);
    let (landed, sent) = taps_through_a_drop(&sim, &mut link, 400);
    assert!(link.reconnects >= 1, "the link dropped and was reopened");
    assert!(sent > 0);
    assert_eq!(landed, sent, "no tap after the restore is lost or repeated");
}

/// A Xiaomi phone before "USB debugging (Security settings)": the injector starts but its check
/// is refused, and `input tap` fails the same way; the choice ends in the typed refusal (the
/// binary words the setting and the reboot: see the next test).
#[test]
fn the_xiaomi_denial_is_found_before_any_tap() {
    let (sim, _adb, server) = phone("pixel", |c| c.inject_denied = true);
    let device = select(&server, None).unwrap();
    match tap::choose(&device, None).unwrap_err() {
        DeviceError::Refused(sudoku_autoplay::device::Refusal::Denied { said }) => assert!(
            said.starts_with(
                "java.lang.SecurityException: Injecting input events requires the caller"
            ),
            "{said}"
        ),
        e => panic!("{e:?}"),
    }
    assert_eq!(taps(&sim), 0, "nothing was tapped");
    let out = device.shell("input tap 1 1", CALL_TIMEOUT).unwrap();
    assert_ne!(out.code, 0);
}

/// Before Android 13 a refusing phone acknowledges asynchronous taps and drops them; the
/// injector's check key, waited for, is refused on those versions too (here Android 9).
#[test]
fn the_check_finds_a_refusal_before_android_13() {
    let (sim, _adb, server) = phone("budget", |c| c.inject_denied = true);
    let device = select(&server, None).unwrap();
    match tap::choose(&device, Some(ChannelKind::Inject)).unwrap_err() {
        DeviceError::Refused(sudoku_autoplay::device::Refusal::Denied { said }) => assert_eq!(
            said,
            "java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission"
        ),
        e => panic!("{e:?}"),
    }
    assert_eq!(taps(&sim), 0, "nothing was tapped");
}

/// Before Android 13 a key dropped because the screen is off reports success, so the check
/// cannot pass then: the player wakes the screen once and checks again.
#[test]
fn the_check_wakes_a_dark_screen_before_android_13() {
    let (sim, _adb, server) = phone("budget", |c| {
        c.app.hazards.screen_off_after = Some(Duration::from_secs(2));
    });
    let device = select(&server, None).unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    let chosen = tap::choose(&device, Some(ChannelKind::Inject)).unwrap();
    assert_eq!(chosen.kind, ChannelKind::Inject, "{}", chosen.why);
    // The display went off (the first check saw it so), and the player's wake turned it on.
    let state = sim.dumpsys();
    assert_eq!(state["screen_offs"].as_u64(), Some(1), "{state}");
    assert_eq!(state["display"].as_str(), Some("on"), "{state}");
}

/// The refusal as the user sees it, on a phone that refuses injected input (Xiaomi without
/// "USB debugging (Security settings)"): `autoplay --level 5` stops before its first tap, with
/// exit status 1 and a message that names the setting and the reboot, whether the channel is
/// picked or `input` is asked for; `autoplay doctor` says `inject` and `input` are refused, and
/// why. On Android 12 (`midrange`) the refusal is silent for asynchronous taps (dropped at
/// dispatch), on 13+ (`pixel`) it throws at once: the same stop on both.
#[test]
fn a_refusing_phone_stops_before_tapping_and_names_the_setting() {
    let calibration = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("calibration");
    for profile in ["midrange", "pixel"] {
        let (sim, adb, server) = phone(profile, |c| c.inject_denied = true);
        for input in [None, Some("input")] {
            let data = tempfile::tempdir().unwrap();
            let mut cmd = crate::common::autoplay_command();
            cmd.args(["--level", "5", "--pace", "0", "--quiet", "-P"])
                .arg(adb.port.to_string())
                .args(["-s", &sim.serial(), "--calibration-dir"])
                .arg(&calibration)
                .arg("--data-dir")
                .arg(data.path());
            if let Some(channel) = input {
                cmd.args(["--input", channel]);
            }
            // The bound of the "stops within 30 s", as a hang's timeout.
            let out = crate::common::run_with_timeout(cmd, b"", Duration::from_secs(30));
            let what = format!("{profile}, --input {input:?}");
            assert_eq!(out.code(), 1, "{what}: {}\n{}", out.text(), out.stderr);
            assert!(
                out.stderr.contains(
                    "turn on \"USB debugging (Security settings)\" in Developer options, reboot the phone"
                ),
                "{what}: {}",
                out.stderr
            );
            assert!(
                !out.stderr.contains("failed 3 times"),
                "{what}: not retried: {}",
                out.stderr
            );
        }
        assert_eq!(taps(&sim), 0, "{profile}: nothing was tapped");
        // Before 13 every event dropped at dispatch leaves a line: the check keys only.
        let device = select(&server, None).unwrap();
        let log = device.shell("logcat -d", CALL_TIMEOUT).unwrap().stdout;
        let dropped = log.matches("Permission denied: injecting event").count();
        assert!(dropped <= 10, "{profile}: {dropped} events dropped:\n{log}");
        doctor_says_refused(&sim.serial(), adb.port, profile);
    }
}

/// `autoplay doctor` on the phone `serial` (through the adb server on `port`) says `inject`
/// and `input` are refused, and why.
fn doctor_says_refused(serial: &str, port: u16, profile: &str) {
    let mut cmd = crate::common::autoplay_command();
    cmd.args(["doctor", "--json", "-s", serial, "-P"])
        .arg(port.to_string());
    let out = crate::common::run_with_timeout(cmd, b"", Duration::from_secs(60));
    let report: serde_json::Value = serde_json::from_str(&out.text())
        .unwrap_or_else(|e| panic!("{profile}: {e}: {}\n{}", out.text(), out.stderr));
    for channel in ["inject", "input"] {
        let check = report["channels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["channel"] == channel)
            .unwrap();
        assert_eq!(
            check["possible"].as_bool(),
            Some(false),
            "{profile}: {check}"
        );
        assert!(
            check["refused"].is_object()
                && check["why"]
                    .as_str()
                    .unwrap()
                    .contains("INJECT_EVENTS permission"),
            "{profile}: {check}"
        );
    }
}

/// The same Android 12 phone without the refusal: `autoplay --level 20 --pace 0` picks the
/// calibration that names the model among those of its screen size (the `pixel`'s and the
/// `emulator`'s read other digit templates), taps through `inject`, shows every step and solves.
#[test]
fn an_android_12_phone_is_solved_through_inject() {
    let calibration = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("calibration");
    let (sim, adb, _server) = phone("midrange", |_| {});
    let data = tempfile::tempdir().unwrap();
    let mut cmd = crate::common::autoplay_command();
    cmd.args(["--level", "20", "--pace", "0", "-P"])
        .arg(adb.port.to_string())
        .args(["-s", &sim.serial(), "--calibration-dir"])
        .arg(&calibration)
        .arg("--data-dir")
        .arg(data.path());
    let out = crate::common::run_with_timeout(cmd, b"", Duration::from_secs(300));
    let text = format!("{}\n{}", out.text(), out.stderr);
    assert_eq!(out.code(), 0, "{text}");
    assert!(text.contains("tap channel: inject:"), "{text}");
    assert!(text.contains("every step is shown"), "{text}");
    assert!(text.contains("sim-midrange.toml picked"), "{text}");
    let state = sim.dumpsys();
    assert!(
        state["completed"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_u64() == Some(20)),
        "{state}"
    );
}

/// The `input` channel reads what `input tap` prints: on a refusing phone the exception ends the
/// channel with the typed refusal (not a lost link to recover from, nor taps counted as done),
/// even when no check ran before it.
#[test]
fn the_input_channel_reads_its_refusal() {
    let (_sim, _adb, server) = phone("entry", |c| c.inject_denied = true);
    let device = select(&server, None).unwrap();
    let mut t = Tapper::open(
        &device,
        Channel::input("as a test"),
        (720, 1520),
        TapperOptions::default(),
    )
    .unwrap();
    let e = (0..3)
        .map(|_| t.tap(360, 760))
        .find_map(Result::err)
        .or_else(|| t.flush().err())
        .expect("the refusal");
    assert!(
        matches!(&e, DeviceError::Refused(sudoku_autoplay::device::Refusal::Denied { said }) if said.contains("INJECT_EVENTS permission")),
        "{e:?}"
    );
}

/// The simulated phone's `sync:` service as the real adb client drives it (`adb push`): the
/// file persists where the shell user may write, and is refused elsewhere.
#[test]
fn adb_push_writes_into_data_local_tmp() {
    let (sim, adb, _server) = phone("pixel", |_| {});
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("blob.bin");
    let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(&file, &bytes).unwrap();
    let out = adb.on(
        &sim.serial(),
        &["push", file.to_str().unwrap(), "/data/local/tmp/blob.bin"],
    );
    assert_eq!(out.code(), 0, "{} {}", out.text(), out.stderr);
    assert_eq!(sim.file("/data/local/tmp/blob.bin"), Some(bytes));
    let out = adb.on(
        &sim.serial(),
        &["push", file.to_str().unwrap(), "/system/blob.bin"],
    );
    // adb 29 prints the device's refusal (on stdout) as
    // `adb: error: failed to copy '...' to '/system/blob.bin': remote couldn't create file: Permission denied`.
    let said = format!("{}{}", out.text(), out.stderr);
    assert!(
        said.contains("remote couldn't create file: Permission denied"),
        "{said}"
    );
    assert_eq!(sim.file("/system/blob.bin"), None);
}
