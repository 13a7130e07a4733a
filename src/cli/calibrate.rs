//! `autoplay calibrate`: make a calibration profile from a screenshot or a phone's screen
//! (`sudoku_autoplay::level::calibrate` does the work; this parses the options, writes the
//! file and its overlay where the options say, and prints).

use super::choice::choice;
use super::dirs::{CalibrationDir, calibration_dir_write_help, user_calibration_dir};
use super::read::load_image;
use anyhow::Context;
use std::path::{Path, PathBuf};
use sudoku_autoplay::board::cell_name;
use sudoku_autoplay::calibration::{
    CalibrateOptions, Calibration, CalibrationError, Erase, InputMode, Navigation,
};
use sudoku_autoplay::level::calibrate::{
    CalibrateReport, HintOutside, NotCalibrated, Source, Update, calibrate,
};
use sudoku_autoplay::phone::level_list::LevelList;
use sudoku_autoplay::probe::Probed;
use sudoku_autoplay::text::count;
use sudoku_autoplay::vision::overlay::{self, Marks};
use sudoku_autoplay::vision::survey::{Hints, Survey};

#[derive(Debug, clap::Args)]
#[command(mut_arg("calibration_dir", |a| a.help(calibration_dir_write_help())))]
#[command(after_help = "Examples:\n  \
    autoplay calibrate -s SERIAL                                  # the phone's screen, and a probe of its rules\n  \
    autoplay calibrate -s SERIAL --no-probe                       # the phone's screen, no taps\n  \
    autoplay calibrate --screenshot shot.png --out my-phone.toml  # default: --calibration-dir\n  \
    autoplay calibrate --screenshot shot.png --erase 540,2100     # the erase key was not recognised\n  \
    autoplay calibrate --screenshot shot.png --erase toggle       # the app has no erase key\n  \
    autoplay calibrate --screenshot shot.png --board 40,600,1040,1600 --keys 90,1800,1000,1800\n  \
    autoplay calibrate --screenshot shot.png --mode digit-first \\\n      \
    --am-start 'am start -n org.autoplay.sudoku/.GameActivity --ei level {level}'\n\n\
On a phone (no --screenshot), calibrate then probes how the app takes taps, on the open level:\n\
cell-first or digit-first, what a re-tap of the selected cell does, whether an entry keeps the\n\
selection, what the same digit again does, whether the erase key clears, whether there is an undo\n\
key, whether taps are read against the last drawn frame, whether keys move when a digit is\n\
finished, whether a mistake counter shows. It writes only the right digit into one empty cell\n\
(no mistake), takes back what it wrote, and records what it saw for each rule in the file's\n\
[input] section, which you can read and edit. Open a level with empty cells and no dialog first.\n\n\
Whatever happens, the overlay PNG shows what was found (grid, keys, the keys beside the digits and\n\
what they were taken for, the probe's cell) with a legend; when something is not found, the\n\
message says which option supplies it.")]
pub struct CalibrateArgs {
    /// A screenshot of the game screen with the board and the number pad showing. Without it,
    /// the screen of the device (-s SERIAL, or the only one) is captured.
    #[arg(long, value_name = "FILE")]
    screenshot: Option<PathBuf>,
    /// Where to write the calibration (default: <--calibration-dir>/<MODEL>-<PACKAGE>.toml on a
    /// phone, the model and the app in front, so that each app keeps its own; from a screenshot,
    /// <screenshot name>.toml). An annotated overlay is written beside it as <NAME>.overlay.png.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    dir: CalibrationDir,
    /// How to clear a cell: X,Y = the erase key's centre (screen pixels), or `toggle` = the app
    /// clears a cell when its digit is tapped again. Default: find the erase key (an icon such
    /// as ⌫ ✕ or a trash can, or a word such as "Erase"/"Clear"), else guess `toggle` and say so.
    #[arg(long, value_name = "X,Y|toggle", value_parser = parse_erase)]
    erase: Option<Erase>,
    /// The board's outer grid lines X0,Y0,X1,Y1 (screen pixels), when it is not found.
    #[arg(long, value_name = "X0,Y0,X1,Y1", value_parser = parse_rect)]
    board: Option<[u32; 4]>,
    /// The centres of the keys 1..9 as 9 points X,Y;X,Y;..., or of keys 1 and 9 of a single
    /// row (X1,Y1,X9,Y9), when the number pad is not found.
    #[arg(long, value_name = "POINTS", value_parser = parse_keys)]
    keys: Option<[(u32, u32); 9]>,
    /// How the app takes digits: tap the cell then the digit, or the reverse (on a phone, the
    /// probe finds it out unless --no-probe).
    #[arg(long, value_parser = choice::<InputMode>(), default_value = "cell-first")]
    mode: InputMode,
    /// On a phone: do not probe how the app takes taps (no tap at all); the [input] section is
    /// then today's default app (cell-first, plain taps), or --mode.
    #[arg(long)]
    no_probe: bool,
    /// Device model to record (informative).
    #[arg(long)]
    model: Option<String>,
    /// Screen density to record (informative).
    #[arg(long)]
    density: Option<u32>,
    /// How to open level N: a shell command containing {level}.
    #[arg(long, value_name = "COMMAND")]
    am_start: Option<String>,
    /// How to open level N from a list of level buttons that say their numbers (found by
    /// their words on the screen, scrolling or paging the list): the words of the buttons that
    /// lead to the list, comma-separated (e.g. 'Play,Levels'; `-`: none, BACK from a game
    /// reaches it).
    #[arg(long, value_name = "WORDS|-", value_parser = parse_words, conflicts_with = "am_start")]
    level_list: Option<Words>,
    /// Without --screenshot: the device whose screen is captured.
    #[command(flatten)]
    adb: super::args::AdbArgs,
}

