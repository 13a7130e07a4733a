//! Talking to a phone through the adb server (or, with no server, directly).
//!
//! - [`Server`]: the adb server's host protocol (list, track, connect devices), spoken directly.
//! - [`Device`]: one device's services (`shell:`, `exec:`, an interactive shell, a long-lived
//!   `exec:` stream), whichever its [`Route`]: through the adb server (`host:transport:SERIAL`,
//!   then the service), or through [`direct`], our own host side of the ADB transport, when
//!   there is no adb server (`autoplay demo` without `adb` installed). Both routes are one
//!   `Transport` (`transport.rs`) that opens a service as a stream; every call is bounded by
//!   socket timeouts (or, on the direct route, timed waits for the device's packets), never by a
//!   thread left behind. ARCHITECTURE.md says what we speak ourselves and why.
//! - [`select`]: picks the device like adb does (`-s`, `ANDROID_SERIAL`, the only one).
//! - [`input`]: the tap channel (a long-lived pipelined shell with `input tap` or `sendevent`
//!   lines, or [`raw`] touch records streamed into the touch panel).
//! - [`screen`]: screenshots, raw or PNG, whichever measured faster.

pub mod direct;
pub mod screen;
mod server;
pub mod tap;
mod transport;

pub use server::{DEFAULT_PORT, DeviceEntry, Server, parse_devices};

use direct::Direct;
use std::io::{Read, Write};
use std::net::SocketAddrV4;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use transport::Transport;

/// What can go wrong talking to a device; every message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum DeviceError {
    #[error(
        "`adb` is not installed or not on PATH: install it (Debian/Ubuntu: `sudo apt-get install adb`; \
             elsewhere: Android SDK platform-tools) and try again"
    )]
    NoAdb,
    #[error("cannot reach the adb server at {addr}: {hint}")]
    ServerUnreachable { addr: SocketAddrV4, hint: String },
    #[error("the adb server at {addr} stopped answering: start it again with `{command}`")]
    ServerGone { addr: SocketAddrV4, command: String },
    #[error(
        "no device connected: plug in a phone with USB debugging on (check `adb devices`), \
             `adb connect HOST:PORT` a network device, or try `autoplay demo` without a phone"
    )]
    NoDevices,
    #[error("device {serial:?} not found; connected: {available}")]
    NotFound { serial: String, available: String },
    #[error("device {serial} is {state}: {hint}")]
    NotReady {
        serial: String,
        state: String,
        hint: String,
    },
    #[error(
        "more than one device connected ({available}): choose one with -s SERIAL or ANDROID_SERIAL"
    )]
    Ambiguous { available: String },
    #[error(
        "{what} timed out after {secs:.1} s (is the device still connected? check `adb devices`)"
    )]
    Timeout { what: String, secs: f64 },
    #[error("adb: {0}")]
    Adb(String),
    /// The phone refuses input injected from the adb shell: no tap channel can work.
    #[error(transparent)]
    Refused(#[from] tap::Refusal),
    #[error("adb connection: {0}")]
    Io(#[from] std::io::Error),
}

/// The output of a shell command run with [`Device::shell`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellOutput {
    pub stdout: String,
    /// The command's exit code (from an appended `; echo rc=$?`).
    pub code: i32,
}

/// One device, and how it is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    pub serial: String,
    pub route: Route,
}

/// How a [`Device`] is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// Through an adb server (the normal case).
    Server(Server),
    /// Straight over TCP with our own transport client (no adb server).
    Direct(Direct),
}

impl Route {
    /// The route as the one interface both kinds implement.
    fn transport(&self) -> &dyn Transport {
        match self {
            Route::Server(server) => server,
            Route::Direct(direct) => direct,
        }
    }
}

/// Default timeout of one short device call.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(15);

/// How long opening a long-lived stream may take, each write on it, and how long the device
/// gets to close it once its input is over.
const STREAM_TIMEOUT: Duration = Duration::from_secs(10);

impl Device {
    /// The device `serial` behind the adb server `server`.
    pub fn new(serial: impl Into<String>, server: Server) -> Self {
        Device {
            serial: serial.into(),
            route: Route::Server(server),
        }
    }

