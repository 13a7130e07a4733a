//! The host side of the ADB transport protocol over TCP, for when there is no adb server:
//! `autoplay demo` without `adb` installed talks to the simulated phone this way.
//!
//! A [`Direct`] is one device address. Its connection does the `CNXN` handshake, then
//! multiplexes streams with `OPEN` / `OKAY` / `WRTE` / `CLSE` (AOSP's `protocol.txt`): a reader
//! thread routes each packet to its stream and acknowledges every `WRTE` at once; a stream's
//! writer keeps one `WRTE` in flight until the device's `OKAY` (classic flow control). A
//! connection that dropped is reopened by the next stream, so the tap channel's reconnect works
//! here as it does through the adb server. It is the direct side of [`Transport`]: the
//! handshake, each `OPEN` and each `WRTE` wait for the device at most a timeout, and the
//! connection's reader thread ends when the last [`Direct`] for it is dropped.
//!
//! Not supported: `AUTH` (a device that asks for it gets an error saying to use the adb server),
//! TLS, and the sync (file transfer) protocol.

use super::transport::{Stream, StreamRead, StreamWrite, Transport};
use super::{ChannelReader, DeviceError};
use crate::adb_packet::{AUTH_TOKEN, Command, HEADER_LEN, Header, MAX_PAYLOAD, Packet, VERSION};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::time::Duration;

/// How long the handshake and each `WRTE` may wait for the device.
const REPLY_TIMEOUT: Duration = Duration::from_secs(10);

/// A device reached over TCP without an adb server.
#[derive(Clone)]
pub struct Direct {
    addr: SocketAddr,
    conn: Arc<Slot>,
}

/// The connection of a [`Direct`] and its clones, shut down when the last of them is dropped
/// (which ends its reader thread).
struct Slot(Mutex<Option<Arc<Conn>>>);

impl Slot {
    fn lock(&self) -> MutexGuard<'_, Option<Arc<Conn>>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(conn) = self.lock().take() {
            conn.shutdown();
        }
    }
}

impl std::fmt::Debug for Direct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Direct({})", self.addr)
    }
}

impl PartialEq for Direct {
    fn eq(&self, other: &Self) -> bool {
        self.addr == other.addr
    }
}

impl Eq for Direct {}

impl Direct {
    /// Connects to the device at `addr` (handshake included), so that a wrong address fails here.
    pub fn connect(addr: SocketAddr) -> Result<Self, DeviceError> {
        let direct = Direct {
            addr,
            conn: Arc::new(Slot(Mutex::new(None))),
        };
        direct.live()?;
        Ok(direct)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The open connection, reconnecting if there is none or it dropped.
    fn live(&self) -> Result<Arc<Conn>, DeviceError> {
        let mut slot = self.conn.lock();
        if let Some(conn) = slot.as_ref().filter(|c| c.alive.load(Ordering::Acquire)) {
            return Ok(conn.clone());
        }
        let conn = Conn::connect(self.addr)?;
        *slot = Some(conn.clone());
        Ok(conn)
    }

    /// Opens a stream to `service`; the device has `timeout` to answer.
    fn open_stream(&self, service: &str, timeout: Duration) -> Result<Stream, DeviceError> {
        let conn = self.live()?;
        let local = conn.next_id.fetch_add(1, Ordering::Relaxed);
        let (data_tx, data_rx) = mpsc::channel();
        let (ack_tx, ack_rx) = mpsc::channel();
        conn.routes().insert(
            local,
            Route {
                data: data_tx,
                acks: ack_tx,
            },
        );
        let mut payload = service.as_bytes().to_vec();
        payload.push(0);
        conn.send(&Packet::new(Command::Open, local, 0, payload))?;
        let refused = || {
            DeviceError::Adb(format!(
                "the device at {} refused or dropped `{service}`",
                self.addr
            ))
        };
        let remote = match ack_rx.recv_timeout(timeout) {
            Ok(remote) => remote,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                conn.routes().remove(&local);
                return Err(std::io::Error::from(std::io::ErrorKind::TimedOut).into());
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(refused()),
        };
        // Its incoming half: EOF once the route is dropped (the device closed the stream).
        let reader = ChannelReader::new(data_rx);
        let writer = StreamWriter {
            conn,
            local,
            remote,
            acks: ack_rx,
        };
        Ok(Stream::new(Box::new(reader), Box::new(writer)))
    }
}

impl Transport for Direct {
    fn open(&self, _serial: &str, service: &str, timeout: Duration) -> Result<Stream, DeviceError> {
        self.open_stream(service, timeout)
    }

