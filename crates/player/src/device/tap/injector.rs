//! The on-phone injector the `inject` channel (`inject.rs`) writes to: the dex (`injector/`, a
//! raw dex that `app_process` runs, as scrcpy runs its server), its protocol (16-byte records
//! in, one `ok SEQ` / `err SEQ ...` line out per record; see `injector/README.md`), how the
//! player pushes it (the ADB sync protocol, which says when the file is complete), and the
//! start-up check that finds a phone refusing injected input before the first tap
//! ([`Refusal`]). The simulated phone speaks the same protocol from these constants.

use crate::device::refusal::Refusal;
use crate::device::{CALL_TIMEOUT, Device, DeviceError};
use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::Instant;

/// The committed injector (`injector/autoplay-inject.dex`, checked against its smali source by
/// `injector/build.sh --check`).
pub const INJECTOR_DEX: &[u8] = include_bytes!("../../../../../injector/autoplay-inject.dex");

/// Its entry point.
pub const INJECTOR_CLASS: &str = "org.autoplay.inject.Main";

/// The protocol version its hello line announces (`VERSION` in `Main.smali`).
pub const INJECTOR_VERSION: u32 = 2;

/// Where the player pushes it (the shell user may write there on every Android version).
pub const INJECTOR_PATH: &str = "/data/local/tmp/autoplay-inject.dex";

/// Bytes per record.
pub const RECORD: usize = 16;

/// Record kinds.
pub const KIND_PING: u8 = 0;
pub const KIND_TAP: u8 = 1;
pub const KIND_DOWN: u8 = 2;
pub const KIND_UP: u8 = 3;
pub const KIND_MOVE: u8 = 4;
/// A `KEYCODE_UNKNOWN` down and up injected waiting for the dispatcher's verdict: answered `ok`
/// only where a refusal would have shown (`injector/README.md`, "The check").
pub const KIND_CHECK: u8 = 5;

/// The check's `err` reason when the screen was off before Android 13 (the dispatcher then
/// reports a dropped key as injected, so the check proved nothing).
pub const SCREEN_OFF: &str = "screen off";

/// One record: kind, three reserved zero bytes, then seq, x and y little-endian.
pub fn record(kind: u8, seq: u32, x: i32, y: i32) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[0] = kind;
    r[4..8].copy_from_slice(&seq.to_le_bytes());
    r[8..12].copy_from_slice(&x.to_le_bytes());
    r[12..16].copy_from_slice(&y.to_le_bytes());
    r
}

/// The command that starts the injector at `path` (`exec:` it: no pty).
pub fn start_command(path: &str) -> String {
    format!("CLASSPATH={path} app_process / {INJECTOR_CLASS}")
}

/// The SHA-1 signature in a dex file's header (bytes 12 to 31, lowercase hex): the dex format's
/// hash of everything after it, so it names the file's contents. The injector reports its own
/// file's in the hello line.
pub fn dex_signature(dex: &[u8]) -> Option<String> {
    let signature = dex.get(12..32)?;
    Some(signature.iter().map(|b| format!("{b:02x}")).collect())
}

/// The hello line the injector `dex` says on API level `sdk` (without its newline).
pub fn hello_line(sdk: u32, dex: &[u8]) -> String {
    let named = dex_signature(dex).unwrap_or_else(|| "unknown".into());
    format!("autoplay-inject {INJECTOR_VERSION} sdk={sdk} dex={named}")
}

/// A hello line, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    pub version: u32,
    /// `Build.VERSION.SDK_INT`.
    pub sdk: u32,
    /// The signature of the dex the injector was loaded from, as it read it; empty from a
    /// version-1 injector, which did not say.
    pub dex: String,
}

/// `autoplay-inject 2 sdk=34 dex=<40 hex digits>` (version 1 had no `dex=`).
pub fn parse_hello(line: &str) -> Option<Hello> {
    let mut words = line.trim().strip_prefix("autoplay-inject ")?.split(' ');
    let version = words.next()?.parse().ok()?;
    let sdk = words.next()?.strip_prefix("sdk=")?.parse().ok()?;
    let dex = match words.next() {
        Some(word) => word.strip_prefix("dex=")?.to_string(),
        None => String::new(),
    };
    if words.next().is_some() {
        return None;
    }
    Some(Hello { version, sdk, dex })
}

/// Why the injector that said `hello` is not the committed one: another protocol version, or
/// another dex (a build changed without a version bump).
fn stale(hello: &Hello) -> Option<String> {
    if hello.version != INJECTOR_VERSION {
        return Some(format!(
            "the injector on the phone speaks version {}, not {INJECTOR_VERSION}",
            hello.version
        ));
    }
    let ours = dex_signature(INJECTOR_DEX).unwrap_or_default();
    (hello.dex != ours).then(|| {
        format!(
            "the injector on the phone is the dex {}, not {ours}",
            hello.dex
        )
    })
}

