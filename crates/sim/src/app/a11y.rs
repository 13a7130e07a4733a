//! What `uiautomator dump` sees: the window in front as an accessibility tree (XML, one line,
//! like Android's). The board is a custom view without text, as in most Sudoku apps; buttons,
//! titles and dialogs carry their text, so a host can tell a completion dialog from a popup.

use super::PACKAGE;
use super::hazards::{self, Shown};
use super::levels::LEVEL_COUNT;
use super::model::Model;
use super::screens::AppScreen;
use super::screens::layout::{Rect, ScreenLayout};

/// One node of the tree.
struct Node {
    class: &'static str,
    text: String,
    desc: String,
    id: &'static str,
    bounds: Rect,
    clickable: bool,
}

fn node(class: &'static str, text: impl Into<String>, bounds: Rect) -> Node {
    Node {
        class,
        text: text.into(),
        desc: String::new(),
        id: "",
        bounds,
        clickable: class == "android.widget.Button",
    }
}

fn text(t: impl Into<String>, r: Rect) -> Node {
    node("android.widget.TextView", t, r)
}

fn button(t: impl Into<String>, r: Rect) -> Node {
    node("android.widget.Button", t, r)
}

/// The tree of what is in front, or `None` when the display is off (uiautomator then fails).
pub fn dump(model: &Model, layout: &ScreenLayout, shown: Shown, clock: &str) -> Option<String> {
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
        Shown::App => (PACKAGE, app_nodes(model, layout)),
    };
    let mut xml = String::from(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">",
    );
    let root = Node {
        class: "android.widget.FrameLayout",
        text: String::new(),
        desc: String::new(),
        id: "",
        bounds: full,
        clickable: false,
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
    let d = l.dialog;
    if model.popup {
        return vec![
            text("Rate this app", d),
            text("Enjoying Sudoku? Tell us!", d),
            text("Press back to close", d),
        ];
    }
    let level = model.game.as_ref().map_or(0, |g| g.level);
    match (model.screen, &model.game) {
        (AppScreen::Complete, Some(_)) => vec![
            text(format!("Level {level} complete"), d),
            text("Well done!", d),
            button("Home", l.dialog_home),
            button("Next level", l.dialog_next),
        ],
        (AppScreen::GameOver, Some(g)) => vec![
            text("Game over", d),
            text(format!("You made {} mistakes", g.mistakes), d),
            button("Home", l.dialog_home),
            button("Try again", l.dialog_next),
        ],
        (AppScreen::Game, Some(_)) => {
            let mut n = vec![
                text(format!("Level {level}"), l.app_bar),
                Node {
                    desc: "Back".into(),
                    clickable: true,
                    ..node("android.widget.ImageButton", "", l.back)
                },
                Node {
                    id: "org.autoplay.sudoku:id/board",
                    desc: "Sudoku board".into(),
                    ..node("android.view.View", "", l.board)
                },
            ];
            for (i, r) in l.keys.iter().enumerate() {
                n.push(button((i + 1).to_string(), *r));
            }
            n.push(button("Erase", l.erase));
            n
        }
        (AppScreen::Levels, _) => {
            let mut n = vec![text("Levels", l.app_bar)];
            for (slot, r) in l.slots.iter().enumerate() {
                let k = model.page * super::screens::LEVELS_PER_PAGE + slot + 1;
                if k <= LEVEL_COUNT {
                    n.push(button(k.to_string(), *r));
                }
            }
            n.push(button("Prev", l.prev_page));
            n.push(button("Next", l.next_page));
            n
        }
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

fn push(xml: &mut String, index: usize, n: &Node, package: &str, close: bool) {
    let b = n.bounds;
    xml.push_str(&format!(
        "<node index=\"{index}\" text=\"{}\" resource-id=\"{}\" class=\"{}\" package=\"{package}\" \
         content-desc=\"{}\" checkable=\"false\" checked=\"false\" clickable=\"{}\" enabled=\"true\" \
         focusable=\"{}\" focused=\"false\" scrollable=\"false\" long-clickable=\"false\" \
         password=\"false\" selected=\"false\" bounds=\"[{},{}][{},{}]\"",
        escape(&n.text),
        n.id,
        n.class,
        escape(&n.desc),
        n.clickable,
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
