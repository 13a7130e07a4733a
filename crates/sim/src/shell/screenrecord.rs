//! `screenrecord`'s command line as Android 14 has it (AOSP
//! `frameworks/av/cmds/screenrecord/screenrecord.cpp`): `--size WxH`, `--bit-rate RATE` (bits or
//! `4M`; 0.1 to 200 Mbps; default 20 Mbps), `--time-limit SECS` (1 to 180; default 180),
//! `--output-format mp4|h264` and the file to write (`-`: stdout, raw H.264 only), with its
//! messages and exit statuses. The recording itself runs on the stream that asked for it
//! (`crate::adb::screenrecord`), frames from `crate::video`.

use super::device::Handset;
use super::output::Output;
use std::time::Duration;

/// `kMaxTimeLimitSec`: one recording stops after 3 minutes.
pub const MAX_TIME_LIMIT: u32 = 180;
/// `gBitRate`'s default, 20 Mbps.
pub const DEFAULT_BIT_RATE: u32 = 20_000_000;
/// `kMinBitRate`, `kMaxBitRate`.
const BIT_RATES: (u32, u32) = (100_000, 200_000_000);

/// What a `screenrecord` command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recording {
    pub time_limit: Duration,
    /// `--size`; `None`: the display's size (floored to even numbers).
    pub size: Option<(u32, u32)>,
    pub bit_rate: u32,
    pub format: Format,
    /// Where the video goes: `None` is stdout (`-`).
    pub file: Option<String>,
    pub verbose: bool,
}

/// `--output-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// An MP4 file (the default): written when the recording stops.
    Mp4,
    /// Raw H.264 (Annex B), flushed after each frame: what a host streams (`-`).
    H264,
}

/// The usage screenrecord prints on stderr for `--help`.
pub fn usage() -> String {
    format!(
        "Usage: screenrecord [options] <filename>\n\n\
         Android screenrecord v1.3.  Records the device's display to a .mp4 file.\n\n\
         Options:\n\
         --size WIDTHxHEIGHT\n    Set the video size, e.g. \"1280x720\".  Default is the device's main\n    \
         display resolution (if supported), 1280x720 if not.  For best results,\n    \
         use a size supported by the AVC encoder.\n\
         --bit-rate RATE\n    Set the video bit rate, in bits per second.  Value may be specified as\n    \
         bits or megabits, e.g. '4000000' is equivalent to '4M'.  Default {}Mbps.\n\
         --time-limit TIME\n    Set the maximum recording time, in seconds.  Default / maximum is {}.\n\
         --verbose\n    Display interesting information on stdout.\n\
         --help\n    Show this message.\n\n\
         Recording continues until Ctrl-C is hit or the time limit is reached.\n\n",
        DEFAULT_BIT_RATE / 1_000_000,
        MAX_TIME_LIMIT
    )
}

/// Parses screenrecord's arguments. `Err(status)`: nothing to record (the help, or a mistake,
/// said on `out` as screenrecord says it).
pub fn parse(device: &Handset, args: &[String], out: &mut Output) -> Result<Recording, i32> {
    if device.profile().quirks.no_screenrecord {
        out.err("/system/bin/sh: screenrecord: inaccessible or not found\n");
        return Err(127);
    }
    let mut rec = Recording {
        time_limit: Duration::from_secs(MAX_TIME_LIMIT.into()),
        size: None,
        bit_rate: DEFAULT_BIT_RATE,
        format: Format::Mp4,
        file: None,
        verbose: false,
    };
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        if !name.starts_with("--") || name == "-" {
            files.push(arg.clone());
            continue;
        }
        option(&mut rec, name, inline, &mut it, out)?;
    }
    let [file] = files.as_slice() else {
        out.err("Must specify output file (see --help).\n");
        return Err(2);
    };
    output(rec, file, out)
}

