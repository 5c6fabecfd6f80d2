//! The session's states and the one table of what moves them. The worker fires each event
//! through this table (as `www/worker/transitions.json`, which [`transitions_json`] writes
//! and `www/worker/states.js` interprets), so every change of state and every "cannot do X
//! now" the page shows comes from here.
//!
//! A text goes idle → prepared → training ⇄ paused → done or stopped, and back to prepared
//! when it trains again; BPE passes through `Learning` (the merges, then the text tokenized
//! with them) on its way to prepared; a vectors file through `Loading` to `Loaded`.
//! `Learning` and `Loading` remember the state they came from: `Stop` (and a failure) goes
//! back to it, since the vectors or the text from before are still there, unless a new text
//! has replaced them meanwhile (then back is idle). `Learning` lasts until the text is
//! tokenized with the merges (`Prepared`), so Stop stays offered until then.

use serde_json::{Map, Value, json};

use crate::error::{Error, Result};

/// Where the page's copy of the table lives, from the repository's root.
pub const TRANSITIONS_PATH: &str = "www/worker/transitions.json";

/// A state of the session, as the worker reports it to the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Idle,
    Learning,
    Prepared,
    Training,
    Paused,
    Stopped,
    Done,
    Loading,
    Loaded,
}

use State::*;

impl State {
    /// Every state, in the order of the protocol's `TrainingState`.
    pub const ALL: [State; 9] =
        [Idle, Learning, State::Prepared, Training, Paused, Stopped, Done, Loading, Loaded];

    /// A fresh session's state (and so the page's, when its worker restarts).
    pub const INITIAL: State = Idle;

    /// The states that hold a text or vectors and run nothing: a new text or vectors file may replace them.
    const SETTLED: [State; 5] = [Idle, State::Prepared, Stopped, Done, Loaded];

    /// The state's name between the worker and the page.
    pub fn name(self) -> &'static str {
        match self {
            Idle => "idle",
            Learning => "learning",
            State::Prepared => "prepared",
            Training => "training",
            Paused => "paused",
            Stopped => "stopped",
            Done => "done",
            Loading => "loading",
            Loaded => "loaded",
        }
    }

    /// Whether entering this state remembers the state it came from, for [`Target::Back`].
    pub fn remembers(self) -> bool {
        matches!(self, Learning | Loading)
    }

    fn settled(self) -> bool {
        State::SETTLED.contains(&self)
    }

    /// Why this state refuses something else now, in the words the page shows.
    fn busy(self) -> String {
        match self {
            Loading => "another file is being read".to_string(),
            state => format!("training is {}", state.name()),
        }
    }
}

/// What happens to the session, as the worker fires it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A vectors file starts to be read; it replaces what is there once read.
    OpenVectors,
    /// The vectors file is read: its vectors replace the text or vectors from before.
    VectorsOpened,
    /// The read failed or was stopped: what was there before stays.
    OpenFailed,
    /// The session takes a text (anew: a file reaches the worker as a fresh copy with each
    /// request): whatever it held gives way, nothing is prepared yet, and nothing is left to
    /// go back to. After learned merges the text is installed again for tokenizing: still learning.
    ReplaceText,
    /// BPE merges start to be learned on the session's text.
    LearnBpe,
    /// A text starts to be tokenized; after learned merges it goes on from learning.
    Prepare,
    /// The text is tokenized: a fresh trainer, ready to train.
    Prepared,
    /// Tokenizing failed: after learned merges, back to the state before them; else the trainer from before stays.
    PrepareFailed,
    /// Learning the merges failed: back to the state before them.
    LearningFailed,
    /// Training starts, or resumes after a pause.
    Train,
    /// Only training pauses; in any other state the reply just says the state.
    Pause,
    /// Ends training, learning or reading; in any other state the reply just says the state.
    Stop,
    /// The trainer ran its last epoch.
    Finished,
    /// Training failed (it diverged, or a step threw): the vectors so far stay.
    TrainingFailed,
}

