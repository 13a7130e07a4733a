//! Ctrl-C and SIGTERM during a run: the first raises the run's [`StopFlag`] (the run sends the
//! batch of taps under way, records its end and says how to resume), the second exits at once.

use crate::play::stop::{StopFlag, exit};

/// Installs the handlers (on a thread of their own) and returns the flag they raise.
pub fn install() -> StopFlag {
    let flag = StopFlag::default();
    let raised = flag.clone();
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            rt.block_on(async move {
                let Ok(mut term) =
                    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                else {
                    return;
                };
                let mut first = true;
                loop {
                    let (signal, name) = tokio::select! {
                        r = tokio::signal::ctrl_c() => match r {
                            Ok(()) => (2, "Ctrl-C"),
                            Err(_) => return,
                        },
                        _ = term.recv() => (15, "SIGTERM"),
                    };
                    if !first {
                        eprintln!("\n{name} again: quitting now");
                        std::process::exit(if signal == 15 { exit::SIGTERM } else { exit::SIGINT });
                    }
                    first = false;
                    eprintln!(
                        "\n{name}: stopping after the taps under way (the session is kept; {name} again quits at once)"
                    );
                    raised.raise(signal);
                }
            });
        })
        .ok();
    flag
}
