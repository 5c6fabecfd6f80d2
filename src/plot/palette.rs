//! The charts' colours: a colour with an opacity, the palette the page hands over, and the
//! two point styles that are not class colours.

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
    pub(super) fn style(&self, style: u8, plain: Paint) -> Paint {
        match style {
            PLAIN => plain,
            DIMMED => self.dimmed,
            _ if self.classes.is_empty() => plain,
            class => self.classes[usize::from(class) % self.classes.len()],
        }
    }
}

/// A point's style: drawn in the plain point colour. The page's copies of the two styles
/// (`www/map/palette.js`) are checked against these (`tests/shared_constants.rs`).
pub const PLAIN: u8 = 255;
/// A point's style: dimmed (left out by a search), drawn first and never labelled unless it
/// must be.
pub const DIMMED: u8 = 254;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_style_picks_its_class_colour_or_the_plain_or_dimmed_one() {
        let plain = Paint::new(1, 2, 3, 1.0);
        let mut palette = Palette::LIGHT;
        assert_eq!(palette.style(7, plain), plain, "no class colours yet");
        palette.classes = vec![Paint::new(9, 9, 9, 1.0), Paint::new(8, 8, 8, 1.0)];
        assert_eq!(palette.style(PLAIN, plain), plain);
        assert_eq!(palette.style(DIMMED, plain), palette.dimmed);
        assert_eq!(palette.style(3, plain), palette.classes[1], "classes wrap around");
        assert_eq!(Paint::new(1, 2, 3, 0.5).alpha_times(0.5).css(), "rgba(1,2,3,0.25)");
    }
}
