//! `autoplay watch --levels 1-70`: the host daemon. Follows the adb server's device list
//! (`host:track-devices`); whenever a calibrated device is ready it plays the device's next
//! unplayed levels ([`next_levels`]), resuming an interrupted session first
//! ([`play_or_resume`]). Survives unplug/replug; Ctrl-C or SIGTERM stops after the current
//! level (twice: at once).

use super::args::{CalibrationArgs, RunArgs, SearchArgs, ServerArgs};
use super::error_text;
use super::progress::{print_note, progress_bar, updates};
use indicatif::MultiProgress;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use sudoku_autoplay::calibration::lookup::{Opening, Phone};
use sudoku_autoplay::device::{Device, DeviceEntry, Server};
use sudoku_autoplay::level::{Note, Update};
use sudoku_autoplay::level::{PlayConfig, check_navigation, next_levels, play_or_resume};
use sudoku_autoplay::play::stop::StopFlag;
use sudoku_autoplay::text::count;

#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    /// Levels to play on each device, e.g. `1-70` or `1-10,15`.
    #[arg(long, value_name = "LIST", default_value = "1-70", value_parser = parse_levels)]
    pub levels: Levels,
    /// Instead of levels: new games of this difficulty, by the app's own words, on each device
    /// (an app without level numbers; --games of them).
    #[arg(long, value_name = "DIFFICULTY")]
    pub new_game: Option<String>,
    /// With --new-game: how many new games on each device.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    #[command(flatten)]
    pub adb: ServerArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub calibration: CalibrationArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

/// A set of level numbers, ascending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Levels(pub Vec<u32>);

/// `1-3,7`: runs of consecutive levels as ranges.
impl std::fmt::Display for Levels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        let mut i = 0;
        while i < self.0.len() {
            let mut j = i;
            while j + 1 < self.0.len() && self.0[j + 1] == self.0[j] + 1 {
                j += 1;
            }
            parts.push(match j - i {
                0 => self.0[i].to_string(),
                _ => format!("{}-{}", self.0[i], self.0[j]),
            });
            i = j + 1;
        }
        f.write_str(&parts.join(","))
    }
}

/// Parses `1-70`, `3`, `1-10,15`.
pub fn parse_levels(s: &str) -> Result<Levels, String> {
    let mut set = BTreeSet::new();
    for part in s.split(',') {
        let part = part.trim();
        let num = |v: &str| {
            v.trim()
                .parse::<u32>()
                .ok()
                .filter(|&n| (1..=100_000).contains(&n))
                .ok_or_else(|| format!("{v:?} is not a level number (1..=100000) in {s:?}"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    return Err(format!("range {part:?} runs backwards"));
                }
                set.extend(a..=b);
            }
            None => {
                set.insert(num(part)?);
            }
        }
    }
    Ok(Levels(set.into_iter().collect()))
}

/// A ready device that appeared, its screen `size` read: the levels to play on it (said on
/// stderr), or `None`, said why (a calibration that does not fit, every level played).
fn levels_to_play(
    d: &DeviceEntry,
    device: &Device,
    size: (u32, u32),
    cfg: &PlayConfig,
    args: &WatchArgs,
) -> Option<Vec<u32>> {
    let app = device.front_package().ok().flatten();
    let phone = Phone {
        model: &d.model,
        size,
        app: app.as_deref(),
    };
    let usable = check_navigation(cfg, phone, Opening::Levels, &mut |update| {
        if let Update::Note(note) = update {
            print_note(note, args.run.quiet)
        }
    });
    if let Err(e) = usable {
        eprintln!("{}: not playing: {}", d.serial, error_text(&e));
        return None;
    }
    let levels = next_levels(&cfg.data_dir, &d.serial, &args.levels.0);
    if levels.is_empty() {
        eprintln!(
            "{}: every level of {} is played (see `autoplay stats`); nothing to do",
            d.serial, args.levels
        );
        return None;
    }
    eprintln!(
        "{}: ready ({}), playing levels {}",
        d.serial,
        d.model,
        Levels(levels.clone())
    );
    Some(levels)
}

