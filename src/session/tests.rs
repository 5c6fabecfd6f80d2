//! The session natively: preparation in pieces, BPE reuse, snapshots after divergence,
//! epoch ends, what survives a new source, and the size limits.

use std::rc::Rc;

use super::*;

fn no_clock() -> f64 {
    0.0
}

/// A small seeded text of 30 words, some of them accented (several bytes a character).
fn text(lines: usize) -> String {
    let words: Vec<String> = (0..30).map(|i| format!("w{i}{}", if i % 3 == 0 { "é" } else { "" })).collect();
    let mut state = 12345u64;
    let mut out = String::new();
    for _ in 0..lines {
        for _ in 0..8 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            out.push_str(&words[(state >> 33) as usize % words.len()]);
            out.push(' ');
        }
        out.push('\n');
    }
    out
}

fn params() -> Params {
    Params { dim: 8, epochs: 3, min_count: 1, sample: 0.0, threads: 1, seed: 7, ..Params::default() }
}

fn session_with(text: &str) -> Session {
    let mut session = Session::default();
    session.set_text(text.as_bytes().to_vec()).expect("a text");
    session
}

/// Prepares the session's text for `params`, `piece` bytes at a time.
fn prepare(session: &mut Session, params: Params, piece: usize) -> Result<()> {
    session.prepare_begin(params)?;
    while session.prepare_step(piece)? < 1.0 {}
    session.prepare_finish(no_clock).map(|_| ())
}

fn message(result: Result<impl std::fmt::Debug>) -> String {
    result.expect_err("refused").to_string()
}

#[test]
fn preparation_in_pieces_equals_preparation_in_one_go() {
    let text = text(60);
    let mut whole = session_with(&text);
    prepare(&mut whole, params(), usize::MAX).unwrap();
    // One byte a piece: most pieces end inside an accented character and go on to its end.
    for piece in [1, 2, 7, 100] {
        let mut pieces = session_with(&text);
        prepare(&mut pieces, params(), piece).unwrap();
        let (a, b) = (whole.training().unwrap(), pieces.training().unwrap());
        assert_eq!(a.fingerprint, b.fingerprint);
        assert_eq!(a.trainer.corpus().vocab().words(), b.trainer.corpus().vocab().words(), "piece {piece}");
        assert_eq!(a.trainer.corpus().vocab().counts(), b.trainer.corpus().vocab().counts());
        assert_eq!(a.trainer.corpus().n_tokens(), b.trainer.corpus().n_tokens());
    }
}

#[test]
fn preparation_must_reach_the_text_s_end_and_be_begun() {
    let mut session = session_with(&text(10));
    assert_eq!(message(session.prepare_step(10)), "no text is being prepared");
    session.prepare_begin(params()).unwrap();
    session.prepare_step(10).unwrap();
    assert_eq!(
        message(session.prepare_finish(no_clock).map(|_| ())),
        "the text is not tokenized to its end yet"
    );
    assert!(session.training().is_none());
}

fn bpe_params(vocab_size: usize) -> Params {
    Params { tokenizer: "bpe".into(), bpe_vocab_size: vocab_size, ..params() }
}

fn merges(session: &Session) -> Rc<BpeTokenizer> {
    Rc::clone(&session.text_run().unwrap().bpe.as_ref().expect("merges").state)
}

use crate::text::BpeTokenizer;

#[test]
fn bpe_merges_are_reused_for_the_same_configuration_and_relearned_for_another() {
    let mut session = session_with(&text(40));
    session.bpe_begin(&bpe_params(60)).unwrap();
    while !session.bpe_step(5).unwrap().done {}
    let learned = merges(&session);
    prepare(&mut session, bpe_params(60), usize::MAX).unwrap();
    assert!(Rc::ptr_eq(&learned, &merges(&session)), "the merges learned step by step are used");
    prepare(&mut session, bpe_params(60), 50).unwrap();
    assert!(Rc::ptr_eq(&learned, &merges(&session)), "and again");
    prepare(&mut session, bpe_params(45), usize::MAX).unwrap();
    let relearned = merges(&session);
    assert!(!Rc::ptr_eq(&learned, &relearned));
    assert_eq!(
        session.text_run().unwrap().bpe.as_ref().unwrap().config,
        bpe_params(45).bpe_config().unwrap()
    );
    // Merges begun for a configuration and not finished are finished by the preparation.
    session.bpe_begin(&bpe_params(60)).unwrap();
    session.bpe_step(1).unwrap();
    prepare(&mut session, bpe_params(60), usize::MAX).unwrap();
    assert!(session.text_run().unwrap().learner.is_none());
    assert_eq!(merges(&session).model().hash(), learned.model().hash());
    // A word tokenizer's trainer leaves no merges behind.
    prepare(&mut session, params(), usize::MAX).unwrap();
    assert!(session.text_run().unwrap().bpe.is_none());
    assert_eq!(message(session.bpe_step(1)), "no BPE learning in progress");
}

