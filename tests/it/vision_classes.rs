//! Classes of real apps' screens (issue 35), drawn from the simulated phone's renders
//! (`vision_support::restyle`): entries told from givens by opacity; a same-number highlight
//! that recolours givens on tinted cells; grid lines hidden by a highlighted row and column on
//! small screens; Killer cages; a board under a dimming overlay with a gesture stroke across
//! it, refused by everything that would act on it; one style for all digits, a doubt; and the
//! edges of a column of digit discs where no cell line was found.

use crate::vision_support::restyle::*;
use crate::vision_support::*;
use autoplay_sim::app::Theme;
use autoplay_sim::app::style::Style as AppStyle;
use image::RgbaImage;
use sudoku_autoplay::calibration::{CalibrateOptions, Calibration};
use sudoku_autoplay::vision::{self, VisionError};

/// A `w x h` screen of the sim's app style `name` in `theme`, nothing selected.
fn style(name: &str, theme: Theme, w: u32, h: u32) -> Style {
    let mut st = Style::light(w, h);
    *st.app() = AppStyle::by_name(name).expect("the sim has the preset");
    st.options.theme = theme;
    st.selected = None;
    st
}

/// Reads `img` and checks every digit and kind against the scene; returns the evidence.
fn reads_exactly(name: &str, img: &RgbaImage, sc: &Scene) -> String {
    if let Ok(dir) = std::env::var("VISION_DUMP") {
        let _ = img.save(format!("{dir}/{name}.png"));
    }
    let reading = vision::read_board(img).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (board, kinds) = truth(sc);
    assert_eq!(reading.board.to_line(), board, "{name}: digits");
    assert_eq!(
        reading.kinds_line(),
        kinds,
        "{name}: kinds ({})",
        reading.kind_evidence
    );
    reading.kind_evidence.detail
}

#[test]
fn entries_at_half_opacity_are_entries_also_beside_a_brighter_frame() {
    let sc = scene();
    for theme in [Theme::Light, Theme::Dark] {
        let light = theme == Theme::Light;
        // The selected cell's row, column and box on the sim's own highlight, or filled in a
        // colour that the app draws them on in another ink (dark on light in a dark theme).
        let fills = [
            None,
            Some(if light {
                ([40, 70, 160], [255; 3])
            } else {
                ([200, 200, 205], [4; 3])
            }),
        ];
        for (name, w, h) in [("classic", 1080, 2400), ("actions", 720, 1520)] {
            for peers in fills {
                let mut st = style(name, theme, w, h);
                st.app().highlight = Highlights::Peers;
                // The selected cell holds an entry and is framed in a ring brighter than its
                // ink.
                st.selected = Some(43);
                let layers = Layers::of(&st, &sc);
                let look = Opacity {
                    scene: &sc,
                    ink: if light { [0, 0, 0] } else { [247; 3] },
                    rect: layers.rect,
                    selected: 43,
                    frame: if light { [20, 20, 20] } else { [255; 3] },
                    peers,
                };
                let label = format!("opacity_{name}_{}_{}", theme.name(), peers.is_some());
                let evidence = reads_exactly(&label, &layers.compose(&look), &sc);
                assert!(evidence.starts_with("split by "), "{label}: {evidence}");
            }
        }
    }
}

#[test]
fn a_same_number_highlight_on_tinted_givens_keeps_their_kind() {
    // Givens on grey cells, entries grey on white; every 7 drawn red (the givens on their grey
    // cells, and the entered 7 too or not). On a tint too faint to tell (a few levels off
    // white), the red givens are a highlight all the same: one number's ink of its own.
    let sc = scene();
    for theme in [Theme::Light, Theme::Dark] {
        let light = theme == Theme::Light;
        let tints = if light {
            [[226; 3], [246; 3]]
        } else {
            [[58, 58, 60], [40, 42, 46]]
        };
        for (tint, entries_too) in [(tints[0], false), (tints[0], true), (tints[1], false)] {
            let mut st = style("classic", theme, 1080, 2400);
            st.app().highlight = Highlights::Row;
            st.selected = Some(4);
            let layers = Layers::of(&st, &sc);
            let look = SameNumber {
                scene: &sc,
                tint,
                given: if light { [20; 3] } else { [240; 3] },
                entered: if light { [120; 3] } else { [150; 3] },
                number: 7,
                highlight: [211, 47, 47],
                entries_too,
            };
            let label = format!("same_number_{}_{tint:?}_{entries_too}", theme.name());
            reads_exactly(&label, &layers.compose(&look), &sc);
        }
    }
}

