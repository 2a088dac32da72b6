//! What a placement on each square gains or costs.

pub mod kept_loss_map;
pub mod keys;
pub mod loss_map;
pub mod offers;
pub mod points;
