//! What an option looks like to a GUI: the `option` lines' data.

/// What an option looks like to a GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number in a range.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// One of a list of words.
    Combo {
        /// The default.
        default: &'static str,
        /// The choices.
        vars: Vec<&'static str>,
    },
    /// On or off (`true`/`false`).
    Check {
        /// The default.
        default: bool,
    },
    /// An action without a value.
    Button,
}

/// One option: its name and kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The name, as listed.
    pub name: &'static str,
    /// Its kind and range.
    pub kind: Kind,
}
