//! The scatter's marks as a list of shapes, and that list written as SVG.
//!
//! `Chart` decides where points and labels go (with `layout`), then turns the decision into
//! [`Shape`]s here, once; the canvas paints the shapes and the SVG export writes the same
//! shapes, so the two pictures cannot drift apart.
//!
//! Lengths are in the drawing's pixels (backing-store pixels on the canvas, CSS pixels in
//! SVG): [`scatter_shapes`] takes the scale. Like `layout`, this file uses only `std`, so
//! `cargo test` compiles it natively for its unit tests.

use std::fmt::Write;

use super::layout::{Px, Rect, arrow_head, shorten};

/// An sRGB colour with an opacity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paint {
    pub rgb: (u8, u8, u8),
    pub alpha: f64,
}

impl Paint {
    pub const fn new(r: u8, g: u8, b: u8, alpha: f64) -> Paint {
        Paint { rgb: (r, g, b), alpha }
    }

    /// The same colour with another opacity.
    pub const fn alpha(self, alpha: f64) -> Paint {
        Paint { rgb: self.rgb, alpha }
    }

    /// The same colour with its opacity scaled by `factor`.
    pub fn alpha_times(self, factor: f64) -> Paint {
        Paint { rgb: self.rgb, alpha: self.alpha * factor }
    }

    /// `rgba(r,g,b,a)`, which both the canvas and SVG understand.
    pub fn css(self) -> String {
        let (r, g, b) = self.rgb;
        format!("rgba({r},{g},{b},{})", self.alpha)
    }
}

/// The colours of the charts. The page reads them from CSS custom properties (so a dark
/// theme is a stylesheet's business, not Rust's) and hands them over with
/// `Chart::set_palette`; [`Palette::LIGHT`] is what a chart draws with until then.
#[derive(Clone, Debug, PartialEq)]
pub struct Palette {
    pub background: Paint,
    pub axis: Paint,
    pub grid: Paint,
    pub text: Paint,
    /// Points without a class colour, and the loss samples.
    pub point: Paint,
    pub labelled_point: Paint,
    /// The selection, its neighbours, the hovered and highlighted points.
    pub accent: Paint,
    /// Analogy arrows.
    pub arrow: Paint,
    /// Points left out by a search.
    pub dimmed: Paint,
    /// The paths selected words travelled (the timeline's trails).
    pub trail: Paint,
    /// Class colours (clusters, frequency bands, search matches), indexed by a point's style.
    pub classes: Vec<Paint>,
}

impl Palette {
    /// A light background, muted points, one accent for the selection and a second one for
    /// analogy arrows.
    pub const LIGHT: Palette = Palette {
        background: Paint::new(0xff, 0xff, 0xff, 1.0),
        axis: Paint::new(0x6b, 0x72, 0x80, 1.0),
        grid: Paint::new(0xee, 0xef, 0xf1, 1.0),
        text: Paint::new(0x37, 0x41, 0x51, 1.0),
        point: Paint::new(0x94, 0xa3, 0xb8, 1.0),
        labelled_point: Paint::new(0x47, 0x55, 0x69, 1.0),
        accent: Paint::new(0xd9, 0x48, 0x0f, 1.0),
        arrow: Paint::new(0x5f, 0x3d, 0xc4, 1.0),
        dimmed: Paint::new(0x94, 0xa3, 0xb8, 0.25),
        trail: Paint::new(0x0b, 0x72, 0x85, 1.0),
        classes: Vec::new(),
    };

    /// The colour of a point's style: a class colour, the plain one or the dimmed one.
    fn style(&self, style: u8, plain: Paint) -> Paint {
        match style {
            PLAIN => plain,
            DIMMED => self.dimmed,
            _ if self.classes.is_empty() => plain,
            class => self.classes[usize::from(class) % self.classes.len()],
        }
    }
}

/// A point's style: drawn in the plain point colour.
pub const PLAIN: u8 = 255;
/// A point's style: dimmed (left out by a search), drawn first and never labelled unless it
/// must be.
pub const DIMMED: u8 = 254;

pub const FONT_FAMILY: &str = "sans-serif";

// Sizes in CSS pixels.
pub const LABEL_FONT: f64 = 12.0;
pub const LABEL_GAP: f64 = 2.0;
/// The backdrop reaches this far beyond a label's text on each side.
const LABEL_BACKDROP: f64 = 1.5;
const DOT: f64 = 2.5;
pub const EMPHASISED_DOT: f64 = 4.0;
const SELECTED_DOT: f64 = 5.0;
const HOVER_RING: f64 = 7.5;
pub const LINE: f64 = 1.25;
pub const ARROW: f64 = 2.0;
const ARROW_HEAD: f64 = 9.0;
pub const TRAIL: f64 = 2.0;
/// Steps of opacity a trail fades through, oldest faintest: a trail costs this many paths at
/// most, not one per segment.
pub const TRAIL_SHADES: usize = 6;

