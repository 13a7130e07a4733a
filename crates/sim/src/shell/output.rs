//! What a shell's commands print: stdout and stderr, in order.

/// Which output stream bytes belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fd {
    Stdout,
    Stderr,
}

/// What commands printed, in order.
#[derive(Debug, Default)]
pub struct Output {
    pub chunks: Vec<(Fd, Vec<u8>)>,
}

impl Output {
    /// Appends to stdout.
    pub fn out(&mut self, bytes: impl AsRef<[u8]>) {
        self.push(Fd::Stdout, bytes.as_ref());
    }
    /// Appends to stderr.
    pub fn err(&mut self, bytes: impl AsRef<[u8]>) {
        self.push(Fd::Stderr, bytes.as_ref());
    }
    fn push(&mut self, fd: Fd, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        match self.chunks.last_mut() {
            Some((last, buf)) if *last == fd => buf.extend_from_slice(bytes),
            _ => self.chunks.push((fd, bytes.to_vec())),
        }
    }
    /// Whether nothing was printed.
    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }
    /// Everything, stdout and stderr interleaved (for protocols without separate stderr).
    pub fn merged(&self) -> Vec<u8> {
        self.chunks
            .iter()
            .flat_map(|(_, b)| b.iter().copied())
            .collect()
    }
    /// Only stdout.
    pub fn stdout(&self) -> Vec<u8> {
        self.chunks
            .iter()
            .filter(|(fd, _)| *fd == Fd::Stdout)
            .flat_map(|(_, b)| b.iter().copied())
            .collect()
    }
}
