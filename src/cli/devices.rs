//! `autoplay devices`: connected devices, their screens, and whether a calibration exists.

use super::play::ServerArgs;
use crate::device::{CALL_TIMEOUT, Device};
use crate::play::run::find_calibration;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct DevicesArgs {
    /// Where calibrations are looked up.
    #[arg(long, value_name = "DIR", default_value = "calibration")]
    pub calibration_dir: PathBuf,
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
    for d in devices {
        let dev = Device::new(d.serial.clone(), server);
        let size = if d.is_ready() {
            dev.screen_size().ok()
        } else {
            None
        };
        let calibration = size.and_then(|s| {
            find_calibration(&args.calibration_dir, &d.model, s)
                .ok()
                .map(|(p, _)| p)
        });
        if args.json {
            let obj = serde_json::json!({
                "serial": d.serial, "state": d.state, "model": d.model,
                "width": size.map(|s| s.0), "height": size.map(|s| s.1),
                "calibration": calibration.as_ref().map(|p| p.display().to_string()),
            });
            outln!("{obj}")?;
            continue;
        }
        let screen = size.map_or("-".to_string(), |(w, h)| format!("{w}x{h}"));
        let density = if d.is_ready() {
            dev.shell("wm density", CALL_TIMEOUT)
                .ok()
                .and_then(|o| {
                    o.stdout
                        .split(':')
                        .nth(1)
                        .map(|v| format!(" @{}dpi", v.trim()))
                })
                .unwrap_or_default()
        } else {
            String::new()
        };
        let cal = match (&calibration, d.is_ready()) {
            (Some(p), _) => p.display().to_string(),
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
    }
    Ok(0)
}
