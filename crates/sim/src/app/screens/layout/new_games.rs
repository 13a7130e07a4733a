//! The places of an app without levels (`--new-games`) and of its ads (`--ads`): the sheet of
//! difficulties rising from the bottom of the content, the banner under the board, an
//! interstitial's close control in a top corner.

use super::Rect;
use super::chrome::Chrome;

/// Where the sheet's rows, the banner and the close controls are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NewGameRects {
    /// The sheet, its title row, its five difficulty rows and Cancel.
    pub sheet: Rect,
    pub sheet_title: Rect,
    pub rows: [Rect; 5],
    pub cancel: Rect,
    /// The banner ad (empty where the app shows none).
    pub banner: Rect,
    /// An interstitial's close control, top left and top right.
    pub close: [Rect; 2],
}

impl NewGameRects {
    /// For the bars of `c`; `game_bottom`: the lowest key of the game screen (the banner goes
    /// under it, where there is room).
    pub(super) fn new(c: &Chrome, game_bottom: i32, ads: bool) -> NewGameRects {
        let px = |v: f32| (v * c.dp).round() as i32;
        let row_h = px(56.0);
        let bottom = c.nav_bar.y.min(c.height);
        let sheet_h = (row_h * 7 + px(16.0)).min(bottom - c.content_top);
        let sheet = Rect::new(0, bottom - sheet_h, c.cw, sheet_h);
        let row = |i: i32| Rect::new(c.left, sheet.y + px(8.0) + i * row_h, c.column, row_h);
        let banner_h = px(50.0);
        let banner = Rect::new(c.left, bottom - banner_h - px(4.0), c.column, banner_h);
        let size = px(40.0);
        let top = c.status_bar.bottom() + px(8.0);
        NewGameRects {
            sheet,
            sheet_title: row(0),
            rows: [row(1), row(2), row(3), row(4), row(5)],
            cancel: row(6),
            banner: if ads && banner.y >= game_bottom {
                banner
            } else {
                Rect::default()
            },
            close: [
                Rect::new(px(8.0), top, size, size),
                Rect::new(c.cw - px(8.0) - size, top, size, size),
            ],
        }
    }
}
