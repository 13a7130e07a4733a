//! Where calibrations and data live: the user's config and data directories (a temporary HOME
//! here, with XDG_CONFIG_HOME / XDG_DATA_HOME under it), `./calibration` when run in the
//! repository, and the overrides (`--calibration-dir`, `--data-dir`, AUTOPLAY_CALIBRATION_DIR,
//! AUTOPLAY_DATA).

use crate::common::{AdbServer, autoplay_in_home, run_with_timeout};
use autoplay_sim::{SimConfig, profile, spawn};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use sudoku_autoplay::session::{SessionMeta, read_runs};

const SHOT: &str = "screenshots/sim/pixel-light-row.png";

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn config_dir(home: &Path) -> PathBuf {
    home.join(".config/sudoku-autoplay/calibration")
}

fn data_dir(home: &Path) -> PathBuf {
    home.join(".local/share/sudoku-autoplay")
}

fn run(cmd: Command) -> crate::common::Out {
    run_with_timeout(cmd, b"", Duration::from_secs(180))
}

#[test]
fn calibrate_writes_into_the_config_directory_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let mut cmd = autoplay_in_home(home.path());
    cmd.current_dir(elsewhere.path())
        .args(["calibrate", "--screenshot"])
        .arg(repo(SHOT));
    let out = run(cmd);
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    let written = config_dir(home.path()).join("pixel-light-row.toml");
    assert!(written.exists(), "{}", out.text());
    let text = out.text();
    assert!(
        text.contains(&format!("wrote {}", written.display())),
        "{text}"
    );
    assert!(
        text.contains("autoplay finds it there from any directory"),
        "{text}"
    );
    // Nothing was scattered in the current directory.
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);

    // AUTOPLAY_CALIBRATION_DIR overrides the default, and --out beats both.
    let mine = elsewhere.path().join("mine");
    let mut cmd = autoplay_in_home(home.path());
    cmd.current_dir(elsewhere.path())
        .env("AUTOPLAY_CALIBRATION_DIR", &mine)
        .args(["calibrate", "--screenshot"])
        .arg(repo(SHOT));
    let out = run(cmd);
    assert_eq!(out.code(), 0, "{}", out.stderr);
    assert!(mine.join("pixel-light-row.toml").exists(), "{}", out.text());
    assert!(
        out.text()
            .contains("while --calibration-dir (or AUTOPLAY_CALIBRATION_DIR) names that directory"),
        "{}",
        out.text()
    );
    let file = elsewhere.path().join("loose.toml");
    let mut cmd = autoplay_in_home(home.path());
    cmd.current_dir(elsewhere.path())
        .env("AUTOPLAY_CALIBRATION_DIR", &mine)
        .args(["calibrate", "--screenshot"])
        .arg(repo(SHOT))
        .arg("--out")
        .arg(&file);
    let out = run(cmd);
    assert_eq!(out.code(), 0, "{}", out.stderr);
    assert!(file.exists());
    assert!(
        out.text()
            .contains(&format!("play with --calibration {}", file.display())),
        "{}",
        out.text()
    );
}

#[test]
fn help_names_the_default_directories() {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = autoplay_in_home(home.path());
    cmd.arg("--help");
    let help = run(cmd).text();
    let one_line = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for needle in [
        format!(
            "[default: ./calibration if it exists, and {}]",
            config_dir(home.path()).display()
        ),
        format!("[default: {}]", data_dir(home.path()).display()),
        "AUTOPLAY_CALIBRATION_DIR".into(),
        "AUTOPLAY_DATA".into(),
    ] {
        assert!(one_line.contains(&needle), "{needle} in {help}");
    }
}

#[test]
fn stats_reads_the_data_directory_and_its_overrides() {
    let home = tempfile::tempdir().unwrap();
    let stats = |env: Option<&Path>, arg: Option<&Path>| {
        let mut cmd = autoplay_in_home(home.path());
        cmd.arg("stats");
        if let Some(dir) = env {
            cmd.env("AUTOPLAY_DATA", dir);
        }
        if let Some(dir) = arg {
            cmd.arg("--data-dir").arg(dir);
        }
        run(cmd).stderr
    };
    let (env, arg) = (home.path().join("env"), home.path().join("arg"));
    let missing = |dir: &Path| format!("{} does not exist", dir.join("runs.csv").display());
    assert!(stats(None, None).contains(&missing(&data_dir(home.path()))));
    assert!(stats(Some(&env), None).contains(&missing(&env)));
    assert!(stats(Some(&env), Some(&arg)).contains(&missing(&arg)));
}

/// `data` holds one run and one session, played with the calibration file `calibration`.
fn recorded_once_with(data: &Path, calibration: &str) {
    assert_eq!(read_runs(&data.join("runs.csv")).unwrap().len(), 1);
    let sessions: Vec<PathBuf> = std::fs::read_dir(data.join("sessions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(sessions.len(), 1);
    let meta = SessionMeta::load(&sessions[0]).unwrap();
    assert!(meta.calibration.ends_with(calibration), "{meta:?}");
}

/// A home directory whose config directory holds the simulated Pixel's calibration as `name`.
fn home_with_calibration(name: &str) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(config_dir(home.path())).unwrap();
    std::fs::copy(
        repo("calibration/sim-pixel.toml"),
        config_dir(home.path()).join(name),
    )
    .unwrap();
    home
}

/// A calibration made into the config directory is found from any current directory, and the
/// run is recorded in the data directory; in the repository, `./calibration` is read as well.
#[test]
fn a_run_from_another_directory_finds_the_config_calibration() {
    let home = home_with_calibration("my-pixel.toml");
    let cwd = tempfile::tempdir().unwrap();
    let sim = spawn(SimConfig::new(profile::profile("pixel").unwrap().clone())).unwrap();
    let serial = sim.serial();
    let adb = AdbServer::start();
    adb.connect(&serial);
    let port = adb.addr().port().to_string();
    let autoplay = |dir: &Path, args: &[&str]| {
        let mut cmd = autoplay_in_home(home.path());
        cmd.current_dir(dir).args(args).args(["-P", &port]);
        run(cmd)
    };

    let out = autoplay(
        cwd.path(),
        &["--level", "3", "--pace", "0", "--quiet", "-s", &serial],
    );
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    assert_eq!(sim.dumpsys()["solved"], true);
    recorded_once_with(&data_dir(home.path()), "my-pixel.toml");
    assert_eq!(
        std::fs::read_dir(cwd.path()).unwrap().count(),
        0,
        "nothing scattered"
    );

    // In the repository, both directories are searched, and the choice names them.
    let out = autoplay(&repo(""), &["devices"]);
    assert_eq!(out.code(), 0, "{}\n{}", out.text(), out.stderr);
    let text = out.text();
    assert!(
        text.contains(&format!(
            "in {} and {}",
            repo("calibration").display(),
            config_dir(home.path()).display()
        )),
        "{text}"
    );
    assert!(
        text.contains("my-pixel.toml (later in the search path)"),
        "{text}"
    );

    // --calibration-dir replaces both: an empty one finds nothing, and says where it looked.
    let empty = cwd.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let dir = empty.to_str().unwrap();
    let out = autoplay(
        &repo(""),
        &["--quiet", "-s", &serial, "--calibration-dir", dir],
    );
    assert_eq!(out.code(), 1, "{}\n{}", out.text(), out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "no calibration for org.autoplay.sudoku on Pixel_7 at 1080x2400 in {}:",
            empty.display()
        )),
        "{}",
        out.stderr
    );
}
