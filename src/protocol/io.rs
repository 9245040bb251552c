//! Line transport: a byte reader that survives anything a GUI or a fuzzer sends, and the one
//! writer through which every protocol line leaves the engine.

use std::io::{self, BufRead, ErrorKind, Write};

/// Longest line kept. Real commands are short (a FEN is under 100 bytes); the cap only exists so
/// that a runaway line costs bounded memory. GNU Chess crashed at 4095 bytes, so stay well above.
pub const MAX_LINE: usize = 16 * 1024;

/// Reads `\n`-terminated lines as raw bytes, so that non-UTF-8 input (cutechess writes Latin-1)
/// is decoded lossily instead of failing the read, and caps what it stores of each line.
pub struct LineReader<R> {
    inner: R,
    cap: usize,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R) -> LineReader<R> {
        LineReader::with_cap(inner, MAX_LINE)
    }

    pub fn with_cap(inner: R, cap: usize) -> LineReader<R> {
        LineReader { inner, cap }
    }

    /// The next line without its `\n` or `\r\n`, or None at end of input.
    pub fn next_line(&mut self) -> io::Result<Option<String>> {
        let mut line = Vec::new();
        let mut dropped = 0usize;
        let mut saw_any = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            let room = self.cap.saturating_sub(line.len());
            let keep = chunk.len().min(room);
            line.extend_from_slice(&chunk[..keep]);
            dropped += chunk.len() - keep;
            self.inner.consume(used);
            if done {
                break;
            }
        }
        if dropped > 0 {
            log::info!("input line longer than {} bytes: {} bytes dropped", self.cap, dropped);
        }
        while line.last() == Some(&b'\r') {
            line.pop();
        }
        Ok(Some(String::from_utf8_lossy(&line).into_owned()))
    }
}

/// The only way protocol output reaches the GUI: one complete line at a time, flushed at once
/// (a GUI waits on each line; buffered output is how GNU Chess misses handshake timeouts).
pub struct LineWriter<W> {
    inner: W,
}

impl<W: Write> LineWriter<W> {
    pub fn new(inner: W) -> LineWriter<W> {
        LineWriter { inner }
    }

    pub fn send(&mut self, line: &str) -> io::Result<()> {
        log::debug!("<< {line}");
        self.inner.write_all(line.as_bytes())?;
        self.inner.write_all(b"\n")?;
        self.inner.flush()
    }

    pub fn send_all<T: std::fmt::Display>(&mut self, lines: &[T]) -> io::Result<()> {
        for line in lines {
            self.send(&line.to_string())?;
        }
        Ok(())
    }

    pub fn into_inner(self) -> W {
        self.inner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<String> {
        let mut r = LineReader::with_cap(input, cap);
        let mut out = Vec::new();
        while let Some(l) = r.next_line().unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn crlf_bytes_caps_and_eof() {
        let input = b"new\r\n\xff\xfe ok\n\nxxxxxxxxxx\nlast";
        assert_eq!(lines(input, 4), vec!["new", "\u{fffd}\u{fffd} o", "", "xxxx", "last"]);
    }

    #[test]
    fn writer_ends_every_line() {
        let mut w = LineWriter::new(Vec::new());
        w.send("pong 1").unwrap();
        w.send_all(&["a", "b"]).unwrap();
        assert_eq!(w.into_inner(), b"pong 1\na\nb\n");
    }
}
