//! `dd of=FILE [bs=N] [count=N] [iflag=fullblock] [status=none|noxfer]`: copies stdin to an
//! input device node (or `/dev/null`), block by block, as toybox's `dd` does. This is how a
//! host streams raw touch records into the panel: `adb exec-out dd of=/dev/input/event2 bs=24`.
//!
//! Each read takes at most `bs` bytes of what stdin has (with `iflag=fullblock` it waits for a
//! whole block), and each block is written at once; a short write (the panel takes only whole
//! records, see [`evdev::write`]) is retried for the rest, which then fails. Errors end the copy
//! with dd's message and status 1; the usual records summary goes to stderr at the end.

use super::device::{Handset, Io};
use super::evdev::{self, InputEvent};
use super::output::Output;
use super::touch;

/// Largest block size accepted (toybox allows more; nothing here needs it).
const MAX_BS: usize = 1 << 20;

/// Where the copy goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sink {
    Panel,
    /// Another input device or `/dev/null`: written, nothing listens.
    Discard,
}

/// A running `dd`.
#[derive(Debug)]
pub struct Dd {
    sink: Sink,
    ops: Operands,
    record: usize,
    block: Vec<u8>,
    full_in: u64,
    part_in: u64,
    full_out: u64,
    part_out: u64,
    /// Bytes read from stdin and written out.
    read: u64,
    bytes: u64,
}

/// The operands of a `dd` command line.
#[derive(Debug)]
struct Operands {
    of: Option<String>,
    bs: usize,
    count: Option<u64>,
    fullblock: bool,
    quiet: bool,
    /// `if=/dev/zero`: zeros instead of stdin.
    zero: bool,
}

impl Operands {
    /// Parses `args` (`key=value` each); an error is dd's message.
    fn parse(args: &[String]) -> Result<Operands, String> {
        let mut ops = Operands {
            of: None,
            bs: 512,
            count: None,
            fullblock: false,
            quiet: false,
            zero: false,
        };
        for a in args {
            let Some((key, value)) = a.split_once('=') else {
                return Err(format!("dd: unknown argument '{a}'"));
            };
            let number = || format!("dd: invalid number '{value}'");
            match key {
                "of" => ops.of = Some(value.to_string()),
                "if" if value == "-" || value == "/dev/stdin" => {}
                "if" if value == "/dev/zero" => ops.zero = true,
                "if" => {
                    return Err(format!(
                        "dd: {value}: this simulated phone only copies from stdin"
                    ));
                }
                "bs" | "obs" | "ibs" => {
                    let bs = value.parse().ok().filter(|&n| n > 0 && n <= MAX_BS);
                    ops.bs = bs.ok_or_else(number)?;
                }
                "count" => ops.count = Some(value.parse().map_err(|_| number())?),
                "iflag" => {
                    for f in value.split(',') {
                        match f {
                            "fullblock" => ops.fullblock = true,
                            "count_bytes" | "skip_bytes" => {}
                            other => return Err(format!("dd: unknown iflag {other}")),
                        }
                    }
                }
                "status" => match value {
                    "none" => ops.quiet = true,
                    "noxfer" | "progress" => {}
                    other => return Err(format!("dd: unknown status {other}")),
                },
                "conv" | "oflag" => {}
                _ => return Err(format!("dd: unknown argument '{a}'")),
            }
        }
        Ok(ops)
    }
}

/// Where `of` goes on `device`: nowhere (`/dev/null`, a node that is no touch panel), the
/// touch panel; an error is dd's message.
fn sink(device: &Handset, of: Option<&str>) -> Result<Sink, String> {
    match of {
        None => Err("dd: writing to stdout is not simulated; give of=FILE".into()),
        Some("/dev/null") => Ok(Sink::Discard),
        Some(path) if touch::node_kind(device.profile(), path).is_some() => {
            if !device.panel_writable() {
                return Err(format!("dd: {path}: Permission denied"));
            }
            if touch::node_kind(device.profile(), path) == Some(true) {
                Ok(Sink::Panel)
            } else {
                Ok(Sink::Discard)
            }
        }
        Some(path) => Err(format!("dd: {path}: No such file or directory")),
    }
}

/// Why a `dd` stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DdEnd {
    /// `count` blocks copied.
    Done,
    /// An error: dd's message (already formatted), exit status 1.
    Failed(String),
}

