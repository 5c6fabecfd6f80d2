//! The map's options and palette as the page passes them, checked into what `plot::scene` draws.

use serde::Deserialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::plot::scene::{Emphasis, Paint, Palette};

/// The scatter's options, as the page passes them (see `Chart::draw_scatter`).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct ScatterOptions {
    pub(super) x_label: String,
    pub(super) y_label: String,
    pub(super) label_count: u32,
    pub(super) hovered: Option<u32>,
    pub(super) selected: Option<u32>,
    pub(super) neighbours: Vec<u32>,
    pub(super) arrows: Vec<[u32; 2]>,
    pub(super) moves: Vec<MoveMark>,
    pub(super) highlighted: Vec<u32>,
    pub(super) preferred: Vec<u32>,
    pub(super) fixed_range: Option<[f64; 4]>,
    pub(super) trails: Vec<Vec<f64>>,
    pub(super) caption: Option<String>,
    pub(super) cluster_names: Vec<ClusterName>,
    pub(super) moving: bool,
}

/// A word's move, drawn as an arrow ending at its point from `(dx, dy)` data units before it
/// (see `Chart::draw_map`).
#[derive(Deserialize)]
pub(super) struct MoveMark {
    pub(super) point: u32,
    pub(super) dx: f64,
    pub(super) dy: f64,
}

/// A cluster's name and where it goes, in data coordinates (see `Chart::draw_map`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ClusterName {
    pub(super) text: String,
    pub(super) x: f64,
    pub(super) y: f64,
    /// The colour of its swatch, as a point's style (plain when left out).
    #[serde(default = "plain")]
    pub(super) style: u8,
}

fn plain() -> u8 {
    crate::plot::scene::PLAIN
}

impl ScatterOptions {
    /// The option names as JS spells them. serde-wasm-bindgen reads only the fields it knows
    /// (so `deny_unknown_fields` has no effect); `from_js` checks the names itself, so that a
    /// misspelt option fails instead of being ignored.
    const NAMES: [&str; 15] = [
        "xLabel",
        "yLabel",
        "labelCount",
        "hovered",
        "selected",
        "neighbours",
        "arrows",
        "moves",
        "highlighted",
        "preferred",
        "fixedRange",
        "trails",
        "caption",
        "clusterNames",
        "moving",
    ];

    /// Reads the options from JS (`undefined` or `null` means all defaults) and checks every
    /// point index is below `n_points`.
    pub(super) fn from_js(value: JsValue, n_points: usize) -> Result<Self, JsError> {
        let options: ScatterOptions = if value.is_undefined() || value.is_null() {
            ScatterOptions::default()
        } else {
            if value.is_object() {
                let names = js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>());
                if let Some(name) =
                    names.iter().filter_map(|n| n.as_string()).find(|n| !Self::NAMES.contains(&n.as_str()))
                {
                    return Err(JsError::new(&format!(
                        "unknown scatter option `{name}`, expected one of {}",
                        Self::NAMES.join(", ")
                    )));
                }
            }
            serde_wasm_bindgen::from_value(value)
                .map_err(|e| JsError::new(&format!("invalid scatter options: {e}")))?
        };
        let indices = (options.hovered.iter().chain(&options.selected))
            .chain(&options.neighbours)
            .chain(options.arrows.iter().flatten())
            .chain(options.moves.iter().map(|m| &m.point))
            .chain(&options.highlighted)
            .chain(&options.preferred);
        if let Some(bad) = indices.copied().find(|&i| i as usize >= n_points) {
            return Err(JsError::new(&format!(
                "point index {bad} in the scatter options is out of range for {n_points} points"
            )));
        }
        if let Some(bad) =
            options.trails.iter().position(|t| t.len() % 2 != 0 || t.iter().any(|v| !v.is_finite()))
        {
            return Err(JsError::new(&format!("trail {bad} must be [x0, y0, x1, y1, …] of finite numbers")));
        }
        if let Some(bad) = options.moves.iter().position(|m| !(m.dx.is_finite() && m.dy.is_finite())) {
            return Err(JsError::new(&format!("move {bad} must have a finite dx and dy")));
        }
        if let Some(bad) = options.cluster_names.iter().position(|n| !(n.x.is_finite() && n.y.is_finite())) {
            return Err(JsError::new(&format!("cluster name {bad} must be at finite coordinates")));
        }
        if let Some([x0, x1, y0, y1]) = options.fixed_range {
            let valid = |lo: f64, hi: f64| lo.is_finite() && hi.is_finite() && lo < hi;
            if !valid(x0, x1) || !valid(y0, y1) {
                return Err(JsError::new(&format!(
                    "fixedRange must be [xmin, xmax, ymin, ymax] with finite min < max, got {:?}",
                    [x0, x1, y0, y1]
                )));
            }
        }
        Ok(options)
    }

    /// Indices of the points labelled before the frequent ones, most important first:
    /// those always labelled, then the `preferred` ones where their labels fit.
    pub(super) fn first_labels(&self) -> Vec<usize> {
        let mut first = self.must_label();
        first.extend(self.preferred.iter().map(|&i| i as usize));
        first
    }

    /// Indices of the points that are always labelled, most important first.
    pub(super) fn must_label(&self) -> Vec<usize> {
        let arrow_ends = self.arrows.iter().flatten();
        (self.selected.iter().chain(&self.hovered))
            .chain(arrow_ends)
            .chain(&self.neighbours)
            .chain(&self.highlighted)
            .map(|&i| i as usize)
            .collect()
    }
}

