//! The colours of the light and dark themes (Material-like), and of app styles with their own.

/// Colour theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

impl Theme {
    /// The name `dumpsys` reports.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// An opaque colour.
pub type Rgb = [u8; 3];

/// Every colour the app draws with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    pub background: Rgb,
    /// Cards, the board and keys.
    pub surface: Rgb,
    pub status_bar: Rgb,
    pub on_status_bar: Rgb,
    pub app_bar: Rgb,
    pub on_app_bar: Rgb,
    pub nav_bar: Rgb,
    pub on_nav_bar: Rgb,
    pub text: Rgb,
    pub muted: Rgb,
    pub primary: Rgb,
    pub on_primary: Rgb,
    pub outline: Rgb,
    pub line_thin: Rgb,
    pub line_thick: Rgb,
    pub given: Rgb,
    pub user: Rgb,
    pub conflict: Rgb,
    pub selected: Rgb,
    pub peer: Rgb,
    pub same_digit: Rgb,
    pub key: Rgb,
    pub on_key: Rgb,
    /// Solved level buttons.
    pub done: Rgb,
    /// Opacity (0..255) of the black scrim behind dialogs.
    pub scrim_alpha: u8,
    pub star: Rgb,
}

impl Palette {
    /// The palette of `theme`.
    pub fn of(theme: Theme) -> &'static Palette {
        match theme {
            Theme::Light => &LIGHT,
            Theme::Dark => &DARK,
        }
    }
}

const LIGHT: Palette = Palette {
    background: [0xF6, 0xF7, 0xFB],
    surface: [0xFF, 0xFF, 0xFF],
    status_bar: [0x2B, 0x4C, 0x9B],
    on_status_bar: [0xFF, 0xFF, 0xFF],
    app_bar: [0x34, 0x5B, 0xB8],
    on_app_bar: [0xFF, 0xFF, 0xFF],
    nav_bar: [0xF0, 0xF0, 0xF0],
    on_nav_bar: [0x5F, 0x63, 0x68],
    text: [0x20, 0x21, 0x24],
    muted: [0x80, 0x86, 0x8B],
    primary: [0x34, 0x5B, 0xB8],
    on_primary: [0xFF, 0xFF, 0xFF],
    outline: [0xB0, 0xB8, 0xC8],
    line_thin: [0xC4, 0xC9, 0xD4],
    line_thick: [0x34, 0x3A, 0x46],
    given: [0x1F, 0x23, 0x2A],
    user: [0x2A, 0x62, 0xD9],
    conflict: [0xD3, 0x2F, 0x2F],
    selected: [0xBB, 0xD6, 0xFB],
    peer: [0xE6, 0xED, 0xF7],
    same_digit: [0xC9, 0xD2, 0xEE],
    key: [0xE8, 0xEE, 0xFA],
    on_key: [0x2A, 0x4F, 0xA8],
    done: [0xD7, 0xEE, 0xD8],
    scrim_alpha: 0x80,
    star: [0xF5, 0xB0, 0x14],
};

const DARK: Palette = Palette {
    background: [0x12, 0x13, 0x16],
    surface: [0x1E, 0x20, 0x24],
    status_bar: [0x0B, 0x0C, 0x0E],
    on_status_bar: [0xE8, 0xEA, 0xED],
    app_bar: [0x1B, 0x1E, 0x26],
    on_app_bar: [0xE8, 0xEA, 0xED],
    nav_bar: [0x0B, 0x0C, 0x0E],
    on_nav_bar: [0xBD, 0xC1, 0xC6],
    text: [0xE8, 0xEA, 0xED],
    muted: [0x9A, 0xA0, 0xA6],
    primary: [0x8A, 0xB4, 0xF8],
    on_primary: [0x10, 0x1B, 0x33],
    outline: [0x4A, 0x4F, 0x58],
    line_thin: [0x3A, 0x3E, 0x46],
    line_thick: [0xA8, 0xAE, 0xB8],
    given: [0xE4, 0xE6, 0xEA],
    user: [0x7F, 0xB0, 0xFF],
    conflict: [0xFF, 0x6B, 0x6B],
    selected: [0x2C, 0x47, 0x73],
    peer: [0x25, 0x2B, 0x36],
    same_digit: [0x33, 0x3F, 0x5E],
    key: [0x26, 0x2B, 0x36],
    on_key: [0x9F, 0xC2, 0xFF],
    done: [0x1F, 0x3A, 0x28],
    scrim_alpha: 0xA0,
    star: [0xF5, 0xB0, 0x14],
};

/// The `held-out` app style's colours (light, dark): a cream board card on a grey page, teal
/// bars and keys, one colour for every grid line, orange entries.
pub const HELD_OUT: [Palette; 2] = [
    Palette {
        background: [236, 239, 241],
        surface: [255, 253, 245],
        app_bar: [0, 121, 107],
        status_bar: [0, 96, 84],
        primary: [0, 121, 107],
        line_thin: [150, 140, 120],
        line_thick: [150, 140, 120],
        given: [60, 50, 40],
        user: [230, 110, 0],
        muted: [140, 130, 110],
        selected: [255, 213, 79],
        peer: [255, 236, 179],
        same_digit: [255, 224, 130],
        key: [0, 121, 107],
        on_key: [255, 255, 255],
        ..LIGHT
    },
    Palette {
        background: [24, 26, 27],
        surface: [38, 36, 32],
        app_bar: [0, 77, 64],
        primary: [77, 182, 172],
        line_thin: [110, 102, 88],
        line_thick: [110, 102, 88],
        given: [236, 228, 214],
        user: [255, 167, 38],
        muted: [150, 140, 122],
        selected: [110, 84, 20],
        peer: [58, 50, 34],
        same_digit: [84, 68, 30],
        key: [0, 105, 92],
        on_key: [255, 255, 255],
        ..DARK
    },
];
