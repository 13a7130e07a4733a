//! ADB transport packets: a 24-byte little-endian header (command, arg0, arg1, length,
//! checksum, magic) followed by `length` payload bytes.
//!
//! The wire format both ends share: the simulated phone's device side ([`crate::sim::adb`]) and
//! the player's direct host side ([`crate::device::direct`], used when no adb server exists).

use thiserror::Error;

/// Protocol version spoken (skip-checksum capable; we still always send checksums).
pub const VERSION: u32 = 0x0100_0001;
/// The largest payload accepted or sent (adb's `MAX_PAYLOAD`).
pub const MAX_PAYLOAD: u32 = 1024 * 1024;
/// Size of the fixed header.
pub const HEADER_LEN: usize = 24;

/// AUTH arg0 values.
pub const AUTH_TOKEN: u32 = 1;
pub const AUTH_SIGNATURE: u32 = 2;
pub const AUTH_RSAPUBLICKEY: u32 = 3;

/// The packet commands of the ADB transport protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Cnxn,
    Auth,
    Open,
    Okay,
    Clse,
    Wrte,
    Stls,
    Sync,
}

impl Command {
    /// The command's wire value (its four ASCII letters read as a little-endian u32).
    pub fn code(self) -> u32 {
        let tag: &[u8; 4] = match self {
            Command::Cnxn => b"CNXN",
            Command::Auth => b"AUTH",
            Command::Open => b"OPEN",
            Command::Okay => b"OKAY",
            Command::Clse => b"CLSE",
            Command::Wrte => b"WRTE",
            Command::Stls => b"STLS",
            Command::Sync => b"SYNC",
        };
        u32::from_le_bytes(*tag)
    }

    /// Parses a wire value.
    pub(crate) fn from_code(code: u32) -> Option<Command> {
        [
            Command::Cnxn,
            Command::Auth,
            Command::Open,
            Command::Okay,
            Command::Clse,
            Command::Wrte,
            Command::Stls,
            Command::Sync,
        ]
        .into_iter()
        .find(|c| c.code() == code)
    }
}

/// One ADB message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packet {
    pub command: Command,
    pub arg0: u32,
    pub arg1: u32,
    pub payload: Vec<u8>,
}

/// A parsed header: tells how many payload bytes follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub command: Command,
    pub arg0: u32,
    pub arg1: u32,
    pub length: u32,
    pub checksum: u32,
}

/// Why bytes are not a valid packet.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PacketError {
    #[error("bad magic {magic:#010x} for command {command:#010x}")]
    BadMagic { command: u32, magic: u32 },
    #[error("unknown command {0:#010x}")]
    UnknownCommand(u32),
    #[error("payload of {length} bytes exceeds the limit of {max}")]
    TooLong { length: u32, max: u32 },
}

/// The sum of all payload bytes (adb's `data_check`).
pub fn checksum(payload: &[u8]) -> u32 {
    payload
        .iter()
        .fold(0u32, |acc, &b| acc.wrapping_add(u32::from(b)))
}

impl Header {
    /// Decodes a header. The checksum is kept but never verified (hosts that negotiated
    /// version 0x01000001 send 0); the payload length is capped at `max_payload`.
    pub fn decode(bytes: &[u8; HEADER_LEN], max_payload: u32) -> Result<Header, PacketError> {
        let word = |i: usize| {
            u32::from_le_bytes([
                bytes[i * 4],
                bytes[i * 4 + 1],
                bytes[i * 4 + 2],
                bytes[i * 4 + 3],
            ])
        };
        let (code, magic) = (word(0), word(5));
        if magic != code ^ 0xffff_ffff {
            return Err(PacketError::BadMagic {
                command: code,
                magic,
            });
        }
        let command = Command::from_code(code).ok_or(PacketError::UnknownCommand(code))?;
        let length = word(3);
        if length > max_payload {
            return Err(PacketError::TooLong {
                length,
                max: max_payload,
            });
        }
        Ok(Header {
            command,
            arg0: word(1),
            arg1: word(2),
            length,
            checksum: word(4),
        })
    }
}

impl Packet {
    /// A packet with the given fields.
    pub fn new(command: Command, arg0: u32, arg1: u32, payload: Vec<u8>) -> Packet {
        Packet {
            command,
            arg0,
            arg1,
            payload,
        }
    }

