//! The one progress bar the commands draw on stderr (training, BPE merges, analogies, maps),
//! through `indicatif`: it draws only on a terminal, at most 20 times a second, and keeps
//! its line below the permanent lines printed above it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use embedscope::train::Progress;

/// A bar of `done` out of `total` units with a label before it and a message after.
pub(crate) struct Bar {
    bar: ProgressBar,
}

impl Bar {
    /// A bar labelled `label` (e.g. `analogies`); hidden when `quiet`, and by indicatif
    /// when stderr is not a terminal.
    pub(crate) fn new(quiet: bool, label: &str) -> Bar {
        let target = if quiet { ProgressDrawTarget::hidden() } else { ProgressDrawTarget::stderr() };
        let bar = ProgressBar::with_draw_target(None, target);
        let style = ProgressStyle::with_template("{prefix} [{bar:30}] {percent:>3}%  {wide_msg}")
            .expect("the template is valid")
            .progress_chars("## ");
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        Bar { bar }
    }

    /// `done` of `total`, with `message` after the bar.
    pub(crate) fn set(&self, done: u64, total: u64, message: String) {
        self.bar.set_length(total.max(1));
        self.bar.set_position(done);
        self.bar.set_message(message);
    }

    /// Training's progress: epoch, tokens, speed, learning rate, loss and the time left.
    pub(crate) fn training(&self, p: &Progress) {
        let eta = if p.tokens_per_sec > 0.0 {
            (p.tokens_total - p.tokens_done) as f64 / p.tokens_per_sec
        } else {
            0.0
        };
        self.bar.set_prefix(format!("epoch {}/{}", p.epoch, p.epochs));
        self.set(
            p.tokens_done,
            p.tokens_total,
            // What matters most first: a narrow terminal cuts the end off.
            format!(
                "loss {:.4}  ETA {}:{:02}  {:.0} tokens/s  lr {:.5}",
                p.loss,
                eta as u64 / 60,
                eta as u64 % 60,
                p.tokens_per_sec,
                p.alpha,
            ),
        );
    }

    /// A permanent line on stderr, above the bar; printed whether or not the bar is shown.
    pub(crate) fn line(&self, text: &str) {
        self.bar.suspend(|| eprintln!("{text}"));
    }

    /// Takes the bar off the screen, for good.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.finish();
    }
}
