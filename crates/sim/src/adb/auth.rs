//! ADB authentication, device side: a 20-byte token, the host's RSA signature over it
//! (PKCS#1 v1.5, the token treated as a SHA-1 digest), and the store of trusted public keys
//! in Android's `adb_keys` format (one `base64(RSAPublicKey struct) [comment]` per line, the
//! same as a host's `adbkey.pub`).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rsa::{BigUint, Pkcs1v15Sign, RsaPublicKey};
use sha1::Sha1;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Length of the token the device sends.
pub const TOKEN_LEN: usize = 20;
/// Modulus size of adb keys in 32-bit words (2048-bit RSA).
const MODULUS_WORDS: usize = 64;
const MODULUS_BYTES: usize = MODULUS_WORDS * 4;
/// Size of Android's binary `RSAPublicKey` struct.
const STRUCT_LEN: usize = 4 + 4 + MODULUS_BYTES + MODULUS_BYTES + 4;

/// Why a public key line was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KeyError {
    #[error("not base64")]
    Base64,
    #[error("decoded key is {0} bytes, expected {STRUCT_LEN}")]
    Length(usize),
    #[error("modulus size is {0} words, expected {MODULUS_WORDS}")]
    Words(u32),
    #[error("not a valid RSA public key")]
    Rsa,
}

/// Parses one `adb_keys` / `adbkey.pub` line (or an AUTH RSAPUBLICKEY payload, which may end
/// in NUL): the base64 struct, optionally followed by a space and a comment.
pub(crate) fn parse_public_key(line: &str) -> Result<RsaPublicKey, KeyError> {
    let b64 = line
        .trim_end_matches('\0')
        .split_whitespace()
        .next()
        .unwrap_or("");
    let raw = STANDARD.decode(b64).map_err(|_| KeyError::Base64)?;
    if raw.len() != STRUCT_LEN {
        return Err(KeyError::Length(raw.len()));
    }
    let word = |i: usize| u32::from_le_bytes([raw[i], raw[i + 1], raw[i + 2], raw[i + 3]]);
    let words = word(0);
    if words as usize != MODULUS_WORDS {
        return Err(KeyError::Words(words));
    }
    let n = BigUint::from_bytes_le(&raw[8..8 + MODULUS_BYTES]);
    let e = BigUint::from(word(8 + 2 * MODULUS_BYTES));
    RsaPublicKey::new(n, e).map_err(|_| KeyError::Rsa)
}

/// Encodes a 2048-bit public key as Android's base64 `RSAPublicKey` struct (no comment).
#[cfg(test)]
pub(crate) fn encode_public_key(key: &RsaPublicKey) -> Option<String> {
    use rsa::traits::PublicKeyParts;
    let n = key.n();
    let mut n_bytes = n.to_bytes_le();
    if n_bytes.len() > MODULUS_BYTES {
        return None;
    }
    n_bytes.resize(MODULUS_BYTES, 0);
    let n0 = u32::from_le_bytes([n_bytes[0], n_bytes[1], n_bytes[2], n_bytes[3]]);
    // Newton iteration for n0^-1 mod 2^32 (n0 is odd).
    let mut inv: u32 = 1;
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u32.wrapping_sub(n0.wrapping_mul(inv)));
    }
    let rr = (BigUint::from(1u8) << (MODULUS_BYTES * 8 * 2)) % n;
    let mut rr_bytes = rr.to_bytes_le();
    rr_bytes.resize(MODULUS_BYTES, 0);
    let e_bytes = key.e().to_bytes_le();
    if e_bytes.len() > 4 {
        return None;
    }
    let mut e4 = [0u8; 4];
    e4[..e_bytes.len()].copy_from_slice(&e_bytes);
    let e = u32::from_le_bytes(e4);
    let mut raw = Vec::with_capacity(STRUCT_LEN);
    raw.extend_from_slice(&(MODULUS_WORDS as u32).to_le_bytes());
    raw.extend_from_slice(&inv.wrapping_neg().to_le_bytes());
    raw.extend_from_slice(&n_bytes);
    raw.extend_from_slice(&rr_bytes);
    raw.extend_from_slice(&e.to_le_bytes());
    Some(STANDARD.encode(raw))
}

/// Whether `signature` is `key`'s PKCS#1 v1.5 signature of `token` as a SHA-1 digest.
pub fn verify(key: &RsaPublicKey, token: &[u8], signature: &[u8]) -> bool {
    token.len() == TOKEN_LEN
        && key
            .verify(Pkcs1v15Sign::new::<Sha1>(), token, signature)
            .is_ok()
}

