//! A trainer with the run it belongs to, the vectors queries see while it trains (and those
//! kept when it diverges), and the rows the step mode's single updates moved.

use std::rc::Rc;

use crate::Embeddings;
use crate::error::{Error, Result};
use crate::io::json;
use crate::map::NeighbourHistory;
use crate::train::{Progress, Trainer, UpdateReport};

/// A trainer with the run it belongs to: made together in `prepare_finish`, gone together.
pub struct Training {
    pub trainer: Trainer,
    /// The run fingerprint of the trainer's text and parameters.
    pub fingerprint: String,
    /// The parameters the trainer was made with (`Params::to_json`), for the bundle: the
    /// page's form may have changed since.
    pub params: json::Value,
    /// The vocabulary's `min_count`, for the text's statistics.
    pub min_count: u64,
    /// The trainer's neighbours at each epoch end, for the neighbours per epoch and the bundle.
    pub history: NeighbourHistory,
    /// The vectors queries see.
    pub queried: Queried,
    /// The input rows the last `step_updates` moved, as they were before it; none once
    /// training goes on at full speed.
    pub moved: Option<MovedRows>,
}

/// The vectors queries see while a trainer trains.
pub enum Queried {
    /// No copy of the trainer's vectors yet.
    Nothing,
    /// The trainer's vectors as of `tokens` trained tokens, copied out of the trainer again
    /// only when it has moved on.
    Snapshot { tokens: u64, embeddings: Rc<Embeddings> },
    /// Training diverged: the trainer's vectors hold NaN or infinity, so queries keep the
    /// last snapshot, the last good vectors, if there was one.
    Diverged(Option<(u64, Rc<Embeddings>)>),
}

/// The input rows `step_updates` moved, as they were before it.
pub struct MovedRows {
    pub updates: u32,
    /// The words whose input rows moved, each once, in the order first moved.
    pub words: Vec<u32>,
    /// Their rows before the updates, one after another.
    pub before: Vec<f32>,
}

impl MovedRows {
    /// The rows of `moved` (repeats allowed) in `before`, the vectors from before `updates` updates.
    pub fn new(before: &Embeddings, moved: Vec<u32>, updates: u32) -> MovedRows {
        let mut words = Vec::new();
        for word in moved {
            if !words.contains(&word) {
                words.push(word);
            }
        }
        let before = words.iter().flat_map(|&w| before.vector(w as usize).into_owned()).collect();
        MovedRows { updates, words, before }
    }
}

impl Training {
    /// The vectors to query, copied out of the trainer only when it has moved on since the
    /// last copy.
    pub fn embeddings(&mut self) -> Result<Rc<Embeddings>> {
        let tokens_done = self.trainer.progress().tokens_done;
        match &self.queried {
            Queried::Diverged(Some((_, last_good))) => return Ok(Rc::clone(last_good)),
            Queried::Diverged(None) => {
                return Err(Error::Session(
                    "training diverged before any vectors were kept: lower the learning rate alpha and train again"
                        .into(),
                ));
            }
            Queried::Snapshot { tokens, embeddings } if *tokens == tokens_done => {
                return Ok(Rc::clone(embeddings));
            }
            Queried::Snapshot { .. } | Queried::Nothing => {}
        }
        let embeddings = Rc::new(self.trainer.to_embeddings()?);
        self.queried = Queried::Snapshot { tokens: tokens_done, embeddings: Rc::clone(&embeddings) };
        Ok(embeddings)
    }

    /// What a step that ended in `stepped` leaves: its progress, with the neighbours of an
    /// epoch that ended recorded, or the error, after which a divergence keeps the last
    /// snapshot for queries and its message says whether there was one.
    pub(super) fn stepped(&mut self, stepped: Result<Progress>) -> Result<Progress> {
        let progress = match stepped {
            Ok(progress) => progress,
            Err(err @ Error::Diverged { .. }) => {
                let last_good = match std::mem::replace(&mut self.queried, Queried::Nothing) {
                    Queried::Snapshot { tokens, embeddings } => Some((tokens, embeddings)),
                    Queried::Diverged(last_good) => last_good,
                    Queried::Nothing => None,
                };
                let kept = match &last_good {
                    Some((tokens, _)) => {
                        format!("the vectors from before it ({tokens} tokens trained) are kept for queries")
                    }
                    None => "it happened before any vectors were kept".to_string(),
                };
                self.queried = Queried::Diverged(last_good);
                return Err(Error::Session(format!("{err}; {kept}")));
            }
            Err(err) => return Err(err),
        };
        // A chunk stops at an epoch's end, so this sees every epoch end once, whatever the chunks.
        if progress.epoch_tokens > 0 && progress.epoch_tokens_done == progress.epoch_tokens {
            let embeddings = self.embeddings()?;
            self.history.record(&embeddings, progress.epoch, progress.tokens_done);
        }
        Ok(progress)
    }

    /// The step mode: the next `count` single updates, one at a time on this thread; the last
    /// one's report and how many were made. The input rows they moved are kept as they were
    /// before them (`moved`).
    pub fn step_updates(&mut self, count: u32) -> Result<(Option<UpdateReport>, u32)> {
        let before = self.embeddings()?;
        let (mut last, mut updates, mut moved_words) = (None, 0, Vec::new());
        while updates < count {
            match self.trainer.step_update()? {
                Some(report) => {
                    moved_words.extend_from_slice(&report.input_words);
                    last = Some(report);
                }
                None => break,
            }
            updates += 1;
        }
        self.moved = Some(MovedRows::new(&before, moved_words, updates));
        Ok((last, updates))
    }
}