/// Non-negative numbers separated by commas, semicolons or spaces.
fn numbers(s: &str, what: &str) -> Result<Vec<u32>, String> {
    s.split([',', ';', ' '])
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| format!("expected {what} (pixel numbers), got {s:?}"))
        })
        .collect()
}

/// Parses `X,Y`.
fn parse_point(s: &str) -> Result<[u32; 2], String> {
    match numbers(s, "X,Y")?.as_slice() {
        &[x, y] => Ok([x, y]),
        _ => Err(format!("expected X,Y (two pixel numbers), got {s:?}")),
    }
}

/// Buttons' words, in order.
#[derive(Debug, Clone)]
struct Words(Vec<String>);

/// Parses comma-separated words, or `-` for none.
fn parse_words(s: &str) -> Result<Words, String> {
    if s.trim() == "-" {
        return Ok(Words(Vec::new()));
    }
    let words: Vec<String> = s.split(',').map(|w| w.trim().to_string()).collect();
    if words.iter().any(String::is_empty) {
        return Err(format!(
            "expected words separated by commas (or -), got {s:?}"
        ));
    }
    Ok(Words(words))
}

/// Parses `X,Y` or `toggle`.
fn parse_erase(s: &str) -> Result<Erase, String> {
    if s.trim().eq_ignore_ascii_case("toggle") {
        return Ok(Erase::Toggle);
    }
    parse_point(s)
        .map(Erase::Key)
        .map_err(|_| format!("expected X,Y (the erase key's centre) or `toggle`, got {s:?}"))
}

/// Parses `X0,Y0,X1,Y1` with X0 < X1 and Y0 < Y1.
fn parse_rect(s: &str) -> Result<[u32; 4], String> {
    match *numbers(s, "X0,Y0,X1,Y1")?.as_slice() {
        [x0, y0, x1, y1] if x0 + 36 <= x1 && y0 + 36 <= y1 => Ok([x0, y0, x1, y1]),
        [_, _, _, _] => Err(format!(
            "{s:?}: the board's right/bottom lines must be at least 36 pixels right of/below the left/top ones"
        )),
        _ => Err(format!(
            "expected X0,Y0,X1,Y1 (four pixel numbers), got {s:?}"
        )),
    }
}

/// Parses 9 key centres, or keys 1 and 9 of one row (the others evenly between).
fn parse_keys(s: &str) -> Result<[(u32, u32); 9], String> {
    let v = numbers(s, "key centres")?;
    match v.len() {
        18 => Ok(std::array::from_fn(|i| (v[2 * i], v[2 * i + 1]))),
        4 => {
            let at = |a: u32, b: u32, i: usize| {
                (a as f32 + (b as f32 - a as f32) * i as f32 / 8.0).round() as u32
            };
            Ok(std::array::from_fn(|i| {
                (at(v[0], v[2], i), at(v[1], v[3], i))
            }))
        }
        n => Err(format!(
            "expected 9 key centres X,Y;X,Y;... (18 numbers) or keys 1 and 9 of one row X1,Y1,X9,Y9 (4 numbers), got {n} numbers"
        )),
    }
}

