//! Talking to a phone through the adb server (or, with no server, directly).
//!
//! - [`Server`]: the adb server's host protocol (list, track, connect devices), spoken directly.
//! - [`Device`]: one device's services (`shell:`, `exec:`, an interactive shell) through
//!   `adb_client::ADBServerDevice`, each call on a worker thread with our own timeout (the crate
//!   has none); or through [`direct`], our own host side of the ADB transport, when there is no
//!   adb server (`autoplay demo` without `adb` installed).
//! - [`select`]: picks the device like adb does (`-s`, `ANDROID_SERIAL`, the only one).
//! - [`input`]: the tap channel (a long-lived pipelined shell with `input tap` or `sendevent`
//!   lines, or [`raw`] touch records streamed into the touch panel).
//! - [`screen`]: screenshots, raw or PNG, whichever measured faster.

pub mod channel;
pub mod direct;
pub mod input;
pub mod raw;
pub mod screen;
mod server;

pub use server::{DEFAULT_PORT, DeviceEntry, Server, parse_devices};

use adb_client::ADBDeviceExt;
use adb_client::server_device::ADBServerDevice;
use direct::Direct;
use std::io::{Read, Write};
use std::net::SocketAddrV4;
use std::sync::mpsc;
use std::time::{Duration, Instant};

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

/// Default timeout of one short device call.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(15);

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

    fn adb(&self, server: &Server) -> ADBServerDevice {
        ADBServerDevice::new(self.serial.clone(), Some(server.addr))
    }

    /// Runs `command` in the device shell; the exit code comes from an appended `; echo rc=$?`.
    pub fn shell(&self, command: &str, timeout: Duration) -> Result<ShellOutput, DeviceError> {
        let full = format!("{command}; echo rc=$?");
        let what = format!("`adb shell {command}` on {}", self.serial);
        let out = match &self.route {
            Route::Server(server) => {
                let mut adb = self.adb(server);
                with_timeout(&what, timeout, move || {
                    let mut out = Vec::new();
                    adb.shell_command(&full, Some(&mut out), None)
                        .map_err(|e| DeviceError::Adb(e.to_string()))?;
                    Ok(out)
                })
                .map_err(|e| self.explain(e))?
            }
            Route::Direct(d) => {
                let d = d.clone();
                with_timeout(&what, timeout, move || d.run(&format!("shell:{full}")))?
            }
        };
        let text = String::from_utf8_lossy(&out).replace("\r\n", "\n");
        let body = text.trim_end_matches('\n');
        let (stdout, last) = match body.rsplit_once('\n') {
            Some((head, last)) => (format!("{head}\n"), last),
            None => (String::new(), body),
        };
        let code = last
            .strip_prefix("rc=")
            .and_then(|c| c.trim().parse().ok())
            .ok_or_else(|| {
                DeviceError::Adb(format!("{what}: no exit status in the output {text:?}"))
            })?;
        Ok(ShellOutput { stdout, code })
    }

    /// Runs `command` with `exec:` (raw bytes, no pty) and returns its whole output.
    pub fn exec(&self, command: &str, timeout: Duration) -> Result<Vec<u8>, DeviceError> {
        let what = format!("`adb exec-out {command}` on {}", self.serial);
        let mut adb = match &self.route {
            Route::Server(server) => self.adb(server),
            Route::Direct(d) => {
                let (d, service) = (d.clone(), format!("exec:{command}"));
                return with_timeout(&what, timeout, move || d.run(&service));
            }
        };
        let (tx, rx) = mpsc::channel::<Vec<u8>>();
        let (status_tx, status_rx) = mpsc::channel();
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let cmd = command.to_string();
        // The crate returns once stdin is copied (here: at once) while the output arrives on a
        // thread of its own, which drops the writer (closing `rx`) when the device closes the
        // stream. Dropping the crate's device object shuts the socket down, so this thread keeps
        // it alive until we are done reading.
        std::thread::Builder::new()
            .name("adb-exec".into())
            .spawn(move || {
                let r = adb.exec(&cmd, &mut std::io::empty(), Box::new(ChannelWriter(tx)));
                let _ = status_tx.send(r.map_err(|e| DeviceError::Adb(e.to_string())));
                let _ = done_rx.recv();
                drop(adb);
            })?;
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        let result = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(chunk) => out.extend_from_slice(&chunk),
                Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    break Err(DeviceError::Timeout {
                        what: what.clone(),
                        secs: timeout.as_secs_f64(),
                    });
                }
            }
        };
        drop(done_tx);
        result?;
        match status_rx.recv_timeout(Duration::from_secs(1)) {
            Ok(Err(e)) => Err(self.explain(e)),
            _ => Ok(out),
        }
    }

    /// An interactive shell: `input` is fed to it, its output goes to `output` (dropped when
    /// the shell ends). Blocks until the shell is over.
    pub(crate) fn interactive_shell(
        &self,
        input: &mut dyn Read,
        output: Box<dyn Write + Send>,
    ) -> Result<(), DeviceError> {
        match &self.route {
            Route::Server(server) => self
                .adb(server)
                .shell(input, output)
                .map_err(|e| self.explain(DeviceError::Adb(e.to_string()))),
            Route::Direct(d) => d.interactive(input, output),
        }
    }

    /// A failed call, explained when its cause is the adb server gone: the same sentence
    /// wherever the server died (a refused connection, a stream cut mid-frame).
    pub(crate) fn explain(&self, e: DeviceError) -> DeviceError {
        match (&self.route, &e) {
            (Route::Server(server), DeviceError::Adb(_) | DeviceError::Io(_))
                if server.version().is_err() =>
            {
                server.gone()
            }
            _ => e,
        }
    }

    /// A long-lived `exec:` stream (binary both ways, no pty): `input` is fed to `command`'s
    /// stdin, its output goes to `output` (dropped when the device closes the stream). Blocks
    /// until the input ends or the device closes the stream.
    pub(crate) fn exec_stream(
        &self,
        command: &str,
        input: &mut dyn Read,
        output: Box<dyn Write + Send>,
    ) -> Result<(), DeviceError> {
        match &self.route {
            Route::Server(server) => self
                .adb(server)
                .exec(command, input, output)
                .map_err(|e| self.explain(DeviceError::Adb(e.to_string()))),
            Route::Direct(d) => d.bidirectional(&format!("exec:{command}"), input, output),
        }
    }

    /// Why the device may have gone away, for an error message.
    pub(crate) fn why_unreachable(&self) -> String {
        match &self.route {
            Route::Server(server) if server.version().is_err() => server.gone().to_string(),
            Route::Server(_) => "is it still plugged in? check `adb devices`".to_string(),
            Route::Direct(d) => format!("is the phone at {} still running?", d.addr()),
        }
    }

    /// `getprop KEY`, trimmed.
    pub fn getprop(&self, key: &str) -> Result<String, DeviceError> {
        Ok(self
            .shell(&format!("getprop {key}"), CALL_TIMEOUT)?
            .stdout
            .trim()
            .to_string())
    }

    /// The display size from `wm size` (an override size wins, as on the screen).
    pub fn screen_size(&self) -> Result<(u32, u32), DeviceError> {
        let out = self.shell("wm size", CALL_TIMEOUT)?.stdout;
        parse_wm_size(&out).ok_or_else(|| {
            DeviceError::Adb(format!(
                "cannot read the screen size from `wm size`: {out:?}"
            ))
        })
    }
}

