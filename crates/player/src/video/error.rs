//! The one error type of this crate.
//!
//! Every message says what was wrong and where (which segment, sample, bit or file), so
//! that it can be shown to a person as it is.

use std::path::{Path, PathBuf};

/// Everything that can go wrong while parsing, muxing or reading back a recording.
#[derive(Debug, thiserror::Error)]
pub enum MuxError {
    /// No segment holds an IDR access unit, so no frame can be decoded.
    #[error("the recording has no key frame: nothing to write")]
    NoKeyFrame,

    /// The first key frame of the recording is not preceded by an SPS and a PPS.
    #[error(
        "segment {segment} has no {what} at or before its first key frame: \
         the decoder could not be configured"
    )]
    NoParameterSet {
        /// Index of the segment (0-based) whose first key frame lacks it.
        segment: usize,
        /// "SPS" or "PPS".
        what: &'static str,
    },

    /// A NAL unit handed to the SPS parser is not an SPS.
    #[error("not an SPS: nal_unit_type is {nal_type} (an SPS has 7)")]
    NotSps {
        /// The nal_unit_type found in the header byte (`None`-like 255 for an empty NAL).
        nal_type: u8,
    },

    /// The SPS ended before all the fields needed were read.
    #[error("SPS truncated at bit {bit} (reading {field})")]
    SpsTruncated {
        /// Bit offset into the SPS payload (after the NAL header, emulation prevention removed).
        bit: usize,
        /// The syntax element being read.
        field: &'static str,
    },

    /// An SPS field holds a value outside what H.264 allows (or what this parser accepts).
    #[error("SPS field {field} is {value} at bit {bit}, outside the allowed range")]
    SpsInvalid {
        /// The syntax element.
        field: &'static str,
        /// The value read.
        value: i64,
        /// Bit offset just after the field in the SPS payload.
        bit: usize,
    },

    /// The picture size cannot be stored in an MP4 visual sample entry (16-bit fields).
    #[error("picture size {width}x{height} does not fit an MP4 sample entry (at most 65535)")]
    PictureTooLarge {
        /// Displayed width in pixels.
        width: u32,
        /// Displayed height in pixels.
        height: u32,
    },

    /// A parameter set is longer than the 16-bit length field of the avcC box allows.
    #[error("{what} is {len} bytes: longer than the avcC box can hold (65535)")]
    ParameterSetTooLong {
        /// "SPS" or "PPS".
        what: &'static str,
        /// Its length in bytes.
        len: usize,
    },

    /// One frame stays on screen longer than an MP4 sample duration can express.
    #[error(
        "the frame at {at_us} us (track time) lasts {duration_us} us: longer than an MP4 \
         sample can last (about 13 hours at 90 kHz)"
    )]
    GapTooLong {
        /// Track time of the sample, in microseconds.
        at_us: u64,
        /// Its duration, in microseconds.
        duration_us: u64,
    },

    /// One access unit is larger than an MP4 sample can be.
    #[error("the frame at {at_us} us (track time) is {bytes} bytes: too large for an MP4 sample")]
    SampleTooLarge {
        /// Track time of the sample, in microseconds.
        at_us: u64,
        /// Its size in bytes.
        bytes: u64,
    },

    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },

    /// The `mp4` crate failed while writing.
    #[error("writing the MP4 failed: {source}")]
    Mp4Write {
        /// What the `mp4` crate said.
        #[source]
        source: mp4::Error,
    },

    /// The file is not an MP4 as [`super::mp4out::write_mp4`] writes them (or is damaged).
    #[error("{}: {what}", path.display())]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        what: String,
    },

    /// [`super::concat::concat()`] was given no input files.
    #[error("concat needs at least one input file")]
    NoInputs,
}

/// Maps an I/O error on `path` to [`MuxError::Io`].
pub(crate) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> MuxError + '_ {
    move |source| MuxError::Io {
        path: path.to_path_buf(),
        source,
    }
}
