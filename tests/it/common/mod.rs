//! Helpers for tests that drive the simulated phone through the real `adb` binary: a private
//! adb server on a free port (killed on drop, even when the test fails) and commands with
//! timeouts so nothing can hang.

#![allow(dead_code)]

pub mod rust_source;

use std::io::{Read, Write};
use std::net::{SocketAddrV4, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Default timeout of one adb command.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// A finished command.
#[derive(Debug)]
pub struct Out {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Out {
    /// stdout as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    /// The exit code (-1 if killed by a signal).
    pub fn code(&self) -> i32 {
        self.status.code().unwrap_or(-1)
    }
}

/// A free loopback TCP port (bound then released).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("no free port")
}

/// Path of the adb binary, with a clear message if missing.
pub fn adb_path() -> PathBuf {
    let path = std::env::var_os("ADB")
        .map(PathBuf::from)
        .unwrap_or_else(|| "adb".into());
    match Command::new(&path).arg("version").output() {
        Ok(o) if o.status.success() => path,
        _ => panic!(
            "the `adb` binary is needed for these tests: install it (apt-get install adb) \
             or set ADB=/path/to/adb"
        ),
    }
}

/// The `autoplay` binary with its user directories in a private home under the tests' target
/// directory (HOME, XDG_CONFIG_HOME, XDG_DATA_HOME), and without the developer's
/// AUTOPLAY_DATA / AUTOPLAY_CALIBRATION_DIR: no test reads or writes the user's calibrations
/// or runs. Commands that record runs pass --data-dir, or a home of their own
/// ([`autoplay_in_home`]).
pub fn autoplay_command() -> Command {
    let home = Path::new(concat!(env!("CARGO_TARGET_TMPDIR"), "/home"));
    // It must exist: an adb server that autoplay starts keeps its key in HOME/.android.
    std::fs::create_dir_all(home).expect("cannot create the tests' HOME");
    autoplay_in_home(home)
}

/// The `autoplay` binary with `home` as its user's home directory (see [`autoplay_command`]).
pub fn autoplay_in_home(home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_autoplay"));
    cmd.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env_remove("AUTOPLAY_DATA")
        .env_remove("AUTOPLAY_CALIBRATION_DIR")
        .env_remove("RUST_LOG");
    cmd
}

/// The checked-in calibrations of the simulated phone's profiles (`calibration/`).
pub fn sim_calibrations() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration")
}

/// A level on the simulated phone as the tests play it: the sim's calibrations, no pacing, a
/// verification every 400 taps, runs and sessions into `data`.
pub fn play_config(data: &Path, level: u32) -> sudoku_autoplay::level::PlayConfig {
    sudoku_autoplay::level::PlayConfig {
        level: Some(level),
        calibration_dirs: sim_calibrations().into(),
        pace: Duration::ZERO,
        verify_taps: 400,
        data_dir: data.to_path_buf(),
        ..Default::default()
    }
}

/// `autoplay ARGS` through the private adb server `adb`, with the sim's calibrations, runs and
/// sessions into `data`, no pacing, quietly.
pub fn autoplay_through(adb: &AdbServer, data: &Path, args: &[&str]) -> Command {
    let mut cmd = autoplay_command();
    cmd.args(args)
        .args(["--pace", "0", "--quiet", "-P", &adb.port.to_string()])
        .arg("--calibration-dir")
        .arg(sim_calibrations())
        .arg("--data-dir")
        .arg(data);
    cmd
}

/// Bytes as text (lossy), for messages and checks.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `autoplay ARGS` in the project directory with `stdin` bytes, killing it after 5 minutes.
pub fn autoplay(args: &[&str], stdin: impl AsRef<[u8]>) -> std::process::Output {
    let mut cmd = autoplay_command();
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    let out = run_with_timeout(cmd, stdin.as_ref(), Duration::from_secs(300));
    std::process::Output {
        status: out.status,
        stdout: out.stdout,
        stderr: out.stderr.into_bytes(),
    }
}

/// Runs `cmd` with `stdin` bytes, killing it after `timeout`.
pub fn run_with_timeout(mut cmd: Command, stdin: &[u8], timeout: Duration) -> Out {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("cannot start command");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = stdout.read_to_end(&mut b);
        b
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let status = wait_or_kill(&mut child, timeout, &format!("{cmd:?}"));
    let _ = writer.join();
    Out {
        status,
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    }
}

