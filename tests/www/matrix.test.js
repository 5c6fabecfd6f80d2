// Unit tests of the Matrix card's plain modules (www/matrix/band.js, colours.js): which band
// zooming and moving give, what the card says of it, and a value's colour. Known answers,
// worked out by hand; node:test without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_ROWS, cellAt, cellText, compactValue, firstBand, levels, moved, openWays, outputText, parametersText, rangeText, showingRow, sideSteps, sizeText,
  valueText, withinMatrix, zoomed,
} from '../../www/matrix/band.js';
import { cellColour, darkTextOn, paintValues, scaleOf } from '../../www/matrix/colours.js';

const band = (firstRow, rows, firstCol, cols, level = 0) => ({ firstRow, rows, firstCol, cols, level });
const kjv = { totalRows: 8378, dim: 50 };

test('a side steps by doubling from 8 to its size; rows stop at MAX_ROWS', () => {
  assert.deepEqual(sideSteps(50), [8, 16, 32, 50]);
  assert.deepEqual(sideSteps(64), [8, 16, 32, 64]);
  assert.deepEqual(sideSteps(8378, MAX_ROWS), [8, 16, 32, 64, 128, 256]);
  assert.deepEqual(sideSteps(5), [5], 'smaller than the least band: its size alone');
  assert.deepEqual(sideSteps(4096), [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]);
});

test('a matrix opens on its first 32 rows and 64 columns, or fewer where it has fewer', () => {
  assert.deepEqual(firstBand(kjv), band(0, 32, 0, 50));
  assert.deepEqual(firstBand({ totalRows: 128256, dim: 4096 }), band(0, 32, 0, 64));
  assert.deepEqual(firstBand({ totalRows: 3, dim: 2 }), band(0, 3, 0, 2));
});

test('one zoom level for both sides: from 8 × 8 to 256 rows × all columns', () => {
  // Rows 8 … 256 (32 at level 0), columns 8, 16, 32, 50 (50 at level 0).
  assert.deepEqual(levels(kjv), { rows: [8, 16, 32, 64, 128, 256], cols: [8, 16, 32, 50], rowBase: 2, colBase: 3, lo: -3, hi: 3 });
  // 4,096 dimensions: columns go on doubling after the rows have stopped, to all 4,096.
  const llama = levels({ totalRows: 128256, dim: 4096 });
  assert.deepEqual([llama.lo, llama.hi, llama.cols[llama.colBase + llama.hi]], [-3, 6, 4096]);
});

test('zooming steps both sides and keeps the anchor cell in place; out and in again comes back', () => {
  const start = band(100, 32, 0, 50);
  // In about the middle: 16 rows centred where 32 were (100 + 0.5 × 16), 32 columns from 0 + 0.5 × 18 = 9.
  assert.deepEqual(zoomed(start, kjv, -1), band(108, 16, 9, 32, -1));
  // Anchored at the top left cell: the band shrinks towards it.
  assert.deepEqual(zoomed(start, kjv, -1, { row: 0, col: 0 }), band(100, 16, 0, 32, -1));
  // Out from the middle: 64 rows, all 50 columns.
  assert.deepEqual(zoomed(start, kjv, 1), band(84, 64, 0, 50, 1));
  const corner = { row: 0, col: 0 };
  assert.deepEqual(zoomed(zoomed(start, kjv, 1, corner), kjv, -1, corner), start, 'columns held at 50 come back with the rows');
  assert.deepEqual(zoomed(zoomed(start, kjv, -1, corner), kjv, 1, corner), start);
  // At the ends of the levels nothing changes.
  assert.deepEqual(zoomed(band(0, 8, 0, 8, -3), kjv, -1), band(0, 8, 0, 8, -3));
  assert.deepEqual(zoomed(band(0, 256, 0, 50, 3), kjv, 1), band(0, 256, 0, 50, 3));
  // Near the last row the band stays within the matrix.
  assert.deepEqual(zoomed(band(8346, 32, 0, 50), kjv, 1, { row: 1, col: 0 }), band(8314, 64, 0, 50, 1));
  assert.deepEqual(zoomed(band(8370, 8, 0, 8, -3), kjv, 1, corner), band(8370, 8, 0, 16, -2), "the rows wait at 8 for the columns");
});

