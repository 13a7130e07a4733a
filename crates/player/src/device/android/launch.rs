//! Starting an app: `monkey -p PACKAGE` (the app brought back from the background) and an
//! `am start` command (a calibration's way to open a level).

/// Whether `monkey -p PKG ... 1` launched the app (it prints `Events injected: 1`); the error
/// is its last line (`** No activities found to run, monkey aborted.`, `** SYS_KEYS has no
/// physical keys ...`).
pub(crate) fn monkey_launched(out: &str) -> Result<(), String> {
    if out
        .lines()
        .any(|l| l.trim().starts_with("Events injected:"))
    {
        return Ok(());
    }
    Err(out
        .lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .unwrap_or("no output")
        .to_string())
}

/// Whether an `am start` command (its output and exit status) started the activity; what it
/// said otherwise (`Error: Activity class ... does not exist.`, exit status 0).
pub(crate) fn am_started(out: &str, code: i32) -> Result<(), String> {
    if code != 0 || out.contains("Error") {
        return Err(out.trim().to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monkey_outputs_of_real_phones() {
        let outputs = crate::real_outputs::with_truth("launched");
        for (file, text, launched) in &outputs {
            assert_eq!(
                monkey_launched(text).is_ok(),
                launched.as_bool().unwrap(),
                "{file}: {:?}",
                monkey_launched(text)
            );
        }
        assert!(outputs.len() >= 2);
    }
}