    fn why_unreachable(&self) -> String {
        format!("is the phone at {} still running?", self.addr)
    }
}

/// Where a stream's incoming packets go. Dropping it (on `CLSE` or a lost connection) is what
/// tells the stream it is closed.
struct Route {
    data: mpsc::Sender<Vec<u8>>,
    /// The remote id from each `OKAY`: first the answer to `OPEN`, then one per `WRTE`.
    acks: mpsc::Sender<u32>,
}

/// One TCP connection after the handshake.
struct Conn {
    writer: Mutex<TcpStream>,
    routes: Mutex<HashMap<u32, Route>>,
    next_id: AtomicU32,
    max_payload: usize,
    alive: AtomicBool,
}

impl Conn {
    fn connect(addr: SocketAddr) -> Result<Arc<Conn>, DeviceError> {
        let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(3))
            .map_err(|e| DeviceError::Adb(format!("cannot reach the device at {addr}: {e}")))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(REPLY_TIMEOUT))?;
        stream.set_write_timeout(Some(REPLY_TIMEOUT))?;
        let banner = b"host::\0".to_vec();
        stream.write_all(&Packet::new(Command::Cnxn, VERSION, MAX_PAYLOAD, banner).encode())?;
        let max_payload = loop {
            let p = read_packet(&mut stream).map_err(|e| {
                DeviceError::Adb(format!(
                    "no ADB handshake from {addr} ({e}): is it a device?"
                ))
            })?;
            match p.command {
                Command::Cnxn => break p.arg1.clamp(256, MAX_PAYLOAD) as usize,
                Command::Auth if p.arg0 == AUTH_TOKEN => {
                    return Err(DeviceError::Adb(format!(
                        "the device at {addr} asks for authentication, which only the adb server \
                         does: install adb (Debian/Ubuntu: `sudo apt-get install adb`)"
                    )));
                }
                _ => {}
            }
        };
        stream.set_read_timeout(None)?;
        let mut read_half = stream.try_clone()?;
        let conn = Arc::new(Conn {
            writer: Mutex::new(stream),
            routes: Mutex::new(HashMap::new()),
            next_id: AtomicU32::new(1),
            max_payload,
            alive: AtomicBool::new(true),
        });
        let reader = conn.clone();
        std::thread::Builder::new()
            .name("direct-adb".into())
            .spawn(move || reader.route_incoming(&mut read_half))?;
        Ok(conn)
    }

    fn routes(&self) -> MutexGuard<'_, HashMap<u32, Route>> {
        self.routes.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn send(&self, packet: &Packet) -> std::io::Result<()> {
        let mut w = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        w.write_all(&packet.encode())
    }

    /// Closes the socket both ways: the reader thread sees the end and closes every stream.
    fn shutdown(&self) {
        let w = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let _ = w.shutdown(std::net::Shutdown::Both);
    }

    /// The reader thread: routes packets to streams until the connection ends, then closes them all.
    fn route_incoming(&self, read: &mut TcpStream) {
        while let Ok(p) = read_packet(read) {
            // The device's id is arg0, ours arg1.
            let (remote, local) = (p.arg0, p.arg1);
            match p.command {
                Command::Okay => {
                    if let Some(r) = self.routes().get(&local) {
                        let _ = r.acks.send(remote);
                    }
                }
                Command::Wrte => {
                    let delivered = self
                        .routes()
                        .get(&local)
                        .is_some_and(|r| r.data.send(p.payload).is_ok());
                    let reply = if delivered {
                        Command::Okay
                    } else {
                        Command::Clse
                    };
                    if self
                        .send(&Packet::new(reply, local, remote, vec![]))
                        .is_err()
                    {
                        break;
                    }
                }
                Command::Clse => {
                    self.routes().remove(&local);
                }
                _ => {}
            }
        }
        self.alive.store(false, Ordering::Release);
        self.routes().clear();
        self.shutdown();
    }
}

/// Reads one packet; payloads over [`MAX_PAYLOAD`] are refused before any allocation.
fn read_packet(read: &mut impl Read) -> std::io::Result<Packet> {
    let mut head = [0u8; HEADER_LEN];
    read.read_exact(&mut head)?;
    let h = Header::decode(&head, MAX_PAYLOAD)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    let mut payload = vec![0u8; h.length as usize];
    read.read_exact(&mut payload)?;
    Ok(Packet::new(h.command, h.arg0, h.arg1, payload))
}

