//! The splitter on real encoder output: the same access units whether the bytes come
//! one at a time, in random pieces, one access unit per push, or all at once.

use super::common::*;
use sudoku_autoplay::video::annexb::AccessUnits;

#[test]
fn h264enc_stream_in_any_chunking() {
    let times = times_from(
        7_000,
        &[16_667, 33_333, 1_000_000, 16_667, 250_000, 16_667, 5],
    );
    let run = encode_run(96, 160, 24, 0, &times, &[4]);
    let mut rng = Rng(42);
    for max_chunk in [1, 2, 3, 4, 5, 64, 1_000, u64::MAX] {
        let units = split_run(&run.aus, &run.times, &mut rng, max_chunk);
        assert_units_match(&units, &run.aus, &run.times);
    }
    // The whole stream in one push: same NAL units, all stamped with that push's time.
    let stream = run.aus.concat();
    let mut splitter = AccessUnits::new();
    let mut units = splitter.push(&stream, 99);
    assert_eq!(
        units.len(),
        run.aus.len() - 1,
        "the last unit waits for finish()"
    );
    units.extend(splitter.finish());
    assert_units_match(&units, &run.aus, &vec![99; run.aus.len()]);
}

#[test]
fn units_are_returned_as_soon_as_the_next_picture_starts() {
    let times = times_from(0, &[10, 10, 10, 10]);
    let run = encode_run(64, 64, 24, 0, &times, &[2]);
    let mut splitter = AccessUnits::new();
    for (i, au) in run.aus.iter().enumerate() {
        // The next picture's first NAL header (an SPS) or, for a slice, its first two
        // bytes (first_mb_in_slice) complete the previous unit.
        let slice = au[4] & 0x1f == 1;
        let done = splitter.push(&au[..5], times[i]);
        assert_eq!(
            done.len(),
            usize::from(i > 0 && !slice),
            "au {i}: NAL header"
        );
        let done = splitter.push(&au[5..6], times[i]);
        assert_eq!(
            done.len(),
            usize::from(i > 0 && slice),
            "au {i}: first_mb_in_slice"
        );
        splitter.push(&au[6..], times[i]);
    }
    assert!(splitter.finish().is_some());
}
