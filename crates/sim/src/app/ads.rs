//! The ads of a free app (`--ads`): a full-screen interstitial after every completed game and a
//! banner under the board, as ad SDKs show them (Google's Mobile Ads SDK runs an interstitial in
//! its own `com.google.android.gms.ads.AdActivity` inside the app's task, so the window in
//! front is the app's package with that activity).
//!
//! - BACK closes an interstitial only once it has shown for a few seconds, and some never
//!   close on BACK (the SDK ignores BACK while an ad's video plays, or for ads that set it).
//! - Its close control ("X", "Close" or "Skip") appears only after a few seconds, in a corner.
//! - A tap anywhere else on the ad, or on the banner, opens the advertised app's store page:
//!   another app (`com.android.vending`) comes to the front; the tap is counted (`ad_opens`).
//!
//! Each interstitial's behaviour is drawn from the app's seed and the games won, so a run sees
//! every kind.

use super::seeds::splitmix;
use std::time::{Duration, Instant};

/// The activity an interstitial runs in.
pub const AD_ACTIVITY: &str = "com.google.android.gms.ads.AdActivity";
/// The app a tap on an ad opens.
pub const STORE_PACKAGE: &str = "com.android.vending";

/// The ads of one app.
#[derive(Debug, Clone, Default)]
pub struct Ads {
    /// The interstitial showing, if any.
    pub showing: Option<Ad>,
    /// Taps that opened an ad's target (a store page).
    pub opens: u64,
    /// A tap just opened the store: the phone brings it to the front.
    pub(crate) store_requested: bool,
    /// Interstitials shown so far.
    pub(crate) shown: u64,
}

/// One full-screen ad.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ad {
    pub since: Instant,
    /// BACK closes it once it has shown this long (`None`: never).
    pub back_after: Option<Duration>,
    /// Its close control shows after this long.
    pub close_after: Duration,
    /// The close control's word, and whether it is in the top right corner (else the left).
    pub close: &'static str,
    pub right: bool,
    /// What it advertises.
    pub title: &'static str,
}

/// The advertised apps.
const TITLES: [&str; 3] = ["Tile Match Quest", "Block Puzzle Jam", "Word Cross Trip"];

impl Ad {
    /// The `n`th ad of an app seeded `seed`, shown at `at`.
    pub(crate) fn new(seed: u64, n: u64, at: Instant) -> Ad {
        let pick = splitmix(seed ^ n.wrapping_mul(0x51A5));
        let (close, right) = [("X", true), ("Close", false), ("Skip", true)][(pick % 3) as usize];
        let back_after = match (pick >> 8) % 3 {
            0 => None,
            k => Some(Duration::from_secs(2 + k)),
        };
        Ad {
            since: at,
            back_after,
            close_after: Duration::from_secs(5 + (pick >> 16) % 3),
            close,
            right,
            title: TITLES[((pick >> 24) % 3) as usize],
        }
    }

    /// Whether its close control shows at `now`.
    pub fn closable(&self, now: Instant) -> bool {
        now.duration_since(self.since) >= self.close_after
    }
}
