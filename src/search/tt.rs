//! The transposition table: lock-free buckets of four entries, shared by all
//! search threads, replaced by depth and age.
//!
//! Each slot stores `key ^ data` next to `data`; a torn write by another
//! thread fails the key check and reads as a miss, so no locks are needed.

use crate::codes::{NO_MOVE, decode, encode};
use crate::types::Placement;
use crate::value::Value;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// The largest table, in MiB: the machine's physical memory (a table is
/// zeroed lazily, so only what a search touches is taken), or 1024 where it
/// cannot be read.
pub fn max_mb() -> usize {
    physical_mb().unwrap_or(1024).max(1)
}

#[cfg(target_os = "linux")]
fn physical_mb() -> Option<usize> {
    // SAFETY: sysconf(3) reads two numbers of the system; it touches no memory of ours.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages > 0 && size > 0).then(|| ((pages as u128 * size as u128) >> 20) as usize)
}

#[cfg(not(target_os = "linux"))]
fn physical_mb() -> Option<usize> {
    None
}

/// How a stored value bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    /// The value is exact.
    Exact = 1,
    /// The true value is at least the stored one.
    Lower = 2,
    /// The true value is at most the stored one.
    Upper = 3,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// The best move found, if any.
    pub mv: Option<Placement>,
    /// The stored value.
    pub value: Value,
    /// The depth it was searched to (clamped to the plies left).
    pub depth: u8,
    /// How the value bounds the truth.
    pub bound: TtBound,
    /// Found by a search with late-move reductions (see [`Tt::store_reduced`]).
    pub reduced: bool,
}

/// At most this many plies left, an exact search ignores the moves of
/// entries that a reduced search left: the gains order its nodes better.
/// Nodes of `solve N count go` when the reduced iterations precede the exact
/// one (a clock instead of a depth), by this limit: 9 8 / 10 12:
/// none 77.3 M / 1209 M, 6: 67.0 / 1198, 7: 65.7 / 1037, 8: 68.0 / 1064,
/// 16: 68.0 / 1161.
const REDUCED_MOVES_ABOVE: u8 = 7;

impl TtHit {
    /// The move to try first at a node searched `depth` plies deep with
    /// `left` plies left.
    #[inline]
    pub fn move_for(&self, depth: u8, left: u8) -> Option<Placement> {
        let exact = depth >= left;
        if self.reduced && exact && left <= REDUCED_MOVES_ABOVE {
            return None;
        }
        self.mv
    }

    /// Does this entry decide a node searched to `depth` with window (alpha, beta)?
    #[inline]
    pub fn cuts(&self, depth: u8, alpha: Value, beta: Value) -> bool {
        self.depth >= depth
            && match self.bound {
                TtBound::Exact => true,
                TtBound::Lower => self.value >= beta,
                TtBound::Upper => self.value <= alpha,
            }
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; 4]);

/// A transposition table of a fixed size in MiB.
pub struct Tt {
    buckets: Buckets,
    age: AtomicU8,
}

impl std::fmt::Debug for Tt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tt({} buckets)", self.buckets.len())
    }
}

/// Asks Linux to back `len` bytes from `addr` with 2 MiB pages before they
/// are first touched: a probe is a random access, and with 4 KiB pages
/// nearly every one also misses the TLB.
#[cfg(target_os = "linux")]
fn advise_huge_pages(addr: usize, len: usize) {
    // madvise wants a page-aligned start: round it up, staying inside.
    let start = (addr + 4095) & !4095;
    let len = (addr + len).saturating_sub(start);
    // SAFETY: madvise(2) with MADV_HUGEPAGE only changes how the kernel backs
    // this range, which the table owns; it reads and writes no memory, and a
    // failure (an old kernel, no transparent huge pages) is harmless and ignored.
    unsafe {
        libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_addr: usize, _len: usize) {}

/// Buckets in memory that the OS zeroes lazily: an anonymous `mmap`,
/// whose pages cost nothing until first touched, so a table of many GiB is
/// ready at once and only the part a search reaches takes memory (the
/// global allocator's `alloc_zeroed` writes every byte when asked for a
/// 64-byte alignment, and `Vec::resize_with` would too).
#[cfg(target_os = "linux")]
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
}