pub fn run(args: &WatchArgs) -> anyhow::Result<i32> {
    let server = args.adb.running_server()?;
    // The levels under way are not interrupted: each runs with its own stop flag (the
    // configuration's), which no signal raises.
    let stop = super::signals::install("stopping after the current level");

    // Device lists from the adb server, on a thread of their own (the read blocks).
    let (tx, rx) = mpsc::channel::<Vec<DeviceEntry>>();
    std::thread::spawn(move || {
        let r = server.track(|list| tx.send(list).is_ok());
        if let Err(e) = r {
            eprintln!("watch: lost the adb server's device list: {e}");
        }
    });
    let multi = MultiProgress::new();
    if args.run.quiet {
        multi.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut fleet = Fleet {
        args,
        cfg: args.calibration.config(&args.run, None, &args.search)?,
        multi,
        workers: HashMap::new(),
        settled: HashSet::new(),
        waiting: HashSet::new(),
    };
    let what = match &args.new_game {
        Some(d) => format!("{} new {d} game(s) each", args.games),
        None => format!("levels {}", args.levels),
    };
    eprintln!("watching for devices ({what}); Ctrl-C or SIGTERM stops after the current level");
    let mut list: Vec<DeviceEntry> = Vec::new();
    let mut next_ask = Instant::now();
    while !stopped(&stop) {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(new) => list = new,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if fleet.waiting.is_empty() || Instant::now() < next_ask {
                    continue;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                anyhow::bail!(
                    "the adb server at {} went away (start it again with `{}`)",
                    server.addr,
                    server.adb_command("start-server")
                )
            }
        }
        next_ask = Instant::now() + ASK_AGAIN;
        fleet.follow(&list, &server, &stop);
    }
    eprintln!("stopping: waiting for the levels being played to end");
    for (_, h) in fleet.workers {
        let _ = h.join();
    }
    Ok(0)
}

/// The devices `watch` plays on, has dealt with, or waits for.
struct Fleet<'a> {
    args: &'a WatchArgs,
    cfg: PlayConfig,
    multi: MultiProgress,
    /// The devices being played on, a thread each.
    workers: HashMap<String, std::thread::JoinHandle<()>>,
    /// Devices already dealt with (nothing to play, not usable, or played): not announced
    /// again until they disappear from the list.
    settled: HashSet<String>,
    /// Devices listed whose screen could not be read yet (a phone still starting): asked again
    /// every ASK_AGAIN, as the adb server sends no new list while a phone starts.
    waiting: HashSet<String>,
}

impl Fleet<'_> {
    /// Follows the adb server's device `list`: forgets the devices gone, and starts playing on
    /// each ready one that is neither played on nor dealt with.
    fn follow(&mut self, list: &[DeviceEntry], server: &Server, stop: &StopFlag) {
        let settled = &mut self.settled;
        self.workers.retain(|serial, h| {
            if h.is_finished() {
                settled.insert(serial.clone());
            }
            !h.is_finished()
        });
        let ready: Vec<&DeviceEntry> = list.iter().filter(|d| d.is_ready()).collect();
        self.settled
            .retain(|serial| ready.iter().any(|d| &d.serial == serial));
        self.waiting
            .retain(|serial| ready.iter().any(|d| &d.serial == serial));
        for d in ready {
            if self.workers.contains_key(&d.serial) || self.settled.contains(&d.serial) {
                continue;
            }
            let device = Device::new(d.serial.clone(), *server);
            let Some(size) = screen_or_wait(&device, &mut self.waiting) else {
                continue;
            };
            if let Some(difficulty) = &self.args.new_game {
                self.start_new_games(d, device, size, difficulty.clone(), stop);
                continue;
            }
            let Some(levels) = levels_to_play(d, &device, size, &self.cfg, self.args) else {
                self.settled.insert(d.serial.clone());
                continue;
            };
            let (cfg, stop, multi, all) = (
                self.cfg.clone(),
                stop.clone(),
                self.multi.clone(),
                self.args.levels.clone(),
            );
            let quiet = self.args.run.quiet;
            let worker = std::thread::spawn(move || {
                work(&device, &cfg, &levels, &all, &stop, &multi, quiet)
            });
            self.workers.insert(d.serial.clone(), worker);
        }
    }
}

impl Fleet<'_> {
    /// Starts playing `--games` new games of `difficulty` on a ready device whose calibration
    /// knows the way to them (else it is dealt with, said why).
    fn start_new_games(
        &mut self,
        d: &DeviceEntry,
        device: Device,
        size: (u32, u32),
        difficulty: String,
        stop: &StopFlag,
    ) {
        let app = device.front_package().ok().flatten();
        let phone = Phone {
            model: &d.model,
            size,
            app: app.as_deref(),
        };
        let quiet = self.args.run.quiet;
        let opening = Opening::NewGame(difficulty.clone());
        let usable = check_navigation(&self.cfg, phone, opening, &mut |update| {
            if let Update::Note(note) = update {
                print_note(note, quiet)
            }
        });
        if let Err(e) = usable {
            eprintln!("{}: not playing: {}", d.serial, error_text(&e));
            self.settled.insert(d.serial.clone());
            return;
        }
        let games = self.args.games;
        eprintln!(
            "{}: ready ({}), playing {games} new {difficulty} game(s)",
            d.serial, d.model
        );
        let cfg = PlayConfig {
            new_game: Some(difficulty),
            ..self.cfg.clone()
        };
        let (stop, multi) = (stop.clone(), self.multi.clone());
        let worker =
            std::thread::spawn(move || new_games(&device, &cfg, games, &stop, &multi, quiet));
        self.workers.insert(d.serial.clone(), worker);
    }
}