/// One reply line: `Ok(seq)` for `ok SEQ`, `Err((seq, why))` for `err SEQ why`.
pub fn parse_reply(line: &str) -> Option<Result<u32, (u32, String)>> {
    let line = line.trim_end();
    if let Some(seq) = line.strip_prefix("ok ") {
        return seq.trim().parse().ok().map(Ok);
    }
    let rest = line.strip_prefix("err ")?;
    let (seq, why) = rest.split_once(' ').unwrap_or((rest, ""));
    Some(Err((seq.parse().ok()?, why.to_string())))
}

/// What the injector's stdout said so far.
#[derive(Default)]
struct Said {
    /// The hello line, parsed.
    hello: Option<Hello>,
    /// The highest `ok` seq.
    acked: u32,
    /// The first `err` (seq, why).
    error: Option<(u32, String)>,
    /// Lines that are neither hello nor replies (`Aborted`, `fatal ...`), up to a few KiB.
    other: String,
    /// The stream ended.
    ended: bool,
}

#[derive(Default)]
struct Replies {
    said: Mutex<Said>,
    cv: Condvar,
}

/// Parses the injector's output line by line; marks it ended when dropped.
struct ReplySink {
    replies: Arc<Replies>,
    line: Vec<u8>,
}

impl Write for ReplySink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut said = self.replies.said.lock().unwrap_or_else(|p| p.into_inner());
        for &b in buf {
            if b != b'\n' {
                if self.line.len() < 4096 {
                    self.line.push(b);
                }
                continue;
            }
            let line = String::from_utf8_lossy(&self.line).trim_end().to_string();
            self.line.clear();
            match parse_reply(&line) {
                Some(Ok(seq)) => said.acked = said.acked.max(seq),
                Some(Err(e)) => {
                    said.error.get_or_insert(e);
                }
                None => match parse_hello(&line) {
                    Some(h) if said.hello.is_none() => said.hello = Some(h),
                    _ => {
                        if said.other.len() < 4096 && !line.trim().is_empty() {
                            said.other.push_str(line.trim());
                            said.other.push('\n');
                        }
                    }
                },
            }
        }
        self.replies.cv.notify_all();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for ReplySink {
    fn drop(&mut self) {
        let mut said = self.replies.said.lock().unwrap_or_else(|p| p.into_inner());
        if !self.line.is_empty() {
            let rest = String::from_utf8_lossy(&self.line).trim().to_string();
            said.other.push_str(&rest);
        }
        said.ended = true;
        self.replies.cv.notify_all();
    }
}

/// One running injector on its `exec:` stream.
pub(super) struct Injector {
    tx: mpsc::Sender<Vec<u8>>,
    replies: Arc<Replies>,
    /// Records sent so far (each record's seq is its number, from 1).
    pub(super) sent: u32,
    /// The phone's API level, from the hello line.
    pub(super) sdk: u32,
}

/// Why the injector cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Unusable {
    /// The phone refuses injected input: no channel can tap.
    Refused(Refusal),
    /// It would not start, is another build, or the check failed otherwise: the reason.
    Failed(String),
}

impl Injector {
    /// Starts the injector at [`INJECTOR_PATH`] and waits for its hello line (by `deadline`).
    fn start(device: &Device, deadline: Instant) -> Result<Injector, Unusable> {
        let replies = Arc::new(Replies::default());
        let sink = ReplySink {
            replies: replies.clone(),
            line: Vec::new(),
        };
        let ended = replies.clone();
        let tx = device.stream_on_thread(
            "inject-stream",
            format!("exec:{}", start_command(INJECTOR_PATH)),
            Box::new(sink),
            move |e| {
                let mut said = ended.said.lock().unwrap_or_else(|p| p.into_inner());
                said.other.push_str(&e.to_string());
                said.ended = true;
                ended.cv.notify_all();
            },
        );
        let Some(tx) = tx else {
            return Err(Unusable::Failed("cannot start a thread".into()));
        };
        let injector = Injector {
            tx,
            replies,
            sent: 0,
            sdk: 0,
        };
        let said = injector.wait(deadline, |s| s.hello.is_some() || s.ended);
        match said {
            (Some(hello), _) => match stale(&hello) {
                None => Ok(Injector {
                    sdk: hello.sdk,
                    ..injector
                }),
                Some(why) => Err(Unusable::Failed(why)),
            },
            (None, other) if other.is_empty() => Err(Unusable::Failed(
                "the injector did not say hello in time".into(),
            )),
            (None, other) => Err(Unusable::Failed(format!(
                "app_process said: {}",
                other.trim().replace('\n', " / ")
            ))),
        }
    }

