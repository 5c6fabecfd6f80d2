//! Slices of a layout's work sized by the clock rather than by a guess of what a unit costs.
//!
//! A slice of a map is to take about its budget (the worker's 25 ms), so that queries, pause
//! and stop are answered in between. Its work is counted in units (a multiply-add while the
//! graph is built, a point's share of an iteration while the points move) whose cost was
//! calibrated natively; in wasm the stages' costs differ from those ratios (a first slice of
//! a phase, sized from the stage before it, took 2.5 times its budget), and an iteration's
//! cost per point changes as the map spreads. So [`Pacer::run`] does a slice in pieces: the
//! first piece of a stage is small, every later one is sized from the time per unit
//! measured so far in that stage to half of the time left, growing at most [`GROWTH`] times a
//! piece, and the slice ends once less than an eighth of its budget is left. A piece in which
//! the work moved on to another stage says nothing of the new stage's cost: the next piece
//! starts small again.
//!
//! The pacing decides only where the work stops, never what it computes: a layout does not
//! depend on its slicing (see the invariant of [`layout`](super::layout)).

/// How many times larger than the largest piece timed in its stage a piece may be: a few fast
/// pieces timed coarsely (the clock of a page may tick in 0.1 ms) must not make one that
/// takes seconds.
pub const GROWTH: f64 = 4.0;

/// A slice ends when less than this share of its budget is left.
const LEFT_OVER: f64 = 1.0 / 8.0;

/// The share of the time left that the next piece aims at: a piece that runs slower than the
/// last one measured by up to this factor's inverse still ends within the slice.
const FILL: f64 = 0.5;

/// What one piece of work did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Piece {
    /// The units it did (it may do more than asked, e.g. a whole tile, or less, at a stage's end).
    pub units: f64,
    /// The stage the work is in after it (any number that changes when the cost per unit may).
    pub stage: u64,
    /// The work is done (the phase ended): the slice stops here.
    pub finished: bool,
}

/// What a slice did: for the benchmark's account of where a long slice's time went.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SliceReport {
    /// The work is done (its phase ended).
    pub finished: bool,
    pub pieces: u32,
    /// The seconds of its longest piece, and what the measured rate said that piece would
    /// take (`None` for a stage's first piece).
    pub longest_piece: f64,
    pub longest_expected: Option<f64>,
}

/// Sizes the pieces of slices of work from their measured time per unit; kept from slice to
/// slice while the work stays in one stage.
#[derive(Debug, Clone)]
pub struct Pacer {
    /// Units of the first piece of a stage, when nothing is measured yet.
    first_units: f64,
    /// The stage measured, its seconds per unit, and its largest piece timed.
    measured: Option<(u64, f64, f64)>,
    /// The stage the work is in (`run` is told at its start; each piece says after it).
    stage: Option<u64>,
}

impl Pacer {
    /// A pacer whose first piece of each stage does `first_units` units (at least one).
    pub fn new(first_units: f64) -> Pacer {
        Pacer { first_units: first_units.max(1.0), measured: None, stage: None }
    }

    /// The units of the next piece with `left` seconds of the slice left, and the seconds a
    /// unit is expected to take (`None` before the stage's first piece).
    fn next_units(&self, left: f64) -> (f64, Option<f64>) {
        match (self.measured, self.stage) {
            (Some((stage, seconds_per_unit, largest)), Some(now)) if stage == now => {
                let fill =
                    if seconds_per_unit > 0.0 { FILL * left / seconds_per_unit } else { f64::INFINITY };
                (fill.min(GROWTH * largest).max(1.0), Some(seconds_per_unit))
            }
            _ => (self.first_units, None),
        }
    }

    /// Records a piece that was in `stage_before` and took `seconds`.
    fn record(&mut self, stage_before: Option<u64>, piece: Piece, seconds: f64) {
        self.stage = Some(piece.stage);
        // A piece that changed stage mixed two costs, and the new one is unknown.
        if stage_before != Some(piece.stage) || piece.units <= 0.0 {
            if self.measured.is_some_and(|(stage, _, _)| stage != piece.stage) {
                self.measured = None;
            }
            return;
        }
        let rate = seconds.max(0.0) / piece.units;
        self.measured = Some(match self.measured {
            Some((stage, old, largest)) if stage == piece.stage => {
                // Slower pieces are believed at once, faster ones halfway: an overshoot costs a
                // wait, a piece too small only a few microseconds more.
                let rate = if rate >= old { rate } else { (old + rate) / 2.0 };
                (stage, rate, largest.max(piece.units))
            }
            _ => (piece.stage, rate, piece.units),
        });
    }

