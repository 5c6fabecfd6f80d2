//! Constants the page keeps its own copies of, written by Rust into
//! `tests/shared/constants.json`; `tests/www/shared-constants.test.js` checks the page's copies
//! (`www/map/palette.js`, `www/map/density.js`) against that file. A test fails when the
//! committed file differs from what Rust writes; `UPDATE_SHARED_CONSTANTS=1 cargo test --test
//! shared_constants` rewrites it.

use embedscope::plot::density::MAX_GRID;
use embedscope::plot::scene::{DIMMED, PLAIN};
use serde_json::json;

const PATH: &str = "tests/shared/constants.json";

#[test]
fn the_constants_the_page_copies_are_the_cores() {
    let constants = json!({
        "about": "Written by tests/shared_constants.rs from the core's constants; tests/www/shared-constants.test.js checks the page's copies against them.",
        "scene": { "PLAIN": PLAIN, "DIMMED": DIMMED },
        "density": { "MAX_GRID": MAX_GRID },
    });
    let written = serde_json::to_string_pretty(&constants).unwrap() + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PATH);
    if std::env::var_os("UPDATE_SHARED_CONSTANTS").is_some() {
        std::fs::write(&path, &written).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == written,
        "{PATH} differs from the core's constants; rewrite it with\n\n    \
         UPDATE_SHARED_CONSTANTS=1 cargo test --test shared_constants\n\nand commit it. Rust writes:\n{written}"
    );
}
