//! What a run is: its source (a text and what was learned from it, or vectors opened from a
//! file), preparation, training, the snapshot kept for queries, and the one state machine
//! of the session's life ([`machine`]).

pub mod machine;
