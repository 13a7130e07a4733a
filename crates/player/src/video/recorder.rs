//! The phone's own video of a run: `screenrecord` chained past its 3-minute limit.
//!
//! One recording ([`Device::screenrecord`]) stops after its time limit, so the next one is
//! started a little before that, beside it; the video switches to the new one at its first key
//! frame and the old one's stream is closed. Where a second recording cannot start beside the
//! first, the next starts when the first ends (a seam of the phone's start-up time). Every
//! access unit is stamped with the host's clock on arrival (a raw H.264 stream has no times).
//! Until the run's session exists ([`Recorder::attach`]) the video is kept in memory; then it
//! is written to `screen.h264` in the session as it comes, and [`Recorder::finish`] turns it
//! into `screen.mp4` with the search's counts as captions.

use super::annexb::{AccessUnits, Unit};
use crate::device::Device;
use crate::device::android::refusal;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long before a recording's limit the next one starts beside it.
const LEAD: Duration = Duration::from_secs(3);
/// How long to wait before starting again after a recording ended early.
const RETRY: Duration = Duration::from_millis(500);
/// Recordings that end without a frame, the phone saying why, before recording is given up.
const REFUSALS: u32 = 2;
/// The bytes of a recording's start kept to say what the phone printed instead of a video.
const HEAD: usize = 512;
/// Stopping waits until no frame came for this long (the phone's last frames are on their way:
/// its encoder and the link take tens of milliseconds), at most [`LAST_FRAMES`].
const QUIET: Duration = Duration::from_millis(300);
const LAST_FRAMES: Duration = Duration::from_secs(2);

/// How a run is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordOptions {
    /// One recording's length before the next takes over (at most the phone's 180 s).
    pub segment: Duration,
    /// Bits per second asked of the phone's encoder.
    pub bit_rate: u32,
}

impl Default for RecordOptions {
    /// 180 s per recording; 4 Mbps, at most 30 MB a minute (screenrecord's default, 20 Mbps,
    /// would be 150 MB), which a phone's screen of a board and keys needs far less of.
    fn default() -> Self {
        RecordOptions {
            segment: crate::device::android::MAX_RECORDING,
            bit_rate: 4_000_000,
        }
    }
}

/// A recording in progress; see the module docs.
pub struct Recorder {
    sink: Arc<Mutex<Sink>>,
    control: mpsc::Sender<Msg>,
    controller: Option<JoinHandle<()>>,
    epoch: Instant,
}

/// What the controller hears: a recording's end, or the order to stop.
enum Msg {
    Ended { id: u32, units: u64, head: Vec<u8> },
    Stop,
}

/// Where the units go, and what went wrong.
#[derive(Default)]
pub(super) struct Sink {
    /// The recording whose units are kept (the newest that sent a key frame).
    current: Option<u32>,
    /// When the last unit came.
    last_unit: Option<Instant>,
    /// Units before [`Recorder::attach`].
    pending: Vec<(u32, Unit)>,
    /// `screen.h264` once attached, and the units written to it.
    file: Option<(PathBuf, std::fs::File)>,
    pub(super) stored: Vec<Stored>,
    /// Why the phone does not record (said once), once recording was given up.
    pub(super) problem: Option<String>,
    /// What the phone last said instead of a video, and the last error opening a recording.
    refused: Option<String>,
    opening: Option<String>,
}

/// A unit written to `screen.h264`: its recording, where its bytes are, and its time.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stored {
    pub(super) recording: u32,
    pub(super) offset: u64,
    pub(super) len: u64,
    pub(super) at_us: u64,
}

impl Recorder {
    /// Starts recording `device`'s screen.
    pub fn start(device: Device, options: RecordOptions) -> Recorder {
        let sink = Arc::new(Mutex::new(Sink::default()));
        let epoch = Instant::now();
        let (control, inbox) = mpsc::channel();
        let chain = Chain {
            device,
            options,
            sink: sink.clone(),
            epoch,
            outbox: control.clone(),
            live: Vec::new(),
            next: 0,
            refusals: 0,
        };
        let controller = std::thread::Builder::new()
            .name("screenrecord".into())
            .spawn(move || chain.run(&inbox))
            .ok();
        Recorder {
            sink,
            control,
            controller,
            epoch,
        }
    }

