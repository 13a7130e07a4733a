//! Where Android releases differ for the commands the project runs: the API levels
//! (`ro.build.version.sdk`) at which a behaviour changes, each with its source.

/// The first API level whose SELinux policy forbids the shell to write `/dev/input` (Android 10:
/// AOSP sepolicy commit 51156264b4b9ff3bd5a766d17f005eb5d6b4d029, a CTS-tested `neverallow`).
pub const SDK_NO_SHELL_INPUT_WRITE: u32 = 29;

/// The first API level whose `input` is `cmd input` (Android 12: a binder call into
/// system_server instead of a Java program started per call).
pub const SDK_CMD_INPUT: u32 = 31;

/// The first API level that checks the permission to inject input before queueing the event
/// (Android 13: `InputManagerService.injectInputEventToTarget` throws at once); before it the
/// input dispatcher checked only when dispatching (`checkInjectionPermission`), dropping an
/// asynchronous injection silently (`crate::shell::refusal`).
pub const SDK_INJECT_CHECKED_ON_ENTRY: u32 = 33;
