//! Rendering speed of the simulated phone's screen (`cargo bench --bench sim_render`).
//!
//! `fresh`: a full render after a state change (a tap moves the selection), the case the player
//! hits every few hundred taps. `cached`: a screenshot with nothing changed (a copy of the frame).

use autoplay_sim::app::{AppOptions, Phone};
use autoplay_sim::profile::profile;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn render(c: &mut Criterion) {
    for name in ["budget", "pixel", "flagship"] {
        let mut phone = Phone::new(profile(name).unwrap().clone(), AppOptions::default());
        phone.start_level(40).unwrap();
        let cells: Vec<(i32, i32)> = [10, 40]
            .iter()
            .map(|&cell| phone.layout().cell_center(cell))
            .collect();
        let mut i = 0;
        c.bench_function(&format!("screenshot fresh {name}"), |b| {
            b.iter(|| {
                i += 1;
                let (x, y) = cells[i % 2];
                phone.tap(x, y);
                black_box(phone.screenshot())
            })
        });
        c.bench_function(&format!("screenshot cached {name}"), |b| {
            b.iter(|| black_box(phone.screenshot()))
        });
    }
}

criterion_group!(benches, render);
criterion_main!(benches);
