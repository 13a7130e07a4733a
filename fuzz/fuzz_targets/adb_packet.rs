//! The simulated phone's ADB codec on an arbitrary byte stream: packets are decoded one after
//! another as the connection does; each must re-encode to a packet that decodes the same; OPEN
//! payloads go through `Service::parse` and WRTE payloads through the shell v2 decoder.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_autoplay::adb_packet::{Command, MAX_PAYLOAD, Packet};
use autoplay_sim::adb::service::Service;
use autoplay_sim::adb::shell_protocol::Decoder;

fuzz_target!(|data: &[u8]| {
    let mut pos = 0;
    let mut shell = Decoder::default();
    while let Ok(Some((packet, used))) = Packet::decode(&data[pos..], MAX_PAYLOAD) {
        assert!(used >= 24 && pos + used <= data.len());
        pos += used;
        let bytes = packet.encode();
        assert_eq!(bytes.len(), used);
        let (again, n) = Packet::decode(&bytes, MAX_PAYLOAD)
            .expect("re-encoded packet decodes")
            .expect("re-encoded packet is whole");
        assert_eq!((&again, n), (&packet, used));
        match packet.command {
            Command::Open => {
                let _ = Service::parse(&packet.payload);
            }
            Command::Wrte => {
                shell.push(&packet.payload);
                while let Ok(Some((_id, payload))) = shell.next_packet() {
                    assert!(payload.len() <= 1024 * 1024);
                }
            }
            _ => {}
        }
    }
});
