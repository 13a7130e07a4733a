//! The link to the phone during a run, with one recovery path for every device call.
//!
//! Set-up, navigation, screenshots, taps and verification all go through a [`Link`]. When a
//! call fails, the link waits for the device like `adb wait-for-device` (bounded by
//! `--reconnect-timeout`): it starts a local adb server that went away, `adb connect`s a network
//! serial the server forgot (or that stays offline), checks that the device answers, and reopens
//! the tap channel. A call without side effects on the screen is then retried; a tap returns
//! [`Restored`], because taps in flight may have been lost and the screen must be looked at
//! before the next one. When the device does not come back in time the run ends with
//! [`Stop::DeviceLost`], which says what was seen and what to do. A phone that refuses injected
//! input ([`DeviceError::Refused`]) answered: that error is final at once, never retried.

use crate::device::android::Key;
use crate::device::screen::Screen;
use crate::device::tap::{self, Channel};
use crate::device::tap::{ChannelKind, Tapper, TapperOptions};
use crate::device::{Device, DeviceError, Route};
use crate::play::stop::{Restored, Stop, StopFlag};
use crate::play::target::{Incident, IncidentKind};
use image::RgbaImage;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an `echo` may take to prove that a device answers again.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(5);
/// Failed attempts of one call while the device stays online, before its error is final.
const ATTEMPTS: u32 = 3;

/// How often a phone still starting is asked again.
const STARTING_POLL: Duration = Duration::from_millis(500);

/// How the tap channel was opened (to reopen it the same way).
#[derive(Debug, Clone)]
struct Opened {
    chosen: Channel,
    size: (u32, u32),
    options: TapperOptions,
}

/// A tap channel being chosen and opened on a thread of its own ([`Link::start_channel`]),
/// by a link of its own that shares the recovery, while the run goes on with what does not
/// need it (opening the level, the first frame).
type Pending = std::thread::JoinHandle<(Link, anyhow::Result<()>)>;

/// Where the device stands, as the adb server (or the direct route) sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    Online,
    /// Listed in another state (`offline`, `unauthorized`, ...).
    Listed(String),
    /// Not listed.
    Absent,
    /// The adb server does not answer.
    NoServer(String),
}

/// The phone behind every device call of a run; see the module docs.
pub struct Link {
    device: Device,
    timeout: Duration,
    stop: StopFlag,
    channel: Option<Opened>,
    pending: Option<Pending>,
    /// The least gap between taps on the phone asked for ([`Link::keep_taps_apart_on_phone`]),
    /// for a channel still opening.
    least_gap: Duration,
    tapper: Option<Tapper>,
    screen: Option<Screen>,
    incidents: Vec<Incident>,
    /// Times the link was lost and restored.
    pub reconnects: u32,
    /// Held while the link recovers: a link opening the tap channel beside this one waits for
    /// the other's recovery instead of counting the same loss twice.
    recovering: Arc<Mutex<()>>,
    /// Taps carried out by tap channels closed since, and their working time (for the rate).
    rated_before: (u64, Duration),
}

