//! The `autoplay` command line: one file per subcommand.

mod calibrate;
mod demo;
mod devices;
mod play;
mod read;
mod replay;
mod resume;
mod signals;
mod sim;
mod solve;
mod stats;
mod watch;

use clap::{Parser, Subcommand};

/// Plays Sudoku on an Android phone over ADB, replaying every placement and undo of a
/// backtracking search as real taps.
#[derive(Debug, Parser)]
#[command(
    name = "autoplay",
    version,
    about,
    args_conflicts_with_subcommands = true,
    after_help = "With no subcommand, autoplay plays: `autoplay --level 70` opens level 70 on the phone and \
                  solves it visibly.\nEach subcommand has its own --help, e.g. `autoplay solve --help`."
)]
pub struct Cli {
    #[command(flatten)]
    adb: play::AdbArgs,
    #[command(flatten)]
    play: play::PlayArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// No phone needed: start the simulated phone and watch it solve a level.
    Demo(demo::DemoArgs),
    /// List connected devices, their screens, and whether a calibration exists.
    Devices(devices::DevicesArgs),
    /// Solve puzzles on the host and print the search's execution counts.
    Solve(solve::SolveArgs),
    /// Read the board in a screenshot (PNG, JPEG or raw screencap): digits, givens, confidence.
    Read(read::ReadArgs),
    /// Make a calibration profile (board, keypad, erase key) from a screenshot.
    Calibrate(calibrate::CalibrateArgs),
    /// Check a recorded session with today's OCR and search; replay it as a GIF, in the terminal or on a phone.
    Replay(replay::ReplayArgs),
    /// Continue an interrupted run from its session journal.
    Resume(resume::ResumeArgs),
    /// Per-level table of execution counts from runs.csv.
    Stats(stats::StatsArgs),
    /// The host daemon: play the next unplayed levels on every calibrated device that appears.
    Watch(watch::WatchArgs),
    /// Run the simulated phone: a Sudoku app behind the real ADB protocol (`adb connect`).
    Sim(sim::SimArgs),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        None => play::run(&cli.adb, &cli.play),
        Some(Command::Demo(args)) => demo::run(&cli.adb, &args),
        Some(Command::Devices(args)) => devices::run(&cli.adb, &args),
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Replay(args)) => replay::run(&cli.adb, &args),
        Some(Command::Resume(args)) => resume::run(&cli.adb, &args),
        Some(Command::Stats(args)) => stats::run(args),
        Some(Command::Watch(args)) => watch::run(&cli.adb, &args),
        Some(Command::Sim(args)) => sim::run(args),
        Some(Command::Read(args)) => read::run(args),
        Some(Command::Calibrate(args)) => calibrate::run(&cli.adb, args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

/// `1234567` -> `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_groups() {
        assert_eq!(super::thousands(0), "0");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(6_943_195), "6,943,195");
    }
}