    /// A device reached without an adb server; its serial is its address.
    pub fn direct(direct: Direct) -> Self {
        Device {
            serial: direct.addr().to_string(),
            route: Route::Direct(direct),
        }
    }

    /// Runs `command` in the device shell; the exit code comes from an appended `; echo rc=$?`.
    pub fn shell(&self, command: &str, timeout: Duration) -> Result<ShellOutput, DeviceError> {
        let what = format!("`adb shell {command}` on {}", self.serial);
        let out = self.run(&format!("shell:{command}; echo rc=$?"), &what, timeout)?;
        let text = String::from_utf8_lossy(&out).replace("\r\n", "\n");
        // The marker follows the output's last line, or ends it when the command printed no
        // final newline.
        let body = text.trim_end_matches('\n');
        let (stdout, code) = body
            .rsplit_once("rc=")
            .and_then(|(head, code)| Some((head, code.trim().parse::<i32>().ok()?)))
            .ok_or_else(|| {
                DeviceError::Adb(format!("{what}: no exit status in the output {text:?}"))
            })?;
        let stdout = match stdout {
            "" => String::new(),
            s if s.ends_with('\n') => s.to_string(),
            s => format!("{s}\n"),
        };
        Ok(ShellOutput { stdout, code })
    }

    /// Runs `command` with `exec:` (raw bytes, no pty) and returns its whole output.
    pub fn exec(&self, command: &str, timeout: Duration) -> Result<Vec<u8>, DeviceError> {
        let what = format!("`adb exec-out {command}` on {}", self.serial);
        self.run(&format!("exec:{command}"), &what, timeout)
    }

    /// Everything `service` writes until it closes the stream, within `timeout` from now.
    fn run(&self, service: &str, what: &str, timeout: Duration) -> Result<Vec<u8>, DeviceError> {
        let start = Instant::now();
        let out = self
            .route
            .transport()
            .open(&self.serial, service, timeout)
            .and_then(|stream| {
                stream
                    .read_to_end(start + timeout)
                    .map_err(DeviceError::from)
            })
            .map_err(|e| self.failed(e, what, timeout));
        tracing::trace!(
            serial = %self.serial,
            service,
            ms = start.elapsed().as_millis() as u64,
            bytes = out.as_ref().map_or(0, Vec::len),
            error = out.as_ref().err().map(tracing::field::display),
            "device call"
        );
        out
    }

