//! A game screen drawn from a given position, without playing to it: the app's own renderer and
//! layout on any screen size, for the vision tests and benches (`tests/it/vision_support`).
//!
//! ```
//! use autoplay_sim::app::{AppOptions, scene::{Scene, draw}};
//! use autoplay_sim::profile::Profile;
//! use sudoku_autoplay::board::Board;
//! let givens = Board::parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79").unwrap();
//! let drawn = draw(&Profile::sized(720, 1280), &AppOptions::default(), &Scene::new(givens));
//! assert_eq!(drawn.image.dimensions(), (720, 1280));
//! ```

use super::game::Game;
use super::model::Model;
use super::options::AppOptions;
use super::render::{Clock, Renderer};
use super::screens::AppScreen;
use super::screens::layout::ScreenLayout;
use crate::profile::Profile;
use image::RgbaImage;
use sudoku_autoplay::board::{Board, CELLS};

/// What the game screen shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scene {
    /// The level number in the app bar's title.
    pub level: u32,
    pub givens: Board,
    /// The givens and the digits entered.
    pub board: Board,
    /// Pencil marks: bit `d` of `notes[cell]` marks digit `d` (1..=9); drawn in empty cells.
    pub notes: [u16; CELLS],
    pub selected: Option<usize>,
}

impl Scene {
    /// Level 1's title over `givens`, nothing entered, nothing selected.
    pub fn new(givens: Board) -> Scene {
        Scene {
            level: 1,
            givens,
            board: givens,
            notes: [0; CELLS],
            selected: None,
        }
    }
}

/// A drawn screen and where things are on it (display pixels).
#[derive(Debug, Clone)]
pub struct Drawn {
    pub image: RgbaImage,
    /// The board's outer grid lines, their centres: left, top, right, bottom (where the style
    /// draws no outer border, where it would be).
    pub board: [u32; 4],
    /// Width of the box (3x3) lines.
    pub box_line: u32,
    /// Centres of the keys 1..9.
    pub keys: [(u32, u32); 9],
    /// Centre of the erase key (`None` when the style has none).
    pub erase: Option<(u32, u32)>,
}

/// Draws the game screen of `scene` on a phone of `profile` with the app's `options`, at
/// 12:30 with the battery at 80%.
pub fn draw(profile: &Profile, options: &AppOptions, scene: &Scene) -> Drawn {
    let layout = ScreenLayout::new(profile, options.keypad(), &options.style);
    let mut game = Game::custom(scene.level, scene.givens, scene.board);
    game.notes = scene.notes;
    game.selected = scene.selected.filter(|&c| c < CELLS);
    game.check = options.rules.check;
    let mut model = Model::new(None, None);
    model.set_rules(options.rules, &options.style, options.seed);
    model.screen = AppScreen::Game;
    model.game = Some(game);
    // A scene of an app with a coach mark is drawn covered by it.
    model.covered = options.cover;
    let mut image = RgbaImage::new(0, 0);
    let clock = Clock {
        hour: 12,
        minute: 30,
        battery: 80,
    };
    Renderer::new(&layout).render(&mut image, &model, &layout, options, clock);
    let b = layout.board;
    let centre = |i: usize| {
        let (start, w) = layout.line_span(i);
        (start as f32 + w as f32 / 2.0).round() as i32
    };
    let board = [
        b.x + centre(0),
        b.y + centre(0),
        b.x + centre(9),
        b.y + centre(9),
    ]
    .map(|v| v.max(0) as u32);
    let point = |(x, y): (i32, i32)| (x.max(0) as u32, y.max(0) as u32);
    let erase = (layout.erase.w > 0).then(|| point(layout.erase.center()));
    Drawn {
        image,
        board,
        box_line: layout.thick as u32,
        keys: layout.keys.map(|k| point(k.center())),
        erase,
    }
}
