//! `autoplay devices`: connected devices, their screens, and whether a calibration exists.

use super::args::ServerArgs;
use super::dirs::CalibrationDir;
use std::collections::BTreeSet;
use sudoku_autoplay::calibration::lookup::{self, Choice, SearchPath};
use sudoku_autoplay::device::screen::Screen;
use sudoku_autoplay::device::{Device, DeviceEntry};

#[derive(Debug, clap::Args)]
pub struct DevicesArgs {
    #[command(flatten)]
    pub calibration: CalibrationDir,
    /// One JSON object per device.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub adb: ServerArgs,
}

pub fn run(args: &DevicesArgs) -> anyhow::Result<i32> {
    let server = args.adb.running_server()?;
    let devices = server.devices()?;
    if devices.is_empty() && !args.json {
        outln!(
            "no devices: plug in a phone with USB debugging on, `adb connect HOST:PORT` a network device, \
             or start a simulated one with `autoplay sim`"
        )?;
        return Ok(0);
    }
    let search = args.calibration.search_path();
    let mut broken = BTreeSet::new();
    for d in devices {
        let dev = Device::new(d.serial.clone(), server);
        let size = if d.is_ready() {
            dev.screen_size().ok()
        } else {
            None
        };
        let choice = size.and_then(|size| calibration_for(&d, &dev, size, &search, &mut broken));
        let navigation = choice.as_ref().map(|c| c.calibration.navigation.is_some());
        if args.json {
            let obj = serde_json::json!({
                "serial": d.serial, "state": d.state, "model": d.model,
                "width": size.map(|s| s.0), "height": size.map(|s| s.1),
                "calibration": choice.as_ref().map(|c| c.path.display().to_string()),
                "calibration_why": choice.as_ref().and_then(|c| c.why.clone()),
                "navigation": navigation,
            });
            outln!("{obj}")?;
            continue;
        }
        print_line(&d, &dev, size, choice.as_ref())?;
        if let Some(why) = choice.and_then(|c| c.why) {
            outln!("    {why}")?;
        }
    }
    for e in broken {
        eprintln!("warning: skipped {e}");
    }
    Ok(0)
}

/// The calibration play would pick for device `d` with its screen of `size`: with several for
/// the screen, the device's screen decides. Calibration files that cannot be read go to
/// `broken`.
fn calibration_for(
    d: &DeviceEntry,
    dev: &Device,
    size: (u32, u32),
    search: &SearchPath,
    broken: &mut BTreeSet<String>,
) -> Option<Choice> {
    let app = d
        .is_ready()
        .then(|| dev.front_package().ok().flatten())
        .flatten();
    let phone = lookup::Phone {
        model: &d.model,
        size,
        app: app.as_deref(),
    };
    let found = lookup::find(search, phone);
    broken.extend(found.broken.iter().map(super::explain::calibration));
    let found = found.require().ok()?;
    let frame = (found.candidates.len() > 1)
        .then(|| Screen::measure(dev).ok().map(|(_, f)| f))
        .flatten();
    Some(found.pick(frame.as_ref()))
}

/// Device `d`'s line: serial, state, model, screen and density, the calibration it would use.
fn print_line(
    d: &DeviceEntry,
    dev: &Device,
    size: Option<(u32, u32)>,
    choice: Option<&Choice>,
) -> std::io::Result<()> {
    let screen = size.map_or("-".to_string(), |(w, h)| format!("{w}x{h}"));
    let density = match d.is_ready().then(|| dev.density()) {
        Some(Ok(Some(dpi))) => format!(" @{dpi}dpi"),
        _ => String::new(),
    };
    let cal = match (choice, d.is_ready()) {
        (Some(c), _) if c.calibration.navigation.is_some() => c.path.display().to_string(),
        (Some(c), _) => format!(
            "{} (no [navigation]: plays the open level; --level needs one)",
            c.path.display()
        ),
        (None, true) => format!("none (run `autoplay calibrate -s {}`)", d.serial),
        (None, false) => "-".into(),
    };
    outln!(
        "{:<22} {:<12} {:<16} {:>10}{density}  calibration: {cal}",
        d.serial,
        d.state,
        if d.model.is_empty() { "-" } else { &d.model },
        screen
    )
}