impl Link {
    /// A link to `device`; recovery waits at most `timeout`, and stops early on `stop`.
    pub fn new(device: Device, timeout: Duration, stop: StopFlag) -> Link {
        Link {
            device,
            timeout,
            stop,
            channel: None,
            pending: None,
            least_gap: Duration::ZERO,
            tapper: None,
            screen: None,
            incidents: Vec::new(),
            reconnects: 0,
            recovering: Arc::default(),
            rated_before: (0, Duration::ZERO),
        }
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Runs a call that changes nothing on the screen; when it fails, recovers the link and
    /// tries again (see the module docs). Once a tap channel is open, a lost and restored link
    /// gives [`Restored`] instead: the caller must look at the screen again. `what` says what
    /// the call does ("reading the screen size"), for messages.
    pub fn call<T>(
        &mut self,
        what: &str,
        mut f: impl FnMut(&Device) -> Result<T, DeviceError>,
    ) -> anyhow::Result<T> {
        let mut failures = 0;
        let mut starting: Option<Instant> = None;
        loop {
            self.stop.check()?;
            match f(&self.device) {
                Ok(v) => {
                    if let Some(since) = starting {
                        self.interruption(format!(
                            "the phone was still starting: waited {:.0} s for it",
                            since.elapsed().as_secs_f64()
                        ));
                    }
                    return Ok(v);
                }
                // The phone answered: it refuses injected input, and will again.
                Err(e @ DeviceError::Refused(_)) => return Err(e.into()),
                // A phone still starting: asked again until it is up, as long as a lost link
                // is waited for.
                Err(e @ DeviceError::Starting(_)) => {
                    let since = *starting.get_or_insert_with(Instant::now);
                    if since.elapsed() >= self.timeout {
                        return Err(anyhow::Error::new(e).context(format!(
                            "{what} on {}: the phone was still starting after {} s",
                            self.device.serial,
                            self.timeout.as_secs()
                        )));
                    }
                    tracing::debug!(serial = %self.device.serial, %e, "waiting for the phone to start");
                    std::thread::sleep(STARTING_POLL);
                }
                Err(e) => {
                    let started = Instant::now();
                    if self.recover(what, &e)? {
                        self.reconnected(what, &e, started);
                        if self.channel.is_some() {
                            // The old channel died with the link; a new one opens on demand.
                            self.drop_tapper();
                            return Err(Restored.into());
                        }
                    } else {
                        failures += 1;
                        if failures >= ATTEMPTS {
                            return Err(anyhow::Error::new(e).context(format!(
                                "{what} on {} failed {ATTEMPTS} times although the device answers",
                                self.device.serial
                            )));
                        }
                    }
                }
            }
        }
    }

    /// Runs `f` again while it fails with [`Restored`] (for steps that look at the screen
    /// themselves, like set-up), at most a few times.
    pub fn retry_restored<T>(
        &mut self,
        mut f: impl FnMut(&mut Link) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let mut tries = 0;
        loop {
            match f(self) {
                Err(e) if crate::play::stop::is_restored(&e) && tries < 5 => tries += 1,
                r => return r,
            }
        }
    }

    /// Opens the tap channel: the one `asked` for if the device allows it, else the next that
    /// works in the table's order, fastest first (`device::tap::choose`). Returns the channel
    /// (its `why` is for the user).
    pub fn open_channel(
        &mut self,
        asked: Option<ChannelKind>,
        size: (u32, u32),
        pace: Duration,
    ) -> anyhow::Result<Channel> {
        self.start_channel(asked, size, pace);
        self.channel_opened()
    }

    /// Starts choosing and opening the tap channel (as [`Link::open_channel`]) on a thread of
    /// its own, so that the phone pushes and starts it while the run does what needs no taps
    /// (opening the level, taking the first frame). Whatever needs the channel waits for it;
    /// [`Link::channel_opened`] says which it is. Nothing where one is being opened or is open.
    pub fn start_channel(&mut self, asked: Option<ChannelKind>, size: (u32, u32), pace: Duration) {
        if self.pending.is_some() || self.channel.is_some() {
            return;
        }
        let options = TapperOptions {
            pace,
            ..TapperOptions::default()
        };
        let mut side = Link {
            recovering: self.recovering.clone(),
            ..Link::new(self.device.clone(), self.timeout, self.stop.clone())
        };
        self.pending = Some(std::thread::spawn(move || {
            let opened = side.open_now(asked, size, options);
            (side, opened)
        }));
    }

    /// The tap channel [`Link::start_channel`] started, once it is open (the losses its link
    /// recovered from counted here).
    pub fn channel_opened(&mut self) -> anyhow::Result<Channel> {
        if let Some(thread) = self.pending.take() {
            let (side, opened) = thread
                .join()
                .map_err(|_| anyhow::anyhow!("internal: the tap channel's thread panicked"))?;
            self.reconnects += side.reconnects;
            self.incidents.extend(side.incidents);
            opened?;
            self.drop_tapper();
            self.tapper = side.tapper;
            self.channel = side.channel;
            if !self.least_gap.is_zero() {
                self.keep_taps_apart_on_phone(self.least_gap);
            }
        }
        match &self.channel {
            Some(c) => Ok(c.chosen.clone()),
            None => anyhow::bail!("internal: no tap channel was opened"),
        }
    }

    /// Chooses and opens the tap channel on this thread, through the recovery.
    fn open_now(
        &mut self,
        asked: Option<ChannelKind>,
        size: (u32, u32),
        options: TapperOptions,
    ) -> anyhow::Result<()> {
        let chosen = self.call("choosing the tap channel", |d| tap::choose(d, asked))?;
        self.channel = Some(Opened {
            chosen,
            size,
            options,
        });
        self.reopen_channel("opening the tap channel")
    }

    /// Keeps taps at least `gap` apart as the phone gets them from now on (apps that read taps
    /// against their last drawn frame; zero: no such need), on this channel and on any reopened
    /// one: each tap waits for the proof that the one before it is in.
    pub fn keep_taps_apart_on_phone(&mut self, gap: Duration) {
        if gap.is_zero() {
            return;
        }
        self.least_gap = self.least_gap.max(gap);
        if let Some(c) = self.channel.as_mut() {
            c.options.pace = c.options.pace.max(gap);
            c.options.pace_on_phone = true;
            if let Some(t) = self.tapper.as_mut() {
                t.set_pace(c.options.pace, true);
            }
        }
    }

    fn reopen_channel(&mut self, what: &str) -> anyhow::Result<()> {
        let Some(c) = self.channel.clone() else {
            anyhow::bail!("internal: no tap channel was opened");
        };
        self.drop_tapper();
        let tapper = self.retry_restored(|link| {
            link.call(what, |d| {
                Tapper::open(d, c.chosen.clone(), c.size, c.options.clone())
            })
        })?;
        tracing::debug!(serial = %self.device.serial, channel = ?c.chosen.kind, "{what}: done");
        self.tapper = Some(tapper);
        Ok(())
    }

    fn drop_tapper(&mut self) {
        if let Some(old) = self.tapper.take() {
            let (n, busy) = old.rate_sample();
            self.rated_before.0 += n;
            self.rated_before.1 += busy;
        }
    }

    /// Measures both capture methods once and returns the first frame.
    pub(crate) fn measure_capture(&mut self) -> anyhow::Result<RgbaImage> {
        let (screen, frame) = self.call("taking the first screenshot", Screen::measure)?;
        self.screen = Some(screen);
        Ok(frame)
    }

    /// One frame with the method measured fastest.
    pub fn grab(&mut self) -> anyhow::Result<RgbaImage> {
        let screen = match &self.screen {
            Some(s) => s.clone(),
            None => return self.measure_capture(),
        };
        self.call("taking a screenshot", |_| screen.grab())
    }

    /// How frames are taken (`raw 41 ms, png 180 ms (using ...)`).
    pub fn capture(&self) -> String {
        self.screen
            .as_ref()
            .map(Screen::describe)
            .unwrap_or_default()
    }

    /// The tap channel's kind.
    pub(crate) fn channel_kind(&self) -> Option<ChannelKind> {
        self.channel.as_ref().map(|c| c.chosen.kind)
    }

    /// Taps per second the phone carried out over the channels' working time (after
    /// [`Link::restart_rate`]).
    pub fn taps_per_sec(&self) -> f64 {
        let (mut done, mut busy) = self.rated_before;
        if let Some((n, b)) = self.tapper.as_ref().map(Tapper::rate_sample) {
            done += n;
            busy += b;
        }
        if done == 0 {
            return 0.0;
        }
        done as f64 / busy.as_secs_f64().max(1e-6)
    }

    /// Measures [`Link::taps_per_sec`] from the next tap on.
    pub(crate) fn restart_rate(&mut self) {
        self.rated_before = (0, Duration::ZERO);
        if let Some(t) = self.tapper.as_mut() {
            t.restart_rate();
        }
    }

    /// Queues a tap. After a lost and restored link: [`Restored`].
    pub fn tap(&mut self, x: u32, y: u32) -> anyhow::Result<()> {
        self.channel_op("sending taps", |t| t.tap(x, y))
    }

    /// Presses `key` through the tap channel, after the queued taps. A phone that refuses keys
    /// injected from the shell while the channel's taps land fails with
    /// [`crate::device::Refusal::Keys`] (see `phone::back` for what presses BACK then).
    pub fn key(&mut self, key: Key) -> anyhow::Result<()> {
        self.channel_op("sending a key", |t| t.key(key.line()))
    }

    /// Swipes from `from` to `to` over `ms` milliseconds through the tap channel, after the
    /// queued taps: a contact dragged on the touch panel where the channel writes it (no
    /// refusal of injected input stops that), else `input swipe`.
    pub fn swipe(&mut self, from: (u32, u32), to: (u32, u32), ms: u32) -> anyhow::Result<()> {
        self.channel_op("swiping", |t| t.swipe(from, to, ms))
    }

    /// Waits until the phone has run every queued tap. After a lost and restored link:
    /// [`Restored`].
    pub fn flush(&mut self) -> anyhow::Result<()> {
        self.channel_op("waiting for the taps to land", Tapper::flush)
    }

    fn channel_op(
        &mut self,
        what: &str,
        f: impl FnOnce(&mut Tapper) -> Result<(), DeviceError>,
    ) -> anyhow::Result<()> {
        if self.pending.is_some() {
            self.channel_opened()?;
        }
        if self.tapper.is_none() {
            self.reopen_channel("reopening the tap channel")?;
        }
        let Some(tapper) = self.tapper.as_mut() else {
            anyhow::bail!("internal: no tap channel is open");
        };
        match f(tapper) {
            Ok(()) => Ok(()),
            // Keys refused while taps land: the channel goes on.
            Err(e @ DeviceError::Refused(crate::device::Refusal::Keys { .. })) => Err(e.into()),
            Err(e @ DeviceError::Refused(_)) => {
                self.drop_tapper();
                Err(e.into())
            }
            Err(e) => {
                // The channel is gone with whatever it held: a new one, and a look before tapping.
                let started = Instant::now();
                self.drop_tapper();
                self.recover(what, &e)?;
                self.reconnected(what, &e, started);
                Err(Restored.into())
            }
        }
    }

    fn reconnected(&mut self, during: &str, error: &DeviceError, started: Instant) {
        self.reconnects += 1;
        tracing::info!(
            serial = %self.device.serial,
            during,
            %error,
            secs = started.elapsed().as_secs_f64(),
            reconnects = self.reconnects,
            "link restored"
        );
        self.incidents.push(Incident {
            kind: IncidentKind::Reconnect,
            what: format!(
                "lost the link while {during} ({error}); back after {:.1} s",
                started.elapsed().as_secs_f64()
            ),
        });
    }

    /// Reconnects and interruptions recorded since the last call.
    pub(crate) fn take_incidents(&mut self) -> Vec<Incident> {
        std::mem::take(&mut self.incidents)
    }

    /// Records an interruption dealt with (the screen was off, the app in the background).
    pub fn interruption(&mut self, what: String) {
        tracing::debug!(serial = %self.device.serial, %what, "interruption dealt with");
        self.incidents.push(Incident {
            kind: IncidentKind::Interruption,
            what,
        });
    }

    /// After `error` while `during`: waits for the device (see the module docs). Returns
    /// whether the link had been lost (and is back); `Ok(false)` when the device answered all
    /// along.
    fn recover(&mut self, during: &str, error: &DeviceError) -> anyhow::Result<bool> {
        let recovering = self.recovering.clone();
        let _one_at_a_time = recovering.lock().unwrap_or_else(|e| e.into_inner());
        let started = Instant::now();
        let deadline = started + self.timeout;
        let network = is_network_serial(&self.device.serial);
        let mut lost = false;
        let mut last_connect: Option<Instant> = None;
        let mut connect_error = String::new();
        let mut note = String::new();
        let mut delay = Duration::from_millis(100);
        tracing::debug!(serial = %self.device.serial, during, %error, "a device call failed: checking the link");
        loop {
            self.stop.check()?;
            let state = self.state();
            tracing::trace!(serial = %self.device.serial, ?state, "link state");
            match &state {
                State::Online => {
                    match self.device.answers(ANSWER_TIMEOUT) {
                        Ok(true) => break,
                        Ok(_) => {}
                        Err(e) => note = format!("it is listed but does not answer ({e})"),
                    }
                    lost = true;
                }
                State::NoServer(e) => {
                    lost = true;
                    note = format!("the adb server does not answer ({e})");
                    if let Route::Server(server) = &self.device.route
                        && server.addr.ip().is_loopback()
                        && let Err(e) = server.ensure_running()
                    {
                        note = format!("the adb server is gone and could not be started: {e}");
                    }
                }
                State::Listed(_) | State::Absent if network => {
                    lost = true;
                    let listed = match &state {
                        State::Listed(s) => s.as_str(),
                        _ => "",
                    };
                    note =
                        self.connect_again(listed, started, &mut last_connect, &mut connect_error);
                }
                State::Listed(s) => {
                    lost = true;
                    note = listed_as(s);
                }
                State::Absent => {
                    lost = true;
                    note = "the adb server no longer lists it: is the cable plugged in?".into();
                }
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(self.lost(during, error, &note));
            }
            std::thread::sleep(delay.min(deadline - now));
            delay = (delay * 2).min(Duration::from_millis(1000));
        }
        Ok(lost)
    }

    /// The stop when the device did not come back in time after `error` while `during`
    /// (`note`: what the last look saw).
    fn lost(&self, during: &str, error: &DeviceError, note: &str) -> anyhow::Error {
        tracing::info!(
            serial = %self.device.serial,
            during,
            %error,
            waited_secs = self.timeout.as_secs_f64(),
            %note,
            "link lost: the device did not come back in time"
        );
        Stop::DeviceLost {
            serial: self.device.serial.clone(),
            during: during.to_string(),
            waited: self.timeout,
            why: format!("{note} (the first error: {error})"),
        }
        .into()
    }

    /// A network phone the adb server lists as `listed` (empty: not at all): `adb connect` again
    /// (the server may have forgotten it, or wait seconds before it retries a dropped connection
    /// on its own; an offline phone gets a second to come back by itself first, and connects are
    /// 2 s apart). Returns what the server says, with the last connect's failure.
    fn connect_again(
        &self,
        listed: &str,
        started: Instant,
        last_connect: &mut Option<Instant>,
        connect_error: &mut String,
    ) -> String {
        let mut note = if listed.is_empty() {
            "the adb server no longer lists it".to_string()
        } else {
            format!("the adb server lists it as {listed}")
        };
        let early = listed == "offline" && started.elapsed() < Duration::from_secs(1);
        if !early
            && last_connect.is_none_or(|t| t.elapsed() >= Duration::from_secs(2))
            && let Route::Server(server) = &self.device.route
        {
            *last_connect = Some(Instant::now());
            if listed == "offline" {
                let _ = server.disconnect(&self.device.serial);
            }
            let connected = server.connect(&self.device.serial);
            tracing::debug!(serial = %self.device.serial, ok = connected.is_ok(), "adb connect");
            *connect_error = match connected {
                Ok(_) => String::new(),
                Err(e) => format!(
                    ", and `adb connect {}` failed ({e}): is the phone on and on the network?",
                    self.device.serial
                ),
            };
        }
        note.push_str(connect_error);
        note
    }

    fn state(&self) -> State {
        match &self.device.route {
            Route::Server(server) => match server.devices() {
                Err(e) => State::NoServer(e.to_string()),
                Ok(list) => match list.iter().find(|d| d.serial == self.device.serial) {
                    Some(d) if d.is_ready() => State::Online,
                    Some(d) => State::Listed(d.state.clone()),
                    None => State::Absent,
                },
            },
            // Without a server, the next stream reconnects: the `echo` tells.
            Route::Direct(_) => State::Online,
        }
    }
}

/// `HOST:PORT` serials are network devices (`adb connect`); USB serials are not.
pub fn is_network_serial(serial: &str) -> bool {
    serial
        .rsplit_once(':')
        .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok())
}

/// What a USB phone the adb server lists in state `s` (not `device`) needs.
fn listed_as(s: &str) -> String {
    match s {
        "unauthorized" => {
            "it is unauthorized: accept the \"Allow USB debugging?\" prompt on the phone".into()
        }
        s => format!("the adb server lists it as {s} (replug the cable?)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_serials() {
        assert!(is_network_serial("127.0.0.1:5555"));
        assert!(is_network_serial("phone.local:40001"));
        assert!(!is_network_serial("R58M12ABCDE"));
        assert!(!is_network_serial("emulator-5554"));
        assert!(!is_network_serial(":5555"));
    }
}
