//! The map's frame: the plotting area, the axes along its left and bottom edges with their
//! ticks and values, the grid inside, and the axis titles, as [`Shape`]s. Lines lie on
//! whole pixels, so they are crisp on the canvas and in SVG alike.

use super::geometry::{Px, Rect};
use super::scene::{Align, Baseline, Palette, Shape, TICK, TICK_FONT, TITLE_FONT};

/// The map's frame as `Chart` lays it out, in drawing pixels: the axes run along the
/// plotting area's left and bottom edges, ticks and their values outside it, the grid inside.
pub struct Frame {
    /// The chart inside the drawing's margin: the axis titles sit on its left and bottom edges.
    pub outer: Rect,
    /// The plotting area; dots and lines are clipped to it, labels are not.
    pub area: Rect,
    /// Each tick's position along its axis in pixels, and its value as written.
    pub x_ticks: Vec<(f64, String)>,
    pub y_ticks: Vec<(f64, String)>,
    pub x_title: String,
    pub y_title: String,
}

/// The frame's shapes at `s` drawing pixels per CSS pixel: those under the marks (the
/// background, the grid, the axes and their ticks) and the texts (tick values, axis titles).
pub(super) fn frame_shapes(frame: &Frame, palette: &Palette, s: f64) -> (Vec<Shape>, Vec<Shape>) {
    let (area, outer) = (frame.area, frame.outer);
    let line = (s.round()).max(1.0);
    let tick = (TICK * s).round().max(1.0);
    // A line `line` wide centred near `p`, on whole pixels.
    let across = |p: f64| {
        let start = (p - line / 2.0).round();
        (start, start + line)
    };
    let vertical = |x: f64, top: f64, bottom: f64| {
        let (left, right) = across(x);
        Rect { left, top, right, bottom }
    };
    let horizontal = |y: f64, left: f64, right: f64| {
        let (top, bottom) = across(y);
        Rect { left, top, right, bottom }
    };
    let grid = (frame.x_ticks.iter().map(|(x, _)| vertical(*x, area.top, area.bottom)))
        .chain(frame.y_ticks.iter().map(|(y, _)| horizontal(*y, area.left, area.right)))
        .collect();
    let axis_left = area.left - line;
    let mut axes = vec![
        Rect { left: axis_left, top: area.top, right: area.left, bottom: area.bottom },
        Rect { left: axis_left, top: area.bottom, right: area.right, bottom: area.bottom + line },
    ];
    axes.extend(
        frame.x_ticks.iter().map(|(x, _)| vertical(*x, area.bottom + line, area.bottom + line + tick)),
    );
    axes.extend(frame.y_ticks.iter().map(|(y, _)| horizontal(*y, axis_left - tick, axis_left)));
    let under = vec![
        Shape::Background(palette.background.alpha(1.0)),
        Shape::Rects { rects: grid, fill: palette.grid },
        Shape::Rects { rects: axes, fill: palette.axis },
    ];

    let text = |at: Px, text: &str, align, baseline, upright, size: f64| Shape::Text {
        at,
        text: text.to_string(),
        align,
        baseline,
        upright,
        size: size * s,
        fill: palette.text,
    };
    let x_values = frame.x_ticks.iter().map(|(x, value)| {
        text((*x, area.bottom + 2.0 * tick), value, Align::Middle, Baseline::Top, false, TICK_FONT)
    });
    let y_values = frame.y_ticks.iter().map(|(y, value)| {
        text((area.left - 2.0 * tick, *y), value, Align::End, Baseline::Middle, false, TICK_FONT)
    });
    let middle = ((area.left + area.right) / 2.0, (area.top + area.bottom) / 2.0);
    let mut texts: Vec<Shape> = x_values.chain(y_values).collect();
    if !frame.x_title.is_empty() {
        texts.push(text(
            (middle.0, outer.bottom),
            &frame.x_title,
            Align::Middle,
            Baseline::Bottom,
            false,
            TITLE_FONT,
        ));
    }
    if !frame.y_title.is_empty() {
        texts.push(text(
            (outer.left, middle.1),
            &frame.y_title,
            Align::Middle,
            Baseline::Top,
            true,
            TITLE_FONT,
        ));
    }
    (under, texts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::scene::tests::{AREA, frame};

    #[test]
    fn the_frame_is_drawn_on_whole_pixels_with_its_values_beside_the_ticks() {
        let frame = frame();
        for s in [1.0, 2.0] {
            let (under, texts) = frame_shapes(&frame, &Palette::LIGHT, s);
            let [Shape::Background(_), Shape::Rects { rects: grid, .. }, Shape::Rects { rects: axes, .. }] =
                under.as_slice()
            else {
                panic!("{under:?}")
            };
            let whole = |r: &Rect| [r.left, r.top, r.right, r.bottom].iter().all(|v| v.fract() == 0.0);
            assert!(grid.iter().chain(axes).all(whole), "{grid:?} {axes:?}");
            // A grid line `s` wide at each tick, across the plotting area.
            let x_line = grid[0];
            assert_eq!((x_line.right - x_line.left, x_line.top, x_line.bottom), (s, AREA.top, AREA.bottom));
            assert!(x_line.left <= 10.4 && 10.4 <= x_line.right);
            let y_line = grid[3];
            assert_eq!((y_line.bottom - y_line.top, y_line.left, y_line.right), (s, AREA.left, AREA.right));
            assert!(y_line.top <= 54.5 && 54.5 <= y_line.bottom);
            // The axes just outside the area's left and bottom edges, then a tick per value.
            assert_eq!(
                axes[0],
                Rect { left: AREA.left - s, top: AREA.top, right: AREA.left, bottom: AREA.bottom }
            );
            assert_eq!(axes[1].top, AREA.bottom);
            assert_eq!(axes.len(), 2 + 4);
            assert!(axes[2..].iter().all(|r| !r.overlaps(&AREA)));
            // The values beyond the ticks; the titles on the chart's bottom and left edges.
            let anchors: Vec<(Px, Align, Baseline, &str)> = (texts.iter())
                .map(|t| match t {
                    Shape::Text { at, align, baseline, text, .. } => (*at, *align, *baseline, text.as_str()),
                    _ => panic!("{t:?}"),
                })
                .collect();
            let below = AREA.bottom + 8.0 * s;
            assert_eq!(anchors[0], ((10.4, below), Align::Middle, Baseline::Top, "0"));
            assert_eq!(anchors[2], ((AREA.left - 8.0 * s, 99.0), Align::End, Baseline::Middle, "-1"));
            assert_eq!(anchors[4], ((105.0, 128.0), Align::Middle, Baseline::Bottom, "PC1"));
            assert_eq!(anchors[5], ((2.0, 55.0), Align::Middle, Baseline::Top, "PC2"));
            assert!(matches!(texts[5], Shape::Text { upright: true, .. }));
            assert_eq!(anchors.len(), 6);
        }
    }
}
