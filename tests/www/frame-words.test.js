// Unit tests of the page's end of the frames' word lists (www/map/frame-words.js): the worker
// sends a list's words with its first frame only, and each frame gets its list's words back,
// shared by the frames of that list, in the timeline's store and the glide alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameWords } from '../../www/map/frame-words.js';
import { FrameStore } from '../../www/timeline/frames.js';
import { Glide } from '../../www/map/glide.js';

/** A frame as the worker posts it: `words` only with the first frame of list `wordsId`. */
const message = (n, wordsId, words = null) => ({
  type: 'projection', id: null, model: 1, n, wordsId, ...(words ? { words } : {}),
  coords: new Float32Array(2 * (words?.length ?? 3)).fill(n),
});

test('frames that name the last list get its words, one array for all of them', () => {
  const frameWords = new FrameWords();
  const first = frameWords.attach(message(0, 1, ['a', 'b', 'c']));
  const later = [1, 2, 3].map((n) => frameWords.attach(message(n, 1)));
  assert.deepEqual(first.words, ['a', 'b', 'c']);
  for (const frame of later) assert.equal(frame.words, first.words, 'the same array');
  assert.deepEqual(later.map((f) => f.n), [1, 2, 3]);
});

test('other words come with their frame, and the lists before them stay with their frames', () => {
  const frameWords = new FrameWords();
  const store = new FrameStore(8);
  const sequence = [
    message(0, 1, ['a', 'b', 'c']), message(1, 1),
    message(2, 2, ['c', 'a']), message(3, 2),
    // The worker sends a list again once another came in between, with a new number.
    message(4, 3, ['a', 'b', 'c']), message(5, 3),
  ];
  for (const m of sequence) store.push(frameWords.attach(m));
  const frames = store.all();
  assert.deepEqual(frames.map((f) => f.words.join('')), ['abc', 'abc', 'ca', 'ca', 'abc', 'abc']);
  assert.equal(frames[0].words, frames[1].words);
  assert.equal(frames[2].words, frames[3].words);
  assert.notEqual(frames[1].words, frames[2].words);
  // Replayed in order, a glide matches words across the lists: `a` glides from where it was.
  const glide = new Glide();
  glide.set(frames[1].words, frames[1].coords, 0, { instant: true });
  glide.set(frames[2].words, new Float32Array([7, 7, 9, 9]), 0);
  assert.deepEqual([...glide.at(0)], [1, 1, 1, 1], 'c and a start from their places in the frame before');
});

test('a frame of a list never received is not drawn', () => {
  const frameWords = new FrameWords();
  assert.equal(frameWords.attach(message(0, 4)), null, 'no list yet');
  frameWords.attach(message(1, 5, ['a']));
  assert.equal(frameWords.attach(message(2, 4)), null, 'an older list');
});

test('a restarted worker numbers its lists afresh, and sends the first with its words', () => {
  const frameWords = new FrameWords();
  frameWords.attach(message(0, 1, ['old', 'words']));
  frameWords.attach(message(1, 1));
  // The fresh worker's list 1 is other words.
  const fresh = frameWords.attach(message(2, 1, ['new']));
  assert.deepEqual(fresh.words, ['new']);
  assert.deepEqual(frameWords.attach(message(3, 1)).words, ['new']);
});
