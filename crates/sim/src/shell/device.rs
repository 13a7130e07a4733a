//! The phone as the shell sees it: the app, its input queue, the touchscreen decoder, the
//! timing model and the realism knobs, shared by every connection and stream.

use super::evdev::InputEvent;
use super::log::Log;
use super::touch::{Gesture, TouchDecoder};
use crate::app::Phone;
use crate::dispatch::{Action, Dispatcher};
use crate::profile::Profile;
use crate::timing::{Costs, TimingMode};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Realism knobs of the device (not of the app).
#[derive(Debug, Clone, Default)]
pub struct Knobs {
    /// How long one `input` command takes.
    pub input_latency: Duration,
    /// Drop the TCP connection after this many shell commands (once).
    pub disconnect_after: Option<u64>,
    /// Whether commands, screenshots and the app's UI time cost real time.
    pub timing: TimingMode,
    /// `adb root` on a userdebug build: the shell is root and may write `/dev/input`.
    pub adb_root: bool,
    /// Xiaomi (MIUI, HyperOS), Honor and others without "USB debugging (Security settings)":
    /// the shell may not inject input (`super::refusal`: thrown from Android 13, dropped at
    /// dispatch before).
    pub inject_denied: bool,
    /// Canned answers (`--shell-output PREFIX=FILE`): a command line starting with a prefix
    /// prints its bytes (exit status 0) instead of running; the longest prefix wins.
    pub shell_outputs: Vec<(String, Vec<u8>)>,
    /// A busy phone (`--stream-stall`): some reads of a host's stream come late.
    pub stream_stall: Option<Stall>,
    /// A phone still starting (`--starting-ms`): how long after it listens its system server
    /// comes up ([`super::starting`]).
    pub starting: Duration,
}

/// A busy phone's late reads: every `every`-th read of a host's stream (a `dd`'s or the tap
/// injector's stdin) comes `late` after the one before it, as when the reading process is not
/// scheduled for a while; what the host wrote meanwhile is then read at once, so its taps reach
/// the input dispatcher together however far apart they were sent. Tools that need taps apart
/// on the phone wait there (minitouch's `w <ms>` runs on the phone) or, over a plain stream,
/// send the next only once the last is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stall {
    pub every: u32,
    pub late: Duration,
}

impl Stall {
    /// How long to wait before read number `n` (from 1).
    pub fn before_read(stall: Option<Stall>, n: u64) -> Duration {
        match stall {
            Some(s) if s.every > 0 && n.is_multiple_of(u64::from(s.every)) => s.late,
            _ => Duration::ZERO,
        }
    }
}

/// Shared device state.
pub struct Handset {
    profile: Profile,
    phone: Mutex<Phone>,
    /// Touches waiting for the app (locked after `phone` when both are held).
    dispatcher: Mutex<Dispatcher>,
    touch: Mutex<TouchDecoder>,
    costs: Costs,
    /// xorshift state for where in a measured range a cost falls.
    rng: AtomicU64,
    knobs: Knobs,
    commands: AtomicU64,
    dropped: AtomicBool,
    /// The next process id, and the I/O counters of the live shell processes (`/proc/PID/io`).
    next_pid: AtomicU32,
    processes: Mutex<HashMap<u32, Io>>,
    /// Files pushed to the phone (`/data/local/tmp`), by path.
    files: Mutex<HashMap<String, Vec<u8>>>,
    /// Until when the screen animates after the last touch (uiautomator cannot get an idle
    /// state meanwhile on phones with [`crate::profile::Quirks::ui_idle_error`]).
    animating_until: Mutex<Instant>,
    /// The system's log (`logcat`).
    log: Log,
    /// When the system server is up (the knobs' `starting` after the phone was made).
    up_at: Instant,
}

/// How long the app's screen animates after a touch it handled (a cell highlight, a digit
/// appearing, a dialog sliding in).
pub const ANIMATION: Duration = Duration::from_millis(600);

/// Where the shell user may create files.
pub const WRITABLE_DIR: &str = "/data/local/tmp/";

/// A process's I/O counters, as `/proc/PID/io` shows them (the kernel counts every byte a
/// process reads and writes, whatever the file).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Io {
    pub rchar: u64,
    pub wchar: u64,
    pub syscr: u64,
    pub syscw: u64,
}

impl Handset {
    /// A device running `phone`.
    pub fn new(phone: Phone, knobs: Knobs) -> Handset {
        Handset {
            profile: phone.profile().clone(),
            costs: Costs {
                mode: knobs.timing,
                phone: phone.profile().timing,
            },
            phone: Mutex::new(phone),
            dispatcher: Mutex::new(Dispatcher::default()),
            touch: Mutex::new(TouchDecoder::default()),
            rng: AtomicU64::new(0x9E37_79B9_7F4A_7C15),
            commands: AtomicU64::new(0),
            dropped: AtomicBool::new(false),
            next_pid: AtomicU32::new(4000),
            processes: Mutex::new(HashMap::new()),
            files: Mutex::new(HashMap::new()),
            animating_until: Mutex::new(Instant::now()),
            log: Log::default(),
            up_at: Instant::now() + knobs.starting,
            knobs,
        }
    }

    /// Whether the system server is up (not while the phone is still starting).
    pub fn system_up(&self) -> bool {
        Instant::now() >= self.up_at
    }

