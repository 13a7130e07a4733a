//! The direct route (our own host side of the ADB transport, no adb server) against the
//! simulated phone. Fake devices that misbehave are tested beside the code
//! (`crates/player/src/device/direct.rs`).

use autoplay_sim::{AuthConfig, SimConfig, SimHandle, adb::auth::NewKeys, profile};
use std::time::Duration;
use sudoku_autoplay::device::direct::Direct;
use sudoku_autoplay::device::tap::Channel;
use sudoku_autoplay::device::tap::{Tapper, TapperOptions};
use sudoku_autoplay::device::{CALL_TIMEOUT, Device};

fn phone(config: impl FnOnce(&mut SimConfig)) -> (SimHandle, Device) {
    let mut c = SimConfig::new(profile::profile("pixel").expect("pixel profile").clone());
    config(&mut c);
    let sim = autoplay_sim::spawn(c).expect("sim starts");
    let addr = sim.serial().parse().expect("serial is host:port");
    let direct = Direct::connect(addr).expect("handshake");
    (sim, Device::direct(direct))
}

#[test]
fn shell_exec_and_the_tap_channel_over_the_direct_route() {
    let (sim, d) = phone(|_| {});
    let out = d.shell("echo hi", CALL_TIMEOUT).unwrap();
    assert_eq!((out.stdout.as_str(), out.code), ("hi\n", 0));
    let png = d.exec("screencap -p", CALL_TIMEOUT).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG of {} bytes", png.len());
    // The tap channel is one interactive shell, acknowledged line by line.
    let size = d.screen_size().unwrap();
    let mut tapper =
        Tapper::open(&d, Channel::input("test"), size, TapperOptions::default()).unwrap();
    tapper.tap(10, 10).unwrap();
    tapper.flush().unwrap();
    assert_eq!(tapper.taps_done(), 1);
    assert_eq!(sim.dumpsys()["taps"], 1);
}

#[test]
fn reconnects_after_the_connection_drops() {
    // The phone drops the TCP connection in the second call (each is two commands: `CMD; echo
    // rc=$?`).
    let (sim, d) = phone(|c| c.disconnect_after = Some(3));
    d.shell("true", CALL_TIMEOUT).unwrap();
    // The reader thread notices; the next stream opens a new connection.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let mut out = d.shell("echo again", CALL_TIMEOUT);
    while out.is_err() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
        out = d.shell("echo again", CALL_TIMEOUT);
    }
    assert_eq!(out.unwrap().stdout, "again\n");
    assert_eq!(sim.connections(), 2);
}

#[test]
fn a_device_that_wants_auth_is_sent_to_the_adb_server() {
    let mut config = SimConfig::new(profile::profile("pixel").unwrap().clone());
    config.auth = Some(AuthConfig {
        keys_file: None,
        new_keys: NewKeys::Accept,
    });
    let sim = autoplay_sim::spawn(config).unwrap();
    let e = Direct::connect(sim.serial().parse().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("asks for authentication") && e.contains("install adb"),
        "{e}"
    );
}

/// The phone names its system bars where it draws them, in its release's form (`mFrame=` up to
/// Android 11, a `Frames:` line's `frame=` from Android 12), beside the screen in landscape:
/// what calibration leaves out when it looks for the app's keys.
#[test]
fn the_system_bars_where_the_phone_draws_them() {
    use autoplay_sim::app::{AppOptions, Phone};
    use sudoku_autoplay::device::android::app_area;
    // Android 6, 14 and 12; the last two also held in landscape.
    for (name, rotation) in [("small", 0), ("pixel", 0), ("pixel", 1), ("midrange", 3)] {
        let mut p = profile::profile(name).unwrap().clone();
        p.rotation = rotation;
        let layout = Phone::new(p.clone(), AppOptions::default())
            .layout()
            .clone();
        let sim = autoplay_sim::spawn(SimConfig::new(p)).expect("sim starts");
        let d = Device::direct(Direct::connect(sim.serial().parse().unwrap()).expect("handshake"));
        let frame = |r: autoplay_sim::app::geometry::Rect| {
            [r.x, r.y, r.right(), r.bottom()].map(|v| v as u32)
        };
        let bars = d.system_bars().unwrap();
        let what = format!("{name} turned {rotation}");
        assert_eq!(
            bars,
            vec![frame(layout.nav_bar), frame(layout.status_bar)],
            "{what}"
        );
        let (w, h) = d.screen_size().unwrap();
        let nav = layout.nav_bar;
        let (wi, hi) = (w as i32, h as i32);
        // At a side in landscape: on the right at 90 degrees, on the left at 270 (AOSP
        // DisplayPolicy.navigationBarPosition).
        let [left, right, bottom] = match rotation {
            1 => [0, nav.x, hi],
            3 => [nav.right(), wi, hi],
            _ => [0, wi, nav.y],
        };
        assert_eq!(nav.x == 0 && nav.y == 0, rotation == 3, "{what}: {nav:?}");
        let want = [left, layout.status_bar.bottom(), right, bottom].map(|v| v as u32);
        assert_eq!(app_area(&bars, (w, h)), Some(want), "{what}");
    }
}