/// What the command line says of the calibration to make.
fn options(args: &CalibrateArgs) -> CalibrateOptions {
    CalibrateOptions {
        erase: args.erase,
        hints: Hints {
            board: args.board,
            keys: args.keys,
            app_area: None,
        },
        mode: args.mode,
        model: args.model.clone(),
        density: args.density,
        package: None,
        navigation: match (&args.am_start, &args.level_list) {
            (Some(command), _) => Some(Navigation::AmStart {
                command: command.clone(),
            }),
            (None, Some(Words(open))) => Some(Navigation::LevelList { open: open.clone() }),
            (None, None) => None,
        },
    }
}

pub fn run(args: CalibrateArgs) -> anyhow::Result<i32> {
    let options = options(&args);
    let device;
    let (source, from, stem) = match &args.screenshot {
        Some(path) => {
            let frame = load_image(path)?;
            let stem = path
                .file_stem()
                .map_or("device".into(), |s| s.to_string_lossy().into_owned());
            let from = format!("{}: {}", path.display(), frame.format);
            (Source::Screenshot(frame.image), from, Some(stem))
        }
        None => {
            device = args.adb.device()?;
            let from = format!("screen of {}", device.serial);
            let probe = !args.no_probe;
            (
                Source::Phone {
                    device: &device,
                    probe,
                },
                from,
                None,
            )
        }
    };
    let out = |model: Option<&str>, package: Option<&str>| -> anyhow::Result<PathBuf> {
        let out = match &args.out {
            Some(out) => out.clone(),
            None => args
                .dir
                .write_dir()?
                .join(file_name(stem.as_deref(), model, package)),
        };
        if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        Ok(out)
    };
    let report = match calibrate(source, options, &mut |u| print_update(&from, u)) {
        Ok(report) => report,
        Err(e) => return Err(not_calibrated(e, &from, out)),
    };
    let c = &report.calibration;
    let out = out(c.device.model.as_deref(), c.package())?;
    write_and_print(&report, &out)?;
    if let Some(Err(e)) = report.probed {
        return Err(e.context(format!(
            "{} was written with the board and keys, but without the app's input rules (run \
             calibrate again with a level open, or --no-probe to keep the default rules), because \
             probing them failed",
            out.display()
        )));
    }
    let (w, h) = report.frame.dimensions();
    outln!("{}", how_found(&args.dir, &out, (w, h)))?;
    print_navigation(&report, &out, args.screenshot.is_none())?;
    Ok(0)
}

/// Writes the calibration to `out` with its overlay, and prints what it found.
fn write_and_print(report: &CalibrateReport, out: &Path) -> anyhow::Result<()> {
    if out.exists() {
        outln!("replacing {}", out.display())?;
    }
    let overlay_path = write_outputs(report, out)?;
    print_report(report)?;
    outln!("wrote {} and {}", out.display(), overlay_path.display())?;
    Ok(())
}

/// The calibration's file name: a screenshot's name; else the phone's model and the app's
/// package (`Pixel_7-org.autoplay.sudoku.toml`), so that each app on a phone keeps its own.
fn file_name(screenshot: Option<&str>, model: Option<&str>, package: Option<&str>) -> String {
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let stem = match (screenshot, model.filter(|m| !m.trim().is_empty()), package) {
        (Some(name), ..) => name.to_string(),
        (None, model, Some(package)) => {
            format!("{}-{}", safe(model.unwrap_or("device")), safe(package))
        }
        (None, model, None) => safe(model.unwrap_or("device")),
    };
    format!("{stem}.toml")
}

/// Prints what calibrating says as it goes.
fn print_update(from: &str, update: &Update) {
    match update {
        Update::Frame { width, height } => println!("{from}: {width}x{height}"),
        Update::KeypadShown { cell } => println!(
            "no number pad on the screen; it came up once an empty cell ({}) was selected",
            cell_name(*cell)
        ),
        Update::Found {
            survey,
            calibration,
        } => print_found(survey, calibration),
        Update::Probing { channel } => println!(
            "probing how the app takes taps on the open level (tap channel: {}; --no-probe skips this)",
            super::choice::name(*channel)
        ),
        Update::Probe(what) => println!("  {what}"),
        Update::LookingForLevels => println!(
            "looking for how the app opens levels: BACK, then buttons that say levels or play \
             (--level-list or --am-start skip this)"
        ),
        Update::Probed(probed) => match probed.kept {
            None => println!("  done: the board is as it was"),
            Some((cell, d)) => println!(
                "  done: the board is as it was, but for the probe's {d} in {}, which the app keeps",
                cell_name(cell)
            ),
        },
    }
}

