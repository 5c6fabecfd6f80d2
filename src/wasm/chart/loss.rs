//! The loss chart: plotters' axes, ticks, lines and epoch dots on the canvas.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use wasm_bindgen::prelude::*;

use crate::plot::geometry::{DataRange, Rect, fit_axis};
use crate::plot::scene::{self, Palette};

use super::{
    Chart, MARGIN, X_LABEL_AREA, X_TICKS, Y_LABEL_AREA, Y_TICKS, drawing_error, px, rgb, tick_label,
};

#[wasm_bindgen]
impl Chart {
    /// Draws the loss chart: `epoch_losses` (mean loss of each finished epoch, at x = 1, 2,
    /// ...) and `within_epoch` (flat `[x, loss, x, loss, ...]` samples where x is a
    /// fractional epoch, e.g. 1.25), with axes "epoch" and "loss"; fits the y range to the
    /// data; the x range is `0..=epochs`. `epoch_terms` (flat `[positive, negative, ...]`,
    /// one pair a finished epoch) and `within_terms` (flat `[x, positive, negative, ...]`)
    /// are the loss's two terms, drawn in the first class colour (positive) and the arrow
    /// colour (negative); either may be empty, as for vectors opened with their losses only.
    /// `marker`, when given, is the moment the map shows (a fractional epoch, as the timeline
    /// replays it), drawn as a vertical line in the trail colour with `marker_label` beside it.
    /// Fails on a length that does not fit its stride or a value that is not finite. The
    /// series come as separate typed arrays, each copied once across the boundary.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_loss(
        &mut self,
        epochs: u32,
        epoch_losses: &[f64],
        within_epoch: &[f64],
        epoch_terms: &[f64],
        within_terms: &[f64],
        marker: Option<f64>,
        marker_label: Option<String>,
    ) -> Result<(), JsError> {
        check_loss_series(epoch_losses, within_epoch, epoch_terms, within_terms, marker)?;
        let samples: Vec<(f64, f64)> = within_epoch.chunks_exact(2).map(|s| (s[0], s[1])).collect();
        let epoch_points: Vec<(f64, f64)> =
            epoch_losses.iter().enumerate().map(|(i, &loss)| ((i + 1) as f64, loss)).collect();
        // The terms' series: the epochs' points, then the samples within them, of each term.
        let term = |t: usize| -> [Vec<(f64, f64)>; 2] {
            let epochs =
                epoch_terms.chunks_exact(2).enumerate().map(|(i, p)| ((i + 1) as f64, p[t])).collect();
            let within = within_terms.chunks_exact(3).map(|s| (s[0], s[1 + t])).collect();
            [epochs, within]
        };
        let positive_colour = self.palette.classes.first().copied().unwrap_or(self.palette.labelled_point);
        let terms = [(term(0), positive_colour), (term(1), self.palette.arrow)];
        let term_values = epoch_terms.iter().chain(within_terms.chunks_exact(3).flat_map(|s| &s[1..]));
        let losses = epoch_losses.iter().chain(term_values).copied().chain(samples.iter().map(|s| s.1));
        let range = DataRange { x: (0.0, f64::from(epochs.max(1))), y: fit_axis(losses, 0.08) };

        let root = self.root()?;
        let s = self.scale;
        let mut chart = cartesian(&root, range, s)?;
        let area = draw_mesh(&mut chart, s, &self.palette, "epoch", "loss", Some(epochs.max(1)))?;
        let thin = ShapeStyle::from(&rgb(self.palette.point)).stroke_width(px(scene::LINE * s));
        chart.draw_series(LineSeries::new(samples, thin)).map_err(drawing_error)?;
        let accent = rgb(self.palette.accent);
        let bold = ShapeStyle::from(&accent).stroke_width(px(scene::ARROW * s));
        // A dot per epoch while the dots stand apart; with hundreds of epochs they would
        // overlap into a thick line and cost a circle each on every redraw.
        let dot = px(scene::EMPHASISED_DOT * s);
        let spacing = (area.right - area.left) / f64::from(epochs.max(1));
        let dotted = spacing >= 4.0 * f64::from(dot);
        // The terms under the total: each its samples thin, its epochs' means a line.
        for ([epoch_means, within], paint) in terms {
            let colour = rgb(paint);
            let line = ShapeStyle::from(&colour).stroke_width(px(scene::LINE * s));
            chart.draw_series(LineSeries::new(within, line)).map_err(drawing_error)?;
            let means = ShapeStyle::from(&colour).stroke_width(px(scene::TRAIL * s));
            chart.draw_series(LineSeries::new(epoch_means.iter().copied(), means)).map_err(drawing_error)?;
            if dotted {
                let dots = epoch_means.into_iter().map(|p| Circle::new(p, dot - 1, colour.filled()));
                chart.draw_series(dots).map_err(drawing_error)?;
            }
        }
        chart.draw_series(LineSeries::new(epoch_points.iter().copied(), bold)).map_err(drawing_error)?;
        if dotted {
            let dots = epoch_points.into_iter().map(|p| Circle::new(p, dot, accent.filled()));
            chart.draw_series(dots).map_err(drawing_error)?;
        }
        if let Some(at) = marker {
            let x = at.clamp(range.x.0, range.x.1);
            let colour = rgb(self.palette.trail);
            let line = ShapeStyle::from(&colour).stroke_width(px(scene::TRAIL * s));
            chart
                .draw_series(LineSeries::new([(x, range.y.0), (x, range.y.1)], line))
                .map_err(drawing_error)?;
            if let Some(label) = marker_label {
                // Beside the line, on the side with room for it (its width guessed from its
                // length, as plotters measures text only when drawing it).
                let font = (scene::FONT_FAMILY, scene::TICK_FONT * s).into_font().color(&colour);
                let gap = 4.0 * s;
                let (px_x, px_y) = chart.backend_coord(&(x, range.y.1));
                let (area_left, _) = chart.backend_coord(&(range.x.0, range.y.1));
                let (area_right, _) = chart.backend_coord(&(range.x.1, range.y.1));
                let width = 0.6 * scene::TICK_FONT * s * label.chars().count() as f64;
                let (x, left, right) = (f64::from(px_x), f64::from(area_left), f64::from(area_right));
                // Right of the line, else left of it, else as far right as it fits.
                let (anchor, at_x) = if x + gap + width <= right {
                    (HPos::Left, x + gap)
                } else if x - gap - width >= left {
                    (HPos::Right, x - gap)
                } else {
                    (HPos::Left, (right - width).max(left))
                };
                let style = font.pos(Pos::new(anchor, VPos::Top));
                let at = (at_x as i32, px_y + gap as i32);
                root.draw(&Text::new(label, at, style)).map_err(drawing_error)?;
            }
        }
        root.present().map_err(drawing_error)
    }
}

