//! The yardstick for `autoplay solve -f FILE --unique --quiet`: a plain program that solves a
//! puzzle file (one 81-character line each) with the `sudoku` crate 0.8, uniqueness-checking
//! (its `solution()` is `None` unless the solution is unique), and prints a one-line summary.
//!
//! `benches/peers/run.sh` times it beside `autoplay solve -f FILE --unique --quiet` (and tdoku and
//! JSolve when given their checkouts), CPU time, interleaved; figures in `docs/performance.md`.

use std::time::Instant;
use sudoku::Sudoku;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: sudoku_crate_solve FILE (one 81-character puzzle per line)");
        std::process::exit(2);
    };
    let start = Instant::now();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    let (mut unique, mut other) = (0u64, 0u64);
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match Sudoku::from_str_line(line).ok().and_then(|s| s.solution()) {
            Some(_) => unique += 1,
            None => other += 1,
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "# {} puzzles: {unique} solved uniquely, {other} not (invalid, unsolvable or several solutions) \
         in {secs:.3} s ({:.0} puzzles/s, sudoku crate)",
        unique + other,
        (unique + other) as f64 / secs.max(1e-9)
    );
}
