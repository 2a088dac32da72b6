//! The solution store: proven values and bounds of the positions near the
//! top of a solve, in an SQLite database (`rusqlite`, SQLite compiled in).
//!
//! SQLite because its commits are atomic and survive a kill of the process
//! at any moment (write-ahead log), one file holds everything, and any
//! language reads it (`sqlite3`, Python's standard library) without our code.
//!
//! Tables: `meta` (format, version, variant, mode: a store is never read for
//! another variant or mode), `positions` (canonical key, plies left, the
//! interval [lo, hi] that holds the value in points, the best move in the
//! canonical image, the nodes it cost) and `runs` (each run's nodes and time,
//! for the published figures). Writes wait in memory and go in one
//! transaction every [`BATCH`] or on [`Store::flush`].

use super::mode::Mode;
pub use super::mode::NO_BOUND;
use crate::types::Placement;
use crate::variant::Variant;
use rusqlite::{Connection, OpenFlags, params};
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// What `meta.format` says in every store.
const FORMAT: &str = "cheversi-solve-store";
/// The layout's version.
const VERSION: &str = "1";
/// Longest a proven entry waits in memory before it is committed.
pub const BATCH: Duration = Duration::from_secs(2);

/// What is known of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Plies left.
    pub left: u8,
    /// The value is at least this (points).
    pub lo: i32,
    /// The value is at most this (points).
    pub hi: i32,
    /// The move that proves `lo` (in the canonical image), if known.
    pub best: Option<Placement>,
    /// Nodes spent proving it, summed over the runs.
    pub nodes: u64,
}

/// The better-proven lower end of two intervals of one position: the
/// higher `lo` with the move proving it (on a tie, the one with a move).
pub fn higher_lo(
    a: (i32, Option<Placement>),
    b: (i32, Option<Placement>),
) -> (i32, Option<Placement>) {
    if b.0 > a.0 || a.1.is_none() && b.0 == a.0 {
        b
    } else {
        a
    }
}

impl Entry {
    /// Nothing known yet of a position with `left` plies left.
    pub fn unknown(left: u8) -> Entry {
        Entry {
            left,
            lo: -NO_BOUND,
            hi: NO_BOUND,
            best: None,
            nodes: 0,
        }
    }
}

/// An open store, its entries in memory.
pub struct Store {
    conn: Connection,
    entries: HashMap<String, Entry>,
    fens: HashMap<String, String>,
    pending: Vec<String>,
    last_commit: Instant,
    batch: Duration,
    run: i64,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Store({} entries)", self.entries.len())
    }
}

fn db(e: rusqlite::Error) -> String {
    format!("store: {e}")
}

impl Store {
    /// Opens the store at `path` for `variant` and `mode`, creating it if
    /// no file is there. A file that is not a store, or a store of another
    /// variant or mode, is refused and left as it was.
    pub fn open(path: &Path, variant: Variant, mode: Mode) -> Result<Store, String> {
        let exists = path.exists();
        let flags = if exists {
            OpenFlags::SQLITE_OPEN_READ_WRITE
        } else {
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE
        };
        let conn = Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_NO_MUTEX)
            .map_err(|e| format!("cannot open the store {}: {e}", path.display()))?;
        if exists {
            check_meta(&conn, variant, mode)
                .map_err(|e| format!("{} is not usable as a store: {e}", path.display()))?;
        }
        conn.execute_batch("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
            .map_err(db)?;
        if !exists {
            create(&conn, variant, mode).map_err(db)?;
        }
        Store::with(conn)
    }

    /// A store in memory only, for a solve without `--store`.
    pub fn memory(variant: Variant, mode: Mode) -> Result<Store, String> {
        let conn = Connection::open_in_memory().map_err(db)?;
        create(&conn, variant, mode).map_err(db)?;
        Store::with(conn)
    }

    fn with(conn: Connection) -> Result<Store, String> {
        conn.execute(
            "INSERT INTO runs (started, nodes, seconds, binary) VALUES (datetime('now'), 0, 0, ?1)",
            params![env!("CARGO_PKG_VERSION")],
        )
        .map_err(db)?;
        let (entries, fens) = load(&conn).map_err(db)?;
        Ok(Store {
            entries,
            fens,
            run: conn.last_insert_rowid(),
            conn,
            pending: Vec::new(),
            last_commit: Instant::now(),
            batch: BATCH,
        })
    }

