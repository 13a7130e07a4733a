//! The library's reasons in the command line's words. The library returns them as data (why a
//! run stopped, the advice for a stall, why the app refuses a search, what to check in a
//! calibration, a run's notes and plan, and the [`Remedy`]s it names) and knows nothing of the
//! command line; this words them with `autoplay`'s own flags and commands. [`error_text`] says
//! an error's chain with each typed reason worded here.

use std::error::Error;
use std::path::Path;
use sudoku_autoplay::calibration::lookup::{LookupError, Opening, other_apps};
use sudoku_autoplay::calibration::{CalibrationError, Check, FrameMismatch};
use sudoku_autoplay::device::DeviceError;
use sudoku_autoplay::level::Note;
use sudoku_autoplay::play::forbidden::Forbidden;
use sudoku_autoplay::play::plan::{Guarded, Plan};
use sudoku_autoplay::play::setnum::BRUSH_TAPS;
use sudoku_autoplay::play::stop::{RunFailed, Stop};
use sudoku_autoplay::play::{DeadlineCut, Guard, StallHint, Stalled};
use sudoku_autoplay::remedy::{Advised, Remedy};
use sudoku_autoplay::text::{approx, count, human, rate, thousands};

/// What to do, as this command line offers it.
pub fn remedy(r: Remedy) -> String {
    match r {
        Remedy::RightDigitsOnly => {
            "play with --strategy fast (it writes only right digits and takes none back)".into()
        }
        Remedy::FirstSteps(Some(n)) => format!(
            "--max-visible-steps {n} (only the steps before the wrong digit that would end it)"
        ),
        Remedy::FirstSteps(None) => {
            "--max-visible-steps N to show only the search's first steps".into()
        }
        Remedy::CalibratePhone => {
            "open the Sudoku app's game screen on the phone and run `autoplay calibrate -s SERIAL`"
                .into()
        }
        Remedy::CalibrationFile => "pass --calibration FILE".into(),
        Remedy::CalibrateScreenshot => {
            "recalibrate on this device (`autoplay calibrate --screenshot FILE`)".into()
        }
        Remedy::CalibrateKeys => "give them with `autoplay calibrate --keys`".into(),
        Remedy::CalibrateErase => "confirm with `autoplay calibrate --erase toggle` where tapping \
             the digit again clears a cell; where the app has an erase key, pass its centre as \
             `--erase X,Y`"
            .into(),
        Remedy::CalibrateNavigation => "make the calibration again with `autoplay calibrate \
             --am-start 'am start -n PACKAGE/ACTIVITY --ei level {level}'` (if the app opens a \
             level from an intent) or `--level-list WORDS` (if its level list's buttons say their \
             numbers: the words of the buttons that open the list), or add a `[navigation]` \
             section of kind \"taps\", \"level-grid\" or \"level-list\" to the file (docs/calibration.md, \
             \"Opening levels\")"
            .into(),
        Remedy::PlayOpenLevel => {
            "drop --level to play the level that is open on the phone (recorded as level unknown)"
                .into()
        }
        Remedy::Resume => "then `autoplay resume`".into(),
        Remedy::Doctor => "check the touch panel and tap channel `autoplay doctor` reports".into(),
        Remedy::InputChannel => "try `--input input`".into(),
        Remedy::LongerReconnect => "wait longer with --reconnect-timeout SECS".into(),
        Remedy::MoreSteps => "allow more with --max-steps N".into(),
        Remedy::Demo => "try `autoplay demo` without a phone".into(),
        Remedy::Verbose => "`autoplay -v` logs every repair".into(),
        Remedy::Record => "play it again with --record".into(),
    }
}

/// `: A, or B` (nothing without remedies).
pub fn remedies(rs: &[Remedy]) -> String {
    if rs.is_empty() {
        return String::new();
    }
    let words: Vec<String> = rs.iter().map(|&r| remedy(r)).collect();
    format!(": {}", words.join(", or "))
}

