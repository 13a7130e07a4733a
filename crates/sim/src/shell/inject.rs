//! `CLASSPATH=PATH app_process / CLASS`: the phone's Java launcher. It runs the project's tap
//! injector (`injector/`) when the bytes at PATH are exactly the dex the player ships
//! ([`sudoku_autoplay::device::tap::INJECTOR_DEX`]) and CLASS is its entry point; anything else
//! fails as a phone fails. The injector then speaks its protocol (`injector/README.md`): a
//! hello line, then one reply per 16-byte record read from stdin, its touches queued in the
//! same input dispatcher as every other channel's (asynchronous injection: it does not wait
//! for the app).

use super::device::Handset;
use super::log::{Buffer, Entry};
use super::output::Output;
use super::refusal;
use crate::dispatch::Action;
use std::time::{Duration, Instant};
use sudoku_autoplay::device::tap::injector::{
    INJECTOR_CLASS, INJECTOR_DEX, KIND_CHECK, KIND_DOWN, KIND_MOVE, KIND_PING, KIND_TAP, KIND_UP,
    RECORD, SCREEN_OFF, hello_line,
};

/// What `app_process` prints when the class is not found. From Android 8 the runtime logs the
/// `ClassNotFoundException` (`E appproc : ERROR: could not find class '...'`, then
/// `Didn't find class ... on path: DexPathList[...]`) to logcat and aborts, and the shell says
/// only `Aborted` (scrcpy issues 268, 953, 5178); older versions printed the exception (scrcpy
/// issue 2393, Android 5.1).
fn not_found(device: &Handset, pid: u32, class: &str, path: &str, out: &mut Output) -> i32 {
    let sdk = device.profile().sdk;
    if sdk >= 26 {
        device.log().write(Entry {
            buffer: Buffer::Main,
            pid,
            tid: pid,
            priority: 'E',
            tag: "appproc",
            message: format!("ERROR: could not find class '{class}'"),
        });
        out.err("Aborted \n");
        return 134;
    }
    out.err(format!(
        "java.lang.ClassNotFoundException: Didn't find class \"{class}\" on path: DexPathList[[zip file \"{path}\"],nativeLibraryDirectories=[/vendor/lib, /system/lib]]\n\
         \tat dalvik.system.BaseDexClassLoader.findClass(BaseDexClassLoader.java:56)\n\
         \tat java.lang.ClassLoader.loadClass(ClassLoader.java:511)\n\
         \tat java.lang.ClassLoader.loadClass(ClassLoader.java:469)\n"
    ));
    1
}

/// A running injector.
pub struct Injector {
    /// Bytes of a record not complete yet.
    partial: Vec<u8>,
    /// The point and time of the last down (a move or up gesture ends there).
    down: Option<((i32, i32), Instant)>,
    sdk: u32,
    /// The injector's process id (the dispatcher's log names it).
    pid: u32,
    denied: bool,
    /// A refused down was dropped at dispatch: its up goes nowhere either.
    dropping: bool,
}

/// `app_process ARGS` with `classpath` (the `CLASSPATH` assignment) as process `pid`: the
/// injector, started (its hello line is in `out`), or the exit status of a launch that failed.
pub fn start(
    device: &Handset,
    classpath: Option<&str>,
    args: &[String],
    pid: u32,
    out: &mut Output,
) -> Result<Injector, i32> {
    let sdk = device.profile().sdk;
    // app_process [vm options] cmd-dir start-class-name [options]
    let mut rest = args.iter().skip_while(|a| a.starts_with('-'));
    let (Some(_dir), Some(class)) = (rest.next(), rest.next()) else {
        out.err("Usage: app_process [java-options] cmd-dir start-class-name [options]\n");
        return Err(10);
    };
    let path = classpath.unwrap_or("");
    let ours = device.file(path).is_some_and(|bytes| bytes == INJECTOR_DEX);
    if !ours || class != INJECTOR_CLASS {
        return Err(not_found(device, pid, class, path, out));
    }
    out.out(format!("{}\n", hello_line(sdk, INJECTOR_DEX)));
    Ok(Injector {
        partial: Vec::new(),
        down: None,
        sdk,
        pid,
        denied: device.injection_refused(),
        dropping: false,
    })
}

