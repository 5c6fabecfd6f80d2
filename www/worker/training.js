// @ts-check
// Training in the worker: a text prepared (tokenized in slices), BPE merges learned chunk by
// chunk, and the training loop, chunks sized so one takes about CHUNK_MS, with a map frame
// whenever frame-pacing.js says one is due; pause and stop change the state, which the
// loops read between two chunks. A text request (`readText`, `prepare`, `learnBpe`) holds
// the scheduler's 'text' token: a newer one, or `stop`, cancels it.
import { FIRST_CHUNK_MERGES, FIRST_CHUNK_TOKENS, LOAD_SLICE_BYTES } from '../protocol.js';
import { post, reportError } from './messages.js';
import { Chunk } from './scheduler.js';

/** @typedef {import('../protocol.js').Handlers} Handlers */

/** The dimension FIRST_CHUNK_TOKENS is sized for: a token's cost grows with the dimension. */
const FIRST_CHUNK_DIM = 100;

export class Training {
  /**
   * @param {{session: import('../pkg/embedscope.js').Session, state: import('./session-state.js').SessionState,
   *   scheduler: import('./scheduler.js').Scheduler, text: import('./text-source.js').TextSource,
   *   frames: import('./frames.js').Frames, pool: import('./threads.js').Pool}} parts
   */
  constructor(parts) {
    this.parts = parts;
    /** Tokens per training chunk, sized so one takes about CHUNK_MS. */
    this.chunk = new Chunk(FIRST_CHUNK_TOKENS, 1_000, 1_000_000);
  }

  /**
   * Tokenizes the text in slices, posting `tokenizeProgress` between them; a newer `prepare`
   * (the parameters changed again) replaces one still running.
   * @param {import('../protocol.js').Source} source @param {import('../protocol.js').Params} params
   */
  async prepare(source, params) {
    const { session, state, scheduler, text, frames, pool } = this.parts;
    state.check('prepare');
    const token = scheduler.begin('text');
    let stats, info;
    try {
      info = await text.use(source, token);
      await pool.use(params.threads ?? 1, session);
      token.check();
      session.prepare_begin(params);
      for (let fraction = session.prepare_step(LOAD_SLICE_BYTES); fraction < 1; fraction = session.prepare_step(LOAD_SLICE_BYTES)) {
        post({ type: 'tokenizeProgress', fraction });
        await scheduler.slice(token);
      }
      stats = session.prepare_finish();
    } catch (error) {
      // A request that gave way (to `stop` or a newer text) leaves the state to it.
      if (!token.cancelled) state.fire('prepareFailed');
      throw error;
    } finally {
      token.end();
    }
    const isSample = source.kind === 'sample';
    // A token costs about `dim` multiply-adds a pair: the first chunk, before the worker has
    // timed one, is sized for the dimension, so the first progress comes within CHUNK_MS or so.
    this.chunk.size = Math.max(1_000, Math.round(FIRST_CHUNK_TOKENS * Math.min(1, FIRST_CHUNK_DIM / params.dim)));
    const model = state.newModel();
    frames.usePlainView();
    state.fire('prepared');
    return { stats, text: info, params, isSample, model };
  }

  /**
   * Learns merges chunk by chunk, like `loop`; `stop` ends it by changing the state. The state
   * stays 'learning' after the last merge, until the page's `prepare` has tokenized the text
   * with the merges (or failed, or was stopped).
   * @param {import('../protocol.js').Source} source @param {import('../protocol.js').Params} params
   */
  async learnBpe(source, params) {
    const { session, state, scheduler, text } = this.parts;
    state.check('learnBpe');
    const token = scheduler.begin('text');
    try {
      await text.use(source, token);
    } finally {
      token.end();
    }
    let progress = session.bpe_begin(params);
    state.fire('learnBpe');
    post({ type: 'bpeProgress', progress });
    const chunk = new Chunk(FIRST_CHUNK_MERGES, 1, 100_000);
    while (!progress.done) {
      await scheduler.yieldToMessages();
      if (state.current !== 'learning') return { progress, done: false };
      try {
        progress = scheduler.timed(chunk, (merges) => session.bpe_step(merges)).result;
      } catch (error) {
        state.fire('learningFailed');
        throw error;
      }
      post({ type: 'bpeProgress', progress });
    }
    return { progress, done: true };
  }

  /** The chunked loop: runs while the state is 'training'; pause and stop just change the state. */
  async loop() {
    const { session, state, scheduler, frames } = this.parts;
    while (state.current === 'training') {
      // More threads train more tokens in a chunk's time, hence the larger cap.
      const { result: progress, elapsed } = scheduler.timed(this.chunk, (tokens) => session.step(tokens), 1_000_000 * session.threads());
      frames.pacer.trained(elapsed);
      post({ type: 'progress', progress, threads: session.threads() });
      state.trainedChunk();
      if (frames.due(progress)) {
        // A pause or stop sent meanwhile is read before the frame is made (stop makes its own).
        if (!progress.done) await scheduler.yieldToMessages();
        if (state.current !== 'training') return;
        frames.showFreshVectors();
      }
      if (progress.done) {
        state.fire('finished');
        return;
      }
      await scheduler.yieldToMessages();
    }
  }

  /**
   * Stop: ends training, the learning of merges, a text being read or tokenized, and the
   * reading of a vectors file (the one read that runs: its own cleanup drops its parser).
   * @param {number} id
   */
  stop(id) {
    const { state, scheduler, frames } = this.parts;
    // A text being tokenized for training (its BPE merges just learned, the state still
    // 'learning') stops too, and the trainer from before stays.
    scheduler.cancel(['text']);
    const was = state.current;
    // The read sees its token cancelled at its next slice and ends; the vectors or text from before stay.
    if (was === 'loading') scheduler.cancel(['read']);
    state.fire('stop', id);
    if (was === 'training' || was === 'paused') frames.showFreshVectors();
  }

  /** @returns {Pick<Handlers, 'prepare'|'learnBpe'|'train'|'pause'|'stepUpdates'|'stop'|'threads'>} */
  handlers() {
    const { session, state, frames, pool } = this.parts;
    return {
      prepare: ({ source, params }) => this.prepare(source, params),
      learnBpe: ({ source, params }) => this.learnBpe(source, params),
      train: ({ id }) => {
        state.fire('train', id);
        this.loop().catch((error) => {
          state.fire('trainingFailed');
          reportError(null)(error);
        });
      },
      pause: ({ id }) => {
        state.fire('pause', id);
      },
      /**
       * The step mode: `count` single updates (skip-gram pairs or CBOW windows) of the paused
       * training, on one thread; sends the progress and a fresh frame, and replies with the last
       * update.
       */
      stepUpdates: ({ count }) => {
        if (state.current !== 'paused') throw new Error('Pause training first: the step mode walks a paused training.');
        const stepped = session.step_updates(count);
        post({ type: 'progress', progress: stepped.progress, threads: 1 });
        state.trainedChunk();
        frames.showFreshVectors();
        return { ...stepped, moves: frames.stepMoves() };
      },
      stop: ({ id }) => this.stop(id),
      /**
       * Where training runs: the module, the pool's threads, and how many distinct threads ran
       * a job sent to each of them (rayon's broadcast), which shows the pool really works.
       */
      threads: () => ({ info: pool.info, poolThreads: session.threads(), working: session.threads_working() }),
    };
  }
}
