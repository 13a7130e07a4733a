//! The tap path: how one tap of the player reaches the phone, with one owner per concern.
//!
//! - The channels, one file each behind one trait (`channel.rs`'s `TapChannel`: a tap's
//!   spelling, the channel's own stream, and its proof): `input` (`input tap` lines),
//!   `events` (`sendevent` lines), `raw` (binary `input_event` records streamed into the panel
//!   by one `dd`, `dd.rs`), both in the panel's language ([`panel`]), and `inject` (16-byte tap
//!   records to one `app_process` injector pushed to the phone, [`injector`]).
//! - `table` lists them fastest first, each saying whether it is possible on a phone and why;
//!   [`choose`] reads it to pick the channel a phone allows (with the reason for the user) and
//!   to give doctor every channel's verdict.
//! - `shell` is the control shell every channel has: one long-lived interactive shell that
//!   runs the lines and answers each batch with an ack.
//! - `ledger` keeps the batches written and decides which taps are proven carried out (acks,
//!   the channel's own proof, the input dispatcher's queues).
//! - `pace` keeps taps `--pace` apart and measures the channel's rate.
//! - [`Tapper`] (here) batches taps, bounds how far the host runs ahead of the phone
//!   (`window`), and flushes, the same for every channel. It does not recover: when the shell
//!   or the channel's stream ends, its call fails and the run's one recovery layer
//!   (`phone::link::Link`) waits for the device, reopens a new `Tapper`, and has the screen
//!   looked at before the next tap (taps in flight may be lost; resending them blindly could
//!   toggle what they set on apps where a second tap undoes the first).
//!
//! Spawning `adb shell input tap` per tap costs a process, a connection and a shell each time; a
//! persistent shell (like scrcpy's persistent control channel) pays that once. A flush waits
//! until every batch is proven and then until the dispatcher's queue is empty in as many polls
//! in a row as the channel needs (`raw`: two, as events the kernel took may not have reached
//! the dispatcher at the first; `events`, `inject`: one; `input`: none, its lines return once
//! the app has the tap).

mod channel;
pub mod choose;
mod dd;
mod events;
mod inject;
pub mod injector;
mod input;
mod kind;
mod ledger;
mod options;
mod pace;
pub mod panel;
mod raw;
mod shell;
mod table;
mod verdict;

pub use choose::choose;
pub use injector::{INJECTOR_CLASS, INJECTOR_DEX, INJECTOR_PATH, INJECTOR_VERSION};
pub use kind::{Channel, ChannelKind};
pub use options::TapperOptions;
pub use panel::TouchPanel;

use super::android::swipe_line;
use super::refusal::Refusal;
use super::{Device, DeviceError};
use channel::{Fault, TapChannel};
use ledger::{Batch, Ledger, poll_pause, taps_queued};
use pace::{Pace, Rate};
use shell::{AckState, ControlShell};
use std::time::{Duration, Instant};

/// Moves of a swipe's contact between its start and its end (a finger's drag, as the input
/// reader sees it at a few tens of reports a second).
const SWIPE_STEPS: u32 = 10;

/// Sends taps through the control shell and the chosen channel; see the module docs.
pub struct Tapper {
    device: Device,
    chosen: Channel,
    channel: Box<dyn TapChannel>,
    options: TapperOptions,
    shell: ControlShell,
    /// Shell lines of taps and commands not yet written.
    pending: String,
    pending_taps: usize,
    ledger: Ledger,
    /// How far the channel's own stream was proven when last asked, and since when (a stream
    /// whose proof stops moving is stuck).
    stream_proven: (u64, Instant),
    pace: Pace,
    rate: Rate,
}

impl Tapper {
    /// Opens the tap channel chosen by [`choose`]; `screen` is the display size.
    pub fn open(
        device: &Device,
        chosen: Channel,
        screen: (u32, u32),
        options: TapperOptions,
    ) -> Result<Self, DeviceError> {
        let shell = ControlShell::open(device);
        let row = table::row_of(chosen.kind).ok_or_else(|| {
            DeviceError::Adb(format!(
                "internal: no tap channel {} in the table",
                chosen.kind
            ))
        })?;
        let channel = (row.open)(device, &chosen, &options, screen)?;
        let mut t = Tapper {
            device: device.clone(),
            chosen,
            channel,
            pace: Pace::new(options.pace, options.pace_on_phone),
            options,
            shell,
            pending: String::new(),
            pending_taps: 0,
            ledger: Ledger::default(),
            stream_proven: (0, Instant::now()),
            rate: Rate::default(),
        };
        // Make sure the shell answers before anything depends on it.
        t.command("echo ready")?;
        t.flush()?;
        t.restart_rate();
        Ok(t)
    }

    /// The channel's kind.
    pub fn kind(&self) -> ChannelKind {
        self.chosen.kind
    }