use Event::*;

/// Where an event moves a state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    To(State),
    /// Back to the state learning or loading started from.
    Back,
    /// Nothing changes.
    Stay,
    /// The event is refused in this state, with the message a person reads.
    Refused(String),
}

impl Event {
    /// Every event of the table.
    pub const ALL: [Event; 14] = [
        OpenVectors,
        VectorsOpened,
        OpenFailed,
        ReplaceText,
        LearnBpe,
        Prepare,
        Event::Prepared,
        PrepareFailed,
        LearningFailed,
        Train,
        Pause,
        Stop,
        Finished,
        TrainingFailed,
    ];

    /// The event's name in the worker.
    pub fn name(self) -> &'static str {
        match self {
            OpenVectors => "openVectors",
            VectorsOpened => "vectorsOpened",
            OpenFailed => "openFailed",
            ReplaceText => "replaceText",
            LearnBpe => "learnBpe",
            Prepare => "prepare",
            Event::Prepared => "prepared",
            PrepareFailed => "prepareFailed",
            LearningFailed => "learningFailed",
            Train => "train",
            Pause => "pause",
            Stop => "stop",
            Finished => "finished",
            TrainingFailed => "trainingFailed",
        }
    }

    /// The event named `name` in the worker.
    pub fn named(name: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|event| event.name() == name)
    }

    /// Whether this event makes what learning or loading would go back to gone.
    pub fn forgets_before(self) -> bool {
        self == ReplaceText
    }

    /// Where this event moves `state`: the transition table.
    pub fn target(self, state: State) -> Target {
        let refuse = |what: &str| Target::Refused(format!("cannot {what} now: {}", state.busy()));
        // An event the worker's own code never fires in that state: a bug, not the person's doing.
        let impossible =
            |what: &str| Target::Refused(format!("the worker cannot {what} while {}", state.busy()));
        match (self, state) {
            (OpenVectors, s) if s.settled() => Target::To(Loading),
            (OpenVectors, _) => refuse("open a file"),
            (VectorsOpened, Loading) => Target::To(Loaded),
            (VectorsOpened, _) => impossible("finish opening vectors"),
            (OpenFailed, Loading) => Target::Back,
            (ReplaceText, s) if s.settled() => Target::To(Idle),
            (ReplaceText, Learning) => Target::Stay,
            (ReplaceText, _) => refuse("take another text"),
            (LearnBpe, s) if s.settled() => Target::To(Learning),
            (LearnBpe, _) => refuse("learn BPE merges"),
            (Prepare, s) if s.settled() || s == Learning => Target::Stay,
            (Prepare, _) => refuse("prepare a text"),
            (Event::Prepared, s) if s.settled() || s == Learning => Target::To(State::Prepared),
            (Event::Prepared, _) => impossible("finish preparing a text"),
            (PrepareFailed | LearningFailed, Learning) => Target::Back,
            (Train, State::Prepared | Paused) => Target::To(Training),
            (Train, Idle) => Target::Refused("choose a text first".to_string()),
            (Train, s) => Target::Refused(format!("cannot train now: training is {}", s.name())),
            (Pause, Training) => Target::To(Paused),
            (Stop, Training | Paused) => Target::To(Stopped),
            (Stop, Learning | Loading) => Target::Back,
            (Finished, Training) => Target::To(Done),
            (Finished, _) => impossible("finish training"),
            (TrainingFailed, Training | Paused) => Target::To(Stopped),
            (OpenFailed | PrepareFailed | LearningFailed | Pause | Stop | TrainingFailed, _) => Target::Stay,
        }
    }
}