    /// Opens an existing store to read only, whatever its variant and mode.
    pub fn open_read(path: &Path) -> Result<(Store, Variant, Mode), String> {
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| format!("cannot open the store {}: {e}", path.display()))?;
        let (variant, mode) =
            read_meta(&conn).map_err(|e| format!("{} is not a store: {e}", path.display()))?;
        let (entries, fens) = load(&conn).map_err(db)?;
        let store = Store {
            conn,
            entries,
            fens,
            pending: Vec::new(),
            last_commit: Instant::now(),
            batch: BATCH,
            run: 0,
        };
        Ok((store, variant, mode))
    }

    /// What is known of the position with this canonical key.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.get(key)
    }

    /// Commits at most every `batch` instead of [`BATCH`] (zero: every entry).
    pub fn set_batch(&mut self, batch: Duration) {
        self.batch = batch;
    }

    /// How many positions are known.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Is nothing known?
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry.
    pub fn entries(&self) -> impl Iterator<Item = (&String, &Entry)> {
        self.entries.iter()
    }

    /// A position string of the position with this key (the canonical image).
    pub fn fen(&self, key: &str) -> Option<&str> {
        self.fens.get(key).map(String::as_str)
    }

    /// Records what was proven of `key` (position string `fen`); committed
    /// with the next batch.
    pub fn put(&mut self, key: &str, fen: &str, e: Entry) {
        self.entries.insert(key.to_string(), e);
        if !self.fens.contains_key(key) {
            self.fens.insert(key.to_string(), fen.to_string());
        }
        self.pending.push(key.to_string());
    }

    /// Commits the waiting entries if the batch is due; records the run's
    /// totals with them.
    pub fn tick(&mut self, nodes: u64, seconds: f64) -> Result<(), String> {
        if self.last_commit.elapsed() >= self.batch {
            self.flush(nodes, seconds)?;
        }
        Ok(())
    }

    /// Commits the waiting entries and the run's totals now, in one transaction.
    pub fn flush(&mut self, nodes: u64, seconds: f64) -> Result<(), String> {
        let tx = self.conn.transaction().map_err(db)?;
        {
            let mut put = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO positions (key, fen, left, lo, hi, best, nodes) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )
                .map_err(db)?;
            for key in self.pending.drain(..) {
                let e = self.entries[&key];
                let best = e.best.map(|m| m.to_string());
                let fen = &self.fens[&key];
                put.execute(params![key, fen, e.left, e.lo, e.hi, best, e.nodes as i64])
                    .map_err(db)?;
            }
            tx.execute(
                "UPDATE runs SET nodes = ?1, seconds = ?2 WHERE id = ?3",
                params![nodes as i64, seconds, self.run],
            )
            .map_err(db)?;
        }
        tx.commit().map_err(db)?;
        self.last_commit = Instant::now();
        Ok(())
    }

    /// Nodes and seconds of every run so far (this one as last committed).
    pub fn totals(&self) -> Result<(u64, f64, u64), String> {
        self.conn
            .query_row(
                "SELECT COALESCE(SUM(nodes), 0), COALESCE(SUM(seconds), 0), COUNT(*) FROM runs",
                [],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)? as u64,
                        r.get(1)?,
                        r.get::<_, i64>(2)? as u64,
                    ))
                },
            )
            .map_err(db)
    }
}

fn create(conn: &Connection, variant: Variant, mode: Mode) -> rusqlite::Result<()> {
    conn.execute_batch(
        "BEGIN;
         CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
         CREATE TABLE positions (key TEXT PRIMARY KEY, fen TEXT NOT NULL, left INTEGER NOT NULL,
             lo INTEGER NOT NULL, hi INTEGER NOT NULL, best TEXT, nodes INTEGER NOT NULL)
             WITHOUT ROWID;
         CREATE TABLE runs (id INTEGER PRIMARY KEY, started TEXT NOT NULL,
             nodes INTEGER NOT NULL, seconds REAL NOT NULL, binary TEXT NOT NULL);",
    )?;
    for (k, v) in [
        ("format", FORMAT),
        ("version", VERSION),
        ("variant", variant.name()),
        ("mode", mode.name()),
    ] {
        conn.execute("INSERT INTO meta VALUES (?1, ?2)", params![k, v])?;
    }
    conn.execute_batch("COMMIT;")
}

