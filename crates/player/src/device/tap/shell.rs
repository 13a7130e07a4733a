//! The tap channel's control shell: one long-lived interactive shell (`shell,raw:`) that runs
//! the channel's lines (`input tap`, `sendevent`, `cat /proc/PID/io`, `dumpsys input`) and
//! answers each batch with `echo ack:N`. Its output is parsed here into what the delivery proof
//! ([`super::proof`]) needs: the highest ack, the input dispatcher's queue lengths and the raw
//! `dd`'s bytes written; and a refusal of injected input, which `input tap` prints
//! (`... INJECT_EVENTS permission`) and which ends the channel (no retry can help).

use crate::device::Device;
use crate::device::android::live_queued_line;
use crate::device::refusal::Refusal;
use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, mpsc};

/// What the shell's output said so far.
#[derive(Default)]
pub(super) struct AckState {
    /// The highest ack seen.
    pub(super) acked: u64,
    /// Input events waiting in the dispatcher per the last `dumpsys input` before that ack.
    pub(super) backlog: Option<u64>,
    /// `raw`: the bytes the `dd` had written per the latest `/proc/PID/io` before an ack.
    pub(super) wchar: Option<u64>,
    /// The shell ended.
    pub(super) closed: bool,
    /// A line said the phone refuses injected input (`input tap` printing a
    /// `SecurityException`): no tap of this channel lands.
    pub(super) refused: Option<Refusal>,
}

/// Acknowledgements seen in the shell's output.
#[derive(Default)]
pub(super) struct Acks {
    pub(super) state: Mutex<AckState>,
    pub(super) cv: Condvar,
}

/// Parses the shell's output into acks (and `dumpsys input` queue lengths); marks the shell
/// closed when dropped.
struct AckSink {
    acks: Arc<Acks>,
    line: Vec<u8>,
    /// Queued input events counted since the last ack (`None`: no `dumpsys input` seen).
    queued: Option<u64>,
    /// `wchar` of a `/proc/PID/io` since the last ack.
    wchar: Option<u64>,
    /// Inside `dumpsys input`'s "at time of last ANR" section: a snapshot that stays until the
    /// next ANR or a reboot, whose queues are not the live ones.
    in_anr_snapshot: bool,
}

impl AckSink {
    fn new(acks: Arc<Acks>) -> Self {
        AckSink {
            acks,
            line: Vec::new(),
            queued: None,
            wchar: None,
            in_anr_snapshot: false,
        }
    }
}

impl Write for AckSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let raw = String::from_utf8_lossy(&self.line);
                let line = raw.trim();
                let queued = live_queued_line(&raw, &mut self.in_anr_snapshot);
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
                } else if let Some(n) = queued {
                    *self.queued.get_or_insert(0) += n;
                } else if let Some(n) = line
                    .strip_prefix("wchar:")
                    .and_then(|n| n.trim().parse::<u64>().ok())
                {
                    self.wchar = Some(n);
                } else if let Some(refusal) = Refusal::in_text(line) {
                    let mut st = self.acks.state.lock().unwrap_or_else(|p| p.into_inner());
                    st.refused.get_or_insert(refusal);
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
        st.closed = true;
        self.acks.cv.notify_all();
    }
}

/// One open control shell.
pub(super) struct ControlShell {
    pub(super) tx: mpsc::Sender<Vec<u8>>,
    pub(super) acks: Arc<Acks>,
}

impl ControlShell {
    pub(super) fn open(device: &Device) -> Self {
        let acks = Arc::new(Acks::default());
        let closed = acks.clone();
        // If the shell cannot even start, the sink is dropped and the shell reads as closed.
        let tx = device
            .stream_on_thread(
                "tap-shell",
                "shell,raw:".into(),
                Box::new(AckSink::new(acks.clone())),
                move |_| {
                    let mut st = closed.state.lock().unwrap_or_else(|p| p.into_inner());
                    st.closed = true;
                    closed.cv.notify_all();
                },
            )
            .unwrap_or_else(|| mpsc::channel().0);
        ControlShell { tx, acks }
    }
}

impl Drop for ControlShell {
    fn drop(&mut self) {
        let _ = self.tx.send(b"exit\n".to_vec());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::android::live_queued;

    #[test]
    fn ack_sink_parses_acks_and_closes() {
        let acks = Arc::new(Acks::default());
        {
            let mut sink = AckSink::new(acks.clone());
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
            "dropping the sink marks the shell closed"
        );
    }

    /// `input tap` on a phone that refuses injected input prints the exception (a Honor phone,
    /// `tests/data/android/input-errors/`): the channel reads it as a refusal.
    #[test]
    fn ack_sink_reads_a_refusal() {
        let said = include_str!(
            "../../../../../tests/data/android/input-errors/honor-input-tap-inject-events-excerpt.txt"
        );
        let acks = Arc::new(Acks::default());
        let mut sink = AckSink::new(acks.clone());
        sink.write_all(said.as_bytes()).unwrap();
        sink.write_all(b"\nack:1\n").unwrap();
        let st = acks.state.lock().unwrap();
        assert_eq!(st.acked, 1);
        assert_eq!(
            st.refused,
            Some(Refusal::Denied {
                said: "java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission".into()
            })
        );
    }

    /// Real `dumpsys input` outputs: only the live dispatcher's queues count (not the snapshot
    /// taken at the last ANR, which stays in the dump until the next one).
    #[test]
    fn real_dumpsys_input_counts_the_live_queues_only() {
        let outputs = crate::real_outputs::with_truth("live_queued");
        for (file, text, live) in &outputs {
            let acks = Arc::new(Acks::default());
            let mut sink = AckSink::new(acks.clone());
            sink.write_all(text.as_bytes()).unwrap();
            sink.write_all(b"\nack:1\n").unwrap();
            let backlog = acks.state.lock().unwrap().backlog;
            assert_eq!(backlog, Some(live.as_integer().unwrap() as u64), "{file}");
            assert_eq!(Some(live_queued(text)), backlog, "{file}");
        }
        assert!(!outputs.is_empty());
    }
}