    /// Waits until `done` (or the deadline); the hello and the other lines.
    fn wait(&self, deadline: Instant, done: impl Fn(&Said) -> bool) -> (Option<Hello>, String) {
        let said = self.replies.said.lock().unwrap_or_else(|p| p.into_inner());
        let left = deadline.saturating_duration_since(Instant::now());
        let (said, _) = self
            .replies
            .cv
            .wait_timeout_while(said, left, |s| !done(s))
            .unwrap_or_else(|p| p.into_inner());
        (said.hello.clone(), said.other.clone())
    }

    /// Starts the injector, pushing it first if the phone's copy is missing or not this one
    /// (the hello line names the protocol version and the dex).
    pub(super) fn open(device: &Device, deadline: Instant) -> Result<Injector, Unusable> {
        match Injector::start(device, deadline) {
            Ok(i) => return Ok(i),
            Err(why) => {
                tracing::debug!(serial = %device.serial, ?why, "the injector on the phone is missing or stale: pushing it")
            }
        }
        push(device, INJECTOR_DEX, INJECTOR_PATH)
            .map_err(|e| Unusable::Failed(format!("pushing the injector failed: {e}")))?;
        Injector::start(device, deadline)
    }

    /// Opens the injector and checks that the phone lets it inject (the check record; a dark
    /// screen is woken once for it): the phone's API level.
    pub(super) fn handshake(device: &Device, deadline: Instant) -> Result<u32, Unusable> {
        Injector::open(device, deadline)?.verify(device, Wake::Once, deadline)
    }

    /// Like [`Injector::handshake`] without changing anything on the phone (no push, no wake):
    /// `None` when the injector is not on the phone (or is another build).
    pub(super) fn handshake_pushed(
        device: &Device,
        deadline: Instant,
    ) -> Option<Result<u32, Unusable>> {
        let injector = Injector::start(device, deadline).ok()?;
        Some(injector.verify(device, Wake::Never, deadline))
    }

    /// The check record's verdict: the API level where the check key passed the permission
    /// check; with the screen off before Android 13, `wake` says whether to wake it and check
    /// once more.
    fn verify(mut self, device: &Device, wake: Wake, deadline: Instant) -> Result<u32, Unusable> {
        let mut checked = self.check(deadline);
        if matches!(&checked, Err(why) if why == SCREEN_OFF) {
            if wake == Wake::Never {
                return Err(Unusable::Failed(format!(
                    "the screen is off, and before Android 13 a refusal cannot be seen then (API {})",
                    self.sdk
                )));
            }
            wake_screen(device)?;
            checked = self.check(deadline);
            if matches!(&checked, Err(why) if why == SCREEN_OFF) {
                return Err(Unusable::Refused(Refusal::WakeIgnored { sdk: self.sdk }));
            }
        }
        match checked {
            Ok(()) => Ok(self.sdk),
            Err(why) => {
                Err(Refusal::in_text(&why).map_or_else(|| Unusable::Failed(why), Unusable::Refused))
            }
        }
    }

    /// Sends a check record; its `err` reason, if any (taken out of the replies, so records
    /// after it start clean).
    fn check(&mut self, deadline: Instant) -> Result<(), String> {
        let seq = self.send(vec![(KIND_CHECK, 0, 0)]);
        let waited = self.acked_by(seq, deadline);
        let mut said = self.replies.said.lock().unwrap_or_else(|p| p.into_inner());
        match said.error.take() {
            Some((n, why)) if n == seq => Err(why),
            other => {
                said.error = other;
                waited
            }
        }
    }

    /// Queues records (kind, x, y), numbered on; returns the last seq (`sent` if none).
    pub(super) fn send(&mut self, records: Vec<(u8, i32, i32)>) -> u32 {
        let mut bytes = Vec::with_capacity(records.len() * RECORD);
        for (kind, x, y) in records {
            self.sent += 1;
            bytes.extend_from_slice(&record(kind, self.sent, x, y));
        }
        if !bytes.is_empty() {
            let _ = self.tx.send(bytes);
        }
        self.sent
    }

    /// Waits until every record up to `seq` is acknowledged; the error is what went wrong.
    pub(super) fn acked_by(&self, seq: u32, deadline: Instant) -> Result<(), String> {
        let said = self.replies.said.lock().unwrap_or_else(|p| p.into_inner());
        let left = deadline.saturating_duration_since(Instant::now());
        let (said, _) = self
            .replies
            .cv
            .wait_timeout_while(said, left, |s| {
                s.acked < seq && s.error.is_none() && !s.ended
            })
            .unwrap_or_else(|p| p.into_inner());
        if let Some((n, why)) = &said.error {
            return Err(format!("record {n}: {why}"));
        }
        if said.acked >= seq {
            return Ok(());
        }
        if said.ended {
            let other = said.other.trim().replace('\n', " / ");
            return Err(if other.is_empty() {
                "the injector's stream ended".into()
            } else {
                format!("the injector's stream ended ({other})")
            });
        }
        Err(format!("no acknowledgement of record {seq} in time"))
    }

