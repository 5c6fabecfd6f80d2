// @ts-check
// The one written definition of every message between the page and the training worker.
// The shapes Rust sends or reads are not written here: they are the DTOs of src/wasm/dto/ (and
// src/wasm/timeline.rs), whose TypeScript declarations tsify writes into the wasm glue's
// www/pkg/embedscope.d.ts; the typedefs below import them, so tsc checks the page against the
// Rust fields. What is written here is the page's own: requests, the worker's messages, and
// the fields the worker adds to a DTO (typed arrays, words). Nothing here runs except the
// small constants at the end.
//
// Requests carry a numeric `id`; the worker answers each with one reply of the same `type`
// and `id` (`state` for train, pause and stop), or with `{ type: 'error', id, message, parts }`. Messages the worker sends by
// itself while training (progress, projections, state changes) have no `id`.

/**
 * Training parameters, as the form collects them: the core's `params::Params` (src/params/form.rs),
 * field for field and in its order; tests/www/params-typedef.test.js checks these properties
 * against the fields Rust writes into www/training/param-spec.json.
 * @typedef {object} Params
 * @property {'word'|'whitespace'|'bpe'} tokenizer
 * @property {boolean} lowercase  with 'word' only
 * @property {boolean} keepPunctuation  with 'word' only: punctuation marks are tokens
 * @property {number} [bpeVocabSize]  with 'bpe': tokens to learn (alphabet + merges)
 * @property {'cross'|'within'} [bpeMode]  with 'bpe': merges may cross spaces, or stay in words
 * @property {number} dim
 * @property {number} window
 * @property {number} negative
 * @property {number} sample
 * @property {number} minCount
 * @property {number|null} maxVocab
 * @property {number} epochs
 * @property {number} alpha
 * @property {number} minAlpha
 * @property {number} nsExponent
 * @property {number} seed
 * @property {boolean} cbow  CBOW (word2vec.c's default learning rate 0.05) rather than skip-gram
 * @property {boolean} sharedNoise  skip-gram only (false with `cbow`): one draw of noise words per
 *   window, shared by all its context words, instead of one per pair (`TrainConfig::shared_noise`:
 *   about 1.2x faster on one thread, at the same quality)
 * @property {number} threads  training threads, 1 to the worker's `ThreadsInfo.max`; 1 gives bit-identical vectors
 */

/**
 * Where the worker trains (in its `ready` message). `module`: 'threaded' (www/pkg-threads,
 * a pool of up to `max` threads on host workers over shared memory, www/worker/threads.js) or
 * 'single' (www/pkg, `max` 1). `cause` says why it is 'single', as the end of the sentence
 * "Training on 1 thread: …" ("this page is not cross-origin isolated (the server must send
 * the COOP and COEP headers, …)"), and is null for the threaded module.
 * @typedef {{module: 'threaded'|'single', max: number, cause: string|null}} ThreadsInfo
 */

/**
 * Where the text comes from: the built-in sample (the worker generates it), a file (the
 * worker reads it once, in slices), or a text the server holds (the King James Bible),
 * which the worker fetches itself. A File reaches the worker as a fresh copy with each
 * request, so `key` names the opening of a file: requests with the same key read it once.
 * A compressed file (gzip, bzip2, xz, zip) is read as the file inside; `entry` names the
 * file chosen in a zip that holds several.
 * @typedef {{kind: 'sample'} | {kind: 'file', name: string, file: File, key: number, entry?: string}
 *   | {kind: 'url', name: string, url: string}} Source
 */