fn diverge(session: &mut Session) -> String {
    message(
        session.step_with(100, |trainer, _| (trainer, Err(Error::Diverged { epoch: 1, tokens_done: 42 }))),
    )
}

#[test]
fn a_divergence_keeps_the_last_snapshot_for_queries_and_says_so() {
    let mut session = session_with(&text(30));
    prepare(&mut session, params(), usize::MAX).unwrap();
    session.step(50).unwrap();
    let snapshot = session.embeddings().unwrap();
    let tokens = session.training().unwrap().trainer.progress().tokens_done;
    let said = diverge(&mut session);
    let expected = format!(
        "{}; the vectors from before it ({tokens} tokens trained) are kept for queries",
        Error::Diverged { epoch: 1, tokens_done: 42 }
    );
    assert_eq!(said, expected);
    assert!(Rc::ptr_eq(&snapshot, &session.embeddings().unwrap()));
    // A second divergence keeps the same vectors.
    assert_eq!(diverge(&mut session), expected);
    assert!(Rc::ptr_eq(&snapshot, &session.embeddings().unwrap()));
}

#[test]
fn a_divergence_before_any_snapshot_says_there_is_nothing_to_query() {
    let mut session = session_with(&text(30));
    prepare(&mut session, params(), usize::MAX).unwrap();
    let said = diverge(&mut session);
    assert!(said.ends_with("; it happened before any vectors were kept"), "{said}");
    assert_eq!(
        message(session.embeddings()),
        "training diverged before any vectors were kept: lower the learning rate alpha and train again"
    );
}

#[test]
fn each_epoch_end_is_recorded_once_whatever_the_chunks() {
    let epochs_of = |chunk: u64| {
        let mut session = session_with(&text(30));
        prepare(&mut session, params(), usize::MAX).unwrap();
        let mut steps = 0;
        while !session.step(chunk).unwrap().done {
            steps += 1;
        }
        assert!(steps >= 2 || chunk == u64::MAX);
        let history = &session.training().unwrap().history;
        history.epochs().map(|e| (e.epoch, e.tokens_done)).collect::<Vec<_>>()
    };
    let whole = epochs_of(u64::MAX);
    assert_eq!(whole.iter().map(|(epoch, _)| *epoch).collect::<Vec<_>>(), [1, 2, 3]);
    for chunk in [1, 17, 100] {
        assert_eq!(epochs_of(chunk), whole, "chunks of {chunk}");
    }
}

#[test]
fn a_new_source_keeps_the_numbering_of_word_lists() {
    let mut session = session_with(&text(30));
    prepare(&mut session, params(), usize::MAX).unwrap();
    let emb = session.embeddings().unwrap();
    assert_eq!(session.frame_words.number(&emb, 0..10), 1);
    assert_eq!(session.frame_words.number(&emb, 0..10), 1, "the same words keep their number");
    session.set_sample_text();
    assert!(session.training().is_none());
    // The same words from new vectors keep the number; other words take the next one, never 1 again.
    assert_eq!(session.frame_words.number(&emb, 0..10), 1);
    assert_eq!(session.frame_words.number(&emb, 0..5), 2);
    assert_eq!(session.frame_words.words(2).unwrap().len(), 5);
    assert_eq!(message(session.frame_words.words(1)), "word list 1 gave way to list 2");
}

#[test]
fn a_trainer_and_opened_vectors_never_coexist() {
    let mut session = session_with(&text(30));
    prepare(&mut session, params(), usize::MAX).unwrap();
    let trained = session.embeddings().unwrap();
    session.open(Opened::vectors((*trained).clone()));
    assert!(session.training().is_none() && session.text_run().is_none());
    assert!(session.kept_history().is_none());
    assert_eq!(message(session.step(10)), message(Err::<(), _>(no_text())));
    assert_eq!(message(session.prepare_begin(params())), message(Err::<(), _>(no_text())));
    assert_eq!(session.embeddings().unwrap().len(), trained.len());
    session.set_text(b"a new text".to_vec()).unwrap();
    assert!(matches!(session.source(), Source::Text(run) if run.training.is_none()));
    assert_eq!(
        message(session.embeddings()),
        "no text loaded yet: choose a file or the built-in sample first"
    );
}

#[test]
fn texts_over_the_explorer_s_limits_are_refused_with_what_to_do() {
    assert!(check_text_size(MAX_TEXT_BYTES).is_ok());
    assert_eq!(
        message(check_text_size(300e6)),
        "this file is 300 MB, and the explorer takes texts up to 250 MB: open a part of it, or train on it \
         with the command-line tool (embedscope train), which has no such limit"
    );
    assert!(check_inflated_text_size(MAX_TEXT_BYTES).is_ok());
    assert!(
        message(check_inflated_text_size(MAX_TEXT_BYTES + 1.0))
            .starts_with("this file inflates to more than 250 MB")
    );
    assert!(check_bpe_size(MAX_BPE_TEXT_BYTES).is_ok());
    assert_eq!(
        message(check_bpe_size(40_000_000)),
        "BPE learns its merges from texts up to 32 MB in the explorer, and this one is 40 MB: choose the \
         word or whitespace tokenizer, or open a part of the text"
    );
}

