//! The wasm boundary: the only code that imports `wasm_bindgen`.

use wasm_bindgen::prelude::*;

/// The crate version, so the page can show the module is alive.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
