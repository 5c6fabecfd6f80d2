// @ts-check
// The guided tour's steps: each names one of the page's own elements (by id) that the tour
// outlines and brings into view, and says what it shows and what to do there. In the order
// a person meets them on the built-in sample: train, watch the map and the loss, select a
// word, see its rows in the matrix and what sampling does to it. No DOM: the ids are
// checked against index.html by tests/browser/tour.test.js, which walks the tour.

/** @typedef {{target: string, title: string, text: string}} Step */

/** @type {readonly Step[]} */
export const STEPS = Object.freeze([
  {
    target: 'train',
    title: 'Train on the built-in sample',
    text: 'The page opens on a small text the project writes itself, with planted structure: kings and queens, men and women, '
      + 'countries and capitals. Train learns a vector for each of its words with word2vec (skip-gram with negative sampling). '
      + 'Press it now, and go on with Next while it trains. With another text or vectors open, Train trains that text or '
      + 'is off: press "Use the built-in sample" above it first.',
  },
  {
    target: 'plot',
    title: 'The map',
    text: 'Each dot is a word, placed by the first two principal components of its vector. As training goes on, words '
      + 'that occur in the same company drift together. Click a dot to select its word.',
  },
  {
    target: 'loss-chart',
    title: 'The loss',
    text: 'How wrong the model still is about which words appear together: it falls as the vectors learn the text.',
  },
  {
    target: 'search',
    title: 'A word and its neighbours',
    text: 'Type a word (try king) and press Find: its nearest neighbours by cosine similarity are listed and drawn on the map. '
      + 'A word selected anywhere is selected everywhere: the map, this list, the matrix and the sampling card.',
  },
  {
    target: 'matrix-card',
    title: 'The matrix itself',
    text: 'A token enters as a one-hot vector as wide as the vocabulary; the input matrix turns it into one short dense row, '
      + 'its embedding. Beside it, the output (context) matrix that skip-gram also learns. Colours are values; the selected '
      + 'word\'s row is outlined, and "Row of" finds any word\'s row.',
  },
  {
    target: 'sampling-card',
    title: 'Subsampling and noise',
    text: 'Training drops tokens of the most frequent words at random (subsampling, where the parameter sample is above 0; '
      + 'the built-in sample keeps every token), and sets each pair of words seen together '
      + 'against noise words drawn in proportion to count^0.75. This card shows both for the selected word, and the whole '
      + 'vocabulary on a Zipf chart.',
  },
  {
    target: 'tour-start',
    title: 'That is the tour',
    text: 'Open your own text or vectors with "Open a file…" or by dropping a file on the page. Take the tour again from this button.',
  },
]);
