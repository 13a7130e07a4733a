//! The phone's screen as video, for `screenrecord` (`crate::shell::screenrecord` reads its
//! command line, `crate::adb::screenrecord` runs it on a stream): [`h264`] encodes frames,
//! [`recorder`] turns the screen into the frames a recording gets (its size, key frames, bit
//! rate), [`mp4file`] writes a recording to an MP4 file as MediaMuxer does.

pub mod h264;
pub mod mp4file;
pub mod recorder;
