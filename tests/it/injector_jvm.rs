//! The committed injector's own bytecode, off the phone: `injector/run-jvm.sh` turns
//! `injector/autoplay-inject.dex` into JVM classes (enjarify) and runs them against the
//! `android.*` stubs, which record every injected event and answer as Android 10-12 and 13+
//! phones do (a refusal silent for asynchronous events before 13, the screen-off drop). The
//! records fed to it are the player's own encoding and its replies are read with the player's
//! own parsers, so the protocol between the two sides is tested end to end. Needs java, javac
//! (openjdk-17-jdk-headless) and enjarify; where they are missing the test says so and passes
//! (`.ci/run` installs them).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use sudoku_autoplay::device::Refusal;
use sudoku_autoplay::device::tap::injector::{
    self, Hello, KIND_CHECK, KIND_DOWN, KIND_MOVE, KIND_PING, KIND_TAP, KIND_UP, SCREEN_OFF, record,
};

/// What one run of the dex did.
struct Run {
    stdout: String,
    /// The stubs' record of the injected events.
    calls: String,
    status: i32,
}

impl Run {
    fn hello(&self) -> Option<Hello> {
        self.stdout.lines().next().and_then(injector::parse_hello)
    }

    /// The replies after the hello line.
    fn replies(&self) -> Vec<Result<u32, (u32, String)>> {
        self.stdout
            .lines()
            .skip(1)
            .map(|l| injector::parse_reply(l).unwrap_or_else(|| panic!("not a reply: {l}")))
            .collect()
    }

    /// The recorded lines that start with `prefix`.
    fn events(&self, prefix: &str) -> Vec<&str> {
        self.calls
            .lines()
            .filter(|l| l.starts_with(prefix))
            .collect()
    }
}

/// Runs the dex on the JVM with `props`, `input` on stdin and stdout into `stdout` (a pipe when
/// `None`).
fn run_jvm_to(input: &[u8], props: &[&str], stdout: Option<std::fs::File>) -> Run {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("calls.txt");
    let mut child = Command::new(root.join("injector/run-jvm.sh"))
        .arg(format!("-Dstub.record={}", rec.display()))
        .args(props)
        .env("PYTHON", "/usr/bin/python3")
        .env("XDG_CACHE_HOME", root.join("target/injector-jvm-cache"))
        .stdin(Stdio::piped())
        .stdout(stdout.map_or_else(Stdio::piped, Stdio::from))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A stdin the injector stopped reading is no failure of this test.
    let _ = child.stdin.take().unwrap().write_all(input);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .lines()
            .all(|l| l.starts_with("Picked up ") || l.trim().is_empty()),
        "the injector wrote to stderr (an escaped exception?): {stderr}"
    );
    Run {
        stdout: String::from_utf8(out.stdout).unwrap(),
        calls: std::fs::read_to_string(&rec).unwrap_or_default(),
        status: out.status.code().unwrap_or(-1),
    }
}

fn run_jvm(input: &[u8], props: &[&str]) -> Run {
    run_jvm_to(input, props, None)
}

fn records(list: &[(u8, u32, i32, i32)]) -> Vec<u8> {
    list.iter()
        .flat_map(|&(kind, seq, x, y)| record(kind, seq, x, y))
        .collect()
}

/// A touch event as the stubs record it: one finger (tool type 1), pressure 1 on the down and
/// the move and 0 on the up, size 1, device 0, source touchscreen, asynchronous.
fn touch(action: u8, x: f32, y: f32) -> String {
    let pressure = if action == 1 { 0.0 } else { 1.0 };
    format!(
        "inject action={action} x={x:.1} y={y:.1} pressure={pressure:.1} size=1.0 tool=1 device=0 source=0x1002 mode=0"
    )
}

/// The events `run` (the player's records on API `sdk`) injected: each tap's down and up, the
/// down, move and up, then the check's `KEYCODE_UNKNOWN` down and up, waited for (mode 1,
/// WAIT_FOR_RESULT).
fn assert_events(run: &Run, sdk: u32) {
    let want = [
        touch(0, 540.0, 2300.0),
        touch(1, 540.0, 2300.0),
        touch(0, 100.0, 200.0),
        touch(1, 100.0, 200.0),
        touch(0, 10.0, 20.0),
        touch(2, 15.0, 25.0),
        touch(1, 15.0, 25.0),
        touch(0, -5.0, 2400.0),
        touch(1, -5.0, 2400.0),
    ];
    assert_eq!(
        run.events("inject action="),
        want,
        "sdk {sdk}: {}",
        run.calls
    );
    assert_eq!(
        run.events("inject key "),
        [0, 1].map(|a| format!(
            "inject key action={a} code=0 repeat=0 device=-1 source=0x101 mode=1"
        )),
        "{}",
        run.calls
    );
}