/// Refuses loss series whose lengths do not fit their strides, or a value that is not
/// finite (see [`Chart::draw_loss`]).
fn check_loss_series(
    epoch_losses: &[f64],
    within_epoch: &[f64],
    epoch_terms: &[f64],
    within_terms: &[f64],
    marker: Option<f64>,
) -> Result<(), JsError> {
    if !within_epoch.len().is_multiple_of(2) {
        return Err(JsError::new(&format!(
            "within_epoch must be [x, loss, ...] pairs, got an odd length {}",
            within_epoch.len()
        )));
    }
    if !epoch_terms.len().is_multiple_of(2) || !within_terms.len().is_multiple_of(3) {
        return Err(JsError::new(&format!(
            "epoch_terms must be [positive, negative, ...] and within_terms [x, positive, negative, ...], \
             got lengths {} and {}",
            epoch_terms.len(),
            within_terms.len()
        )));
    }
    let values = epoch_losses.iter().chain(within_epoch).chain(epoch_terms).chain(within_terms);
    if values.chain(&marker).any(|v| !v.is_finite()) {
        return Err(JsError::new("the loss data contains a value that is not finite"));
    }
    Ok(())
}

/// A plotters chart with f64 axes (the loss chart, on the canvas).
type Cartesian<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A plotters chart over `range`, with room for the ticks and axis titles; `s` is the
/// drawing's pixels per CSS pixel.
fn cartesian<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    range: DataRange,
    s: f64,
) -> Result<Cartesian<'a, DB>, JsError> {
    ChartBuilder::on(root)
        .margin(px(MARGIN * s))
        .x_label_area_size(px(X_LABEL_AREA * s))
        .y_label_area_size(px(Y_LABEL_AREA * s))
        .build_cartesian_2d(range.x.0..range.x.1, range.y.0..range.y.1)
        .map_err(drawing_error)
}

/// Draws the frame, grid, ticks and axis titles; returns the plotting area in drawing
/// pixels. `integer_x` asks for whole-number x ticks up to that value.
fn draw_mesh<DB: DrawingBackend>(
    chart: &mut Cartesian<'_, DB>,
    s: f64,
    palette: &Palette,
    x_title: &str,
    y_title: &str,
    integer_x: Option<u32>,
) -> Result<Rect, JsError> {
    let text = rgb(palette.text);
    let tick_style = (scene::FONT_FAMILY, scene::TICK_FONT * s).into_font().color(&text);
    let title_style = (scene::FONT_FAMILY, scene::TITLE_FONT * s).into_font().color(&text);
    let integer_ticks = |v: &f64| {
        if v.fract().abs() < 1e-9 { format!("{v:.0}") } else { String::new() }
    };
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_title)
        .y_desc(y_title)
        .label_style(tick_style)
        .axis_desc_style(title_style)
        .axis_style(ShapeStyle::from(&rgb(palette.axis)).stroke_width(px(s)))
        .bold_line_style(ShapeStyle::from(&rgb(palette.grid)).stroke_width(px(s)))
        .light_line_style(TRANSPARENT)
        .set_all_tick_mark_size(px(scene::TICK * s))
        .x_label_formatter(&|v| tick_label(*v))
        .y_label_formatter(&|v| tick_label(*v))
        .x_labels(X_TICKS)
        .y_labels(Y_TICKS);
    if let Some(epochs) = integer_x {
        // One tick per epoch while they fit; beyond that plotters picks round numbers.
        mesh.x_labels((epochs as usize + 1).min(6)).x_label_formatter(&integer_ticks);
    }
    mesh.draw().map_err(drawing_error)?;
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    Ok(Rect {
        left: f64::from(xs.start),
        top: f64::from(ys.start),
        right: f64::from(xs.end),
        bottom: f64::from(ys.end),
    })
}
