//! The tap path: how one tap of the player reaches the phone, with one owner per concern.
//!
//! - [`choose`] picks the channel a phone allows (`raw`, `inject`, `events`, `input`: the
//!   fastest that works, with the reason for the user).
//! - Each channel's writer turns a tap into what the phone takes: [`lines`] (`input tap` and
//!   `sendevent` lines), [`raw`] (binary `input_event` records streamed into the panel by one
//!   `dd`), both in the panel's language ([`panel`]); [`inject`] (16-byte tap records to one
//!   `app_process` injector pushed to the phone, each acknowledged on its own stream).
//! - [`shell`] is the control shell every channel has: one long-lived interactive shell that
//!   runs the lines and answers each batch with an ack.
//! - [`proof`] decides which taps are proven carried out (acks, the `dd`'s bytes written, the
//!   input dispatcher's queues).
//! - [`pace`] keeps taps `--pace` apart and measures the channel's rate.
//! - [`Tapper`] (here) batches taps, bounds how far the host runs ahead of the phone
//!   (`window`), and flushes. It does not recover: when the shell or the `dd` stream ends, its
//!   call fails and the run's one recovery layer (`phone::link::Link`) waits for the device,
//!   reopens a new `Tapper`, and has the screen looked at before the next tap (taps in flight may
//!   be lost; resending them blindly could toggle what they set on apps where a second tap
//!   undoes the first).
//!
//! Spawning `adb shell input tap` per tap costs a process, a connection and a shell each time; a
//! persistent shell (like scrcpy's persistent control channel) pays that once. A flush waits
//! until every batch is proven and, for `raw`, until the dispatcher's queue is empty in two polls
//! in a row (events the kernel took may not have reached the dispatcher at the first); `events`
//! flushes wait for the same empty queue once.

pub mod choose;
pub mod inject;
mod lines;
mod pace;
pub mod panel;
mod proof;
mod raw;
mod shell;

pub use choose::{Channel, InputBackend, choose};
pub use inject::{INJECTOR_CLASS, INJECTOR_DEX, INJECTOR_PATH, INJECTOR_VERSION};
pub use panel::TouchPanel;

use super::android::swipe_line;
use super::refusal::Refusal;
use super::{Device, DeviceError};
use pace::{Pace, Rate};
use proof::{Batch, Ledger, poll_pause, taps_queued};
use raw::Copier;
use shell::{AckState, ControlShell};
use std::time::{Duration, Instant};

/// Moves of a swipe's contact between its start and its end (a finger's drag, as the input
/// reader sees it at a few tens of reports a second).
const SWIPE_STEPS: u32 = 10;

/// Settings of a [`Tapper`].
#[derive(Debug, Clone)]
pub struct TapperOptions {
    /// Minimum time between two taps (0: as fast as the device takes them).
    pub pace: Duration,
    /// Whether `pace` holds as the phone gets the taps: each tap goes out only once the one
    /// before it is proven in the phone's input, `pace` after that proof (a round trip per tap;
    /// for apps that read taps against their last drawn frame). Otherwise taps go out `pace`
    /// apart and a busy phone may read several at once.
    pub pace_on_phone: bool,
    /// Taps written per batch when not pacing.
    pub batch: usize,
    /// Most taps sent but not yet proven carried out.
    pub window: usize,
    /// How long one batch may take before the channel is considered stuck.
    pub ack_timeout: Duration,
    /// `raw`: how long a tap stays down before it is lifted (0: both in one write).
    pub hold: Duration,
}

impl Default for TapperOptions {
    fn default() -> Self {
        TapperOptions {
            pace: Duration::ZERO,
            pace_on_phone: false,
            batch: 8,
            window: 32,
            ack_timeout: Duration::from_secs(30),
            hold: Duration::ZERO,
        }
    }
}

/// Sends taps through the control shell (and, for `raw`, a `dd` stream); see the module docs.
pub struct Tapper {
    device: Device,
    channel: Channel,
    screen: (u32, u32),
    options: TapperOptions,
    shell: ControlShell,
    /// `raw`: the `dd` stream into the panel (opened at the first tap).
    copier: Option<Copier>,
    /// `inject`: the running injector.
    injector: Option<inject::Injector>,
    /// `raw`: the copied bytes last seen, and since when (a `dd` that stops copying is stuck).
    copied: (u64, Instant),
    /// Lines and records of taps not yet written.
    pending: String,
    pending_raw: Vec<u8>,
    /// `inject`: records of taps not yet sent (kind, x, y).
    pending_records: Vec<(u8, i32, i32)>,
    pending_taps: usize,
    ledger: Ledger,
    /// `raw` tracking ids.
    touch_id: i32,
    pace: Pace,
    rate: Rate,
}

