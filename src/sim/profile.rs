//! Device profiles: screen size, density, identity, touch panel.

/// One simulated device model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// Name used on the command line (`--profile pixel`).
    pub name: &'static str,
    /// `ro.product.model`
    pub model: &'static str,
    /// `ro.product.name`
    pub product: &'static str,
    /// `ro.product.device`
    pub device: &'static str,
    /// Display size in pixels (portrait).
    pub width: u32,
    pub height: u32,
    /// `wm density`
    pub density: u32,
    /// Touch panel axis maxima (`getevent -p`); not display pixels.
    pub touch_max: (u32, u32),
    /// Whether `sendevent` is allowed (else "permission denied", as on Android 10+).
    pub sendevent_allowed: bool,
    /// Whether the display has a cutout (notch) at the top.
    pub cutout: bool,
    /// `ro.build.version.sdk` and `ro.build.version.release`.
    pub sdk: u32,
    pub release: &'static str,
}

pub const PROFILES: &[Profile] = &[
    Profile {
        name: "budget",
        model: "Budget_A10",
        product: "budget_a10",
        device: "a10",
        width: 720,
        height: 1520,
        density: 320,
        touch_max: (4095, 4095),
        sendevent_allowed: true,
        cutout: false,
        sdk: 28,
        release: "9",
    },
    Profile {
        name: "pixel",
        model: "Pixel_7",
        product: "panther",
        device: "panther",
        width: 1080,
        height: 2400,
        density: 420,
        touch_max: (1079, 2399),
        sendevent_allowed: false,
        cutout: true,
        sdk: 34,
        release: "14",
    },
    Profile {
        name: "flagship",
        model: "Flagship_Ultra",
        product: "flagship_ultra",
        device: "ultra",
        width: 1440,
        height: 3200,
        density: 560,
        touch_max: (16383, 16383),
        sendevent_allowed: false,
        cutout: false,
        sdk: 35,
        release: "15",
    },
    Profile {
        name: "tablet",
        model: "Tab_S10",
        product: "tab_s10",
        device: "tab10",
        width: 1600,
        height: 2560,
        density: 320,
        touch_max: (4095, 4095),
        sendevent_allowed: true,
        cutout: false,
        sdk: 33,
        release: "13",
    },
    Profile {
        name: "small",
        model: "Small_S2",
        product: "small_s2",
        device: "s2",
        width: 480,
        height: 800,
        density: 240,
        touch_max: (479, 799),
        sendevent_allowed: true,
        cutout: false,
        sdk: 23,
        release: "6.0",
    },
];

/// Looks a profile up by name.
pub fn profile(name: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.name == name)
}

/// The profile names, for help and error messages.
pub fn names() -> Vec<&'static str> {
    PROFILES.iter().map(|p| p.name).collect()
}
