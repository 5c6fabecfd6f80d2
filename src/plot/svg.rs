//! The scatter's [`Shape`]s written as SVG, the picture the page exports: the same list the
//! canvas paints, so the file shows what the map showed.

use std::fmt::Write;

use super::density::{DensityField, GridPlacement, level_cells};
use super::scene::{Align, Baseline, FONT_FAMILY, Paint, Shape};

/// Appends `shapes` as SVG elements to `svg`. Text is escaped, so a label such as
/// `<script>` is shown as written and never becomes markup.
pub fn write_svg(svg: &mut String, shapes: &[Shape]) {
    let mut clip_id = 0;
    for shape in shapes {
        // Writing to a String cannot fail.
        let _ = match shape {
            Shape::Clip(r) => {
                clip_id += 1;
                write!(
                    svg,
                    r#"<clipPath id="scatter-clip-{clip_id}"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath><g clip-path="url(#scatter-clip-{clip_id})">"#,
                    r.left,
                    r.top,
                    r.right - r.left,
                    r.bottom - r.top
                )
            }
            Shape::Unclip => write!(svg, "</g>"),
            Shape::Density { field, place, bands, line, width } => {
                write_density(svg, field, *place, bands, *line, *width);
                Ok(())
            }
            Shape::Dots { centres, radius, fill, .. } => {
                let _ = write!(svg, r#"<g fill="{}">"#, fill.css());
                for (x, y) in centres {
                    let _ = write!(svg, r#"<circle cx="{x:.2}" cy="{y:.2}" r="{radius}"/>"#);
                }
                write!(svg, "</g>")
            }
            Shape::Disc { centre: (x, y), radius, fill, outline, width } => write!(
                svg,
                r#"<circle cx="{x:.2}" cy="{y:.2}" r="{radius}" fill="{}" stroke="{}" stroke-width="{width}"/>"#,
                fill.css(),
                outline.css()
            ),
            Shape::Ring { centre: (x, y), radius, stroke, width } => write!(
                svg,
                r#"<circle cx="{x:.2}" cy="{y:.2}" r="{radius}" fill="none" stroke="{}" stroke-width="{width}"/>"#,
                stroke.css()
            ),
            Shape::Segments { segments, stroke, width } => {
                let mut path = String::new();
                for ((x0, y0), (x1, y1)) in segments {
                    let _ = write!(path, "M{x0:.2} {y0:.2}L{x1:.2} {y1:.2}");
                }
                write!(
                    svg,
                    r#"<path d="{path}" fill="none" stroke="{}" stroke-width="{width}" stroke-linecap="round"/>"#,
                    stroke.css()
                )
            }
            Shape::Polygon { corners, fill } => {
                let points: Vec<String> = corners.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
                write!(svg, r#"<polygon points="{}" fill="{}"/>"#, points.join(" "), fill.css())
            }
            Shape::Background(fill) => {
                write!(svg, r#"<rect x="0" y="0" width="100%" height="100%" fill="{}"/>"#, fill.css())
            }
            Shape::Text { at: (x, y), text, align, baseline, upright, size, fill } => {
                let (anchor, baseline, turn) = text_placement(*align, *baseline, *upright, (*x, *y));
                write!(
                    svg,
                    r#"<text x="{x:.2}" y="{y:.2}" text-anchor="{anchor}" dominant-baseline="{baseline}" font-family="{FONT_FAMILY}" font-size="{size}" fill="{}"{turn}>{}</text>"#,
                    fill.css(),
                    escape_xml(text)
                )
            }
            Shape::Rects { rects, fill } => {
                let _ = write!(svg, r#"<g fill="{}">"#, fill.css());
                for r in rects {
                    let _ = write!(
                        svg,
                        r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}"/>"#,
                        r.left,
                        r.top,
                        r.right - r.left,
                        r.bottom - r.top
                    );
                }
                write!(svg, "</g>")
            }
            Shape::Label { at: (x, y), text, weight, size, fill, .. } => write!(
                svg,
                r#"<text x="{x:.2}" y="{y:.2}" dominant-baseline="middle" font-family="{FONT_FAMILY}" font-size="{size}" font-weight="{weight}" fill="{}" xml:space="preserve">{}</text>"#,
                fill.css(),
                escape_xml(text)
            ),
        };
    }
}

/// The SVG attributes that place a [`Shape::Text`] anchored at `(x, y)`: its `text-anchor`,
/// its `dominant-baseline` and, for an upright one, the turn about its anchor.
fn text_placement(
    align: Align,
    baseline: Baseline,
    upright: bool,
    (x, y): (f64, f64),
) -> (&'static str, &'static str, String) {
    let anchor = match align {
        Align::Middle => "middle",
        Align::End => "end",
    };
    let baseline = match baseline {
        Baseline::Top => "text-before-edge",
        Baseline::Middle => "middle",
        Baseline::Bottom => "text-after-edge",
    };
    let turn = if upright { format!(r#" transform="rotate(-90 {x:.2} {y:.2})""#) } else { String::new() };
    (anchor, baseline, turn)
}

/// The density layer: each level's region as one path of cell polygons (one path, so they
/// fill without seams), stacked so the densest is darkest, then the contour lines.
fn write_density(
    svg: &mut String,
    field: &DensityField,
    place: GridPlacement,
    bands: &[Paint],
    line: Paint,
    width: f64,
) {
    let _ = write!(svg, r#"<g class="density">"#);
    for (k, &level) in field.levels.iter().enumerate() {
        let Some(paint) = bands.get(k) else { break };
        // Laid over the band below, each region's opacity makes up the band's own, as the
        // raster lays it: 1 − (1 − below)(1 − over) = paint.alpha.
        let below = if k == 0 { 0.0 } else { bands[k - 1].alpha };
        let over = paint.alpha((paint.alpha - below) / (1.0 - below).max(1e-6));
        let mut path = String::new();
        for polygon in level_cells(&field.grid, level) {
            for (i, &corner) in polygon.iter().enumerate() {
                let (x, y) = place.to_pixel(corner);
                let _ = write!(path, "{}{x:.1} {y:.1}", if i == 0 { 'M' } else { 'L' });
            }
            path.push('Z');
        }
        if !path.is_empty() {
            let _ = write!(svg, r#"<path d="{path}" fill="{}"/>"#, over.css());
        }
    }
    let mut path = String::new();
    for segment in field.contours.iter().flatten() {
        let ((x0, y0), (x1, y1)) = (place.to_pixel(segment[0]), place.to_pixel(segment[1]));
        let _ = write!(path, "M{x0:.1} {y0:.1}L{x1:.1} {y1:.1}");
    }
    if !path.is_empty() {
        let _ = write!(
            svg,
            r#"<path d="{path}" fill="none" stroke="{}" stroke-width="{width}" stroke-linecap="round"/>"#,
            line.css()
        );
    }
    let _ = write!(svg, "</g>");
}

/// `text` safe as XML character data and attribute values. Characters XML 1.0 cannot hold
/// at all (most C0 controls) become U+FFFD, so a token with a control character still
/// gives a well-formed file.
pub fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::scene::tests::shapes;

    #[test]
    fn svg_escapes_label_text() {
        let mut svg = String::new();
        write_svg(&mut svg, &shapes(None, &[], &[]));
        assert!(svg.contains(">&lt;king&gt;</text>"), "{svg}");
        assert!(svg.contains(r#"text-anchor="middle" dominant-baseline="text-before-edge""#), "{svg}");
        assert!(svg.contains(">&lt;0.5&gt;</text>"), "a tick's value is escaped too: {svg}");
        assert!(svg.contains(r#"transform="rotate(-90 2.00 55.00)">PC2</text>"#), "{svg}");
        // The caption comes last, on top, escaped too.
        assert!(svg.ends_with(">epoch 2, &lt;1.2 M&gt; tokens</text>"), "{svg}");
        assert!(!svg.contains("<king>"));
        assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
    }

    #[test]
    fn the_density_layer_is_a_path_a_level_and_its_lines() {
        use crate::plot::density::{DensityField, DensityGrid, GridPlacement};
        // A cone on a 5 × 5 grid, laid on 40 × 40 pixels.
        let values = (0..5).flat_map(|j| (0..5).map(move |i| (i, j)));
        let values = values.map(|(i, j): (i32, i32)| 4.0 - ((i - 2).abs() + (j - 2).abs()) as f32).collect();
        let grid = DensityGrid::new(5, 5, (0.0, 1.0), (0.0, 1.0), values).unwrap();
        let field = DensityField::new(grid);
        assert!(!field.levels.is_empty());
        let bands: Vec<_> = (1..=field.levels.len()).map(|k| Paint::new(0, 0, 0, 0.1 * k as f64)).collect();
        let shape = Shape::Density {
            field: std::rc::Rc::new(field.clone()),
            place: GridPlacement { origin: (0.0, 40.0), step: (10.0, -10.0) },
            bands,
            line: Paint::new(9, 9, 9, 1.0),
            width: 1.0,
        };
        let mut svg = String::new();
        write_svg(&mut svg, &[shape]);
        assert!(svg.starts_with(r#"<g class="density"><path d="M"#), "{svg}");
        assert_eq!(svg.matches("<path").count(), field.levels.len() + 1, "{svg}");
        assert!(svg.contains(r#"fill="none" stroke="rgba(9,9,9,1)""#), "{svg}");
        assert!(svg.ends_with("</g>"));
    }

    #[test]
    fn escape_xml_handles_markup_quotes_and_controls() {
        assert_eq!(
            escape_xml("<img src=x onerror=\"alert(1)\">&'"),
            "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&apos;"
        );
        assert_eq!(escape_xml("a\u{1}b\u{202e}c\n"), "a\u{fffd}b\u{202e}c\n");
    }
}