    /// The host time the units' times count from.
    pub fn epoch(&self) -> Instant {
        self.epoch
    }

    /// From now on the video goes to `dir/screen.h264` (with what came before).
    pub fn attach(&self, dir: &Path) -> anyhow::Result<()> {
        let path = dir.join("screen.h264");
        let file = std::fs::File::create(&path)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", path.display()))?;
        let mut sink = lock(&self.sink);
        sink.file = Some((path, file));
        for (id, unit) in std::mem::take(&mut sink.pending) {
            sink.store(id, &unit);
        }
        Ok(())
    }

    /// Stops recording and returns what was recorded (the units written to the attached
    /// file), or why there is nothing.
    pub(super) fn stop(mut self) -> (Option<PathBuf>, Vec<Stored>, Option<String>) {
        let _ = self.control.send(Msg::Stop);
        if let Some(c) = self.controller.take() {
            let _ = c.join();
        }
        let mut sink = lock(&self.sink);
        let path = sink.file.take().map(|(p, _)| p);
        let nothing = sink.stored.is_empty();
        let why = sink.refused.clone().or_else(|| sink.opening.clone());
        let problem = sink.problem.take().or_else(|| why.filter(|_| nothing));
        (path, std::mem::take(&mut sink.stored), problem)
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        let _ = self.control.send(Msg::Stop);
    }
}

impl Sink {
    /// A unit of recording `id`: kept when it is the current recording's (a newer one takes
    /// over at its first key frame).
    fn unit(&mut self, id: u32, unit: Unit) {
        self.last_unit = Some(Instant::now());
        if unit.key && self.current.is_none_or(|c| id > c) {
            self.current = Some(id);
        }
        if self.current != Some(id) {
            return;
        }
        if self.file.is_some() {
            self.store(id, &unit);
        } else {
            self.pending.push((id, unit));
        }
    }

    fn store(&mut self, recording: u32, unit: &Unit) {
        let Some((_, file)) = self.file.as_mut() else {
            return;
        };
        let offset = self.stored.last().map_or(0, |s| s.offset + s.len);
        let bytes = annex_b(unit);
        if file.write_all(&bytes).is_err() {
            self.problem = Some("the video could not be written to the session".into());
            return;
        }
        self.stored.push(Stored {
            recording,
            offset,
            len: bytes.len() as u64,
            at_us: unit.at_us,
        });
    }
}

/// A unit's NAL units with start codes.
pub(super) fn annex_b(unit: &Unit) -> Vec<u8> {
    let mut out = Vec::new();
    for nal in &unit.nals {
        out.extend_from_slice(&[0, 0, 0, 1]);
        out.extend_from_slice(nal);
    }
    out
}

fn lock(sink: &Mutex<Sink>) -> MutexGuard<'_, Sink> {
    sink.lock().unwrap_or_else(|e| e.into_inner())
}

/// The controller: starts recordings, chains them, starts again after an early end.
struct Chain {
    device: Device,
    options: RecordOptions,
    sink: Arc<Mutex<Sink>>,
    epoch: Instant,
    outbox: mpsc::Sender<Msg>,
    /// The recordings running: id, the sender whose drop closes the stream, started when.
    live: Vec<(u32, mpsc::Sender<Vec<u8>>, Instant)>,
    next: u32,
    refusals: u32,
}