#[test]
fn grid_lines_hidden_by_a_highlighted_row_and_column_on_small_screens() {
    let sc = scene();
    for (w, h, border, with_box) in [
        (480, 800, true, false),
        (480, 800, false, false),
        (720, 1280, false, false),
        (480, 800, true, true),
        (480, 800, false, true),
    ] {
        let mut st = style("classic", Theme::Light, w, h);
        st.app().border = border;
        let layers = Layers::of(&st, &sc);
        let look = Crossing {
            scene: &sc,
            rect: layers.rect,
            margin: render_full(&st, &sc).thick / 2 + 1,
            selected: 40,
            band: [220, 232, 250],
            cell: [229, 115, 115],
            with_box,
        };
        let label = format!("crossing_{w}x{h}_border_{border}_box_{with_box}");
        reads_exactly(&label, &layers.compose(&look), &sc);
    }
}

#[test]
fn killer_cages_and_their_sums_are_left_out_of_the_reading() {
    // LibreSudoku's cages: dashes of a twelfth of a cell, a tenth of a cell inside it.
    let sc = scene();
    for theme in [Theme::Light, Theme::Dark] {
        for (name, w, h) in [
            ("classic", 1080, 2400),
            ("held-out", 1080, 2400),
            ("classic", 480, 800),
            ("bold", 480, 800),
            ("held-out", 720, 1280),
        ] {
            let st = style(name, theme, w, h);
            let pal = st.options.palette.unwrap_or(*Palette::of(theme));
            let drawn = render_full(&st, &sc);
            let mut img = drawn.image;
            let ink = if theme == Theme::Light {
                [60; 3]
            } else {
                [190; 3]
            };
            draw_cages(&mut img, drawn.rect, ink, pal.surface, 0.1);
            let label = format!("killer_{name}_{w}x{h}_{}", theme.name());
            reads_exactly(&label, &img, &sc);
        }
    }
}

/// The scene's screen (light, 1080x2400) under a dimming overlay of `dim`, with `stroke`
/// across the board.
fn covered(dim: f32, stroke: Option<Stroke>) -> (RgbaImage, Rendered) {
    let drawn = render_full(&Style::light(1080, 2400), &scene());
    let mut img = drawn.image.clone();
    cover(&mut img, drawn.rect, dim, stroke);
    (img, drawn)
}

/// The board under a `dim` and a `stroke` is refused by reading, by calibrating, and by
/// reading with a calibration of the clean screen.
fn refused_when_covered(dim: f32, stroke: Option<Stroke>) {
    let is_covered = |e: &VisionError| matches!(e, VisionError::Covered { .. });
    let (img, clean) = covered(dim, stroke);
    let label = format!("dim {dim} stroke {stroke:?}");
    match vision::read_board(&img) {
        Err(e) => assert!(is_covered(&e), "{label}: {e}"),
        Ok(r) => panic!("{label}: read as {}", r.board.to_line()),
    }
    // Calibrating from it, and reading it with a calibration of the clean screen.
    let options = CalibrateOptions::default();
    match Calibration::from_frame(&img, &options) {
        Err(e) => assert!(e.to_string().contains("covered"), "{label}: {e}"),
        Ok(_) => panic!("{label}: calibrated on a covered board"),
    }
    let cal = Calibration::from_frame(&clean.image, &options)
        .expect("the clean screen calibrates")
        .calibration;
    match cal.read(&img) {
        Err(e) => assert!(is_covered(&e), "{label}: {e}"),
        Ok(r) => panic!("{label}: read with a calibration as {}", r.board.to_line()),
    }
}

