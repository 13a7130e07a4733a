//! Android commands' outputs as a phone prints them (untrusted text): the touch nodes of a
//! `getevent`, the touch mappers of a `dumpsys input`, and the panel chosen from both. A chosen
//! node is one of those listed; a panel path that goes into shell lines has only plain path
//! characters.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_autoplay::device::android::{touch_mappings, touch_nodes};
use sudoku_autoplay::device::tap::panel::choose_panel;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let nodes = touch_nodes(&text);
    let mappings = touch_mappings(&text);
    if let Some((node, why)) = choose_panel(&nodes, &mappings) {
        assert!(nodes.contains(node) && !why.is_empty());
        assert!(
            node.device
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"/_.-".contains(&b))
        );
    }
});
