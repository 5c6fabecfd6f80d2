// The page's `Params` typedef (www/protocol.js) against the fields of the core's
// `params::Params`, which Rust writes with their TypeScript types into param-spec.json: a
// field added, renamed or retyped on one side alone fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import spec from '../../www/training/param-spec.json' with { type: 'json' };

const protocol = readFileSync(new URL('../../www/protocol.js', import.meta.url), 'utf8');

/** The `@property` lines of the typedef `name` as `[field, type]`, in order (`[field]`: optional). */
function properties(name) {
  const block = protocol.match(new RegExp(`@typedef \\{object\\} ${name}\\n([\\s\\S]*?)\\*/`));
  assert.ok(block, `www/protocol.js has no typedef ${name}`);
  return [...block[1].matchAll(/@property \{([^}]*)\} \[?(\w+)\]?/g)].map(([, type, field]) => [field, type]);
}

test('the Params typedef lists the core fields, in their order and with their types', () => {
  assert.ok(Object.keys(spec.fields).length >= 19);
  assert.deepEqual(properties('Params'), Object.entries(spec.fields));
});