    /// The 24-byte header for this packet, always with a checksum.
    pub fn header(&self) -> [u8; HEADER_LEN] {
        let code = self.command.code();
        let len = u32::try_from(self.payload.len()).unwrap_or(u32::MAX);
        let mut out = [0u8; HEADER_LEN];
        for (i, w) in [
            code,
            self.arg0,
            self.arg1,
            len,
            checksum(&self.payload),
            code ^ 0xffff_ffff,
        ]
        .into_iter()
        .enumerate()
        {
            out[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Header followed by payload.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.payload.len());
        out.extend_from_slice(&self.header());
        out.extend_from_slice(&self.payload);
        out
    }

    /// Decodes one whole packet from a buffer (header + exactly `length` bytes or more).
    /// Returns the packet and the number of bytes used, or `Ok(None)` if more bytes are needed.
    pub fn decode(buf: &[u8], max_payload: u32) -> Result<Option<(Packet, usize)>, PacketError> {
        let Some(head) = buf.first_chunk::<HEADER_LEN>() else {
            return Ok(None);
        };
        let header = Header::decode(head, max_payload)?;
        let end = HEADER_LEN + header.length as usize;
        if buf.len() < end {
            return Ok(None);
        }
        let packet = Packet::new(
            header.command,
            header.arg0,
            header.arg1,
            buf[HEADER_LEN..end].to_vec(),
        );
        Ok(Some((packet, end)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_checksum() {
        let p = Packet::new(Command::Wrte, 7, 9, b"hello".to_vec());
        let bytes = p.encode();
        assert_eq!(bytes.len(), HEADER_LEN + 5);
        assert_eq!(&bytes[0..4], b"WRTE");
        let sum = u32::from_le_bytes(bytes[16..20].try_into().unwrap());
        assert_eq!(sum, u32::from(b'h') + 101 + 108 + 108 + 111);
        let (back, used) = Packet::decode(&bytes, MAX_PAYLOAD).unwrap().unwrap();
        assert_eq!(back, p);
        assert_eq!(used, bytes.len());
    }

    #[test]
    fn every_command_round_trips() {
        for code in [
            b"CNXN", b"AUTH", b"OPEN", b"OKAY", b"CLSE", b"WRTE", b"STLS", b"SYNC",
        ] {
            let c = Command::from_code(u32::from_le_bytes(*code)).unwrap();
            let p = Packet::new(c, 1, 2, vec![]);
            assert_eq!(Packet::decode(&p.encode(), 0).unwrap().unwrap().0, p);
        }
    }

    #[test]
    fn zero_checksum_is_accepted() {
        let mut bytes = Packet::new(Command::Cnxn, VERSION, 4096, b"host::\0".to_vec()).encode();
        bytes[16..20].copy_from_slice(&[0; 4]);
        let (p, _) = Packet::decode(&bytes, MAX_PAYLOAD).unwrap().unwrap();
        assert_eq!(p.payload, b"host::\0");
    }

    #[test]
    fn bad_magic_is_rejected() {
        let mut bytes = Packet::new(Command::Okay, 1, 2, vec![]).encode();
        bytes[20] ^= 1;
        assert!(matches!(
            Packet::decode(&bytes, MAX_PAYLOAD),
            Err(PacketError::BadMagic { .. })
        ));
    }

    #[test]
    fn unknown_command_and_huge_length_are_rejected() {
        let mut bytes = Packet::new(Command::Okay, 1, 2, vec![]).encode();
        bytes[0..4].copy_from_slice(b"XXXX");
        let magic = u32::from_le_bytes(*b"XXXX") ^ 0xffff_ffff;
        bytes[20..24].copy_from_slice(&magic.to_le_bytes());
        assert!(matches!(
            Packet::decode(&bytes, MAX_PAYLOAD),
            Err(PacketError::UnknownCommand(_))
        ));
        let mut bytes = Packet::new(Command::Wrte, 1, 2, vec![]).encode();
        bytes[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(
            Packet::decode(&bytes, MAX_PAYLOAD),
            Err(PacketError::TooLong {
                length: u32::MAX,
                max: MAX_PAYLOAD
            })
        );
    }

    #[test]
    fn partial_input_needs_more() {
        let bytes = Packet::new(Command::Wrte, 1, 2, b"abc".to_vec()).encode();
        assert_eq!(Packet::decode(&bytes[..10], MAX_PAYLOAD), Ok(None));
        assert_eq!(Packet::decode(&bytes[..26], MAX_PAYLOAD), Ok(None));
    }
}
