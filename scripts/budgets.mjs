// The house's budgets, checked by `npm test` so the code cannot slip past them unnoticed:
// every `.rs` under src/ and `.js` under www/ (not the generated www/pkg*) holds at most 600
// lines before its tests, every function at most 100 lines, src/wasm/ at most 2,500 lines
// before its files' tests, ARCHITECTURE.md at most 400 lines.
//
// A file's size is its physical lines before its tests, as `wc -l` counts the part of the
// file before them: blank lines and comment lines count like any other, so a file cannot
// slip past its budget on comments. A Rust file's *tests* are what follows its first
// `#[cfg(test)] mod NAME {` at the start of a line; a file that a `#[cfg(test)] mod NAME;`
// declares (with everything under its folder) is tests throughout. A function's length is
// its lines from the one that names it to its closing brace, all counted (its doc comment
// and attributes not): a Rust `fn` with a body, a JS `function`, method or arrow function
// with a braced body. Functions inside a file's tests are held to the budget too.
// ARCHITECTURE.md counts every line.
//
// The scan strips comments and blanks out string, character, template and regex literals,
// then matches braces; that is exact for Rust and right for JS written as this tree writes
// it (a `/` after `)`, `]`, `}`, a name or a number is division, else a regex).
//
// Usage: node scripts/budgets.mjs [--report] [--root DIR] [--ceiling KIND=N ...]
//   --report: print, but exit 0; --root: check the tree at DIR (default: this project);
//   --ceiling: a budget of KIND (file, function, wasm, architecture) exceeded by a size of at
//   most N is said but does not fail, so one not met yet cannot grow meanwhile.
// Prints one line per budget exceeded (what, its size, the budget, why the budget exists),
// then "N budgets exceeded"; exits 1 if N > 0 unless --report.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BUDGETS = {
  file: {
    limit: 600,
    why: 'a file past 600 lines before its tests holds more than one concept: split it by concept so the tree says where a change goes',
  },
  function: {
    limit: 100,
    why: 'a function past 100 lines does several things a reader must hold at once: name them as functions',
  },
  wasm: {
    limit: 2500,
    why: 'the wasm boundary only adapts types; code there has no native tests, so policy belongs in the core',
  },
  architecture: {
    limit: 400,
    why: 'a newcomer reads ARCHITECTURE.md in one sitting: past 400 lines it narrates instead of mapping',
  },
};

/** Replaces `text[from..to)` in `out` by `fill` (newlines kept, so lines stay lines). */
function blank(out, text, from, to, fill) {
  for (let i = from; i < to; i++) out[i] = text[i] === '\n' ? '\n' : fill;
}

const RUST_CHAR = /'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|.)|[^\\'\n])'/uy;
const RUST_RAW = /r(#*)"/y;

/**
 * Rust source with comments turned into spaces and the insides of string and character
 * literals into `s`; the same length and lines as `text`.
 */
export function maskRust(text) {
  const out = text.split('');
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      blank(out, text, i, stop, ' ');
      i = stop;
    } else if (c === '/' && next === '*') {
      // Rust's block comments nest.
      let depth = 0;
      let j = i;
      do {
        if (text.startsWith('/*', j)) {
          depth++;
          j += 2;
        } else if (text.startsWith('*/', j)) {
          depth--;
          j += 2;
        } else j++;
      } while (depth > 0 && j < text.length);
      blank(out, text, i, j, ' ');
      i = j;
    } else if (c === 'r' && (!/\w/.test(text[i - 1] ?? '') || text[i - 1] === 'b')) {
      RUST_RAW.lastIndex = i;
      const raw = RUST_RAW.exec(text);
      if (raw) {
        const close = `"${raw[1]}`;
        const end = text.indexOf(close, RUST_RAW.lastIndex);
        const stop = end < 0 ? text.length : end;
        blank(out, text, RUST_RAW.lastIndex, stop, 's');
        i = stop + close.length;
      } else i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      blank(out, text, i + 1, j, 's');
      i = j + 1;
    } else if (c === "'") {
      // A character literal, or else a lifetime or a loop label (`'a`), which is code.
      RUST_CHAR.lastIndex = i;
      if (RUST_CHAR.exec(text)) {
        blank(out, text, i + 1, RUST_CHAR.lastIndex - 1, 's');
        i = RUST_CHAR.lastIndex;
      } else i++;
    } else i++;
  }
  return out.join('');
}