/**
 * The DTOs, under the page's names (their fields and comments are in src/wasm/dto/).
 * @typedef {import('./pkg/embedscope.js').TextInfo} TextInfo  how a text file was read; `note`
 *   says so when it was not plain UTF-8 (UTF-16, Latin-1, characters replaced)
 * @typedef {import('./pkg/embedscope.js').VectorsInfo} VectorsInfo  what a vectors file held
 * @typedef {import('./pkg/embedscope.js').ModelInfoDto} ModelInfoDto  what a language model's embedding matrix is
 * @typedef {import('./pkg/embedscope.js').TensorDto} TensorDto  a model's 2-D tensor, to choose from
 * @typedef {import('./pkg/embedscope.js').TableColumnsDto} TableColumnsDto  a Parquet table's candidate columns, to choose from
 * @typedef {import('./pkg/embedscope.js').CorpusStats} CorpusStats  what a text gave before training
 * @typedef {import('./pkg/embedscope.js').ProgressDto} Progress  training progress: `loss` is the
 *   running mean of the epoch in progress; `epochLosses` holds one mean per finished epoch
 * @typedef {import('./pkg/embedscope.js').BpeProgressDto} BpeProgress  progress of learning BPE
 *   merges; the merges to learn are `targetVocabSize - alphabetSize`, and learning may end
 *   early, with `done`, when no pair of tokens occurs twice any more
 * @typedef {import('./pkg/embedscope.js').TokenInfoDto} TokenInfo  where a token came from: `rank`
 *   is its frequency rank (0 = most frequent); `merge` the BPE merge that made it (`rank` 0 =
 *   learned first), null for a word tokenizer's word or a character of BPE's alphabet;
 *   `concordance` lines of the text where it occurs, without their line breaks
 * @typedef {import('./pkg/embedscope.js').NeighbourDto} Neighbour  one answer of a neighbour or
 *   analogy query; `rank` is the word's frequency rank
 * @typedef {import('./pkg/embedscope.js').VocabMatchesDto} VocabMatches  how many words of the
 *   vocabulary hold a search's text, and the most frequent of them with their `rank` (0 = most frequent)
 * @typedef {import('./pkg/embedscope.js').MessagePartDto} MessagePart  a piece of the message of
 *   words the vocabulary lacks: text, or (`replaces` not null) a spelling it holds for that word
 * @typedef {import('./pkg/embedscope.js').SectionDto} SectionScore
 * @typedef {import('./pkg/embedscope.js').AnalogyReportDto} AnalogyReport  `worst`: wrongly
 *   answered questions `[a, b, c, expected]`, the expected word's rank largest first
 * @typedef {import('./pkg/embedscope.js').SimilarityReportDto} SimilarityReport
 * @typedef {AnalogyReport|SimilarityReport} EvaluationReport
 * @typedef {import('./pkg/embedscope.js').LayoutProgressDto} LayoutProgress  where a t-SNE or UMAP
 *   map stands: 'neighbours' (the exact cosine k-NN graph), 'affinities' (t-SNE's affinities
 *   or UMAP's memberships), 'start' (a cold start's PCA, the points' first places), then
 *   'layout', the points moving, `iteration` of `iterations` (t-SNE iterations, UMAP
 *   epochs); `done` at the last; `warm` when the run started from the map before it (the
 *   vectors moved on) rather than from a PCA of the words
 * @typedef {import('./pkg/embedscope.js').MatrixBandDto & {values: Float32Array, outputValues?: Float32Array}} MatrixBand  a band of the
 *   matrix of the vectors queried: `rows` rows from `firstRow` (the vocabulary's order) and `cols` columns
 *   from `firstCol`, cut at the matrix's edges; `values` holds them row by row, transferred; `min` and
 *   `max` are the band's extremes (0 for an empty band); `outputValues`, the same cells of the output
 *   (context) matrix, when `output` is 'trained'
 * @typedef {import('./pkg/embedscope.js').WordSamplingDto} WordSampling  what subsampling and the noise
 *   distribution do to a word of the trainer's vocabulary, and the words most often in its window
 * @typedef {import('./pkg/embedscope.js').StepMovesDto} StepMoves  the input rows the step mode's
 *   last updates moved: each word the map shows and its shift on it, times `scale`
 * @typedef {import('./pkg/embedscope.js').ZipfDto} Zipf  the vocabulary's frequency, keep and noise
 *   probabilities at ranks spread on a log scale
 * @typedef {import('./pkg/embedscope.js').HistoryDto} NeighbourHistory  a word's nearest
 *   neighbours at the end of each epoch the worker kept: kept for the `nWords` most frequent
 *   words (1,000), 10 each, at most 64 epochs thinned evenly plus the newest
 */

/**
 * A benchmark: one the project writes for the built-in sample, or a file (`entry` names the
 * file chosen in a zip of several; a compressed file is read as the file inside).
 * @typedef {{kind: 'builtin', name: 'planted-analogies'|'planted-similarity'} | {kind: 'file', file: File, entry?: string}} Benchmark
 */

