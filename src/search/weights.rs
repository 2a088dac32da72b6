//! Evaluation weights in centipoints, `[variant][plies left][feature]`.
//! Written by `cargo run --release --example fit_eval`; do not edit by hand.

use super::eval::FEATURES;

/// The fitted weights.
pub const WEIGHTS: [[[i32; FEATURES]; 17]; 3] = [[[100, 0, 0, 0, 0, 0, 0, 0]; 17]; 3];