// After these words a `/` starts a regex, not a division.
const JS_KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

/**
 * JavaScript source with comments turned into spaces and the insides of string, template and
 * regex literals into `s` (a template's `${...}` stays code); the same length and lines.
 */
export function maskJs(text) {
  const out = text.split('');
  // Brace depths at which a template literal's `${` was opened, innermost last.
  const templates = [];
  let depth = 0;
  // The last character of code seen, and the word it ended, to tell a regex from a division.
  let last = '';
  let lastWord = '';
  let i = 0;
  const template = (from) => {
    // Scans a template literal's text from `from` to its closing backtick or a `${`.
    let j = from;
    while (j < text.length && text[j] !== '`' && !text.startsWith('${', j)) j += text[j] === '\\' ? 2 : 1;
    blank(out, text, from, j, 's');
    if (text[j] === '`') return j + 1;
    templates.push(depth);
    depth++;
    return j + 2;
  };
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      blank(out, text, i, stop, ' ');
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(out, text, i, stop, ' ');
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      blank(out, text, i + 1, j, 's');
      i = j + 1;
      last = c;
    } else if (c === '`') {
      i = template(i + 1);
      last = '`';
    } else if (c === '/') {
      const division = /[\w$)\]}]/.test(last) && !JS_KEYWORDS_BEFORE_EXPRESSION.has(lastWord);
      if (division) {
        i++;
        last = '/';
      } else {
        let j = i + 1;
        let inClass = false;
        while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
          if (text[j] === '\\') j++;
          else if (text[j] === '[') inClass = true;
          else if (text[j] === ']') inClass = false;
          j++;
        }
        blank(out, text, i + 1, j, 's');
        i = j + 1;
        last = '/';
        lastWord = '';
        // Flags are a word, but the regex is a value: a `/` after it divides.
        while (/[a-z]/.test(text[i] ?? '')) i++;
        last = ')';
      }
    } else {
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (templates.length && templates[templates.length - 1] === depth) {
          templates.pop();
          i = template(i + 1);
          last = '`';
          continue;
        }
      }
      if (/[\w$]/.test(c)) {
        const word = /[\w$]+/y;
        word.lastIndex = i;
        lastWord = word.exec(text)[0];
        i += lastWord.length;
        last = 'w';
        continue;
      }
      if (!/\s/.test(c)) {
        last = c;
        lastWord = '';
      }
      i++;
    }
  }
  return out.join('');
}

/**
 * The number of physical lines from line `from` up to line `to`, blank and comment lines
 * included; the empty piece after a final newline is not a line (as for `wc -l`).
 */
function codeLines(lines, from = 0, to = lines.length) {
  const end = to === lines.length && lines[to - 1] === '' ? to - 1 : to;
  return Math.max(0, end - from);
}

/** The 0-based line of offset `at`. */
function lineOf(starts, at) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

/** The offset of the `}` that closes the `{` at `open` in masked text (or the end). */
function closing(masked, open) {
  let depth = 0;
  for (let i = open; i < masked.length; i++) {
    if (masked[i] === '{') depth++;
    else if (masked[i] === '}' && --depth === 0) return i;
  }
  return masked.length - 1;
}

/**
 * The offset of the `{` that opens the body of the item whose head starts at `from`, or -1
 * if the head ends with `;` first (a declaration without a body).
 */
function bodyOpen(masked, from) {
  let parens = 0;
  for (let i = from; i < masked.length; i++) {
    const c = masked[i];
    if (c === '(' || c === '[') parens++;
    else if (c === ')' || c === ']') parens--;
    else if (parens === 0 && c === '{') return i;
    else if (parens === 0 && c === ';') return -1;
  }
  return -1;
}

const RUST_TESTS = /^#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{/m;
const RUST_TEST_FILE = /^\s*#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/gm;

/** The names of the modules `source` declares as `#[cfg(test)] mod NAME;` (files of tests). */
export function rustTestModules(source) {
  return [...maskRust(source).matchAll(RUST_TEST_FILE)].map((m) => m[1]);
}

/**
 * A Rust file's size: `code`, its lines before its tests, and `functions`, each
 * `{ name, line, length }` (1-based line of its head).
 */