/// Why a run stopped, with what to do.
pub fn stop(s: &Stop) -> String {
    match s {
        Stop::GameOver { several: true, .. } => s.to_string(),
        Stop::GameOver { mistakes: 0, .. } => format!("{s} (`autoplay -v` logs every repair)"),
        Stop::GameOver { .. } => {
            format!("{s}, or play with --strategy fast, which writes only right digits")
        }
        Stop::DeviceLost {
            serial,
            during,
            waited,
            why,
        } => format!(
            "lost the connection to {serial} while {during} and it did not come back within {:.0} \
             s (--reconnect-timeout): {why}",
            waited.as_secs_f64()
        ),
        Stop::Interrupted { .. }
        | Stop::Locked
        | Stop::UnknownScreen { .. }
        | Stop::NotAccepted { .. } => s.to_string(),
    }
}

/// The advice for a stall, with what to run.
pub fn stall_hint(h: StallHint) -> String {
    match h {
        StallHint::Interrupted => h.to_string(),
        StallHint::PencilMode | StallHint::Brush => format!("{h}, then `autoplay resume`"),
        StallHint::EraseFails => format!(
            "{h} (`autoplay calibrate --erase X,Y`, or `--erase toggle` where tapping the digit \
             again clears it)"
        ),
        StallHint::NothingLands => format!(
            "{h}. On a Xiaomi (MIUI, HyperOS) or Honor phone, turn on \"USB debugging (Security \
             settings)\" in Developer options and reboot; else close what covers the app, and see \
             the touch panel and tap channels `autoplay doctor` reports (or try `--input input`)"
        ),
        StallHint::TapsAstray => "are the taps landing where they should? Check the calibration \
            (`autoplay calibrate`), and the touch panel and tap channel `autoplay doctor` reports \
            (or try `--input input`)"
            .into(),
        StallHint::RulesContradicted => format!(
            "{h}: if the app, its settings or its version changed since it was calibrated, or \
             another app is in front, calibrate it again (`autoplay calibrate`); else check the \
             touch panel and tap channel `autoplay doctor` reports (or try `--input input`)"
        ),
    }
}

/// Repairs that made no progress, in a run played with the calibration file `calibration`:
/// where nothing else explains it, the taps did not do what that file says.
pub fn stalled_with(s: &Stalled, calibration: &Path) -> String {
    match s.hint {
        StallHint::TapsAstray | StallHint::RulesContradicted => format!(
            "{}: the taps do not do on the screen what the calibration {} says they do (its \
             keys and the app's input rules): if the app, its settings or its version changed \
             since it was calibrated, or another app is in front, calibrate it again with \
             `autoplay calibrate` (it replaces that file); else check the touch panel and tap \
             channel `autoplay doctor` reports (or try `--input input`)",
            stall_facts(s),
            calibration.display()
        ),
        _ => stalled(s),
    }
}

/// Repairs that made no progress.
pub fn stalled(s: &Stalled) -> String {
    format!("{}: {}", stall_facts(s), stall_hint(s.hint))
}

/// How many cells still differ, and after how many rounds.
fn stall_facts(s: &Stalled) -> String {
    let cells: Vec<String> = s
        .cells
        .iter()
        .take(5)
        .map(|&c| sudoku_autoplay::board::cell_name(c))
        .collect();
    format!(
        "the board on screen still differs from the search in {} ({}) after {} without progress",
        count(s.cells.len() as u64, "cell"),
        cells.join(", "),
        count(u64::from(s.rounds), "repair round"),
    )
}

/// What the app forbids, and what to play instead (after the advice to turn a mistake limit
/// off, as more choices).
pub fn forbidden(f: &Forbidden) -> String {
    match f {
        Forbidden::MistakeLimit { .. } => {
            let choices: Vec<String> = f.remedies().into_iter().map(remedy).collect();
            format!("{f}, or {}", choices.join(", or "))
        }
        _ => format!("{f}{}", remedies(&f.remedies())),
    }
}

