//! The `autoplay` command line: one file per subcommand.

/// Writes a line to stdout, returning the error (a closed pipe) instead of panicking like
/// `println!`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)
    }};
}
mod args;
mod calibrate;
mod choice;
mod demo;
mod devices;
mod dirs;
mod doctor;
mod exit;
mod logging;
mod outcome;
mod play;
mod progress;
mod read;
mod replay;
mod resume;
mod signals;
mod sim;
mod solve;
mod stats;
mod watch;
mod words;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Plays Sudoku on an Android phone over ADB, performing every placement and undo of a
/// backtracking search as real taps.
#[derive(Debug, Parser)]
#[command(
    name = "autoplay",
    version,
    about,
    override_usage = "autoplay [OPTIONS]\n       autoplay [-v] <COMMAND>",
    after_help = "With no subcommand, autoplay plays: `autoplay --level 70` opens level 70 on the phone and \
                  solves it visibly.\nEach subcommand has its own --help, e.g. `autoplay solve --help`."
)]
pub struct Cli {
    /// Log what happens on stderr: -v debug events (the tap channel and why, reconnects,
    /// repairs, OCR doubts, the calibration picked), -vv trace events. RUST_LOG sets finer
    /// filters (e.g. RUST_LOG=sudoku_autoplay::vision=trace).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(flatten)]
    adb: args::AdbArgs,
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
    /// What autoplay concludes about a phone (screen, touch panel, tap channels, screencap,
    /// uiautomator) and from which command; changes nothing. Paste --json into bug reports.
    Doctor(doctor::DoctorArgs),
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
    let cli = parse(std::env::args_os()).unwrap_or_else(|e| e.exit());
    logging::init(cli.verbose);
    let result = match cli.command {
        None => play::run(&cli.adb, &cli.play),
        Some(Command::Demo(args)) => demo::run(&args),
        Some(Command::Devices(args)) => devices::run(&args),
        Some(Command::Doctor(args)) => doctor::run(&args),
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Resume(args)) => resume::run(&args),
        Some(Command::Stats(args)) => stats::run(args),
        Some(Command::Watch(args)) => watch::run(&args),
        Some(Command::Sim(args)) => sim::run(args),
        Some(Command::Read(args)) => read::run(args),
        Some(Command::Calibrate(args)) => calibrate::run(args),
    };
    match result {
        Ok(code) => code,
        // A closed pipe (`autoplay solve -f FILE | head`) ends the output quietly, as in ripgrep.
        Err(e) if is_broken_pipe(&e) => 0,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            1
        }
    }
}

/// Parses the command line. The options of the command without a subcommand (playing) given
/// with a subcommand are an error, as clap's `args_conflicts_with_subcommands` would say; that
/// setting itself would also refuse the global `-v` before a subcommand (`autoplay -v read`).
fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mut cmd = Cli::command();
    let matches = cmd.try_get_matches_from_mut(args)?;
    if let Some((name, _)) = matches.subcommand() {
        let stray = cmd.get_arguments().find(|a| {
            !a.is_global_set()
                && matches.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine)
        });
        if let Some(arg) = stray {
            return Err(cmd.error(
                clap::error::ErrorKind::ArgumentConflict,
                format!("the subcommand '{name}' cannot be used with '{arg}'"),
            ));
        }
    }
    Cli::from_arg_matches(&matches)
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// An error and its causes in the command line's words ([`words::error_text`]).
pub fn error_text(e: &anyhow::Error) -> String {
    words::error_text(e)
}

#[cfg(test)]
mod tests {
    #[test]
    fn verbose_is_global_and_play_options_stay_off_subcommands() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
        let parse = |args: &str| super::parse(args.split_whitespace());
        assert_eq!(parse("autoplay -vv solve").unwrap().verbose, 2);
        assert_eq!(parse("autoplay solve -v").unwrap().verbose, 1);
        assert_eq!(parse("autoplay -v --level 3").unwrap().verbose, 1);
        let e = parse("autoplay --level 3 solve").unwrap_err().to_string();
        assert!(
            e.contains("the subcommand 'solve' cannot be used with '--level <N>'"),
            "{e}"
        );
    }

    #[test]
    fn causes_are_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let e = anyhow::Error::new(io).context("cannot read x.toml: No such file");
        assert_eq!(super::error_text(&e), "cannot read x.toml: No such file");
        let e = anyhow::anyhow!("inner").context("outer");
        assert_eq!(super::error_text(&e), "outer: inner");
    }
}