impl Dd {
    /// Parses the operands and opens the output; an error is dd's message.
    pub fn start(device: &Handset, args: &[String]) -> Result<Dd, String> {
        let ops = Operands::parse(args)?;
        Ok(Dd {
            sink: sink(device, ops.of.as_deref())?,
            ops,
            record: evdev::record_size(device.profile().userspace_64),
            block: Vec::new(),
            full_in: 0,
            part_in: 0,
            full_out: 0,
            part_out: 0,
            read: 0,
            bytes: 0,
        })
    }

    /// Whether `count` blocks have been copied.
    pub fn done(&self) -> bool {
        self.ops
            .count
            .is_some_and(|c| self.full_in + self.part_in >= c)
    }

    /// Copies one chunk of stdin (what one read of the stream returned); the panel's events go
    /// to `device`. Stops early when `count` is reached or a write fails.
    pub fn feed(&mut self, device: &Handset, mut chunk: &[u8]) -> Result<(), DdEnd> {
        let mut events = Vec::new();
        let result = loop {
            if self.done() {
                break Err(DdEnd::Done);
            }
            if chunk.is_empty() {
                break Ok(());
            }
            let want = self.ops.bs - self.block.len();
            let n = want.min(chunk.len());
            self.block.extend_from_slice(&chunk[..n]);
            self.read += n as u64;
            chunk = &chunk[n..];
            if self.ops.fullblock && self.block.len() < self.ops.bs {
                continue;
            }
            if let Err(e) = self.write_block(&mut events) {
                break Err(e);
            }
        };
        device.panel_events(&events);
        result
    }

    /// The I/O counters the kernel keeps for this process (`/proc/PID/io`).
    pub fn io(&self) -> Io {
        Io {
            rchar: self.read,
            wchar: self.bytes,
            syscr: self.full_in + self.part_in,
            syscw: self.full_out + self.part_out,
        }
    }

    /// Stdin ended: a partial block still waiting (`iflag=fullblock`) is written.
    pub fn finish(&mut self, device: &Handset) -> Result<(), DdEnd> {
        let mut events = Vec::new();
        let r = if self.block.is_empty() || self.done() {
            Ok(())
        } else {
            self.write_block(&mut events)
        };
        device.panel_events(&events);
        r
    }

    fn write_block(&mut self, events: &mut Vec<InputEvent>) -> Result<(), DdEnd> {
        let block = std::mem::take(&mut self.block);
        let full = block.len() == self.ops.bs;
        if full {
            self.full_in += 1;
        } else {
            self.part_in += 1;
        }
        let mut rest = &block[..];
        while !rest.is_empty() {
            let taken = match self.sink {
                Sink::Discard => rest.len(),
                Sink::Panel => evdev::write(rest, self.record, events)
                    .map_err(|e| DdEnd::Failed(format!("dd: write error: {e}")))?,
            };
            rest = &rest[taken..];
            self.bytes += taken as u64;
        }
        if full {
            self.full_out += 1;
        } else {
            self.part_out += 1;
        }
        Ok(())
    }

    /// The summary dd prints on stderr when it ends (nothing with `status=none`).
    pub fn summary(&self, out: &mut Output) {
        if self.ops.quiet {
            return;
        }
        out.err(format!(
            "{}+{} records in\n{}+{} records out\n{} bytes copied\n",
            self.full_in, self.part_in, self.full_out, self.part_out, self.bytes
        ));
    }
}

/// Ends a dd: its error (if any) and summary, and its exit status.
pub fn end(dd: &Dd, stop: Result<(), DdEnd>, out: &mut Output) -> i32 {
    let status = match stop {
        Ok(()) | Err(DdEnd::Done) => 0,
        Err(DdEnd::Failed(msg)) => {
            out.err(format!("{msg}\n"));
            1
        }
    };
    dd.summary(out);
    status
}

/// Most blocks `if=/dev/zero` copies (a real `dd` without `count` copies until stopped).
const MAX_ZERO_BLOCKS: u64 = 4096;

/// `dd` run from a script: its stdin is empty (the stream's input belongs to the shell);
/// `if=/dev/zero` reads zeros (`count` blocks, at most [`MAX_ZERO_BLOCKS`]).
pub fn dd(device: &Handset, args: &[String], out: &mut Output) -> i32 {
    match Dd::start(device, args) {
        Ok(mut dd) => {
            let mut r = Ok(());
            if dd.ops.zero {
                let blocks = dd.ops.count.unwrap_or(MAX_ZERO_BLOCKS).min(MAX_ZERO_BLOCKS);
                r = dd.feed(device, &vec![0; dd.ops.bs * blocks as usize]);
            }
            let r = r.and_then(|()| dd.finish(device));
            end(&dd, r, out)
        }
        Err(msg) => {
            out.err(format!("{msg}\n"));
            1
        }
    }
}
