//! What `uiautomator dump` sees: the window in front as an accessibility tree (XML, one line,
//! like Android's). The board is a custom view without text, as in most Sudoku apps; buttons,
//! titles and dialogs carry their text, so a host can tell a completion dialog from a popup.

use super::game::Game;
use super::geometry::Rect;
use super::hazards::{self, Shown};
use super::levels::LEVEL_COUNT;
use super::model::Model;
use super::new_games::{Difficulty, words};
use super::rules::{EndForm, fill};
use super::screens::AppScreen;
use super::screens::layout::ScreenLayout;

/// One node of the tree.
struct Node {
    class: &'static str,
    text: String,
    desc: String,
    /// The view's id in the app (`board`), printed as `PACKAGE:id/NAME`; empty: none.
    id: &'static str,
    bounds: Rect,
    clickable: bool,
    enabled: bool,
}

fn node(class: &'static str, text: impl Into<String>, bounds: Rect) -> Node {
    Node {
        class,
        text: text.into(),
        desc: String::new(),
        id: "",
        bounds,
        clickable: class == "android.widget.Button",
        enabled: true,
    }
}

fn text(t: impl Into<String>, r: Rect) -> Node {
    node("android.widget.TextView", t, r)
}

fn button(t: impl Into<String>, r: Rect) -> Node {
    node("android.widget.Button", t, r)
}

/// The tree of what is in front, or `None` when the display is off (uiautomator then fails).
pub fn dump(
    model: &Model,
    layout: &ScreenLayout,
    shown: Shown,
    clock: &str,
    app: &str,
) -> Option<String> {
    let full = Rect::new(0, 0, layout.width, layout.height);
    let (package, nodes) = match shown {
        Shown::Off => return None,
        Shown::Keyguard { bouncer } => {
            let mut n = vec![text(clock, full)];
            n.push(text(
                if bouncer {
                    "Enter PIN"
                } else {
                    "Swipe up to unlock"
                },
                full,
            ));
            (hazards::SYSTEMUI_PACKAGE, n)
        }
        Shown::Launcher => (
            hazards::LAUNCHER_PACKAGE,
            hazards::launcher_icons(layout)
                .into_iter()
                .map(|(r, label)| {
                    let mut n = text(label, r);
                    n.desc = label.to_string();
                    n.clickable = true;
                    n
                })
                .collect(),
        ),
        Shown::Store => (
            super::ads::STORE_PACKAGE,
            vec![
                text(hazards::STORE_WORDS[0], full),
                text(hazards::STORE_WORDS[1], full),
                button(hazards::STORE_WORDS[2], full),
            ],
        ),
        Shown::App => (app, app_nodes(model, layout)),
    };
    let mut xml = format!(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"{}\">",
        layout.rotation
    );
    let root = Node {
        class: "android.widget.FrameLayout",
        text: String::new(),
        desc: String::new(),
        id: "",
        bounds: full,
        clickable: false,
        enabled: true,
    };
    push(&mut xml, 0, &root, package, false);
    for (i, n) in nodes.iter().enumerate() {
        push(&mut xml, i, n, package, true);
    }
    xml.push_str("</node></hierarchy>");
    Some(xml)
}

/// The app's nodes: the dialog's alone when one shows (it is its own window).
fn app_nodes(model: &Model, l: &ScreenLayout) -> Vec<Node> {
    if let Some(ad) = model.ad_showing() {
        return ad_nodes(ad, l);
    }
    if let Some(n) = new_games_nodes(model, l) {
        return n;
    }
    let d = l.dialog;
    if model.popup {
        return vec![
            text("Rate this app", d),
            text("Enjoying Sudoku? Tell us!", d),
            text("Press back to close", d),
        ];
    }
    if model.alert
        && let Some(g) = &model.game
    {
        return vec![text(g.words.invalid, d), button(g.words.ok, l.dialog_next)];
    }
    let level = model.game.as_ref().map_or(0, |g| g.level);
    match (model.screen, &model.game) {
        (AppScreen::Complete, Some(g)) if l.completion == EndForm::Dialog => vec![
            text(fill(g.words.complete_title, level, g.mistakes), d),
            text(fill(g.words.complete_sub, level, g.mistakes), d),
            button(g.words.home, l.dialog_home),
            button(g.words.next, l.dialog_next),
        ],
        (AppScreen::GameOver, Some(g)) if l.game_over == EndForm::Dialog => vec![
            text(fill(g.words.over_title, level, g.mistakes), d),
            text(fill(g.words.over_sub, level, g.mistakes), d),
            button(g.words.home, l.dialog_home),
            button(g.words.retry, l.dialog_next),
        ],
        (AppScreen::Complete | AppScreen::GameOver, Some(g)) => end_nodes(model, l, g),
        (AppScreen::Game, Some(g)) => game_nodes(model, l, g),
        (AppScreen::Levels, _) => level_list_nodes(model, l),
        _ => vec![
            text("Sudoku", l.home_title),
            text(format!("{LEVEL_COUNT} classic puzzles"), l.home_title),
            button(
                match model.game.as_ref().filter(|g| !g.is_solved() && !g.over) {
                    Some(g) => format!("Continue {}", g.level),
                    None => "Play".into(),
                },
                l.play,
            ),
            button("Levels", l.level_list),
        ],
    }
}

/// An interstitial ad: what it advertises, its Install button and badge, and its close
/// control once it shows (an image button named by its word).
fn ad_nodes(ad: &super::ads::Ad, l: &ScreenLayout) -> Vec<Node> {
    let full = Rect::new(0, 0, l.width, l.height);
    let mut n = vec![
        text(ad.title, full),
        button(words::INSTALL, full),
        text(words::AD, full),
    ];
    if ad.closable(std::time::Instant::now()) {
        // An image button: its word is its content description only.
        n.push(Node {
            desc: ad.close.into(),
            clickable: true,
            ..node(
                "android.widget.ImageButton",
                "",
                l.new_games.close[usize::from(ad.right)],
            )
        });
    }
    n
}

