//! Hostile input never panics: random and mutated bytes into the splitter, the SPS
//! parser and the MP4 reader (seeded xorshift, so failures are reproducible).

use super::common::*;
use sudoku_autoplay::video::annexb::{AccessUnits, Unit};
use sudoku_autoplay::video::mp4in::read_mp4;
use sudoku_autoplay::video::mp4out::{Segment, write_mp4_file};
use sudoku_autoplay::video::sps::Sps;
use sudoku_autoplay::video::{Cue, MuxError};

/// Random bytes rich in zeros and ones, so that start codes are frequent.
fn annexb_noise(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| match rng.below(10) {
            0..=3 => 0,
            4 => 1,
            5 => [0x65, 0x41, 0x67, 0x68, 0x06, 0x09][rng.below(6) as usize],
            _ => (rng.next() >> 24) as u8,
        })
        .collect()
}

fn split(bytes: &[u8], rng: &mut Rng, max_chunk: u64) -> Vec<Vec<Vec<u8>>> {
    let mut au = AccessUnits::new();
    let mut units: Vec<Unit> = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let n = (1 + rng.below(max_chunk) as usize).min(rest.len());
        units.extend(au.push(&rest[..n], 0));
        rest = &rest[n..];
    }
    units.extend(au.finish());
    units.into_iter().map(|u| u.nals).collect()
}

#[test]
fn splitter_on_noise_is_consistent_whatever_the_chunking() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for round in 0..200 {
        let n = rng.below(4000) as usize;
        let bytes = annexb_noise(&mut rng, n);
        let whole = split(&bytes, &mut rng, u64::MAX);
        for nal in whole.iter().flatten() {
            assert!(
                !nal.is_empty() && nal.last() != Some(&0),
                "round {round}: untrimmed NAL"
            );
            assert!(
                !nal.windows(3).any(|w| w == [0, 0, 1]),
                "round {round}: start code kept"
            );
        }
        assert_eq!(
            split(&bytes, &mut rng, 1),
            whole,
            "round {round}: 1-byte pushes"
        );
        assert_eq!(
            split(&bytes, &mut rng, 17),
            whole,
            "round {round}: random pushes"
        );
    }
}

