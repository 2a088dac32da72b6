//! What the state knows of the PGN file it writes to: the file's path, the
//! bytes `start..end` that hold this match's recorded games and their
//! checksum, and the text of a game being appended (written to the state
//! before the PGN, so a tail left by a crash can be proved the runner's own).
//! A resume cuts the PGN only back to `end`, and only a tail it can prove.

use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The PGN part of the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PgnMark {
    /// Absolute path of the PGN file.
    pub path: String,
    /// Bytes before this match's first game (someone else's; never cut).
    pub start: u64,
    /// End of the last recorded game.
    pub end: u64,
    /// FNV-1a 64 of bytes `start..end`, in hex.
    pub hash: String,
    /// A game being appended, not yet recorded.
    pub pending: Option<String>,
}

/// FNV-1a 64, continued from `h` (start from [`FNV_START`]).
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// `path` made absolute through its folder (which must exist), so the same
/// file is named the same from any working directory, even once deleted.
pub fn absolute(path: &str) -> Result<PathBuf, String> {
    let p = Path::new(path);
    let name = p
        .file_name()
        .ok_or_else(|| format!("--pgnout {path}: not a file name"))?;
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let dir = parent
        .canonicalize()
        .map_err(|e| format!("--pgnout {path}: folder {}: {e}", parent.display()))?;
    Ok(dir.join(name))
}

impl PgnMark {
    /// Checks that the numbers can describe a file.
    pub fn validate(&self) -> Result<(), String> {
        if self.start > self.end || u64::from_str_radix(&self.hash, 16).is_err() {
            return Err(format!(
                "the PGN mark of {} is damaged (start {}, end {}, hash '{}')",
                self.path, self.start, self.end, self.hash
            ));
        }
        Ok(())
    }

    /// Opens `path` (a regular file, created if missing) for a new match
    /// whose games start at its current end.
    pub fn begin(path: &str) -> Result<(PgnMark, File), String> {
        let abs = absolute(path)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&abs)
            .map_err(|e| format!("cannot open --pgnout {path}: {e}"))?;
        let len = file
            .metadata()
            .map_err(|e| format!("--pgnout {path}: {e}"))?
            .len();
        let mark = PgnMark {
            path: abs.display().to_string(),
            start: len,
            end: len,
            hash: format!("{FNV_START:016x}"),
            pending: None,
        };
        Ok((mark, file))
    }

    /// Opens the file this mark describes after checking that it holds, byte
    /// for byte, the games recorded; cuts a tail the runner proves it wrote.
    pub fn reopen(&self, games: usize) -> Result<File, String> {
        let path = &self.path;
        let redo = "restore it, or start the match again with a new --state (and --pgnout)";
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| {
                format!(
                    "cannot open {path}, which holds the {games} games of the state: {e}; {redo}"
                )
            })?;
        let len = file.metadata().map_err(|e| format!("{path}: {e}"))?.len();
        if len < self.end {
            return Err(format!(
                "{path} has {len} bytes, but the state wrote {} (its {games} games end at byte {}): \
                 it was cut or replaced; {redo}",
                self.end - self.start,
                self.end
            ));
        }
        if self.hash_of(&mut file)? != self.hash {
            return Err(format!(
                "{path}: bytes {}..{} are not the {games} games the state wrote there; {redo}",
                self.start, self.end
            ));
        }
        if len > self.end {
            let tail = read_range(&mut file, self.end, len)?;
            let ours = self
                .pending
                .as_deref()
                .is_some_and(|p| p.as_bytes().starts_with(&tail));
            if !ours {
                return Err(format!(
                    "{path} has {} bytes after the games of the state that this match did not \
                     write (another run appended to it?); move them to another file, or start \
                     a new match with another --state and --pgnout",
                    len - self.end
                ));
            }
            // The start of a game that was being written when the run ended.
            file.set_len(self.end)
                .map_err(|e| format!("cannot cut {path} back to byte {}: {e}", self.end))?;
            log::info!("{path}: cut back to byte {} (an unrecorded game)", self.end);
        }
        file.seek(SeekFrom::End(0))
            .map_err(|e| format!("{path}: {e}"))?;
        Ok(file)
    }

    fn hash_of(&self, file: &mut File) -> Result<String, String> {
        file.seek(SeekFrom::Start(self.start))
            .map_err(|e| format!("{}: {e}", self.path))?;
        let mut h = FNV_START;
        let mut left = self.end - self.start;
        let mut buf = vec![0u8; 1 << 16];
        while left > 0 {
            let n = left.min(buf.len() as u64) as usize;
            file.read_exact(&mut buf[..n])
                .map_err(|e| format!("{}: {e}", self.path))?;
            h = fnv(h, &buf[..n]);
            left -= n as u64;
        }
        Ok(format!("{h:016x}"))
    }

    /// Appends one game: `pending` must already be saved in the state.
    pub fn append(&mut self, file: &mut File, text: &str) -> Result<(), String> {
        file.write_all(text.as_bytes())
            .and_then(|_| file.sync_data())
            .map_err(|e| format!("cannot write {}: {e}", self.path))?;
        let h = u64::from_str_radix(&self.hash, 16).unwrap_or(FNV_START);
        self.hash = format!("{:016x}", fnv(h, text.as_bytes()));
        self.end += text.len() as u64;
        self.pending = None;
        Ok(())
    }
}

fn read_range(file: &mut File, from: u64, to: u64) -> Result<Vec<u8>, String> {
    file.seek(SeekFrom::Start(from))
        .map_err(|e| e.to_string())?;
    let mut buf = Vec::new();
    file.take(to - from)
        .read_to_end(&mut buf)
        .map_err(|e| e.to_string())?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_the_reference_vectors() {
        assert_eq!(fnv(FNV_START, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv(FNV_START, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(
            fnv(fnv(FNV_START, b"foo"), b"bar"),
            fnv(FNV_START, b"foobar")
        );
    }

    #[test]
    fn a_mark_reopens_its_file_and_cuts_only_its_own_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.pgn");
        std::fs::write(&path, "theirs\n").unwrap();
        let (mut mark, mut file) = PgnMark::begin(path.to_str().unwrap()).unwrap();
        assert_eq!(mark.start, 7);
        mark.append(&mut file, "game one\n").unwrap();
        mark.pending = Some("game two\n".into());
        file.write_all(b"game t").unwrap();
        drop(file);
        mark.reopen(1).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "theirs\ngame one\n"
        );
        std::fs::write(&path, "theirs\ngame one\nsomeone else\n").unwrap();
        assert!(mark.reopen(1).unwrap_err().contains("did not"));
        std::fs::write(&path, "theirs\ngame 1ne\n").unwrap();
        assert!(mark.reopen(1).unwrap_err().contains("not the 1 games"));
        std::fs::write(&path, "theirs\n").unwrap();
        assert!(mark.reopen(1).unwrap_err().contains("cut or replaced"));
    }
}
