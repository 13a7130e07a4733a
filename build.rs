//! Tells the tests whether the development set beside the checkout (`../shared/real-screens`,
//! real apps' screenshots that are not ours to ship) is there: `cfg(dev_set)`; and whether the
//! tools that run the injector's bytecode on the JVM (`java`, `javac`, `enjarify`) are on the
//! PATH: `cfg(jvm_tools)`; and whether ffmpeg and ffprobe are (an independent H.264 decoder
//! for the recorded videos): `cfg(ffmpeg)`. Tests that need one of them are
//! `#[cfg_attr(not(...), ignore = "...")]`, so a machine without it lists them as ignored,
//! never as passed.
//!
//! Only a folder that exists is watched: a missing path would make cargo rerun this script, and
//! rebuild the whole package, on every build. A folder added after the first build is seen
//! once `build.rs` changes (`touch build.rs`), as the ignored tests' reason says; likewise
//! tools installed after the first build.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(dev_set)");
    println!("cargo::rustc-check-cfg=cfg(jvm_tools)");
    println!("cargo::rustc-check-cfg=cfg(ffmpeg)");
    println!("cargo::rerun-if-changed=build.rs");
    let dev_set = std::path::Path::new("../shared/real-screens");
    if dev_set.is_dir() {
        println!("cargo::rerun-if-changed={}", dev_set.display());
        println!("cargo::rustc-cfg=dev_set");
    }
    if ["java", "javac", "enjarify"].into_iter().all(on_path) {
        println!("cargo::rustc-cfg=jvm_tools");
    }
    if ["ffmpeg", "ffprobe"].into_iter().all(on_path) {
        println!("cargo::rustc-cfg=ffmpeg");
    }
}

/// Whether an executable file `name` is in one of the PATH's directories.
fn on_path(name: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| std::fs::metadata(dir.join(name)).is_ok_and(executable))
}

#[cfg(unix)]
fn executable(m: std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    m.is_file() && m.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(m: std::fs::Metadata) -> bool {
    m.is_file()
}
