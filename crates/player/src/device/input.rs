//! The tap channel: one long-lived interactive shell, fed with pipelined `input tap X Y` lines
//! (or `sendevent` lines), or, for `raw`, one long-lived `dd` stream into the touch panel with
//! the shell as its control channel.
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
//!
//! The `raw` backend writes the same events as binary records on an `exec:dd` stream
//! ([`super::raw`]). That stream is not the shell's: an ack on the shell says nothing about
//! records still in transit on it (in the adb server, on the link, in the pipe), and a link
//! that drops takes them along. So each batch is followed on the shell by
//! `cat /proc/PID/io` of the `dd` (its `wchar`: bytes written into the panel), `dumpsys input`
//! and the ack: a batch is done once acked *and* its records are within `wchar` (until then the
//! shell is asked again; after a drop, the batches not done are resent), the dispatcher's
//! queue lengths say how many taps still wait for the app, and taps count as done only once
//! they left that queue. A flush waits until the queue is empty in two polls in a row (events
//! the kernel took may not have reached the dispatcher at the first). Where `/proc/PID/io`
//! cannot be read, the dispatcher's polls are all the proof there is. `events` flushes wait for
//! the same empty queue once.

use super::channel::Channel;
use super::raw::{self, RawStream};
use super::{ChannelReader, Device, DeviceError};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How taps reach the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputBackend {
    /// `input tap X Y` lines in one persistent shell (works everywhere).
    Input,
    /// `sendevent` lines to the touch panel (needs a writable panel).
    Events,
    /// Binary touch records streamed into the touch panel by one `dd` (needs a writable panel).
    Raw,
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
    /// `raw`: how long a tap stays down before it is lifted (0: both in one write).
    pub hold: Duration,
}

impl Default for TapperOptions {
    fn default() -> Self {
        TapperOptions {
            pace: Duration::ZERO,
            batch: 8,
            window: 32,
            reconnect_for: Duration::from_secs(30),
            ack_timeout: Duration::from_secs(30),
            hold: Duration::ZERO,
        }
    }
}

/// What the session's output said so far.
#[derive(Default)]
struct AckState {
    /// The highest ack seen.
    acked: u64,
    /// Input events waiting in the dispatcher per the last `dumpsys input` before that ack.
    backlog: Option<u64>,
    /// `raw`: the bytes the `dd` had written per the latest `/proc/PID/io` before an ack.
    wchar: Option<u64>,
    /// The session ended.
    closed: bool,
}

/// Acknowledgements seen in the session's output.
#[derive(Default)]
struct Acks {
    state: Mutex<AckState>,
    cv: Condvar,
}

/// Parses the session's output into acks (and `dumpsys input` queue lengths); marks the session
/// closed when dropped.
struct AckSink {
    acks: Arc<Acks>,
    line: Vec<u8>,
    /// Queued input events counted since the last ack (`None`: no `dumpsys input` seen).
    queued: Option<u64>,
    /// `wchar` of a `/proc/PID/io` since the last ack.
    wchar: Option<u64>,
}

impl Write for AckSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.line);
                let line = line.trim();
                if let Some(n) = line
                    .strip_prefix("ack:")
                    .and_then(|n| n.parse::<u64>().ok())
                {
                    let mut st = self.acks.state.lock().unwrap_or_else(|p| p.into_inner());
                    if n > st.acked {
                        st.acked = n;
                        st.backlog = self.queued;
                        st.wchar = st.wchar.max(self.wchar);
                    }
                    self.queued = None;
                    self.wchar = None;
                    self.acks.cv.notify_all();
                } else if let Some(n) = queued_events(line) {
                    *self.queued.get_or_insert(0) += n;
                } else if let Some(n) = line
                    .strip_prefix("wchar:")
                    .and_then(|n| n.trim().parse::<u64>().ok())
                {
                    self.wchar = Some(n);
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
        st.closed = true;
        self.acks.cv.notify_all();
    }
}

