//! A full-screen ad in front of the game (a free app shows one between games): told by the
//! window in front (an ad SDK's activity: Google's `com.google.android.gms.ads.AdActivity`,
//! AppLovin's `...FullscreenActivity` in `com.applovin`, Unity's `AdUnitActivity`, Meta's
//! `AudienceNetworkActivity`) or by the words only ads show ("Ad", "Sponsored",
//! "Advertisement"), and closed as a person closes it: BACK, then its close control ("X",
//! "Close", "Skip") once it shows, BACK again now and then. Its body is never tapped: that opens
//! the advertised app's store page (another app in front, which the phone's target brings the
//! game back from).

use super::link::Link;
use super::navigate::list_nodes;
use crate::device::android::UiNode;
use std::time::{Duration, Instant};

/// The longest an ad is waited for to close (a video ad runs up to 30 s before its close
/// control shows).
const AD_WAIT: Duration = Duration::from_secs(45);
/// How often the screen is looked at meanwhile, and BACK pressed again.
const POLL: Duration = Duration::from_millis(700);
const BACK_AGAIN: Duration = Duration::from_secs(3);

/// Words that only an ad's screen shows (alone, as a label).
const AD_WORDS: [&str; 5] = ["ad", "ads", "sponsored", "advertisement", "anzeige"];
/// The words (or content descriptions) of an ad's close control.
const CLOSE_WORDS: [&str; 9] = [
    "x",
    "×",
    "✕",
    "close",
    "close ad",
    "skip",
    "skip ad",
    "skip video",
    "interstitial close button",
];

/// Whether the window `focus` (`PACKAGE/ACTIVITY`) is an ad SDK's full-screen activity.
pub(crate) fn ad_window(focus: Option<&str>) -> bool {
    let Some((_, activity)) = focus.and_then(|f| f.split_once('/')) else {
        return false;
    };
    let a = activity.to_lowercase();
    [
        "adactivity",
        "adunitactivity",
        "audiencenetworkactivity",
        ".ads.",
        "applovin",
    ]
    .iter()
    .any(|k| a.contains(k))
}

/// Whether a screen's words are an ad's: a label only ads carry.
pub(crate) fn ad_words(texts: &[String]) -> bool {
    texts
        .iter()
        .any(|t| AD_WORDS.contains(&t.trim().to_lowercase().as_str()))
}

/// An ad's close control among a screen's nodes.
fn close_control(nodes: &[UiNode]) -> Option<&UiNode> {
    nodes
        .iter()
        .filter(|n| n.clickable)
        .find(|n| CLOSE_WORDS.contains(&n.words.trim().to_lowercase().as_str()))
}

/// Closes the ad in front: BACK, then its close control once it shows (BACK again every few
/// seconds meanwhile), never a tap on its body. Returns what closed it; fails where it stayed
/// for [`AD_WAIT`].
pub(crate) fn dismiss_ad(link: &mut Link) -> anyhow::Result<String> {
    let started = Instant::now();
    let mut last_back = Instant::now();
    // (Where nothing presses BACK, the close control is waited for.)
    super::back::press_if_possible(link)?;
    link.flush()?;
    loop {
        std::thread::sleep(POLL);
        let state = link.call("checking the screen", |d| d.phone_state())?;
        let nodes = list_nodes(link)?;
        let texts: Vec<String> = nodes.iter().map(|n| n.words.clone()).collect();
        if !ad_window(state.focus.as_deref()) && !ad_words(&texts) {
            return Ok(format!(
                "closed it with BACK after {:.0} s",
                started.elapsed().as_secs_f64()
            ));
        }
        if let Some(close) = close_control(&nodes) {
            let said = close.words.clone();
            link.tap(close.center.0, close.center.1)?;
            link.flush()?;
            return Ok(format!("tapped its close control {said:?}"));
        }
        if started.elapsed() >= AD_WAIT {
            anyhow::bail!(
                "an ad stayed in front for {} s: neither BACK nor a close control closed it",
                AD_WAIT.as_secs()
            );
        }
        if last_back.elapsed() >= BACK_AGAIN {
            super::back::press_if_possible(link)?;
            last_back = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ads_by_their_window_or_their_words() {
        for (focus, ad) in [
            (Some("com.x/com.google.android.gms.ads.AdActivity"), true),
            (
                Some("com.x/com.applovin.adview.AppLovinFullscreenActivity"),
                true,
            ),
            (
                Some("com.x/com.unity3d.services.ads.adunit.AdUnitActivity"),
                true,
            ),
            (Some("com.x/com.x.GameActivity"), false),
            (Some("com.x/.Headquarters"), false),
            (None, false),
        ] {
            assert_eq!(ad_window(focus), ad, "{focus:?}");
        }
        let t = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(ad_words(&t(&["Tile Match", "INSTALL", "Ad"])));
        assert!(!ad_words(&t(&["Add notes", "Level 3", "Adventure"])));
        let node = |w: &str| UiNode {
            words: w.into(),
            center: (1, 1),
            clickable: true,
        };
        let nodes = [node("INSTALL"), node("Skip Ad")];
        assert_eq!(
            close_control(&nodes).map(|n| n.words.as_str()),
            Some("Skip Ad")
        );
        assert!(close_control(&[node("INSTALL"), node("Tile Match Quest")]).is_none());
    }
}