test('moving stops at the edges; a band is brought within a smaller matrix', () => {
  assert.deepEqual(moved(band(0, 32, 0, 50), kjv, 16, 0), band(16, 32, 0, 50));
  assert.deepEqual(moved(band(10, 32, 0, 50), kjv, -16, 5), band(0, 32, 0, 50));
  assert.deepEqual(moved(band(8000, 32, 0, 32, -1), kjv, 1000, 100), band(8362, 16, 18, 32, -1));
  assert.deepEqual(moved(band(500, 32, 10, 16, -2), kjv, -Infinity, -Infinity), band(0, 8, 0, 16, -2), 'Home');
  assert.deepEqual(withinMatrix(band(300, 64, 40, 64, 1), { totalRows: 183, dim: 50 }), band(119, 64, 0, 50, 1));
  assert.deepEqual(withinMatrix(band(0, 32, 0, 50, 9), kjv), band(0, 256, 0, 50, 3), 'at most the last level');
});

test('the ways still open: at the first rows, neither up nor left; all columns shown, neither left nor right', () => {
  assert.deepEqual(openWays(band(0, 32, 0, 50), kjv), { zoomIn: true, zoomOut: true, up: false, down: true, left: false, right: false });
  assert.deepEqual(openWays(band(8370, 8, 42, 8, -3), kjv), { zoomIn: false, zoomOut: true, up: true, down: false, left: true, right: false });
  assert.deepEqual(openWays(band(0, 5, 0, 3), { totalRows: 5, dim: 3 }),
    { zoomIn: false, zoomOut: false, up: false, down: false, left: false, right: false });
});

test('the card says the matrix size, the range shown and a value in words', () => {
  assert.equal(sizeText(kjv), '8,378 tokens × 50 dimensions = 418,900 numbers');
  assert.equal(sizeText({ totalRows: 1, dim: 1 }), '1 token × 1 dimension = 1 number');
  assert.equal(rangeText(band(0, 40, 0, 50), kjv), 'rows 1–40 of 8,378 · dimensions 1–50 of 50');
  assert.equal(rangeText(band(1999, 1, 7, 1), kjv), 'rows 2,000 of 8,378 · dimensions 8 of 50');
  assert.equal(rangeText(band(0, 0, 0, 0), { totalRows: 0, dim: 0 }), 'rows none of 0 · dimensions none of 0');
  assert.equal(valueText(-0.123456), '−0.1235');
  assert.equal(valueText(2), '2.000');
  assert.equal(compactValue(-0.0123), '−0.012');
  assert.equal(compactValue(0.5), '0.50');
  assert.deepEqual([0.29, -0.664, 0.0172, -0.003].map((v) => cellText(v, 1.2)), ['0.29', '−0.66', '0.02', '0.00']);
  assert.deepEqual([-0.0123, 0.05].map((v) => cellText(v, 0.05)), ['−0.012', '0.050']);
  assert.deepEqual([3.46, -12].map((v) => cellText(v, 12)), ['3.5', '−12.0']);
  assert.equal(cellText(-3.4, 150), '−3');
});

test('the cell under the pointer: a row and column, or the row label left of the cells', () => {
  // Cells from (60, 15), 200 × 100 px, for 10 rows × 4 columns: 50 × 10 px each.
  const layout = { x0: 60, y0: 15, width: 200, height: 100 };
  const shape = { rows: 10, cols: 4 };
  assert.deepEqual(cellAt(layout, shape, 60, 15), { row: 0, col: 0, matrix: 'input' });
  assert.deepEqual(cellAt(layout, shape, 159.9, 34.9), { row: 1, col: 1, matrix: 'input' });
  assert.deepEqual(cellAt(layout, shape, 259, 114), { row: 9, col: 3, matrix: 'input' });
  assert.deepEqual(cellAt(layout, shape, 10, 40), { row: 2, col: 'label', matrix: 'input' });
  assert.equal(cellAt(layout, shape, 100, 10), null, 'the dimensions above');
  assert.equal(cellAt(layout, shape, 100, 115), null, 'below');
  assert.equal(cellAt(layout, shape, 260, 50), null, 'right');
  // The output matrix beside it, from x1 = 280 (a gap of 20 px), as wide.
  const both = { ...layout, x1: 280 };
  assert.equal(cellAt(both, shape, 270, 50), null, 'between the two matrices');
  assert.deepEqual(cellAt(both, shape, 280, 15), { row: 0, col: 0, matrix: 'output' });
  assert.deepEqual(cellAt(both, shape, 479, 114), { row: 9, col: 3, matrix: 'output' });
  assert.equal(cellAt(both, shape, 480, 50), null, 'right of the output matrix');
});