    /// The highest record acknowledged.
    pub(super) fn acked(&self) -> u32 {
        self.replies
            .said
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .acked
    }
}

/// Whether the start-up check may wake the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wake {
    Once,
    Never,
}

/// `input keyevent KEYCODE_WAKEUP`, as the player wakes a dark screen during a run; what it
/// says of a refusal is one.
fn wake_screen(device: &Device) -> Result<(), Unusable> {
    let out = device
        .shell("input keyevent KEYCODE_WAKEUP", CALL_TIMEOUT)
        .map_err(|e| Unusable::Failed(format!("waking the screen failed: {e}")))?;
    match Refusal::in_text(&out.stdout) {
        Some(refusal) => Err(Unusable::Refused(refusal)),
        None => Ok(()),
    }
}

/// Pushes `bytes` to `path` (mode 0644) with the ADB sync protocol (`SEND`, `DATA` chunks,
/// `DONE`, then `QUIT`): its `OKAY` says the file is complete on the phone.
pub(super) fn push(device: &Device, bytes: &[u8], path: &str) -> Result<(), DeviceError> {
    let mut request = Vec::with_capacity(bytes.len() + 64);
    let spec = format!("{path},{}", 0o100644);
    request.extend_from_slice(b"SEND");
    request.extend_from_slice(&(spec.len() as u32).to_le_bytes());
    request.extend_from_slice(spec.as_bytes());
    for chunk in bytes.chunks(64 * 1024) {
        request.extend_from_slice(b"DATA");
        request.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
        request.extend_from_slice(chunk);
    }
    let mtime = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as u32);
    request.extend_from_slice(b"DONE");
    request.extend_from_slice(&mtime.to_le_bytes());
    request.extend_from_slice(b"QUIT\0\0\0\0");
    let reply = Arc::new(Mutex::new(Vec::new()));
    struct Collect(Arc<Mutex<Vec<u8>>>);
    impl Write for Collect {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    device.pipe(
        "sync:",
        &mut &request[..],
        Box::new(Collect(reply.clone())),
        crate::device::STREAM_TIMEOUT,
    )?;
    let reply = reply.lock().unwrap_or_else(|p| p.into_inner()).clone();
    if reply.starts_with(b"OKAY") {
        return Ok(());
    }
    let message = if reply.starts_with(b"FAIL") && reply.len() >= 8 {
        String::from_utf8_lossy(&reply[8..]).into_owned()
    } else {
        format!("unexpected answer {:?}", String::from_utf8_lossy(&reply))
    };
    Err(DeviceError::Adb(format!("adb push {path}: {message}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_lines() {
        assert_eq!(
            record(KIND_TAP, 0xfffffffe, -5, 2400),
            [
                1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xfb, 0xff, 0xff, 0xff, 0x60, 0x09, 0, 0
            ]
        );
        let hello = |version, sdk, dex: &str| Hello {
            version,
            sdk,
            dex: dex.into(),
        };
        assert_eq!(
            parse_hello("autoplay-inject 1 sdk=34\n"),
            Some(hello(1, 34, ""))
        );
        assert_eq!(
            parse_hello(&hello_line(31, INJECTOR_DEX)),
            Some(hello(2, 31, &dex_signature(INJECTOR_DEX).unwrap()))
        );
        assert_eq!(parse_hello("autoplay-inject 2 sdk=34 dex=ab x"), None);
        assert_eq!(parse_hello("Aborted"), None);
        assert_eq!(parse_reply("ok 7"), Some(Ok(7)));
        assert_eq!(
            parse_reply("err 6 bad kind 9"),
            Some(Err((6, "bad kind 9".into())))
        );
        assert_eq!(&INJECTOR_DEX[..4], b"dex\n");
    }

    /// A hello from another version, or from another dex of this version, is stale: the player
    /// pushes its own again. Ours is not.
    #[test]
    fn another_build_on_the_phone_is_stale() {
        let ours = parse_hello(&hello_line(34, INJECTOR_DEX)).unwrap();
        assert_eq!(stale(&ours), None);
        let mut older = INJECTOR_DEX.to_vec();
        older[12] ^= 0xff;
        let other = parse_hello(&hello_line(34, &older)).unwrap();
        assert!(
            stale(&other).is_some_and(|why| why.contains("is the dex")),
            "{other:?}"
        );
        let v1 = parse_hello("autoplay-inject 1 sdk=34").unwrap();
        assert!(stale(&v1).is_some_and(|why| why.contains("version 1, not 2")));
    }
}
