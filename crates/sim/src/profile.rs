//! Device profiles: screen size, density, identity, touch panel, ABI and timing figures.

use crate::android::SDK_NO_SHELL_INPUT_WRITE;
use crate::timing::PhoneTiming;

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
    /// Display size in pixels in the natural (portrait) orientation (`wm size`).
    pub width: u32,
    pub height: u32,
    /// The display's physical density (`wm density`'s `Physical density:`,
    /// `ro.sf.lcd_density`).
    pub density: u32,
    /// The density the user chose in Settings (Display size) or with `wm density N`: Android
    /// lays apps out at it, and `wm density` prints it as `Override density:` after the
    /// physical one (`--override-density`).
    pub override_density: Option<u32>,
    /// Touch panel axis maxima (`getevent -p`); not display pixels.
    pub touch_max: (u32, u32),
    /// Whether the node's mode lets the shell user write the touch panel's `/dev/input/eventN`
    /// (`sendevent`, a `dd` into it) up to Android 9, where the shell user is in the `input`
    /// group. From Android 10 (API 29) SELinux forbids it on every phone whatever this says
    /// (see [`Profile::shell_may_write_panel`]).
    pub panel_writable: bool,
    /// `ro.product.cpu.abi` (and the first of `ro.product.cpu.abilist`).
    pub abi: &'static str,
    /// Whether the shell's binaries (`/system/bin/sh`, toybox's `dd`) are 64-bit processes: the
    /// kernel then takes 24-byte `input_event` records from them, 16-byte ones from 32-bit ones.
    pub userspace_64: bool,
    /// What the phone's work costs under `--timing phone`.
    pub timing: PhoneTiming,
    /// Whether the display has a cutout (notch) at the top.
    pub cutout: bool,
    /// How the phone is held: the display's rotation from its natural (portrait) orientation
    /// in quarter turns, as Android numbers them (`Surface.ROTATION_90` is 1: landscape, the
    /// natural top on the left). The touch panel keeps its natural axes; apps, screenshots,
    /// `input` and the injector use the rotated display (`--rotation`).
    pub rotation: u8,
    /// `ro.build.version.sdk` and `ro.build.version.release`.
    pub sdk: u32,
    pub release: &'static str,
    /// How this phone's system commands print where real phones differ.
    pub quirks: Quirks,
}

/// Where real phones' command outputs differ from the tidy default (each from published real
/// outputs: `tests/data/android/SOURCES.toml` and docs/real-phones.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Quirks {
    /// Displays besides the built-in one (a foldable's cover screen, a connected display):
    /// `screencap` without `-d` prints Android 14's "Multiple displays" warning before the
    /// image, and `dumpsys window` has a display and a focus line for each.
    pub extra_displays: u8,
    /// `dumpsys input` still holds the dispatcher's snapshot "at time of last ANR" (of another
    /// app), with an event queued in it: it stays until the next ANR or a reboot.
    pub anr_snapshot: bool,
    /// How `dumpsys power` names the wakefulness.
    pub wakefulness: WakeFormat,
    /// The display off is the always-on display: `Dozing` instead of `Asleep`.
    pub doze: bool,
    /// Multitouch nodes that drive nothing on the built-in display (an emulator's
    /// `virtio_input_multi_touch_N` for displays that do not exist, a second panel driver):
    /// the first is listed before the real panel, the others after it.
    pub decoy_panels: u8,
    /// The panel speaks multitouch protocol A (no `ABS_MT_SLOT`: contacts end with
    /// `SYN_MT_REPORT`, a lift is a frame without contacts).
    pub protocol_a: bool,
    /// `uiautomator dump` fails with `ERROR: could not get idle state.` while the screen
    /// animates (for a while after each change).
    pub ui_idle_error: bool,
    /// Raw `screencap` has the 12-byte header of releases before Android 8 (no colour space).
    pub raw_header_12: bool,
    /// No physical keys (an emulator): `monkey` aborts on its default share of system keys
    /// unless `--pct-syskeys 0`.
    pub no_sys_keys: bool,
    /// No `screenrecord` (some OEM builds leave it out): the shell says it is not found.
    pub no_screenrecord: bool,
}

impl Quirks {
    /// No quirk: the tidy default.
    pub const NONE: Quirks = Quirks {
        extra_displays: 0,
        anr_snapshot: false,
        wakefulness: WakeFormat::Plain,
        doze: false,
        decoy_panels: 0,
        protocol_a: false,
        ui_idle_error: false,
        raw_header_12: false,
        no_sys_keys: false,
        no_screenrecord: false,
    };

