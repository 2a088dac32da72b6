//! What a solve decides: the exact value or win/draw/loss.

/// A bound that says nothing ("at least -1000 points").
pub const NO_BOUND: i32 = 1000;

/// What a solve decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The final point difference.
    Exact,
    /// Win, draw or loss only (the window (-1, 1) point).
    Wdl,
}

impl Mode {
    /// The name written in a store.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Exact => "exact",
            Mode::Wdl => "wdl",
        }
    }

    /// The mode of a name written by [`Mode::name`].
    pub fn from_name(name: &str) -> Option<Mode> {
        match name {
            "exact" => Some(Mode::Exact),
            "wdl" => Some(Mode::Wdl),
            _ => None,
        }
    }

    /// The root window, in points.
    pub fn window(self) -> (i32, i32) {
        match self {
            Mode::Exact => (-NO_BOUND, NO_BOUND),
            Mode::Wdl => (-1, 1),
        }
    }
}

/// What the value means: `win`, `draw`, `loss`, or `unknown`.
pub fn outcome(lo: i32, hi: i32) -> &'static str {
    if lo >= 1 {
        "win"
    } else if hi <= -1 {
        "loss"
    } else if lo == 0 && hi == 0 {
        "draw"
    } else {
        "unknown"
    }
}