/// Plays `games` new games (`cfg.new_game`) in a row until done, stopped, or one fails.
fn new_games(
    device: &Device,
    cfg: &PlayConfig,
    games: u32,
    stop: &StopFlag,
    multi: &MultiProgress,
    quiet: bool,
) {
    let serial = &device.serial;
    let d = cfg.new_game.clone().unwrap_or_default();
    for game in 1..=games {
        if stopped(stop) {
            return;
        }
        let bar = multi.add(progress_bar(quiet, &format!("{serial} {d} {game}")));
        let result = sudoku_autoplay::level::play(device, cfg, &mut updates(&bar, quiet));
        bar.finish_and_clear();
        match result {
            Ok(r) => eprintln!(
                "{serial}: {d} game {game} of {games} solved and verified: {}, {}, {}{}",
                count(r.stats.placements, "placement"),
                count(r.performed.taps, "tap"),
                count(r.performed.repairs, "repair"),
                deadline_note(&r)
            ),
            Err(e) => {
                eprintln!("{serial}: {d} game {game} stopped: {}", error_text(&e));
                return;
            }
        }
    }
}

/// The screen size of `device`, or `None` while it cannot be read (a phone still starting): the
/// device is then `waiting`, said once.
fn screen_or_wait(device: &Device, waiting: &mut HashSet<String>) -> Option<(u32, u32)> {
    match device.screen_size() {
        Ok(size) => {
            waiting.remove(&device.serial);
            Some(size)
        }
        Err(e) => {
            if waiting.insert(device.serial.clone()) {
                eprintln!(
                    "{}: not ready yet ({}); asking again every {} s",
                    device.serial,
                    error_text(&e.into()),
                    ASK_AGAIN.as_secs()
                );
            }
            None
        }
    }
}

/// How often a device whose screen could not be read is asked again.
const ASK_AGAIN: Duration = Duration::from_secs(1);

/// Whether a signal asked watch to stop.
fn stopped(stop: &StopFlag) -> bool {
    stop.check().is_err()
}

/// Plays the device's unplayed `levels` (of `all`) in order until done, stopped, or the device fails.
fn work(
    device: &Device,
    cfg: &PlayConfig,
    levels: &[u32],
    all: &Levels,
    stop: &StopFlag,
    multi: &MultiProgress,
    quiet: bool,
) {
    let serial = &device.serial;
    let mut said = std::collections::HashSet::new();
    for &level in levels {
        if stopped(stop) {
            return;
        }
        // Played meanwhile (by another autoplay on the same data directory)?
        if next_levels(&cfg.data_dir, serial, &[level]).is_empty() {
            continue;
        }
        let bar = multi.add(progress_bar(quiet, &format!("{serial} L{level}")));
        let mut show = updates(&bar, quiet);
        let result = play_or_resume(device, cfg, level, &mut |update| match update {
            Update::Note(note @ Note::Resuming { .. }) => {
                bar.suspend(|| eprintln!("{serial}: {}", super::explain::note(note)))
            }
            // The same calibration is picked (and the same files skipped) for every level:
            // said once per device.
            Update::Note(note @ (Note::Calibration { .. } | Note::SkippedCalibration { .. }))
                if !said.insert(super::explain::note(note)) => {}
            update => show(update),
        });
        bar.finish_and_clear();
        match result {
            Ok(r) => eprintln!(
                "{serial}: level {level} solved and verified: {}, {}, {}, {}{}",
                count(r.stats.placements, "placement"),
                count(r.stats.undos, "undo"),
                count(r.performed.taps, "tap"),
                count(r.performed.repairs, "repair"),
                deadline_note(&r)
            ),
            Err(e) => {
                eprintln!("{serial}: level {level} stopped: {}", error_text(&e));
                return;
            }
        }
    }
    if !stopped(stop) {
        eprintln!("{serial}: every level of {all} is played");
    }
}

/// `; ` and the note of a run whose steps the budget's deadline cut short; nothing otherwise.
fn deadline_note(r: &sudoku_autoplay::level::PlayReport) -> String {
    let measured = r.plan.as_ref().map(|p| p.rate);
    r.performed
        .deadline_cut
        .as_ref()
        .map(|c| format!("; {}", super::explain::deadline_cut(c, measured)))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_lists() {
        assert_eq!(parse_levels("1-3,7,2").unwrap().0, vec![1, 2, 3, 7]);
        assert!(parse_levels("5-1").unwrap_err().contains("backwards"));
        assert!(parse_levels("0").is_err());
        assert!(parse_levels("a-b").is_err());
        assert_eq!(parse_levels("7,1-3,5,6").unwrap().to_string(), "1-3,5-7");
    }
}
