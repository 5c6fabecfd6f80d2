//! The wasm boundary: the only code that imports `wasm_bindgen`, `js_sys`, `web_sys`,
//! `serde_wasm_bindgen` and `plotters_canvas`.
//!
//! - `session`: the worker's one opaque handle (train, query, project, export).
//! - `dto`: the serialisable shapes that cross the boundary.
//! - `pool`: the training threads of the threaded build (host workers over shared memory).
//! - `timeline`: the training timeline across the boundary (frames for a bundle, neighbours through time).
//! - `chart`: `Chart`, the page's drawing handle over a canvas, which paints what
//!   [`crate::plot`] computes (geometry, the scene's shapes, the pixel buffer);
//!   plotters-canvas draws the loss chart.
//! - `glyphs`: the map's texts drawn once by the canvas and kept as coverage masks.
//! - `compressed`: `CompressedFile`, the file inside a gzip, bzip2, xz or zip `File`, read
//!   a slice at a time through the worker's synchronous reads.

mod chart;
mod compressed;
mod dto;
mod glyphs;
mod overlays;
mod pool;
mod session;
mod timeline;

use wasm_bindgen::prelude::*;

pub use session::Session;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// Runs when the module is instantiated: a panic then reaches the console with its message
/// before the instance traps, so the page can report it instead of failing silently.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| console_error(&format!("embedscope panicked: {info}"))));
}

/// The crate version, so the page can show the module is alive.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The built-in sample: a text with planted structure that the project writes itself
/// (see `crate::planted`), so the page works with no network and no file. The worker gives
/// it to its session with `Session::set_sample_text`; the browser tests read it here.
#[wasm_bindgen]
pub fn sample_text() -> String {
    crate::planted::sample_corpus()
}

/// The text of a built-in benchmark, written by the project for the built-in sample:
/// `planted-analogies` (questions-words format) or `planted-similarity` (word pairs).
#[wasm_bindgen]
pub fn benchmark_text(name: &str) -> Result<String, JsError> {
    match name {
        "planted-analogies" => Ok(crate::planted::planted_analogy_benchmark()),
        "planted-similarity" => Ok(crate::planted::planted_similarity_benchmark()),
        _ => Err(JsError::new(&format!(
            "no built-in benchmark '{name}': expected planted-analogies or planted-similarity"
        ))),
    }
}

/// Panics on purpose. Nothing in the app calls it: the browser tests do, through the
/// worker's `testPanic` request, to check that the page notices a dead worker, says so and
/// starts a fresh one (a real panic is a bug, but must never leave the page frozen).
#[wasm_bindgen]
pub fn panic_for_test() {
    panic!("a deliberate panic, to test that the page recovers");
}
