//! Screenshots from the device: raw `screencap` over `exec:` (decoded by our own decoder) or
//! `screencap -p` (PNG). Both are timed once at connect time and the faster one is kept.

use super::{Device, DeviceError};
use crate::capture;
use image::RgbaImage;
use std::time::{Duration, Instant};

/// How frames are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CaptureMethod {
    /// `exec:screencap`: header + pixels, no compression on the device.
    Raw,
    /// `exec:screencap -p`: PNG, smaller on the wire, costly to encode on the phone.
    Png,
}

impl CaptureMethod {
    fn command(self) -> &'static str {
        match self {
            CaptureMethod::Raw => "screencap",
            CaptureMethod::Png => "screencap -p",
        }
    }
}

/// Frame timeout: a 1440x3200 PNG over USB 2 can take a second or two.
const FRAME_TIMEOUT: Duration = Duration::from_secs(20);

/// Takes screenshots with the method measured fastest.
#[derive(Debug, Clone)]
pub struct Screen {
    device: Device,
    pub method: CaptureMethod,
    /// Time of one capture + decode with each method, as measured by [`Screen::measure`].
    pub measured: Vec<(CaptureMethod, Duration)>,
}

impl Screen {
    /// Captures once with each method and keeps the faster one that works.
    pub fn measure(device: &Device) -> Result<(Self, RgbaImage), DeviceError> {
        let mut measured = Vec::new();
        let mut best: Option<(CaptureMethod, Duration, RgbaImage)> = None;
        let mut last_err = None;
        for method in [CaptureMethod::Raw, CaptureMethod::Png] {
            let t = Instant::now();
            match grab(device, method) {
                Ok(frame) => {
                    let took = t.elapsed();
                    measured.push((method, took));
                    if best.as_ref().is_none_or(|b| took < b.1) {
                        best = Some((method, took, frame));
                    }
                }
                Err(e) => last_err = Some(e),
            }
        }
        match best {
            Some((method, _, frame)) => Ok((
                Screen {
                    device: device.clone(),
                    method,
                    measured,
                },
                frame,
            )),
            None => Err(last_err.unwrap_or_else(|| DeviceError::Adb("screencap failed".into()))),
        }
    }

    /// One frame.
    pub fn grab(&self) -> Result<RgbaImage, DeviceError> {
        grab(&self.device, self.method)
    }

    /// `raw 41 ms, png 180 ms -> raw`
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .measured
            .iter()
            .map(|(m, d)| format!("{} {:.0} ms", m.command(), d.as_secs_f64() * 1e3))
            .collect();
        format!("{} (using `{}`)", parts.join(", "), self.method.command())
    }
}

fn grab(device: &Device, method: CaptureMethod) -> Result<RgbaImage, DeviceError> {
    let bytes = device.exec(method.command(), FRAME_TIMEOUT)?;
    capture::decode(&bytes).map_err(|e| {
        // A frame cut short because the adb server died is said as that.
        device.explain(DeviceError::Adb(format!(
            "`{}` gave an unreadable frame: {e}",
            method.command()
        )))
    })
}
