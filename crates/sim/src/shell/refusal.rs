//! A phone that refuses injected input (`--inject-denied`): Xiaomi (MIUI, HyperOS), Honor and
//! others before the user turns on "USB debugging (Security settings)" and reboots, where the
//! shell user lacks `INJECT_EVENTS`. How the refusal shows depends on the Android version:
//!
//! - Up to Android 12 (API 32) the input dispatcher checks the permission only when it
//!   dispatches an event to a window (AOSP `frameworks/native` `InputDispatcher.cpp`,
//!   `checkInjectionPermission`): the event is dropped and the dispatcher logs `Permission
//!   denied: injecting event from pid P uid 2000 to window W owned by uid U`. An asynchronous
//!   injection (`INJECT_INPUT_EVENT_MODE_ASYNC`, the tap injector's) has already been answered
//!   `true`: nothing tells the injector (scrcpy issue 3417, MIUI 13 on Android 12: "Error
//!   message not found"). A synchronous one (`input`, `WAIT_FOR_FINISH`) gets
//!   `PERMISSION_DENIED` back, and `InputManagerService.injectInputEventInternal` logs
//!   `Input event injection from pid P permission denied.` and throws `SecurityException:
//!   Injecting to another application requires INJECT_EVENTS permission`.
//! - Events the system's policy takes before any window (the wake, sleep and power keys, HOME;
//!   touches while the display is off) never reach that check: they are dropped as
//!   `DropReason::POLICY`, which counts as `SUCCEEDED` (`InputDispatcher::dispatchKeyLocked`,
//!   `dispatchMotionLocked`), so they work.
//! - From Android 13 (API 33) `InputManagerService.injectInputEventToTarget` checks the
//!   permission before it queues anything and throws `Injecting input events requires the
//!   caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS
//!   permission.`, whatever the mode and the event (scrcpy issues 3764, 4387).

use super::device::Handset;
use super::log::{self, Buffer, Entry};
use crate::android::{SDK_CMD_INPUT, SDK_INJECT_CHECKED_ON_ENTRY};

/// The refusal from Android 13 on (scrcpy #4387, #5778; AutoX #1216, Android 14).
pub const DENIED: &str = "java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.";
/// The same refusal before Android 13 (tests/data/android/input-errors).
pub const DENIED_OLD: &str = "java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission";

/// The refusal's wording on API level `sdk`.
pub fn denied(sdk: u32) -> &'static str {
    if sdk >= SDK_INJECT_CHECKED_ON_ENTRY {
        DENIED
    } else {
        DENIED_OLD
    }
}

/// Whether the refusal throws before anything is queued (Android 13 and later).
pub fn on_entry(sdk: u32) -> bool {
    sdk >= SDK_INJECT_CHECKED_ON_ENTRY
}

/// The uid Android gave an app (its data directory's owner): one per package, 10000 and up.
pub fn app_uid(package: &str) -> u32 {
    10_100 + package.bytes().map(u32::from).sum::<u32>() % 900
}

/// The window a touch would reach now and its owner's uid: the window with focus.
fn target(device: &Handset) -> (String, u32) {
    let focus = device.phone().focus();
    let package = match focus.split_once('/') {
        Some((package, _)) => package.to_string(),
        None => crate::app::hazards::SYSTEMUI_PACKAGE.to_string(),
    };
    (format!("5a1c0de {focus}"), app_uid(&package))
}

/// The dispatcher drops an event injected by process `pid` (uid 2000, the shell) before
/// Android 13, and logs it.
pub fn dropped_at_dispatch(device: &Handset, pid: u32) {
    let (window, owner) = target(device);
    device.log().write(Entry {
        buffer: Buffer::Main,
        pid: log::SYSTEM_SERVER,
        tid: log::INPUT_DISPATCHER_TID,
        priority: 'W',
        tag: "InputDispatcher",
        message: format!(
            "Permission denied: injecting event from pid {pid} uid 2000 to window {window} owned by uid {owner}"
        ),
    });
}

/// What `input` prints when a synchronous injection is refused (the dispatcher's line and
/// `InputManagerService`'s go to the log first, before Android 13), and its exit status.
/// `word` is `input`'s first argument, `key`: the event is a key.
pub fn input_refused(device: &Handset, pid: u32, word: &str, key: bool) -> (String, i32) {
    let sdk = device.profile().sdk;
    if !on_entry(sdk) {
        dropped_at_dispatch(device, pid);
        device.log().write(Entry {
            buffer: Buffer::System,
            pid: log::SYSTEM_SERVER,
            tid: log::BINDER_TID,
            priority: 'W',
            tag: "InputManager",
            message: format!("Input event injection from pid {pid} permission denied."),
        });
    }
    if sdk < SDK_CMD_INPUT {
        // `Input.java` is a `BaseCommand`, whose `run` catches the exception, prints its stack
        // trace to stderr and calls `System.exit(1)` (AOSP
        // `core/java/com/android/internal/os/BaseCommand.java`).
        return (
            format!("{}\n{}", denied(sdk), java_input_frames(word, key)),
            1,
        );
    }
    // From Android 12 `input` is `cmd input`: `InputShellCommand` runs in system_server and
    // `BasicShellCommandHandler.exec` catches the exception, prints an empty line, `Exception
    // occurred while executing 'WORD':` and the stack trace, and returns -1, which `cmd`
    // exits with (255; AutoX issue 1216 shows `code=255` and the leading empty line).
    (
        format!(
            "\nException occurred while executing '{word}':\n{}\n{}",
            denied(sdk),
            system_server_frames(sdk, key)
        ),
        255,
    )
}