/// What needs a calibration that opens levels, as the command line asked for it.
fn opening(o: &Opening) -> String {
    match o {
        Opening::Level(n) => format!("--level {n}"),
        Opening::Levels => "watch".into(),
        Opening::NewGame(d) => format!("--new-game {d}"),
    }
}

/// No calibration to use, and what to do.
pub fn lookup(e: &LookupError) -> String {
    match e {
        LookupError::NoCalibration { wanted, others } => {
            format!(
                "no calibration for {wanted}{}{others}",
                remedies(&e.remedies())
            )
        }
        LookupError::NoNavigation {
            needs: needs @ Opening::NewGame(_),
            files,
        } => format!(
            "{} needs a calibration that knows the way to the app's new games, and {} {} none: \
             calibrate again with the game open (it looks for New Game and the difficulties){}",
            opening(needs),
            files.join(" and "),
            if files.len() == 1 { "has" } else { "have" },
            remedies(&e.remedies())
        ),
        LookupError::NoNavigation { needs, files } => format!(
            "{} needs a [navigation] section to open the level, and {} {} none{}",
            opening(needs),
            files.join(" and "),
            if files.len() == 1 { "has" } else { "have" },
            remedies(&e.remedies())
        ),
        LookupError::OtherApp { app, files, .. } => format!(
            "{app} is in front, and no calibration was made for it: {}; open {}, or calibrate \
             this one{}",
            other_apps(files),
            if files.len() == 1 {
                "that app"
            } else {
                "one of those apps"
            },
            remedies(&e.remedies())
        ),
    }
}

/// A calibration that cannot be read, with what to do.
pub fn calibration(e: &CalibrationError) -> String {
    match e {
        CalibrationError::Parse {
            file,
            line,
            column,
            message,
        } => format!(
            "{}:{line}:{column}: {message} (fix that line, or make a new calibration with \
             `autoplay calibrate`)",
            file.display()
        ),
        CalibrationError::Invalid { file, message } => format!(
            "{}: {message} (fix the file, or make a new calibration with `autoplay calibrate`)",
            file.display()
        ),
        _ => e.to_string(),
    }
}

/// A calibration's check, with what to pass.
pub fn check(c: &Check) -> String {
    format!("{c}{}", remedies(&c.remedies()))
}

/// A run's note, as the line printed.
pub fn note(n: &Note) -> String {
    match n {
        Note::SkippedCalibration { error } => format!("warning: skipped {error}"),
        Note::TapChannel { why, .. } => format!("tap channel: {why}"),
        Note::Calibration { why, .. } => format!("calibration: {why}"),
        Note::Plan {
            plan: p,
            level,
            done,
        } => format!("plan: {}", plan(p, *level, *done)),
        Note::LevelNotOpened { calibration } => format!(
            "note: not opening the level (no level or [navigation] in {calibration}): the taps go \
             to the screen that is open"
        ),
        Note::LinkRestored { serial, at_tap } => format!(
            "note: the link to {serial} dropped and came back at tap {at_tap}: taps in flight may \
             be lost"
        ),
        Note::Resuming { session_dir } => format!("resuming {}", session_dir.display()),
        Note::Video { path, video } => format!(
            "video: {} ({}, {} frames, {:.1} MB{})",
            path.display(),
            sudoku_autoplay::text::human(video.duration),
            sudoku_autoplay::text::thousands(video.frames),
            video.bytes as f64 / 1e6,
            seams(&video.seams)
        ),
        Note::NoVideo { why } => format!("no video of this run: {why}"),
    }
}

