//! How a play ended, for people: the summary's parts, and on failure why, where the session is
//! and the command that goes on (`play`, `resume`).

use super::args::{AdbArgs, DEFAULT_PACE_MS};
use super::exit;
use std::path::Path;
use sudoku_autoplay::level::PlayConfig;
use sudoku_autoplay::play::PerformReport;
use sudoku_autoplay::play::stop::{RunFailed, Stop, stop_of};

/// How the solved board was seen, for the summary line.
pub fn completion(r: &PerformReport) -> String {
    let how = match (r.end.completion, &r.end.words) {
        (Some(sudoku_autoplay::play::Completion::Screen), Some(words)) => {
            format!("the app's completion screen: {words}")
        }
        (Some(sudoku_autoplay::play::Completion::Screen), None) => {
            "the app's completion screen".into()
        }
        _ => "the solved board read back".into(),
    };
    match r.end.rewritten.as_deref().map(|w| w.marked.as_slice()) {
        None | Some([]) => how,
        Some(marked) => format!(
            "{how}, after the app marked {} of the search's solution wrong ({}) and another \
             solution was written",
            sudoku_autoplay::text::count(marked.len() as u64, "digit"),
            marked
                .iter()
                .map(|&(c, d)| format!("{}={d}", sudoku_autoplay::board::cell_name(c)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `, 1 reconnect, 2 interruptions` (nothing when there were none).
pub fn incidents(r: &PerformReport) -> String {
    let mut s = String::new();
    for (n, what) in [
        (r.incidents.reconnects, "reconnect"),
        (r.incidents.interruptions, "interruption"),
    ] {
        if n > 0 {
            s.push_str(&format!(", {}", sudoku_autoplay::text::count(n, what)));
        }
    }
    s
}

/// Prints why a run stopped, where its session is and how to go on; returns the exit code
/// (docs/reliability.md).
pub fn explain_failure(adb: &AdbArgs, cfg: &PlayConfig, e: &anyhow::Error) -> i32 {
    eprintln!("error: {}", super::explain::error_text(e));
    if let Some(refusal) = super::refusal::of(e) {
        eprintln!("{}", super::refusal::remedy(refusal));
    }
    let stop = stop_of(e);
    if let Some(f) = e.downcast_ref::<RunFailed>() {
        let dir = &f.session_dir;
        eprintln!("session: {}", dir.display());
        if dir.join("last.png").exists() && !matches!(stop, Some(Stop::Interrupted { .. })) {
            eprintln!("the last screen seen: {}", dir.join("last.png").display());
        }
        let resume = resume_command(adb, cfg, dir);
        match stop {
            Some(Stop::GameOver { mistakes: 0, .. } | Stop::GameOver { several: true, .. }) => {
                eprintln!("to play it again: turn the app's mistake limit off and run `{resume}`")
            }
            Some(Stop::GameOver { .. }) => eprintln!(
                "to play it again: add --strategy fast; or turn the app's mistake limit off and run `{resume}`"
            ),
            _ => eprintln!("to continue: {resume}"),
        }
    } else if let Some(Stop::DeviceLost { .. }) = stop {
        eprintln!(
            "nothing was recorded yet: run the same command again once `adb devices` lists the phone as `device`"
        );
    }
    stop.map_or(exit::FAILED, exit::of_stop)
}

/// The exact `autoplay resume` command for a session, with the run's pace, the data
/// directory and the adb server in use.
pub fn resume_command(adb: &AdbArgs, cfg: &PlayConfig, dir: &Path) -> String {
    let mut cmd = format!(
        "autoplay resume {}",
        shell_quote(&dir.display().to_string())
    );
    let pace = cfg.pace.as_millis();
    if pace != u128::from(DEFAULT_PACE_MS) {
        cmd.push_str(&format!(" --pace {pace}"));
    }
    if super::dirs::user_data_dir().as_deref() != Some(cfg.data_dir.as_path()) {
        cmd.push_str(&format!(
            " --data-dir {}",
            shell_quote(&cfg.data_dir.display().to_string())
        ));
    }
    if adb.server.host != "127.0.0.1" {
        cmd.push_str(&format!(" -H {}", shell_quote(&adb.server.host)));
    }
    if adb.server.port != sudoku_autoplay::device::DEFAULT_PORT {
        cmd.push_str(&format!(" -P {}", adb.server.port));
    }
    cmd
}

fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-:=+,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}