#[test]
fn a_covered_board_is_refused_by_everything_that_would_act_on_it() {
    let white = Stroke::across([255; 3]);
    for (dim, stroke) in [
        (0.5, Some(white)),
        (0.6, Some(Stroke::across([255, 200, 60]))),
        (0.3, Some(Stroke::across([250, 250, 250]))),
        // Thinner, half transparent, short, straight along a row.
        (
            0.5,
            Some(Stroke {
                width: 0.015,
                ..white
            }),
        ),
        (
            0.5,
            Some(Stroke {
                opacity: 0.5,
                ..white
            }),
        ),
        (
            0.5,
            Some(Stroke {
                from: (0.3, 0.6),
                to: (0.6, 0.5),
                bend: 0.05,
                ..white
            }),
        ),
        (
            0.5,
            Some(Stroke {
                from: (0.05, 0.5),
                to: (0.95, 0.55),
                bend: 0.0,
                ..white
            }),
        ),
        // The dimming behind a dialog alone (Android's themes dim by 60%).
        (0.6, None),
    ] {
        refused_when_covered(dim, stroke);
    }
    // A light dimming alone leaves the board readable: it is the app's own look, for all the
    // screen shows.
    let (img, _) = covered(0.3, None);
    reads_exactly("dim_0.3", &img, &scene());
    // Nor is an empty board on dark paper dimmed (a Killer level before its first digit).
    let empty = Scene {
        givens: ".".repeat(81),
        entered: ".".repeat(81),
        pencil: Vec::new(),
    };
    let dark = render_full(&style("classic", Theme::Dark, 1080, 2400), &empty).image;
    reads_exactly("empty_dark", &dark, &empty);
}

#[test]
fn where_nothing_tells_givens_from_entries_every_digit_is_a_given_and_a_doubt() {
    // Entries drawn exactly like givens.
    let sc = scene();
    let mut st = style("classic", Theme::Light, 1080, 2400);
    let pal = *Palette::of(Theme::Light);
    st.options.palette = Some(Palette {
        user: pal.given,
        ..pal
    });
    let reading = vision::read_board(&render_full(&st, &sc).image).unwrap();
    assert_eq!(reading.board.to_line(), truth(&sc).0);
    assert!(reading.kinds_line().chars().all(|k| k != 'U'));
    assert!(
        reading
            .doubts
            .iter()
            .any(|d| d.cell.is_none() && d.message.contains("a guess")),
        "{:?}",
        reading.doubts
    );
}

#[test]
fn the_edges_of_a_column_of_digit_discs_are_not_a_cell_line() {
    // Givens on light discs, no cell lines drawn (kalildev's app draws them as faint dashes
    // that are not found): the scene's columns 1 and 9 have discs in rows 4-6, whose edges
    // run down three cells a few pixels from where the cell line would be.
    let sc = scene();
    for (w, h) in [(1080, 2160), (720, 1520)] {
        let mut st = style("disc", Theme::Light, w, h);
        st.app().cell_lines = false;
        st.app().edge_to_edge = false;
        let r = render_full(&st, &sc);
        let name = format!("disc_edges_{w}x{h}");
        reads_exactly(&name, &r.image, &sc);
        let g = vision::read_board(&r.image).unwrap().geometry;
        let [x0, _, x9, _] = r.rect;
        for (n, &x) in g.cols.iter().enumerate() {
            let want = x0 as f32 + (x9 - x0) as f32 * n as f32 / 9.0;
            assert!(
                (x as f32 - want).abs() <= 2.0,
                "{name}: column line {n} at {x}, drawn at {want:.0}: {:?}",
                g.cols
            );
        }
    }
}
