//! Reading a frame: board detection + OCR (the budget is 5 ms for 1080x2400 on 2 cores),
//! and, separately, PNG and raw screencap decoding; then detection + OCR on a few real apps'
//! screenshots from `../shared/real-screens` (skipped where that folder is absent).
//!
//! `cargo bench --bench vision`

use criterion::{Criterion, criterion_group, criterion_main};
use image::ImageEncoder;
use std::hint::black_box;
use sudoku_autoplay::capture::{self, raw};
use sudoku_autoplay::vision;

#[path = "../tests/it/vision_support/mod.rs"]
mod vision_support;
use vision_support::*;

const SIZES: [(&str, u32, u32); 3] = [
    ("720x1520", 720, 1520),
    ("1080x2400", 1080, 2400),
    ("1440x3200", 1440, 3200),
];

fn bench(c: &mut Criterion) {
    // The font-rendered tables are built once per process; do it outside the timings.
    vision::prepare();
    for (name, w, h) in SIZES {
        let img = render(&Style::light(w, h), &scene()).0;
        let reading = vision::read_board(&img).expect("synthetic board reads");
        assert_eq!(reading.board.to_line(), truth(&scene()).0);
        c.bench_function(&format!("detect+ocr {name}"), |b| {
            b.iter(|| vision::read_board(black_box(&img)).unwrap())
        });
        c.bench_function(&format!("detect {name}"), |b| {
            b.iter(|| vision::detect_board(black_box(&img)).unwrap())
        });
        let mut png = Vec::new();
        image::codecs::png::PngEncoder::new(&mut png)
            .write_image(img.as_raw(), w, h, image::ExtendedColorType::Rgba8)
            .unwrap();
        c.bench_function(&format!("decode png {name}"), |b| {
            b.iter(|| capture::decode(black_box(&png)).unwrap())
        });
        let rawf = raw::encode(&img, raw::PixelFormat::Rgba8888, 16);
        c.bench_function(&format!("decode raw {name}"), |b| {
            b.iter(|| capture::decode(black_box(&rawf)).unwrap())
        });
    }
}

/// Real screens of different apps, sizes and styles (see `../shared/real-screens/MANIFEST.toml`).
const REAL: [&str; 6] = [
    "dmytroshulha_1.png",     // 1080x2400, entries in colour
    "saku_1.jpg",             // 1080x2400 JPEG, givens on tinted cells
    "nataliausoltseva_3.png", // 1075x2393, keypad row under the board (a close call)
    "kalildev_1.png",         // 1080x2160, no border, digits in discs
    "nextjedi_1.png",         // 1440x3120
    "dmytroshulha_2.png",     // 500x1024
];

fn bench_real(c: &mut Criterion) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-screens");
    if !dir.is_dir() {
        eprintln!("{} is absent: real-screen benches skipped", dir.display());
        return;
    }
    vision::prepare();
    for name in REAL {
        let Ok(bytes) = std::fs::read(dir.join(name)) else {
            eprintln!("{name} is absent: skipped");
            continue;
        };
        let img = capture::decode(&bytes).unwrap();
        vision::read_board(&img).expect("the dev set reads");
        let id = format!("real {name} {}x{}", img.width(), img.height());
        c.bench_function(&id, |b| {
            b.iter(|| vision::read_board(black_box(&img)).unwrap())
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench, bench_real
}
criterion_main!(benches);