/// The error of a calibration that could not be made: where it failed, with what to do, and
/// what was found drawn into the overlay beside the file it would have been.
fn not_calibrated(
    e: anyhow::Error,
    from: &str,
    out: impl FnOnce(Option<&str>, Option<&str>) -> anyhow::Result<PathBuf>,
) -> anyhow::Error {
    if let Some(HintOutside {
        point,
        width,
        height,
    }) = e.downcast_ref()
    {
        return anyhow::anyhow!(
            "{},{} (from --erase, --keys or --board) is outside the {width}x{height} screenshot",
            point[0],
            point[1]
        );
    }
    let failed = match e.downcast::<NotCalibrated>() {
        Ok(failed) => failed,
        Err(e) => return e,
    };
    print_survey(&failed.survey);
    let help = help_for(&failed.error);
    let status = vec![
        format!("calibration FAILED: {}", failed.error),
        help.clone(),
    ];
    let overlay_path = match out(failed.model.as_deref(), failed.package.as_deref()) {
        Ok(out) => out.with_extension("overlay.png"),
        Err(e) => return e,
    };
    if let Err(e) =
        overlay::survey_overlay(&failed.frame, &failed.survey, Marks::default(), &status)
            .save(&overlay_path)
            .with_context(|| format!("cannot write {}", overlay_path.display()))
    {
        return e;
    }
    anyhow::anyhow!(
        "calibrating from the {from}: {}\n{help}\nwhat was found is drawn in {}",
        super::explain::cause(&failed.error),
        overlay_path.display()
    )
}

/// Writes the calibration to `out` and its overlay beside it; returns the overlay's path.
fn write_outputs(report: &CalibrateReport, out: &Path) -> anyhow::Result<PathBuf> {
    let c = &report.calibration;
    std::fs::write(out, c.to_toml()).with_context(|| format!("cannot write {}", out.display()))?;
    let mut marks = Marks {
        erase: c.keypad.erase.point().map(|[x, y]| (x, y)),
        undo: c.input.undo.map(|[x, y]| (x, y)),
        probe: None,
    };
    let mut status = vec![format!("calibration written to {}", out.display())];
    status.extend(
        report
            .checks
            .iter()
            .map(|n| format!("check: {}", super::explain::check(n))),
    );
    match &report.probed {
        Some(Ok(p)) => {
            marks.probe = Some(c.geometry().cell_bounds(p.cell));
            status.push(format!(
                "probed how the app takes taps on {} ({} taps, {:.1} s)",
                cell_name(p.cell),
                p.taps,
                p.elapsed.as_secs_f64()
            ));
        }
        Some(Err(e)) => status.push(format!("probing the app's input rules FAILED: {e:#}")),
        None => {}
    }
    let overlay_path = out.with_extension("overlay.png");
    overlay::survey_overlay(&report.frame, &report.survey, marks, &status)
        .save(&overlay_path)
        .with_context(|| format!("cannot write {}", overlay_path.display()))?;
    Ok(overlay_path)
}

/// The survey, and the board and keys found.
fn print_found(survey: &Survey, c: &Calibration) {
    print_survey(survey);
    println!(
        "board: {:?}, line width {} px",
        c.board.rect, c.board.line_width
    );
    let keys: Vec<String> = c
        .keypad
        .digits
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{}@{},{}", i + 1, p[0], p[1]))
        .collect();
    println!("keypad: {}", keys.join(" "));
}

/// What was found: the erase key and the input rules, the templates, the board read, what to
/// check.
fn print_report(report: &CalibrateReport) -> std::io::Result<()> {
    let c = &report.calibration;
    outln!(
        "erase: {}{}; input mode: {}",
        c.keypad.erase,
        if c.keypad.erase_guessed {
            " (guessed: no erase key recognised)"
        } else {
            ""
        },
        super::choice::name(c.input.mode)
    )?;
    if let Some(package) = c.package() {
        outln!("app: {package} (in front; autoplay picks this calibration when it is in front)")?;
    }
    if let Some(Ok(p)) = &report.probed {
        print_probed(c, p)?;
    }
    outln!(
        "templates harvested: {} ({} from the keypad, {} from the board)",
        c.templates.len(),
        c.templates.iter().filter(|t| t.source == "keypad").count(),
        c.templates.iter().filter(|t| t.source == "board").count()
    )?;
    if let Some(r) = &report.survey.reading {
        outln!("board read: {}", r.board.to_line())?;
        for d in &r.doubts {
            outln!("  doubt: {}", d.message)?;
        }
    }
    for n in &report.checks {
        outln!("check: {}", super::explain::check(n))?;
    }
    Ok(())
}

