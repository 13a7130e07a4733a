//! A newcomer's first hour (issue 34), end to end through a private real adb server, from a
//! directory outside the checkout with a fresh HOME (an empty config directory): `autoplay
//! calibrate` then `autoplay --level N`; a second app on a phone of the same model (`autoplay
//! sim --package NAME` with the other input order) keeps its own calibration file, each play
//! picks its own, calibrating again says it replaces the file, and a play on a calibration the
//! app's rules no longer match stops early naming the file; a phone killed mid-run and
//! restarted on its port is finished by the `resume` command exactly as printed.

use crate::common::{AdbServer, Out, autoplay_in_home, free_port, sim_calibrations};
use crate::common::{run_with_timeout, wait_or_kill};
use autoplay_sim::app::{ACTIVITY, PACKAGE};
use autoplay_sim::{SimConfig, profile, spawn, spawn_on};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use sudoku_autoplay::session::{SessionMeta, read_runs};

/// The second app's package.
const OTHER: &str = "com.other.sudoku";

/// A user with a fresh home, working in a directory outside the checkout.
struct User {
    home: tempfile::TempDir,
    cwd: tempfile::TempDir,
    adb: AdbServer,
}

impl User {
    fn new() -> User {
        User {
            home: tempfile::tempdir().unwrap(),
            cwd: tempfile::tempdir().unwrap(),
            adb: AdbServer::start(),
        }
    }

    /// `autoplay ARGS -P PORT` as this user types it, in their working directory.
    fn autoplay(&self, args: &[&str]) -> Out {
        let mut cmd = autoplay_in_home(self.home.path());
        cmd.current_dir(self.cwd.path())
            .args(args)
            .args(["-P", &self.adb.port.to_string()]);
        let out = run_with_timeout(cmd, b"", Duration::from_secs(180));
        println!("autoplay {}: exit {}", args.join(" "), out.code());
        out
    }

    /// `calibrate` on `serial`, with level 1 opened first (as the user opens a level).
    fn calibrate(&self, serial: &str, package: &str) -> String {
        let open = format!("am start -n {package}/{ACTIVITY} --ei level 1");
        self.adb.on(serial, &["shell", &open]);
        let out = self.autoplay(&["calibrate", "-s", serial]);
        assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
        out.text()
    }

    fn calibrations(&self) -> PathBuf {
        self.home.path().join(".config/sudoku-autoplay/calibration")
    }

    fn data(&self) -> PathBuf {
        self.home.path().join(".local/share/sudoku-autoplay")
    }

    /// The calibration the last run recorded in its session.
    fn last_calibration(&self) -> String {
        let sessions = self.data().join("sessions");
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(sessions)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        dirs.sort();
        SessionMeta::load(dirs.last().unwrap()).unwrap().calibration
    }
}

/// `autoplay sim` run as a user runs it, killed on drop.
struct SimProcess(Child);

impl SimProcess {
    fn start(port: u16, args: &[&str]) -> SimProcess {
        let child = Command::new(env!("CARGO_BIN_EXE_autoplay"))
            .args(["sim", "--listen", &format!("127.0.0.1:{port}")])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "autoplay sim did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        SimProcess(child)
    }
}

impl Drop for SimProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The phone's own state, through adb.
fn dumpsys(adb: &AdbServer, serial: &str) -> serde_json::Value {
    let out = adb.on(serial, &["shell", "dumpsys", "sudoku"]);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.text()))
}

fn pixel() -> SimConfig {
    SimConfig::new(profile::profile("pixel").unwrap().clone())
}

#[test]
fn calibrate_then_play_from_anywhere_with_one_file_per_app() {
    let user = User::new();
    let first = spawn(pixel()).unwrap();
    let first_serial = first.serial();
    user.adb.connect(&first_serial);
    let other_port = free_port();
    let other_serial = format!("127.0.0.1:{other_port}");
    let other = SimProcess::start(
        other_port,
        &["--package", OTHER, "--input-order", "digit-first"],
    );
    user.adb.connect(&other_serial);

    let first_file = first_app(&user, &first);

    // The second app, on a phone of the same model: its own file, the first one kept.
    let said = user.calibrate(&other_serial, OTHER);
    let other_file = user.calibrations().join(format!("Pixel_7-{OTHER}.toml"));
    assert!(
        said.contains(&format!("wrote {}", other_file.display())),
        "{said}"
    );
    assert!(!said.contains("replacing"), "{said}");
    assert!(first_file.exists());
    let toml = std::fs::read_to_string(&other_file).unwrap();
    assert!(
        toml.contains("mode = \"digit-first\"") && toml.contains(OTHER),
        "{toml}"
    );

    // Each play picks the file of the app in front.
    let out = user.autoplay(&["-s", &other_serial, "--level", "2", "--pace", "0", "-q"]);
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    assert_eq!(dumpsys(&user.adb, &other_serial)["solved"], true);
    assert_eq!(user.last_calibration(), other_file.display().to_string());
    let out = user.autoplay(&["-s", &first_serial, "--level", "2", "--pace", "0", "-q"]);
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    assert_eq!(user.last_calibration(), first_file.display().to_string());
    assert_eq!(
        read_runs(&user.data().join("runs.csv")).unwrap().len(),
        3,
        "every run recorded in the data directory"
    );

    // Calibrating an app again says it replaces its file.
    let said = user.calibrate(&first_serial, PACKAGE);
    assert!(
        said.contains(&format!("replacing {}", first_file.display())),
        "{said}"
    );

    // The second app's rules change (an update: cell first now): a play on its calibration
    // stops early, naming the file to calibrate again.
    drop(other);
    an_updated_app_stops_early(&user, other_port, &other_file);
    assert_eq!(
        std::fs::read_dir(user.cwd.path()).unwrap().count(),
        0,
        "nothing written into the working directory"
    );
}