/// A fresh random token.
pub(crate) fn new_token() -> [u8; TOKEN_LEN] {
    rand::random()
}

/// What to do with a host key the device does not know yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewKeys {
    /// "Allow USB debugging? \[x\] Always allow": trust it and store it.
    Accept,
    /// The user pressed "Deny": the host stays unauthorized.
    Deny,
}

/// The device's trusted keys, optionally backed by an `adb_keys` file.
#[derive(Debug)]
pub struct KeyStore {
    keys: Vec<RsaPublicKey>,
    file: Option<PathBuf>,
    new_keys: NewKeys,
}

impl KeyStore {
    /// Loads `file` if given (a missing file is an empty store and is created on first
    /// accept). A line that is not a key is an error naming the line.
    pub fn load(file: Option<&Path>, new_keys: NewKeys) -> anyhow::Result<KeyStore> {
        let mut keys = Vec::new();
        if let Some(path) = file {
            match std::fs::read_to_string(path) {
                Ok(text) => {
                    for (i, line) in text.lines().enumerate() {
                        let line = line.trim();
                        if line.is_empty() || line.starts_with('#') {
                            continue;
                        }
                        let key = parse_public_key(line).map_err(|e| {
                            anyhow::anyhow!(
                                "line {} of {} is not an adb public key ({e}); expected the \
                                 contents of an adbkey.pub, one per line",
                                i + 1,
                                path.display()
                            )
                        })?;
                        keys.push(key);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => anyhow::bail!("cannot read {}: {e}", path.display()),
            }
        }
        Ok(KeyStore {
            keys,
            file: file.map(Path::to_path_buf),
            new_keys,
        })
    }

    /// Number of trusted keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no key is trusted.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Whether any trusted key signed `token`.
    pub fn verify(&self, token: &[u8], signature: &[u8]) -> bool {
        self.keys.iter().any(|k| verify(k, token, signature))
    }

    /// Offers a host's public key (AUTH RSAPUBLICKEY payload). Returns whether it is now trusted.
    pub(crate) fn offer(&mut self, payload: &[u8]) -> bool {
        let Ok(text) = std::str::from_utf8(payload) else {
            return false;
        };
        let Ok(key) = parse_public_key(text) else {
            return false;
        };
        if self.keys.contains(&key) {
            return true;
        }
        if self.new_keys == NewKeys::Deny {
            return false;
        }
        if let Some(path) = &self.file {
            let line = text.trim_end_matches('\0').trim();
            let stored = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| writeln!(f, "{line}"));
            if let Err(e) = stored {
                tracing::warn!("sim: could not store the key in {}: {e}", path.display());
            }
        }
        self.keys.push(key);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rsa::RsaPrivateKey;

    fn key() -> RsaPrivateKey {
        RsaPrivateKey::new(&mut rsa::rand_core::OsRng, 2048).unwrap()
    }

    #[test]
    fn encode_parse_sign_verify() {
        let private = key();
        let public = RsaPublicKey::from(&private);
        let line = format!("{} user@host", encode_public_key(&public).unwrap());
        let parsed = parse_public_key(&line).unwrap();
        assert_eq!(parsed, public);
        let token = new_token();
        let sig = private.sign(Pkcs1v15Sign::new::<Sha1>(), &token).unwrap();
        assert!(verify(&parsed, &token, &sig));
        let mut other = token;
        other[0] ^= 1;
        assert!(!verify(&parsed, &other, &sig));

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("adb_keys");
        let mut store = KeyStore::load(Some(&file), NewKeys::Accept).unwrap();
        assert!(!store.verify(&token, &sig));
        assert!(store.offer(format!("{line}\0").as_bytes()));
        assert!(store.verify(&token, &sig));
        let reloaded = KeyStore::load(Some(&file), NewKeys::Deny).unwrap();
        assert_eq!(reloaded.len(), 1);
        assert!(reloaded.verify(&token, &sig));

        let mut deny = KeyStore::load(None, NewKeys::Deny).unwrap();
        assert!(!deny.offer(line.as_bytes()));
        assert!(deny.is_empty());
    }

    #[test]
    fn garbage_keys_are_refused() {
        assert_eq!(parse_public_key("!!!"), Err(KeyError::Base64));
        assert_eq!(parse_public_key("QUJD"), Err(KeyError::Length(3)));
        assert_eq!(parse_public_key(""), Err(KeyError::Length(0)));
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("adb_keys");
        std::fs::write(&file, "QUJD x\n").unwrap();
        let err = KeyStore::load(Some(&file), NewKeys::Accept).unwrap_err();
        assert!(err.to_string().contains("line 1"), "{err}");
    }
}