/// One `--name [value]` option into `rec`.
fn option(
    rec: &mut Recording,
    name: &str,
    inline: Option<String>,
    rest: &mut std::slice::Iter<'_, String>,
    out: &mut Output,
) -> Result<(), i32> {
    let mut value = |out: &mut Output| match inline.clone().or_else(|| rest.next().cloned()) {
        Some(v) => Ok(v),
        None => {
            out.err(format!(
                "screenrecord: option '{name}' requires an argument\n"
            ));
            Err(2)
        }
    };
    match name {
        "--help" => {
            out.err(usage());
            return Err(0);
        }
        "--verbose" => rec.verbose = true,
        "--size" => rec.size = Some(size(&value(out)?, out)?),
        "--bit-rate" => rec.bit_rate = bit_rate(&value(out)?, out)?,
        "--time-limit" => rec.time_limit = time_limit(&value(out)?, out)?,
        "--output-format" => rec.format = format(&value(out)?, out)?,
        "--bugreport"
        | "--show-device-info"
        | "--show-frame-time"
        | "--rotate"
        | "--monotonic-time"
        | "--persistent-surface" => {}
        _ => {
            out.err(format!("screenrecord: unrecognized option '{name}'\n"));
            return Err(2);
        }
    }
    Ok(())
}

/// Where the video goes, checked against the format (MediaMuxer needs a file it can seek).
fn output(mut rec: Recording, file: &str, out: &mut Output) -> Result<Recording, i32> {
    if file == "-" {
        if rec.verbose {
            out.err("ERROR: verbose output and '-' not compatible");
            return Err(255);
        }
        if rec.format == Format::Mp4 {
            // MediaMuxer opens a file named "-" in the shell's directory, `/`: not writable.
            out.err("ERROR: couldn't open file\n");
            return Err(134);
        }
        return Ok(rec);
    }
    rec.file = Some(file.to_string());
    Ok(rec)
}

fn size(v: &str, out: &mut Output) -> Result<(u32, u32), i32> {
    let parsed = v
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)));
    match parsed {
        Some((w, h)) if w > 0 && h > 0 => Ok((w, h)),
        Some((w, h)) => {
            out.err(format!(
                "Invalid size {w}x{h}, width and height may not be zero\n"
            ));
            Err(2)
        }
        None => {
            out.err(format!("Invalid size '{v}', must be width x height\n"));
            Err(2)
        }
    }
}

fn bit_rate(v: &str, out: &mut Output) -> Result<u32, i32> {
    let (digits, scale) = match v.strip_suffix(['m', 'M']) {
        Some(d) => (d, 1_000_000),
        None => (v, 1),
    };
    let Some(rate) = digits.parse::<u64>().ok().map(|r| r * scale) else {
        out.err(format!("Unrecognized value: {v}\n"));
        return Err(2);
    };
    if rate < u64::from(BIT_RATES.0) || rate > u64::from(BIT_RATES.1) {
        out.err(format!(
            "Bit rate {rate}bps outside acceptable range [{},{}]\n",
            BIT_RATES.0, BIT_RATES.1
        ));
        return Err(2);
    }
    Ok(rate as u32)
}

fn time_limit(v: &str, out: &mut Output) -> Result<Duration, i32> {
    // atoi: leading digits, else 0.
    let digits: String = v.chars().take_while(char::is_ascii_digit).collect();
    let secs = digits.parse::<u32>().unwrap_or(0);
    if secs == 0 || secs > MAX_TIME_LIMIT {
        out.err(format!(
            "Time limit {secs}s outside acceptable range [1,{MAX_TIME_LIMIT}]\n"
        ));
        return Err(2);
    }
    Ok(Duration::from_secs(secs.into()))
}

fn format(v: &str, out: &mut Output) -> Result<Format, i32> {
    match v {
        "mp4" => Ok(Format::Mp4),
        "h264" => Ok(Format::H264),
        "webm" | "3gpp" | "frames" | "raw-frames" => {
            out.err(format!(
                "screenrecord: this simulated phone writes mp4 and h264 only, not {v}\n"
            ));
            Err(2)
        }
        _ => {
            out.err(format!("Unknown format '{v}'\n"));
            Err(2)
        }
    }
}