/// Where `event` moves `state`, with `before` the state learning or loading started from:
/// the next state and the next `before`, or the error that refuses the event.
pub fn next(state: State, event: Event, before: State) -> Result<(State, State)> {
    let before = if event.forgets_before() { State::INITIAL } else { before };
    match event.target(state) {
        Target::Refused(message) => Err(Error::Session(message)),
        Target::Stay => Ok((state, before)),
        Target::Back => Ok((before, State::INITIAL)),
        // Entering learning or loading remembers where from; another state forgets it.
        Target::To(target) if target.remembers() => {
            Ok((target, if state == target { before } else { state }))
        }
        Target::To(target) => Ok((target, State::INITIAL)),
    }
}

/// The session's state and where learning or loading came from, moved only by [`Machine::fire`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    state: State,
    /// What [`Target::Back`] returns to (learning and loading set it).
    before: State,
}

impl Default for Machine {
    fn default() -> Self {
        Machine { state: State::INITIAL, before: State::INITIAL }
    }
}

impl Machine {
    pub fn state(&self) -> State {
        self.state
    }

    pub fn before(&self) -> State {
        self.before
    }

    /// Why `event` is refused now, or `None` when it is allowed.
    pub fn refusal(&self, event: Event) -> Option<Error> {
        next(self.state, event, self.before).err()
    }

    /// Moves by `event`; returns whether the state changed, or the refusal (whose message the
    /// page shows), and then nothing moves.
    pub fn fire(&mut self, event: Event) -> Result<bool> {
        let (state, before) = next(self.state, event, self.before)?;
        let changed = state != self.state;
        (self.state, self.before) = (state, before);
        Ok(changed)
    }
}

