//! The simulated touch panel's write path, as the kernel's evdev takes it: arbitrary bytes cut
//! into arbitrary reads, copied by `dd` (any block size, with or without `iflag=fullblock`) into
//! the panel by a 32- or 64-bit writer. Checks the kernel's rules: a write shorter than one
//! record fails, otherwise only whole records are taken, and never more events than records.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};
use autoplay_sim::app::{AppOptions, Phone};
use autoplay_sim::profile;
use autoplay_sim::shell::dd::Dd;
use autoplay_sim::shell::evdev::{self, RECORD_32, RECORD_64};
use autoplay_sim::shell::{Handset, Knobs};

fn device(userspace_64: bool) -> &'static Arc<Handset> {
    static D64: OnceLock<Arc<Handset>> = OnceLock::new();
    static D32: OnceLock<Arc<Handset>> = OnceLock::new();
    let (cell, name) = if userspace_64 { (&D64, "pixel") } else { (&D32, "budget") };
    cell.get_or_init(|| {
        let p = profile::profile(name).unwrap().clone();
        // As root (`adb root`): from Android 10 the shell may not write the panel otherwise.
        let knobs = Knobs {
            adb_root: true,
            ..Knobs::default()
        };
        Arc::new(Handset::new(Phone::new(p, AppOptions::default()), knobs))
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&control, rest)) = data.split_first() else {
        return;
    };
    let wide = control & 1 == 1;
    let size = if wide { RECORD_64 } else { RECORD_32 };

    // evdev_write on the whole buffer.
    let mut events = Vec::new();
    match evdev::write(rest, size, &mut events) {
        Ok(n) => {
            assert!(n <= rest.len() && n % size == 0);
            assert_eq!(n, rest.len() / size * size);
            assert!(events.len() <= n / size);
        }
        Err(_) => assert!(!rest.is_empty() && rest.len() < size),
    }

    // The same bytes through dd, cut into reads of varying sizes.
    let bs = [1, 8, 16, 24, 48, 100, 4096][usize::from(control >> 1) % 7];
    let mut args = vec!["of=/dev/input/event2".to_string(), format!("bs={bs}")];
    if control & 0x80 != 0 {
        args.push("iflag=fullblock".into());
    }
    let dev = device(wide);
    let mut dd = Dd::start(dev, &args).expect("the panel is writable as root");
    let mut at = 0;
    let mut cut = usize::from(control).max(1);
    let mut ok = true;
    while at < rest.len() && ok {
        let end = (at + cut).min(rest.len());
        ok = dd.feed(dev, &rest[at..end]).is_ok();
        at = end;
        cut = cut * 7 % 61 + 1;
    }
    if ok {
        let _ = dd.finish(dev);
    }
    // Let the app handle what was tapped (keeps the input queue from growing).
    let _ = dev.phone().dumpsys();
});
