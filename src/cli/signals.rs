//! Ctrl-C and SIGTERM, for every command that runs on a phone: the first raises a
//! [`StopFlag`] (a play sends the batch of taps under way, records its end and says how to
//! resume; `watch` stops after the levels being played), the second exits at once (130 for
//! Ctrl-C, 143 for SIGTERM).

use super::exit;
use std::time::Duration;
use sudoku_autoplay::play::stop::StopFlag;
use tokio::signal::unix::{SignalKind, signal};

/// What the first signal does during a play or a resume.
pub const AFTER_THE_TAPS: &str = "stopping after the taps under way (the session is kept)";

/// Installs the handlers (on a thread of their own; they are in place when this returns) and
/// returns the flag they raise. `first` says what the first signal does, e.g. "stopping after
/// the current level".
pub fn install(first: &str) -> StopFlag {
    let first_says = first.to_string();
    let flag = StopFlag::default();
    let raised = flag.clone();
    let (ready, installed) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            rt.block_on(async move {
                let (Ok(mut int), Ok(mut term)) = (
                    signal(SignalKind::interrupt()),
                    signal(SignalKind::terminate()),
                ) else {
                    return;
                };
                let _ = ready.send(());
                let mut first = true;
                loop {
                    let (signal, name) = tokio::select! {
                        _ = int.recv() => (2, "Ctrl-C"),
                        _ = term.recv() => (15, "SIGTERM"),
                    };
                    if !first {
                        eprintln!("\n{name} again: quitting now");
                        std::process::exit(if signal == 15 {
                            exit::SIGTERM
                        } else {
                            exit::SIGINT
                        });
                    }
                    first = false;
                    eprintln!("\n{name}: {first_says}; {name} again quits at once");
                    raised.raise(signal);
                }
            });
        });
    if spawned.is_ok() {
        let _ = installed.recv_timeout(Duration::from_secs(2));
    }
    flag
}