    /// Runs `service` (`shell,raw:`: an interactive shell with no pty, so no echo or prompts;
    /// `exec:CMD`: binary both ways) on a thread of its own, named `name`. The chunks sent on the
    /// returned channel are its input; its output goes to `output`, which is dropped when the
    /// stream ends (or after [`STREAM_TIMEOUT`] once the input is over). If the service cannot
    /// run, `failed` gets the error. `None`: the thread could not start (nothing ran; `output`
    /// and `failed` are dropped unused).
    pub(crate) fn stream_on_thread(
        &self,
        name: &str,
        service: String,
        output: Box<dyn Write + Send>,
        failed: impl FnOnce(DeviceError) + Send + 'static,
    ) -> Option<mpsc::Sender<Vec<u8>>> {
        let (tx, rx) = mpsc::channel();
        let device = self.clone();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let mut reader = ChannelReader::new(rx);
                if let Err(e) = device.pipe(&service, &mut reader, output) {
                    failed(e);
                }
            })
            .ok()?;
        Some(tx)
    }

    fn pipe(
        &self,
        service: &str,
        input: &mut dyn Read,
        output: Box<dyn Write + Send>,
    ) -> Result<(), DeviceError> {
        let what = format!("opening `{service}` on {}", self.serial);
        let stream = self
            .route
            .transport()
            .open(&self.serial, service, STREAM_TIMEOUT)
            .map_err(|e| self.failed(e, &what, STREAM_TIMEOUT))?;
        tracing::trace!(serial = %self.serial, service, "stream open");
        let done = stream.pump(input, output, STREAM_TIMEOUT);
        tracing::trace!(serial = %self.serial, service, ok = done.is_ok(), "stream closed");
        done.map_err(|e| self.explain(e.into()))
    }

    /// A failed call's error: a bound that was hit is said as the call's timeout; anything
    /// else is explained by the route.
    fn failed(&self, e: DeviceError, what: &str, timeout: Duration) -> DeviceError {
        if transport::is_timeout(&e) {
            DeviceError::Timeout {
                what: what.to_string(),
                secs: timeout.as_secs_f64(),
            }
        } else {
            self.explain(e)
        }
    }

    /// A failed call, explained when its cause is the adb server gone: the same sentence
    /// wherever the server died (a refused connection, a stream cut mid-frame).
    pub(crate) fn explain(&self, e: DeviceError) -> DeviceError {
        self.route.transport().explain(e)
    }

    /// `getprop KEY`'s value ([`parse_getprop`]).
    pub fn getprop(&self, key: &str) -> Result<String, DeviceError> {
        let out = self.shell(&format!("getprop {key}"), CALL_TIMEOUT)?.stdout;
        Ok(parse_getprop(&out, key))
    }

    /// The display's size as screenshots and taps see it now: `wm size` (its natural
    /// orientation; an override size wins, as on the screen), turned as the phone is held
    /// (`dumpsys window displays`).
    pub fn screen_size(&self) -> Result<(u32, u32), DeviceError> {
        let out = self.shell("wm size", CALL_TIMEOUT)?.stdout;
        let natural = parse_wm_size(&out).ok_or_else(|| {
            DeviceError::Adb(format!(
                "cannot read the screen size from `wm size`: {out:?}"
            ))
        })?;
        let held = self.shell("dumpsys window displays", CALL_TIMEOUT)?.stdout;
        Ok(turned_size(natural, parse_display_state(&held)))
    }
}

/// The natural size turned by the rotation `dumpsys window displays` gives; its current size
/// (`cur=`) where that is the natural one either way round (a rotation it does not name still
/// shows there).
pub(crate) fn turned_size(natural: (u32, u32), state: DisplayState) -> (u32, u32) {
    let swapped = (natural.1, natural.0);
    let turned = if state.rotation.is_some_and(|r| r % 2 == 1) {
        swapped
    } else {
        natural
    };
    state
        .current
        .filter(|c| *c == natural || *c == swapped)
        .unwrap_or(turned)
}

/// A rotation as Android's dumps print it, in quarter turns: `1`, `ROTATION_90` (window
/// manager), `Rotation90` (input reader), or degrees.
pub(crate) fn quarter_turns(v: &str) -> Option<u8> {
    let v = v
        .strip_prefix("ROTATION_")
        .or_else(|| v.strip_prefix("Rotation"))
        .unwrap_or(v);
    match v.parse::<u32>().ok()? {
        n @ 0..=3 => Some(n as u8),
        n @ (90 | 180 | 270) => Some((n / 90) as u8),
        _ => None,
    }
}

/// What `dumpsys window displays` says of the built-in display (display 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct DisplayState {
    /// Its size as apps see it now (`cur=1080x2400`).
    pub current: Option<(u32, u32)>,
    /// Its rotation in quarter turns: `mCurrentRotation=ROTATION_90` (Android 10 and later),
    /// `mRotation=1` (older releases, and beside it in newer ones).
    pub rotation: Option<u8>,
}

/// The lines of a `dumpsys window`, trimmed, each with the display whose block it stands in
/// (`Display: mDisplayId=N` opens one, an unindented line closes it).
pub(crate) fn display_lines(text: &str) -> impl Iterator<Item = (Option<&str>, &str)> {
    let mut display = None;
    text.lines().map(move |line| {
        let l = line.trim();
        if !line.starts_with(' ') {
            display = None;
        }
        if let Some(id) = l.strip_prefix("Display: mDisplayId=") {
            display = id.split_whitespace().next();
        }
        (display, l)
    })
}

