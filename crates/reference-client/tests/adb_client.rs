//! The simulated phone driven by the `adb_client` crate (3.x) through a private real adb
//! server (what another ADB implementation than ours sends must work too), and the player's
//! reading of the server's device lists against that crate's.
//!
//! `cargo test -p autoplay-reference-client`; the bench:
//! `cargo test --release -p autoplay-reference-client -- --ignored --nocapture`.

use adb_client::ADBDeviceExt;
use adb_client::server_device::ADBServerDevice;
use autoplay_sim::{SimConfig, SimHandle, profile, spawn};
use std::net::{SocketAddrV4, TcpListener};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A simulated phone and a private adb server (its own port and HOME) connected to it; the
/// server is killed on drop.
struct Rig {
    _sim: SimHandle,
    port: u16,
    home: tempfile::TempDir,
    serial: String,
}

impl Rig {
    fn new(profile_name: &str) -> Rig {
        let config = SimConfig::new(profile::profile(profile_name).expect("profile").clone());
        let sim = spawn(config).expect("start the simulated phone");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let rig = Rig {
            serial: sim.serial(),
            _sim: sim,
            port,
            home: tempfile::tempdir().expect("tempdir"),
        };
        let started = rig.adb(&["start-server"]);
        assert!(started.status.success(), "adb start-server: {started:?}");
        let connected = rig.adb(&["connect", &rig.serial]);
        assert!(connected.status.success(), "adb connect: {connected:?}");
        let deadline = Instant::now() + Duration::from_secs(15);
        while rig.state().as_deref() != Some("device") {
            assert!(
                Instant::now() < deadline,
                "{} did not come online",
                rig.serial
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        rig
    }

    fn adb(&self, args: &[&str]) -> Output {
        Command::new(std::env::var_os("ADB").unwrap_or_else(|| "adb".into()))
            .arg("-P")
            .arg(self.port.to_string())
            .args(args)
            .env("HOME", self.home.path())
            .output()
            .expect("the `adb` binary (apt-get install adb, or set ADB=/path/to/adb)")
    }

    fn state(&self) -> Option<String> {
        let out = self.adb(&["-s", &self.serial, "get-state"]);
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    fn device(&self) -> ADBServerDevice {
        let addr = SocketAddrV4::new([127, 0, 0, 1].into(), self.port);
        ADBServerDevice::new(self.serial.clone(), Some(addr))
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        let _ = self.adb(&["kill-server"]);
    }
}

fn taps(dev: &mut ADBServerDevice) -> u64 {
    let mut out = Vec::new();
    dev.shell_command(&"dumpsys sudoku", Some(&mut out), None)
        .unwrap();
    let state: serde_json::Value = serde_json::from_slice(&out).expect("dumpsys sudoku is JSON");
    state["taps"].as_u64().expect("dumpsys has a taps count")
}

#[test]
fn adb_client_crate_drives_the_phone() {
    let rig = Rig::new("budget");
    let mut dev = rig.device();
    // adb_client 3.2 reads the shell v2 exit packet but then returns Ok(None) at the end of
    // the stream, so exit codes are checked through `$?` here (and through the adb CLI in the
    // workspace's own tests); stdout and stderr arrive on their own channels.
    let mut out = Vec::new();
    let mut err = Vec::new();
    dev.shell_command(&"echo hi; nope; echo rc=$?", Some(&mut out), Some(&mut err))
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out), "hi\nrc=127\n");
    assert_eq!(
        String::from_utf8_lossy(&err),
        "/system/bin/sh: nope: inaccessible or not found\n"
    );
    let mut png = Vec::new();
    dev.shell_command(&"screencap -p", Some(&mut png), None)
        .unwrap();
    let img = image::load_from_memory(&png).expect("PNG through shell v2");
    assert_eq!((img.width(), img.height()), (720, 1520));
    let before = taps(&mut dev);
    // Interactive shell (shell,raw: without v2): 200 pipelined taps. `shell` returns once stdin
    // is sent; the session stays open while `dev` lives, and the taps are checked through a
    // second connection.
    let script: String = (0..200)
        .map(|i| format!("input tap {} 700\n", 50 + i))
        .collect();
    dev.shell(&mut script.as_bytes(), Box::new(std::io::sink()))
        .unwrap();
    let mut probe = rig.device();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let now = taps(&mut probe);
        if now == before + 200 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "taps: {now}, expected {}",
            before + 200
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Taps per second with one `adb_client` `shell_command` (a connection and a shell) per tap,
/// beside the workspace's own `device_adb::bench_taps`.
#[test]
#[ignore = "a benchmark: run with --release -- --ignored --nocapture"]
fn bench_taps_one_command_each() {
    let rig = Rig::new("pixel");
    let n = 200u64;
    let before = taps(&mut rig.device());
    let t = Instant::now();
    for i in 0..n {
        rig.device()
            .shell_command(&format!("input tap {} 600", 100 + i), None, None)
            .unwrap();
    }
    let elapsed = t.elapsed();
    assert_eq!(taps(&mut rig.device()), before + n);
    println!(
        "bench_taps: adb_client shell_command per tap: {n} taps in {elapsed:.2?} = {:.0} taps/s",
        n as f64 / elapsed.as_secs_f64()
    );
}

/// The player reads the adb server's device lists itself; `adb_client` is the reference: they
/// agree on every line it takes, the real server's own answer included.
#[test]
fn device_lists_read_as_adb_client_reads_them() {
    use adb_client::server::DeviceLong;
    let rig = Rig::new("pixel");
    let live = String::from_utf8_lossy(&rig.adb(&["devices", "-l"]).stdout).into_owned();
    let lines = [
        "127.0.0.1:5555         device product:panther model:Pixel_7 device:panther transport_id:3",
        "emulator-5554 offline transport_id:1",
        "R58M unauthorized usb:1-1 transport_id:2",
        "0123ABCD  device usb:1-1.2 product:a52sxq model:SM_A528B device:a52sxq transport_id:7",
    ];
    let live_lines: Vec<&str> = live.lines().filter(|l| l.contains(&rig.serial)).collect();
    assert_eq!(live_lines.len(), 1, "{live}");
    for line in lines.iter().chain(&live_lines) {
        let ours = &sudoku_autoplay::device::parse_devices(line)[0];
        let theirs = DeviceLong::try_from(line.trim().as_bytes()).expect("adb_client takes it");
        assert_eq!(ours.serial, theirs.identifier, "{line}");
        assert_eq!(ours.state, theirs.state.to_string(), "{line}");
        let known = |v: String| if v == "Unk" { String::new() } else { v };
        assert_eq!(ours.model, known(theirs.model), "{line}");
        assert_eq!(ours.transport_id, Some(theirs.transport_id), "{line}");
    }
}