fn meta(conn: &Connection, name: &str) -> Result<String, String> {
    conn.query_row("SELECT value FROM meta WHERE name = ?1", [name], |r| {
        r.get(0)
    })
    .map_err(|e| format!("no '{name}' in its meta table ({e})"))
}

fn read_meta(conn: &Connection) -> Result<(Variant, Mode), String> {
    if meta(conn, "format")? != FORMAT {
        return Err("its meta table is not a Cheversi store's".into());
    }
    let version = meta(conn, "version")?;
    if version != VERSION {
        return Err(format!(
            "layout version {version}, this program reads {VERSION}"
        ));
    }
    let variant = meta(conn, "variant")?.parse().map_err(|e| format!("{e}"))?;
    let mode = Mode::from_name(&meta(conn, "mode")?).ok_or("an unknown mode")?;
    Ok((variant, mode))
}

fn check_meta(conn: &Connection, variant: Variant, mode: Mode) -> Result<(), String> {
    let (v, m) = read_meta(conn)?;
    if (v, m) != (variant, mode) {
        return Err(format!(
            "it holds {v} {} solutions, not {variant} {}",
            m.name(),
            mode.name()
        ));
    }
    Ok(())
}

type Loaded = (HashMap<String, Entry>, HashMap<String, String>);

fn load(conn: &Connection) -> rusqlite::Result<Loaded> {
    let mut q = conn.prepare("SELECT key, fen, left, lo, hi, best, nodes FROM positions")?;
    let rows = q.query_map([], |r| {
        let best: Option<String> = r.get(5)?;
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            Entry {
                left: r.get(2)?,
                lo: r.get(3)?,
                hi: r.get(4)?,
                best: best.and_then(|b| b.parse().ok()),
                nodes: r.get::<_, i64>(6)? as u64,
            },
        ))
    })?;
    let (mut entries, mut fens) = (HashMap::new(), HashMap::new());
    for row in rows {
        let (key, fen, e) = row?;
        fens.insert(key.clone(), fen);
        entries.insert(key, e);
    }
    Ok((entries, fens))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("cheversi-store-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        p
    }

    #[test]
    fn entries_survive_reopening_and_other_modes_are_refused() {
        let p = temp("reopen");
        let mut s = Store::open(&p, Variant::Standard, Mode::Wdl).unwrap();
        let e = Entry {
            left: 12,
            lo: 1,
            hi: NO_BOUND,
            best: Some("Q@e5".parse().unwrap()),
            nodes: 7,
        };
        s.put("k", "8/8/8/8/8/8/8/8 w -", e);
        s.flush(7, 0.5).unwrap();
        drop(s);
        let s = Store::open(&p, Variant::Standard, Mode::Wdl).unwrap();
        assert_eq!(s.get("k"), Some(&e));
        drop(s);
        assert!(Store::open(&p, Variant::Standard, Mode::Exact).is_err());
        assert!(Store::open(&p, Variant::Open, Mode::Wdl).is_err());
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn a_file_that_is_not_a_store_is_left_alone() {
        let p = temp("foreign");
        std::fs::write(&p, b"my notes, not a database\n").unwrap();
        assert!(Store::open(&p, Variant::Standard, Mode::Wdl).is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"my notes, not a database\n");
        // Another program's SQLite database is refused too.
        let other = Connection::open(p.with_extension("db")).unwrap();
        other.execute_batch("CREATE TABLE t (x);").unwrap();
        drop(other);
        let before = std::fs::read(p.with_extension("db")).unwrap();
        assert!(Store::open(&p.with_extension("db"), Variant::Standard, Mode::Wdl).is_err());
        assert_eq!(std::fs::read(p.with_extension("db")).unwrap(), before);
        let _ = std::fs::remove_file(&p);
        let _ = std::fs::remove_file(p.with_extension("db"));
    }
}