/// Input events a `dumpsys input` line reports as not yet handled: the dispatcher's
/// `PendingEvent` and the `length=N` of its inbound queue and each connection's outbound and
/// wait queues (`Some(0)` for an empty one).
fn queued_events(line: &str) -> Option<u64> {
    if let Some(rest) = line.strip_prefix("PendingEvent:") {
        return Some(u64::from(rest.trim() != "<none>"));
    }
    let (name, rest) = line.split_once(':')?;
    if !matches!(name, "InboundQueue" | "OutboundQueue" | "WaitQueue") {
        return None;
    }
    let rest = rest.trim();
    if rest == "<empty>" {
        return Some(0);
    }
    rest.strip_prefix("length=")?.trim().parse().ok()
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
            queued: None,
            wchar: None,
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
                    st.closed = true;
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

/// A written batch not yet done.
struct Batch {
    seq: u64,
    /// Its shell lines (taps or commands).
    body: String,
    /// Whether `dumpsys input` follows them.
    dispatcher: bool,
    /// `raw`: its records, and where they end in the `dd` stream (bytes sent into it).
    raw: Vec<u8>,
    raw_end: u64,
    /// Taps written up to and including this batch.
    written: u64,
}

impl Batch {
    /// What goes to the shell: the body, the `dd`'s counters (`io`: its pid), the dispatcher's
    /// state, the ack.
    fn text(&self, io: Option<u32>) -> String {
        let mut text = self.body.clone();
        if let Some(pid) = io {
            text.push_str(&format!("cat /proc/{pid}/io\n"));
        }
        if self.dispatcher {
            text.push_str("dumpsys input\n");
        }
        text.push_str(&format!("echo ack:{}\n", self.seq));
        text
    }
}

/// The `raw` channel's open `dd` stream.
struct Copier {
    stream: RawStream,
    /// Its process id, for `/proc/PID/io`.
    pid: u32,
    /// Bytes sent into it so far.
    sent: u64,
}

/// Sends taps through a persistent shell (and, for `raw`, a `dd` stream); see the module docs.
pub struct Tapper {
    device: Device,
    channel: Channel,
    screen: (u32, u32),
    options: TapperOptions,
    session: Session,
    /// `raw`: the `dd` stream into the panel (opened at the first tap).
    stream: Option<Copier>,
    /// `raw`: the copied bytes last seen, and since when (a `dd` that stops copying is stuck).
    copied: (u64, Instant),
    /// Lines and records of taps not yet written.
    pending: String,
    pending_raw: Vec<u8>,
    pending_taps: usize,
    unacked: VecDeque<Batch>,
    seq: u64,
    /// Taps written so far.
    written: u64,
    /// `raw` tracking ids.
    touch_id: i32,
    last_tap: Option<Instant>,
    /// Taps the device has carried out (acknowledged and, for `raw`, out of the input queue).
    pub taps_done: u64,
    /// Since when taps have been in flight (none: the channel is idle since the last flush),
    /// and how long they were in flight before that: the channel's working time, which the
    /// rate is measured over (screenshots and the search between flushes do not count).
    busy_since: Option<Instant>,
    busy: Duration,
    /// `taps_done` when the rate started to be measured.
    rate_base: u64,
    /// Sessions reopened after a drop.
    pub reconnects: u32,
    /// `raw`: times the `dd` stream ended since the last completed flush.
    stream_deaths: u32,
}

/// How often the `dd` stream may end between two flushes before the channel gives up.
const MAX_STREAM_DEATHS: u32 = 4;

impl Tapper {
    /// Opens the tap session on the chosen channel ([`super::channel::choose`]); `screen` is
    /// the display size.
    pub fn open(
        device: &Device,
        channel: Channel,
        screen: (u32, u32),
        options: TapperOptions,
    ) -> Result<Self, DeviceError> {
        let needs_panel = matches!(channel.mode, InputBackend::Events | InputBackend::Raw);
        if needs_panel && channel.panel.is_none()
            || channel.mode == InputBackend::Raw && channel.record.is_none()
        {
            return Err(DeviceError::Adb(format!(
                "--input {:?} needs a writable touch panel; this device has none (use --input input)",
                channel.mode
            )));
        }
        let mut t = Tapper {
            device: device.clone(),
            channel,
            screen,
            options,
            session: Session::open(device),
            stream: None,
            copied: (0, Instant::now()),
            pending: String::new(),
            pending_raw: Vec::new(),
            pending_taps: 0,
            unacked: VecDeque::new(),
            seq: 0,
            written: 0,
            touch_id: 0,
            last_tap: None,
            taps_done: 0,
            busy_since: None,
            busy: Duration::ZERO,
            rate_base: 0,
            reconnects: 0,
            stream_deaths: 0,
        };
        // Make sure the shell answers before anything depends on it.
        t.command("echo ready")?;
        t.flush()?;
        t.restart_rate();
        Ok(t)
    }

    pub fn mode(&self) -> InputBackend {
        self.channel.mode
    }

    /// The channel and why it was chosen.
    pub fn channel(&self) -> &Channel {
        &self.channel
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
        self.busy_since.get_or_insert_with(Instant::now);
        self.add_tap(x, y)?;
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

    /// Writes what is queued and waits until the device has carried all of it out.
    pub fn flush(&mut self) -> Result<(), DeviceError> {
        self.send_pending()?;
        self.wait_until(|t| t.unacked.is_empty())?;
        let polls_needed = match self.channel.mode {
            InputBackend::Input => {
                self.idle();
                return Ok(());
            }
            InputBackend::Events => 1,
            InputBackend::Raw => 2,
        };
        // The input dispatcher must have handed every tap to the app.
        let mut empty_polls = 0;
        while empty_polls < polls_needed {
            let backlog = self.poll_dispatcher()?;
            if backlog == 0 {
                empty_polls += 1;
            } else {
                empty_polls = 0;
                std::thread::sleep(poll_pause(backlog));
            }
        }
        self.taps_done = self.written;
        self.stream_deaths = 0;
        self.idle();
        Ok(())
    }

    /// Nothing is in flight any more: the working time so far is counted.
    fn idle(&mut self) {
        if let Some(since) = self.busy_since.take() {
            self.busy += since.elapsed();
        }
    }

    /// Taps per second carried out (since [`Tapper::restart_rate`]), over the time taps were
    /// in flight: from a tap on an idle channel until the flush that saw the phone done.
    pub fn taps_per_sec(&self) -> f64 {
        let (done, busy) = self.rate_sample();
        if done == 0 {
            return 0.0;
        }
        done as f64 / busy.as_secs_f64().max(1e-6)
    }

    /// The taps behind [`Tapper::taps_per_sec`] and the working time they took.
    pub fn rate_sample(&self) -> (u64, Duration) {
        let done = self.taps_done - self.rate_base.min(self.taps_done);
        let busy = self.busy + self.busy_since.map_or(Duration::ZERO, |s| s.elapsed());
        (done, busy)
    }

    /// Measures [`Tapper::taps_per_sec`] from the next tap on (after a flush).
    pub fn restart_rate(&mut self) {
        self.busy_since = None;
        self.busy = Duration::ZERO;
        self.rate_base = self.taps_done;
    }

    fn add_tap(&mut self, x: u32, y: u32) -> Result<(), DeviceError> {
        let panel = self.channel.panel.as_ref();
        match (self.channel.mode, panel) {
            (InputBackend::Raw, Some(p)) => {
                let record = self.channel.record.unwrap_or(raw::RECORD_64);
                let at = raw::to_panel(p, self.screen, x, y);
                self.touch_id = self.touch_id % 60000 + 1;
                if self.options.hold.is_zero() {
                    raw::tap(&mut self.pending_raw, record, at, self.touch_id);
                } else {
                    // Down now, up after the hold: two writes.
                    raw::touch_down(&mut self.pending_raw, record, at, self.touch_id);
                    self.send_raw_now()?;
                    std::thread::sleep(self.options.hold);
                    raw::release(&mut self.pending_raw, record);
                }
            }
            (InputBackend::Events, Some(p)) => {
                let (px, py) = raw::to_panel(p, self.screen, x, y);
                let d = &p.device;
                // Protocol B: slot 0, a tracking id, position, touch down, sync; then lift, sync.
                self.pending.push_str(&format!(
                    "sendevent {d} 3 47 0; sendevent {d} 3 57 {id}; sendevent {d} 3 53 {px}; sendevent {d} 3 54 {py}; \
                     sendevent {d} 1 330 1; sendevent {d} 0 0 0; sendevent {d} 3 57 -1; sendevent {d} 1 330 0; sendevent {d} 0 0 0\n",
                    id = self.seq % 60000 + 1
                ));
            }
            _ => self.pending.push_str(&format!("input tap {x} {y}\n")),
        }
        Ok(())
    }

    /// `raw`: writes the queued records now (part of the batch being built).
    fn send_raw_now(&mut self) -> Result<(), DeviceError> {
        let bytes = std::mem::take(&mut self.pending_raw);
        match self.send_raw(bytes) {
            Some(_) => Ok(()),
            None => self.reconnect(),
        }
    }

    /// `raw`: sends records into the `dd` stream, opening it first if needed; returns where
    /// they end in the stream (`None`: the stream is gone or would not start).
    fn send_raw(&mut self, bytes: Vec<u8>) -> Option<u64> {
        if self.stream.is_none() {
            self.stream = Some(self.open_copier()?);
        }
        let copier = self.stream.as_mut()?;
        copier.sent += bytes.len() as u64;
        copier.stream.send(bytes).then_some(copier.sent)
    }

    /// Starts the `dd` stream, learns its pid, and lifts any half-written tap first.
    fn open_copier(&mut self) -> Option<Copier> {
        let record = self.channel.record.unwrap_or(raw::RECORD_64);
        let panel = self.channel.panel.as_ref()?;
        let stream = RawStream::open(&self.device, &raw::stream_command(panel, record));
        let pid = stream.pid(Instant::now() + self.options.ack_timeout)?;
        let mut release = Vec::new();
        raw::release(&mut release, record);
        let sent = release.len() as u64;
        stream.send(release).then_some(Copier { stream, pid, sent })
    }

    fn send_pending(&mut self) -> Result<(), DeviceError> {
        if self.pending.is_empty() && self.pending_raw.is_empty() && self.pending_taps == 0 {
            return Ok(());
        }
        self.throttle()?;
        self.write_batch(self.channel.mode == InputBackend::Raw)
    }

    /// Writes what is queued as one batch (followed by `dumpsys input` if `dispatcher`),
    /// without waiting for room in the window.
    fn write_batch(&mut self, dispatcher: bool) -> Result<(), DeviceError> {
        let taps = std::mem::take(&mut self.pending_taps);
        self.written += taps as u64;
        let mut batch = Batch {
            seq: 0,
            body: std::mem::take(&mut self.pending),
            dispatcher,
            raw: std::mem::take(&mut self.pending_raw),
            raw_end: 0,
            written: self.written,
        };
        let sent = self.send_batch(&mut batch);
        self.unacked.push_back(batch);
        if sent { Ok(()) } else { self.reconnect() }
    }

    /// Numbers a batch and sends it: its records into the `dd` stream, its lines into the
    /// shell. False if either is gone.
    fn send_batch(&mut self, batch: &mut Batch) -> bool {
        self.seq += 1;
        batch.seq = self.seq;
        if !batch.raw.is_empty() {
            match self.send_raw(batch.raw.clone()) {
                Some(end) => batch.raw_end = end,
                None => return false,
            }
        }
        let io = self.stream.as_ref().map(|c| c.pid);
        self.session.tx.send(batch.text(io).into_bytes()).is_ok()
    }

    /// Waits until the taps written but not carried out, with those being queued, fit the window.
    fn throttle(&mut self) -> Result<(), DeviceError> {
        let window = self.options.window.max(1) as u64;
        loop {
            self.collect_acks()?;
            let in_flight = self.written - self.taps_done.min(self.written);
            if in_flight + self.pending_taps as u64 <= window || in_flight == 0 {
                return Ok(());
            }
            if self.unacked.is_empty() {
                // Everything is written; ask the dispatcher how far the app got.
                let backlog = self.poll_dispatcher()?;
                if backlog > 0 {
                    std::thread::sleep(poll_pause(backlog));
                }
            } else {
                let front = self.unacked.front().map_or(0, |b| b.seq);
                self.wait_until(|t| t.unacked.front().is_none_or(|b| b.seq > front))?;
            }
        }
    }

    /// Runs `dumpsys input` and returns the taps still waiting for the app.
    fn poll_dispatcher(&mut self) -> Result<u64, DeviceError> {
        self.write_batch(true)?;
        self.wait_until(|t| t.unacked.is_empty())?;
        let backlog = self
            .session
            .acks
            .state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .backlog;
        Ok(backlog.unwrap_or(0).div_ceil(2))
    }

    /// Waits for acks until `done(self)`, reopening the session if it drops or stalls.
    fn wait_until(&mut self, done: impl Fn(&Self) -> bool) -> Result<(), DeviceError> {
        loop {
            self.collect_acks()?;
            if done(self) {
                return Ok(());
            }
            let acks = self.session.acks.clone();
            let st = acks.state.lock().unwrap_or_else(|p| p.into_inner());
            let front = self.unacked.front().map(|b| b.seq).unwrap_or(0);
            let back = self.unacked.back().map(|b| b.seq).unwrap_or(0);
            let mut target = front;
            if st.acked >= front {
                // The front batch ran, but its records are not all copied into the panel yet.
                if st.acked >= back {
                    let copied = st.wchar.unwrap_or(0);
                    drop(st);
                    self.ask_copier(copied)?;
                    continue;
                }
                target = back;
            }
            if st.closed {
                drop(st);
                self.reconnect()?;
                continue;
            }
            let (st, res) = acks
                .cv
                .wait_timeout_while(st, self.options.ack_timeout, |s| {
                    s.acked < target && !s.closed
                })
                .unwrap_or_else(|p| p.into_inner());
            if res.timed_out() && st.acked < target {
                drop(st);
                return Err(DeviceError::Timeout {
                    what: format!("a batch of taps on {}", self.device.serial),
                    secs: self.options.ack_timeout.as_secs_f64(),
                });
            }
        }
    }

    /// The touch panel's device node, for messages.
    fn panel_name(&self) -> &str {
        self.channel
            .panel
            .as_ref()
            .map_or("the touch panel", |p| p.device.as_str())
    }

    /// `raw`: asks the `dd` again how much it copied (it had `copied` bytes), after a pause;
    /// a `dd` that copies nothing for the ack timeout is stuck.
    fn ask_copier(&mut self, copied: u64) -> Result<(), DeviceError> {
        if copied != self.copied.0 {
            self.copied = (copied, Instant::now());
        } else if self.copied.1.elapsed() > self.options.ack_timeout {
            return Err(DeviceError::Timeout {
                what: format!(
                    "the raw tap stream into {} (dd copied nothing more)",
                    self.panel_name()
                ),
                secs: self.options.ack_timeout.as_secs_f64(),
            });
        }
        std::thread::sleep(Duration::from_millis(2));
        self.write_batch(true)
    }

    /// Takes the acks that arrived: batches acknowledged (and, for `raw`, copied into the
    /// panel), and taps carried out.
    fn collect_acks(&mut self) -> Result<(), DeviceError> {
        let (acked, backlog, copied) = {
            let st = self
                .session
                .acks
                .state
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            (st.acked, st.backlog, st.wchar)
        };
        if let Some(copier) = self.stream.as_ref().filter(|c| c.stream.ended()) {
            // dd stopped: reopen and resend what it did not copy, a few times.
            self.stream_deaths += 1;
            if self.stream_deaths > MAX_STREAM_DEATHS {
                return Err(DeviceError::Adb(format!(
                    "the raw tap stream into {} keeps ending (dd said: {:?}); try --input events or --input input",
                    self.panel_name(),
                    copier.stream.output()
                )));
            }
            return self.reconnect();
        }
        let mut written = None;
        while let Some(b) = self.unacked.front() {
            // Without `/proc/PID/io` (`copied` unknown) the ack is all the proof there is.
            if b.seq > acked || copied.is_some_and(|c| c < b.raw_end) {
                break;
            }
            written = Some(b.written);
            self.unacked.pop_front();
        }
        if let Some(w) = written {
            let waiting = match self.channel.mode {
                InputBackend::Raw => backlog.unwrap_or(0).div_ceil(2),
                _ => 0,
            };
            self.taps_done = self.taps_done.max(w.saturating_sub(waiting));
        }
        Ok(())
    }

    /// Reopens the shell (and the `dd` stream) with backoff for at most `reconnect_for`, then
    /// resends the batches not done.
    fn reconnect(&mut self) -> Result<(), DeviceError> {
        if self.options.reconnect_for.is_zero() {
            tracing::debug!(serial = %self.device.serial, "the tap channel closed (its owner reconnects)");
            return Err(DeviceError::Adb(format!(
                "the tap channel to {} closed",
                self.device.serial
            )));
        }
        let started = Instant::now();
        let deadline = started + self.options.reconnect_for;
        let mut delay = Duration::from_millis(100);
        let dd_said = self
            .stream
            .take()
            .map(|c| c.stream.output())
            .unwrap_or_default();
        tracing::debug!(
            serial = %self.device.serial,
            unacked = self.unacked.len(),
            dd_said = %dd_said,
            "the tap channel closed: reopening it"
        );
        loop {
            self.reconnects += 1;
            tracing::trace!(serial = %self.device.serial, attempt = self.reconnects, "reopening the tap channel");
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
                .wait_timeout_while(st, Duration::from_secs(3), |s| s.acked < probe && !s.closed)
                .unwrap_or_else(|p| p.into_inner());
            let mut ok = st.acked >= probe;
            drop(st);
            if ok && self.channel.mode == InputBackend::Raw {
                self.stream = self.open_copier();
                ok = self.stream.is_some();
            }
            if ok {
                tracing::info!(
                    serial = %self.device.serial,
                    secs = started.elapsed().as_secs_f64(),
                    resent_batches = self.unacked.len(),
                    "tap channel reopened"
                );
                self.seq = probe;
                self.copied = (0, Instant::now());
                // Resend, renumbered after the probe.
                let mut batches: Vec<Batch> = self.unacked.drain(..).collect();
                for b in &mut batches {
                    // A failure shows at the next wait, which reconnects again.
                    let _ = self.send_batch(b);
                }
                self.unacked.extend(batches);
                return Ok(());
            }
            if Instant::now() + delay > deadline {
                let why = self.device.why_unreachable();
                let dd = if dd_said.is_empty() {
                    String::new()
                } else {
                    format!(" (the raw stream's dd said: {dd_said})")
                };
                tracing::info!(serial = %self.device.serial, %why, "the tap channel could not be reopened");
                return Err(DeviceError::Adb(format!(
                    "lost the connection to {} and could not reopen it within {:.0} s: {why}{dd}",
                    self.device.serial,
                    self.options.reconnect_for.as_secs_f64()
                )));
            }
            std::thread::sleep(delay);
            delay = (delay * 2).min(Duration::from_secs(2));
        }
    }
}

/// How long to let the app work on `backlog` taps before asking again.
fn poll_pause(backlog: u64) -> Duration {
    Duration::from_millis((backlog * 2).clamp(1, 50))
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
                queued: None,
                wchar: None,
            };
            sink.write_all(b"$ echo ack:1\r\nack:1\r\nack:").unwrap();
            sink.write_all(b"3\n").unwrap();
            assert_eq!(acks.state.lock().unwrap().acked, 3);
            assert_eq!(acks.state.lock().unwrap().backlog, None);
            assert!(!acks.state.lock().unwrap().closed);
            sink.write_all(b"Input Dispatcher State:\n  PendingEvent: <none>\n  InboundQueue: length=6\n    MotionEvent(...)\n  Connections:\n      OutboundQueue: <empty>\n      WaitQueue: length=2\nack:4\n").unwrap();
            assert_eq!(acks.state.lock().unwrap().backlog, Some(8));
            sink.write_all(b"ack:5\n").unwrap();
            assert_eq!(acks.state.lock().unwrap().backlog, None);
            assert_eq!(acks.state.lock().unwrap().wchar, None);
            sink.write_all(b"rchar: 480\nwchar: 240\nsyscr: 1\nack:6\nack:7\n")
                .unwrap();
            assert_eq!(
                acks.state.lock().unwrap().wchar,
                Some(240),
                "kept until the next"
            );
        }
        assert!(
            acks.state.lock().unwrap().closed,
            "dropping the sink marks the session closed"
        );
    }
}