test('the parameters and the compression: one matrix opened, two trained', () => {
  assert.equal(parametersText(kjv, 'trained'),
    'One-hot 8,378 wide → dense 50 wide: 168 times narrower. Parameters: 418,900 in the input matrix + 418,900 in the output matrix = 837,800.');
  assert.equal(parametersText(kjv, 'opened'), 'One-hot 8,378 wide → dense 50 wide: 168 times narrower. Parameters: 418,900.');
  assert.equal(parametersText({ totalRows: 30, dim: 16 }, 'model'), 'One-hot 30 wide → dense 16 wide: 1.9 times narrower. Parameters: 480.');
  assert.match(outputText('trained'), /output \(context\) matrix/);
  assert.match(outputText('opened'), /input matrix only/);
  assert.match(outputText('model'), /not read/);
});

test('a row found is shown where the band shows it, else centred within the matrix', () => {
  const at = band(100, 32, 0, 50);
  assert.deepEqual(showingRow(at, kjv, 100), at, 'the first row shown: the band stays');
  assert.deepEqual(showingRow(at, kjv, 131), at, 'the last row shown');
  assert.deepEqual(showingRow(at, kjv, 500), band(484, 32, 0, 50));
  assert.deepEqual(showingRow(at, kjv, 3), band(0, 32, 0, 50), 'near the start: from row 0');
  assert.deepEqual(showingRow(at, kjv, 8377), band(8346, 32, 0, 50), 'the last row: the band ends with it');
});

const palette = { negative: [0, 0, 200], zero: [250, 250, 250], positive: [200, 0, 0] };

test('a value is coloured from zero (neutral) to the sign colour by its size against the scale', () => {
  assert.deepEqual(cellColour(0, 2, palette), [250, 250, 250]);
  assert.deepEqual(cellColour(1, 2, palette), [225, 125, 125], 'half way to red');
  assert.deepEqual(cellColour(-1, 2, palette), [125, 125, 225], 'half way to blue');
  assert.deepEqual(cellColour(-2, 2, palette), [0, 0, 200]);
  assert.deepEqual(cellColour(7, 2, palette), [200, 0, 0], 'beyond the scale: the full colour');
  assert.deepEqual(cellColour(Number.NaN, 2, palette), [250, 250, 250], 'not a number: neutral');
  const rgba = new Uint8ClampedArray(8);
  paintValues(new Float32Array([0.5, -2]), 2, palette, rgba);
  assert.deepEqual([...rgba], [238, 188, 188, 255, 0, 0, 200, 255]);
  // Through its table, painting gives each value cellColour's colour to within a unit.
  const values = new Float32Array(1000).map((_, i) => Math.sin(i * 12.9898) * 2.5);
  const painted = new Uint8ClampedArray(4 * values.length);
  paintValues(values, 2, palette, painted);
  for (const [i, value] of values.entries()) {
    for (const [c, channel] of cellColour(value, 2, palette).entries()) {
      assert.ok(Math.abs(painted[4 * i + c] - channel) <= 1, `value ${value}, channel ${c}: ${painted[4 * i + c]} vs ${channel}`);
    }
  }
});

test('the scale is the magnitude 99 % of the values lie within, so outliers do not wash the rest out', () => {
  // 1,000 values: 990 of them ±1, and 10 outliers at ±50; the 99th percentile magnitude is 1,
  // found to within a bin of 50 / 2048.
  const values = new Float32Array(1000).map((_, i) => (i < 10 ? 50 : 1) * (i % 2 ? -1 : 1));
  const scale = scaleOf(values);
  assert.ok(scale >= 1 && scale <= 1 + 50 / 2048, `scale ${scale}`);
  assert.equal(scaleOf(values, 1), 50, 'all values: the largest magnitude');
  assert.equal(scaleOf(new Float32Array([0, 0])), 1, 'all zeros: any scale, all neutral');
  assert.equal(scaleOf(new Float32Array([-3])), 3);
});

test('text on a cell is dark on pale colours and light on deep ones', () => {
  assert.equal(darkTextOn([247, 247, 247]), true);
  assert.equal(darkTextOn([33, 102, 172]), false);
  assert.equal(darkTextOn([178, 24, 43]), false);
  assert.equal(darkTextOn([37, 45, 57]), false);
});
