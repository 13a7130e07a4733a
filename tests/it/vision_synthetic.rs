//! Synthetic screenshots: the tuned styles (light, dark at common resolutions) and held-out
//! "other app" screens in fonts the template bank has never seen, at unusual resolutions.

use crate::vision_support::*;
use autoplay_sim::app::Theme;
use sudoku_autoplay::vision::{self, Reading};

fn check(name: &str, style: &Style) -> Reading {
    let sc = scene();
    let drawn = render_full(style, &sc);
    let (img, rect) = (drawn.image, drawn.rect);
    if let Ok(dir) = std::env::var("VISION_DUMP") {
        let _ = img.save(format!("{dir}/{name}.png"));
    }
    let reading = vision::read_board(&img).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (board, kinds) = truth(&sc);
    let got = reading.geometry.rect();
    for k in 0..4 {
        assert!(
            got[k].abs_diff(rect[k]) <= 3 + drawn.thick,
            "{name}: board rect {got:?}, drawn at {rect:?}"
        );
    }
    assert_eq!(reading.board.to_line(), board, "{name}: digits");
    assert_eq!(reading.kinds_line(), kinds, "{name}: kinds");
    assert!(
        reading.doubts.is_empty(),
        "{name}: doubts {:?}",
        reading.doubts
    );
    reading
}

#[test]
fn light_theme_common_resolutions() {
    for (w, h) in [(720, 1520), (1080, 2400), (1440, 3200)] {
        check(&format!("light_{w}x{h}"), &Style::light(w, h));
    }
}

#[test]
fn dark_theme() {
    check("dark_1080x2400", &Style::dark(1080, 2400));
    check("dark_720x1280", &Style::dark(720, 1280));
}

#[test]
fn held_out_other_app_at_unusual_resolutions() {
    check("other_833x1777", &Style::other(833, 1777));
    check("other_1200x2000", &Style::other(1200, 2000));
}

#[test]
fn held_out_other_app_dark_light_font() {
    let mut st = Style::dark(999, 2111);
    let app = st.app();
    app.faces = Some(Faces {
        given: Font::RobotoLight,
        entered: Font::Mono,
        keys: Font::Roboto,
    });
    app.border = false;
    app.thin_boxes = true;
    app.card_radius = 16;
    check("other_dark_999x2111", &st);
}

#[test]
fn faint_lines_with_related_cells_highlighted() {
    // Dark theme with thin lines barely above the background and the selected cell's row,
    // column and box tinted.
    let mut st = Style::dark(1080, 2340);
    st.options.palette = Some(Palette {
        line_thin: [48, 48, 52],
        peer: [44, 50, 62],
        ..*Palette::of(Theme::Dark)
    });
    st.app().highlight = Highlights::Peers;
    st.selected = Some(30);
    check("faint_dark_1080x2340", &st);
    let mut st = Style::light(720, 1600);
    st.options.palette = Some(Palette {
        line_thin: [228, 228, 228],
        peer: [232, 238, 246],
        ..*Palette::of(Theme::Light)
    });
    st.app().highlight = Highlights::Peers;
    st.selected = Some(50);
    check("faint_light_720x1600", &st);
}

#[test]
fn the_sims_other_presets_read_in_both_themes() {
    // What `autoplay sim --style actions|held-out --theme light|dark` shows, at an odd size.
    for name in ["actions", "held-out"] {
        for theme in [Theme::Light, Theme::Dark] {
            let mut st = Style::light(900, 1900);
            *st.app() = autoplay_sim::app::style::Style::by_name(name).unwrap();
            st.options.theme = theme;
            st.selected = Some(60);
            check(&format!("{name}_{}_900x1900", theme.name()), &st);
        }
    }
}