/// `Physical size: 1080x2400` / `Override size: 720x1600`.
pub fn parse_wm_size(text: &str) -> Option<(u32, u32)> {
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
/// dropped.
pub(crate) struct ChannelReader {
    rx: mpsc::Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl ChannelReader {
    pub(crate) fn new(rx: mpsc::Receiver<Vec<u8>>) -> Self {
        ChannelReader {
            rx,
            buf: Vec::new(),
            pos: 0,
        }
    }
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.pos == self.buf.len() {
            match self.rx.recv() {
                Ok(chunk) => {
                    self.buf = chunk;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

struct ChannelWriter(mpsc::Sender<Vec<u8>>);

impl Write for ChannelWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .send(buf.to_vec())
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "reader gone"))?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `f` on a worker thread and gives up after `timeout` (the thread is abandoned: the crate's
/// sockets have no timeouts of their own).
pub fn with_timeout<T: Send + 'static>(
    what: &str,
    timeout: Duration,
    f: impl FnOnce() -> Result<T, DeviceError> + Send + 'static,
) -> Result<T, DeviceError> {
    let (tx, rx) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("adb-call".into())
        .spawn(move || {
            let _ = tx.send(f());
        })?;
    match rx.recv_timeout(timeout) {
        Ok(r) => r,
        Err(_) => Err(DeviceError::Timeout {
            what: what.to_string(),
            secs: timeout.as_secs_f64(),
        }),
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

    #[test]
    fn timeouts_fire() {
        let r: Result<(), _> = with_timeout("sleepy call", Duration::from_millis(50), || {
            std::thread::sleep(Duration::from_secs(2));
            Ok(())
        });
        let e = r.unwrap_err().to_string();
        assert!(e.contains("sleepy call timed out after 0.1 s"), "{e}");
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