/// Waits for a child; kills it and panics after `timeout`.
pub fn wait_or_kill(child: &mut Child, timeout: Duration, what: &str) -> ExitStatus {
    let deadline = Instant::now() + timeout;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("timed out after {timeout:?}: {what}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Runs `f` on a thread and panics if it takes longer than `timeout` (or re-raises its panic).
pub fn with_timeout<T: Send + 'static>(
    timeout: Duration,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    let handle = std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(timeout) {
        Ok(v) => v,
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => panic!("{what} ended without a result"),
        },
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("timed out after {timeout:?}: {what}")
        }
    }
}

/// A private adb server (`adb -P PORT start-server`) with its own HOME, so it generates its own
/// key in `HOME/.android/adbkey` and never touches the user's server. Killed on drop.
pub struct AdbServer {
    pub port: u16,
    adb: PathBuf,
    home: tempfile::TempDir,
}

impl AdbServer {
    /// Starts a server on a free port.
    pub fn start() -> AdbServer {
        let adb = adb_path();
        let home = tempfile::tempdir().expect("tempdir");
        let server = AdbServer {
            port: free_port(),
            adb,
            home,
        };
        let out = server.adb(&["start-server"]);
        assert!(
            out.status.success(),
            "adb start-server failed: {}",
            out.stderr
        );
        server
    }

    /// The server's address for `adb_client`.
    pub fn addr(&self) -> SocketAddrV4 {
        SocketAddrV4::new([127, 0, 0, 1].into(), self.port)
    }

    /// The private HOME (its `.android/adbkey.pub` is the server's public key).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// The server's public key line (`adbkey.pub`).
    pub fn public_key(&self) -> String {
        std::fs::read_to_string(self.home().join(".android/adbkey.pub"))
            .expect("the adb server did not create HOME/.android/adbkey.pub")
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(&self.adb);
        cmd.arg("-P")
            .arg(self.port.to_string())
            .args(args)
            .env("HOME", self.home.path())
            .env_remove("ADB_VENDOR_KEYS")
            .env_remove("ANDROID_SERIAL")
            .env_remove("ANDROID_SDK_HOME")
            .env_remove("ANDROID_USER_HOME");
        cmd
    }

    /// Runs `adb -P PORT args...`.
    pub fn adb(&self, args: &[&str]) -> Out {
        self.adb_stdin(args, b"")
    }

    /// Runs `adb -P PORT args...` with bytes on stdin.
    pub fn adb_stdin(&self, args: &[&str], stdin: &[u8]) -> Out {
        run_with_timeout(self.command(args), stdin, TIMEOUT)
    }

    /// `adb -P PORT -s SERIAL args...`
    pub fn on(&self, serial: &str, args: &[&str]) -> Out {
        let mut all = vec!["-s", serial];
        all.extend_from_slice(args);
        self.adb(&all)
    }

    /// The state column of `adb devices` for `serial` (`device`, `offline`, `unauthorized`).
    pub fn state(&self, serial: &str) -> Option<String> {
        let out = self.adb(&["devices"]);
        out.text().lines().find_map(|l| {
            let mut cols = l.split_whitespace();
            (cols.next() == Some(serial)).then(|| cols.next().unwrap_or("").to_string())
        })
    }

    /// Polls until `serial` is in `state`; panics after `timeout`.
    pub fn wait_state(&self, serial: &str, state: &str, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        loop {
            let now = self.state(serial);
            if now.as_deref() == Some(state) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{serial} did not become '{state}' within {timeout:?} (last: {now:?})"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// `adb connect` and wait until the device is online.
    pub fn connect(&self, serial: &str) {
        let out = self.adb(&["connect", serial]);
        assert!(
            out.status.success(),
            "adb connect failed: {} {}",
            out.text(),
            out.stderr
        );
        self.wait_state(serial, "device", Duration::from_secs(15));
    }

    /// Opens a host-protocol connection to the server with the transport set to `serial`
    /// and `service` requested (for services the adb CLI has no command for).
    pub fn open_service(&self, serial: &str, service: &str) -> TcpStream {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect to adb server");
        s.set_read_timeout(Some(TIMEOUT)).unwrap();
        for req in [format!("host:transport:{serial}"), service.to_string()] {
            write!(s, "{:04x}{req}", req.len()).unwrap();
            let mut status = [0u8; 4];
            s.read_exact(&mut status).unwrap();
            assert_eq!(&status, b"OKAY", "adb server refused {req}");
        }
        s
    }
}

impl Drop for AdbServer {
    fn drop(&mut self) {
        let _ = run_with_timeout(self.command(&["kill-server"]), b"", Duration::from_secs(10));
    }
}
