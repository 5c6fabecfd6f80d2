//! The progress bar drawn on stderr while training and learning BPE merges.

use std::io::IsTerminal;

use embedscope::train::Progress;

use crate::now;

/// `fraction` (0 to 1) as a bar of 30 characters between brackets: `[#####     ]`.
pub(crate) fn gauge(fraction: f64) -> String {
    let filled = ((fraction.clamp(0.0, 1.0) * 30.0) as usize).min(30);
    format!("[{}{}]", "#".repeat(filled), " ".repeat(30 - filled))
}

/// A one-line progress bar on stderr, redrawn at most ten times a second, only on a terminal.
pub(crate) struct ProgressBar {
    enabled: bool,
    last_draw: f64,
}

impl ProgressBar {
    pub(crate) fn new(quiet: bool) -> ProgressBar {
        ProgressBar { enabled: !quiet && std::io::stderr().is_terminal(), last_draw: f64::NEG_INFINITY }
    }

    /// Redraws the bar with `text`, unless it was drawn less than 0.1 s ago and `force` is unset.
    pub(crate) fn draw_text(&mut self, force: bool, text: &str) {
        if !self.enabled || (now() - self.last_draw < 0.1 && !force) {
            return;
        }
        self.last_draw = now();
        eprint!("\r\x1b[2K{text}");
    }

    pub(crate) fn draw(&mut self, p: &Progress) {
        if !self.enabled || (now() - self.last_draw < 0.1 && !p.done) {
            return;
        }
        let fraction = p.tokens_done as f64 / p.tokens_total as f64;
        let eta = if p.tokens_per_sec > 0.0 {
            (p.tokens_total - p.tokens_done) as f64 / p.tokens_per_sec
        } else {
            0.0
        };
        let text = format!(
            "epoch {}/{} {} {:5.1}%  {:>9.0} tokens/s  lr {:.5}  loss {:.4}  ETA {}:{:02}",
            p.epoch,
            p.epochs,
            gauge(fraction),
            fraction * 100.0,
            p.tokens_per_sec,
            p.alpha,
            p.loss,
            eta as u64 / 60,
            eta as u64 % 60
        );
        self.draw_text(true, &text);
    }

    /// A permanent line, printed above the bar.
    pub(crate) fn line(&mut self, text: &str) {
        if self.enabled {
            eprint!("\r\x1b[2K");
        }
        eprintln!("{text}");
        self.last_draw = f64::NEG_INFINITY;
    }
}