/// The first app: calibrate, then --level 12 opens the level from the list calibrate found.
/// Its calibration file.
fn first_app(user: &User, first: &autoplay_sim::SimHandle) -> PathBuf {
    let first_serial = first.serial();
    let said = user.calibrate(&first_serial, PACKAGE);
    let first_file = user.calibrations().join(format!("Pixel_7-{PACKAGE}.toml"));
    assert!(
        said.contains(&format!("wrote {}", first_file.display())),
        "{said}"
    );
    assert!(
        said.contains("--level N opens levels from the app's level list"),
        "{said}"
    );
    let out = user.autoplay(&["-s", &first_serial, "--level", "12", "--pace", "0", "-q"]);
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    let state = first.dumpsys();
    assert_eq!(
        (&state["level"], &state["solved"]),
        (&12.into(), &true.into()),
        "{state}"
    );
    assert_eq!(user.last_calibration(), first_file.display().to_string());

    first_file
}

/// After an update changed the app's rules (the simulated phone on `port` started again, cell
/// first now), a play on its calibration `file` stops early, naming the file.
fn an_updated_app_stops_early(user: &User, port: u16, file: &std::path::Path) {
    let serial = format!("127.0.0.1:{port}");
    let _other = SimProcess::start(port, &["--package", OTHER]);
    user.adb.connect(&serial);
    let started = Instant::now();
    let out = user.autoplay(&["-s", &serial, "--level", "5", "--pace", "0", "-q"]);
    let took = started.elapsed();
    assert_eq!(out.code(), 1, "{}\n{}", out.text(), out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "the taps do not do on the screen what the calibration {} says they do",
            file.display()
        )) && out.stderr.contains("calibrate it again"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("after 1 repair round without progress"),
        "it stopped at the first round that showed it: {}",
        out.stderr
    );
    // Generous for a loaded machine: the stop itself is after about 100 taps and one round.
    assert!(took < Duration::from_secs(60), "{took:?}");
}

#[test]
fn a_killed_phone_restarted_on_its_port_is_finished_by_the_printed_resume() {
    let data = tempfile::tempdir().unwrap();
    let adb = AdbServer::start();
    let sim = spawn(pixel()).unwrap();
    let addr = sim.addr();
    adb.connect(&sim.serial());
    let mut run = crate::common::autoplay_command()
        .args(["--level", "12", "--reconnect-timeout", "2", "--pace", "1"])
        .args(["-s", &sim.serial(), "-P", &adb.port.to_string()])
        .arg("--calibration-dir")
        .arg(sim_calibrations())
        .arg("--data-dir")
        .arg(data.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while sim.dumpsys()["taps"].as_u64().unwrap() < 200 {
        assert!(Instant::now() < deadline, "the run did not start");
        assert!(
            run.try_wait().unwrap().is_none(),
            "the run ended before 200 taps"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(sim);
    let status = wait_or_kill(&mut run, Duration::from_secs(60), "the run");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut run.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(4), "{stderr}");
    let printed = stderr
        .lines()
        .find_map(|l| l.strip_prefix("to continue: "))
        .unwrap_or_else(|| panic!("no resume command: {stderr}"));
    assert!(printed.contains(" --pace 1 "), "{printed}");

    // The phone comes back on the same port, the adb server not told: the printed command,
    // word for word, connects it again and finishes the level.
    let sim = spawn_on(addr, pixel()).unwrap();
    let words: Vec<&str> = printed.split_whitespace().collect();
    assert_eq!(words[0], "autoplay");
    let mut cmd = crate::common::autoplay_command();
    cmd.args(&words[1..]);
    let out = run_with_timeout(cmd, b"", Duration::from_secs(180));
    assert_eq!(out.code(), 0, "{printed}\n{}\n{}", out.text(), out.stderr);
    let state = sim.dumpsys();
    assert_eq!(
        (&state["level"], &state["solved"]),
        (&12.into(), &true.into()),
        "{state}"
    );
    assert!(
        out.text().contains("resumed and verified"),
        "{}",
        out.text()
    );

    // `resume --budget` is an option of resume (the session is solved: nothing to resume).
    let mut cmd = crate::common::autoplay_command();
    cmd.args(&words[1..]).args(["--budget", "1s"]);
    let out = run_with_timeout(cmd, b"", Duration::from_secs(60));
    assert_eq!(out.code(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("already solved"), "{}", out.stderr);
}

/// The commands `autoplay --help` lists, each with the description it gives (its lines joined).
fn listed_commands() -> Vec<(String, String)> {
    let help = crate::common::text(&crate::common::autoplay(&["--help"], b"").stdout);
    let list = help
        .split("Commands:\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or("");
    let mut commands: Vec<(String, String)> = Vec::new();
    for line in list.lines() {
        let continued = line.starts_with("    ");
        match (continued, commands.last_mut()) {
            (true, Some((_, text))) => text.push_str(&format!(" {}", line.trim())),
            _ => {
                let (name, text) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
                commands.push((name.to_string(), text.trim().to_string()));
            }
        }
    }
    commands.retain(|(name, _)| name != "help");
    commands
}

#[test]
fn every_commands_help_begins_with_what_the_command_does() {
    let commands = listed_commands();
    assert!(commands.len() >= 11, "{commands:?}");
    for (name, listed) in commands {
        let help = crate::common::text(&crate::common::autoplay(&[&name, "--help"], b"").stdout);
        let first: Vec<&str> = help
            .split("\n\n")
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let listed: Vec<&str> = listed.split_whitespace().collect();
        assert_eq!(first, listed, "`autoplay {name} --help` begins:\n{help}");
    }
}