/// The outgoing half of a stream; dropping it closes the stream.
struct StreamWriter {
    conn: Arc<Conn>,
    local: u32,
    remote: u32,
    acks: mpsc::Receiver<u32>,
}

impl Write for StreamWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.conn.max_payload);
        let packet = Packet::new(Command::Wrte, self.local, self.remote, buf[..n].to_vec());
        self.conn.send(&packet)?;
        match self.acks.recv_timeout(REPLY_TIMEOUT) {
            Ok(_) => Ok(n),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the device did not acknowledge a write",
            )),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "the device closed the stream",
            )),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl StreamWrite for StreamWriter {
    /// Forgets the stream (its reader sees the end) and tells the device, once.
    fn close(&mut self) {
        if self.conn.routes().remove(&self.local).is_some() {
            let _ = self
                .conn
                .send(&Packet::new(Command::Clse, self.local, self.remote, vec![]));
        }
    }
}

impl Drop for StreamWriter {
    fn drop(&mut self) {
        self.close();
    }
}

impl StreamRead for ChannelReader {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> std::io::Result<()> {
        self.timeout = timeout;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    //! With fake devices on a socket; against the simulated phone: `tests/it/device_direct.rs`.
    use super::*;
    use crate::device::{CALL_TIMEOUT, Device};
    use std::net::TcpListener;
    use std::time::Instant;

    /// A fake device that shakes hands, then answers each packet with `reply` until the host
    /// closes the socket; the commands it saw, and how the socket ended.
    fn fake_device(
        reply: impl Fn(&Packet) -> Option<Packet> + Send + 'static,
    ) -> (
        SocketAddr,
        std::thread::JoinHandle<(Vec<Command>, std::io::ErrorKind)>,
    ) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let fake = std::thread::spawn(move || {
            let (mut s, _) = l.accept().unwrap();
            s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            assert_eq!(read_packet(&mut s).unwrap().command, Command::Cnxn);
            let banner = b"device::\0".to_vec();
            let cnxn = Packet::new(Command::Cnxn, VERSION, MAX_PAYLOAD, banner);
            s.write_all(&cnxn.encode()).unwrap();
            let mut seen = Vec::new();
            loop {
                match read_packet(&mut s) {
                    Ok(p) => {
                        seen.push(p.command);
                        if let Some(answer) = reply(&p) {
                            s.write_all(&answer.encode()).unwrap();
                        }
                    }
                    Err(e) => return (seen, e.kind()),
                }
            }
        });
        (addr, fake)
    }

    #[test]
    fn a_device_that_never_answers_times_out_and_nothing_waits_on() {
        let (addr, fake) = fake_device(|_| None);
        let device = Device::direct(Direct::connect(addr).unwrap());
        crate::device::tests::assert_times_out(&format!("`adb shell echo hi` on {addr}"), |t| {
            device.shell("echo hi", t)
        });
        // The last handle gone, the connection is closed: no thread of ours still reads it.
        drop(device);
        let (seen, end) = fake.join().unwrap();
        assert_eq!(seen, [Command::Open]);
        assert_eq!(
            end,
            std::io::ErrorKind::UnexpectedEof,
            "the host closed the socket"
        );
    }

    #[test]
    fn unknown_services_and_non_devices_are_errors() {
        // A device that refuses every service, as adbd refuses one it does not know.
        let (addr, _fake) = fake_device(|p| {
            (p.command == Command::Open).then(|| Packet::new(Command::Clse, 0, p.arg0, vec![]))
        });
        let d = Direct::connect(addr).unwrap();
        let deadline = Instant::now() + CALL_TIMEOUT;
        let e = d
            .open("", "nosuch:thing", CALL_TIMEOUT)
            .and_then(|s| Ok(s.read_to_end(deadline)?))
            .unwrap_err()
            .to_string();
        assert!(e.contains("refused"), "{e}");
        // Something that is not an ADB device: a listener that closes at once.
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        std::thread::spawn(move || drop(l.accept()));
        let e = Direct::connect(addr).unwrap_err().to_string();
        assert!(e.contains("no ADB handshake"), "{e}");
    }
}
