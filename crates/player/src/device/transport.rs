//! One way to a device's services, whatever the route: a [`Transport`] opens a service
//! (`shell:...`, `exec:...`, `shell,raw:`) as a [`Stream`]. The adb server's route
//! ([`super::Server`]: `host:transport:SERIAL`, then the service, on a socket of our own) and the
//! direct route ([`super::direct::Direct`]: our host side of the ADB transport) implement it.
//!
//! Nothing here blocks without a bound: opening waits at most the caller's timeout (connect, the
//! server's and the device's answers), every write on a stream at most that long again, and a
//! read either until a deadline ([`Stream::read_to_end`]) or until the stream is closed, which
//! its owner does when it lets go ([`Stream::pump`]): no thread is ever left waiting behind a
//! caller that gave up.

use super::DeviceError;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How a device's services are reached (see the module docs).
pub(crate) trait Transport: std::fmt::Debug + Send + Sync {
    /// Opens `service` on the device `serial` (the direct route has one device and ignores it).
    /// Each step of opening, and each later write on the stream, waits at most `timeout`; an
    /// `Io` error of kind `TimedOut` or `WouldBlock` means that bound was hit.
    fn open(&self, serial: &str, service: &str, timeout: Duration) -> Result<Stream, DeviceError>;

    /// A failed call's error, explained when its cause is the route itself (the adb server
    /// gone): the same sentence wherever that happened.
    fn explain(&self, e: DeviceError) -> DeviceError {
        e
    }
}

/// The incoming half of a [`Stream`].
pub(crate) trait StreamRead: Read + Send {
    /// Bounds each following read (`None`: wait as long as the stream is open).
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()>;
}

/// The outgoing half of a [`Stream`]; each write is bounded by the route's timeout.
pub(crate) trait StreamWrite: Write + Send {
    /// Closes the stream both ways: a read blocked on the incoming half returns (end of stream).
    fn close(&mut self);
}

/// One open service on a device: bytes both ways. Dropping it closes it.
pub(crate) struct Stream {
    reader: Box<dyn StreamRead>,
    writer: Box<dyn StreamWrite>,
}

impl Stream {
    pub(crate) fn new(reader: Box<dyn StreamRead>, writer: Box<dyn StreamWrite>) -> Self {
        Stream { reader, writer }
    }

    /// A stream on its own socket (the adb server's route): the socket's write timeout is the
    /// writes' bound, and shutting it down ends a blocked read.
    pub(crate) fn tcp(socket: TcpStream) -> io::Result<Self> {
        Ok(Stream::new(Box::new(socket.try_clone()?), Box::new(socket)))
    }

    /// Everything the service writes until it closes the stream; an error of kind `TimedOut`
    /// at `deadline`.
    pub(crate) fn read_to_end(mut self, deadline: Instant) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            self.reader.set_read_timeout(Some(left(deadline)?))?;
            match self.reader.read(&mut buf) {
                Ok(0) => return Ok(out),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Copies `input` into the stream until it ends, while a thread copies the stream's output
    /// to `output` (dropped when the stream ends, which is how its owner learns it). Once the
    /// input is over (the caller sent `exit`, or dropped its sender) the device gets `linger`
    /// to close the stream; then it is closed here, and the thread ends before this returns.
    pub(crate) fn pump(
        self,
        input: &mut dyn Read,
        mut output: Box<dyn Write + Send>,
        linger: Duration,
    ) -> io::Result<()> {
        let Stream {
            mut reader,
            mut writer,
        } = self;
        // A long-lived stream may be idle for long: its reads end when it is closed.
        reader.set_read_timeout(None)?;
        let (ended_tx, ended) = mpsc::channel::<()>();
        let copier = std::thread::Builder::new()
            .name("adb-stream".into())
            .spawn(move || {
                let _ = io::copy(&mut reader, &mut output);
                drop(output);
                drop(ended_tx);
            })?;
        let sent = io::copy(input, &mut writer);
        if sent.is_ok() {
            let _ = ended.recv_timeout(linger);
        }
        writer.close();
        let _ = copier.join();
        sent.map(|_| ())
    }
}

impl StreamRead for TcpStream {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        TcpStream::set_read_timeout(self, timeout)
    }
}

impl StreamWrite for TcpStream {
    fn close(&mut self) {
        let _ = self.shutdown(Shutdown::Both);
    }
}

/// Whether `e` says a bound of [`Transport::open`] or [`Stream::read_to_end`] was hit (a
/// socket's timeout reads as `WouldBlock` on Unix).
pub(crate) fn is_timeout(e: &DeviceError) -> bool {
    matches!(e, DeviceError::Io(e) if matches!(e.kind(), io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock))
}

/// The time left until `deadline`; an error of kind `TimedOut` once it has passed (a zero
/// socket timeout would mean "none").
pub(crate) fn left(deadline: Instant) -> io::Result<Duration> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        Err(io::ErrorKind::TimedOut.into())
    } else {
        Ok(left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;
    use std::sync::{Arc, Mutex};

    /// Collects what it is given; says when it was dropped.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<(Vec<u8>, bool)>>);

    struct Output(Sink);

    impl Write for Output {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.0.lock().unwrap().0.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Drop for Output {
        fn drop(&mut self) {
            self.0.0.lock().unwrap().1 = true;
        }
    }

    /// A connected pair: our stream, and the "device" end.
    fn pair() -> (Stream, TcpStream) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let ours = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (theirs, _) = l.accept().unwrap();
        theirs
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        (Stream::tcp(ours).unwrap(), theirs)
    }

    #[test]
    fn a_stream_the_device_keeps_open_is_closed_after_the_linger() {
        let (stream, mut device) = pair();
        let sink = Sink::default();
        let start = Instant::now();
        let linger = Duration::from_millis(200);
        let mut input: &[u8] = b"exit\n";
        stream
            .pump(&mut input, Box::new(Output(sink.clone())), linger)
            .unwrap();
        let took = start.elapsed();
        assert!(took >= linger && took < Duration::from_secs(2), "{took:?}");
        // The output thread has ended (the sink is dropped) and the device sees the close.
        assert!(sink.0.lock().unwrap().1, "the output was dropped");
        let mut got = Vec::new();
        device.read_to_end(&mut got).expect("closed, not left open");
        assert_eq!(got, b"exit\n");
    }

    #[test]
    fn a_stream_the_device_closes_ends_at_once_with_its_output() {
        let (stream, mut device) = pair();
        let sink = Sink::default();
        let answer = std::thread::spawn(move || {
            let mut line = [0u8; 5];
            device.read_exact(&mut line).unwrap();
            device.write_all(b"bye\n").unwrap();
        });
        let start = Instant::now();
        let mut input: &[u8] = b"exit\n";
        stream
            .pump(
                &mut input,
                Box::new(Output(sink.clone())),
                Duration::from_secs(30),
            )
            .unwrap();
        answer.join().unwrap();
        assert!(start.elapsed() < Duration::from_secs(5));
        let out = sink.0.lock().unwrap();
        assert_eq!((out.0.as_slice(), out.1), (&b"bye\n"[..], true));
    }

    #[test]
    fn reading_to_the_end_stops_at_the_deadline() {
        let (stream, _device) = pair();
        let start = Instant::now();
        let e = stream
            .read_to_end(Instant::now() + Duration::from_millis(200))
            .unwrap_err();
        assert!(
            matches!(
                e.kind(),
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
            ),
            "{e}"
        );
        assert!(start.elapsed() < Duration::from_secs(2));
        assert!(is_timeout(&DeviceError::Io(e)));
    }
}