/**
 * What the map shows (`MapSpecDto` in src/wasm/dto/, whose fields say what each means; every
 * field may be missing, and takes the plainest map's value), with the words of queries the
 * page wants placed in the same frame. With `method` 'tsne' or 'umap', each of
 * `extraWords` is placed at the point of its nearest shown word by cosine (a layout cannot
 * place new words).
 * @typedef {import('./pkg/embedscope.js').MapSpecDto & {extraWords: string[]}} MapSpec
 */

/**
 * A t-SNE or UMAP map's parameters (`LayoutDto` in src/wasm/dto/); every field is optional, and
 * the defaults are the core's (openTSNE's and umap-learn's). Out of range, or too few words
 * for them (t-SNE needs more than 3 × perplexity, UMAP at least `neighbours`), the `project`
 * request fails with the core's message ("expected at least 91 words for perplexity 30").
 * @typedef {import('./pkg/embedscope.js').LayoutDto} LayoutSettings
 */

/**
 * A frame of the map: the metadata Rust sends (`ProjectionDto`, and for a t-SNE or UMAP frame
 * `LayoutFrameDto`'s `method` and `layoutProgress`) with the arrays the worker adds. `coords`
 * is `[x0, y0, x1, y1, …]` for `words`, transferred, not copied; `extraCoords` does the same
 * for `extraWords` (NaN for a word the vocabulary lacks). A frame is aligned to the previous
 * one only when both show the same words on the same axes: two principal axes by rotation or
 * reflection (Procrustes), a principal axis beside a word axis by its sign alone, a word axis
 * never. t-SNE and UMAP frames have `explained` empty, `axisLabels` ['t-SNE 1', 't-SNE 2'] or
 * ['UMAP 1', 'UMAP 2'], `axes` both null, `isolated` false, and are not aligned to the frame
 * before (they move on from it); `layout` is the parameters the map was made with (the
 * timeline records them).
 *
 * The words go with the first frame of each word list only: `wordsId` names the list, and
 * a frame whose list is the last one the worker sent leaves `words` out (the frames of a
 * t-SNE or UMAP run, the PCA frames while training; posting 20,000 words took 20 to 30 ms a
 * frame). The page puts them back as frames arrive, in order (www/map/frame-words.js, `Frame`).
 * `clusters` is the cluster of each of `words` (same order), transferred; null without
 * clusters. Frames while training start from the previous frame's centroids, so a cluster
 * keeps its number.
 * @typedef {import('./pkg/embedscope.js').ProjectionDto & {words?: string[], clusters: Uint16Array|null,
 *   coords: Float32Array, extraWords: string[], extraCoords: Float32Array,
 *   method?: import('./pkg/embedscope.js').LayoutFrameDto['method'], layoutProgress?: LayoutProgress,
 *   layout?: LayoutSettings|null}} Projection
 */

/**
 * A frame as the page holds it: a `ProjectionMessage` with its words put back (frames of one
 * word list share one array).
 * @typedef {ProjectionMessage & {words: string[]}} Frame
 */

/**
 * The training timeline's frames as a bundle holds them (`src/wasm/timeline.rs`): the page
 * sends them with a bundle `export` and gets them back from `openFiles`. `coords` holds every
 * frame's coordinates one after another, 2 per word of its list (`wordLists[words]`).
 * @typedef {object} TimelineData
 * @property {string[][]} wordLists
 * @property {{words: number, epoch: number, epochs: number, tokensDone: number, tokensTotal: number,
 *   mapSpec: TimelineMapSpec, axisLabels: [string, string]}[]} frames
 * @property {Float32Array} coords
 */

/**
 * How a timeline frame was made: `{method: 'pca', nWords, xComponent, yComponent, axes, isolated}`
 * or `{method: 'tsne'|'umap', nWords, layout: LayoutSettings}`.
 * @typedef {{method: 'pca'|'tsne'|'umap', nWords: number, xComponent?: number, yComponent?: number,
 *   axes?: {x: [string, string]|null, y: [string, string]|null}, isolated?: boolean, layout?: LayoutSettings}} TimelineMapSpec
 */