impl Injector {
    /// Takes what one read of stdin returned: injects each whole record and writes its reply;
    /// returns the time the injections cost (one async binder call per event).
    pub fn feed(&mut self, device: &Handset, chunk: &[u8], out: &mut Output) -> Duration {
        self.partial.extend_from_slice(chunk);
        let whole = self.partial.len() / RECORD * RECORD;
        let records: Vec<u8> = self.partial.drain(..whole).collect();
        let mut events = 0u32;
        let mut replies = String::new();
        for r in records.chunks_exact(RECORD) {
            let (reply, n) = self.record(device, r);
            events += n;
            replies.push_str(&reply);
            replies.push('\n');
        }
        out.out(replies);
        device.costs().inject_event() * events
    }

    /// Injects one record (`r`, [`RECORD`] bytes): its reply line and the input events it
    /// cost.
    fn record(&mut self, device: &Handset, r: &[u8]) -> (String, u32) {
        let kind = r[0];
        let seq = u32::from_le_bytes([r[4], r[5], r[6], r[7]]);
        let x = i32::from_le_bytes([r[8], r[9], r[10], r[11]]);
        let y = i32::from_le_bytes([r[12], r[13], r[14], r[15]]);
        let mut events = 0u32;
        let reply = match kind {
            KIND_PING => format!("ok {seq}"),
            KIND_CHECK => {
                events += 2;
                self.check(device, seq)
            }
            KIND_TAP | KIND_DOWN | KIND_UP | KIND_MOVE
                if self.denied && refusal::on_entry(self.sdk) =>
            {
                events += 1;
                format!("err {seq} {}", refusal::denied(self.sdk))
            }
            // Before Android 13 the call returns at once and the dispatcher drops what
            // reaches a window (not what the policy takes: touches on a dark screen).
            KIND_TAP | KIND_DOWN if self.denied && device.phone().system().awake() => {
                events += if kind == KIND_TAP { 2 } else { 1 };
                refusal::dropped_at_dispatch(device, self.pid);
                self.dropping = kind == KIND_DOWN;
                format!("ok {seq}")
            }
            KIND_UP if self.dropping => {
                events += 1;
                self.dropping = false;
                format!("ok {seq}")
            }
            KIND_TAP => {
                events += 2;
                device.inject(Action::Tap(x, y));
                format!("ok {seq}")
            }
            KIND_DOWN => {
                events += 1;
                self.down = Some(((x, y), Instant::now()));
                format!("ok {seq}")
            }
            KIND_MOVE => {
                events += 1;
                format!("ok {seq}")
            }
            KIND_UP => {
                events += 1;
                let (from, at) = self.down.take().unwrap_or(((x, y), Instant::now()));
                let moved = (from.0 - x).abs().max((from.1 - y).abs());
                device.inject(if moved <= 8 {
                    Action::Tap(from.0, from.1)
                } else {
                    Action::Swipe {
                        from,
                        to: (x, y),
                        ms: at.elapsed().as_millis().min(10_000) as u32,
                    }
                });
                format!("ok {seq}")
            }
            k => format!("err {seq} bad kind {k}"),
        };
        (reply, events)
    }

    /// The check record's reply: a `KEYCODE_UNKNOWN` down and up injected waiting for the
    /// dispatcher's verdict. A refusal throws from Android 13 before anything is queued, and
    /// before it once the dispatcher picks the focused window (logged as for taps); with the
    /// display off the policy drops the key first, which reports success, so the injector asks
    /// the screen's state (`injector/README.md`, "The check").
    fn check(&self, device: &Handset, seq: u32) -> String {
        let awake = {
            let mut phone = device.phone();
            phone.tick();
            phone.system().awake()
        };
        if self.denied && (refusal::on_entry(self.sdk) || awake) {
            if !refusal::on_entry(self.sdk) {
                refusal::dropped_at_dispatch(device, self.pid);
            }
            format!("err {seq} {}", refusal::denied(self.sdk))
        } else if !awake && !refusal::on_entry(self.sdk) {
            format!("err {seq} {SCREEN_OFF}")
        } else {
            format!("ok {seq}")
        }
    }

    /// Stdin ended: the exit status (a record cut short is fatal).
    pub fn finish(&mut self, out: &mut Output) -> i32 {
        if self.partial.is_empty() {
            return 0;
        }
        out.out(format!(
            "fatal java.io.EOFException: truncated record ({} of 16 bytes)\n",
            self.partial.len()
        ));
        1
    }
}