impl Chain {
    fn run(mut self, inbox: &mpsc::Receiver<Msg>) {
        self.begin();
        loop {
            let chain_at = self.live.last().map(|(_, _, t)| *t + self.chain_after());
            let wait = chain_at.map_or(RETRY, |t| t.saturating_duration_since(Instant::now()));
            match inbox.recv_timeout(wait) {
                Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => break,
                Ok(Msg::Ended { id, units, head }) => {
                    if !self.ended(id, units, &head) {
                        break;
                    }
                }
                Err(RecvTimeoutError::Timeout) => self.begin(),
            }
            self.close_superseded();
        }
        self.wait_for_quiet();
        // The streams close; their last units come in before their ends are told.
        let mut closing: Vec<u32> = self.live.drain(..).map(|(id, _, _)| id).collect();
        let deadline = Instant::now() + Duration::from_secs(2);
        while !closing.is_empty() {
            match inbox.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Msg::Ended { id, .. }) => closing.retain(|c| *c != id),
                Ok(Msg::Stop) => {}
                Err(_) => break,
            }
        }
    }

    /// Waits for the frames on their way: until none came for [`QUIET`].
    fn wait_for_quiet(&self) {
        let deadline = Instant::now() + LAST_FRAMES;
        loop {
            let last = lock(&self.sink).last_unit;
            let quiet_at = last.map_or(Instant::now(), |t| t + QUIET);
            let now = Instant::now();
            if self.live.is_empty() || quiet_at <= now || now >= deadline {
                return;
            }
            std::thread::sleep(quiet_at.min(deadline) - now);
        }
    }

    /// When the next recording starts beside the newest one.
    fn chain_after(&self) -> Duration {
        let segment = self.options.segment;
        segment.saturating_sub(LEAD.min(segment / 3))
    }

    /// Starts a recording.
    fn begin(&mut self) {
        let id = self.next;
        self.next += 1;
        let output = Output {
            id,
            sink: self.sink.clone(),
            split: AccessUnits::default(),
            epoch: self.epoch,
            units: 0,
            head: Vec::new(),
            outbox: self.outbox.clone(),
        };
        let sink = self.sink.clone();
        let failed = move |e: crate::device::DeviceError| {
            lock(&sink).opening = Some(e.to_string());
        };
        let started = Instant::now();
        let opts = self.options;
        if let Some(tx) =
            self.device
                .screenrecord(opts.segment, opts.bit_rate, Box::new(output), failed)
        {
            self.live.push((id, tx, started));
        }
    }

    /// A recording ended after `units` units; `head`: its first bytes. Returns whether to go
    /// on recording.
    fn ended(&mut self, id: u32, units: u64, head: &[u8]) -> bool {
        self.live.retain(|(l, _, _)| *l != id);
        match refusal(head) {
            Some(said) if units == 0 => {
                self.refusals += 1;
                let said = format!("the phone said: {said}");
                let mut sink = lock(&self.sink);
                sink.refused = Some(said.clone());
                if self.refusals >= REFUSALS {
                    sink.problem = Some(said);
                    return false;
                }
            }
            _ => self.refusals = 0,
        }
        if self.live.is_empty() {
            std::thread::sleep(if units == 0 { RETRY } else { Duration::ZERO });
            self.begin();
        }
        true
    }

    /// Closes the recordings older than the one the video took over to.
    fn close_superseded(&mut self) {
        let current = lock(&self.sink).current;
        if let Some(c) = current {
            self.live.retain(|(id, _, _)| *id >= c);
        }
    }
}

/// One recording's output: split into units, stamped, handed to the sink; its end told.
struct Output {
    id: u32,
    sink: Arc<Mutex<Sink>>,
    split: AccessUnits,
    epoch: Instant,
    units: u64,
    head: Vec<u8>,
    outbox: mpsc::Sender<Msg>,
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.head.len() < HEAD {
            let n = (HEAD - self.head.len()).min(buf.len());
            self.head.extend_from_slice(&buf[..n]);
        }
        let at = self.epoch.elapsed().as_micros() as u64;
        for unit in self.split.push(buf, at) {
            self.units += 1;
            lock(&self.sink).unit(self.id, unit);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some(unit) = self.split.finish() {
            self.units += 1;
            lock(&self.sink).unit(self.id, unit);
        }
        let _ = self.outbox.send(Msg::Ended {
            id: self.id,
            units: self.units,
            head: std::mem::take(&mut self.head),
        });
    }
}