export function measureRust(source, { tests = false } = {}) {
  const masked = maskRust(source);
  const lines = masked.split('\n');
  const starts = lineStarts(masked);
  const cut = tests ? 0 : (masked.match(RUST_TESTS)?.index ?? masked.length);
  const code = codeLines(lines, 0, lineOf(starts, cut) + (cut === masked.length ? 1 : 0));
  // Impl and trait blocks, to name a method by its type.
  const blocks = [];
  for (const m of masked.matchAll(/\b(impl|trait)\b/g)) {
    const open = bodyOpen(masked, m.index);
    if (open < 0) continue;
    const head = masked.slice(m.index + m[0].length, open);
    let type;
    if (m[1] === 'trait') type = head.match(/\w+/)?.[0];
    else {
      const subject = head.replace(/^\s*<[^{]*?>(?=\s*[\w&(])/, '').split(/\bfor\b/).pop();
      type = subject.replace(/\bwhere\b[\s\S]*/, '').match(/([A-Za-z_]\w*)\s*(?:<[\s\S]*)?$/)?.[1];
    }
    if (type) blocks.push({ type, open, close: closing(masked, open) });
  }
  const functions = [];
  for (const m of masked.matchAll(/\bfn\s+([A-Za-z_]\w*)/g)) {
    const open = bodyOpen(masked, m.index + m[0].length);
    if (open < 0) continue;
    const close = closing(masked, open);
    const owner = blocks.filter((b) => b.open < m.index && m.index < b.close).pop();
    const line = lineOf(starts, m.index);
    functions.push({
      name: owner ? `${owner.type}::${m[1]}` : m[1],
      line: line + 1,
      length: lineOf(starts, close) - line + 1,
    });
  }
  return { code, functions };
}

// Words that precede a parenthesis and a brace without making a function.
const JS_NOT_METHODS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'function']);

/** The name an arrow function or function expression starting at `at` is given, if any. */
function jsAssignedName(masked, at) {
  const before = masked.slice(Math.max(0, at - 200), at);
  const m = before.match(/([\w$]+)\s*(?:=|:)\s*(?:async\s*)?(?:function\s*\*?\s*)?$/);
  return m?.[1];
}

/** A JavaScript file's size: `code`, its lines, and its `functions` (see measureRust). */
export function measureJs(source) {
  const masked = maskJs(source);
  const lines = masked.split('\n');
  const starts = lineStarts(masked);
  const code = codeLines(lines);
  const classes = [];
  for (const m of masked.matchAll(/\bclass\s+([\w$]+)[^{]*\{/g)) {
    const open = m.index + m[0].length - 1;
    classes.push({ name: m[1], open, close: closing(masked, open) });
  }
  const functions = [];
  for (let open = masked.indexOf('{'); open >= 0; open = masked.indexOf('{', open + 1)) {
    let j = open - 1;
    while (j >= 0 && /\s/.test(masked[j])) j--;
    let head;
    let name;
    if (masked[j] === '>' && masked[j - 1] === '=') {
      // An arrow function: its head is its parameters (a name, or a parenthesised list).
      let k = j - 2;
      while (k >= 0 && /\s/.test(masked[k])) k--;
      if (masked[k] === ')') {
        let depth = 0;
        for (; k >= 0; k--) {
          if (masked[k] === ')') depth++;
          else if (masked[k] === '(' && --depth === 0) break;
        }
      } else while (k > 0 && /[\w$]/.test(masked[k - 1])) k--;
      const async = masked.slice(0, k).match(/async\s*$/);
      head = async ? async.index : k;
      name = jsAssignedName(masked, head) ?? '(arrow function)';
    } else if (masked[j] === ')') {
      let depth = 0;
      let k = j;
      for (; k >= 0; k--) {
        if (masked[k] === ')') depth++;
        else if (masked[k] === '(' && --depth === 0) break;
      }
      let w = k - 1;
      while (w >= 0 && /\s/.test(masked[w])) w--;
      const word = masked.slice(0, w + 1).match(/[\w$]+$/)?.[0];
      const keyword = masked.slice(0, w + 1).match(/\bfunction\s*\*?\s*(?:[\w$]+\s*)?$/);
      if (keyword) {
        head = keyword.index;
        name = word && word !== 'function' ? word : (jsAssignedName(masked, head) ?? '(function)');
      } else if (word && !JS_NOT_METHODS.has(word)) {
        // A method: `name(...) {` is not a call in JS, so it can only define one.
        head = w + 1 - word.length;
        const owner = classes.filter((c) => c.open < open && open < c.close).pop();
        name = owner ? `${owner.name}.${word}` : word;
      }
    }
    if (head === undefined) continue;
    const close = closing(masked, open);
    const line = lineOf(starts, head);
    functions.push({ name, line: line + 1, length: lineOf(starts, close) - line + 1 });
  }
  return { code, functions };
}

/** Every file under `dir` whose name ends with `ext`, skipping the folders in `skip`. */
function walk(dir, ext, skip = new Set()) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.has(path)) found.push(...walk(path, ext, skip));
    } else if (entry.name.endsWith(ext)) found.push(path);
  }
  return found.sort();
}

