//! The tap channel: one long-lived interactive shell, fed with pipelined `input tap X Y` lines.
//!
//! Spawning `adb shell input tap` per tap costs a process, a connection and a shell each time; a
//! persistent shell (like scrcpy's persistent control channel) pays that once. Taps are written
//! in batches, each followed by `echo ack:N`; the device's `ack:N` line says the batch ran, which
//! gives honest taps/s, bounds how far the host runs ahead of the screen (`window`), and lets a
//! dropped session be reopened and its unacknowledged batches resent (taps on this kind of app are
//! idempotent: selecting a cell or writing the same digit twice changes nothing).
//!
//! The `events` backend writes multitouch protocol B `sendevent` lines to the touch panel instead
//! of `input tap`, with coordinates mapped to the panel's axes (read from `getevent -p`).

use super::{CALL_TIMEOUT, ChannelReader, Device, DeviceError};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How taps reach the device.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum InputBackend {
    /// `input tap X Y` lines in one persistent shell (works everywhere).
    Input,
    /// `sendevent` to the touch panel (needs permission: rooted or older phones).
    Events,
}

/// A touchscreen as `getevent -p` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TouchPanel {
    pub device: String,
    pub max_x: u32,
    pub max_y: u32,
}

/// Finds the first input device with ABS_MT_POSITION_X (0035) and _Y (0036) axes.
pub fn parse_getevent(text: &str) -> Option<TouchPanel> {
    let mut current: Option<String> = None;
    let (mut max_x, mut max_y) = (None, None);
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("add device") {
            if let (Some(dev), Some(x), Some(y)) = (&current, max_x, max_y) {
                return Some(TouchPanel {
                    device: dev.clone(),
                    max_x: x,
                    max_y: y,
                });
            }
            // The path goes into `sendevent` lines: only plain path characters are accepted.
            current = rest
                .split_once(':')
                .map(|(_, d)| d.trim().to_string())
                .filter(|d| {
                    d.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"/_.-".contains(&b))
                });
            (max_x, max_y) = (None, None);
            continue;
        }
        let l = line.trim();
        // `0035  : value 0, min 0, max 1079, fuzz 0, ...` (also after `ABS (0003):`).
        let l = l.rsplit_once("):").map(|(_, r)| r.trim()).unwrap_or(l);
        let max = || {
            l.split(',')
                .find_map(|part| part.trim().strip_prefix("max "))
                .and_then(|v| v.trim().parse::<u32>().ok())
        };
        if l.starts_with("0035") || l.starts_with("ABS_MT_POSITION_X") {
            max_x = max();
        } else if l.starts_with("0036") || l.starts_with("ABS_MT_POSITION_Y") {
            max_y = max();
        }
    }
    match (current, max_x, max_y) {
        (Some(device), Some(max_x), Some(max_y)) => Some(TouchPanel {
            device,
            max_x,
            max_y,
        }),
        _ => None,
    }
}

/// Whether the device lets us inject touch events: a touch panel exists and a harmless
/// `sendevent DEV 0 0 0` (a SYN_REPORT) is permitted.
pub fn probe_events(device: &Device) -> Result<Option<TouchPanel>, DeviceError> {
    let out = device.shell("getevent -p", CALL_TIMEOUT)?;
    let Some(panel) = parse_getevent(&out.stdout) else {
        return Ok(None);
    };
    let test = device.shell(&format!("sendevent {} 0 0 0", panel.device), CALL_TIMEOUT)?;
    Ok((test.code == 0).then_some(panel))
}

/// Settings of a [`Tapper`].
#[derive(Debug, Clone)]
pub struct TapperOptions {
    /// Minimum time between two taps (0: as fast as the device takes them).
    pub pace: Duration,
    /// Taps written per batch when not pacing.
    pub batch: usize,
    /// Most taps sent but not yet acknowledged.
    pub window: usize,
    /// How long to keep reopening a dropped session before giving up. Zero: never reopen it
    /// here; the error goes to the caller (the player reopens the channel itself, and looks at
    /// the screen before tapping on). Default: 30 s, as `--reconnect-timeout` (an adb server takes
    /// about 10 s to bring a network device back).
    pub reconnect_for: Duration,
    /// How long one batch may take before the session is considered stuck.
    pub ack_timeout: Duration,
}