/// `level 52: 470,108 steps, about 1.2M taps, about 2 h 10 min at 150 taps/s`, and what the
/// budget or --max-visible-steps leaves out; resumed after `done` steps, the steps left.
pub fn plan(p: &Plan, level: Option<u32>, done: u64) -> String {
    let mut what = level.map_or("this level".to_string(), |l| format!("level {l}"));
    let mut steps = "steps";
    if done > 0 {
        what.push_str(&format!(", resumed after {}", count(done, "step")));
        steps = "steps left";
    }
    let mut s = format!(
        "{what}: {} {steps}, about {} taps, about {} at {} taps/s",
        thousands(p.steps),
        approx(p.taps),
        human(p.full_time()),
        rate(p.rate)
    );
    if p.visible_steps < p.steps {
        let why = if p.cut_by_budget {
            format!(
                "the {} budget (--budget)",
                human(p.budget.unwrap_or_default())
            )
        } else {
            "--max-visible-steps".to_string()
        };
        s.push_str(&format!(
            "; within {why} the first {} steps are shown (about {}), then the rest of the \
             solution is filled in directly",
            thousands(p.visible_steps),
            human(p.time())
        ));
    } else if let Some(b) = p.budget {
        s.push_str(&format!(
            "; every step is shown (fits the {} budget)",
            human(b)
        ));
    }
    if let Some(solution) = &p.several {
        s.push_str(&format!(
            "; the puzzle has more than one solution: the search writes {} (digits the app then \
             marks wrong are taken out and another solution is written)",
            solution.to_line()
        ));
    }
    if let Some(Guarded { guard, limit }) = p.guarded {
        let how = match guard {
            Guard::Givens => "each digit goes in after taps on two givens (a lost tap cannot \
                 send it to another cell; counted in the taps)"
                .to_string(),
            Guard::Brush => format!(
                "each digit's key is tapped {BRUSH_TAPS} times before the cells it writes (a \
                 lost tap cannot leave another digit to write; counted in the taps)"
            ),
        };
        s.push_str(&format!(
            "; the app ends the game after {limit} mistakes, so {how}"
        ));
    }
    s
}

/// Steps the budget's deadline kept from being shown, `measured` the plan's rate: `the run went
/// slower than planned: showed 43,481 of the 128,664 steps planned, to keep the 1 min budget
/// (--budget), and filled the rest of the solution in directly (taps at 1300/s where 10893/s
/// were measured; 2.1 s looking at the screen)`.
pub fn deadline_cut(c: &DeadlineCut, measured: Option<f64>) -> String {
    let measured = measured
        .map(|r| format!(" where {}/s were measured", rate(r)))
        .unwrap_or_default();
    format!(
        "the run went slower than planned: showed {} of the {} steps planned, to keep the {} \
         budget (--budget), and filled the rest of the solution in directly (taps at {}/s{}; {} \
         looking at the screen)",
        thousands(c.shown),
        thousands(c.planned),
        human(c.budget),
        rate(c.rate),
        measured,
        human(c.looking)
    )
}

/// One error of a chain, in these words where it is a typed reason.
pub fn cause(e: &(dyn Error + 'static)) -> String {
    if let Some(f) = e.downcast_ref::<RunFailed>() {
        return chain_text(&f.error, Some(&f.calibration));
    }
    if let Some(a) = e.downcast_ref::<Advised>() {
        return format!("{}{}", a.message, remedies(&a.remedies));
    }
    if let Some(s) = e.downcast_ref::<Stop>() {
        return stop(s);
    }
    if let Some(s) = e.downcast_ref::<Stalled>() {
        return stalled(s);
    }
    if let Some(f) = e.downcast_ref::<Forbidden>() {
        return forbidden(f);
    }
    if let Some(l) = e.downcast_ref::<LookupError>() {
        return lookup(l);
    }
    if let Some(c) = e.downcast_ref::<CalibrationError>() {
        return calibration(c);
    }
    if let Some(m) = e.downcast_ref::<FrameMismatch>() {
        return format!("{m}{}", remedies(&m.remedies()));
    }
    if let Some(d) = e.downcast_ref::<DeviceError>() {
        return format!("{d}{}", remedies(&d.remedies()));
    }
    e.to_string()
}

/// An error and its causes, `: `-separated, each cause said once (a message that already
/// includes its source's text is not followed by it again).
pub fn error_text(e: &anyhow::Error) -> String {
    chain_text(e, None)
}

/// [`error_text`], in a run played with the calibration file `calibration`.
fn chain_text(e: &anyhow::Error, calibration: Option<&Path>) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut plain: Vec<String> = Vec::new();
    for c in e.chain() {
        let text = c.to_string();
        if !plain.iter().any(|p| p.contains(&text)) {
            parts.push(match (c.downcast_ref::<Stalled>(), calibration) {
                (Some(s), Some(path)) => stalled_with(s, path),
                _ => cause(c),
            });
        }
        plain.push(text);
    }
    parts.join(": ")
}

