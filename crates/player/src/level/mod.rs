//! One level, start to end: connect -> navigate -> capture -> OCR -> validate -> search ->
//! perform every event as taps -> verify -> log (`runs.csv`) and record (session directory).
//!
//! This module sits above [`crate::play`] (taps, the phone, recovery) and
//! [`crate::session`] (journal, frames, `runs.csv`), and ties them to the device, the vision and
//! the solver: [`play`] starts a level (`start`), [`resume`] continues an interrupted session,
//! and both perform through one `execute` step into the session. Every device call goes through
//! a [`Link`](crate::phone::link::Link) (recovery from a lost link), the performance's screen through
//! a [`PhoneTarget`](crate::phone::target::PhoneTarget) (hazards: screen off, lock screen, app in
//! the background). [`resend`] sends a recorded session's taps to a phone again (checked by
//! [`crate::recheck`] first). [`next_levels`] and [`play_or_resume`] choose what to play next on
//! a device (the `watch` daemon). [`calibrate::calibrate`] calibrates an app on a phone (or a
//! screenshot): the survey, the calibration, the probe of its input rules.

pub mod calibrate;
mod config;
mod execute;
mod next;
mod note;
mod resend;
mod resume;
mod start;

pub use config::{PlayConfig, PlayReport};
pub use next::{check_navigation, next_levels, play_or_resume};
pub(crate) use note::tell;
pub use note::{Note, Update};
pub use resend::{ResendOptions, ResendReport, Shown, resend};
pub use resume::resume;
pub use start::play;