/**
 * Page → worker.
 * @typedef {{type: 'prepare', id: number, source: Source, params: Params}} PrepareRequest
 *   Tokenize, build the vocabulary and a fresh trainer; replies `prepare`.
 * @typedef {{type: 'readText', id: number, source: Source}} ReadTextRequest
 *   Read the text of `source` (a file with `readProgress`) and make it the session's text;
 *   replies `{text: TextInfo}`. A file that is not text is refused, and then the session keeps
 *   what it held (a text, its training, or vectors).
 * @typedef {{type: 'stripMarkup', id: number}} StripMarkupRequest
 *   Keep only the text of the session's text, which `TextInfo.markup` said is XML or HTML, in
 *   its place; replies `{text: TextInfo}`. The page then prepares it as any text.
 * @typedef {{type: 'learnBpe', id: number, source: Source, params: Params}} LearnBpeRequest
 *   Learn BPE merges of the text with `params.bpeVocabSize` and `params.bpeMode`, in chunks
 *   like training, sending `bpeProgress` and reading messages between chunks; `stop`
 *   cancels it. Replies `learnBpe` when learning is done or cancelled. A later `prepare`
 *   with the same text and BPE parameters uses these merges.
 * @typedef {{type: 'train', id: number}} TrainRequest
 *   Start (or resume) the chunked training loop; replies `state`.
 * @typedef {{type: 'pause', id: number}} PauseRequest      replies `state`
 * @typedef {{type: 'stepUpdates', id: number, count: number}} StepUpdatesRequest
 *   The step mode, while paused: the next `count` updates (skip-gram pairs or CBOW windows)
 *   one at a time, on one thread; sends `progress` and a frame, and replies `StepUpdatesDto`
 *   (the last update) with `moves`, the input rows they moved on that frame's map
 *   (`StepMoves`, or null).
 * @typedef {{type: 'stop', id: number}} StopRequest        replies `state`; the vectors stay for queries.
 *   While a vectors file is read, it cancels the read and replies with the state from before it.
 * @typedef {{type: 'project', id: number, mapSpec: MapSpec}} ProjectRequest
 *   Reply `projection` now and remember the map spec for the frames sent while training. A map spec
 *   that fails (an unknown word, named with the others: "'pony' and 'unicorn' are not in the
 *   vocabulary"; too few words; a bad number of clusters) is answered with an `error`, and
 *   the frames keep the last map spec that worked. A new model (`prepare`, `openFiles`) drops
 *   `axes`, `isolate`, `clusters` and `method` from the map spec: the page sends them again for it.
 *   With `method` 'tsne' or 'umap' the reply is the map's first frame, once its graph is built
 *   (about a second at 5,000 words), and the worker goes on stepping it, a slice of about
 *   CHUNK_MS / 2 at a time between training chunks and messages, with a `projection` every
 *   LAYOUT_FRAME_MS until `layoutProgress.done`. While training, fresh vectors (each epoch end,
 *   every PROJECTION_INTERVAL_MS) warm-start the map from where it stands (t-SNE: 250
 *   iterations without exaggeration; UMAP: 100 epochs at learning rate 0.1) rather than start
 *   it over. A `project` with the same method, `nWords` and `layout` as the running map is
 *   answered at once with the map as it stands (its `extraWords` placed) and the map goes on;
 *   any other `project` replaces the map, and a request still waiting for its first frame gets
 *   the SUPERSEDED error.
 * @typedef {{type: 'neighbours', id: number, word: string, k: number}} NeighboursRequest
 * @typedef {{type: 'analogy', id: number, a: string, b: string, c: string, k: number}} AnalogyRequest
 * @typedef {{type: 'complete', id: number, prefix: string, limit: number}} CompleteRequest
 * @typedef {{type: 'findWords', id: number, needle: string, limit: number}} FindWordsRequest
 *   replies `{matches: VocabMatches}`: the vocabulary's words holding `needle` (any case)
 * @typedef {{type: 'neighbourHistory', id: number, word: string, k: number}} NeighbourHistoryRequest
 *   replies `{history: NeighbourHistory|null}` (null for vectors opened from a word2vec, GloVe or Projector file);
 *   fails for a word outside the most frequent kept
 * @typedef {{type: 'tokenInfo', id: number, token: string, maxLines: number}} TokenInfoRequest
 * @typedef {{type: 'matrixBand', id: number, firstRow: number, rows: number, firstCol: number, cols: number}} MatrixBandRequest
 *   replies `matrixBand` with the band of the vectors queried (trained so far, or opened) that these ask
 *   for (0-based), cut at the matrix's edges; fails before there are vectors
 * @typedef {{type: 'matrixRow', id: number, word: string}} MatrixRowRequest
 *   replies `{row: number}`, the word's row in the matrix; fails for a word the vectors lack
 * @typedef {{type: 'wordSampling', id: number, word: string, partners: number}} WordSamplingRequest
 *   replies `{sampling: WordSampling}` with `partners` window partners at most; fails without a trainer
 * @typedef {{type: 'zipf', id: number, points: number}} ZipfRequest
 *   replies `{zipf: Zipf}` with at most `points` ranks; fails without a trainer
 * @typedef {{type: 'density', id: number, coords: Float32Array, columns: number, rows: number, range: number[],
 *   bandwidth: number}} DensityRequest
 *   replies `density` with `values`, the kernel density estimate of the points `coords` at the nodes of a
 *   `columns × rows` grid spanning `range` ([x0, x1, y0, y1]), the kernel `bandwidth` cells wide
 *   (src/plot/density.rs), row by row from the bottom; fails on a grid out of range
 * @typedef {{type: 'openFiles', id: number, files: File[], tensor?: string, columns?: {word: string, vector: string}, maxWords?: number, entry?: string}} OpenFilesRequest
 *   `tensor`: a model's tensor the person chose, when none has a name models give their token embeddings;
 *   `columns`: a Parquet table's columns of words and vectors the person chose, when the table has several;
 *   `maxWords`: the most frequent words of a fastText model to keep (the page's default when absent);
 *   `entry`: the file the person chose in a zip of several (a compressed file is read as the file inside)
 *   Vectors (or a bundle) are read, with `loadProgress`, and replace the session's text and
 *   vectors; anything else is a text: the reply says so and the page prepares it.
 * @typedef {{type: 'evaluate', id: number, benchmark: Benchmark, restrict: number|null, ignoreCase: boolean,
 *   purpose: 'benchmark'|'sanity'}} EvaluateRequest
 *   runs in chunks, with `evalProgress` (carrying `purpose`) between them; `purpose` says whose
 *   it is: the person's evaluation card, or the sanity check after training on the sample
 * @typedef {{type: 'export', id: number, format: 'bundle'|'word2vec'|'word2vecBinary'|'projectorVectors'|'projectorMetadata',
 *   timeline?: TimelineData|null}} ExportRequest
 *   Builds one file of the vectors when asked for. A bundle of vectors trained here holds the
 *   parameters they were trained with (the session keeps them; the form may have changed since),
 *   the page's `timeline` and the neighbours of each epoch the worker kept.
 * @typedef {{type: 'threads', id: number}} ThreadsRequest
 *   Replies `threads`: where training runs now (see ThreadsReply).
 * @typedef {{type: 'testPanic', id: number, inThread?: boolean}} TestPanicRequest
 *   panics inside wasm on purpose, in the worker or (inThread) in a training thread of the
 *   pool; only the browser tests send it, to test recovery
 * @typedef {PrepareRequest|ReadTextRequest|StripMarkupRequest|LearnBpeRequest|TrainRequest|PauseRequest|StepUpdatesRequest|StopRequest|ProjectRequest
 *   |NeighboursRequest|AnalogyRequest|CompleteRequest|FindWordsRequest|NeighbourHistoryRequest|TokenInfoRequest|MatrixBandRequest|DensityRequest|OpenFilesRequest
 *   |MatrixRowRequest|WordSamplingRequest|ZipfRequest|EvaluateRequest|ExportRequest|ThreadsRequest|TestPanicRequest} Request
 */

