// Unit tests of the budget check (scripts/budgets.mjs) on small fixture sources and trees:
// that a file's size is its physical lines before its tests, where a file's tests begin, how long a function is, and that
// braces inside strings, characters, regexes and comments are not taken for code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, maskJs, maskRust, measureJs, measureRust, rustTestModules } from '../../scripts/budgets.mjs';

const script = join(dirname(fileURLToPath(import.meta.url)), '../../scripts/budgets.mjs');

/**
 * A Rust file of `n` lines before its tests (code, blanks and comments, each counted), then
 * its tests.
 */
const rustFile = (n) => {
  const pad = ['//! A module.', '', '/* a block', '   comment */'];
  const lines = pad.slice(0, n);
  for (let i = lines.length; i < n; i++) lines.push(i % 3 === 0 ? `const C${i}: u32 = ${i}; // trailing` : i % 3 === 1 ? '' : '/// doc');
  lines.push('#[cfg(test)]', 'mod tests {');
  for (let i = 0; i < 50; i++) lines.push(`    const T${i}: u32 = ${i};`);
  lines.push('}');
  return lines.join('\n');
};

/** A Rust function of `n` lines from its head to its closing brace. */
const rustFn = (name, n) => [`pub fn ${name}() {`, ...Array.from({ length: n - 2 }, () => '    x += 1;'), '}'].join('\n');

/** A JS function of `n` lines from its head to its closing brace. */
const jsFn = (head, n) => [`${head} {`, ...Array.from({ length: n - 2 }, () => '  x += 1;'), '}'].join('\n');

test("every line before a file's tests counts, blank and comment lines too; its tests do not", () => {
  assert.equal(measureRust(rustFile(600)).code, 600);
  assert.equal(measureRust(rustFile(601)).code, 601);
  assert.equal(measureRust(rustFile(3), { tests: true }).code, 0, 'a file of tests throughout');
  const nested = 'fn a() {}\n/* outer /* inner */\nstill comment */\nfn b() {}\n';
  assert.equal(measureRust(nested).code, 4, 'comment lines count; the final newline ends a line');
  assert.equal(measureRust('fn a() {}').code, 1, 'a last line without a newline counts');
  assert.equal(measureJs('const a = 1;\n\n// note\n/* x\n y */ const b = 2;\n').code, 5);
  assert.equal(measureRust('let s = "\n  }\n";\n').code, 3, 'lines inside a string count');
  const code = Array.from({ length: 500 }, (_, i) => `const C${i}: u32 = ${i};`);
  const commented = [...code, ...Array.from({ length: 101 }, () => '// why'), '#[cfg(test)]', 'mod tests {}'].join('\n');
  assert.equal(measureRust(commented).code, 601, 'comments push a file of 500 lines of code over');
});

