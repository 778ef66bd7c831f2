//! Opening a case's files (input, answer) for the judge: only a regular file is opened, and
//! never by a call that could block. A program run without the sandbox can swap a case's file
//! for a FIFO, whose open would wait for a writer for ever, hanging the judge.

use std::io;
use std::path::Path;

/// Opens `path` for reading if it is a regular file (or a character device, like
/// `/dev/null`); a FIFO or a socket is an error that says so.
pub fn open(path: &Path) -> io::Result<std::fs::File> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    // A character device (`/dev/null`, a build's stdin) cannot be made by a program without
    // a capability; a FIFO can.
    let kind = file.metadata()?.file_type();
    if !(kind.is_file() || std::os::unix::fs::FileTypeExt::is_char_device(&kind)) {
        return Err(io::Error::new(
            io::ErrorKind::Other,
            "not a regular file (a program put something else in its place?)",
        ));
    }
    // Reads of a regular file never block anyway; the flag goes so the file reads as usual.
    // SAFETY: fcntl on our own fd.
    unsafe {
        let flags = libc::fcntl(file.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK);
    }
    Ok(file)
}

/// Reads the whole regular file at `path`.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut open(path)?, &mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_fifo_is_refused_at_once_and_a_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("expected.txt");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(super::open(&fifo).unwrap_err().to_string().contains("not a regular file"));
        let file = dir.path().join("input.txt");
        std::fs::write(&file, "1 2\n").unwrap();
        assert_eq!(super::read(&file).unwrap(), b"1 2\n");
    }
}
