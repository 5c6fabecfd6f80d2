// Prints the wasm-opt --enable-… flags for the features a wasm module was compiled with.
// Usage: node scripts/wasm-opt-features.mjs module.wasm
//
// rustc (through wasm-ld) records them in the module's `target_features` custom section:
// a count, then per feature a prefix byte ("+" used, "-" disallowed, "=" required) and a
// length-prefixed name. wasm-bindgen keeps the section.
import { readFileSync } from 'node:fs';

// Binaryen spells three features differently from LLVM.
const BINARYEN_NAME = {
  // The threaded module (shared memory, atomic instructions).
  atomics: 'threads',
  simd128: 'simd',
  'nontrapping-fptoint': 'nontrapping-float-to-int',
};

const [path] = process.argv.slice(2);
const module = new WebAssembly.Module(readFileSync(path));
const [section] = WebAssembly.Module.customSections(module, 'target_features');
if (!section) {
  console.error(`${path} has no target_features section; was it built by rustc?`);
  process.exit(1);
}

const bytes = new Uint8Array(section);
let offset = 0;
function readUleb128() {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[offset++];
    value |= (byte & 0x7f) << shift;
    if (byte < 0x80) return value;
  }
}

const flags = [];
for (let n = readUleb128(); n > 0; n--) {
  const prefix = String.fromCharCode(bytes[offset++]);
  const length = readUleb128();
  const name = new TextDecoder().decode(bytes.subarray(offset, offset + length));
  offset += length;
  if (prefix !== '-') flags.push(`--enable-${BINARYEN_NAME[name] ?? name}`);
}
console.log(flags.join(' '));
