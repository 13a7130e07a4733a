//! The adb server's host protocol: list, track and connect devices, and open a device's
//! services (the server's side of [`Transport`]).
//!
//! Requests are `XXXX<service>` (4 hex digits of length), answers `OKAY` or `FAIL` + a
//! length-prefixed message. A device's service is two requests on one socket:
//! `host:transport:SERIAL`, then the service (`shell:...`, `exec:...`), after which the socket
//! is the service's stream. This is small enough to speak directly, on sockets with timeouts;
//! ARCHITECTURE.md says why `adb_client` does not carry it. The server's device lists are read
//! word by word ([`parse_devices`]; `tests/it/device_adb.rs` checks it against `adb_client`'s
//! parser, which the library does not link: that crate always brings RSA and TLS).

use super::DeviceError;
use super::transport::{self, Stream, Transport};
use std::io::{Read, Write};
use std::net::{SocketAddrV4, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

/// The adb server's default port.
pub const DEFAULT_PORT: u16 = 5037;

/// Longest answer we accept from the server (device lists are tiny).
const MAX_ANSWER: usize = 1 << 20;

/// Longest wait for a connection to the server.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// Longest wait for the server's answer to a host request, and for a write to it.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// An adb server, local or remote (`-H HOST -P PORT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Server {
    pub addr: SocketAddrV4,
}

/// One line of `adb devices -l`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DeviceEntry {
    pub serial: String,
    /// `device`, `offline`, `unauthorized`, ...
    pub state: String,
    pub model: String,
    pub product: String,
    pub device: String,
    pub transport_id: Option<u32>,
}

impl DeviceEntry {
    pub fn is_ready(&self) -> bool {
        self.state == "device"
    }
}

impl Server {
    pub fn new(addr: SocketAddrV4) -> Self {
        Server { addr }
    }

    /// The server at 127.0.0.1:`port`.
    pub fn local(port: u16) -> Self {
        Server::new(SocketAddrV4::new(std::net::Ipv4Addr::LOCALHOST, port))
    }

    pub fn is_local(&self) -> bool {
        self.addr.ip().is_loopback()
    }

    /// The error for a server that stopped answering.
    pub fn gone(&self) -> DeviceError {
        DeviceError::ServerGone {
            addr: self.addr,
            command: self.adb_command("start-server"),
        }
    }

    /// `adb ARGS` as a user types it for this server: `-P PORT` unless it is the default port.
    pub fn adb_command(&self, args: &str) -> String {
        match self.addr.port() {
            DEFAULT_PORT => format!("adb {args}"),
            port => format!("adb -P {port} {args}"),
        }
    }

