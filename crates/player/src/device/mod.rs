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
//! - [`android`]: every Android command the player runs (`wm size`, `dumpsys`, `uiautomator
//!   dump`, keys, ...), each one typed call on [`Device`] with its parser.
//! - [`tap`]: the tap channel (a long-lived pipelined shell with `input tap` or `sendevent`
//!   lines, touch records streamed into the touch panel, or the on-phone injector).
//! - [`screen`]: screenshots, raw or PNG, whichever measured faster.

pub mod android;
pub mod direct;
mod refusal;
pub mod screen;
mod server;
pub mod tap;
mod transport;

pub use refusal::Refusal;
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
        "no device connected: plug in a phone with USB debugging on (check `adb devices`), or \
             `adb connect HOST:PORT` a network device"
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
    /// The phone answers, but its system server is not up yet (a phone still starting): what
    /// it said, in words.
    #[error("{0}")]
    Starting(String),
    /// The phone refuses input injected from the adb shell: no tap channel can work.
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error("adb connection: {0}")]
    Io(#[from] std::io::Error),
}

impl DeviceError {
    /// What the command line offers: no phone, the simulated one.
    pub fn remedies(&self) -> Vec<crate::remedy::Remedy> {
        match self {
            DeviceError::NoDevices => vec![crate::remedy::Remedy::Demo],
            _ => Vec::new(),
        }
    }
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
pub(crate) const STREAM_TIMEOUT: Duration = Duration::from_secs(10);

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
        self.stream_on_thread_lingering(name, service, output, failed, STREAM_TIMEOUT)
    }

    /// [`Device::stream_on_thread`], the device given `linger` to close the stream once the
    /// input is over (zero: closed at once).
    pub(crate) fn stream_on_thread_lingering(
        &self,
        name: &str,
        service: String,
        output: Box<dyn Write + Send>,
        failed: impl FnOnce(DeviceError) + Send + 'static,
        linger: Duration,
    ) -> Option<mpsc::Sender<Vec<u8>>> {
        let (tx, rx) = mpsc::channel();
        let device = self.clone();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let mut reader = ChannelReader::new(rx);
                if let Err(e) = device.pipe(&service, &mut reader, output, linger) {
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
        linger: Duration,
    ) -> Result<(), DeviceError> {
        let what = format!("opening `{service}` on {}", self.serial);
        let stream = self
            .route
            .transport()
            .open(&self.serial, service, STREAM_TIMEOUT)
            .map_err(|e| self.failed(e, &what, STREAM_TIMEOUT))?;
        tracing::trace!(serial = %self.serial, service, "stream open");
        let done = stream.pump(input, output, linger);
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