#[test]
fn sps_parser_on_noise_and_mutations() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for _ in 0..20_000 {
        let n = rng.below(64) as usize;
        let mut nal = rng.bytes(n);
        if let Some(b) = nal.first_mut() {
            *b = 0x67;
        }
        let _ = Sps::parse(&nal);
    }
    let mut enc = autoplay_sim::video::h264::Encoder::new(1080, 2400, 24);
    let au = enc.encode(&vec![0; 1080 * 2400 * 4], false);
    let sps_end = au[4..]
        .windows(4)
        .position(|w| w == [0, 0, 0, 1])
        .expect("PPS follows")
        + 4;
    let sps = au[4..sps_end].to_vec();
    for i in 0..20_000 {
        let mut m = sps.clone();
        let bit = rng.below(8 * m.len() as u64 - 8) as usize + 8;
        m[bit / 8] ^= 0x80 >> (bit % 8);
        m.truncate(1 + rng.below(m.len() as u64 + 4) as usize);
        match Sps::parse(&m) {
            Ok(s) => assert!(s.width > 0 && s.height > 0, "mutation {i}: {s:?}"),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

/// A small valid MP4 from write_mp4.
fn valid_mp4(dir: &std::path::Path) -> Vec<u8> {
    let run = encode_run(64, 48, 24, 0, &times_from(0, &[40_000; 11]), &[6]);
    let segments = segments(&[&run], 3);
    let cues = [Cue {
        start_us: 10_000,
        end_us: 90_000,
        text: "hi".into(),
    }];
    let path = dir.join("valid.mp4");
    write_mp4_file(&path, &segments, &cues, 600_000).expect("write");
    std::fs::read(&path).expect("read")
}

/// A damaged copy of `valid`: random bytes, or values that break sizes and counts
/// (0, 1..8, huge) written over 32-bit fields, mostly inside the moov box.
fn mutate(valid: &[u8], moov: usize, rng: &mut Rng) -> Vec<u8> {
    let mut m = valid.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = if rng.below(4) == 0 {
            rng.below(m.len() as u64 - 4)
        } else {
            moov as u64 + rng.below((m.len() - moov - 4) as u64)
        };
        let at = at as usize;
        match rng.below(3) {
            0 => m[at] = (rng.next() >> 24) as u8,
            1 => m[at..at + 4].copy_from_slice(&(rng.below(9) as u32).to_be_bytes()),
            _ => m[at..at + 4].copy_from_slice(&(u32::MAX - rng.below(4) as u32).to_be_bytes()),
        }
    }
    m
}

#[test]
fn read_mp4_on_noise_and_mutations() {
    let dir = temp_dir("garbage-mp4");
    let valid = valid_mp4(&dir);
    let moov = valid.windows(4).position(|w| w == b"moov").expect("moov") - 4;
    let path = dir.join("bad.mp4");
    let mut rng = Rng(0x0bad_f11e_5eed_0001);
    let (mut ok, mut failed) = (0, 0);
    for i in 0..10_000 {
        let bytes = match i % 4 {
            0 => {
                let n = rng.below(600) as usize;
                rng.bytes(n)
            }
            1 => valid[..rng.below(valid.len() as u64) as usize].to_vec(),
            _ => mutate(&valid, moov, &mut rng),
        };
        std::fs::write(&path, &bytes).expect("write");
        match read_mp4(&path) {
            Ok(_) => ok += 1,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                failed += 1;
            }
        }
    }
    println!("read_mp4 on 10000 damaged files: {ok} read, {failed} rejected");
    assert!(failed > 5_000, "most damaged files must be rejected");
    assert!(read_mp4(dir.join("valid.mp4")).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes `video` to a fresh path and returns the error (there must be one), having
/// checked that no file was left behind.
fn write_error(tag: &str, video: &[Segment]) -> MuxError {
    let dir = temp_dir(tag);
    let path = dir.join("x.mp4");
    let err = write_mp4_file(&path, video, &[], 1).expect_err("write must fail");
    let left = path.exists() || dir.join("x.mp4.part").exists();
    assert!(!left, "{tag}: a file was left behind");
    let _ = std::fs::remove_dir_all(&dir);
    err
}

fn one(nals: &[&[u8]]) -> Segment {
    let nals = nals.iter().map(|n| n.to_vec()).collect();
    Segment {
        units: vec![Unit {
            nals,
            key: false,
            at_us: 0,
        }],
    }
}

#[test]
fn write_mp4_rejects_what_it_cannot_write() {
    let err = write_error("no-key", &[one(&[&[0x41, 0x9a, 0x01]])]);
    assert_eq!(
        err.to_string(),
        "the recording has no key frame: nothing to write"
    );
    let idr: &[u8] = &[0x65, 0x88, 0x01];
    let err = write_error("no-sps", &[Segment::default(), one(&[idr])]);
    let want = MuxError::NoParameterSet {
        segment: 1,
        what: "SPS",
    };
    assert_eq!(err.to_string(), want.to_string());
    let err = write_error("bad-sps", &[one(&[&[0x67, 0x42], &[0x68, 0xce], idr])]);
    assert!(
        err.to_string().starts_with("SPS truncated at bit 8"),
        "{err}"
    );
    let mut long_gap = segments(&[&encode_run(32, 32, 24, 0, &[0, 1_000], &[])], 1);
    long_gap[0].units[1].at_us = 14 * 3600 * 1_000_000;
    let err = write_error("gap", &long_gap);
    assert!(
        matches!(err, MuxError::GapTooLong { at_us: 0, .. }),
        "{err}"
    );
}