/**
 * Worker → page.
 * @typedef {'idle'|'learning'|'prepared'|'training'|'paused'|'stopped'|'done'|'loading'|'loaded'} TrainingState
 *   'learning': BPE merges are being learned; `stop` returns to the state before it.
 *   'loading': a vectors file is being read (`stop` cancels); 'loaded': vectors from a file, nothing to train.
 * @typedef {{type: 'ready', version: string, threads: ThreadsInfo}} ReadyMessage  sent once, when the wasm module is loaded
 * @typedef {{type: 'prepare', id: number, stats: CorpusStats, text: TextInfo, params: Params, isSample: boolean,
 *   model: number}} PreparedReply
 *   `model` names the fresh trainer's vectors: the frames of this model carry it
 * @typedef {{type: 'readText'|'stripMarkup', id: number, text: TextInfo}} TextReply
 * @typedef {{type: 'readProgress', bytesDone: number, bytesTotal: number}} ReadProgressMessage
 *   while a text file is read, after each slice
 * @typedef {{type: 'tokenizeProgress', fraction: number}} TokenizeProgressMessage
 *   while a text is tokenized, after each slice
 * @typedef {{type: 'learnBpe', id: number, progress: BpeProgress, done: boolean}} LearnBpeReply
 * @typedef {{type: 'stepUpdates', id: number, moves: StepMoves|null} & import('./pkg/embedscope.js').StepUpdatesDto} StepUpdatesReply
 * @typedef {{type: 'neighbourHistory', id: number, history: NeighbourHistory|null}} NeighbourHistoryReply
 *   `done` false: `stop` cancelled learning at `progress`
 * @typedef {{type: 'bpeProgress', progress: BpeProgress}} BpeProgressMessage
 *   while BPE merges are learned: at the start and after every chunk
 * @typedef {{state: TrainingState, showsVectors: boolean, hasVectors: boolean, mayPrepare: boolean, working: boolean}} SessionReport
 *   what the page is told of the session, worked out in the worker (www/worker/session-state.js) so the
 *   page only mirrors it: `showsVectors`, the session holds a model (a prepared text or opened vectors)
 *   that no text read since replaced; `hasVectors`, that model has vectors to export and evaluate (opened,
 *   or trained a chunk); `mayPrepare`, a text waits to be tokenized again as the form changes (nothing
 *   runs, and no trained model would give way); `working`, training or BPE learning is under way
 * @typedef {{type: 'state', id: number|null} & SessionReport} StateMessage
 *   whenever the report changes, and as the reply to train, pause and stop
 * @typedef {{type: 'progress', progress: Progress, threads: number}} ProgressMessage  at least 4 per second while
 *   training; `threads`: the threads it trains on
 * @typedef {{type: 'threads', id: number, info: ThreadsInfo, poolThreads: number, working: number}} ThreadsReply
 *   `poolThreads`: the threads of the session's pool (rayon's `current_num_threads`, set by the last `prepare`'s
 *   `threads`); `working`: how many distinct threads ran a job sent to every thread of the pool (rayon's broadcast)
 * @typedef {{type: 'projection', id: number|null, model: number} & Projection} ProjectionMessage
 *   at each epoch end, every PROJECTION_INTERVAL_MS within an epoch, and on request (t-SNE and UMAP:
 *   every LAYOUT_FRAME_MS while the map moves, and at its end); `model`
 *   names the model it shows (see PreparedReply), so the page drops a frame of one it replaced
 * `built`: the word is not in the vocabulary, and its vector is built from its character
 * n-grams (a fastText model's); in an analogy, the words that are.
 * @typedef {{type: 'neighbours', id: number, word: string, neighbours: Neighbour[], built: boolean}} NeighboursReply
 * @typedef {{type: 'analogy', id: number, cosAdd: Neighbour[], cosMul: Neighbour[], built: string[]}} AnalogyReply
 * @typedef {{type: 'complete', id: number, prefix: string, words: string[]}} CompleteReply
 * @typedef {{type: 'findWords', id: number, matches: VocabMatches}} FindWordsReply
 * @typedef {{type: 'tokenInfo', id: number, info: TokenInfo}} TokenInfoReply
 * @typedef {{type: 'matrixBand', id: number} & MatrixBand} MatrixBandReply
 * @typedef {{type: 'matrixRow', id: number, row: number}} MatrixRowReply
 * @typedef {{type: 'wordSampling', id: number, sampling: WordSampling}} WordSamplingReply
 * @typedef {{type: 'zipf', id: number, zipf: Zipf}} ZipfReply
 * @typedef {{type: 'density', id: number, values: Float32Array}} DensityReply  its buffer transferred
 * @typedef {{type: 'openFiles', id: number, kind: 'text'} | {type: 'openFiles', id: number, kind: 'vectors',
 *   model: number, info: VectorsInfo & {model?: ModelInfoDto, fastText?: string, fastTextWords?: number}, params?: Params|null, epochLosses?: number[], timeline?: TimelineData|null}
 *   | {type: 'openFiles', id: number, kind: 'chooseTensor', tensors: TensorDto[], file: string}
 *   | {type: 'openFiles', id: number, kind: 'chooseColumns', columns: TableColumnsDto, file: string}
 *   | {type: 'openFiles', id: number, kind: 'chooseEntry', entries: string[], file: string}} OpenFilesReply
 *   `chooseEntry`: a zip holds several files, and the person picks one (`entry`)
 *   `params`, `epochLosses` and `timeline` come from a bundle; `model` as in PreparedReply
 * @typedef {{type: 'loadProgress', bytesDone: number, bytesTotal: number, words: number, rows?: boolean}} LoadProgressMessage
 *   `rows`: a model's matrix is read, and `words` counts its rows (`bytesTotal` the matrix's bytes, not the file's)
 * @typedef {{type: 'evalProgress', purpose: 'benchmark'|'sanity', done: number, total: number}} EvalProgressMessage
 * @typedef {{type: 'evaluate', id: number, report: EvaluationReport}
 *   | {type: 'evaluate', id: number, entries: string[], file: string}} EvaluateReply
 *   `entries`: the benchmark file is a zip of several and names none: the person picks one (`entry`)
 * @typedef {{type: 'export', id: number, bytes: Uint8Array}} ExportReply
 *   the file's bytes, their buffer transferred, not copied
 * @typedef {{type: 'error', id: number|null, message: string, parts?: MessagePart[]|null}} ErrorMessage
 *   a request failed (or training did, with `id` null); the worker goes on. `parts`: for words
 *   the vocabulary lacks, the message in parts with the spellings it holds for them (else null or absent);
 *   the page's `Error` carries them as `parts` too
 * @typedef {{type: 'fatal', message: string}} FatalMessage
 *   the wasm instance trapped (a Rust panic); the page must start a new worker
 * @typedef {ReadyMessage|PreparedReply|TextReply|LearnBpeReply|BpeProgressMessage|StateMessage
 *   |ProgressMessage|ProjectionMessage|NeighboursReply|AnalogyReply|CompleteReply|FindWordsReply
 *   |TokenInfoReply|MatrixBandReply|MatrixRowReply|WordSamplingReply|ZipfReply|DensityReply|OpenFilesReply|ReadProgressMessage|TokenizeProgressMessage|LoadProgressMessage|EvalProgressMessage|EvaluateReply|ExportReply
 *   |ThreadsReply|ErrorMessage|FatalMessage} WorkerMessage
 */