/// The screens of an app without levels (its home, the sheet, "Start a new game?", the
/// result dialog); `None` elsewhere.
fn new_games_nodes(model: &Model, l: &ScreenLayout) -> Option<Vec<Node>> {
    model.games_won()?;
    let g = model.game.as_ref();
    Some(match model.screen {
        AppScreen::Home => {
            let mut n = vec![
                text("Sudoku", l.home_title),
                button(words::NEW_GAME, l.play),
            ];
            if model.in_progress() {
                n.push(button(words::CONTINUE, l.level_list));
            }
            n
        }
        AppScreen::Sheet => {
            let s = &l.new_games;
            let mut n = vec![text(words::NEW_GAME, s.sheet_title)];
            n.extend(
                s.rows
                    .iter()
                    .zip(Difficulty::ALL)
                    .map(|(r, d)| button(d.name(), *r)),
            );
            n.push(button(words::CANCEL, s.cancel));
            n
        }
        AppScreen::Confirm => vec![
            text(words::CONFIRM_TITLE, l.dialog),
            text(words::CONFIRM_SUB, l.dialog),
            button(words::CANCEL, l.dialog_home),
            button(words::START, l.dialog_next),
        ],
        AppScreen::Complete if l.completion == EndForm::Dialog => vec![
            text(words::WON_TITLE, l.dialog),
            text(
                words::won_sub(g.and_then(|g| g.difficulty).map_or("", Difficulty::name)),
                l.dialog,
            ),
            button(words::HOME, l.dialog_home),
            button(words::NEW_GAME, l.dialog_next),
        ],
        _ => return None,
    })
}

/// The game screen's nodes: its bar, the board, the keypad where it shows, undo.
fn game_nodes(model: &Model, l: &ScreenLayout, g: &Game) -> Vec<Node> {
    let mut n = vec![text(g.title(), l.app_bar)];
    if model.ads.is_some() && l.new_games.banner.w > 0 {
        n.push(Node {
            clickable: true,
            ..text(words::BANNER, l.new_games.banner)
        });
    }
    if let Some(counter) = model.mistake_counter() {
        n.push(text(counter, l.app_bar));
    }
    n.extend([
        Node {
            desc: "Back".into(),
            clickable: true,
            ..node("android.widget.ImageButton", "", l.back)
        },
        Node {
            id: "board",
            desc: "Sudoku board".into(),
            ..node("android.view.View", "", l.board)
        },
    ]);
    if model.keypad_shown(g) {
        for (r, slot) in l.keys.iter().zip(model.keys(g)) {
            if let Some((d, greyed)) = slot {
                let mut b = button(d.to_string(), *r);
                b.enabled = !greyed;
                n.push(b);
            }
        }
        n.push(button("Erase", l.erase));
    }
    if l.undo.w > 0 {
        n.push(Node {
            desc: "Undo".into(),
            clickable: true,
            ..node("android.widget.ImageButton", "", l.undo)
        });
    }
    n
}

/// The level list's nodes: its title, the levels of the page (or scrolled into view), the
/// page buttons.
fn level_list_nodes(model: &Model, l: &ScreenLayout) -> Vec<Node> {
    let mut n = vec![text("Levels", l.app_bar)];
    for (k, r) in l.level_buttons(model.page, model.scroll) {
        n.push(button((k + 1).to_string(), r));
    }
    if model.scroll.is_none() {
        n.push(button("Prev", l.prev_page));
        n.push(button("Next", l.next_page));
    }
    n
}

/// A completion or game over as a screen of its own, or as a line under the board (which
/// stays, a view without text).
fn end_nodes(model: &Model, l: &ScreenLayout, g: &Game) -> Vec<Node> {
    let over = model.screen == AppScreen::GameOver;
    let form = if over { l.game_over } else { l.completion };
    let e = l.end_rects(form);
    let w = g.words;
    let mut n = vec![text(g.title(), l.app_bar)];
    if form == EndForm::Line {
        n.push(Node {
            id: "board",
            desc: "Sudoku board".into(),
            ..node("android.view.View", "", l.board)
        });
    }
    let (title, sub, primary) = if over {
        (w.over_title, w.over_sub, w.retry)
    } else {
        (w.complete_title, w.complete_sub, w.next)
    };
    n.push(text(fill(title, g.level, g.mistakes), e.title));
    n.push(text(fill(sub, g.level, g.mistakes), e.sub));
    n.push(button(w.home, e.home));
    if over || (g.level as usize) < LEVEL_COUNT {
        n.push(button(primary, e.primary));
    }
    n
}

fn push(xml: &mut String, index: usize, n: &Node, package: &str, close: bool) {
    let b = n.bounds;
    let id = match n.id {
        "" => String::new(),
        name => format!("{package}:id/{name}"),
    };
    xml.push_str(&format!(
        "<node index=\"{index}\" text=\"{}\" resource-id=\"{}\" class=\"{}\" package=\"{package}\" \
         content-desc=\"{}\" checkable=\"false\" checked=\"false\" clickable=\"{}\" enabled=\"{}\" \
         focusable=\"{}\" focused=\"false\" scrollable=\"false\" long-clickable=\"false\" \
         password=\"false\" selected=\"false\" bounds=\"[{},{}][{},{}]\"",
        escape(&n.text),
        id,
        n.class,
        escape(&n.desc),
        n.clickable,
        n.enabled,
        n.clickable,
        b.x,
        b.y,
        b.right(),
        b.bottom()
    ));
    xml.push_str(if close { " />" } else { ">" });
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}