/** The files and folders that `#[cfg(test)] mod NAME;` in `file` declares. */
function testModulePaths(file, source) {
  const stem = basename(file, '.rs');
  const dir = ['mod', 'lib', 'main'].includes(stem) ? dirname(file) : join(dirname(file), stem);
  return rustTestModules(source).flatMap((name) => [join(dir, `${name}.rs`), join(dir, name) + sep]);
}

/**
 * Every budget `root`'s tree exceeds, each `{ what, size, limit, why }` with `what` naming
 * the file (and function) relative to `root`.
 */
export function check(root) {
  const over = [];
  const add = (kind, what, size) => {
    const { limit, why } = BUDGETS[kind];
    if (size > limit) over.push({ kind, what, size, limit, why });
  };
  const rust = walk(join(root, 'src'), '.rs');
  const sources = new Map(rust.map((file) => [file, readFileSync(file, 'utf8')]));
  const testPaths = [...sources].flatMap(([file, source]) => testModulePaths(file, source));
  const isTests = (file) => testPaths.some((p) => (p.endsWith(sep) ? file.startsWith(p) : file === p));
  let wasm = 0;
  const measured = [
    ...rust.map((file) => [file, measureRust(sources.get(file), { tests: isTests(file) })]),
    ...walk(join(root, 'www'), '.js', new Set(['pkg', 'pkg-threads'].map((d) => join(root, 'www', d)))).map(
      (file) => [file, measureJs(readFileSync(file, 'utf8'))],
    ),
  ];
  for (const [file, { code, functions }] of measured) {
    const name = relative(root, file).split(sep).join('/');
    add('file', `${name}: ${code} lines before its tests`, code);
    if (name.startsWith('src/wasm/')) wasm += code;
    for (const f of functions) add('function', `${name}:${f.line} ${f.name}: ${f.length} lines`, f.length);
  }
  add('wasm', `src/wasm/: ${wasm} lines before its tests`, wasm);
  const architecture = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8').replace(/\n$/, '').split('\n').length;
  add('architecture', `ARCHITECTURE.md: ${architecture} lines`, architecture);
  return over;
}

/** The line printed for a budget exceeded. */
export function describe({ what, limit, why }) {
  return `${what}, budget ${limit}: ${why}`;
}

/**
 * `over` split by `ceilings` (kind to a size): a budget exceeded but within its kind's ceiling
 * is `held` (said, not failed), so a budget still being met cannot slip further meanwhile.
 */
export function hold(over, ceilings) {
  const held = over.filter((o) => o.size <= (ceilings[o.kind] ?? -1));
  return { failed: over.filter((o) => !held.includes(o)), held };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? process.argv[at + 1] : join(dirname(fileURLToPath(import.meta.url)), '..');
  const ceilings = Object.fromEntries(
    process.argv.flatMap((arg, i) => (process.argv[i - 1] === '--ceiling' ? [arg.split('=')] : [])).map(([kind, n]) => [kind, Number(n)]),
  );
  const { failed, held } = hold(check(root), ceilings);
  for (const o of failed) console.log(describe(o));
  for (const o of held) console.log(`${describe(o)} (held under its ceiling of ${ceilings[o.kind]} until it is met)`);
  console.log(`${failed.length} budget${failed.length === 1 ? '' : 's'} exceeded${held.length ? `, ${held.length} over but held under a ceiling` : ''}`);
  if (failed.length > 0 && !process.argv.includes('--report')) process.exit(1);
}
