// Unit tests of the page's token display (www/shared/tokens.js) that need no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { displayToken, markToken, parseTypedToken, WHITESPACE_SIGNS } from '../../www/shared/tokens.js';

const text = (pieces) => pieces.map((p) => (p.marked ? `[${p.text}]` : p.text)).join('');

test('markToken marks every occurrence in a short line, and a line-ending token at the end only', () => {
  assert.equal(text(markToken('the king and the king', 'king')), 'the [king] and the [king]');
  assert.equal(text(markToken('he said', 'said\n')), 'he [said¶]');
  assert.equal(text(markToken('said he', 'said\n')), 'said he');
});

test('markToken cuts a long line around the first occurrence before marking (a 50 MB line once overflowed the stack)', () => {
  const line = 'river stone '.repeat(500_000);
  const pieces = markToken(line, 'stone');
  assert.ok(pieces.length < 100, `${pieces.length} pieces`);
  assert.ok(pieces.some((p) => p.marked));
  assert.equal(pieces.at(-1).text, '…');
  const shown = text(pieces);
  assert.ok(shown.startsWith('river [stone]'), shown.slice(0, 40));
  const deep = `${'a'.repeat(10_000)} needle ${'b'.repeat(10_000)}`;
  const cut = text(markToken(deep, 'needle'));
  assert.ok(cut.startsWith('…') && cut.endsWith('…') && cut.includes('[needle]'), cut);
  assert.ok(cut.length < 260, `${cut.length} characters`);
});

test('each whitespace character shows as its sign and reads back from it', () => {
  assert.equal(displayToken('a b\n\tc\r'), 'a·b¶→c←');
  assert.equal(parseTypedToken('a·b¶→c←'), 'a b\n\tc\r');
});

test('whitespace typed at the ends is dropped, or kept when asked for, unless it is all there is', () => {
  assert.equal(parseTypedToken(' king '), 'king');
  assert.equal(parseTypedToken(' king', { keepEnds: true }), ' king');
  assert.equal(parseTypedToken('·king¶', { keepEnds: true }), ' king\n');
  assert.equal(parseTypedToken('   ', { keepEnds: true }), '');
  assert.equal(parseTypedToken('·', { keepEnds: true }), ' ');
});

test("the signs stand for the whitespace the core counts in tokens (TOKEN_WHITESPACE in src/text/mod.rs)", async () => {
  const source = await readFile(new URL('../../src/text/mod.rs', import.meta.url), 'utf8');
  const list = source.match(/pub const TOKEN_WHITESPACE: \[char; \d+\] = \[([^\]]*)\];/)[1];
  const escapes = { n: '\n', t: '\t', r: '\r' };
  const characters = [...list.matchAll(/'(\\?.)'/g)].map(([, c]) => (c.length === 2 ? escapes[c[1]] : c));
  assert.deepEqual(characters, WHITESPACE_SIGNS.map(([character]) => character));
});
