//! Playing on the phone: search events become taps (`setnum`), performed with verification
//! (`perform`); every device call goes through a `link` that recovers from a lost connection,
//! the screen through a `phone` that deals with what real phones do mid-run (`look` tells
//! screens apart); `navigate` opens a level; `plan` says what a performance will show and how long
//! it takes; `stop` types the reasons a run ends early; `note` is what a run tells its caller
//! as it goes (the library does not print); `probe` finds out how the app takes taps, on the
//! open level, for `autoplay calibrate`. A whole level, from finding the calibration to
//! the session on disk, is [`crate::level`].

pub(crate) mod note;
pub(crate) mod perform;
pub mod plan;
pub mod probe;
pub mod setnum;
pub mod stop;
pub(crate) mod words;

pub(crate) use note::tell;
pub use note::{Note, Update};
pub(crate) use perform::perform;
pub use perform::{
    Completion, Incident, IncidentKind, Journal, PerformError, PerformOptions, PerformReport,
    Progress, Search, Seen, Target, WriteKind,
};
pub use setnum::{Cancel, Encoder, InputOrder, Layout, Point, Selection};