/// How a point and its label stand out, from plain to strongest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Emphasis {
    Plain,
    Labelled,
    Marked,
    Arrow,
    Strong,
}

impl Emphasis {
    /// The CSS font weight of a label with this emphasis.
    pub fn font_weight(self) -> u16 {
        if self >= Emphasis::Arrow { 600 } else { 400 }
    }
}

/// One mark of the scatter.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Later shapes, up to `Unclip`, are clipped to the rectangle.
    Clip(Rect),
    Unclip,
    /// Filled circles of one radius and colour.
    Dots {
        centres: Vec<Px>,
        radius: f64,
        fill: Paint,
    },
    /// A filled circle with an outline.
    Disc {
        centre: Px,
        radius: f64,
        fill: Paint,
        outline: Paint,
        width: f64,
    },
    /// An unfilled circle.
    Ring {
        centre: Px,
        radius: f64,
        stroke: Paint,
        width: f64,
    },
    /// Straight segments with round caps.
    Segments {
        segments: Vec<(Px, Px)>,
        stroke: Paint,
        width: f64,
    },
    /// A filled polygon.
    Polygon {
        corners: Vec<Px>,
        fill: Paint,
    },
    /// Translucent boxes of the background behind the labels, so text reads over dots and
    /// lines. (An outline of each glyph, the usual halo, cost the canvas's software raster
    /// three times the text itself: 1.3 ms of a 4 ms budget at a few hundred labels.)
    Backdrops {
        rects: Vec<Rect>,
        fill: Paint,
    },
    /// Text whose left end and vertical middle are at `at`; `point` is the point it names
    /// (the canvas keeps that word as a JS string), or [`NO_POINT`] for a caption.
    Label {
        point: usize,
        at: Px,
        text: String,
        weight: u16,
        size: f64,
        fill: Paint,
    },
}

/// The `point` of a label that names no point (the caption): its `text` is painted.
pub const NO_POINT: usize = usize::MAX;

/// What the scatter shows, decided by `Chart` before anything is drawn.
pub struct ScatterMarks<'a> {
    /// Each point's position; NaN for a point outside the plotting area.
    pub positions: &'a [Px],
    pub emphasis: &'a [Emphasis],
    /// The plotting area; dots and lines are clipped to it, labels are not.
    pub area: Rect,
    pub selected: Option<usize>,
    pub hovered: Option<usize>,
    pub neighbours: &'a [usize],
    pub arrows: &'a [[usize; 2]],
    /// Paths of positions, oldest first, drawn as lines that fade with age.
    pub trails: &'a [Vec<Px>],
    /// A line in the plotting area's top-left corner (the moment a replay shows), over all.
    pub caption: Option<&'a str>,
    /// `(point, box)` of each placed label, most important first.
    pub labels: &'a [(usize, Rect)],
    pub texts: &'a [String],
    /// Each point's style: [`PLAIN`], [`DIMMED`] or a class of `palette.classes`.
    pub styles: &'a [u8],
    pub palette: &'a Palette,
}

/// The opacity factor of segment `j` (0 = oldest) of a trail of `n` segments: one of
/// `TRAIL_SHADES` steps from faint to nearly opaque.
pub fn trail_shade(j: usize, n: usize) -> usize {
    ((j + 1) * TRAIL_SHADES).div_ceil(n.max(1)) - 1
}