impl Tapper {
    /// Opens the tap channel chosen by [`choose`]; `screen` is the display size.
    pub fn open(
        device: &Device,
        channel: Channel,
        screen: (u32, u32),
        options: TapperOptions,
    ) -> Result<Self, DeviceError> {
        let needs_panel = matches!(channel.backend, InputBackend::Events | InputBackend::Raw);
        if needs_panel && channel.panel.is_none()
            || channel.backend == InputBackend::Raw && channel.record.is_none()
        {
            return Err(DeviceError::Adb(format!(
                "the {:?} tap channel needs a writable touch panel, and this device has none (the \
                 `input tap` channel needs none)",
                channel.backend
            )));
        }
        let mut t = Tapper {
            device: device.clone(),
            channel,
            screen,
            pace: Pace::new(options.pace, options.pace_on_phone),
            options,
            shell: ControlShell::open(device),
            copier: None,
            injector: None,
            copied: (0, Instant::now()),
            pending: String::new(),
            pending_raw: Vec::new(),
            pending_records: Vec::new(),
            pending_taps: 0,
            ledger: Ledger::default(),
            touch_id: 0,
            rate: Rate::default(),
        };
        if t.channel.backend == InputBackend::Inject {
            let deadline = Instant::now() + t.options.ack_timeout;
            t.injector = Some(inject::Injector::open(device, deadline).map_err(
                |why| match why {
                    inject::Unusable::Refused(refusal) => DeviceError::Refused(refusal),
                    inject::Unusable::Failed(w) => DeviceError::Adb(format!(
                        "the tap injector on {} would not start: {w}",
                        device.serial
                    )),
                },
            )?);
        }
        // Make sure the shell answers before anything depends on it.
        t.command("echo ready")?;
        t.flush()?;
        t.restart_rate();
        Ok(t)
    }

    pub fn backend(&self) -> InputBackend {
        self.channel.backend
    }

    /// The channel and why it was chosen.
    pub fn channel(&self) -> &Channel {
        &self.channel
    }

    /// Keeps taps at least `every` apart from now on (`on_phone`: as the phone gets them).
    pub fn set_pace(&mut self, every: Duration, on_phone: bool) {
        self.options.pace = every;
        self.options.pace_on_phone = on_phone;
        self.pace = Pace::new(every, on_phone);
    }

    /// Taps the device has carried out.
    pub fn taps_done(&self) -> u64 {
        self.ledger.done
    }