    /// The quirks on, in words (for the sim's start-up line).
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.extra_displays > 0 {
            out.push(format!("{} extra display(s)", self.extra_displays));
        }
        if self.anr_snapshot {
            out.push("an old ANR in dumpsys input".into());
        }
        match self.wakefulness {
            WakeFormat::Plain => {}
            WakeFormat::Samsung => out.push("Samsung's getWakefulnessLocked()".into()),
            WakeFormat::Observer => out.push("Android 16's wakefulness observer".into()),
        }
        if self.doze {
            out.push("dozes when off".into());
        }
        if self.decoy_panels > 0 {
            out.push(format!("{} decoy touch node(s)", self.decoy_panels));
        }
        if self.protocol_a {
            out.push("protocol A panel".into());
        }
        if self.ui_idle_error {
            out.push("uiautomator idle-state errors".into());
        }
        if self.raw_header_12 {
            out.push("12-byte raw screencap header".into());
        }
        if self.no_sys_keys {
            out.push("no physical keys (monkey needs --pct-syskeys 0)".into());
        }
        if self.no_screenrecord {
            out.push("no screenrecord".into());
        }
        out
    }
}

/// `dumpsys power`'s wakefulness lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WakeFormat {
    /// `mWakefulness=Awake` (AOSP).
    #[default]
    Plain,
    /// `getWakefulnessLocked()=Awake` and no `mWakefulness=` (Samsung builds: Flutter's
    /// flutter_tools tests `pretendAwakeSamsung`, Appium's `isInDozingMode`).
    Samsung,
    /// AOSP's line plus Android 16's "Wakefulness Session Observer" with the state as a
    /// number (`current wakefulness: 1`).
    Observer,
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
        panel_writable: true,
        abi: "armeabi-v7a",
        userspace_64: false,
        timing: PhoneTiming {
            input_ms: 900,
            // Android 9 and older: `input` is a Java program; `cmd input` does not exist.
            cmd_input_ms: 0,
            process_ms: 25,
            screencap_raw_ms: (450, 700),
            screencap_png_ms: (1400, 2000),
            app_tap_ms: 8,
            inject_us: 400,
        },
        override_density: None,
        cutout: false,
        rotation: 0,
        sdk: 28,
        release: "9",
        quirks: Quirks {
            wakefulness: WakeFormat::Samsung,
            doze: true,
            ..Quirks::NONE
        },
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
        panel_writable: true,
        abi: "arm64-v8a",
        userspace_64: true,
        timing: PhoneTiming {
            input_ms: 350,
            cmd_input_ms: 40,
            process_ms: 12,
            screencap_raw_ms: (300, 500),
            screencap_png_ms: (700, 1200),
            app_tap_ms: 4,
            inject_us: 150,
        },
        override_density: None,
        cutout: true,
        rotation: 0,
        sdk: 34,
        release: "14",
        quirks: Quirks::NONE,
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
        panel_writable: false,
        abi: "arm64-v8a",
        userspace_64: true,
        timing: PhoneTiming {
            input_ms: 250,
            cmd_input_ms: 35,
            process_ms: 10,
            screencap_raw_ms: (300, 450),
            screencap_png_ms: (800, 1100),
            app_tap_ms: 3,
            inject_us: 120,
        },
        override_density: None,
        cutout: false,
        rotation: 0,
        sdk: 35,
        release: "15",
        quirks: Quirks {
            extra_displays: 1,
            anr_snapshot: true,
            ui_idle_error: true,
            ..Quirks::NONE
        },
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
        panel_writable: true,
        abi: "arm64-v8a",
        userspace_64: true,
        timing: PhoneTiming {
            input_ms: 400,
            cmd_input_ms: 50,
            process_ms: 15,
            screencap_raw_ms: (350, 550),
            screencap_png_ms: (900, 1400),
            app_tap_ms: 5,
            inject_us: 200,
        },
        override_density: None,
        cutout: false,
        rotation: 0,
        sdk: 33,
        release: "13",
        quirks: Quirks {
            decoy_panels: 1,
            ..Quirks::NONE
        },
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
        panel_writable: true,
        abi: "armeabi-v7a",
        userspace_64: false,
        // An old hdpi phone: slow like `budget`, a third of its pixels to capture.
        timing: PhoneTiming {
            input_ms: 1000,
            // Android 9 and older: `input` is a Java program; `cmd input` does not exist.
            cmd_input_ms: 0,
            process_ms: 30,
            screencap_raw_ms: (200, 320),
            screencap_png_ms: (550, 800),
            app_tap_ms: 10,
            inject_us: 500,
        },
        override_density: None,
        cutout: false,
        rotation: 0,
        sdk: 23,
        release: "6.0",
        quirks: Quirks {
            protocol_a: true,
            raw_header_12: true,
            ..Quirks::NONE
        },
    },
    Profile {
        name: "emulator",
        model: "sdk_gphone64_x86_64",
        product: "sdk_gphone64_x86_64",
        device: "emu64xa",
        width: 1080,
        height: 2400,
        density: 420,
        // virtio-input reports the whole 15-bit range.
        touch_max: (32767, 32767),
        panel_writable: false,
        abi: "x86_64",
        userspace_64: true,
        timing: PhoneTiming {
            input_ms: 350,
            cmd_input_ms: 40,
            process_ms: 12,
            screencap_raw_ms: (300, 500),
            screencap_png_ms: (700, 1200),
            app_tap_ms: 4,
            inject_us: 150,
        },
        override_density: None,
        cutout: false,
        rotation: 0,
        sdk: 36,
        release: "16",
        // The Android Emulator lists one virtio_input_multi_touch_N per possible display
        // (JakeWharton/adb-event-mirror#2: eleven of them), only one drives display 0.
        quirks: Quirks {
            decoy_panels: 10,
            wakefulness: WakeFormat::Observer,
            no_sys_keys: true,
            ..Quirks::NONE
        },
    },
    // A mid-range phone on Android 12 (API 31), the release of many phones still in use:
    // `input` is `cmd input`, the shell may not write the touch panel, and a refused
    // injection (`--inject-denied`) is dropped at dispatch, not thrown. Its figures are
    // estimates between `budget`'s and `pixel`'s (docs/simulated-phone.md).
    Profile {
        name: "midrange",
        model: "Mid_12",
        product: "mid_12",
        device: "mid12",
        width: 1080,
        height: 2400,
        density: 440,
        touch_max: (1079, 2399),
        panel_writable: true,
        abi: "arm64-v8a",
        userspace_64: true,
        timing: PhoneTiming {
            input_ms: 500,
            cmd_input_ms: 55,
            process_ms: 18,
            screencap_raw_ms: (350, 600),
            screencap_png_ms: (900, 1500),
            app_tap_ms: 6,
            inject_us: 250,
        },
        override_density: None,
        cutout: true,
        rotation: 0,
        sdk: 31,
        release: "12",
        quirks: Quirks::NONE,
    },
    // An entry-level phone on Android 11 (API 30): `input` is still a Java program started per
    // call, the shell may not write the touch panel. Figures are estimates near `budget`'s.
    Profile {
        name: "entry",
        model: "Entry_11",
        product: "entry_11",
        device: "entry11",
        width: 720,
        height: 1520,
        density: 320,
        touch_max: (719, 1519),
        panel_writable: true,
        abi: "arm64-v8a",
        userspace_64: true,
        timing: PhoneTiming {
            input_ms: 750,
            // Android 11 and older: `input` is a Java program; `cmd input` is not used.
            cmd_input_ms: 0,
            process_ms: 20,
            screencap_raw_ms: (400, 650),
            screencap_png_ms: (1200, 1800),
            app_tap_ms: 7,
            inject_us: 350,
        },
        override_density: None,
        cutout: false,
        rotation: 0,
        sdk: 30,
        release: "11",
        quirks: Quirks::NONE,
    },
];

