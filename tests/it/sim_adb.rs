//! The simulated phone against the real `adb` binary (a private adb server per test) and the
//! `adb_client` crate, plus raw-protocol checks without adb.

use crate::common::{AdbServer, TIMEOUT, run_with_timeout};
use autoplay_sim::adb::auth::NewKeys;
use autoplay_sim::app::{ACTIVITY, PACKAGE};
use autoplay_sim::{AuthConfig, SimConfig, SimHandle, profile, spawn};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::{Duration, Instant};
use sudoku_autoplay::adb_packet::{self as packet, Command as Cmd, Packet};

fn config(name: &str) -> SimConfig {
    SimConfig::new(profile::profile(name).expect("profile").clone())
}

/// A phone and a private adb server connected to it.
struct Rig {
    sim: SimHandle,
    adb: AdbServer,
    serial: String,
}

impl Rig {
    fn new(config: SimConfig) -> Rig {
        let sim = spawn(config).expect("start sim");
        let adb = AdbServer::start();
        let serial = sim.serial();
        adb.connect(&serial);
        Rig { sim, adb, serial }
    }

    fn shell(&self, cmd: &str) -> crate::common::Out {
        self.adb.on(&self.serial, &["shell", cmd])
    }

    fn dumpsys(&self) -> serde_json::Value {
        let out = self.shell("dumpsys sudoku");
        assert_eq!(out.code(), 0, "dumpsys failed: {}", out.stderr);
        serde_json::from_slice(&out.stdout).expect("dumpsys sudoku is JSON")
    }

    fn screencap(&self) -> image::RgbaImage {
        let out = self.adb.on(&self.serial, &["exec-out", "screencap", "-p"]);
        assert_eq!(out.code(), 0, "{}", out.stderr);
        image::load_from_memory(&out.stdout)
            .expect("screencap -p is a PNG")
            .to_rgba8()
    }
}

fn taps(state: &serde_json::Value) -> u64 {
    state["taps"].as_u64().expect("dumpsys has a taps count")
}

#[test]
fn connect_devices_shell_and_exit_codes() {
    let rig = Rig::new(config("pixel"));
    let devices = rig.adb.adb(&["devices", "-l"]).text();
    let line = devices
        .lines()
        .find(|l| l.starts_with(&rig.serial))
        .expect("device listed");
    assert!(line.contains("model:Pixel_7"), "{line}");
    assert!(line.contains("product:panther"), "{line}");
    assert!(line.split_whitespace().nth(1) == Some("device"), "{line}");

    let out = rig.shell("echo hi");
    assert_eq!((out.text().as_str(), out.code()), ("hi\n", 0));
    assert_eq!(rig.shell("exit 3").code(), 3);
    let out = rig.shell("frobnicate");
    assert_eq!(out.code(), 127);
    assert!(
        out.stderr
            .contains("/system/bin/sh: frobnicate: inaccessible or not found"),
        "{}",
        out.stderr
    );
    let out = rig.shell("input tap 10 10; echo rc=$?");
    assert_eq!(out.text(), "rc=0\n");
    let out = rig.shell("echo 'a;b' && echo \"$?\"");
    assert_eq!(out.text(), "a;b\n0\n");
    assert_eq!(rig.shell("wm size").text(), "Physical size: 1080x2400\n");
    assert_eq!(rig.shell("getprop ro.product.model").text(), "Pixel_7\n");
    // The pixel (Android 14) lets the shell read its touch panel but not write it; a path that
    // is not a device node fails differently.
    let out = rig.shell("sendevent /dev/input/event2 0 0 0");
    assert_eq!(out.code(), 1);
    assert_eq!(
        out.stderr,
        "sendevent: /dev/input/event2: Permission denied\n"
    );
    let out = rig.shell("sendevent /dev/input/event9 0 0 0");
    assert_eq!(out.code(), 1);
    assert!(out.stderr.contains("No such file"), "{}", out.stderr);
    // exec: gives raw output without the shell protocol.
    let out = rig.adb.on(&rig.serial, &["exec-out", "getevent -lp"]);
    assert!(out.text().contains("ABS_MT_POSITION_X"), "{}", out.text());
}