/// Parses [`DisplayState`] from `dumpsys window displays` (or all of `dumpsys window`): the
/// first values in display 0's block, or outside any display's block (old releases have one).
pub(crate) fn parse_display_state(text: &str) -> DisplayState {
    let size = |v: &str| -> Option<(u32, u32)> {
        let (w, h) = v.split_once('x')?;
        Some((w.parse().ok()?, h.parse().ok()?))
    };
    let mut state = DisplayState::default();
    for (display, l) in display_lines(text) {
        if display.is_some_and(|d| d != "0") {
            continue;
        }
        for word in l.split_whitespace() {
            if let Some(v) = word.strip_prefix("cur=") {
                state.current = state.current.or(size(v));
            } else if let Some(v) = word
                .strip_prefix("mCurrentRotation=")
                .or_else(|| word.strip_prefix("mRotation="))
            {
                state.rotation = state.rotation.or(quarter_turns(v));
            }
        }
    }
    state
}

/// A property's value in what `getprop KEY` printed: the value line; in a listing of
/// `[key]: [value]` lines (a whole `getprop`), that key's value or nothing; shell prompts and
/// echoed commands (an interactive session's) are not values.
pub(crate) fn parse_getprop(text: &str, key: &str) -> String {
    fn listed(l: &str) -> Option<(&str, &str)> {
        let (k, v) = l.strip_prefix('[')?.split_once("]: [")?;
        Some((k, v.strip_suffix(']')?))
    }
    if text.lines().any(|l| listed(l.trim()).is_some()) {
        return text
            .lines()
            .find_map(|l| listed(l.trim()).filter(|(k, _)| *k == key))
            .map_or(String::new(), |(_, v)| v.to_string());
    }
    let prompt = |l: &str| l.contains('@') && (l.contains(" $") || l.contains(" #"));
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !prompt(l) && !l.contains("getprop "))
        .unwrap_or("")
        .to_string()
}

/// `Physical size: 1080x2400` / `Override size: 720x1600`.
pub(crate) fn parse_wm_size(text: &str) -> Option<(u32, u32)> {
    let parse = |l: &str| {
        let (_, v) = l.split_once(':')?;
        let (w, h) = v.trim().split_once('x')?;
        Some((w.trim().parse().ok()?, h.trim().parse().ok()?))
    };
    let mut size = None;
    for line in text.lines() {
        if line.starts_with("Override size") {
            return parse(line);
        }
        if line.starts_with("Physical size") {
            size = parse(line);
        }
    }
    size
}

/// Blocking `Read` over a channel of byte chunks (empty ones skipped); EOF when the sender is
/// dropped. A read waits at most `timeout` (then fails with `TimedOut`), if one is set.
pub(crate) struct ChannelReader {
    rx: mpsc::Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
    timeout: Option<Duration>,
}

