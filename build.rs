//! Tells the tests whether the development set beside the checkout (`../shared/real-screens`,
//! real apps' screenshots that are not ours to ship) is there: `cfg(dev_set)`. Tests that read
//! it are `#[cfg_attr(not(dev_set), ignore = "...")]`, so a clone without it lists them as
//! ignored, never as passed.
//!
//! Only a folder that exists is watched: a missing path would make cargo rerun this script, and
//! rebuild the whole package, on every build. A folder added after the first build is seen
//! once `build.rs` changes (`touch build.rs`), as the ignored tests' reason says.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(dev_set)");
    println!("cargo::rerun-if-changed=build.rs");
    let dev_set = std::path::Path::new("../shared/real-screens");
    if dev_set.is_dir() {
        println!("cargo::rerun-if-changed={}", dev_set.display());
        println!("cargo::rustc-cfg=dev_set");
    }
}
