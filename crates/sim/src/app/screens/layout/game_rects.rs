//! Where the game screen's board and keys go in the room the [`Chrome`] leaves: the board, then
//! the keypad (a row, two rows or a 3x3 grid, on a panel or not), the erase key or action row.

use super::chrome::Chrome;
use crate::app::geometry::Rect;
use crate::app::style::{EraseKey, KeypadStyle, Style};

/// The 3x3 keypad: key size, gap between keys and panel padding (dp).
const GRID_KEY_DP: f32 = 56.0;
const GRID_GAP_DP: f32 = 4.0;
const GRID_PAD_DP: f32 = 6.0;
/// The 3x3 keypad's side.
const GRID_DP: f32 = 3.0 * GRID_KEY_DP + 2.0 * GRID_GAP_DP + 2.0 * GRID_PAD_DP;
/// The action row (`EraseKey::Actions`): its height and the gap under it (dp).
const ACTIONS_DP: f32 = 56.0;
const ACTIONS_GAP_DP: f32 = 8.0;

/// Where the game screen's board and keys are.
pub(super) struct GameRects {
    pub(super) board: Rect,
    pub(super) lines: [i32; 10],
    pub(super) thin: i32,
    pub(super) thick: i32,
    pub(super) keys: [Rect; 9],
    pub(super) erase: Rect,
    pub(super) actions: [Rect; 4],
    pub(super) panel: Rect,
}

/// Where the keypad block goes: its left edge, top and width, and its scale (0.6..=1).
struct KeyBlock {
    left: i32,
    top: i32,
    span: i32,
    scale: f32,
    dp: f32,
}

impl KeyBlock {
    fn px(&self, v: f32) -> i32 {
        (v * self.dp * self.scale).round() as i32
    }
}

impl GameRects {
    /// The board, then the keypad. On a short screen the keypad shrinks (to 60%) to leave the
    /// board the full width, then the board gives way.
    pub(super) fn new(c: &Chrome, keypad: KeypadStyle, style: &Style) -> GameRects {
        let actions_dp = if style.erase == EraseKey::Actions {
            ACTIONS_DP + ACTIONS_GAP_DP
        } else {
            0.0
        };
        let (board, block) = Self::board_and_block(c, keypad, style, actions_dp);
        let size = board.w;
        let mut lines = [0; 10];
        for (i, l) in lines.iter_mut().enumerate() {
            *l = (i as f32 * size as f32 / 9.0).round() as i32;
        }
        let thin = c.px(1.0).max(1);
        let thick = if style.thin_boxes {
            thin
        } else {
            c.px(2.5).max(2)
        };
        let mut actions = [Rect::default(); 4];
        if actions_dp > 0.0 {
            for (i, a) in actions.iter_mut().enumerate() {
                let (x0, x1) = (i as i32 * block.span / 4, (i as i32 + 1) * block.span / 4);
                *a = Rect::new(block.left + x0, block.top, x1 - x0, block.px(ACTIONS_DP));
            }
        }
        let key_top = block.top + block.px(actions_dp);
        let (keys, mut erase, panel) = Self::keypad(&block, key_top, keypad, style);
        match style.erase {
            EraseKey::None => erase = Rect::default(),
            EraseKey::Actions => erase = actions[1],
            _ => {}
        }
        GameRects {
            board,
            lines,
            thin,
            thick,
            keys,
            erase,
            actions,
            panel,
        }
    }

