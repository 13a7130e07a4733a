//! The `raw` channel's stream (`raw.rs`): binary `input_event` records streamed into the touch
//! panel's `/dev/input/eventN` by one long-lived `exec:dd of=DEV bs=N`
//! (a plain copy: no process per event, unlike `sendevent`, and no Java start-up per tap, unlike
//! `input`). minitouch does the same from a binary it pushes to the phone; we need nothing on
//! the phone but its own `dd`.
//!
//! The kernel takes records of `sizeof(struct input_event)` *of the writing process*: 24 bytes
//! from a 64-bit `dd`, 16 bytes from a 32-bit one (a 32-bit userspace on a 64-bit kernel, as on
//! Android Go phones), and refuses a write shorter than one record (`EINVAL`). So the record
//! size is guessed from the ABI properties and then verified with a harmless write: one
//! `SYN_REPORT` (an empty packet, which the input core drops) written by `dd ... count=1`,
//! whose summary says whether the record went in.

use super::panel::{EV_SYN, RECORD_32, RECORD_64, TouchPanel, guess_record, push, release};
use crate::device::{CALL_TIMEOUT, Device, DeviceError};
use std::io::Write;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

/// The `dd` command that copies its stdin into the panel, in records of `record` bytes.
pub(super) fn copy_command(panel: &TouchPanel, record: usize, count: Option<u64>) -> String {
    match count {
        Some(n) => format!("dd of={} bs={record} count={n}", panel.device),
        None => format!("dd of={} bs={record}", panel.device),
    }
}

/// The long-lived copy of the raw channel: it prints its process id first (`exec` keeps the
/// shell's), so the host can read `/proc/PID/io`, whose `wchar` counts the bytes `dd` has
/// written into the panel: the proof that records sent on this stream arrived, which no ack on
/// another stream can give.
pub(super) fn stream_command(panel: &TouchPanel, record: usize) -> String {
    format!("echo pid:$$; exec {}", copy_command(panel, record, None))
}

/// Why the panel cannot take raw records, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct NotWritable(pub String);

/// Finds the record size the panel takes from this device's `dd`: the ABI's guess first, then
/// the other size, each checked by writing one empty `SYN_REPORT`.
pub(super) fn record_size(
    device: &Device,
    panel: &TouchPanel,
) -> Result<Result<usize, NotWritable>, DeviceError> {
    let abi = device.getprop("ro.product.cpu.abi")?;
    let guess = guess_record(&abi);
    let other = if guess == RECORD_64 {
        RECORD_32
    } else {
        RECORD_64
    };
    let mut tried = Vec::new();
    for record in [guess, other] {
        let mut syn = Vec::new();
        push(&mut syn, record, EV_SYN, 0, 0);
        let out = one_shot(device, &copy_command(panel, record, Some(1)), &syn)?;
        if out.contains("1+0 records out") {
            return Ok(Ok(record));
        }
        let said = out
            .lines()
            .find(|l| l.starts_with("dd:"))
            .unwrap_or(out.trim());
        if said.contains("Permission denied") {
            return Ok(Err(NotWritable(format!(
                "the shell user may not write {} ({said})",
                panel.device
            ))));
        }
        tried.push(format!("{record}-byte records: {said:?}"));
    }
    Ok(Err(NotWritable(format!(
        "{} took neither record size (ro.product.cpu.abi={abi}; {})",
        panel.device,
        tried.join("; ")
    ))))
}

/// Runs `command` on an `exec:` stream with `input` on its stdin (the stream stays open until
/// the command ends, as `dd count=1` does) and returns its output.
fn one_shot(device: &Device, command: &str, input: &[u8]) -> Result<String, DeviceError> {
    let stream = RawStream::open(device, command);
    stream.send(input.to_vec());
    let deadline = Instant::now() + CALL_TIMEOUT;
    let out = stream
        .wait_closed(deadline)
        .ok_or_else(|| DeviceError::Timeout {
            what: format!("`adb exec-out {command}` on {}", device.serial),
            secs: CALL_TIMEOUT.as_secs_f64(),
        })?;
    Ok(out)
}

/// What a stream's command printed, and whether the stream has ended.
#[derive(Default)]
struct Output {
    state: Mutex<(Vec<u8>, bool)>,
    cv: std::sync::Condvar,
}

/// Collects a stream's output; marks it ended when dropped (the device closed the stream).
struct OutputSink(Arc<Output>);

impl Write for OutputSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut st = self.0.state.lock().unwrap_or_else(|p| p.into_inner());
        if st.0.len() < 64 * 1024 {
            st.0.extend_from_slice(buf);
        }
        self.0.cv.notify_all();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for OutputSink {
    fn drop(&mut self) {
        let mut st = self.0.state.lock().unwrap_or_else(|p| p.into_inner());
        st.1 = true;
        self.0.cv.notify_all();
    }
}