    /// The channel and why it was chosen.
    pub fn channel(&self) -> &Channel {
        &self.chosen
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
        let batch = self.ledger.seq;
        if let Err(fault) = self.channel.tap((x, y), &mut self.pending, batch) {
            return Err(self.fault(fault));
        }
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
        let by_input = self.channel.taps_by_input();
        if !by_input {
            // This line's own answer counts.
            self.refusal_seen();
        }
        self.command(line)?;
        self.wait_until(|t| t.ledger.unacked.is_empty())?;
        Ok(if by_input { None } else { self.refusal_seen() })
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
    /// stops; elsewhere an `input swipe` line, whose refusal is an error. (On the injector's
    /// channel a refused `input swipe` means its taps are refused too: the refusal ends the
    /// channel.)
    pub fn swipe(&mut self, from: (u32, u32), to: (u32, u32), ms: u32) -> Result<(), DeviceError> {
        if !self.channel.drags() {
            return match self.input_line(&swipe_line(from, to, ms))? {
                Some(refusal) => Err(DeviceError::Refused(refusal)),
                None => Ok(()),
            };
        }
        self.send_pending()?;
        let at = panel::drag_points(from, to, SWIPE_STEPS);
        let time = Duration::from_millis(u64::from(ms));
        if let Err(fault) = self.channel.drag(&at, time, &mut self.pending) {
            return Err(self.fault(fault));
        }
        self.send_pending()
    }

    /// Writes what is queued and waits until the device has carried all of it out: every
    /// batch proven, then as many polls in a row of an empty input dispatcher as the channel
    /// needs (it has handed every tap to the app).
    pub fn flush(&mut self) -> Result<(), DeviceError> {
        self.send_pending()?;
        self.wait_until(|t| t.ledger.unacked.is_empty())?;
        let polls_needed = self.channel.flush_polls();
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

    fn send_pending(&mut self) -> Result<(), DeviceError> {
        if self.pending.is_empty() && !self.channel.pending() && self.pending_taps == 0 {
            return Ok(());
        }
        self.throttle()?;
        self.write_batch(self.channel.queued_behind_ack())
    }

    /// Writes what is queued as one batch (followed by `dumpsys input` if `dispatcher`),
    /// without waiting for room in the window: the channel's own records first, then the shell's
    /// lines with the channel's proof.
    fn write_batch(&mut self, dispatcher: bool) -> Result<(), DeviceError> {
        let taps = std::mem::take(&mut self.pending_taps);
        self.ledger.written += taps as u64;
        let mut batch = Batch {
            seq: 0,
            body: std::mem::take(&mut self.pending),
            dispatcher,
            end: 0,
            written: self.ledger.written,
        };
        self.ledger.number(&mut batch);
        match self.channel.send() {
            Ok(end) => batch.end = end.unwrap_or(0),
            Err(fault) => return Err(self.fault(fault)),
        }
        let text = batch.text(&self.channel.proof_lines());
        let sent = self.shell.tx.send(text.into_bytes()).is_ok();
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
                // The front batch ran, but its records are not all proven on the channel's
                // own stream yet.
                if st.acked >= back {
                    let proven = self.channel.acked(&st).unwrap_or(0);
                    drop(st);
                    self.ask_stream(proven)?;
                    continue;
                }
                target = back;
            }
            if st.closed {
                drop(st);
                return Err(self.closed());
            }
            let by_input = self.channel.taps_by_input();
            let (st, res) = acks
                .cv
                .wait_timeout_while(st, self.options.ack_timeout, |s| {
                    s.acked < target && !s.closed && !(by_input && s.refused.is_some())
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

    /// Asks again how far the channel's own stream is proven (it was at `proven`), after a
    /// pause; a stream whose proof does not move for the ack timeout is stuck.
    fn ask_stream(&mut self, proven: u64) -> Result<(), DeviceError> {
        if proven != self.stream_proven.0 {
            self.stream_proven = (proven, Instant::now());
        } else if self.stream_proven.1.elapsed() > self.options.ack_timeout {
            return Err(DeviceError::Timeout {
                what: self.channel.stalled(),
                secs: self.options.ack_timeout.as_secs_f64(),
            });
        }
        std::thread::sleep(Duration::from_millis(2));
        self.write_batch(true)
    }

    /// Takes the acks that arrived: batches acknowledged (and proven on the channel's own
    /// stream), and taps carried out. Fails if that stream ended.
    fn collect_acks(&mut self) -> Result<(), DeviceError> {
        if self.channel.ended() {
            return Err(self.closed());
        }
        let (acked, backlog) = self.ack_state(|s| (s.acked, s.backlog));
        // `input tap` refused: nothing of this channel lands. (On the others only the keys,
        // `input keyevent`, go through `input`: their taps still land.)
        if self.channel.taps_by_input()
            && let Some(refusal) = self.ack_state(|s| s.refused.clone())
        {
            tracing::debug!(serial = %self.device.serial, %refusal, "`input` is refused");
            return Err(DeviceError::Refused(refusal));
        }
        let proven = self.ack_state(|s| self.channel.acked(s));
        let queue_counts = self.channel.queued_behind_ack();
        self.ledger.take_acks(acked, proven, backlog, queue_counts);
        Ok(())
    }

    /// The error of a channel's stream that failed.
    fn fault(&self, fault: Fault) -> DeviceError {
        match fault {
            Fault::Closed => self.closed(),
            Fault::Failed(e) => e,
        }
    }

    /// The error of a channel whose shell or own stream ended: the caller recovers.
    fn closed(&self) -> DeviceError {
        let said = self.channel.said();
        tracing::debug!(serial = %self.device.serial, unproven = self.ledger.unacked.len(), %said, "the tap channel closed");
        DeviceError::Adb(format!(
            "the tap channel to {} closed{said}",
            self.device.serial
        ))
    }
}
