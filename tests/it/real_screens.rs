//! The development set of real apps' screenshots in `../shared/real-screens/` (see its
//! README): every shot must read exactly, every digit and every empty cell (truth line 1) and
//! every given/entered kind (truth line 2). All failures are collected and reported together,
//! per shot with the cells that differ. Where the folder is absent (a clone outside the
//! project's workspace) the tests are ignored (`build.rs` sets `cfg(dev_set)`): the images are
//! not ours to ship.

use std::path::{Path, PathBuf};
use sudoku_autoplay::board::cell_name;
use sudoku_autoplay::{capture, vision};

/// One screenshot of the set with its truth.
struct Shot {
    name: String,
    path: PathBuf,
    board: String,
    kinds: String,
}

/// The shots of `../shared/real-screens`.
fn shots() -> Vec<Shot> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real-screens");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut out = Vec::new();
    for e in entries.flatten() {
        let truth = e.path();
        if truth.extension().is_none_or(|x| x != "truth") {
            continue;
        }
        let Some(path) = ["png", "jpg", "jpeg"]
            .iter()
            .map(|x| truth.with_extension(x))
            .find(|p| p.exists())
        else {
            panic!("{}: no image next to it", truth.display());
        };
        let text = std::fs::read_to_string(&truth).unwrap();
        let mut lines = text.lines().map(str::trim);
        let (board, kinds) = (lines.next().unwrap_or(""), lines.next().unwrap_or(""));
        assert!(
            board.len() == 81 && kinds.len() == 81,
            "{}: malformed truth",
            truth.display()
        );
        out.push(Shot {
            name: truth.file_stem().unwrap().to_string_lossy().into_owned(),
            path,
            board: board.into(),
            kinds: kinds.into(),
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The cells where `got` and `want` differ, as `r1c2 got/want`.
fn diff(got: &str, want: &str) -> Vec<String> {
    (0..81)
        .filter(|&i| got.as_bytes()[i] != want.as_bytes()[i])
        .map(|i| {
            format!(
                "{} {}/{}",
                cell_name(i),
                got.as_bytes()[i] as char,
                want.as_bytes()[i] as char
            )
        })
        .collect()
}

#[test]
#[cfg_attr(
    not(dev_set),
    ignore = "needs ../shared/real-screens beside the checkout (absent at build time; `touch build.rs` after adding it)"
)]
fn every_real_screen_reads_exactly() {
    let shots = shots();
    assert!(
        !shots.is_empty(),
        "../shared/real-screens holds no .truth files"
    );
    let mut failures = Vec::new();
    for shot in &shots {
        let name = &shot.name;
        let img = capture::decode(&std::fs::read(&shot.path).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let reading = match vision::read_board(&img) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let board = reading.board.to_line();
        if board != shot.board {
            let cells = diff(&board, &shot.board);
            failures.push(format!(
                "{name}: {} digits wrong (read/truth): {}",
                cells.len(),
                cells.join(", ")
            ));
        }
        let kinds = reading.kinds_line();
        if kinds != shot.kinds {
            let cells = diff(&kinds, &shot.kinds);
            failures.push(format!(
                "{name}: {} kinds wrong (read/truth; {}): {}",
                cells.len(),
                reading.kind_evidence,
                cells.join(", ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures over {} real screens:\n{}",
        failures.len(),
        shots.len(),
        failures.join("\n")
    );
    eprintln!("{} real screens read exactly", shots.len());
}

/// A frame cut through the middle of the board (the lower rows off the frame) holds no board:
/// it must not be read as one, and the error must say what was seen.
#[test]
#[cfg_attr(
    not(dev_set),
    ignore = "needs ../shared/real-screens beside the checkout (absent at build time; `touch build.rs` after adding it)"
)]
fn a_real_board_cut_in_half_is_no_board() {
    let shots = shots();
    let mut failures = Vec::new();
    for shot in &shots {
        let name = &shot.name;
        let img = capture::decode(&std::fs::read(&shot.path).unwrap()).unwrap();
        let Ok(g) = vision::detect_board(&img) else {
            continue; // the other test reports it
        };
        let cut = image::imageops::crop_imm(&img, 0, 0, img.width(), g.rows[5]).to_image();
        match vision::read_board(&cut) {
            Ok(r) => failures.push(format!(
                "{name}: a board read in the top {} px: {:?}",
                g.rows[5],
                r.geometry.rect()
            )),
            Err(e) => {
                let msg = e.to_string();
                if !msg.contains("saw ") {
                    failures.push(format!(
                        "{name}: the error does not say what was seen: {msg}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