impl Default for TapperOptions {
    fn default() -> Self {
        TapperOptions {
            pace: Duration::ZERO,
            batch: 8,
            window: 32,
            reconnect_for: Duration::from_secs(30),
            ack_timeout: Duration::from_secs(30),
        }
    }
}

/// Acknowledgements seen in the session's output.
#[derive(Default)]
struct Acks {
    state: Mutex<(u64, bool)>, // (highest ack, session closed)
    cv: Condvar,
}

/// Parses the session's output into acks; marks the session closed when dropped.
struct AckSink {
    acks: Arc<Acks>,
    line: Vec<u8>,
}

impl Write for AckSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.line);
                if let Some(n) = line
                    .trim()
                    .strip_prefix("ack:")
                    .and_then(|n| n.parse::<u64>().ok())
                {
                    let mut st = self.acks.state.lock().unwrap_or_else(|p| p.into_inner());
                    st.0 = st.0.max(n);
                    self.acks.cv.notify_all();
                }
                self.line.clear();
            } else if self.line.len() < 4096 {
                self.line.push(b);
            }
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for AckSink {
    fn drop(&mut self) {
        let mut st = self.acks.state.lock().unwrap_or_else(|p| p.into_inner());
        st.1 = true;
        self.acks.cv.notify_all();
    }
}

/// One open interactive shell.
struct Session {
    tx: mpsc::Sender<Vec<u8>>,
    acks: Arc<Acks>,
}

impl Session {
    fn open(device: &Device) -> Self {
        let (tx, rx) = mpsc::channel();
        let acks = Arc::new(Acks::default());
        let sink = AckSink {
            acks: acks.clone(),
            line: Vec::new(),
        };
        let device = device.clone();
        let closed = acks.clone();
        let _ = std::thread::Builder::new()
            .name("tap-shell".into())
            .spawn(move || {
                let mut reader = ChannelReader::new(rx);
                // If the session cannot even start, the sink is dropped here and the session reads as closed.
                if device
                    .interactive_shell(&mut reader, Box::new(sink))
                    .is_err()
                {
                    let mut st = closed.state.lock().unwrap_or_else(|p| p.into_inner());
                    st.1 = true;
                    closed.cv.notify_all();
                }
            });
        Session { tx, acks }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.tx.send(b"exit\n".to_vec());
    }
}

/// Sends taps through a persistent shell; see the module docs.
pub struct Tapper {
    device: Device,
    mode: InputBackend,
    panel: Option<TouchPanel>,
    screen: (u32, u32),
    options: TapperOptions,
    session: Session,
    /// Lines of taps not yet written.
    pending: String,
    pending_taps: usize,
    /// Written batches not yet acknowledged: (sequence number, text, taps).
    unacked: VecDeque<(u64, String, usize)>,
    seq: u64,
    last_tap: Option<Instant>,
    /// Taps acknowledged by the device, and when the first was sent.
    pub taps_done: u64,
    started: Option<Instant>,
    /// Sessions reopened after a drop.
    pub reconnects: u32,
}

impl Tapper {
    /// Opens the tap session. `panel` is required for [`InputBackend::Events`]; `screen` is the display size.
    pub fn open(
        device: &Device,
        mode: InputBackend,
        panel: Option<TouchPanel>,
        screen: (u32, u32),
        options: TapperOptions,
    ) -> Result<Self, DeviceError> {
        if mode == InputBackend::Events && panel.is_none() {
            return Err(DeviceError::Adb(
                "--input events needs a touch panel that accepts sendevent; this device has none (use --input input)".into(),
            ));
        }
        let mut t = Tapper {
            device: device.clone(),
            mode,
            panel,
            screen,
            options,
            session: Session::open(device),
            pending: String::new(),
            pending_taps: 0,
            unacked: VecDeque::new(),
            seq: 0,
            last_tap: None,
            taps_done: 0,
            started: None,
            reconnects: 0,
        };
        // Make sure the shell answers before anything depends on it.
        t.command("echo ready")?;
        t.flush()?;
        t.started = None;
        Ok(t)
    }

    pub fn mode(&self) -> InputBackend {
        self.mode
    }