#[cfg(target_os = "linux")]
// SAFETY: a `Buckets` owns its memory alone, like a `Vec<Bucket>`, and a
// bucket is atomics only, safe to share between threads.
unsafe impl Send for Buckets {}
#[cfg(target_os = "linux")]
// SAFETY: as above; shared access goes through the atomics.
unsafe impl Sync for Buckets {}

#[cfg(target_os = "linux")]
impl Buckets {
    /// `n` (at least one) empty buckets.
    fn zeroed(n: usize) -> Buckets {
        let n = n.max(1);
        let size = n
            .checked_mul(std::mem::size_of::<Bucket>())
            .expect("table size fits the address space");
        // SAFETY: an anonymous private mapping of `size` bytes (non-zero)
        // asks nothing of existing memory; the kernel returns page-aligned
        // (so 64-byte aligned) zeroed memory or MAP_FAILED, checked below.
        // All-zero bytes are a valid bucket: atomics only, `Default` zero.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            std::alloc::handle_alloc_error(
                std::alloc::Layout::array::<Bucket>(n).expect("table size fits"),
            );
        }
        advise_huge_pages(ptr as usize, size);
        Buckets {
            ptr: std::ptr::NonNull::new(ptr as *mut Bucket).expect("mmap never returns null"),
            len: n,
        }
    }
}