/// The shapes of the scatter in painting order: muted dots, trails, neighbour lines, analogy arrows,
/// emphasised dots, the hover ring, then the labels (the most important last, on top).
/// `scale` is the drawing's pixels per CSS pixel.
pub fn scatter_shapes(marks: &ScatterMarks<'_>, scale: f64) -> Vec<Shape> {
    let s = scale;
    let at = |i: usize| marks.positions[i];
    let mut shapes = vec![Shape::Clip(marks.area)];

    let palette = marks.palette;
    // Dimmed points first, under everything; then plain and labelled dots, one shape per
    // colour, so painting costs one path per colour however many points there are.
    let mut groups: Vec<((u8, Emphasis), Vec<Px>)> = Vec::new();
    for ((p, &e), &style) in marks.positions.iter().zip(marks.emphasis).zip(marks.styles) {
        if p.0.is_nan() || e > Emphasis::Labelled {
            continue;
        }
        match groups.iter_mut().find(|(key, _)| *key == (style, e)) {
            Some((_, centres)) => centres.push(*p),
            None => groups.push(((style, e), vec![*p])),
        }
    }
    // A stable sort: dimmed first, then plain before labelled, classes in the order met.
    groups.sort_by_key(|((style, e), _)| (*style != DIMMED, *e));
    for ((style, e), centres) in groups {
        let fill = match e {
            Emphasis::Plain => palette.style(style, palette.point).alpha_times(0.75),
            _ => palette.style(style, palette.labelled_point).alpha_times(0.95),
        };
        shapes.push(Shape::Dots { centres, radius: DOT * s, fill });
    }

    for shade in 0..TRAIL_SHADES {
        let segments: Vec<(Px, Px)> = (marks.trails.iter())
            .flat_map(|trail| {
                let n = trail.len().saturating_sub(1);
                trail
                    .windows(2)
                    .enumerate()
                    .filter(move |(j, _)| trail_shade(*j, n) == shade)
                    .map(|(_, w)| (w[0], w[1]))
            })
            .collect();
        if !segments.is_empty() {
            let alpha = 0.1 + 0.8 * (shade + 1) as f64 / TRAIL_SHADES as f64;
            shapes.push(Shape::Segments {
                segments,
                stroke: palette.trail.alpha_times(alpha),
                width: TRAIL * s,
            });
        }
    }

    let rim = EMPHASISED_DOT * s + s;
    if let Some(selected) = marks.selected {
        let segments = marks
            .neighbours
            .iter()
            .map(|&n| shorten(at(selected), at(n), SELECTED_DOT * s + s, rim))
            .collect();
        shapes.push(Shape::Segments { segments, stroke: palette.accent.alpha_times(0.55), width: LINE * s });
    }
    for &[from, to] in marks.arrows {
        let (start, tip) = shorten(at(from), at(to), rim, rim);
        // The shaft stops inside the head, so its round cap does not blunt the tip.
        let (_, shaft_end) = shorten(start, tip, 0.0, ARROW_HEAD * 0.5 * s);
        let colour = palette.arrow.alpha_times(0.85);
        shapes.push(Shape::Segments { segments: vec![(start, shaft_end)], stroke: colour, width: ARROW * s });
        let corners = arrow_head(start, tip, ARROW_HEAD * s, ARROW_HEAD * 0.7 * s).to_vec();
        shapes.push(Shape::Polygon { corners, fill: colour });
    }

    let disc = |centre: Px, radius: f64, fill: Paint| Shape::Disc {
        centre,
        radius,
        fill,
        outline: palette.background,
        width: s,
    };
    for (i, e) in marks.emphasis.iter().enumerate() {
        match e {
            Emphasis::Marked => {
                shapes.push(disc(at(i), EMPHASISED_DOT * s, palette.accent.alpha_times(0.85)))
            }
            Emphasis::Arrow => shapes.push(disc(at(i), EMPHASISED_DOT * s, palette.arrow)),
            _ => {}
        }
    }
    if let Some(selected) = marks.selected {
        shapes.push(disc(at(selected), SELECTED_DOT * s, palette.accent));
    }
    if let Some(hovered) = marks.hovered {
        if Some(hovered) != marks.selected {
            shapes.push(disc(at(hovered), EMPHASISED_DOT * s, palette.accent));
        }
        let ring = HOVER_RING * s;
        shapes.push(Shape::Ring {
            centre: at(hovered),
            radius: ring,
            stroke: palette.accent.alpha_times(0.9),
            width: 1.5 * s,
        });
    }
    shapes.push(Shape::Unclip);

    let pad = LABEL_BACKDROP * s;
    let rects = (marks.labels.iter())
        .map(|(_, r)| Rect { left: r.left - pad, top: r.top, right: r.right + pad, bottom: r.bottom })
        .collect();
    shapes.push(Shape::Backdrops { rects, fill: palette.background.alpha(0.72) });
    for &(point, rect) in marks.labels.iter().rev() {
        let e = marks.emphasis[point];
        let fill = match e {
            Emphasis::Strong | Emphasis::Marked => palette.accent,
            Emphasis::Arrow => palette.arrow,
            Emphasis::Plain | Emphasis::Labelled => palette.text,
        };
        shapes.push(Shape::Label {
            point,
            at: (rect.left, (rect.top + rect.bottom) / 2.0),
            text: marks.texts[point].clone(),
            weight: e.font_weight(),
            size: LABEL_FONT * s,
            fill,
        });
    }
    if let Some(text) = marks.caption {
        let at = (marks.area.left + 8.0 * s, marks.area.top + 10.0 * s);
        // Its width guessed from its length: the shapes are made before anything is measured.
        let width = 0.62 * LABEL_FONT * s * text.chars().count() as f64;
        let half = LABEL_FONT * s * 0.7;
        let rect =
            Rect { left: at.0 - pad, top: at.1 - half, right: at.0 + width + pad, bottom: at.1 + half };
        shapes.push(Shape::Backdrops { rects: vec![rect], fill: palette.background.alpha(0.85) });
        shapes.push(Shape::Label {
            point: NO_POINT,
            at,
            text: text.to_string(),
            weight: 600,
            size: LABEL_FONT * s,
            fill: palette.trail,
        });
    }
    shapes
}

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
            Shape::Dots { centres, radius, fill } => {
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
            Shape::Backdrops { rects, fill } => {
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

    const AREA: Rect = Rect { left: 10.0, top: 10.0, right: 200.0, bottom: 100.0 };

    fn shapes(selected: Option<usize>, neighbours: &[usize], arrows: &[[usize; 2]]) -> Vec<Shape> {
        shapes_with_trails(selected, neighbours, arrows, &[])
    }

    fn shapes_with_trails(
        selected: Option<usize>,
        neighbours: &[usize],
        arrows: &[[usize; 2]],
        trails: &[Vec<Px>],
    ) -> Vec<Shape> {
        let positions = [(20.0, 20.0), (50.0, 50.0), (90.0, 30.0), (f64::NAN, f64::NAN)];
        let emphasis = [Emphasis::Strong, Emphasis::Marked, Emphasis::Labelled, Emphasis::Plain];
        let labels = [(0, Rect { left: 27.0, top: 14.0, right: 60.0, bottom: 26.0 })];
        let texts = ["<king>".to_string(), "b".into(), "c".into(), "d".into()];
        let marks = ScatterMarks {
            positions: &positions,
            emphasis: &emphasis,
            area: AREA,
            selected,
            hovered: None,
            neighbours,
            arrows,
            trails,
            caption: Some("epoch 2, <1.2 M> tokens"),
            labels: &labels,
            texts: &texts,
            styles: &[PLAIN; 4],
            palette: &Palette::LIGHT,
        };
        scatter_shapes(&marks, 1.0)
    }

    #[test]
    fn dots_outside_the_area_are_left_out_and_marks_come_in_painting_order() {
        let list = shapes(Some(0), &[1], &[[1, 2]]);
        let kinds: Vec<&str> = list
            .iter()
            .map(|s| match s {
                Shape::Clip(_) => "clip",
                Shape::Unclip => "unclip",
                Shape::Dots { .. } => "dots",
                Shape::Disc { .. } => "disc",
                Shape::Ring { .. } => "ring",
                Shape::Segments { .. } => "segments",
                Shape::Polygon { .. } => "polygon",
                Shape::Backdrops { .. } => "backdrops",
                Shape::Label { .. } => "label",
            })
            .collect();
        // Labelled dots (point 2); the plain point 3 is outside the area and drawn nowhere.
        assert_eq!(
            kinds,
            [
                "clip",
                "dots",
                "segments",
                "segments",
                "polygon",
                "disc",
                "disc",
                "unclip",
                "backdrops",
                "label",
                "backdrops",
                "label"
            ]
        );
        let Shape::Dots { centres, .. } = &list[1] else { unreachable!() };
        assert_eq!(centres, &[(90.0, 30.0)]);
    }

    #[test]
    fn trails_fade_with_age_under_the_selection() {
        let trail: Vec<Px> = (0..13).map(|i| (20.0 + 5.0 * f64::from(i), 60.0)).collect();
        let list = shapes_with_trails(Some(0), &[1], &[], &[trail, vec![(1.0, 1.0)]]);
        let trails: Vec<(usize, f64)> = (list.iter())
            .take_while(|s| !matches!(s, Shape::Disc { .. }))
            .filter_map(|s| match s {
                Shape::Segments { segments, stroke, width } if *width == TRAIL => {
                    Some((segments.len(), stroke.alpha))
                }
                _ => None,
            })
            .collect();
        // 12 segments in 6 shades of 2 each, oldest faintest; a trail of one point has none.
        assert_eq!(trails.iter().map(|t| t.0).collect::<Vec<_>>(), [2; TRAIL_SHADES]);
        assert!(trails.windows(2).all(|w| w[0].1 < w[1].1), "{trails:?}");
        // Under the selection's lines (the last segments before the discs).
        let first_trail =
            list.iter().position(|s| matches!(s, Shape::Segments { width, .. } if *width == TRAIL));
        let selection =
            list.iter().position(|s| matches!(s, Shape::Segments { width, .. } if *width == LINE));
        assert!(first_trail < selection);
        // Every segment of a short trail is drawn, in the strongest shade last.
        assert_eq!((0..3).map(|j| trail_shade(j, 3)).collect::<Vec<_>>(), [1, 3, 5]);
    }

    #[test]
    fn svg_escapes_label_text() {
        let mut svg = String::new();
        write_svg(&mut svg, &shapes(None, &[], &[]));
        assert!(svg.contains(">&lt;king&gt;</text>"), "{svg}");
        // The caption comes last, on top, escaped too.
        assert!(svg.ends_with(">epoch 2, &lt;1.2 M&gt; tokens</text>"), "{svg}");
        assert!(!svg.contains("<king>"));
        assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
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
