//! Drawing the map without a canvas: everything the page's `Chart` decides before it paints,
//! in plain Rust, so `cargo test` checks it natively.
//!
//! - [`geometry`]: fitting a data range, mapping data to pixels, the point under the mouse,
//!   arrow heads and greedy label placement.
//! - [`labels`]: which points are offered a label at this zoom (a grid of cells, so 250,000
//!   points stay cheap), and where cluster names go.
//! - [`density`]: where the points crowd: a kernel density estimate on a grid, its contour
//!   levels and lines, painted over the plain dots.
//! - [`scene`]: the scatter's marks (dots, trails, lines, arrows, labels) as one list of
//!   [`Shape`](scene::Shape)s in painting order, with the sizes; [`palette`]: the colours and
//!   the point styles; [`frame`]: the axes, ticks, grid and titles under and beside them.
//! - [`raster`]: the opaque layer (background, grid, axes, dots) written into an RGBA buffer
//!   with coverage antialiasing, which the canvas takes as one image.
//! - [`svg`]: the same shapes as SVG, for the export.
//!
//! **Architecture Invariant:** the canvas and the SVG export draw the same list of shapes,
//! so the two pictures cannot drift apart; lengths are in the drawing's pixels (y grows
//! downwards), and only the wasm `Chart` touches a canvas.

pub mod density;
pub mod frame;
pub mod geometry;
pub mod labels;
pub mod palette;
pub mod raster;
pub mod scene;
pub mod svg;