impl Profile {
    /// The display's size as apps and screenshots see it: the natural size, turned by
    /// [`Profile::rotation`].
    pub fn display_size(&self) -> (u32, u32) {
        if self.rotation % 2 == 1 {
            (self.height, self.width)
        } else {
            (self.width, self.height)
        }
    }

    /// The density Android applies: the override, else the physical one.
    pub fn applied_density(&self) -> u32 {
        self.override_density.unwrap_or(self.density)
    }

    /// Whether the shell user may open the touch panel for writing: as root (`adb root` on a
    /// userdebug build) always; otherwise only up to Android 9 and where the node's mode allows.
    pub fn shell_may_write_panel(&self, root: bool) -> bool {
        root || (self.sdk < SDK_NO_SHELL_INPUT_WRITE && self.panel_writable)
    }

    /// A phone of `width x height` pixels: the profile of that size if there is one, else a
    /// "custom" phone (the pixel's identity and timing, no cutout) about 411 dp wide, like most
    /// phones.
    pub fn sized(width: u32, height: u32) -> Profile {
        if let Some(p) = PROFILES
            .iter()
            .find(|p| (p.width, p.height) == (width, height))
        {
            return p.clone();
        }
        let pixel = &PROFILES[1];
        Profile {
            name: "custom",
            width,
            height,
            density: ((width * 160 + 205) / 411).max(80),
            touch_max: (width.max(1) - 1, height.max(1) - 1),
            cutout: false,
            ..pixel.clone()
        }
    }
}

/// Looks a profile up by name.
pub fn profile(name: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.name == name)
}

/// The profile names, for help and error messages.
pub fn names() -> Vec<&'static str> {
    PROFILES.iter().map(|p| p.name).collect()
}
