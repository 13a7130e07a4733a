//! Log output on stderr: the library's `tracing` events, filtered by `-v` / `-vv` and `RUST_LOG`.
//!
//! Without either, only warnings of this program are shown (it emits none in a normal run), so
//! nothing changes for a user who asks for nothing. `-v` shows debug events of this program
//! (and warnings of the libraries it uses), `-vv` trace events (and their info). `RUST_LOG`
//! (e.g. `RUST_LOG=sudoku_autoplay::vision=trace`) replaces that default; `-v` adds to it.

use std::io::IsTerminal;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// The crates whose events `-v` turns up: the library and this binary.
const OURS: [&str; 2] = ["sudoku_autoplay", "autoplay"];

/// The filter for `verbose` (`-v` count) and `rust_log` (the environment variable's value:
/// `target=level` directives and a default level, comma-separated, as `env_logger` takes them;
/// span and field filters are not read).
fn filter(verbose: u8, rust_log: Option<&str>) -> Result<Targets, String> {
    let (ours, others) = match verbose {
        0 => ("warn", "off"),
        1 => ("debug", "warn"),
        _ => ("trace", "info"),
    };
    let rust_log = rust_log.map(str::trim).filter(|s| !s.is_empty());
    let mut filter = match rust_log {
        Some(s) => s
            .parse::<Targets>()
            .map_err(|e| format!("RUST_LOG={s:?} is not a log filter: {e}"))?,
        None => others
            .parse::<Targets>()
            .map_err(|e| format!("internal: {e}"))?,
    };
    if verbose > 0 || rust_log.is_none() {
        let ours: tracing::level_filters::LevelFilter =
            ours.parse().map_err(|e| format!("internal: {e}"))?;
        for krate in OURS {
            filter = filter.with_target(krate, ours);
        }
    }
    Ok(filter)
}

/// Sends events to stderr (colours on a terminal only). A `RUST_LOG` that does not parse is
/// said once and ignored.
pub fn init(verbose: u8) {
    let rust_log = std::env::var("RUST_LOG").ok();
    let filter = filter(verbose, rust_log.as_deref()).unwrap_or_else(|e| {
        eprintln!("warning: {e}; ignoring it");
        filter(verbose, None).unwrap_or_default()
    });
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(std::io::stderr().is_terminal()),
        )
        .with(filter)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::filter;
    use tracing::Level;
    use tracing::level_filters::LevelFilter;

    /// The most verbose level the filter lets through, for any target.
    fn max(verbose: u8, rust_log: Option<&str>) -> Option<Level> {
        let f = filter(verbose, rust_log).unwrap();
        let default = f.default_level().unwrap_or(LevelFilter::OFF);
        f.iter()
            .map(|(_, level)| level)
            .fold(default, Ord::max)
            .into_level()
    }

    #[test]
    fn verbosity_sets_the_level() {
        assert_eq!(max(0, None), Some(Level::WARN));
        assert_eq!(max(1, None), Some(Level::DEBUG));
        assert_eq!(max(2, None), Some(Level::TRACE));
    }

    #[test]
    fn rust_log_replaces_the_default_and_v_adds_to_it() {
        assert_eq!(
            max(0, Some("sudoku_autoplay::vision=trace")),
            Some(Level::TRACE)
        );
        assert_eq!(max(0, Some("  ")), Some(Level::WARN));
        assert_eq!(max(1, Some("error")), Some(Level::DEBUG));
        assert!(filter(0, Some("sudoku_autoplay=loud")).is_err());
    }
}