/// The seams between chained recordings, for the video's note: how many, and the longest gap.
fn seams(seams: &[std::time::Duration]) -> String {
    match seams.iter().max() {
        None => String::new(),
        Some(longest) => format!(
            ", {} recording(s) chained, the longest seam {:.0} ms",
            seams.len() + 1,
            longest.as_secs_f64() * 1e3
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_over_offers_the_fast_search_only_where_the_search_wrote_wrong_digits() {
        let over = |mistakes| {
            stop(&Stop::GameOver {
                mistakes,
                what: "\"Game over\"".into(),
                several: false,
            })
        };
        let several = stop(&Stop::GameOver {
            mistakes: 0,
            what: "\"Game over\"".into(),
            several: true,
        });
        assert!(
            several.contains("more than one solution")
                && !several.contains("--strategy fast")
                && !several.contains("taps that went astray"),
            "{several}"
        );
        let astray = over(0);
        assert!(
            astray.contains("taps that went astray") && astray.contains("autoplay -v"),
            "{astray}"
        );
        assert!(!astray.contains("--strategy fast"), "{astray}");
        let wrong = over(7);
        assert!(
            wrong.contains("(7 sent before the game over was seen)")
                && wrong.contains("--strategy fast"),
            "{wrong}"
        );
    }

    #[test]
    fn a_stall_names_the_options_that_help() {
        let stalled = |hint| {
            stalled(&Stalled {
                cells: vec![0, 1],
                rounds: 5,
                hint,
            })
        };
        let erase = stalled(StallHint::EraseFails);
        assert!(
            erase.contains("erasing does not clear them") && erase.contains("--erase X,Y"),
            "{erase}"
        );
        assert!(stalled(StallHint::PencilMode).ends_with("then `autoplay resume`"));
        assert!(stalled(StallHint::TapsAstray).contains("--input input"));
        assert!(
            stalled(StallHint::Interrupted).contains("screen timeout"),
            "no option for that"
        );
    }

    #[test]
    fn remedies_name_the_flags() {
        let e = LookupError::NoNavigation {
            needs: Opening::Level(5),
            files: vec!["Pixel_7.toml".into()],
        };
        let text = lookup(&e);
        assert!(
            text.contains("--level 5 needs a [navigation] section"),
            "{text}"
        );
        assert!(text.contains("autoplay calibrate --am-start"), "{text}");
        assert!(text.contains("drop --level"), "{text}");
        let lost = stop(&Stop::DeviceLost {
            serial: "R58M".into(),
            during: "sending taps".into(),
            waited: std::time::Duration::from_secs(3),
            why: "gone".into(),
        });
        assert!(
            lost.contains("did not come back within 3 s (--reconnect-timeout): gone"),
            "{lost}"
        );
        // Every remedy is worded with a flag or a command of this command line.
        for r in [
            Remedy::RightDigitsOnly,
            Remedy::FirstSteps(Some(3)),
            Remedy::CalibratePhone,
            Remedy::CalibrationFile,
            Remedy::CalibrateScreenshot,
            Remedy::CalibrateKeys,
            Remedy::CalibrateErase,
            Remedy::CalibrateNavigation,
            Remedy::PlayOpenLevel,
            Remedy::Resume,
            Remedy::Doctor,
            Remedy::InputChannel,
            Remedy::LongerReconnect,
            Remedy::MoreSteps,
            Remedy::Demo,
            Remedy::Verbose,
        ] {
            let w = remedy(r);
            assert!(w.contains("--") || w.contains("autoplay "), "{r:?}: {w}");
        }
    }

    #[test]
    fn a_mistake_limit_offers_the_choices_after_turning_it_off() {
        let f = Forbidden::MistakeLimit {
            strategy: sudoku_autoplay::solver::Strategy::Static,
            limit: 2,
            seen: sudoku_autoplay::play::forbidden::Counter::Screen("Mistakes: 0/2".into()),
            wrong: 22,
            first: 6,
            fits: 13,
        };
        let text = forbidden(&f);
        assert!(
            text.contains(
                "Turn the app's mistake limit off in its settings, or play with --strategy fast"
            ) && text.ends_with(", or --max-visible-steps 13 (only the steps before the wrong digit that would end it)"),
            "{text}"
        );
    }

    #[test]
    fn a_deadline_cut_says_how_many_steps_were_shown() {
        let cut = sudoku_autoplay::play::DeadlineCut {
            shown: 43_481,
            planned: 128_664,
            budget: std::time::Duration::from_secs(60),
            rate: 1300.4,
            looking: std::time::Duration::from_millis(2100),
        };
        assert_eq!(
            super::deadline_cut(&cut, Some(10_893.0)),
            "the run went slower than planned: showed 43,481 of the 128,664 steps planned, to \
             keep the 1 min budget (--budget), and filled the rest of the solution in directly \
             (taps at 1300/s where 10893/s were measured; 2.1 s looking at the screen)"
        );
        assert!(super::deadline_cut(&cut, None).contains("(taps at 1300/s; 2.1 s looking"));
    }

    #[test]
    fn plans_say_what_cuts_the_steps_shown() {
        let plan = Plan {
            steps: 8365,
            taps: 20_000,
            visible_steps: 100,
            visible_taps: 400,
            rate: 100.0,
            guarded: None,
            budget: Some(std::time::Duration::from_secs(60)),
            cut_by_budget: true,
            several: None,
        };
        let text = super::plan(&plan, Some(52), 0);
        assert!(text.starts_with("level 52: 8,365 steps, about "), "{text}");
        assert!(
            text.contains("within the 1 min budget (--budget) the first"),
            "{text}"
        );
        let resumed = super::plan(&plan, Some(52), 1200);
        assert!(
            resumed.starts_with("level 52, resumed after 1,200 steps: 8,365 steps left, about "),
            "{resumed}"
        );
        assert!(!text.contains("more than one solution"), "{text}");
        let solution = sudoku_autoplay::board::Board::parse(
            "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
        )
        .unwrap();
        let several = Plan {
            several: Some(solution),
            ..plan
        };
        let text = super::plan(&several, Some(52), 0);
        assert!(
            text.contains(
                "; the puzzle has more than one solution: the search writes 123456789456"
            ),
            "{text}"
        );
        for (guard, says) in [
            (
                Guard::Givens,
                "so each digit goes in after taps on two givens",
            ),
            (
                Guard::Brush,
                "so each digit's key is tapped 3 times before the cells it writes",
            ),
        ] {
            let guarded = Plan {
                guarded: Some(Guarded { guard, limit: 3 }),
                ..plan.clone()
            };
            let text = super::plan(&guarded, Some(52), 0);
            assert!(
                text.contains(&format!("; the app ends the game after 3 mistakes, {says}")),
                "{text}"
            );
        }
    }
}