/**
 * Every request type, with its request and its reply: `WorkerClient.request` is typed by it,
 * and so is the worker's handler table (`Handlers`), so tsc fails when a request, its handler
 * and its reply disagree. `posted`: the handler posts the reply itself (a transfer, a state, a
 * frame that comes later) and returns nothing.
 * @typedef {object} Requests
 * @property {{request: PrepareRequest, reply: PreparedReply}} prepare
 * @property {{request: ReadTextRequest, reply: TextReply}} readText
 * @property {{request: StripMarkupRequest, reply: TextReply}} stripMarkup
 * @property {{request: LearnBpeRequest, reply: LearnBpeReply}} learnBpe
 * @property {{request: TrainRequest, reply: StateMessage, posted: true}} train
 * @property {{request: PauseRequest, reply: StateMessage, posted: true}} pause
 * @property {{request: StepUpdatesRequest, reply: StepUpdatesReply}} stepUpdates
 * @property {{request: StopRequest, reply: StateMessage, posted: true}} stop
 * @property {{request: ProjectRequest, reply: ProjectionMessage, posted: true}} project
 * @property {{request: NeighboursRequest, reply: NeighboursReply}} neighbours
 * @property {{request: AnalogyRequest, reply: AnalogyReply}} analogy
 * @property {{request: CompleteRequest, reply: CompleteReply}} complete
 * @property {{request: FindWordsRequest, reply: FindWordsReply}} findWords
 * @property {{request: NeighbourHistoryRequest, reply: NeighbourHistoryReply}} neighbourHistory
 * @property {{request: TokenInfoRequest, reply: TokenInfoReply}} tokenInfo
 * @property {{request: MatrixBandRequest, reply: MatrixBandReply, posted: true}} matrixBand
 * @property {{request: MatrixRowRequest, reply: MatrixRowReply}} matrixRow
 * @property {{request: WordSamplingRequest, reply: WordSamplingReply}} wordSampling
 * @property {{request: ZipfRequest, reply: ZipfReply}} zipf
 * @property {{request: DensityRequest, reply: DensityReply, posted: true}} density
 * @property {{request: OpenFilesRequest, reply: OpenFilesReply}} openFiles
 * @property {{request: EvaluateRequest, reply: EvaluateReply}} evaluate
 * @property {{request: ExportRequest, reply: ExportReply, posted: true}} export
 * @property {{request: ThreadsRequest, reply: ThreadsReply}} threads
 */