impl ChannelReader {
    pub(crate) fn new(rx: mpsc::Receiver<Vec<u8>>) -> Self {
        ChannelReader {
            rx,
            buf: Vec::new(),
            pos: 0,
            timeout: None,
        }
    }
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.pos == self.buf.len() {
            let chunk = match self.timeout {
                None => self
                    .rx
                    .recv()
                    .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                Some(t) => self.rx.recv_timeout(t),
            };
            match chunk {
                Ok(chunk) => {
                    self.buf = chunk;
                    self.pos = 0;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(0),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(std::io::ErrorKind::TimedOut.into());
                }
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Chooses the device like adb: `serial` (from `-s` or `ANDROID_SERIAL`), else the only ready one.
pub fn select(server: &Server, serial: Option<&str>) -> Result<Device, DeviceError> {
    server.ensure_running()?;
    let devices = server.devices()?;
    let list = || {
        if devices.is_empty() {
            "none".to_string()
        } else {
            devices
                .iter()
                .map(|d| format!("{} ({})", d.serial, d.state))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let chosen = match serial {
        Some(s) => devices
            .iter()
            .find(|d| d.serial == s)
            .ok_or_else(|| DeviceError::NotFound {
                serial: s.to_string(),
                available: list(),
            })?,
        None => {
            let ready: Vec<&DeviceEntry> = devices.iter().filter(|d| d.is_ready()).collect();
            match ready.as_slice() {
                [one] => *one,
                [] if devices.is_empty() => return Err(DeviceError::NoDevices),
                [] => devices.first().ok_or(DeviceError::NoDevices)?,
                _ => return Err(DeviceError::Ambiguous { available: list() }),
            }
        }
    };
    if !chosen.is_ready() {
        let hint = match chosen.state.as_str() {
            "unauthorized" => "accept the \"Allow USB debugging?\" prompt on the phone".to_string(),
            "offline" => "reconnect it (replug the cable, or `adb reconnect`)".to_string(),
            other => format!("wait until `adb devices` shows it as `device` (now `{other}`)"),
        };
        return Err(DeviceError::NotReady {
            serial: chosen.serial.clone(),
            state: chosen.state.clone(),
            hint,
        });
    }
    Ok(Device::new(chosen.serial.clone(), *server))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wm_size_of_real_phones() {
        let outputs = crate::real_outputs::with_truth("size");
        for (file, text, size) in &outputs {
            let size = size.as_array().unwrap();
            let want = (size[0].as_integer().unwrap(), size[1].as_integer().unwrap());
            let got = parse_wm_size(text).map(|(w, h)| (i64::from(w), i64::from(h)));
            assert_eq!(got, Some(want), "{file}");
        }
        assert!(outputs.len() >= 2);
    }

    #[test]
    fn getprop_values_of_real_phones() {
        let outputs = crate::real_outputs::with_truth("abi");
        for (file, text, abi) in &outputs {
            assert_eq!(
                parse_getprop(text, "ro.product.cpu.abi"),
                abi.as_str().unwrap(),
                "{file}"
            );
        }
        assert!(outputs.len() >= 4);
        assert_eq!(parse_getprop("[a]: [1]\n[b]: [2]\n", "c"), "");
        assert_eq!(parse_getprop("\n", "c"), "");
    }

    #[test]
    fn the_display_as_the_phone_is_held() {
        // Real dumps (portrait), in the forms of Android 4.1, 9, 12 and 13.
        for (file, want) in [
            ("dumpsys-window/jellybean-sampleui-windows.txt", (480, 800)),
            (
                "dumpsys-window/miui-android9-dialog-window-focus.txt",
                (0, 0),
            ),
            (
                "dumpsys-window/android12-qualcomm-camera-displays-excerpt.txt",
                (720, 1650),
            ),
            ("dumpsys-window/mtk-board-android13-asleep.txt", (480, 800)),
        ] {
            let text = std::fs::read_to_string(format!(
                "{}/../../tests/data/android/{file}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            let s = parse_display_state(&text);
            assert_eq!(s.current.unwrap_or((0, 0)), want, "{file}");
            assert!(matches!(s.rotation, Some(0) | None), "{file}: {s:?}");
        }
        // Landscape: the current size and the rotation, in each form.
        let landscape = "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  \
            Display: mDisplayId=1\n    init=720x748 320dpi cur=748x720\n    \
            mCurrentRotation=ROTATION_270\n  \
            Display: mDisplayId=0 rootTasks=7\n    init=1080x2400 420dpi cur=2400x1080 app=2400x1017\n    \
            mRotation=1 mDeferredRotationPauseCount=0\n      mCurrentRotation=ROTATION_90\n";
        let s = parse_display_state(landscape);
        assert_eq!((s.current, s.rotation), (Some((2400, 1080)), Some(1)));
        assert_eq!(turned_size((1080, 2400), s), (2400, 1080));
        // Only a rotation (an old release's `mRotation=3`), or only a current size.
        let only_rotation = DisplayState {
            current: None,
            rotation: Some(3),
        };
        assert_eq!(turned_size((1080, 2400), only_rotation), (2400, 1080));
        let only_size = DisplayState {
            current: Some((2400, 1080)),
            rotation: None,
        };
        assert_eq!(turned_size((1080, 2400), only_size), (2400, 1080));
        // A current size that is not the natural one either way round (another display's
        // override) does not win over wm size.
        let other = DisplayState {
            current: Some((720, 748)),
            rotation: Some(0),
        };
        assert_eq!(turned_size((1080, 2400), other), (1080, 2400));
    }

    #[test]
    fn wm_size_prefers_override() {
        assert_eq!(
            parse_wm_size("Physical size: 1080x2400\n"),
            Some((1080, 2400))
        );
        assert_eq!(
            parse_wm_size("Physical size: 1080x2400\nOverride size: 720x1600\n"),
            Some((720, 1600))
        );
        assert_eq!(parse_wm_size("garbage"), None);
    }

    /// An "adb server" that accepts connections (the kernel does, into the backlog) and never
    /// answers, and the device behind it.
    fn silent_server() -> (std::net::TcpListener, Device) {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        (l, Device::new("R58M", Server::local(port)))
    }

    /// What the host sent on the next connection, read until the host closed it (a panic if it
    /// is still open seconds later: something would still be waiting on it).
    fn sent_then_closed(l: &std::net::TcpListener) -> String {
        let (mut s, _) = l.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut got = Vec::new();
        s.read_to_end(&mut got)
            .expect("the host closed its socket after giving up");
        String::from_utf8_lossy(&got).into_owned()
    }

    /// `call`, given a 300 ms timeout, fails with a timeout said as `WHAT timed out after 0.3 s
    /// (...)`, after about that long.
    pub(super) fn assert_times_out<T: std::fmt::Debug>(
        what: &str,
        call: impl FnOnce(Duration) -> Result<T, DeviceError>,
    ) {
        let timeout = Duration::from_millis(300);
        let start = Instant::now();
        let e = call(timeout).unwrap_err();
        let took = start.elapsed();
        assert!(matches!(e, DeviceError::Timeout { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!(
                "{what} timed out after 0.3 s (is the device still connected? check `adb devices`)"
            )
        );
        assert!(took >= timeout && took < Duration::from_secs(2), "{took:?}");
    }

    #[test]
    fn a_server_that_never_answers_times_out_and_nothing_waits_on() {
        let (l, device) = silent_server();
        assert_times_out("`adb shell echo hi` on R58M", |t| {
            device.shell("echo hi", t)
        });
        assert_eq!(sent_then_closed(&l), "0013host:transport:R58M");
        assert_times_out("`adb exec-out screencap` on R58M", |t| {
            device.exec("screencap", t)
        });
        assert_eq!(sent_then_closed(&l), "0013host:transport:R58M");
    }

    #[test]
    fn a_call_ends_at_its_deadline_even_while_output_trickles() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        // Answers both requests, then writes a byte every 50 ms for as long as it can.
        let server = std::thread::spawn(move || {
            let (mut s, _) = l.accept().unwrap();
            let mut request = [0u8; 4 + 19];
            s.read_exact(&mut request).unwrap();
            s.write_all(b"OKAY").unwrap();
            let mut len = [0u8; 4];
            s.read_exact(&mut len).unwrap();
            let n = usize::from_str_radix(std::str::from_utf8(&len).unwrap(), 16).unwrap();
            s.read_exact(&mut vec![0u8; n]).unwrap();
            s.write_all(b"OKAY").unwrap();
            let start = Instant::now();
            while s.write_all(b"x").is_ok() && start.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(50));
            }
            start.elapsed()
        });
        let device = Device::new("R58M", Server::local(port));
        let start = Instant::now();
        let e = device
            .exec("cat /dev/slow", Duration::from_millis(400))
            .unwrap_err();
        assert!(matches!(e, DeviceError::Timeout { .. }), "{e:?}");
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
        // The socket was closed: the server's writes failed long before its own 10 s.
        assert!(server.join().unwrap() < Duration::from_secs(5));
    }

    #[test]
    fn unreachable_server_says_so() {
        // A port nothing listens on (bound then dropped).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let s = Server::local(port);
        let e = s.devices().unwrap_err().to_string();
        assert!(e.contains("cannot reach the adb server"), "{e}");
    }
}