    /// Queues a tap at display pixel (x, y); writes a batch when it is full (or at once when pacing).
    pub fn tap(&mut self, x: u32, y: u32) -> Result<(), DeviceError> {
        if !self.options.pace.is_zero() {
            if let Some(last) = self.last_tap {
                let next = last + self.options.pace;
                let now = Instant::now();
                if next > now {
                    std::thread::sleep(next - now);
                }
            }
            self.last_tap = Some(Instant::now());
        }
        self.started.get_or_insert_with(Instant::now);
        let line = self.tap_line(x, y);
        self.pending.push_str(&line);
        self.pending_taps += 1;
        let batch = if self.options.pace.is_zero() {
            self.options.batch.max(1)
        } else {
            1
        };
        if self.pending_taps >= batch {
            self.send_pending()?;
        }
        Ok(())
    }

    /// A raw shell line (e.g. `input keyevent 4`) in the same stream, after the queued taps.
    pub fn command(&mut self, line: &str) -> Result<(), DeviceError> {
        self.pending.push_str(line.trim_end());
        self.pending.push('\n');
        self.send_pending()
    }

    /// Writes what is queued and waits until the device has run all of it.
    pub fn flush(&mut self) -> Result<(), DeviceError> {
        self.send_pending()?;
        self.wait_until(|t| t.unacked.is_empty())
    }

    /// Taps per second acknowledged so far.
    pub fn taps_per_sec(&self) -> f64 {
        match self.started {
            Some(s) if self.taps_done > 0 => {
                self.taps_done as f64 / s.elapsed().as_secs_f64().max(1e-6)
            }
            _ => 0.0,
        }
    }

    fn tap_line(&self, x: u32, y: u32) -> String {
        match (&self.mode, &self.panel) {
            (InputBackend::Events, Some(p)) => {
                let (w, h) = self.screen;
                let px = (x as u64 * (p.max_x as u64 + 1) / w.max(1) as u64).min(p.max_x as u64);
                let py = (y as u64 * (p.max_y as u64 + 1) / h.max(1) as u64).min(p.max_y as u64);
                let d = &p.device;
                // Protocol B: slot 0, a tracking id, position, touch down, sync; then lift, sync.
                format!(
                    "sendevent {d} 3 47 0; sendevent {d} 3 57 {id}; sendevent {d} 3 53 {px}; sendevent {d} 3 54 {py}; \
                     sendevent {d} 1 330 1; sendevent {d} 0 0 0; sendevent {d} 3 57 -1; sendevent {d} 1 330 0; sendevent {d} 0 0 0\n",
                    id = self.seq % 60000 + 1
                )
            }
            _ => format!("input tap {x} {y}\n"),
        }
    }

