// The page's copies of constants the core defines (src/plot/scene.rs, src/plot/density.rs),
// against tests/shared/constants.json, which Rust writes from its own (tests/shared_constants.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MAX_GRID } from '../../www/map/density.js';
import { DIMMED, PLAIN } from '../../www/map/palette.js';

const shared = JSON.parse(readFileSync(new URL('../shared/constants.json', import.meta.url), 'utf8'));

test('the map styles and the density grid limit are the core ones', () => {
  assert.deepEqual({ PLAIN, DIMMED }, shared.scene);
  assert.deepEqual({ MAX_GRID }, shared.density);
});
