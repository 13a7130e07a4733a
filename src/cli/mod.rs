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
mod explain;
mod logging;
mod outcome;
mod play;
mod progress;
mod read;
mod refusal;
mod replay;
mod resume;
mod signals;
mod sim;
mod solve;
mod stats;
mod watch;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Plays Sudoku on an Android phone over ADB, performing every placement and undo of a
/// backtracking search as real taps.
#[derive(Debug, Parser)]
#[command(
    name = "autoplay",
    version,
    about,
    override_usage = "autoplay [OPTIONS]\n       autoplay [-s SERIAL] [-H HOST] [-P PORT] [-v] <COMMAND> [OPTIONS]",
    after_help = "With no subcommand, autoplay plays: `autoplay --level 70` opens level 70 on the phone and \
                  solves it visibly.\nEach subcommand has its own --help, e.g. `autoplay solve --help`. As with adb, the \
                  options that pick the phone, the adb server, the directories and the output (-s, -H, -P, \
                  --calibration-dir, --data-dir, -q, -v) may come before the subcommand's name or after it."
)]
pub struct Cli {
    /// Log what happens on stderr: -v what was decided and why (debug events), -vv the details
    /// behind it (trace events). RUST_LOG sets finer filters (e.g.
    /// RUST_LOG=sudoku_autoplay::vision=trace).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(flatten)]
    adb: args::AdbArgs,
    #[command(flatten)]
    play: play::PlayArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// Each subcommand's options are built only when it is the one run (`defer`): building all of
/// them took a third of a `solve`'s start-up.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
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
            if let Some(refusal) = refusal::of(&e) {
                eprintln!("{}", refusal::remedy(refusal));
            }
            1
        }
    }
}

/// Parses the command line. The options of the command without a subcommand (playing) given
/// before a subcommand are that subcommand's, as adb's are (`autoplay -s SERIAL doctor`,
/// `autoplay -P PORT devices`): they are moved after the subcommand's name. One the
/// subcommand does not take is an error that names it (clap's `args_conflicts_with_subcommands`
/// would also refuse the global `-v` before a subcommand).
fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let mut cmd = Cli::command();
    let matches = cmd.try_get_matches_from_mut(&args)?;
    let Some((name, _)) = matches.subcommand() else {
        return Cli::from_arg_matches(&matches);
    };
    let stray = cmd
        .get_arguments()
        .find(|a| {
            !a.is_global_set()
                && matches.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine)
        })
        .map(ToString::to_string);
    let Some(stray) = stray else {
        return Cli::from_arg_matches(&matches);
    };
    let refused = |cmd: &mut clap::Command| {
        cmd.error(
            clap::error::ErrorKind::ArgumentConflict,
            format!(
                "the subcommand '{name}' cannot be used with '{stray}' (see `autoplay {name} --help` \
                 for the options it takes, before or after its name)"
            ),
        )
    };
    let Some(hoisted) = hoist(&cmd, &args) else {
        return Err(refused(&mut cmd));
    };
    match Cli::command().try_get_matches_from(hoisted) {
        Ok(matches) => Cli::from_arg_matches(&matches),
        Err(e) if e.kind() == clap::error::ErrorKind::UnknownArgument => Err(refused(&mut cmd)),
        Err(e) => Err(e),
    }
}

/// `args` with the options before the subcommand's name moved after it (`autoplay -s X doctor`
/// becomes `autoplay doctor -s X`); `None` where no subcommand follows the options.
fn hoist(cmd: &clap::Command, args: &[std::ffi::OsString]) -> Option<Vec<std::ffi::OsString>> {
    let takes_value = |arg: Option<&clap::Arg>| arg.is_some_and(|a| a.get_action().takes_values());
    let mut i = 1;
    while let Some(token) = args.get(i).and_then(|t| t.to_str()) {
        if let Some(long) = token.strip_prefix("--") {
            if long.is_empty() {
                return None;
            }
            let arg = cmd.get_arguments().find(|a| a.get_long() == Some(long));
            i += 1 + usize::from(!long.contains('=') && takes_value(arg));
        } else if let Some(shorts) = token.strip_prefix('-').filter(|s| !s.is_empty()) {
            // A cluster (`-vv`, `-sSERIAL`): the first short that takes a value ends it.
            let mut chars = shorts.chars();
            let mut separate = false;
            while let Some(c) = chars.next() {
                if takes_value(cmd.get_arguments().find(|a| a.get_short() == Some(c))) {
                    separate = chars.as_str().is_empty();
                    break;
                }
            }
            i += 1 + usize::from(separate);
        } else {
            cmd.find_subcommand(token)?;
            let mut out = vec![args[0].clone(), args[i].clone()];
            out.extend_from_slice(&args[1..i]);
            out.extend_from_slice(&args[i + 1..]);
            return Some(out);
        }
    }
    None
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// An error and its causes in the command line's words ([`explain::error_text`]).
pub fn error_text(e: &anyhow::Error) -> String {
    explain::error_text(e)
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
    fn options_that_pick_the_phone_go_before_or_after_the_subcommand() {
        let parse = |args: &str| super::parse(args.split_whitespace());
        let serial = |cli: super::Cli| match cli.command {
            Some(super::Command::Doctor(d)) => d.adb.serial,
            other => panic!("not doctor: {other:?}"),
        };
        for line in [
            "autoplay -s emu:1 doctor",
            "autoplay doctor -s emu:1",
            "autoplay --serial=emu:1 doctor",
            "autoplay -semu:1 doctor",
            "autoplay -v -s emu:1 doctor -v",
        ] {
            assert_eq!(
                serial(parse(line).unwrap()).as_deref(),
                Some("emu:1"),
                "{line}"
            );
        }
        // A value that happens to be a subcommand's name is still a value.
        assert_eq!(
            serial(parse("autoplay -s doctor doctor").unwrap()).as_deref(),
            Some("doctor")
        );
        match parse("autoplay -P 5038 devices").unwrap().command {
            Some(super::Command::Devices(d)) => assert_eq!(d.adb.port, 5038),
            other => panic!("not devices: {other:?}"),
        }
        match parse("autoplay -q demo").unwrap().command {
            Some(super::Command::Demo(d)) => assert!(d.run.quiet),
            other => panic!("not demo: {other:?}"),
        }
        match parse("autoplay --data-dir /tmp/d stats").unwrap().command {
            Some(super::Command::Stats(s)) => {
                assert_eq!(
                    s.data.data_dir.as_deref(),
                    Some(std::path::Path::new("/tmp/d"))
                );
            }
            other => panic!("not stats: {other:?}"),
        }
        // An option the subcommand does not take is named.
        let e = parse("autoplay -s emu:1 solve 1").unwrap_err().to_string();
        assert!(
            e.contains("'solve' cannot be used with '--serial <SERIAL>'"),
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