    fn send_pending(&mut self) -> Result<(), DeviceError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let window = self.options.window.max(1);
        self.wait_until(|t| t.in_flight() + t.pending_taps <= window || t.unacked.is_empty())?;
        self.seq += 1;
        let mut text = std::mem::take(&mut self.pending);
        text.push_str(&format!("echo ack:{}\n", self.seq));
        let taps = std::mem::take(&mut self.pending_taps);
        if self.session.tx.send(text.clone().into_bytes()).is_err() {
            self.unacked.push_back((self.seq, text, taps));
            return self.reconnect();
        }
        self.unacked.push_back((self.seq, text, taps));
        Ok(())
    }

    fn in_flight(&self) -> usize {
        self.unacked.iter().map(|b| b.2).sum()
    }

    /// Waits for acks until `done(self)`, reopening the session if it drops or stalls.
    fn wait_until(&mut self, done: impl Fn(&Self) -> bool) -> Result<(), DeviceError> {
        loop {
            self.collect_acks();
            if done(self) {
                return Ok(());
            }
            let acks = self.session.acks.clone();
            let st = acks.state.lock().unwrap_or_else(|p| p.into_inner());
            let front = self.unacked.front().map(|b| b.0).unwrap_or(0);
            if st.0 >= front {
                continue;
            }
            if st.1 {
                drop(st);
                self.reconnect()?;
                continue;
            }
            let (st, res) = acks
                .cv
                .wait_timeout_while(st, self.options.ack_timeout, |s| s.0 < front && !s.1)
                .unwrap_or_else(|p| p.into_inner());
            if res.timed_out() && st.0 < front {
                drop(st);
                return Err(DeviceError::Timeout {
                    what: format!("a batch of taps on {}", self.device.serial),
                    secs: self.options.ack_timeout.as_secs_f64(),
                });
            }
        }
    }

    fn collect_acks(&mut self) {
        let acked = self
            .session
            .acks
            .state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .0;
        while let Some(&(seq, _, taps)) = self.unacked.front() {
            if seq > acked {
                break;
            }
            self.unacked.pop_front();
            self.taps_done += taps as u64;
        }
    }

    /// Reopens the shell with backoff for at most `reconnect_for`, then resends unacked batches.
    fn reconnect(&mut self) -> Result<(), DeviceError> {
        if self.options.reconnect_for.is_zero() {
            return Err(DeviceError::Adb(format!(
                "the tap channel to {} closed",
                self.device.serial
            )));
        }
        let deadline = Instant::now() + self.options.reconnect_for;
        let mut delay = Duration::from_millis(100);
        loop {
            self.reconnects += 1;
            self.session = Session::open(&self.device);
            // Probe the new session with an ack of its own.
            let probe = self.seq + 1;
            let _ = self
                .session
                .tx
                .send(format!("echo ack:{probe}\n").into_bytes());
            let acks = self.session.acks.clone();
            let st = acks.state.lock().unwrap_or_else(|p| p.into_inner());
            let (st, _) = acks
                .cv
                .wait_timeout_while(st, Duration::from_secs(3), |s| s.0 < probe && !s.1)
                .unwrap_or_else(|p| p.into_inner());
            let ok = st.0 >= probe;
            drop(st);
            if ok {
                self.seq = probe;
                // Resend, renumbered after the probe.
                let batches: Vec<(String, usize)> = self
                    .unacked
                    .drain(..)
                    .map(|(_, text, taps)| {
                        (
                            text.lines()
                                .filter(|l| !l.starts_with("echo ack:"))
                                .map(|l| format!("{l}\n"))
                                .collect(),
                            taps,
                        )
                    })
                    .collect();
                for (text, taps) in batches {
                    self.seq += 1;
                    let full = format!("{text}echo ack:{}\n", self.seq);
                    let _ = self.session.tx.send(full.clone().into_bytes());
                    self.unacked.push_back((self.seq, full, taps));
                }
                return Ok(());
            }
            if Instant::now() + delay > deadline {
                let why = self.device.why_unreachable();
                return Err(DeviceError::Adb(format!(
                    "lost the connection to {} and could not reopen it within {:.0} s: {why}",
                    self.device.serial,
                    self.options.reconnect_for.as_secs_f64()
                )));
            }
            std::thread::sleep(delay);
            delay = (delay * 2).min(Duration::from_secs(2));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GETEVENT: &str = "add device 1: /dev/input/event0\n  name:     \"gpio-keys\"\n  events:\n    KEY (0001): 0072  0073  0074\n\
add device 2: /dev/input/event2\n  name:     \"sim_touchscreen\"\n  events:\n    KEY (0001): 014a\n    ABS (0003): 002f  : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0\n\
                0035  : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0\n                0036  : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0\n\
                0039  : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0\n  input props:\n    INPUT_PROP_DIRECT\n";

    #[test]
    fn finds_the_touch_panel() {
        assert_eq!(
            parse_getevent(GETEVENT),
            Some(TouchPanel {
                device: "/dev/input/event2".into(),
                max_x: 4095,
                max_y: 4095
            })
        );
        let labelled = "add device 1: /dev/input/event3\n  name: \"ts\"\n  events:\n    ABS (0003): ABS_MT_POSITION_X    : value 0, min 0, max 1079, fuzz 0\n                ABS_MT_POSITION_Y    : value 0, min 0, max 2399, fuzz 0\n";
        assert_eq!(
            parse_getevent(labelled).map(|p| (p.max_x, p.max_y)),
            Some((1079, 2399))
        );
        assert_eq!(
            parse_getevent("add device 1: /dev/input/event0\n  name: \"keys\"\n"),
            None
        );
        let hostile = GETEVENT.replace("/dev/input/event2", "/dev/x;reboot");
        assert_eq!(
            parse_getevent(&hostile),
            None,
            "a device path with shell characters is refused"
        );
    }

    #[test]
    fn ack_sink_parses_acks_and_closes() {
        let acks = Arc::new(Acks::default());
        {
            let mut sink = AckSink {
                acks: acks.clone(),
                line: Vec::new(),
            };
            sink.write_all(b"$ echo ack:1\r\nack:1\r\nack:").unwrap();
            sink.write_all(b"3\n").unwrap();
            assert_eq!(acks.state.lock().unwrap().0, 3);
            assert!(!acks.state.lock().unwrap().1);
        }
        assert!(
            acks.state.lock().unwrap().1,
            "dropping the sink marks the session closed"
        );
    }
}
