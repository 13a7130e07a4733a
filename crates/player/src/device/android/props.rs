//! `getprop KEY`: a system property's value.

/// A property's value in what `getprop KEY` printed: the value line; in a listing of
/// `[key]: [value]` lines (a whole `getprop`), that key's value or nothing; shell prompts and
/// echoed commands (an interactive session's) are not values.
pub(crate) fn parse_getprop(text: &str, key: &str) -> String {
    fn listed(l: &str) -> Option<(&str, &str)> {
        let (k, v) = l.strip_prefix('[')?.split_once("]: [")?;
        Some((k, v.strip_suffix(']')?))
    }
    if text.lines().any(|l| listed(l.trim()).is_some()) {
        return text
            .lines()
            .find_map(|l| listed(l.trim()).filter(|(k, _)| *k == key))
            .map_or(String::new(), |(_, v)| v.to_string());
    }
    let prompt = |l: &str| l.contains('@') && (l.contains(" $") || l.contains(" #"));
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !prompt(l) && !l.contains("getprop "))
        .unwrap_or("")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn getprop_values_of_real_phones() {
        let outputs = crate::real_outputs::with_truth("abi");
        for (file, text, abi) in &outputs {
            assert_eq!(
                parse_getprop(text, "ro.product.cpu.abi"),
                abi.as_str().unwrap(),
                "{file}"
            );
        }
        assert!(outputs.len() >= 4);
        assert_eq!(parse_getprop("[a]: [1]\n[b]: [2]\n", "c"), "");
        assert_eq!(parse_getprop("\n", "c"), "");
    }
}