/// The stack of `Input.java` up to Android 11, as real phones print it: a tap's from a HONOR
/// phone (PixelFlasher issue 137), a key's from a Xiaomi on Android 10 (STFService.apk issue
/// 144), both in tests/data/android/input-errors; a swipe's is the tap's with the swipe's
/// class (an adaptation).
fn java_input_frames(word: &str, key: bool) -> String {
    let (inner, method, run) = match (key, word) {
        (true, _) => (
            "injectKeyEvent(Input.java:386)\n\tat com.android.commands.input.Input.access$100(Input.java:41)",
            "Input$InputKeyEvent.sendKeyEvent(Input.java:204)",
            "Input$InputKeyEvent.run(Input.java:191)",
        ),
        (false, "swipe") => (
            "injectMotionEvent(Input.java:428)\n\tat com.android.commands.input.Input.access$200(Input.java:41)",
            "Input$InputSwipe.sendSwipe(Input.java:262)",
            "Input$InputSwipe.run(Input.java:245)",
        ),
        (false, _) => (
            "injectMotionEvent(Input.java:428)\n\tat com.android.commands.input.Input.access$200(Input.java:41)",
            "Input$InputTap.sendTap(Input.java:224)",
            "Input$InputTap.run(Input.java:218)",
        ),
    };
    format!(
        "\tat android.os.Parcel.createException(Parcel.java:2075)\n\
         \tat android.os.Parcel.readException(Parcel.java:2043)\n\
         \tat android.os.Parcel.readException(Parcel.java:1991)\n\
         \tat android.hardware.input.IInputManager$Stub$Proxy.injectInputEvent(IInputManager.java:925)\n\
         \tat android.hardware.input.InputManager.injectInputEvent(InputManager.java:886)\n\
         \tat com.android.commands.input.Input.{inner}\n\
         \tat com.android.commands.input.{method}\n\
         \tat com.android.commands.input.{run}\n\
         \tat com.android.commands.input.Input.onRun(Input.java:108)\n\
         \tat com.android.internal.os.BaseCommand.run(BaseCommand.java:56)\n\
         \tat com.android.commands.input.Input.main(Input.java:71)\n\
         \tat com.android.internal.os.RuntimeInit.nativeFinishInit(Native Method)\n\
         \tat com.android.internal.os.RuntimeInit.main(RuntimeInit.java:380)\n"
    )
}

/// The stack of `InputShellCommand` in system_server: Android 12's from a real `input swipe`
/// (cr4n5/XiaoYuanKouSuan issue 26: `injectInputEventInternal`, `InputManager`), Android 14's
/// from a real `input tap` (AutoX issue 1216: `injectInputEventToTarget`,
/// `InputManagerGlobal`); Android 13 has `InputManager` where 14 has `InputManagerGlobal`
/// (scrcpy issue 4900). The gesture's own frames (`runTap`, `sendKeyEvent`, ...) are AOSP's
/// method names; their line numbers where no capture shows them are estimates.
fn system_server_frames(sdk: u32, key: bool) -> String {
    let entry = match sdk {
        ..33 => {
            "\tat com.android.server.input.InputManagerService.injectInputEventInternal(InputManagerService.java:928)\n\
             \tat com.android.server.input.InputManagerService.injectInputEvent(InputManagerService.java:880)\n\
             \tat android.hardware.input.InputManager.injectInputEvent(InputManager.java:1091)\n"
        }
        33 => {
            "\tat com.android.server.input.InputManagerService.injectInputEventToTarget(InputManagerService.java:1060)\n\
             \tat android.hardware.input.InputManager.injectInputEvent(InputManager.java:1153)\n\
             \tat android.hardware.input.InputManager.injectInputEvent(InputManager.java:1182)\n"
        }
        _ => {
            "\tat com.android.server.input.InputManagerService.injectInputEventToTarget(InputManagerService.java:1060)\n\
             \tat android.hardware.input.InputManagerGlobal.injectInputEvent(InputManagerGlobal.java:1234)\n\
             \tat android.hardware.input.InputManagerGlobal.injectInputEvent(InputManagerGlobal.java:1244)\n"
        }
    };
    let gesture = if key {
        "\tat com.android.server.input.InputShellCommand.injectKeyEvent(InputShellCommand.java:166)\n\
         \tat com.android.server.input.InputShellCommand.sendKeyEvent(InputShellCommand.java:298)\n\
         \tat com.android.server.input.InputShellCommand.runKeyEvent(InputShellCommand.java:290)\n"
    } else {
        "\tat com.android.server.input.InputShellCommand.injectMotionEvent(InputShellCommand.java:182)\n\
         \tat com.android.server.input.InputShellCommand.sendTap(InputShellCommand.java:383)\n\
         \tat com.android.server.input.InputShellCommand.runTap(InputShellCommand.java:377)\n"
    };
    format!(
        "{entry}{gesture}\
         \tat com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:236)\n\
         \tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)\n\
         \tat android.os.ShellCommand.exec(ShellCommand.java:38)\n"
    )
}
