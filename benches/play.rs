//! Host CPU per search step including the tap encoding: the rowmajor search of a level with
//! every event recorded, then every event turned into taps through a calibration's layout.
//! Run: `cargo bench --bench play`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use sudoku_autoplay::board::Board;
use sudoku_autoplay::calibration::Calibration;
use sudoku_autoplay::play::Encoder;
use sudoku_autoplay::play::setnum::Layout;
use sudoku_autoplay::solver::{Options, Recorder, Strategy, search};

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn bench(c: &mut Criterion) {
    let cal = Calibration::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../calibration/sim-pixel.toml"
    )))
    .expect("shipped calibration");
    let layout = Layout::of(&cal);
    let board = Board::parse(INKALA).unwrap();
    let record = |board: &Board| {
        let mut rec = Recorder::default();
        search(Strategy::RowMajor, board, &Options::default(), &mut rec);
        rec.0
    };
    let steps = record(&board).len() as u64;

    let mut g = c.benchmark_group("play");
    g.throughput(Throughput::Elements(steps));
    g.bench_function("search+record (rowmajor, Inkala, per step)", |b| {
        b.iter(|| record(black_box(&board)).len())
    });
    g.bench_function("search+record+encode taps (per step)", |b| {
        b.iter(|| {
            let events = record(black_box(&board));
            let mut enc = Encoder::new(&layout);
            let mut taps = Vec::with_capacity(4);
            let mut n = 0usize;
            for &ev in &events {
                taps.clear();
                enc.event(ev, &board, &mut taps);
                n += taps.len();
                black_box(&taps);
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