    /// The board's square and where the keypad block goes (`actions_dp`: the action row's
    /// height and gap, 0 without one).
    fn board_and_block(
        c: &Chrome,
        keypad: KeypadStyle,
        style: &Style,
        actions_dp: f32,
    ) -> (Rect, KeyBlock) {
        let (dp, cw, column, content_h) = (c.dp, c.cw, c.column, c.content_h);
        let key_dp = match keypad {
            // With an action row, the row of keys has no erase key under it.
            KeypadStyle::Row if actions_dp > 0.0 => 56.0 + actions_dp,
            KeypadStyle::Row => 56.0 + 16.0 + 48.0,
            KeypadStyle::TwoRows => 128.0 + actions_dp,
            KeypadStyle::Grid => GRID_DP + actions_dp,
        };
        let full = if style.edge_to_edge { c.width } else { column };
        // A 3x3 keypad's width (dp), its erase key beside it.
        let grid_spread_dp = if matches!(style.erase, EraseKey::None | EraseKey::Actions) {
            GRID_DP
        } else {
            GRID_DP + 24.0 + 88.0
        };
        let (size, span, scale) = if c.landscape {
            // The board as tall as the content, the keypad beside it (shrunk to the board's
            // height, and a 3x3 one to the room beside it, if need be).
            let size = (content_h - c.px(32.0)).min(cw * 11 / 20);
            let span = column.min(cw - size - c.px(16.0 + 24.0 + 16.0));
            let mut scale = size as f32 / (key_dp * dp);
            if keypad == KeypadStyle::Grid {
                scale = scale.min(span as f32 / (grid_spread_dp * dp));
            }
            (size, span, scale.clamp(0.6, 1.0))
        } else {
            let room = (content_h - c.px(16.0 + 24.0 + 8.0) - full) as f32;
            let scale = (room / (key_dp * dp)).clamp(0.6, 1.0);
            let keys = (key_dp * dp * scale).round() as i32;
            (
                full.min(content_h - c.px(16.0 + 24.0 + 8.0) - keys),
                column,
                scale,
            )
        };
        let kpx = |v: f32| (v * dp * scale).round() as i32;
        // The keypad spans the content column under the board, also under a smaller board;
        // beside it in landscape, centred on its height.
        let (board, left, top) = if c.landscape {
            let left = (cw - size - c.px(24.0) - span) / 2;
            let board = Rect::new(left, c.content_top + c.px(16.0), size, size);
            let block = board.y + (size - kpx(key_dp)) / 2;
            (board, board.right() + c.px(24.0), block)
        } else {
            let board = Rect::new((c.width - size) / 2, c.content_top + c.px(16.0), size, size);
            (board, (c.width - column) / 2, board.bottom() + c.px(24.0))
        };
        let block = KeyBlock {
            left,
            top,
            span,
            scale,
            dp,
        };
        (board, block)
    }

    /// The digit keys from `top`, the erase key and a 3x3 keypad's panel, for `keypad`.
    fn keypad(
        b: &KeyBlock,
        top: i32,
        keypad: KeypadStyle,
        style: &Style,
    ) -> ([Rect; 9], Rect, Rect) {
        let (kleft, kspan) = (b.left, b.span);
        let mut keys = [Rect::default(); 9];
        let mut panel = Rect::default();
        let erase = match keypad {
            KeypadStyle::Row => {
                let kgap = b.px(4.0);
                let kw = (kspan - 8 * kgap) / 9;
                let kh = b.px(56.0);
                for (i, k) in keys.iter_mut().enumerate() {
                    *k = Rect::new(kleft + i as i32 * (kw + kgap), top, kw, kh);
                }
                let ew = b.px(136.0);
                Rect::new(
                    kleft + (kspan - ew) / 2,
                    top + kh + b.px(16.0),
                    ew,
                    b.px(48.0),
                )
            }
            KeypadStyle::TwoRows => {
                let kgap = b.px(8.0);
                let kw = (kspan - 4 * kgap) / 5;
                let kh = b.px(60.0);
                let at = |i: i32| {
                    Rect::new(
                        kleft + (i % 5) * (kw + kgap),
                        top + (i / 5) * (kh + kgap),
                        kw,
                        kh,
                    )
                };
                for (i, k) in keys.iter_mut().enumerate() {
                    *k = at(i as i32);
                }
                at(9)
            }
            KeypadStyle::Grid => {
                let (kw, kgap, pad) = (b.px(GRID_KEY_DP), b.px(GRID_GAP_DP), b.px(GRID_PAD_DP));
                let pw = 3 * kw + 2 * kgap + 2 * pad;
                let ew = b.px(88.0);
                let spread = if matches!(style.erase, EraseKey::None | EraseKey::Actions) {
                    pw
                } else {
                    pw + b.px(24.0) + ew
                };
                let px0 = kleft + (kspan - spread) / 2;
                panel = Rect::new(px0, top, pw, pw);
                for (i, k) in keys.iter_mut().enumerate() {
                    let (r, c) = (i as i32 / 3, i as i32 % 3);
                    *k = Rect::new(
                        px0 + pad + c * (kw + kgap),
                        top + pad + r * (kw + kgap),
                        kw,
                        kw,
                    );
                }
                Rect::new(px0 + pw + b.px(24.0), top + pad, ew, kw)
            }
        };
        (keys, erase, panel)
    }
}
