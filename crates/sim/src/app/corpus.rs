//! The screenshot corpus for the vision code: for every profile x theme x keypad layout, and for
//! every app style (`--style`) on a few profiles and themes, a game screen with some entered
//! digits and a selected cell, as `screenshots/sim/NAME.png` with a sidecar `NAME.truth` (line 1:
//! the 81-cell board, `.` empty; line 2: per cell `G` given, `U` user-entered, `.` empty; line 3,
//! only when the app has no erase key: `erase: toggle`).
//!
//! Regenerate with `cargo test -p autoplay-sim --lib app::corpus::tests::regenerate -- --ignored`; a normal
//! test checks the committed files still match.

use super::Phone;
use super::game::Game;
use super::options::AppOptions;
use super::palette::Theme;
use super::style::{EraseKey, KeypadStyle, STYLES, Style};
use crate::profile::PROFILES;
use image::RgbaImage;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use sudoku_autoplay::board::CELLS;
use sudoku_autoplay::solver::fast;

/// Where the corpus lives, relative to the repository root.
pub const DIR: &str = "screenshots/sim";

/// One corpus entry.
pub struct Shot {
    /// File stem, e.g. `pixel-dark-two-rows`.
    pub name: String,
    pub image: RgbaImage,
    /// The `.truth` file's text.
    pub truth: String,
}

/// The truth text of a game: board line, kinds line.
pub fn truth(game: &Game) -> String {
    truth_of(game, &Style::default())
}

/// The truth text of a game in an app `style` (see the module doc).
pub(crate) fn truth_of(game: &Game, style: &Style) -> String {
    let board = game.board.to_line();
    let kinds: String = (0..CELLS)
        .map(|c| match (game.is_given(c), game.board.get(c)) {
            (true, _) => 'G',
            (false, 0) => '.',
            (false, _) => 'U',
        })
        .collect();
    let erase = if style.erase == EraseKey::None {
        "erase: toggle\n"
    } else {
        ""
    };
    format!("{board}\n{kinds}\n{erase}")
}

/// The (profile, theme) pairs each style other than `classic` is rendered on: every profile
/// once, both themes, the small screen for each.
fn style_shots(style_index: usize) -> [(&'static str, Theme); 2] {
    let big = ["pixel", "budget", "flagship", "tablet"];
    let theme = |i: usize| {
        if i.is_multiple_of(2) {
            Theme::Light
        } else {
            Theme::Dark
        }
    };
    [
        (big[style_index % big.len()], theme(style_index)),
        ("small", theme(style_index + 1)),
    ]
}

/// Plays a few moves through real taps and returns the phone. Entry `index` picks the level,
/// the digits (mostly right, some wrong) and whether conflicts are shown.
fn staged(
    index: usize,
    options: AppOptions,
    profile: &crate::profile::Profile,
) -> Result<Phone, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(index as u64);
    let level = 1 + (index * 13 + 5) as u32 % super::levels::LEVEL_COUNT as u32;
    let mut phone = Phone::new(profile.clone(), options);
    phone.start_level(level)?;
    let givens = phone
        .model()
        .game
        .as_ref()
        .map(|g| g.givens)
        .ok_or("no game after start_level")?;
    let solution = fast::solve(&givens).ok_or("level has no solution")?;
    let mut empty: Vec<usize> = (0..CELLS).filter(|&c| givens.get(c) == 0).collect();
    empty.shuffle(&mut rng);
    let entries = 10 + index % 15;
    for &cell in empty.iter().take(entries) {
        let digit = if rng.random_bool(0.2) {
            rng.random_range(1..=9)
        } else {
            solution.get(cell)
        };
        let (x, y) = phone.layout().cell_center(cell);
        phone.tap(x, y);
        let (x, y) = phone.layout().key_center(digit);
        phone.tap(x, y);
    }
    let selected = rng.random_range(0..CELLS);
    let (x, y) = phone.layout().cell_center(selected);
    phone.tap(x, y);
    Ok(phone)
}

/// The profiles whose screens the corpus holds: one per screen size (a profile of the same
/// size as an earlier one draws the same screens).
fn screen_profiles() -> impl Iterator<Item = &'static crate::profile::Profile> {
    PROFILES.iter().enumerate().filter_map(|(i, p)| {
        let size = (p.width, p.height);
        (!PROFILES[..i].iter().any(|q| (q.width, q.height) == size)).then_some(p)
    })
}