/**
 * The requests only the browser tests and the benchmarks send, answered on the dev server only.
 * @typedef {object} TestRequests
 * @property {{request: TestPanicRequest, reply: {type: 'testPanic', id: number}}} testPanic
 * @property {{request: {type: 'layoutSlices', id: number}, reply: {type: 'layoutSlices', id: number, slices: object[]}}} layoutSlices
 *   the turns of the worker's t-SNE and UMAP slices logged since the last call (scripts/bench-layout.mjs)
 * @property {{request: {type: 'memoryForTest', id: number}, reply: {type: 'memoryForTest', id: number, bytes: number}}} memoryForTest
 *   the wasm memory's bytes (scripts/bench-model.mjs)
 */

/**
 * A message without its `type` and `id`: the fields a request is sent with, or a handler returns.
 * @template M
 * @typedef {M extends unknown ? Omit<M, 'type'|'id'> : never} Fields
 */

/**
 * The handler of each request of `R`: it takes the request and returns its reply's fields, or
 * nothing when the reply is `posted`.
 * @template R
 * @typedef {{[T in keyof R]: (request: R[T] extends {request: infer Q} ? Q : never) =>
 *   R[T] extends {posted: true} ? void
 *   : R[T] extends {reply: infer P} ? Fields<P> | Promise<Fields<P>> : never}} HandlersOf
 */