#[test]
fn screencap_png_raw_and_framebuffer() {
    let rig = Rig::new(config("budget"));
    let png = rig.screencap();
    assert_eq!(png.dimensions(), (720, 1520));

    let raw = rig.adb.on(&rig.serial, &["exec-out", "screencap"]).stdout;
    let word = |b: &[u8], i: usize| u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap());
    assert_eq!(
        (word(&raw, 0), word(&raw, 1), word(&raw, 2)),
        (720, 1520, 1)
    );
    assert_eq!(raw.len(), 16 + 720 * 1520 * 4);
    assert_eq!(
        &raw[16..],
        png.as_raw().as_slice(),
        "raw and PNG show the same frame"
    );

    // framebuffer: through the adb server's host protocol.
    let mut s = rig.adb.open_service(&rig.serial, "framebuffer:");
    let mut head = [0u8; 56];
    s.read_exact(&mut head).unwrap();
    assert_eq!(word(&head, 0), 2, "framebuffer version 2");
    assert_eq!(
        (word(&head, 1), word(&head, 4), word(&head, 5)),
        (32, 720, 1520)
    );
    let mut pixels = Vec::new();
    s.read_to_end(&mut pixels).unwrap();
    assert_eq!(pixels.len() as u32, word(&head, 3));
    assert_eq!(pixels.as_slice(), png.as_raw().as_slice());
}

#[test]
fn tap_on_a_cell_changes_frame_and_state() {
    let rig = Rig::new(config("budget"));
    let out = rig.shell(&format!("am start -n {PACKAGE}/{ACTIVITY} --ei level 1"));
    assert_eq!(
        out.code(),
        0,
        "am start failed: {} {}",
        out.text(),
        out.stderr
    );
    let before = rig.dumpsys();
    assert_eq!(before["board"].as_str().map(str::len), Some(81), "{before}");
    let frame = rig.screencap();
    // The board's layout is the app's business: walk down the middle column until a tap
    // selects a cell.
    let (w, h) = (720, 1520);
    let mut selected = None;
    for k in 2..18 {
        let y = h * k / 20;
        rig.shell(&format!("input tap {} {y}", w / 2));
        let state = rig.dumpsys();
        if !state["selected"].is_null() {
            selected = Some(state);
            break;
        }
    }
    let state = selected.expect("no tap on the middle column selected a cell");
    assert!(taps(&state) > taps(&before));
    assert_ne!(
        rig.screencap(),
        frame,
        "selecting a cell must change the frame"
    );
}

#[test]
fn thousand_taps_pipelined_through_one_shell() {
    let rig = Rig::new(config("pixel"));
    let before = taps(&rig.dumpsys());
    let mut script = String::new();
    for i in 0..1000 {
        script.push_str(&format!("input tap {} {}\n", 100 + i % 800, 300 + i % 1500));
    }
    script.push_str("dumpsys sudoku\necho rc=$?\n");
    let out = rig
        .adb
        .adb_stdin(&["-s", &rig.serial, "shell"], script.as_bytes());
    assert_eq!(out.code(), 0, "{}", out.stderr);
    let text = out.text();
    let mut lines = text.lines();
    let state: serde_json::Value =
        serde_json::from_str(lines.next().expect("dumpsys line")).unwrap();
    assert_eq!(taps(&state), before + 1000);
    assert_eq!(lines.next(), Some("rc=0"));
    // `exit N` ends an interactive session with that code.
    let out = rig.adb.adb_stdin(
        &["-s", &rig.serial, "shell"],
        b"echo a\nexit 5\necho never\n",
    );
    assert_eq!((out.text().as_str(), out.code()), ("a\n", 5));
}

fn auth_config(file: &std::path::Path, new_keys: NewKeys) -> SimConfig {
    let mut c = config("pixel");
    c.auth = Some(AuthConfig {
        keys_file: Some(file.to_path_buf()),
        new_keys,
    });
    c
}

#[test]
fn auth_accepts_a_new_key_the_first_time_and_stores_it() {
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("adb_keys");
    let rig = Rig::new(auth_config(&keys, NewKeys::Accept));
    assert_eq!(rig.shell("echo ok").text(), "ok\n");
    let stored = std::fs::read_to_string(&keys).expect("accepted key stored");
    let server_key = rig.adb.public_key();
    let b64 = |s: &str| s.split_whitespace().next().unwrap_or("").to_string();
    assert_eq!(b64(&stored), b64(&server_key));
}

#[test]
fn auth_with_adb_keys_file_and_denial() {
    let dir = tempfile::tempdir().unwrap();
    let adb = AdbServer::start();
    // Unknown key, user denies: unauthorized.
    let denied = spawn(auth_config(&dir.path().join("empty"), NewKeys::Deny)).unwrap();
    let _ = adb.adb(&["connect", &denied.serial()]);
    adb.wait_state(&denied.serial(), "unauthorized", Duration::from_secs(15));
    let out = adb.on(&denied.serial(), &["shell", "echo no"]);
    assert_ne!(out.code(), 0);
    // The server's key in adb_keys: authorized by signature alone.
    let keys = dir.path().join("adb_keys");
    std::fs::write(&keys, adb.public_key()).unwrap();
    let sim = spawn(auth_config(&keys, NewKeys::Deny)).unwrap();
    adb.connect(&sim.serial());
    assert_eq!(
        adb.on(&sim.serial(), &["shell", "echo yes"]).text(),
        "yes\n"
    );
}

