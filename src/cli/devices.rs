//! `autoplay devices`: connected devices, their screens, and whether a calibration exists.

use super::args::ServerArgs;
use super::dirs::CalibrationDir;
use sudoku_autoplay::calibration::lookup;
use sudoku_autoplay::device::Device;
use sudoku_autoplay::device::screen::Screen;

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
    let mut broken = std::collections::BTreeSet::new();
    for d in devices {
        let dev = Device::new(d.serial.clone(), server);
        let size = if d.is_ready() {
            dev.screen_size().ok()
        } else {
            None
        };
        // The calibration play would pick: with several for the screen, the device's screen decides.
        let app = d
            .is_ready()
            .then(|| dev.front_package().ok().flatten())
            .flatten();
        let choice = size.and_then(|size| {
            let phone = lookup::Phone {
                model: &d.model,
                size,
                app: app.as_deref(),
            };
            let found = lookup::find(&search, phone);
            broken.extend(found.broken.iter().map(super::words::calibration));
            let found = found.require().ok()?;
            let frame = (found.candidates.len() > 1)
                .then(|| Screen::measure(&dev).ok().map(|(_, f)| f))
                .flatten();
            Some(found.pick(frame.as_ref()))
        });
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
        let screen = size.map_or("-".to_string(), |(w, h)| format!("{w}x{h}"));
        let density = match d.is_ready().then(|| dev.density()) {
            Some(Ok(Some(dpi))) => format!(" @{dpi}dpi"),
            _ => String::new(),
        };
        let cal = match (&choice, d.is_ready()) {
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
        )?;
        if let Some(why) = choice.and_then(|c| c.why) {
            outln!("    {why}")?;
        }
    }
    for e in broken {
        eprintln!("warning: skipped {e}");
    }
    Ok(0)
}