/// The table as the worker reads it, pretty-printed with a final newline: the states, the
/// initial one, those that remember where they came from, and for each event whether it
/// forgets that and each state's target: a state's name, `"back"`, `"stay"`, or
/// `{"refused": message}`.
pub fn transitions_json() -> String {
    let names = |states: &[State]| Value::from(states.iter().map(|s| s.name()).collect::<Vec<_>>());
    let remembering: Vec<State> = State::ALL.into_iter().filter(|s| s.remembers()).collect();
    let events: Map<String, Value> = Event::ALL
        .into_iter()
        .map(|event| {
            let targets: Map<String, Value> = State::ALL
                .into_iter()
                .map(|state| {
                    let target = match event.target(state) {
                        Target::To(to) => json!(to.name()),
                        Target::Back => json!("back"),
                        Target::Stay => json!("stay"),
                        Target::Refused(message) => json!({ "refused": message }),
                    };
                    (state.name().to_string(), target)
                })
                .collect();
            let row = json!({ "forgetsBefore": event.forgets_before(), "targets": targets });
            (event.name().to_string(), row)
        })
        .collect();
    let table = json!({
        "states": names(&State::ALL),
        "initial": State::INITIAL.name(),
        "remembering": names(&remembering),
        "events": events,
    });
    serde_json::to_string_pretty(&table).expect("the table serialises") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What each event does to each state, in the order of [`State::ALL`]: a state's name,
    /// "back", "=" (no change) or "refused".
    #[rustfmt::skip]
    const EXPECTED: [(Event, [&str; 9]); 14] = [
        //                idle        learning    prepared    training    paused      stopped     done        loading     loaded
        (OpenVectors,    ["loading",  "refused",  "loading",  "refused",  "refused",  "loading",  "loading",  "refused",  "loading"]),
        (VectorsOpened,  ["refused",  "refused",  "refused",  "refused",  "refused",  "refused",  "refused",  "loaded",   "refused"]),
        (OpenFailed,     ["=",        "=",        "=",        "=",        "=",        "=",        "=",        "back",     "="]),
        (ReplaceText,    ["=",        "=",        "idle",     "refused",  "refused",  "idle",     "idle",     "refused",  "idle"]),
        (LearnBpe,       ["learning", "refused",  "learning", "refused",  "refused",  "learning", "learning", "refused",  "learning"]),
        (Prepare,        ["=",        "=",        "=",        "refused",  "refused",  "=",        "=",        "refused",  "="]),
        (Event::Prepared, ["prepared", "prepared", "=",        "refused",  "refused",  "prepared", "prepared", "refused",  "prepared"]),
        (PrepareFailed,  ["=",        "back",     "=",        "=",        "=",        "=",        "=",        "=",        "="]),
        (LearningFailed, ["=",        "back",     "=",        "=",        "=",        "=",        "=",        "=",        "="]),
        (Train,          ["refused",  "refused",  "training", "refused",  "training", "refused",  "refused",  "refused",  "refused"]),
        (Pause,          ["=",        "=",        "=",        "paused",   "=",        "=",        "=",        "=",        "="]),
        (Stop,           ["=",        "back",     "=",        "stopped",  "stopped",  "=",        "=",        "back",     "="]),
        (Finished,       ["refused",  "refused",  "refused",  "done",     "refused",  "refused",  "refused",  "refused",  "refused"]),
        (TrainingFailed, ["=",        "=",        "=",        "stopped",  "stopped",  "=",        "=",        "=",        "="]),
    ];

    fn fire_all(machine: &mut Machine, events: &[Event]) {
        for &event in events {
            machine.fire(event).unwrap_or_else(|e| panic!("{} in {:?}: {e}", event.name(), machine.state()));
        }
    }

    fn refusal(machine: &Machine, event: Event) -> String {
        machine.refusal(event).expect("refused").to_string()
    }

    #[test]
    fn every_state_under_every_event_known_answers() {
        assert_eq!(EXPECTED.map(|(event, _)| event), Event::ALL);
        // Done stands for the state before learning or loading, so "back" is told from "=".
        let before = Done;
        for (event, row) in EXPECTED {
            for (state, expected) in State::ALL.into_iter().zip(row) {
                let got = match next(state, event, before) {
                    Err(_) => "refused",
                    Ok((to, _)) if to == state => "=",
                    Ok((to, _)) if to == before && state.remembers() => "back",
                    Ok((to, _)) => to.name(),
                };
                assert_eq!(got, expected, "{} in {}", event.name(), state.name());
            }
        }
    }

    #[test]
    fn names_are_the_protocol_s_and_each_is_named_once() {
        let names = State::ALL.map(State::name);
        assert_eq!(
            names,
            ["idle", "learning", "prepared", "training", "paused", "stopped", "done", "loading", "loaded"]
        );
        for event in Event::ALL {
            assert_eq!(Event::named(event.name()), Some(event));
        }
        assert_eq!(Event::named("explode"), None);
        assert_eq!(Machine::default().state(), Idle);
    }

    #[test]
    fn a_refused_event_leaves_the_machine_as_it_was_and_says_why() {
        let mut machine = Machine::default();
        assert_eq!(machine.fire(Train), Err(Error::Session("choose a text first".into())));
        assert_eq!(refusal(&machine, Finished), "the worker cannot finish training while training is idle");
        assert_eq!(machine.state(), Idle);
        fire_all(&mut machine, &[Event::Prepared, Train]);
        let cases = [
            (OpenVectors, "cannot open a file now: training is training"),
            (LearnBpe, "cannot learn BPE merges now: training is training"),
            (Prepare, "cannot prepare a text now: training is training"),
            (Train, "cannot train now: training is training"),
            (ReplaceText, "cannot take another text now: training is training"),
            (VectorsOpened, "the worker cannot finish opening vectors while training is training"),
            (Event::Prepared, "the worker cannot finish preparing a text while training is training"),
        ];
        for (event, message) in cases {
            assert_eq!(refusal(&machine, event), message);
            assert!(machine.fire(event).is_err());
            assert_eq!(machine.state(), Training);
        }
        assert!(machine.refusal(Pause).is_none());
    }

    #[test]
    fn a_file_being_read_is_named_as_such_in_refusals() {
        let mut machine = Machine::default();
        fire_all(&mut machine, &[OpenVectors]);
        assert_eq!(refusal(&machine, OpenVectors), "cannot open a file now: another file is being read");
        assert_eq!(refusal(&machine, Train), "cannot train now: training is loading");
    }

    #[test]
    fn fire_says_whether_the_state_changed() {
        let mut machine = Machine::default();
        let changes = [
            (Stop, false),
            (ReplaceText, false),
            (Event::Prepared, true),
            (Event::Prepared, false),
            (Train, true),
        ];
        let more = [(Pause, true), (Pause, false)];
        for (event, changed) in changes.into_iter().chain(more) {
            assert_eq!(machine.fire(event), Ok(changed), "{}", event.name());
        }
    }

    #[test]
    fn stop_while_learning_goes_back_unless_a_new_text_came_meanwhile() {
        let mut machine = Machine::default();
        fire_all(&mut machine, &[Event::Prepared, Train, Finished, LearnBpe]);
        assert_eq!((machine.state(), machine.before()), (Learning, Done));
        fire_all(&mut machine, &[Stop]);
        assert_eq!(machine.state(), Done);
        // Learned merges, then the text tokenized with them: prepared.
        fire_all(&mut machine, &[LearnBpe, Prepare]);
        assert_eq!(machine.state(), Learning);
        fire_all(&mut machine, &[Event::Prepared]);
        assert_eq!(machine.state(), State::Prepared);
        // A failed tokenizing after the merges goes back too.
        fire_all(&mut machine, &[LearnBpe, PrepareFailed]);
        assert_eq!(machine.state(), State::Prepared);
        fire_all(&mut machine, &[LearnBpe, LearningFailed]);
        assert_eq!(machine.state(), State::Prepared);
        // The text installed again for tokenizing: the trainer from before is gone, so a stop
        // then goes back to idle.
        fire_all(&mut machine, &[LearnBpe, ReplaceText]);
        assert_eq!((machine.state(), machine.before()), (Learning, Idle));
        fire_all(&mut machine, &[Stop]);
        assert_eq!(machine.state(), Idle);
    }

    #[test]
    fn stop_or_a_failure_while_reading_goes_back_to_what_was_open_once() {
        let mut machine = Machine::default();
        fire_all(&mut machine, &[OpenVectors, VectorsOpened]);
        assert_eq!(machine.state(), Loaded);
        fire_all(&mut machine, &[OpenVectors, Stop]);
        assert_eq!(machine.state(), Loaded);
        fire_all(&mut machine, &[ReplaceText, Event::Prepared, OpenVectors, OpenFailed]);
        assert_eq!(machine.state(), State::Prepared);
        // What "before" was is forgotten once back: a second stop changes nothing.
        assert_eq!(machine.fire(Stop), Ok(false));
        assert_eq!(machine.before(), Idle);
    }

    #[test]
    fn the_table_the_worker_reads_is_what_rust_writes() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(TRANSITIONS_PATH);
        let written = transitions_json();
        if std::env::var_os("UPDATE_TRANSITIONS").is_some() {
            std::fs::write(&path, &written).expect("writes the worker's copy");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == written,
            "{TRANSITIONS_PATH} differs from the table in src/session/machine.rs; rewrite it with\n\n    \
             UPDATE_TRANSITIONS=1 cargo test --lib transitions\n\nand commit it. Rust writes:\n{written}"
        );
    }

    #[test]
    fn the_written_table_names_each_target_and_refusal() {
        let table: Value = serde_json::from_str(&transitions_json()).unwrap();
        assert_eq!(table["initial"], "idle");
        assert_eq!(table["remembering"], json!(["learning", "loading"]));
        let stop = &table["events"]["stop"];
        assert_eq!(stop["forgetsBefore"], false);
        assert_eq!(stop["targets"]["learning"], "back");
        assert_eq!(stop["targets"]["training"], "stopped");
        assert_eq!(stop["targets"]["idle"], "stay");
        let refused = &table["events"]["openVectors"]["targets"]["loading"];
        assert_eq!(refused, &json!({ "refused": "cannot open a file now: another file is being read" }));
        assert_eq!(table["events"]["replaceText"]["forgetsBefore"], true);
    }
}
