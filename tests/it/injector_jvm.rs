//! The committed injector's own bytecode, off the phone: `injector/run-jvm.sh` turns
//! `injector/autoplay-inject.dex` into JVM classes (enjarify) and runs them against the
//! `android.*` stubs, which record every injected event. The records fed to it are the player's
//! own encoding and its replies are read with the player's own parser, so the protocol between
//! the two sides is tested end to end. Needs java, javac (openjdk-17-jdk-headless) and enjarify;
//! where they are missing the test says so and passes (`.ci/run` installs them).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use sudoku_autoplay::device::tap::inject::{
    self, KIND_DOWN, KIND_MOVE, KIND_PING, KIND_TAP, KIND_UP, record,
};

fn tools_missing() -> Option<&'static str> {
    ["java", "javac", "enjarify"].into_iter().find(|tool| {
        Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .stdout(Stdio::null())
            .status()
            .map_or(true, |s| !s.success())
    })
}

/// Runs the dex on the JVM with `props`, `input` on stdin: (stdout, recorded calls, status).
fn run_jvm(input: &[u8], props: &[&str]) -> (String, String, i32) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("calls.txt");
    let mut child = Command::new(root.join("injector/run-jvm.sh"))
        .arg(format!("-Dstub.record={}", rec.display()))
        .args(props)
        .env("PYTHON", "/usr/bin/python3")
        .env("XDG_CACHE_HOME", root.join("target/injector-jvm-cache"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .lines()
            .all(|l| l.starts_with("Picked up ") || l.trim().is_empty()),
        "the injector wrote to stderr: {stderr}"
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        std::fs::read_to_string(&rec).unwrap_or_default(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn the_committed_dex_speaks_the_players_protocol() {
    if let Some(tool) = tools_missing() {
        eprintln!(
            "SKIPPED: {tool} is not installed (Debian: apt-get install openjdk-17-jdk-headless enjarify); \
             the injector's bytecode was not run"
        );
        return;
    }
    // What the Tapper sends (taps), plus each other kind, through the player's encoder.
    let mut input = Vec::new();
    for (kind, seq, x, y) in [
        (KIND_TAP, 1, 540, 2300),
        (KIND_TAP, 2, 100, 200),
        (KIND_DOWN, 3, 10, 20),
        (KIND_MOVE, 4, 15, 25),
        (KIND_UP, 5, 15, 25),
        (KIND_PING, 6, 0, 0),
        (KIND_TAP, u32::MAX - 1, -5, 2400),
    ] {
        input.extend_from_slice(&record(kind, seq, x, y));
    }
    for sdk in ["33", "34"] {
        let (out, calls, status) = run_jvm(&input, &[&format!("-Dstub.sdk={sdk}")]);
        assert_eq!(status, 0, "{out}");
        let mut lines = out.lines();
        assert_eq!(
            lines.next().and_then(inject::parse_hello),
            Some((inject::INJECTOR_VERSION, sdk.parse().unwrap())),
            "{out}"
        );
        let acks: Vec<_> = lines.map(|l| inject::parse_reply(l).unwrap()).collect();
        assert_eq!(
            acks,
            [1, 2, 3, 4, 5, 6, u32::MAX - 1].map(Ok),
            "each record acknowledged in order: {out}"
        );
        let events: Vec<&str> = calls.lines().filter(|l| l.starts_with("inject ")).collect();
        let ev = |a: u8, x: f32, y: f32| {
            format!("inject action={a} x={x:.1} y={y:.1} source=0x1002 mode=0")
        };
        let want = [
            ev(0, 540.0, 2300.0),
            ev(1, 540.0, 2300.0),
            ev(0, 100.0, 200.0),
            ev(1, 100.0, 200.0),
            ev(0, 10.0, 20.0),
            ev(2, 15.0, 25.0),
            ev(1, 15.0, 25.0),
            ev(0, -5.0, 2400.0),
            ev(1, -5.0, 2400.0),
        ];
        assert_eq!(events, want, "sdk {sdk}: {calls}");
        let global = if sdk == "34" {
            "InputManagerGlobal"
        } else {
            "InputManager"
        };
        assert!(
            calls.starts_with(&format!("getInstance android.hardware.input.{global}\n")),
            "{calls}"
        );
    }
    // The Xiaomi refusal, as the player's probe sees it: an `err` naming the SecurityException.
    let (out, calls, status) = run_jvm(
        &record(KIND_MOVE, 1, 0, 0),
        &["-Dstub.sdk=34", "-Dstub.deny=1"],
    );
    assert_eq!(status, 0);
    let reply = out.lines().nth(1).and_then(inject::parse_reply);
    match reply {
        Some(Err((1, why))) => assert!(
            why.starts_with(
                "java.lang.SecurityException: Injecting input events requires the caller"
            ),
            "{why}"
        ),
        other => panic!("{other:?} in {out}"),
    }
    assert!(!calls.contains("inject "), "{calls}");
}
