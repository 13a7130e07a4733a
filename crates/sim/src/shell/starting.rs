//! A phone still starting (`--starting-ms`): adbd answers as soon as it runs, before the system
//! server has published its services, so a host that finds the phone early (just plugged in,
//! or rebooting) reaches a shell whose window manager is not there yet.
//!
//! For that while `getprop sys.boot_completed` is empty, `dumpsys window` (and `input`, `power`)
//! says `Can't find service: window` and `wm` fails: from Android 10, where `wm` is `cmd window`,
//! with `cmd`'s `cmd: Can't find service: window` and status 20 (AOSP
//! `frameworks/native/cmds/cmd/cmd.cpp`; an Android 13 report: jarhot1992/Remote-ADB#141); before,
//! `wm`'s own program throws "Can't connect to window manager; is the system running?" after
//! printing `Error type 2` (`com.android.commands.wm.Wm.onRun`, as remote-android/redroid-doc#687
//! shows it). The other commands run as usual: the player asks for the screen first.

use super::device::Handset;
use super::output::Output;

/// What a command the system server answers prints while the phone is starting, and its
/// status; `None` when it runs as usual (the phone is up, or the command needs no service).
pub fn refused(device: &Handset, name: &str, args: &[String], out: &mut Output) -> Option<i32> {
    if device.system_up() {
        return None;
    }
    match (name, args.first().map(String::as_str)) {
        ("wm", _) if device.profile().sdk >= 29 => {
            out.err("cmd: Can't find service: window\n");
            Some(20)
        }
        ("wm", _) => {
            out.err(
                "Error type 2\nandroid.util.AndroidException: Can't connect to window manager; is \
                 the system running?\n        at com.android.commands.wm.Wm.onRun(Wm.java:90)\n\
                 \x20       at com.android.internal.os.BaseCommand.run(BaseCommand.java:54)\n\
                 \x20       at com.android.commands.wm.Wm.main(Wm.java:53)\n",
            );
            // The report does not show the status; any but 0 (an uncaught exception).
            Some(1)
        }
        ("dumpsys", Some(service @ ("window" | "input" | "power"))) => {
            out.err(format!("Can't find service: {service}\n"));
            Some(1)
        }
        _ => None,
    }
}