/// Every corpus entry, rendered now.
pub fn shots() -> Result<Vec<Shot>, String> {
    let mut out = Vec::new();
    let mut index = 0;
    for profile in screen_profiles() {
        for theme in [Theme::Light, Theme::Dark] {
            for keypad in [KeypadStyle::Row, KeypadStyle::TwoRows] {
                let options = AppOptions {
                    theme,
                    keypad,
                    seed: index as u64,
                    show_conflicts: index % 3 == 2,
                    ..AppOptions::default()
                };
                let name = format!("{}-{}-{}", profile.name, theme.name(), keypad.name());
                out.push(shot(name, index, options, profile)?);
                index += 1;
            }
        }
    }
    for (i, style) in STYLES.iter().enumerate().skip(1) {
        for (profile_name, theme) in style_shots(i) {
            let profile = crate::profile::profile(profile_name).ok_or("no such profile")?;
            let options = AppOptions {
                theme,
                style: *style,
                seed: index as u64,
                show_conflicts: index % 3 == 2,
                ..AppOptions::default()
            };
            let name = format!("{}-{}-{}", profile.name, theme.name(), style.name);
            out.push(shot(name, index, options, profile)?);
            index += 1;
        }
    }
    Ok(out)
}

/// One staged game screen.
fn shot(
    name: String,
    index: usize,
    options: AppOptions,
    profile: &crate::profile::Profile,
) -> Result<Shot, String> {
    let style = options.style;
    let mut phone = staged(index, options, profile)?;
    let game = phone.model().game.clone().ok_or("no game")?;
    Ok(Shot {
        name,
        image: phone.screenshot(),
        truth: truth_of(&game, &style),
    })
}

/// Writes the corpus into `dir` (PNG + truth per entry) and returns the files written.
pub fn write(dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for shot in shots()? {
        let png = dir.join(format!("{}.png", shot.name));
        save_png(&shot.image, &png).map_err(|e| format!("cannot write {}: {e}", png.display()))?;
        let truth = dir.join(format!("{}.truth", shot.name));
        std::fs::write(&truth, &shot.truth)
            .map_err(|e| format!("cannot write {}: {e}", truth.display()))?;
        files.extend([png, truth]);
    }
    Ok(files)
}

/// Saves `img` as a maximally compressed PNG.
fn save_png(img: &RgbaImage, path: &Path) -> Result<(), String> {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let encoder = PngEncoder::new_with_quality(
        std::io::BufWriter::new(file),
        CompressionType::Best,
        FilterType::Adaptive,
    );
    encoder
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(DIR)
    }

    /// The committed corpus is what the generator produces now (truth and pixels).
    #[test]
    fn committed_corpus_is_current() {
        let stale = "screenshots/sim is stale: run `cargo test -p autoplay-sim --lib app::corpus::tests::regenerate -- --ignored`";
        let shots = shots().unwrap();
        assert_eq!(
            shots.len(),
            screen_profiles().count() * 4 + (STYLES.len() - 1) * 2
        );
        for shot in &shots {
            let truth = std::fs::read_to_string(dir().join(format!("{}.truth", shot.name)))
                .unwrap_or_else(|e| panic!("{}.truth: {e}; {stale}", shot.name));
            assert_eq!(truth, shot.truth, "{}: {stale}", shot.name);
            let png = image::open(dir().join(format!("{}.png", shot.name)))
                .unwrap_or_else(|e| panic!("{}.png: {e}; {stale}", shot.name))
                .to_rgba8();
            assert_eq!(png.dimensions(), shot.image.dimensions(), "{}", shot.name);
            assert!(png == shot.image, "{}: pixels differ; {stale}", shot.name);
        }
        let files = std::fs::read_dir(dir()).unwrap().count();
        assert_eq!(files, shots.len() * 2, "unexpected files in {DIR}");
    }

    #[test]
    fn truth_lines_match_the_board() {
        for shot in shots().unwrap().iter().take(2) {
            let lines: Vec<&str> = shot.truth.lines().collect();
            assert_eq!(lines.len(), 2, "classic shots have an erase key");
            assert!(lines.iter().all(|l| l.len() == CELLS));
            for (b, k) in lines[0].chars().zip(lines[1].chars()) {
                assert_eq!(b == '.', k == '.');
            }
            assert!(lines[1].contains('U') && lines[1].contains('G'));
        }
    }

    #[test]
    #[ignore = "rewrites screenshots/sim"]
    fn regenerate() {
        let d = dir();
        if d.exists() {
            std::fs::remove_dir_all(&d).unwrap();
        }
        let files = write(&d).unwrap();
        eprintln!("wrote {} files to {}", files.len(), d.display());
    }
}
