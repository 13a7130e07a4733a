//! For tests: real phones' command outputs (`tests/data/android/`, each with its source and the
//! truth recorded for it in `SOURCES.toml`).

/// Every output with a truth field `key`: (file, its text, the truth).
pub(crate) fn with_truth(key: &str) -> Vec<(String, String, toml::Value)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/android/");
    let manifest = std::fs::read_to_string(format!("{root}SOURCES.toml")).expect("SOURCES.toml");
    let manifest: toml::Table = toml::from_str(&manifest).expect("SOURCES.toml parses");
    manifest["output"]
        .as_array()
        .expect("[[output]] tables")
        .iter()
        .filter_map(|entry| {
            let truth = entry.get(key)?.clone();
            let file = entry["file"].as_str()?.to_string();
            let text = std::fs::read_to_string(format!("{root}{file}")).expect("a listed file");
            Some((file, text, truth))
        })
        .collect()
}
