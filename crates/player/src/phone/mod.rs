//! The phone during a run: the device side of the performance's [`Target`](crate::play::Target).
//!
//! Every device call of a run goes through a [`link::Link`], the one recovery layer (it waits
//! for a lost device, reconnects, reopens the tap channel); [`target::PhoneTarget`] is the
//! [`Target`](crate::play::Target) a performance taps and looks through: it wakes the screen and
//! swipes a plain lock screen away (`wake`, which a run's start uses too), brings the app back from the background and opens the level
//! again (`navigate`, which follows the calibration's `[navigation]`; `new_game` in an app
//! without level numbers), and closes an ad in front of it (`ad`); `back` presses BACK as the
//! phone allows (the key, or where the phone refuses keys from its shell, the navigation bar's
//! back button or the app's own); [`level_list`] finds, for calibrate, how an app opens its
//! levels.

pub(crate) mod ad;
pub(crate) mod back;
pub mod level_list;
pub mod link;
pub(crate) mod navigate;
pub(crate) mod new_game;
pub mod target;
pub(crate) mod wake;