#[test]
#[cfg_attr(
    not(jvm_tools),
    ignore = "needs java, javac and enjarify on the PATH (Debian: apt-get install openjdk-17-jdk-headless enjarify; then `touch build.rs`)"
)]
fn the_committed_dex_speaks_the_players_protocol() {
    // What the Tapper sends (taps), plus each other kind, through the player's encoder.
    let input = records(&[
        (KIND_TAP, 1, 540, 2300),
        (KIND_TAP, 2, 100, 200),
        (KIND_DOWN, 3, 10, 20),
        (KIND_MOVE, 4, 15, 25),
        (KIND_UP, 5, 15, 25),
        (KIND_PING, 6, 0, 0),
        (KIND_CHECK, 7, 0, 0),
        (KIND_TAP, u32::MAX - 1, -5, 2400),
    ]);
    for sdk in [31, 33, 34] {
        let run = run_jvm(&input, &[&format!("-Dstub.sdk={sdk}")]);
        assert_eq!(run.status, 0, "{}", run.stdout);
        // The hello line names this very dex: the player's push-again decision rests on it.
        assert_eq!(
            run.hello(),
            Some(Hello {
                version: injector::INJECTOR_VERSION,
                sdk,
                dex: injector::dex_signature(injector::INJECTOR_DEX).unwrap(),
            }),
            "{}",
            run.stdout
        );
        assert_eq!(
            run.replies(),
            [1, 2, 3, 4, 5, 6, 7, u32::MAX - 1].map(Ok),
            "each record acknowledged in order: {}",
            run.stdout
        );
        assert_events(&run, sdk);
        let class = if sdk >= 34 {
            "InputManagerGlobal"
        } else {
            "InputManager"
        };
        assert!(
            run.calls
                .starts_with(&format!("getInstance android.hardware.input.{class}\n")),
            "{}",
            run.calls
        );
    }
}

/// A phone that refuses injection: on Android 12 every tap is acknowledged and lost, the check
/// alone says so; from Android 13 everything throws. Either way the player's reading of the
/// check's reply is a refusal.
#[test]
#[cfg_attr(
    not(jvm_tools),
    ignore = "needs java, javac and enjarify on the PATH (Debian: apt-get install openjdk-17-jdk-headless enjarify; then `touch build.rs`)"
)]
fn the_check_record_shows_a_refusal_on_every_version() {
    let input = records(&[(KIND_TAP, 1, 100, 200), (KIND_CHECK, 2, 0, 0)]);
    for (sdk, said) in [
        (
            31,
            "java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission",
        ),
        (
            34,
            "java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.",
        ),
    ] {
        let run = run_jvm(&input, &[&format!("-Dstub.sdk={sdk}"), "-Dstub.deny=1"]);
        assert_eq!(run.status, 0);
        let replies = run.replies();
        let tap = &replies[0];
        assert_eq!(tap.is_ok(), sdk < 33, "sdk {sdk}: a tap's ack: {tap:?}");
        match &replies[1] {
            Err((2, why)) => assert_eq!(
                Refusal::in_text(why),
                Some(Refusal::Denied { said: said.into() })
            ),
            other => panic!("sdk {sdk}: the check answered {other:?}"),
        }
        assert!(
            run.events("inject ").is_empty(),
            "nothing landed: {}",
            run.calls
        );
    }
    // Android 12 with the screen off: a refused key is dropped as silently as a permitted one,
    // so the check cannot pass; from Android 13 the screen does not matter.
    for deny in ["0", "1"] {
        let props = ["-Dstub.sdk=31", "-Dstub.interactive=0"];
        let run = run_jvm(
            &input,
            &[&props[..], &[&format!("-Dstub.deny={deny}")]].concat(),
        );
        assert_eq!(run.replies()[1], Err((2, SCREEN_OFF.into())), "deny={deny}");
    }
    let run = run_jvm(&input, &["-Dstub.sdk=34", "-Dstub.interactive=0"]);
    assert_eq!(run.replies()[1], Ok(2));
}

/// An I/O error on its streams ends the injector with exit status 1 (`injector/README.md`), not
/// with an exception escaping `main`: a stdin that cannot be read says why on stdout first.
#[test]
#[cfg_attr(
    not(jvm_tools),
    ignore = "needs java, javac and enjarify on the PATH (Debian: apt-get install openjdk-17-jdk-headless enjarify; then `touch build.rs`)"
)]
fn io_errors_end_with_status_1() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let run = run_jvm_to(&records(&[(KIND_TAP, 1, 1, 1)]), &[], Some(full));
    assert_eq!(run.status, 1, "stdout that cannot be written");
    assert!(run.events("inject ").is_empty(), "{}", run.calls);

    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(root.join("injector/run-jvm.sh"))
        .env("PYTHON", "/usr/bin/python3")
        .env("XDG_CACHE_HOME", root.join("target/injector-jvm-cache"))
        .stdin(std::fs::File::open("/").unwrap())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "stdin that cannot be read: {stdout}"
    );
    assert_eq!(
        stdout.lines().nth(1),
        Some("fatal java.io.IOException: Is a directory"),
        "{stdout}"
    );
}