    /// Makes sure a server answers; starts a local one with `adb start-server` if none does.
    pub fn ensure_running(&self) -> Result<(), DeviceError> {
        if self.version().is_ok() {
            return Ok(());
        }
        if !self.is_local() {
            return Err(DeviceError::ServerUnreachable {
                addr: self.addr,
                hint: format!(
                    "start it on that machine with `{}` (`{}` listens beyond loopback)",
                    self.adb_command("start-server"),
                    self.adb_command("-a nodaemon server")
                ),
            });
        }
        let status = Command::new("adb")
            .args(["-P", &self.addr.port().to_string(), "start-server"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .output();
        match status {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(DeviceError::NoAdb),
            Err(e) => Err(DeviceError::Adb(format!(
                "cannot run `{}`: {e}",
                self.adb_command("start-server")
            ))),
            Ok(out) if !out.status.success() => Err(DeviceError::Adb(format!(
                "`{}` failed: {}",
                self.adb_command("start-server"),
                String::from_utf8_lossy(&out.stderr).trim()
            ))),
            Ok(_) => self.version().map(|_| ()),
        }
    }

    /// `host:version`: the server's protocol version.
    pub fn version(&self) -> Result<u32, DeviceError> {
        let answer = self.request("host:version")?;
        u32::from_str_radix(answer.trim(), 16).map_err(|_| {
            DeviceError::Adb(format!("odd version answer from adb server: {answer:?}"))
        })
    }

    /// `host:devices-l`.
    pub fn devices(&self) -> Result<Vec<DeviceEntry>, DeviceError> {
        Ok(parse_devices(&self.request("host:devices-l")?))
    }

    /// `host:connect:HOST:PORT` (`adb connect`). Returns the server's message.
    pub fn connect(&self, target: &str) -> Result<String, DeviceError> {
        let msg = self.request(&format!("host:connect:{target}"))?;
        if msg.contains("connected to") {
            Ok(msg)
        } else {
            Err(DeviceError::Adb(format!("adb connect {target}: {msg}")))
        }
    }

    /// `host:disconnect:HOST:PORT`.
    pub fn disconnect(&self, target: &str) -> Result<String, DeviceError> {
        self.request(&format!("host:disconnect:{target}"))
    }

    /// `host:track-devices-l`: calls `on_change` with the full list each time it changes, until
    /// it returns false or the server goes away.
    pub fn track(
        &self,
        mut on_change: impl FnMut(Vec<DeviceEntry>) -> bool,
    ) -> Result<(), DeviceError> {
        let mut s = self.host("host:track-devices-l", None)?;
        loop {
            let body = read_hex_block(&mut s)?;
            if !on_change(parse_devices(&body)) {
                return Ok(());
            }
        }
    }

    /// One request, one length-prefixed answer (empty for `OKAY` with no body).
    fn request(&self, service: &str) -> Result<String, DeviceError> {
        let mut s = self.host(service, Some(REQUEST_TIMEOUT))?;
        // Some services answer with a bare OKAY and close.
        match read_hex_block(&mut s) {
            Ok(body) => Ok(body),
            Err(DeviceError::Io(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                Ok(String::new())
            }
            Err(e) => Err(e),
        }
    }

    /// A host request on a new socket whose reads then wait at most `timeout` (`None`: as long
    /// as the server lives, for `track`).
    fn host(&self, service: &str, timeout: Option<Duration>) -> Result<TcpStream, DeviceError> {
        let mut s =
            TcpStream::connect_timeout(&self.addr.into(), CONNECT_TIMEOUT).map_err(|e| {
                DeviceError::ServerUnreachable {
                    addr: self.addr,
                    hint: format!("{e}; start it with `{}`", self.adb_command("start-server")),
                }
            })?;
        s.set_read_timeout(Some(REQUEST_TIMEOUT))?;
        s.set_write_timeout(Some(REQUEST_TIMEOUT))?;
        send_request(&mut s, service)?;
        s.set_read_timeout(timeout)?;
        Ok(s)
    }
}

impl Transport for Server {
    /// `host:transport:SERIAL`, then `service`, each answer awaited until the deadline. A
    /// refused connection is an `Io` error here, which [`Transport::explain`] turns into "the
    /// server is gone" if it no longer answers.
    fn open(&self, serial: &str, service: &str, timeout: Duration) -> Result<Stream, DeviceError> {
        let deadline = Instant::now() + timeout;
        let mut s = TcpStream::connect_timeout(&self.addr.into(), CONNECT_TIMEOUT.min(timeout))?;
        s.set_nodelay(true)?;
        s.set_write_timeout(Some(timeout))?;
        for request in [&format!("host:transport:{serial}"), service] {
            s.set_read_timeout(Some(transport::left(deadline)?))?;
            send_request(&mut s, request)?;
        }
        Ok(Stream::tcp(s)?)
    }

    fn explain(&self, e: DeviceError) -> DeviceError {
        match e {
            DeviceError::Adb(_) | DeviceError::Io(_) if self.version().is_err() => self.gone(),
            e => e,
        }
    }
}

/// Sends one request and reads the server's `OKAY`, or its `FAIL` and message as an error.
fn send_request(s: &mut TcpStream, service: &str) -> Result<(), DeviceError> {
    s.write_all(format!("{:04x}{service}", service.len()).as_bytes())?;
    let mut status = [0u8; 4];
    s.read_exact(&mut status)?;
    match &status {
        b"OKAY" => Ok(()),
        b"FAIL" => Err(DeviceError::Adb(read_hex_block(s)?)),
        other => Err(DeviceError::Adb(format!(
            "unexpected answer {:?} from the adb server",
            String::from_utf8_lossy(other)
        ))),
    }
}

fn read_hex_block(s: &mut TcpStream) -> Result<String, DeviceError> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len)?;
    let n = std::str::from_utf8(&len)
        .ok()
        .and_then(|t| usize::from_str_radix(t, 16).ok())
        .filter(|&n| n <= MAX_ANSWER)
        .ok_or_else(|| {
            DeviceError::Adb(format!(
                "bad length {:?} from the adb server",
                String::from_utf8_lossy(&len)
            ))
        })?;
    let mut body = vec![0u8; n];
    s.read_exact(&mut body)?;
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// Parses `adb devices -l` lines: `SERIAL  STATE [usb:PORT] product:P model:M device:D
/// transport_id:N`. The state is every word up to the first `key:value`, so a state with spaces
/// (adb's `no permissions (...)`) reaches the user as adb says it.
pub fn parse_devices(text: &str) -> Vec<DeviceEntry> {
    text.lines().filter_map(parse_words).collect()
}

/// One device line, by its words.
fn parse_words(line: &str) -> Option<DeviceEntry> {
    let mut words = line.split_whitespace();
    let serial = words.next()?.to_string();
    let mut state = Vec::new();
    let mut e = DeviceEntry {
        serial,
        state: String::new(),
        model: String::new(),
        product: String::new(),
        device: String::new(),
        transport_id: None,
    };
    for w in words {
        match w.split_once(':') {
            Some(("model", v)) => e.model = v.to_string(),
            Some(("product", v)) => e.product = v.to_string(),
            Some(("device", v)) => e.device = v.to_string(),
            Some(("transport_id", v)) => e.transport_id = v.parse().ok(),
            Some(_) => {}
            None if e.transport_id.is_none() && e.model.is_empty() => state.push(w),
            None => {}
        }
    }
    e.state = state.join(" ");
    (!e.state.is_empty()).then_some(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_devices_l() {
        let text = "127.0.0.1:5555         device product:panther model:Pixel_7 device:panther transport_id:3\n\
                    emulator-5554 offline transport_id:1\nR58M unauthorized usb:1-1 transport_id:2\n";
        let d = parse_devices(text);
        assert_eq!(d.len(), 3);
        assert_eq!(d[0].serial, "127.0.0.1:5555");
        assert_eq!(d[0].model, "Pixel_7");
        assert_eq!(d[0].transport_id, Some(3));
        assert!(d[0].is_ready());
        assert!(!d[1].is_ready());
        assert_eq!(d[2].state, "unauthorized");
    }

    #[test]
    fn states_with_spaces_keep_their_words() {
        let text = "0123ABCD       no permissions (missing udev rules? user is in the plugdev group); \
                    see [http://developer.android.com/tools/device.html] usb:1-1 transport_id:1\n\
                    emulator-5554 sideload product:sdk model:x device:generic transport_id:4\n\
                    \n";
        let d = parse_devices(text);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].serial, "0123ABCD");
        assert!(
            d[0].state
                .starts_with("no permissions (missing udev rules?"),
            "{:?}",
            d[0].state
        );
        assert_eq!(d[0].transport_id, Some(1));
        assert!(!d[0].is_ready());
        assert_eq!(
            (d[1].state.as_str(), d[1].model.as_str()),
            ("sideload", "x")
        );
    }
}