/// The input rules the probe found, each with what it saw, in the order it tried them.
fn print_probed(c: &Calibration, p: &Probed) -> std::io::Result<()> {
    outln!(
        "input rules probed on {} ({} taps, {} screenshots, {:.1} s):",
        cell_name(p.cell),
        p.taps,
        p.screenshots,
        p.elapsed.as_secs_f64()
    )?;
    for (rule, what) in &c.input.seen {
        outln!("  {rule}: {what}")?;
    }
    if let Some((cell, d)) = p.kept {
        outln!(
            "  the app keeps right digits (locked): the probe's {d} stays in {} (only undo, if \
             any, takes it back)",
            cell_name(cell)
        )?;
    }
    Ok(())
}

/// How `--level N` opens levels with this calibration, and what the search for the level list
/// found (or what to pass where it found nothing).
fn print_navigation(report: &CalibrateReport, out: &Path, on_phone: bool) -> std::io::Result<()> {
    let found = match &report.levels {
        Some(Ok(found)) => Some(found),
        Some(Err(e)) => {
            outln!(
                "looking for the level list failed: {}",
                super::explain::error_text(e)
            )?;
            None
        }
        None => None,
    };
    match &report.calibration.navigation {
        Some(Navigation::AmStart { command }) => outln!("--level N opens levels with `{command}`"),
        Some(Navigation::Taps { taps }) => outln!(
            "--level N opens levels with a sequence of {} taps",
            taps.len()
        ),
        Some(Navigation::LevelGrid { .. }) => outln!("--level N opens levels from the level grid"),
        Some(Navigation::NewGame { open, difficulties }) => outln!(
            "found the way to new games: {} then the difficulty ({}); play one with --new-game DIFFICULTY",
            open.join(" then "),
            difficulties.join(", ")
        ),
        Some(Navigation::LevelList { .. }) => match found {
            Some(found) => print_found_list(found, out),
            None => outln!(
                "--level N opens levels from the level list, finding level N's button by its words"
            ),
        },
        None => {
            let how = match (found, &report.probed) {
                (Some(found), _) => format!(
                    "calibrate found no list of numbered levels ({}; {}), so",
                    tried(&found.steps),
                    found.seen.join("; ")
                ),
                (None, None) if on_phone => {
                    "calibrate looks for the app's level list only where it probes the app \
                     (without --no-probe), so"
                        .into()
                }
                (None, _) => "so".into(),
            };
            outln!(
                "--level N cannot open levels yet: {} has no [navigation], {how} `autoplay` plays \
                 the level that is open (recorded as level unknown). To open levels by number, \
                 run calibrate again with --level-list 'WORDS' (the words of the buttons that \
                 lead to the numbered levels, e.g. 'Play,Levels') or --am-start 'am start -n \
                 PACKAGE/ACTIVITY --ei level {{level}}' (if the app takes an intent); see \
                 docs/calibration.md, \"Opening levels\".",
                out.display()
            )?;
            if found.is_some() {
                outln!("the app is not on the level it was on: open it again")?;
            }
            Ok(())
        }
    }
}

/// The level list calibrate found, and the level opened again.
fn print_found_list(found: &LevelList, out: &Path) -> std::io::Result<()> {
    let Some(Navigation::LevelList { open }) = &found.navigation else {
        return Ok(());
    };
    let way = if open.is_empty() {
        "BACK from the game shows it".to_string()
    } else {
        let words: Vec<String> = open.iter().rev().map(|w| format!("{w:?}")).collect();
        format!(
            "the way to it: a tap on {} where that shows, else BACK",
            words.join(", else ")
        )
    };
    outln!(
        "--level N opens levels from the app's level list, which calibrate found ({way}): level \
         N's button is found by its words; written as [navigation] in {}",
        out.display()
    )?;
    match (found.level, found.reopened) {
        (Some(level), true) => outln!("opened level {level} again, as it was before calibrating"),
        (Some(level), false) => {
            outln!("opening level {level} again did not bring its board back: open it again")
        }
        (None, _) => outln!(
            "the level list is open now (the game screen did not say its level's number): open \
             the level again"
        ),
    }
}