    /// Queues a tap at display pixel (x, y); writes a batch when it is full (or at once when pacing).
    pub fn tap(&mut self, x: u32, y: u32) -> Result<(), DeviceError> {
        if self.pace.on_phone {
            // Pacing writes each tap at once: nothing is pending, only unproven.
            self.wait_until(|t| t.ledger.unacked.is_empty())?;
            self.pace.proven(Instant::now());
        }
        self.pace.wait();
        self.rate.busy();
        self.add_tap(x, y)?;
        self.pending_taps += 1;
        if self.pending_taps >= self.pace.batch(self.options.batch) {
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

    /// Presses a key by its shell line (`input keyevent ...`), after the queued taps, and waits
    /// for the shell's answer. On a channel whose taps need no `input` (the touch panel, the
    /// injector), a phone that refuses keys injected from the shell says so here while its taps
    /// still land: [`Refusal::Keys`], and the channel stays open. (On `input`, whose taps the
    /// same refusal stops, it ends the channel.)
    pub fn key(&mut self, line: &str) -> Result<(), DeviceError> {
        match self.input_line(line)? {
            Some(Refusal::Denied { said }) => {
                tracing::debug!(serial = %self.device.serial, %line, %said, "the key is refused; taps land");
                Err(DeviceError::Refused(Refusal::Keys { said }))
            }
            _ => Ok(()),
        }
    }

    /// Runs an `input` line after the queued taps and waits for the shell's answer: on a
    /// channel whose taps need no `input`, the refusal the line printed, if any (on `input`,
    /// whose taps the same refusal stops, that refusal ends the channel: an error).
    fn input_line(&mut self, line: &str) -> Result<Option<Refusal>, DeviceError> {
        let input = self.channel.backend == InputBackend::Input;
        if !input {
            // This line's own answer counts.
            self.refusal_seen();
        }
        self.command(line)?;
        self.wait_until(|t| t.ledger.unacked.is_empty())?;
        Ok(if input { None } else { self.refusal_seen() })
    }

    /// The refusal the shell's output showed since the last call, if any.
    fn refusal_seen(&mut self) -> Option<Refusal> {
        self.shell
            .acks
            .state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .refused
            .take()
    }

    /// Swipes from display point `from` to `to` over `ms` milliseconds, after the queued taps.
    /// Where the channel writes the touch panel, one contact is dragged there as a finger is
    /// (`raw` records spaced over `ms`, or `sendevent` lines), which no refusal of injected input
    /// stops; elsewhere an `input swipe` line, whose refusal is an error.
    pub fn swipe(&mut self, from: (u32, u32), to: (u32, u32), ms: u32) -> Result<(), DeviceError> {
        let at = |panel: &TouchPanel| -> Vec<(u32, u32)> {
            panel::drag_points(from, to, SWIPE_STEPS)
                .into_iter()
                .map(|(x, y)| panel::to_panel(panel, self.screen, x, y))
                .collect()
        };
        match (self.channel.backend, self.channel.panel.clone()) {
            (InputBackend::Raw, Some(panel)) => {
                let at = at(&panel);
                self.raw_drag(&panel, &at, Duration::from_millis(u64::from(ms)))
            }
            (InputBackend::Events, Some(panel)) => {
                self.touch_id = self.touch_id % 60000 + 1;
                let line = panel::sendevent_drag_line(&panel, &at(&panel), self.touch_id);
                self.command(&line)
            }
            // (On the injector's channel a refused `input swipe` means its taps are refused
            // too: the refusal ends the channel.)
            _ => match self.input_line(&swipe_line(from, to, ms))? {
                Some(refusal) => Err(DeviceError::Refused(refusal)),
                None => Ok(()),
            },
        }
    }

    /// `raw`: drags one contact through panel points `at` over `time`: down, each move a step
    /// later, the lift a batch of its own (proven as taps' records are).
    fn raw_drag(
        &mut self,
        panel: &TouchPanel,
        at: &[(u32, u32)],
        time: Duration,
    ) -> Result<(), DeviceError> {
        self.send_pending()?;
        let record = self.channel.record.unwrap_or(panel::RECORD_64);
        self.touch_id = self.touch_id % 60000 + 1;
        let mut steps = panel::drag_records(panel, record, at, self.touch_id);
        let lift = steps.pop().unwrap_or_default();
        let pause = time / u32::try_from(steps.len().max(1)).unwrap_or(1);
        for (i, bytes) in steps.into_iter().enumerate() {
            if i > 0 {
                std::thread::sleep(pause);
            }
            if self.send_raw(bytes).is_none() {
                return Err(self.closed());
            }
        }
        std::thread::sleep(pause);
        self.pending_raw.extend(lift);
        self.send_pending()
    }

    /// Writes what is queued and waits until the device has carried all of it out.
    pub fn flush(&mut self) -> Result<(), DeviceError> {
        self.send_pending()?;
        self.wait_until(|t| t.ledger.unacked.is_empty())?;
        let polls_needed = match self.channel.backend {
            InputBackend::Input => {
                self.rate.idle();
                return Ok(());
            }
            // An asynchronous injection returns once the dispatcher has queued the event.
            InputBackend::Events | InputBackend::Inject => 1,
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
        self.ledger.done = self.ledger.written;
        self.rate.idle();
        Ok(())
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
    pub(crate) fn rate_sample(&self) -> (u64, Duration) {
        self.rate.sample(self.ledger.done)
    }

    /// Measures [`Tapper::taps_per_sec`] from the next tap on (after a flush).
    pub(crate) fn restart_rate(&mut self) {
        self.rate.restart(self.ledger.done);
    }

    fn add_tap(&mut self, x: u32, y: u32) -> Result<(), DeviceError> {
        if self.channel.backend == InputBackend::Inject {
            self.pending_records
                .push((inject::KIND_TAP, x as i32, y as i32));
            return Ok(());
        }
        let Some(panel) = self.channel.panel.as_ref() else {
            self.pending.push_str(&lines::input_tap(x, y));
            return Ok(());
        };
        match self.channel.backend {
            InputBackend::Raw => {
                let panel = &panel.clone();
                let record = self.channel.record.unwrap_or(panel::RECORD_64);
                let at = panel::to_panel(panel, self.screen, x, y);
                self.touch_id = self.touch_id % 60000 + 1;
                if self.options.hold.is_zero() {
                    panel::tap_records(&mut self.pending_raw, panel, record, at, self.touch_id);
                } else {
                    // Down now, up after the hold: two writes.
                    panel::touch_down(&mut self.pending_raw, panel, record, at, self.touch_id);
                    let bytes = std::mem::take(&mut self.pending_raw);
                    if self.send_raw(bytes).is_none() {
                        return Err(self.closed());
                    }
                    std::thread::sleep(self.options.hold);
                    panel::release(&mut self.pending_raw, panel, record);
                }
            }
            InputBackend::Events => {
                let id = self.ledger.seq % 60000 + 1;
                let line = lines::sendevent_tap(panel, self.screen, x, y, id);
                self.pending.push_str(&line);
            }
            InputBackend::Input | InputBackend::Inject => {
                self.pending.push_str(&lines::input_tap(x, y))
            }
        }
        Ok(())
    }

    /// `raw`: sends records into the `dd` stream, opening it first if needed; returns where
    /// they end in the stream (`None`: the stream is gone or would not start).
    fn send_raw(&mut self, bytes: Vec<u8>) -> Option<u64> {
        if self.copier.is_none() {
            let record = self.channel.record.unwrap_or(panel::RECORD_64);
            let panel = self.channel.panel.as_ref()?;
            let deadline = Instant::now() + self.options.ack_timeout;
            self.copier = Some(Copier::open(&self.device, panel, record, deadline)?);
        }
        self.copier.as_mut()?.send(bytes)
    }

    fn send_pending(&mut self) -> Result<(), DeviceError> {
        if self.pending.is_empty()
            && self.pending_raw.is_empty()
            && self.pending_records.is_empty()
            && self.pending_taps == 0
        {
            return Ok(());
        }
        self.throttle()?;
        self.write_batch(matches!(
            self.channel.backend,
            InputBackend::Raw | InputBackend::Inject
        ))
    }

    /// Writes what is queued as one batch (followed by `dumpsys input` if `dispatcher`),
    /// without waiting for room in the window.
    fn write_batch(&mut self, dispatcher: bool) -> Result<(), DeviceError> {
        let taps = std::mem::take(&mut self.pending_taps);
        self.ledger.written += taps as u64;
        let mut batch = Batch {
            seq: 0,
            body: std::mem::take(&mut self.pending),
            dispatcher,
            raw: std::mem::take(&mut self.pending_raw),
            raw_end: 0,
            written: self.ledger.written,
        };
        self.ledger.number(&mut batch);
        let records = std::mem::take(&mut self.pending_records);
        if let Some(injector) = self.injector.as_mut()
            && !records.is_empty()
        {
            // The records' acks come on the injector's own stream: the batch's dispatcher poll
            // goes to the shell only once the injector has injected them (then the poll sees
            // them queued or handled, as it sees a raw batch's records).
            let end = injector.send(records);
            batch.raw_end = u64::from(end);
            let deadline = Instant::now() + self.options.ack_timeout;
            if let Err(why) = injector.acked_by(end, deadline) {
                return Err(self.injector_failed(&why));
            }
        }
        if !batch.raw.is_empty() {
            match self.send_raw(std::mem::take(&mut batch.raw)) {
                Some(end) => batch.raw_end = end,
                None => return Err(self.closed()),
            }
        }
        let io = self.copier.as_ref().map(|c| c.pid);
        let sent = self.shell.tx.send(batch.text(io).into_bytes()).is_ok();
        self.ledger.unacked.push_back(batch);
        if sent { Ok(()) } else { Err(self.closed()) }
    }

    /// Waits until the taps written but not carried out, with those being queued, fit the window.
    fn throttle(&mut self) -> Result<(), DeviceError> {
        let window = self.options.window.max(1) as u64;
        loop {
            self.collect_acks()?;
            let in_flight = self.ledger.in_flight();
            if in_flight + self.pending_taps as u64 <= window || in_flight == 0 {
                return Ok(());
            }
            if self.ledger.unacked.is_empty() {
                // Everything is written; ask the dispatcher how far the app got.
                let backlog = self.poll_dispatcher()?;
                if backlog > 0 {
                    std::thread::sleep(poll_pause(backlog));
                }
            } else {
                let front = self.ledger.unacked.front().map_or(0, |b| b.seq);
                self.wait_until(|t| t.ledger.unacked.front().is_none_or(|b| b.seq > front))?;
            }
        }
    }

    /// Runs `dumpsys input` and returns the taps still waiting for the app.
    fn poll_dispatcher(&mut self) -> Result<u64, DeviceError> {
        self.write_batch(true)?;
        self.wait_until(|t| t.ledger.unacked.is_empty())?;
        Ok(taps_queued(self.ack_state(|s| s.backlog)))
    }

    fn ack_state<T>(&self, f: impl FnOnce(&AckState) -> T) -> T {
        f(&self
            .shell
            .acks
            .state
            .lock()
            .unwrap_or_else(|p| p.into_inner()))
    }

    /// Waits for acks until `done(self)`; fails if the shell ends or stalls.
    fn wait_until(&mut self, done: impl Fn(&Self) -> bool) -> Result<(), DeviceError> {
        loop {
            self.collect_acks()?;
            if done(self) {
                return Ok(());
            }
            let acks = self.shell.acks.clone();
            let st = acks.state.lock().unwrap_or_else(|p| p.into_inner());
            let front = self.ledger.unacked.front().map(|b| b.seq).unwrap_or(0);
            let back = self.ledger.unacked.back().map(|b| b.seq).unwrap_or(0);
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
                return Err(self.closed());
            }
            let input = self.channel.backend == InputBackend::Input;
            let (st, res) = acks
                .cv
                .wait_timeout_while(st, self.options.ack_timeout, |s| {
                    s.acked < target && !s.closed && !(input && s.refused.is_some())
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
    /// panel), and taps carried out. Fails if the `dd` ended.
    fn collect_acks(&mut self) -> Result<(), DeviceError> {
        if self.copier.as_ref().is_some_and(Copier::ended) {
            return Err(self.closed());
        }
        let (acked, backlog, mut copied) = self.ack_state(|s| (s.acked, s.backlog, s.wchar));
        // `input tap` refused: nothing of this channel lands. (On `raw` and `events` only the
        // keys, `input keyevent`, go through `input`: their taps still land.)
        if self.channel.backend == InputBackend::Input
            && let Some(refusal) = self.ack_state(|s| s.refused.clone())
        {
            tracing::debug!(serial = %self.device.serial, %refusal, "`input` is refused");
            return Err(DeviceError::Refused(refusal));
        }
        if let Some(injector) = &self.injector {
            copied = Some(u64::from(injector.acked()));
        }
        let queue_counts = matches!(
            self.channel.backend,
            InputBackend::Raw | InputBackend::Inject
        );
        self.ledger.settle(acked, copied, backlog, queue_counts);
        Ok(())
    }

    /// The error of an injector that refused a record or whose stream ended: the caller
    /// recovers (a refusal by the phone is [`DeviceError::Refused`]).
    fn injector_failed(&self, why: &str) -> DeviceError {
        tracing::debug!(serial = %self.device.serial, unproven = self.ledger.unacked.len(), %why, "the tap injector failed");
        if let Some(refusal) = Refusal::in_text(why) {
            return DeviceError::Refused(refusal);
        }
        DeviceError::Adb(format!(
            "the tap channel to {} closed (the injector: {why})",
            self.device.serial
        ))
    }

    /// The error of a channel whose shell or `dd` stream ended: the caller recovers.
    fn closed(&self) -> DeviceError {
        let dd = self
            .copier
            .as_ref()
            .map(Copier::said)
            .filter(|s| !s.is_empty())
            .map_or(String::new(), |s| {
                format!(" (the raw stream's dd said: {s})")
            });
        tracing::debug!(serial = %self.device.serial, unproven = self.ledger.unacked.len(), %dd, "the tap channel closed");
        DeviceError::Adb(format!(
            "the tap channel to {} closed{dd}",
            self.device.serial
        ))
    }
}
