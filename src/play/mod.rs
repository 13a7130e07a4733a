//! Playing a level: search events become taps (`setnum`), performed on the phone with
//! verification (`perform`); `run` is the whole flow of one level on a device, every device call through a `link` that
//! recovers from a lost connection, the screen through a `phone` that deals with what real
//! phones do mid-run (`look` tells screens apart); `stop` types the reasons a run ends early;
//! `note` is what a run tells its caller as it goes (the library does not print).

pub mod link;
pub mod look;
pub mod note;
pub mod perform;
pub mod phone;
pub mod plan;
pub mod run;
pub mod setnum;
pub mod stop;

pub use note::{Note, Update};
pub use perform::{
    Completion, Incident, IncidentKind, Journal, Progress, ReplayError, ReplayOptions,
    ReplayReport, Seen, Target, WriteKind, replay,
};
pub use setnum::{Cancel, Encoder, InputOrder, Layout, Point, Selection};