test('files of 600 and 601 lines before their tests, one over on comments, and a function of 101 lines', () => {
  const root = mkdtempSync(join(tmpdir(), 'budgets-'));
  try {
    mkdirSync(join(root, 'src/wasm'), { recursive: true });
    mkdirSync(join(root, 'src/big'), { recursive: true });
    mkdirSync(join(root, 'www/pkg'), { recursive: true });
    writeFileSync(join(root, 'src/under.rs'), rustFile(600));
    writeFileSync(join(root, 'src/over.rs'), rustFile(601));
    // 400 lines of code and 201 of comments: over on its comments.
    const wordy = [...Array.from({ length: 400 }, (_, i) => `const W${i}: u32 = ${i};`), ...Array.from({ length: 201 }, () => '/// why')];
    writeFileSync(join(root, 'src/wordy.rs'), `${wordy.join('\n')}\n`);
    writeFileSync(join(root, 'src/fns.rs'), `${rustFn('fits', 100)}\nimpl Thing {\n${rustFn('long', 101)}\n}\n`);
    // Declared as tests by its parent, so none of its 700 lines count.
    writeFileSync(join(root, 'src/big.rs'), '#[cfg(test)]\nmod tests;\n');
    writeFileSync(join(root, 'src/big/tests.rs'), rustFile(700));
    writeFileSync(join(root, 'src/wasm/mod.rs'), rustFile(500));
    writeFileSync(join(root, 'www/view.js'), `${jsFn('function fits()', 100)}\n${jsFn('const long = () =>', 101)}\n`);
    writeFileSync(join(root, 'www/pkg/glue.js'), rustFile(700).replaceAll('//!', '//'));
    writeFileSync(join(root, 'ARCHITECTURE.md'), 'line\n'.repeat(400));
    const what = () => check(root).map((o) => o.what);
    assert.deepEqual(what(), ['src/fns.rs:102 Thing::long: 101 lines', 'src/over.rs: 601 lines before its tests', 'src/wordy.rs: 601 lines before its tests', 'www/view.js:101 long: 101 lines']);
    writeFileSync(join(root, 'src/wasm/more.rs'), rustFile(2001));
    writeFileSync(join(root, 'ARCHITECTURE.md'), 'line\n'.repeat(401));
    const over = check(root);
    assert.ok(what().includes('src/wasm/: 2501 lines before its tests'), 'src/wasm/ as a whole');
    assert.ok(what().includes('ARCHITECTURE.md: 401 lines'));
    assert.ok(over.every((o) => o.why.length > 20), 'each says why its budget exists');

    const run = (...args) => spawnSync(process.execPath, [script, '--root', root, ...args], { encoding: 'utf8' });
    const failed = run();
    assert.equal(failed.status, 1);
    assert.match(failed.stdout, /src\/over\.rs: 601 lines before its tests, budget 600: /);
    assert.match(failed.stdout, /^7 budgets exceeded$/m);
    assert.equal(run('--report').status, 0, '--report prints but passes');
    const ceiling = run('--ceiling', 'wasm=2501', '--ceiling', 'architecture=400');
    assert.equal(ceiling.status, 1, 'the other budgets still fail');
    assert.match(ceiling.stdout, /src\/wasm\/: 2501 lines before its tests, budget 2500: .* \(held under its ceiling of 2501 until it is met\)$/m);
    assert.match(ceiling.stdout, /^6 budgets exceeded, 1 over but held under a ceiling$/m, 'a ceiling below the size holds nothing');
    writeFileSync(join(root, 'src/wasm/more.rs'), rustFile(2002));
    assert.match(run('--ceiling', 'wasm=2501').stdout, /^7 budgets exceeded$/m, 'past its ceiling it fails again');
    for (const f of ['over.rs', 'wordy.rs', 'fns.rs', 'wasm/more.rs']) rmSync(join(root, 'src', f));
    writeFileSync(join(root, 'www/view.js'), jsFn('function fits()', 100));
    writeFileSync(join(root, 'ARCHITECTURE.md'), 'line\n'.repeat(400));
    const passed = run();
    assert.equal(passed.status, 0, passed.stdout);
    assert.match(passed.stdout, /^0 budgets exceeded$/m);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('braces in Rust strings, raw strings, characters and comments are not code; lifetimes are', () => {
  const source = [
    "fn f<'a>(s: &'a str) -> char {",
    '    let a = "{ \\" {";',
    '    let b = r#"}} " }"#;',
    "    let c = '{';",
    "    let d = '\\'';",
    "    let e = b'}';",
    '    // }',
    '    /* } */',
    "    'outer: loop { break 'outer; }",
    "    '}'",
    '}',
    'fn g() {}',
  ].join('\n');
  const masked = maskRust(source);
  assert.equal(masked.length, source.length);
  assert.equal([...masked].filter((c) => c === '{').length, 3);
  assert.equal([...masked].filter((c) => c === '}').length, 3);
  assert.deepEqual(measureRust(source).functions, [
    { name: 'f', line: 1, length: 11 },
    { name: 'g', line: 12, length: 1 },
  ]);
  assert.deepEqual(rustTestModules('#[cfg(test)]\nmod tests;\n// #[cfg(test)] mod not;\nmod other;\n'), ['tests']);
});

test("braces in JS strings, templates, regexes and comments are not code; a template's placeholder is", () => {
  const source = [
    'export class View {',
    '  draw(a) {',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture is JavaScript source text.
    "    const s = '{' + \"}\" + `{${a.map((x) => { return x; })}}`;",
    '    const r = /[}/]{2}\\//g.test(s) ? a / 2 / 3 : 0;',
    '    if (r) {',
    '      return s; // }',
    '    }',
    '    /* { */',
    '  }',
    '}',
    'function later() {',
    '  return /}/;',
    '}',
  ].join('\n');
  const masked = maskJs(source);
  assert.equal(masked.length, source.length);
  assert.equal([...masked].filter((c) => c === '{').length, 6);
  assert.equal([...masked].filter((c) => c === '}').length, 6);
  assert.deepEqual(
    measureJs(source).functions.map((f) => [f.name, f.line, f.length]),
    [
      ['View.draw', 2, 8],
      ['(arrow function)', 3, 1],
      ['later', 11, 3],
    ],
  );
});