    /// The system's log.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// The device profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Whether the shell may open the touch panel for writing (the Android version's rule,
    /// unless `adb root`).
    pub fn panel_writable(&self) -> bool {
        self.profile.shell_may_write_panel(self.knobs.adb_root)
    }

    /// Whether the shell may not inject input (`--inject-denied`); root (`adb root`) always may:
    /// the permission check grants uid 0 everything (AOSP `ActivityManager.checkComponentPermission`).
    pub fn injection_refused(&self) -> bool {
        self.knobs.inject_denied && !self.knobs.adb_root
    }

    /// The app's package name.
    pub fn package(&self) -> String {
        self.phone
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .options()
            .package()
            .to_string()
    }

    /// The knobs.
    pub fn knobs(&self) -> &Knobs {
        &self.knobs
    }

    /// What the phone's work costs.
    pub fn costs(&self) -> &Costs {
        &self.costs
    }

    /// A number in [0, 1) (where in a measured range one cost falls).
    pub(crate) fn unit_random(&self) -> f64 {
        let mut x = self.rng.load(Ordering::Relaxed);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng.store(x, Ordering::Relaxed);
        (x >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Locks the app (never held across an await), after it has handled every touch that is
    /// due by now.
    pub fn phone(&self) -> MutexGuard<'_, Phone> {
        let mut phone = self.phone.lock().unwrap_or_else(|e| e.into_inner());
        self.queue().settle(&mut phone, Instant::now());
        phone
    }

    fn queue(&self) -> MutexGuard<'_, Dispatcher> {
        self.dispatcher.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues an action for the app; returns when the app will have handled it.
    pub(crate) fn inject(&self, action: Action) -> Instant {
        let due = self
            .queue()
            .push(action, self.costs.app_tap(), Instant::now());
        *self
            .animating_until
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = due + ANIMATION;
        due
    }

    /// Whether the screen is still animating after the last touch.
    pub(crate) fn animating(&self) -> bool {
        Instant::now()
            < *self
                .animating_until
                .lock()
                .unwrap_or_else(|e| e.into_inner())
    }

    /// The input dispatcher's backlog now: each action not yet handled, and whether the app is
    /// busy with it (its UI time has started).
    pub(crate) fn input_backlog(&self) -> Vec<(Action, bool)> {
        let _settled = self.phone();
        let now = Instant::now();
        let ui = self.costs.app_tap();
        self.queue()
            .pending()
            .map(|&(due, a)| (a, due.checked_sub(ui).is_none_or(|start| start <= now)))
            .collect()
    }

    /// Feeds one `sendevent` to the touchscreen.
    pub(crate) fn touch_event(&self, kind: u16, code: u16, value: i32) {
        self.panel_events(&[InputEvent { kind, code, value }]);
    }

    /// Events written to the touch panel: decoded (protocol B), and the gestures they complete
    /// queued for the app.
    pub(crate) fn panel_events(&self, events: &[InputEvent]) {
        if events.is_empty() {
            return;
        }
        let mut gestures = Vec::new();
        {
            let mut touch = self.touch.lock().unwrap_or_else(|e| e.into_inner());
            for e in events {
                gestures.extend(touch.event(&self.profile, e.kind, e.code, e.value));
            }
        }
        for g in gestures {
            self.inject(match g {
                Gesture::Tap(x, y) => Action::Tap(x, y),
                Gesture::Swipe { from, to, ms } => Action::Swipe { from, to, ms },
            });
        }
    }

    /// Counts one executed shell command; returns true exactly once, when the
    /// `--disconnect-after` budget is reached and the connection should be dropped.
    pub(crate) fn count_command(&self) -> bool {
        let n = self.commands.fetch_add(1, Ordering::SeqCst) + 1;
        match self.knobs.disconnect_after {
            Some(limit) if n >= limit => !self.dropped.swap(true, Ordering::SeqCst),
            _ => false,
        }
    }

    /// Starts a process: its id.
    pub fn spawn(&self) -> u32 {
        let pid = self.next_pid.fetch_add(1, Ordering::Relaxed);
        self.procs().insert(pid, Io::default());
        pid
    }

    /// A live process's I/O counters so far.
    pub fn io(&self, pid: u32) -> Option<Io> {
        self.procs().get(&pid).copied()
    }

    /// Updates a live process's I/O counters.
    pub(crate) fn set_io(&self, pid: u32, io: Io) {
        if let Some(slot) = self.procs().get_mut(&pid) {
            *slot = io;
        }
    }

    /// The process ended.
    pub fn exit(&self, pid: u32) {
        self.procs().remove(&pid);
    }

    fn procs(&self) -> MutexGuard<'_, HashMap<u32, Io>> {
        self.processes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A file's bytes (`None`: no such file).
    pub fn file(&self, path: &str) -> Option<Vec<u8>> {
        self.files
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(path)
            .cloned()
    }

    /// Creates or replaces a file; the error is the reason, as the phone says it.
    pub fn write_file(&self, path: &str, bytes: Vec<u8>) -> Result<(), String> {
        let name = path.strip_prefix(WRITABLE_DIR).unwrap_or("");
        if name.is_empty() || name.contains('/') {
            return Err("couldn't create file: Permission denied".into());
        }
        self.files
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_string(), bytes);
        Ok(())
    }

    /// Shell commands executed so far (all connections).
    pub fn commands_run(&self) -> u64 {
        self.commands.load(Ordering::SeqCst)
    }
}