/// A long-lived `exec:` stream fed from a channel (the raw tap channel's `dd` into the panel).
struct RawStream {
    tx: mpsc::Sender<Vec<u8>>,
    output: Arc<Output>,
}

impl RawStream {
    /// Opens `exec:command` on a thread of its own; writes are queued until it is open.
    fn open(device: &Device, command: &str) -> RawStream {
        let output = Arc::new(Output::default());
        let ended = output.clone();
        let tx = device.stream_on_thread(
            "raw-stream",
            format!("exec:{command}"),
            Box::new(OutputSink(output.clone())),
            move |e| {
                let mut st = ended.state.lock().unwrap_or_else(|p| p.into_inner());
                st.0.extend_from_slice(format!("\n{e}").as_bytes());
                st.1 = true;
                ended.cv.notify_all();
            },
        );
        let tx = tx.unwrap_or_else(|| {
            let mut st = output.state.lock().unwrap_or_else(|p| p.into_inner());
            *st = (b"cannot start a thread".to_vec(), true);
            mpsc::channel().0
        });
        RawStream { tx, output }
    }

    /// Queues bytes for the stream; false once it has ended.
    fn send(&self, bytes: Vec<u8>) -> bool {
        !self.ended() && self.tx.send(bytes).is_ok()
    }

    /// Whether the device closed the stream (the command ended or the link dropped).
    fn ended(&self) -> bool {
        self.output
            .state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .1
    }

    /// Waits for the `pid:N` line of [`stream_command`] (`None` if the stream ends first or at
    /// the deadline).
    fn pid(&self, deadline: Instant) -> Option<u32> {
        let parse = |out: &[u8]| {
            let text = String::from_utf8_lossy(out);
            let (line, _) = text.split_once('\n')?;
            line.trim().strip_prefix("pid:")?.parse().ok()
        };
        let st = self.output.state.lock().unwrap_or_else(|p| p.into_inner());
        let left = deadline.saturating_duration_since(Instant::now());
        let (st, _) = self
            .output
            .cv
            .wait_timeout_while(st, left, |s| !s.1 && parse(&s.0).is_none())
            .unwrap_or_else(|p| p.into_inner());
        parse(&st.0)
    }

    /// What the command printed so far.
    fn output(&self) -> String {
        let st = self.output.state.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&st.0).trim().to_string()
    }

    /// Waits until the stream ends (`None` at the deadline) and returns its output.
    fn wait_closed(&self, deadline: Instant) -> Option<String> {
        let st = self.output.state.lock().unwrap_or_else(|p| p.into_inner());
        let left = deadline.saturating_duration_since(Instant::now());
        let (st, _) = self
            .output
            .cv
            .wait_timeout_while(st, left, |s| !s.1)
            .unwrap_or_else(|p| p.into_inner());
        st.1.then(|| String::from_utf8_lossy(&st.0).into_owned())
    }
}

/// The `raw` channel's open `dd` stream into the panel.
pub(super) struct Copier {
    stream: RawStream,
    /// Its process id, for `/proc/PID/io`.
    pub(super) pid: u32,
    /// Bytes sent into it so far.
    sent: u64,
}

impl Copier {
    /// Starts the `dd`, learns its pid (by `deadline`), and lifts any half-written tap first
    /// (`None`: the stream did not start).
    pub(super) fn open(
        device: &Device,
        panel: &TouchPanel,
        record: usize,
        deadline: Instant,
    ) -> Option<Copier> {
        let stream = RawStream::open(device, &stream_command(panel, record));
        let pid = stream.pid(deadline)?;
        let mut lift = Vec::new();
        release(&mut lift, panel, record);
        let sent = lift.len() as u64;
        stream.send(lift).then_some(Copier { stream, pid, sent })
    }

    /// Sends records; returns where they end in the stream (`None`: the stream is gone).
    pub(super) fn send(&mut self, bytes: Vec<u8>) -> Option<u64> {
        self.sent += bytes.len() as u64;
        self.stream.send(bytes).then_some(self.sent)
    }

    /// Whether the `dd` ended (it failed, or the link dropped).
    pub(super) fn ended(&self) -> bool {
        self.stream.ended()
    }

    /// What the `dd` printed.
    pub(super) fn said(&self) -> String {
        self.stream.output()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        let p = TouchPanel {
            device: "/dev/input/event2".into(),
            max_x: 4095,
            max_y: 4095,
            protocol: crate::device::android::Protocol::B,
            rotation: 0,
        };
        assert_eq!(
            copy_command(&p, 16, Some(1)),
            "dd of=/dev/input/event2 bs=16 count=1"
        );
        assert_eq!(
            stream_command(&p, 24),
            "echo pid:$$; exec dd of=/dev/input/event2 bs=24"
        );
    }
}
