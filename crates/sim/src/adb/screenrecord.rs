//! `screenrecord` on the stream that started it (`adb exec-out screenrecord --output-format=h264
//! -`, or `adb shell screenrecord FILE`): after the process's and the encoder's start, a frame
//! whenever the screen was drawn anew (checked at the display's 60 Hz, as SurfaceFlinger hands
//! the virtual display a buffer only when something changed), until the time limit, or until
//! the host closes the stream (adbd then hangs the process up, and screenrecord stops as on
//! SIGHUP). Raw H.264 goes out as it is encoded, flushed after each frame; a file is written
//! when the recording stops (MP4 as MediaMuxer writes it, or the raw stream).

use super::shell_protocol as v2;
use super::stream::{StreamReader, StreamWriter};
use crate::shell::screenrecord::{self, Format, Recording};
use crate::shell::{Handset, Output, spend};
use crate::video::mp4file::Frames;
use crate::video::recorder::Recorder;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the virtual display may get a new frame (a 60 Hz display).
const FRAME: Duration = Duration::from_micros(16_667);

/// Runs `screenrecord ARGS` on a stream (`v2`: the shell protocol's packets). Returns true if
/// the connection must drop.
pub(super) async fn run(
    device: &Arc<Handset>,
    args: &[String],
    v2: bool,
    reader: StreamReader,
    writer: &mut StreamWriter,
) -> bool {
    spend(device.costs().process()).await;
    if device.count_command() {
        return true;
    }
    let mut out = Output::default();
    let status = match screenrecord::parse(device, args, &mut out) {
        Err(status) => {
            reader.drain();
            status
        }
        Ok(rec) => {
            spend(device.costs().codec_start()).await;
            record(device, &rec, reader, writer, v2, &mut out).await
        }
    };
    let mut tail = Vec::new();
    for (fd, chunk) in &out.chunks {
        tail.extend(packet(v2, matches!(fd, crate::shell::Fd::Stderr), chunk));
    }
    if v2 {
        tail.extend(v2::encode(v2::EXIT, &[(status & 0xff) as u8]));
    }
    let _ = writer.write(&tail).await;
    false
}

/// Records until the time limit or the host's hang-up; frames go to the stream as they come
/// (`rec.file == None`) or into the file at the end. Returns the exit status.
async fn record(
    device: &Arc<Handset>,
    rec: &Recording,
    mut reader: StreamReader,
    writer: &mut StreamWriter,
    v2: bool,
    out: &mut Output,
) -> i32 {
    let display = device.profile().display_size();
    let mut recorder = Some(Recorder::new(display, rec.size, rec.bit_rate));
    let size = recorder.as_ref().map_or(display, Recorder::size);
    if rec.verbose {
        out.out(verbose_start(display, size, rec.bit_rate));
    }
    let started = Instant::now();
    let (mut seen, mut frames) = (0u64, Frames::default());
    let mut tick = tokio::time::interval(FRAME);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let end = loop {
        tokio::select! {
            _ = tick.tick() => {}
            chunk = reader.recv() => match chunk {
                Some(_) => continue,
                None => break "hung up",
            },
        }
        if started.elapsed() >= rec.time_limit {
            break "Time limit reached";
        }
        let Some(screen) = device.phone().changed_frame(&mut seen) else {
            continue;
        };
        let Some(mut r) = recorder.take() else {
            break "encoder lost";
        };
        let now = Instant::now();
        let encoded = tokio::task::spawn_blocking(move || (r.encode(&screen, now), r)).await;
        let Ok((unit, r)) = encoded else {
            break "encoder lost";
        };
        recorder = Some(r);
        if rec.file.is_some() {
            frames.0.push((now, unit));
        } else if writer.write(&packet(v2, false, &unit)).await.is_err() {
            break "hung up";
        }
    };
    let recorded = recorder.as_ref().map_or(0, |r| r.frames);
    if rec.verbose {
        out.out(format!(
            "{end}\nEncoder stopping; recorded {recorded} frames in {} seconds\nStopping encoder and muxer\n",
            started.elapsed().as_secs()
        ));
    }
    match &rec.file {
        Some(path) => save(device, rec, path, &frames, size, out),
        None => 0,
    }
}

/// Writes a recording to `path` on the phone; its failure said on `out`.
fn save(
    device: &Handset,
    rec: &Recording,
    path: &str,
    frames: &Frames,
    size: (u32, u32),
    out: &mut Output,
) -> i32 {
    let bytes = match rec.format {
        Format::H264 => Ok(frames.0.iter().flat_map(|(_, u)| u.clone()).collect()),
        Format::Mp4 => frames.mp4(size, Instant::now()),
    };
    let written = bytes.and_then(|b| device.write_file(path, b));
    match written {
        Ok(()) => 0,
        Err(why) => {
            out.err(format!("ERROR: couldn't write {path}: {why}\n"));
            1
        }
    }
}

/// What `--verbose` prints before recording.
fn verbose_start(display: (u32, u32), size: (u32, u32), bit_rate: u32) -> String {
    format!(
        "Main display is {}x{} @60.00fps (orientation=0)\n\
         Configuring recorder for {}x{} video/avc at {:.2}Mbps\n\
         Content area is {}x{} at offset x=0 y=0\n",
        display.0,
        display.1,
        size.0,
        size.1,
        f64::from(bit_rate) / 1e6,
        size.0,
        size.1
    )
}

/// `bytes` as the stream carries them: raw, or a shell v2 stdout/stderr packet.
fn packet(v2: bool, stderr: bool, bytes: &[u8]) -> Vec<u8> {
    match (v2, stderr) {
        (false, _) => bytes.to_vec(),
        (true, false) => v2::encode(v2::STDOUT, bytes),
        (true, true) => v2::encode(v2::STDERR, bytes),
    }
}