#[cfg(target_os = "linux")]
impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` points to `len` initialised (zeroed) buckets that
        // this value owns until drop.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

#[cfg(target_os = "linux")]
impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `zeroed`; no slice of
        // it outlives `self`.
        unsafe {
            libc::munmap(
                self.ptr.as_ptr() as *mut libc::c_void,
                self.len * std::mem::size_of::<Bucket>(),
            );
        }
    }
}

/// Elsewhere the buckets are a vector (written once, not lazily).
#[cfg(not(target_os = "linux"))]
struct Buckets(Vec<Bucket>);

#[cfg(not(target_os = "linux"))]
impl Buckets {
    fn zeroed(n: usize) -> Buckets {
        let mut v = Vec::new();
        v.resize_with(n.max(1), Bucket::default);
        Buckets(v)
    }
}

#[cfg(not(target_os = "linux"))]
impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        &self.0
    }
}

fn pack(mv: u16, value: Value, depth: u8, bound: TtBound, age: u8, reduced: bool) -> u64 {
    let v = value.clamp(i16::MIN as Value, i16::MAX as Value) as i16 as u16;
    mv as u64
        | (v as u64) << 16
        | (depth as u64) << 32
        | (bound as u64) << 40
        | (age as u64) << 42
        | (reduced as u64) << 48
}

fn bound_of(data: u64) -> Option<TtBound> {
    match data >> 40 & 3 {
        1 => Some(TtBound::Exact),
        2 => Some(TtBound::Lower),
        3 => Some(TtBound::Upper),
        _ => None,
    }
}

fn age_of(data: u64) -> u8 {
    (data >> 42 & 63) as u8
}

fn depth_of(data: u64) -> u8 {
    (data >> 32) as u8
}

impl Tt {
    /// A table of about `mb` MiB (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let n = ((mb.max(1) << 20) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = Buckets::zeroed(n);
        Tt {
            buckets,
            age: AtomicU8::new(0),
        }
    }

    /// Size in MiB as asked for.
    pub fn mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for s in &b.0 {
                s.check.store(0, Relaxed);
                s.data.store(0, Relaxed);
            }
        }
        self.age.store(0, Relaxed);
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        let a = self.age.load(Relaxed);
        self.age.store((a + 1) & 63, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe a
    /// little later does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: SSE is part of x86_64; a prefetch only hints the cache
            // and never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for s in &self.bucket(key).0 {
            let data = s.data.load(Relaxed);
            if s.check.load(Relaxed) ^ data == key {
                return Some(TtHit {
                    mv: decode(data as u16),
                    value: (data >> 16) as u16 as i16 as Value,
                    depth: depth_of(data),
                    bound: bound_of(data)?,
                    reduced: data >> 48 & 1 != 0,
                });
            }
        }
        None
    }

    /// Stores a search result for `key`.
    #[inline]
    pub fn store(&self, key: u64, mv: Option<Placement>, value: Value, depth: u8, bound: TtBound) {
        self.store_reduced(key, mv, value, depth, bound, false);
    }

    /// Stores a search result for `key`, marked if `reduced`: a search with
    /// late-move reductions found it.
    #[inline]
    pub fn store_reduced(
        &self,
        key: u64,
        mv: Option<Placement>,
        value: Value,
        depth: u8,
        bound: TtBound,
        reduced: bool,
    ) {
        let age = self.age.load(Relaxed);
        let slots = &self.bucket(key).0;
        let mut victim = &slots[0];
        let mut worst = i32::MAX;
        for s in slots {
            let data = s.data.load(Relaxed);
            if s.check.load(Relaxed) ^ data == key {
                victim = s;
                break;
            }
            let stale = ((age + 64 - age_of(data)) & 63) as i32;
            let worth = depth_of(data) as i32 - 8 * stale - if data == 0 { 1000 } else { 0 };
            if worth < worst {
                worst = worth;
                victim = s;
            }
        }
        let mut m = mv.map_or(NO_MOVE, encode);
        if m == NO_MOVE {
            let old = victim.data.load(Relaxed);
            if victim.check.load(Relaxed) ^ old == key {
                m = old as u16;
            }
        }
        let data = pack(m, value, depth, bound, age, reduced);
        victim.check.store(key ^ data, Relaxed);
        victim.data.store(data, Relaxed);
    }

    /// Permille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let sample = self.buckets.len().min(250);
        let used = self.buckets[..sample]
            .iter()
            .flat_map(|b| &b.0)
            .filter(|s| {
                let d = s.data.load(Relaxed);
                d != 0 && age_of(d) == age
            })
            .count();
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let tt = Tt::new(1);
        let mv: Placement = "Q@e5".parse().unwrap();
        tt.store(0x1234_5678_9abc_def0, Some(mv), -1234, 7, TtBound::Lower);
        let hit = tt.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!(
            hit,
            TtHit {
                mv: Some(mv),
                value: -1234,
                depth: 7,
                bound: TtBound::Lower,
                reduced: false,
            }
        );
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
        // A store without a move keeps the old one.
        tt.store(0x1234_5678_9abc_def0, None, 50, 8, TtBound::Exact);
        assert_eq!(tt.probe(0x1234_5678_9abc_def0).unwrap().mv, Some(mv));
        assert!(tt.hashfull() < 1000);
        tt.clear();
        assert!(tt.probe(0x1234_5678_9abc_def0).is_none());
    }

    #[test]
    fn exact_searches_near_the_end_skip_the_moves_of_reduced_entries() {
        let tt = Tt::new(1);
        let mv: Placement = "Q@e5".parse().unwrap();
        tt.store_reduced(1, Some(mv), 10, 3, TtBound::Lower, true);
        tt.store(2, Some(mv), 10, 3, TtBound::Lower);
        let (reduced, full) = (tt.probe(1).unwrap(), tt.probe(2).unwrap());
        assert!(reduced.reduced && !full.reduced);
        assert_eq!(full.move_for(7, 7), Some(mv));
        assert_eq!(reduced.move_for(7, 7), None);
        assert_eq!(reduced.move_for(6, 7), Some(mv));
        let far = REDUCED_MOVES_ABOVE + 1;
        assert_eq!(reduced.move_for(far, far), Some(mv));
    }

    #[test]
    fn cut_conditions() {
        let hit = |bound| TtHit {
            mv: None,
            value: 100,
            depth: 5,
            bound,
            reduced: false,
        };
        assert!(hit(TtBound::Exact).cuts(5, 0, 50));
        assert!(!hit(TtBound::Exact).cuts(6, 0, 50));
        assert!(hit(TtBound::Lower).cuts(5, 0, 100));
        assert!(!hit(TtBound::Lower).cuts(5, 0, 101));
        assert!(hit(TtBound::Upper).cuts(5, 100, 200));
        assert!(!hit(TtBound::Upper).cuts(5, 99, 200));
    }
}