    /// Runs `work` (given the units to do, returning what it did) in pieces until about
    /// `budget` seconds of `clock` have passed or the work is finished; returns whether it is
    /// finished, with how its pieces went. `stage` is the stage the work is in now. At least
    /// one piece runs, whatever the budget.
    pub fn run(
        &mut self,
        budget: f64,
        stage: u64,
        clock: &mut dyn FnMut() -> f64,
        mut work: impl FnMut(f64) -> Piece,
    ) -> SliceReport {
        self.stage = Some(stage);
        let mut report = SliceReport::default();
        let start = clock();
        let mut now = start;
        loop {
            let left = budget - (now - start);
            let (units, seconds_per_unit) = self.next_units(left.max(0.0));
            let stage_before = self.stage;
            let piece = work(units);
            let after = clock();
            self.record(stage_before, piece, after - now);
            report.pieces += 1;
            if after - now > report.longest_piece {
                report.longest_piece = after - now;
                report.longest_expected = seconds_per_unit.map(|s| s * piece.units);
            }
            now = after;
            if piece.finished {
                // The next phase is other work.
                self.measured = None;
                self.stage = None;
                report.finished = true;
                return report;
            }
            if budget - (now - start) < LEFT_OVER * budget {
                return report;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// Work in stages of `units` units each at `cost` seconds per unit, plus `per_piece`
    /// seconds for any piece, on a clock it moves itself. Returns each slice's seconds.
    fn simulate(stages: &[(f64, f64)], per_piece: f64, budget: f64, first_units: f64) -> Vec<f64> {
        let time = Cell::new(0.0);
        let mut clock = || time.get();
        let mut pacer = Pacer::new(first_units);
        let (mut stage, mut done) = (0usize, 0.0);
        let mut slices = Vec::new();
        loop {
            let before = time.get();
            let finished = pacer
                .run(budget, stage as u64, &mut clock, |asked| {
                    // At least one unit, at most what the stage has left.
                    let (units, cost) = stages[stage];
                    let take = asked.ceil().max(1.0).min(units - done);
                    time.set(time.get() + per_piece + take * cost);
                    done += take;
                    if done >= units {
                        stage += 1;
                        done = 0.0;
                    }
                    Piece { units: take, stage: stage as u64, finished: stage == stages.len() }
                })
                .finished;
            slices.push(time.get() - before);
            if finished {
                return slices;
            }
        }
    }

    #[test]
    fn slices_keep_to_their_budget_when_the_cost_per_unit_jumps_between_stages() {
        let budget = 0.025;
        // Units calibrated at 1 µs, so a first piece of 1,000 units is meant to take 1 ms;
        // the stages really cost 1, 2.5, 0.4 and 3 µs a unit (wasm against native).
        let stages = [(200_000.0, 1e-6), (50_000.0, 2.5e-6), (400_000.0, 4e-7), (30_000.0, 3e-6)];
        let slices = simulate(&stages, 1e-6, budget, 1_000.0);
        let longest = slices.iter().copied().fold(0.0, f64::max);
        assert!(longest <= 1.05 * budget, "longest slice {longest} s of a budget of {budget} s");
        // And the slices are not mostly short: the work takes about as many slices as its time needs.
        let total: f64 = stages.iter().map(|(u, c)| u * c).sum();
        assert!(
            (slices.len() as f64) < 1.5 * total / budget + stages.len() as f64,
            "{} slices",
            slices.len()
        );
    }

    #[test]
    fn a_piece_grows_at_most_four_times_the_largest_timed() {
        // A clock that does not tick (a coarse one, on fast pieces): the measured cost is 0.
        let mut clock = || 0.0;
        let mut pacer = Pacer::new(10.0);
        let mut asked = Vec::new();
        let mut pieces = 0;
        pacer.run(0.025, 0, &mut clock, |units| {
            asked.push(units);
            pieces += 1;
            // The clock never moves, so the slice would never end: the work finishes after 5 pieces.
            Piece { units, stage: 0, finished: pieces == 5 }
        });
        assert_eq!(asked, [10.0, 40.0, 160.0, 640.0, 2560.0]);
    }

    #[test]
    fn a_new_stage_starts_small_again() {
        let time = Cell::new(0.0);
        let mut clock = || time.get();
        let mut pacer = Pacer::new(100.0);
        let mut asked = Vec::new();
        let mut stage = 0;
        pacer.run(1.0, 0, &mut clock, |units| {
            asked.push(units);
            time.set(time.get() + units * 1e-4);
            // The third piece moves on to stage 1.
            if asked.len() == 3 {
                stage = 1;
            }
            Piece { units, stage, finished: asked.len() == 5 }
        });
        assert_eq!(asked[0], 100.0);
        assert_eq!(asked[1], 400.0, "grows from the first piece");
        assert_eq!(asked[3], 100.0, "the piece after the change of stage is a first piece");
    }
}