#[test]
fn dropped_connection_goes_offline_and_reconnects() {
    let mut c = config("pixel");
    c.disconnect_after = Some(3);
    let rig = Rig::new(c);
    for i in 0..3 {
        rig.shell(&format!("echo {i}"));
    }
    assert_eq!(rig.sim.commands_run(), 3);
    assert_eq!(rig.sim.connections(), 1);
    // The phone dropped the connection after the third command: the adb server sees the
    // device go away and reconnects by itself (a second TCP connection), and it is usable.
    let deadline = Instant::now() + Duration::from_secs(30);
    while rig.sim.connections() < 2 {
        assert!(
            Instant::now() < deadline,
            "the adb server did not reconnect"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    rig.adb
        .wait_state(&rig.serial, "device", Duration::from_secs(30));
    assert_eq!(rig.shell("echo back").text(), "back\n");
}

#[test]
fn the_autoplay_binary_serves_adb() {
    // A non-loopback address is refused without --listen-any.
    let out = run_with_timeout(
        {
            let mut c = crate::common::autoplay_command();
            c.args(["sim", "--listen", "0.0.0.0:0"]);
            c
        },
        b"",
        TIMEOUT,
    );
    assert_eq!(out.code(), 1);
    assert!(out.stderr.contains("--listen-any"), "{}", out.stderr);

    let mut child = crate::common::autoplay_command()
        .args(["sim", "--listen", "127.0.0.1:0", "--profile", "tablet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start autoplay sim");
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let stdout = child.stdout.take().unwrap();
    let mut child = Kill(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(addr) = line.strip_prefix("sim: connect with: adb connect ") {
                let _ = tx.send(addr.trim().to_string());
            }
        }
    });
    let serial = rx
        .recv_timeout(TIMEOUT)
        .expect("sim printed how to connect");
    let adb = AdbServer::start();
    adb.connect(&serial);
    assert_eq!(
        adb.on(&serial, &["shell", "getprop ro.product.model"])
            .text(),
        "Tab_S10\n"
    );
    assert_eq!(
        adb.on(&serial, &["shell", "wm density"]).text(),
        "Physical density: 320\n"
    );
    drop(adb);
    let _ = child.0.kill();
}

/// Raw protocol: a host written with the crate's own codec, no adb involved.
struct RawHost(TcpStream);

impl RawHost {
    /// Whether nothing arrives for 30 ms.
    fn quiet(&mut self) -> bool {
        self.0
            .set_read_timeout(Some(Duration::from_millis(30)))
            .unwrap();
        let early = self.0.peek(&mut [0u8; 1]);
        self.0
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        early.is_err()
    }

    fn connect(sim: &SimHandle) -> RawHost {
        let s = TcpStream::connect(sim.addr()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        RawHost(s)
    }
    fn send(&mut self, p: &Packet) {
        self.0.write_all(&p.encode()).unwrap();
    }
    fn recv(&mut self) -> Packet {
        let mut head = [0u8; packet::HEADER_LEN];
        self.0.read_exact(&mut head).unwrap();
        let h = packet::Header::decode(&head, packet::MAX_PAYLOAD).unwrap();
        let mut payload = vec![0u8; h.length as usize];
        self.0.read_exact(&mut payload).unwrap();
        Packet::new(h.command, h.arg0, h.arg1, payload)
    }
    fn handshake(&mut self, max: u32) -> Packet {
        self.send(&Packet::new(
            Cmd::Cnxn,
            0x0100_0001,
            max,
            b"host::features=shell_v2\0".to_vec(),
        ));
        self.recv()
    }
}

#[test]
fn raw_protocol_handshake_streams_and_flow_control() {
    let sim = spawn(config("budget")).unwrap();
    let mut host = RawHost::connect(&sim);
    let cnxn = host.handshake(4096);
    assert_eq!(cnxn.command, Cmd::Cnxn);
    assert_eq!((cnxn.arg0, cnxn.arg1), (0x0100_0001, 4096));
    let banner = String::from_utf8(cnxn.payload).unwrap();
    assert_eq!(
        banner,
        "device::ro.product.name=budget_a10;ro.product.model=Budget_A10;ro.product.device=a10;features=shell_v2,cmd"
    );
    // Unknown service: CLSE.
    host.send(&Packet::new(Cmd::Open, 7, 0, b"jdwp:1234\0".to_vec()));
    let p = host.recv();
    assert_eq!((p.command, p.arg0, p.arg1), (Cmd::Clse, 0, 7));
    // A big output arrives in max-payload WRTEs, one at a time until OKAY.
    host.send(&Packet::new(Cmd::Open, 8, 0, b"exec:screencap\0".to_vec()));
    let okay = host.recv();
    assert_eq!((okay.command, okay.arg1), (Cmd::Okay, 8));
    let local = okay.arg0;
    let mut total = 0usize;
    loop {
        let p = host.recv();
        if p.command == Cmd::Clse {
            break;
        }
        assert_eq!((p.command, p.arg0, p.arg1), (Cmd::Wrte, local, 8));
        assert!(p.payload.len() <= 4096);
        total += p.payload.len();
        assert!(host.quiet(), "a second WRTE arrived before OKAY");
        host.send(&Packet::new(Cmd::Okay, 8, local, vec![]));
        if total > 3 * 4096 {
            // Enough: close from the host side; the device must stop.
            host.send(&Packet::new(Cmd::Clse, 8, local, vec![]));
            break;
        }
    }
    // The connection still works; checksum 0 (as after a reconnect) is accepted.
    let mut bytes =
        Packet::new(Cmd::Open, 9, 0, b"shell,v2,raw:echo hi; exit 4\0".to_vec()).encode();
    bytes[16..20].copy_from_slice(&[0; 4]);
    host.0.write_all(&bytes).unwrap();
    let mut got = Vec::new();
    loop {
        let p = host.recv();
        match p.command {
            Cmd::Okay if p.arg1 == 9 => {}
            Cmd::Wrte if p.arg1 == 9 => {
                got.extend_from_slice(&p.payload);
                host.send(&Packet::new(Cmd::Okay, 9, p.arg0, vec![]));
            }
            Cmd::Clse if p.arg1 == 9 => break,
            _ => {} // leftovers of the closed screencap stream
        }
    }
    assert_eq!(
        got,
        [&[1u8, 3, 0, 0, 0][..], b"hi\n", &[3, 1, 0, 0, 0, 4]].concat()
    );
}

#[test]
fn raw_protocol_rejects_absurd_length_and_bad_magic() {
    let sim = spawn(config("pixel")).unwrap();
    for corrupt in [12usize, 20] {
        let mut host = RawHost::connect(&sim);
        host.handshake(256 * 1024);
        let mut bytes = Packet::new(Cmd::Wrte, 1, 1, vec![]).encode();
        bytes[corrupt..corrupt + 4].copy_from_slice(&0x7fff_fff0u32.to_le_bytes());
        host.0.write_all(&bytes).unwrap();
        let mut b = [0u8; 1];
        // The device hangs up cleanly (EOF), without trying to read 2 GB.
        assert_eq!(host.0.read(&mut b).unwrap(), 0);
    }
    // The phone still serves new connections.
    let mut host = RawHost::connect(&sim);
    assert_eq!(host.handshake(4096).command, Cmd::Cnxn);
}

/// Taps per second through the real adb server: one pipelined interactive shell vs one
/// `adb shell input tap` process per tap (`adb_client`'s per-command shell: the
/// `autoplay-reference-client` package).
/// Run: `cargo test --release --test it -- --ignored sim_adb::bench_taps --nocapture`
#[test]
#[ignore]
fn bench_taps() {
    let rig = Rig::new(config("pixel"));
    let start_taps = taps(&rig.dumpsys());
    let pipelined = 5000u64;
    let script: String = (0..pipelined)
        .map(|i| format!("input tap {} {}\n", 100 + i % 800, 500 + i % 1000))
        .chain(std::iter::once("dumpsys sudoku\n".to_string()))
        .collect();
    let t = Instant::now();
    let out = rig
        .adb
        .adb_stdin(&["-s", &rig.serial, "shell"], script.as_bytes());
    let a = t.elapsed();
    let state: serde_json::Value = serde_json::from_slice(&out.stdout).expect("dumpsys");
    assert_eq!(taps(&state), start_taps + pipelined);

    let per_process = 200u64;
    let t = Instant::now();
    for i in 0..per_process {
        let out = rig.shell(&format!("input tap {} 600", 100 + i));
        assert_eq!(out.code(), 0);
    }
    let b = t.elapsed();

    assert_eq!(taps(&rig.dumpsys()), start_taps + pipelined + per_process);
    let rate = |n: u64, d: Duration| n as f64 / d.as_secs_f64();
    println!(
        "bench_taps: (a) pipelined interactive `adb shell`: {pipelined} taps in {a:.2?} = {:.0} taps/s",
        rate(pipelined, a)
    );
    println!(
        "bench_taps: (b) one `adb shell input tap X Y` process per tap: {per_process} taps in {b:.2?} = {:.0} taps/s",
        rate(per_process, b)
    );
}