/// `tried BACK, "Play"`.
fn tried(steps: &[String]) -> String {
    let tapped: Vec<&str> = steps
        .iter()
        .map(String::as_str)
        .filter(|s| *s != "BACK")
        .collect();
    if tapped.is_empty() {
        "BACK from the game showed no level numbers, and no button there spoke of levels or \
         playing"
            .into()
    } else {
        format!("tried BACK and the buttons {}", tapped.join(", "))
    }
}

/// Whether `autoplay` finds the calibration written to `out` by itself, and if not, how to use it.
fn how_found(dir: &CalibrationDir, out: &Path, (w, h): (u32, u32)) -> String {
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let here = |d: &Path| match (std::fs::canonicalize(d), std::fs::canonicalize(parent)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    let search = dir.search_path();
    let found = if !search.dirs().iter().any(|d| here(d)) {
        None
    } else if dir.calibration_dir.is_some() {
        Some("while --calibration-dir (or AUTOPLAY_CALIBRATION_DIR) names that directory")
    } else if user_calibration_dir().is_some_and(|d| here(&d)) {
        Some("from any directory")
    } else {
        Some("when run from this directory")
    };
    match found {
        Some(when) => format!("autoplay finds it there {when}, for devices with a {w}x{h} screen"),
        None => format!(
            "autoplay does not look for calibrations in {} (it looks in {}): play with --calibration {}",
            parent.display(),
            search,
            out.display()
        ),
    }
}

/// What the person can do about a failure.
fn help_for(e: &CalibrationError) -> String {
    match e {
        CalibrationError::Vision(_) => "help: with the game screen showing and nothing over the \
            board, try again; or give the board's outer grid lines as --board X0,Y0,X1,Y1 \
            (screen pixels, equal cells assumed)"
            .into(),
        CalibrationError::Keypad(_) => "help: take the screenshot with the number pad showing \
            (apps that show it only for a selected cell: select an empty cell first; on a phone, \
            calibrate without --no-probe does that); or give the keys' centres as \
            --keys X,Y;X,Y;... (keys 1 to 9), or --keys X1,Y1,X9,Y9 for a single row"
            .into(),
        _ => "help: check the screenshot is the game screen of the app".into(),
    }
}

/// One line per thing found near the keypad.
fn print_survey(survey: &Survey) {
    if let Some(k) = survey.keypad() {
        let rows: Vec<String> = k.rows.iter().map(|n| n.to_string()).collect();
        println!(
            "keypad layout: {} of keys ({}), pitch {:.0} px",
            count(
                rows.len() as u64,
                if k.transposed { "column" } else { "row" }
            ),
            rows.join("+"),
            k.pitch
        );
    }
    for t in &survey.tools {
        println!(
            "  key beside the digits at {},{}: {} ({})",
            t.center.0,
            t.center.1,
            t.tool.map_or("not recognised", |t| t.name()),
            t.evidence
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_parse() {
        assert_eq!(parse_point("12, 34"), Ok([12, 34]));
        assert!(parse_point("12").is_err());
        assert!(parse_point("-1,2").is_err());
        assert_eq!(parse_erase("toggle"), Ok(Erase::Toggle));
        assert_eq!(parse_erase("5,6"), Ok(Erase::Key([5, 6])));
        assert!(parse_erase("eraser").is_err());
        assert_eq!(parse_rect("10,20,110,120"), Ok([10, 20, 110, 120]));
        assert!(parse_rect("110,20,10,120").is_err());
        let row = parse_keys("100,500,900,500").unwrap();
        assert_eq!(
            (row[0], row[4], row[8]),
            ((100, 500), (500, 500), (900, 500))
        );
        let nine = "1,2;3,4;5,6;7,8;9,10;11,12;13,14;15,16;17,18";
        assert_eq!(parse_keys(nine).unwrap()[8], (17, 18));
        assert!(parse_keys("1,2,3").is_err());
    }

    #[test]
    fn files_are_named_by_phone_and_app() {
        let pkg = Some("org.autoplay.sudoku");
        assert_eq!(
            file_name(None, Some("Pixel_7"), pkg),
            "Pixel_7-org.autoplay.sudoku.toml"
        );
        assert_eq!(
            file_name(None, Some("Pixel 7 Pro/x"), None),
            "Pixel_7_Pro_x.toml"
        );
        assert_eq!(
            file_name(None, None, pkg),
            "device-org.autoplay.sudoku.toml"
        );
        assert_eq!(file_name(Some("shot"), Some("Pixel_7"), pkg), "shot.toml");
    }
}