/// Each point's emphasis from the options (before labelling).
pub(super) fn emphasis_of(n_points: usize, options: &ScatterOptions) -> Vec<Emphasis> {
    let mut emphasis = vec![Emphasis::Plain; n_points];
    let mut raise = |i: u32, level: Emphasis| {
        let e = &mut emphasis[i as usize];
        *e = (*e).max(level);
    };
    options.neighbours.iter().chain(&options.highlighted).for_each(|&i| raise(i, Emphasis::Marked));
    options.arrows.iter().flatten().for_each(|&i| raise(i, Emphasis::Arrow));
    options.selected.iter().chain(&options.hovered).for_each(|&i| raise(i, Emphasis::Strong));
    emphasis
}

/// The palette as the page sends it (see `Chart::set_palette`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct PaletteDto {
    background: [f64; 4],
    axis: [f64; 4],
    grid: [f64; 4],
    text: [f64; 4],
    point: [f64; 4],
    labelled_point: [f64; 4],
    accent: [f64; 4],
    arrow: [f64; 4],
    dimmed: [f64; 4],
    trail: [f64; 4],
    classes: Vec<[f64; 4]>,
}

impl PaletteDto {
    pub(super) fn into_palette(self) -> Result<Palette, JsError> {
        let paint = |[r, g, b, a]: [f64; 4]| -> Result<Paint, JsError> {
            let channel = |v: f64| (0.0..=255.0).contains(&v).then(|| v.round() as u8);
            match (channel(r), channel(g), channel(b)) {
                (Some(r), Some(g), Some(b)) if (0.0..=1.0).contains(&a) => Ok(Paint::new(r, g, b, a)),
                _ => Err(JsError::new(&format!(
                    "a palette colour must be [r, g, b, alpha] with channels 0–255 and alpha 0–1, got {:?}",
                    [r, g, b, a]
                ))),
            }
        };
        Ok(Palette {
            background: paint(self.background)?,
            axis: paint(self.axis)?,
            grid: paint(self.grid)?,
            text: paint(self.text)?,
            point: paint(self.point)?,
            labelled_point: paint(self.labelled_point)?,
            accent: paint(self.accent)?,
            arrow: paint(self.arrow)?,
            dimmed: paint(self.dimmed)?,
            trail: paint(self.trail)?,
            classes: self.classes.into_iter().map(paint).collect::<Result<_, _>>()?,
        })
    }
}
