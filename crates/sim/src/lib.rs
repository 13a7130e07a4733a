//! The simulated phone: an Android device running a Sudoku app, reachable over the real ADB
//! transport protocol (so the real `adb` server can `adb connect` to it).
//!
//! Layout (like tokio's mini-redis): `adb` turns bytes into packets and streams, `shell` runs the
//! commands a host sends, and `app` is the phone's state and screen, independent of the protocol.
//! It is a crate of its own and uses only the player library's public API (the board, the ADB
//! packet codec, the `fast` solver for its levels, number formatting): what the player does
//! inside stays invisible to it, and it cannot shape itself to the player.
//!
//! In-process use (e.g. `autoplay demo`, tests):
//! ```no_run
//! use autoplay_sim::{SimConfig, spawn};
//! let sim = spawn(SimConfig::new(autoplay_sim::profile::profile("pixel").unwrap().clone()))?;
//! println!("adb connect {}", sim.addr());
//! # Ok::<(), anyhow::Error>(())
//! ```

pub mod adb;
pub mod android;
pub mod app;
pub mod dispatch;
pub mod profile;
pub mod shell;
pub mod timing;
pub mod video;

use adb::auth::{KeyStore, NewKeys};
use adb::session::{self, Shared};
use app::{AppOptions, Phone};
use profile::Profile;
pub use shell::Stall;
use shell::{Handset, Knobs};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// ADB authentication settings (`--auth`).
#[derive(Debug, Clone)]
pub struct AuthConfig {
    /// Trusted keys in Android's `adb_keys` format; accepted new keys are appended.
    pub keys_file: Option<PathBuf>,
    /// Accept an unknown host key the first time ("always allow") or deny it.
    pub new_keys: NewKeys,
}

/// Everything that defines a simulated phone.
#[derive(Debug, Clone)]
pub struct SimConfig {
    pub profile: Profile,
    pub app: AppOptions,
    /// Extra time one `input` command takes (on top of the timing model's).
    pub input_latency: Duration,
    /// Whether the phone's work costs time (`--timing`).
    pub timing: timing::TimingMode,
    /// Drop the TCP connection after this many shell commands (once).
    pub disconnect_after: Option<u64>,
    /// `None`: no authentication (like `ro.adb.secure=0`).
    pub auth: Option<AuthConfig>,
    /// A userdebug phone after `adb root`: the shell may write `/dev/input` on any Android
    /// version (stock phones from Android 10 on refuse it).
    pub adb_root: bool,
    /// Xiaomi (MIUI, HyperOS), Honor and others before "USB debugging (Security settings)" is
    /// on and the phone rebooted: the shell may not inject input. From Android 13 `input` and
    /// the injector get a SecurityException; before, the injector's events are answered and
    /// dropped (a line in `logcat`), `input` prints the exception (`shell::refusal`).
    pub inject_denied: bool,
    /// Canned answers: a shell command line starting with the prefix prints the bytes
    /// instead of running (a user's phone's output replayed against the player).
    pub shell_outputs: Vec<(String, Vec<u8>)>,
    /// A busy phone: some reads of a host's stream come late (see [`Stall`]).
    pub stream_stall: Option<Stall>,
    /// A phone still starting: for this long after it listens, its system server is not up
    /// (`shell::starting`).
    pub starting: Duration,
}

impl SimConfig {
    /// A phone with the given profile, default app options and no realism knobs.
    pub fn new(profile: Profile) -> SimConfig {
        SimConfig {
            profile,
            app: AppOptions::default(),
            input_latency: Duration::ZERO,
            timing: timing::TimingMode::Instant,
            disconnect_after: None,
            auth: None,
            adb_root: false,
            inject_denied: false,
            shell_outputs: Vec::new(),
            stream_stall: None,
            starting: Duration::ZERO,
        }
    }
}

/// A running phone's shared state, built from a config.
fn build(config: SimConfig) -> anyhow::Result<Arc<Shared>> {
    let keys = match &config.auth {
        Some(a) => Some(Mutex::new(KeyStore::load(
            a.keys_file.as_deref(),
            a.new_keys,
        )?)),
        None => None,
    };
    let knobs = Knobs {
        input_latency: config.input_latency,
        disconnect_after: config.disconnect_after,
        timing: config.timing,
        adb_root: config.adb_root,
        inject_denied: config.inject_denied,
        shell_outputs: config.shell_outputs,
        stream_stall: config.stream_stall,
        starting: config.starting,
    };
    let device = Arc::new(Handset::new(Phone::new(config.profile, config.app), knobs));
    Ok(Arc::new(Shared {
        device,
        keys,
        connections: AtomicU64::new(0),
    }))
}

/// Serves ADB connections on `listener` forever (each connection on its own task).
pub async fn serve(listener: tokio::net::TcpListener, config: SimConfig) -> anyhow::Result<()> {
    let shared = build(config)?;
    accept_loop(listener, shared).await
}

async fn accept_loop(listener: tokio::net::TcpListener, shared: Arc<Shared>) -> anyhow::Result<()> {
    loop {
        let (socket, _) = match listener.accept().await {
            Ok(s) => s,
            Err(e) => {
                // Transient (e.g. too many open files): keep listening.
                tracing::warn!("sim: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        shared.connections.fetch_add(1, Ordering::SeqCst);
        tokio::spawn(session::serve(socket, shared.clone()));
    }
}

/// A phone running on its own thread; stopped when dropped.
pub struct SimHandle {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl SimHandle {
    /// The address the phone listens on (`adb connect` it).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `host:port` serial the adb server will list.
    pub fn serial(&self) -> String {
        self.addr.to_string()
    }

    /// The app's state (`dumpsys sudoku`), read directly.
    pub fn dumpsys(&self) -> serde_json::Value {
        self.shared.device.phone().dumpsys()
    }

    /// Shell commands executed so far.
    pub fn commands_run(&self) -> u64 {
        self.shared.device.commands_run()
    }

    /// A file on the phone (what the player pushed), if there is one.
    pub fn file(&self, path: &str) -> Option<Vec<u8>> {
        self.shared.device.file(path)
    }

    /// Puts a file on the phone (as an earlier push would have).
    pub fn put_file(&self, path: &str, bytes: Vec<u8>) -> Result<(), String> {
        self.shared.device.write_file(path, bytes)
    }

    /// TCP connections accepted so far (a reconnect adds one).
    pub fn connections(&self) -> u64 {
        self.shared.connections.load(Ordering::SeqCst)
    }
}

impl Drop for SimHandle {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Starts a phone on a free loopback port (127.0.0.1:0) on a background thread.
pub fn spawn(config: SimConfig) -> anyhow::Result<SimHandle> {
    spawn_on(SocketAddr::from(([127, 0, 0, 1], 0)), config)
}

/// Starts a phone on `addr` on a background thread with its own runtime.
pub fn spawn_on(addr: SocketAddr, config: SimConfig) -> anyhow::Result<SimHandle> {
    let shared = build(config)?;
    let handle_shared = shared.clone();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("sim")
        .enable_all()
        .build()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind(addr))?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("sim".into())
        .spawn(move || {
            runtime.block_on(async move {
                tokio::select! {
                    r = accept_loop(listener, shared) => {
                        if let Err(e) = r {
                            tracing::error!("sim: {e:#}");
                        }
                    }
                    _ = stopped => {}
                }
            });
            runtime.shutdown_timeout(Duration::from_secs(1));
        })?;
    Ok(SimHandle {
        addr,
        shared: handle_shared,
        stop: Some(stop),
        thread: Some(thread),
    })
}
