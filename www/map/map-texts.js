// @ts-check
// What the map says in words: the layouts' names, the axis titles of a PCA frame, how a
// layout was made, where a layout stands, and the caption and legend line of the moves.
import { integer } from '../shared/format.js';

/** The layouts' names as the page shows them. */
export const METHOD_NAMES = { tsne: 't-SNE', umap: 'UMAP' };

/**
 * How a t-SNE or UMAP frame was made, for the exports: "t-SNE: perplexity 30; learning
 * rate auto; …" (`l` the layout's settings); null for PCA and word axes, whose axis titles
 * say it all.
 */
export function methodDescription(frame, l) {
  if (!l || !METHOD_NAMES[frame.method]) return null;
  const auto = (v) => (v == null ? 'auto' : String(v));
  const parts = frame.method === 'tsne'
    ? [`perplexity ${l.perplexity}`, `learning rate ${auto(l.learningRate)}`, `${l.iterations} iterations`, `early exaggeration ${l.exaggeration}`]
    : [`${l.neighbours} neighbours`, `minimum distance ${l.minDist}`, `epochs ${auto(l.epochs)}`];
  return `${METHOD_NAMES[frame.method]}: ${[...parts, `seed ${l.seed}`].join('; ')}`;
}

/** The axis titles of a PCA frame (a worker that names its axes sends `axisLabels`). */
export function componentNames(frame) {
  const name = (i) => (frame.explained[i] == null
    ? `PC${i + 1}: none (the vectors have ${plural(frame.explained.length, 'dimension')})`
    : `PC${i + 1} (${(100 * frame.explained[i]).toFixed(1)} % of variance)`);
  return [name(frame.xComponent), name(frame.yComponent)];
}

/**
 * The line over the map while moves are drawn: what the arrows are and their scale.
 * @param {import('../protocol.js').StepMoves} moves
 */
export function moveCaption(moves) {
  const updates = moves.updates === 1 ? 'the last update' : `the last ${integer.format(moves.updates)} updates`;
  const how = moves.estimated ? ' (estimated from neighbours)' : '';
  const scale = moves.scale === 1 ? ' (to scale)' : ` ${scaleText(moves.scale)}`;
  return `Arrows${scale}: context words moved by ${updates}${how}`;
}

/** "×200", or "to scale" for moves large enough to see as they are. @param {number} scale */
const scaleText = (scale) => (scale === 1 ? 'to scale' : `×${integer.format(scale)}`);

/** The legend's line for the moves. @param {import('../protocol.js').StepMoves} moves */
export function moveLegend(moves) {
  const off = moves.offMap ? `; ${plural(moves.offMap, 'moved word')} not on the map` : '';
  return `a context word's input row moved by the step mode, drawn ${scaleText(moves.scale)}, long ones cut short${off}`;
}

/** "1 word", "2 words". */
export const plural = (n, noun) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;

/** The line under the map on a t-SNE or UMAP frame: where its layout stands. */
export function layoutProgressText(frame) {
  const p = frame.layoutProgress;
  const name = METHOD_NAMES[frame.method];
  if (!p || !name) return '';
  if (p.phase === 'neighbours') return `${name}: finding each word's neighbours…`;
  if (p.phase === 'affinities') return `${name}: weighing the neighbours…`;
  if (p.phase === 'start') return `${name}: placing the words by PCA to start from…`;
  if (p.done) return `${name}: done after ${p.iterations.toLocaleString('en')} ${frame.method === 'umap' ? 'epochs' : 'iterations'}.`;
  return `${name}: ${frame.method === 'umap' ? 'epoch' : 'iteration'} ${p.iteration.toLocaleString('en')} of ${p.iterations.toLocaleString('en')}`;
}