#[test]
fn a_text_is_read_as_its_bytes_say_and_markup_taken_out_on_request() {
    let mut session = Session::default();
    let read = session.set_text(b"<html><body><p>one two three</p></body></html>".to_vec()).unwrap().clone();
    assert_eq!((read.encoding, read.markup.is_some()), ("UTF-8", true));
    let stripped = session.strip_markup().unwrap().clone();
    assert!(
        stripped.markup.is_none() && stripped.note.as_deref().unwrap().starts_with("only the text of its")
    );
    assert_eq!(stripped.bytes, session.text_run().unwrap().text.len());
    assert_eq!(
        message(session.strip_markup()),
        "this text is not XML or HTML: there is no markup to take out"
    );
    // A refused file replaces nothing.
    assert!(session.set_text(vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]).is_err());
    assert_eq!(session.text_run().unwrap().read, stripped);
}

mod layouts {
    use super::*;
    use crate::map::layout::{LayoutParams, TsneParams, UmapParams};

    fn tsne() -> LayoutParams {
        LayoutParams::Tsne(TsneParams { perplexity: 3.0, iterations: 40, ..TsneParams::default() })
    }

    /// Runs `run` to its end, a slice of "a second" at a time on a clock that moves a
    /// millisecond a reading.
    fn settle(mut run: LayoutRun) -> LayoutRun {
        let mut now = 0.0;
        let mut clock = move || {
            now += 0.001;
            now
        };
        for _ in 0..10_000 {
            let (phase, progress) = run.progress();
            if phase == crate::map::layout::LayoutPhase::Layout && progress.is_done() {
                return run;
            }
            run = run.step(1.0, &mut clock, |layout, points| layout.step_points(points)).unwrap();
        }
        panic!("the layout never finished");
    }

    fn vectors() -> Rc<Embeddings> {
        let mut session = session_with(&text(60));
        prepare(&mut session, params(), usize::MAX).unwrap();
        session.step(u64::MAX).unwrap();
        session.embeddings().unwrap()
    }

    #[test]
    fn a_layout_starts_warm_only_from_a_map_of_the_same_method_and_words() {
        let emb = vectors();
        let cold = LayoutRun::begin(tsne(), Rc::clone(&emb), 20, 0, None, true).unwrap();
        assert!(!cold.warm && cold.coords().is_none());
        let first = settle(cold);
        let coords = first.coords().unwrap().to_vec();
        let warm = LayoutRun::begin(tsne(), Rc::clone(&emb), 20, 0, Some(&first), true).unwrap();
        assert!(warm.warm);
        assert_eq!(warm.coords(), Some(coords.as_slice()), "it shows the map before while it builds");
        assert_eq!(warm.iterations, 250, "warm parameters");
        let unasked = LayoutRun::begin(tsne(), Rc::clone(&emb), 20, 0, Some(&first), false).unwrap();
        let other_words = LayoutRun::begin(tsne(), Rc::clone(&emb), 15, 0, Some(&first), true).unwrap();
        let umap = LayoutParams::Umap(UmapParams { n_neighbours: 5, ..UmapParams::default() });
        let other_method = LayoutRun::begin(umap, Rc::clone(&emb), 20, 0, Some(&first), true).unwrap();
        for cold in [unasked, other_words, other_method] {
            assert!(!cold.warm && cold.coords().is_none());
        }
        // The word count is the vocabulary's when fewer words are asked for: still the same map.
        let all = LayoutRun::begin(tsne(), Rc::clone(&emb), emb.len(), 0, None, false).unwrap();
        let all = settle(all);
        let again = LayoutRun::begin(tsne(), Rc::clone(&emb), 1_000_000, 0, Some(&all), true).unwrap();
        assert!(again.warm && again.n_words == emb.len());
    }

    #[test]
    fn a_new_trainer_or_source_drops_the_maps_but_not_the_list_numbers() {
        let mut session = session_with(&text(60));
        prepare(&mut session, params(), usize::MAX).unwrap();
        let emb = session.embeddings().unwrap();
        session.layout = Some(LayoutRun::begin(tsne(), Rc::clone(&emb), 20, 3, None, false).unwrap());
        assert_eq!(session.layout.as_ref().unwrap().clusters.as_ref().unwrap().labels().len(), 20);
        session.frame_words.number(&emb, 0..20);
        prepare(&mut session, params(), usize::MAX).unwrap();
        assert!(session.layout.is_none() && session.frame.is_none());
        session.layout = Some(LayoutRun::begin(tsne(), Rc::clone(&emb), 20, 0, None, false).unwrap());
        session.open(Opened::vectors((*emb).clone()));
        assert!(session.layout.is_none());
        assert_eq!(session.frame_words.number(&emb, 0..20), 1);
    }
}