/** @typedef {HandlersOf<Requests>} Handlers  the worker's handler table */
/** @typedef {HandlersOf<TestRequests>} TestHandlers  the dev server's test hooks */
/** @typedef {Requests & TestRequests} AllRequests  what the page may send */

/** The error message of a request that a newer one of its kind replaced (a `prepare` or an `evaluate`); the page ignores it. */
export const SUPERSEDED = 'replaced by a newer request';
/** Bytes of a file read to tell vectors from a text: all that `VectorFormat::SNIFF_LEN` looks at. */
export const SNIFF_BYTES = 65_536;
/** Bytes of a vectors file pushed into the session at a time, with progress between. */
export const LOAD_SLICE_BYTES = 4 << 20;
/** Bytes of a model file read first for its header (`lm::FIRST_READ`); the session asks for more when it needs them. */
export const MODEL_FIRST_READ = 1 << 20;
/** Bytes of a Parquet file's end read first for its footer (`io::parquet::FIRST_TAIL_READ`); the session asks for more when it needs them. */
export const TABLE_FIRST_TAIL_READ = 64 << 10;
/** Tokens per training chunk at first; the worker then sizes chunks to CHUNK_MS. */
export const FIRST_CHUNK_TOKENS = 20_000;
/** BPE merges per learning chunk at first; the worker then sizes chunks to CHUNK_MS too. */
export const FIRST_CHUNK_MERGES = 16;
/** Target time of one chunk: the worker reads its messages between chunks. */
export const CHUNK_MS = 50;
/** A fresh projection at least this often within a long epoch. */
export const PROJECTION_INTERVAL_MS = 700;
/** A t-SNE or UMAP frame at least this often while the map moves: the page glides between them. */
export const LAYOUT_FRAME_MS = 200;
