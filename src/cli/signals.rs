//! Ctrl-C and SIGTERM during a run: the first raises the run's [`StopFlag`] (the run sends the
//! batch of taps under way, records its end and says how to resume), the second exits at once.

use std::time::Duration;
use sudoku_autoplay::play::stop::{StopFlag, exit};
use tokio::signal::unix::{SignalKind, signal};

/// Installs the handlers (on a thread of their own; they are in place when this returns) and
/// returns the flag they raise.
pub fn install() -> StopFlag {
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
                    eprintln!(
                        "\n{name}: stopping after the taps under way (the session is kept; {name} again quits at once)"
                    );
                    raised.raise(signal);
                }
            });
        });
    if spawned.is_ok() {
        let _ = installed.recv_timeout(Duration::from_secs(2));
    }
    flag
}
