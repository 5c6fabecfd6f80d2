"""Writes the GGUF files that tests/lm_gguf.rs reads, with llama.cpp's own `gguf` package.

Usage:
    python tests/lm/write_gguf.py OUTDIR
    EMBEDSCOPE_LM_FIXTURES=OUTDIR cargo test --release --test lm_gguf -- --ignored

For each element type embedscope reads, OUTDIR/<type>.gguf holds a 320 × 256
`token_embd.weight` in that type, a decoy `output.weight` of the same shape and type
(other numbers, so picking it gives the wrong rows), and a small gpt2-style tokenizer in
the metadata (`tokenizer.ggml.model`, `tokens`, `token_type`, `merges`); OUTDIR/<type>.f32
holds the rows `gguf.quants.dequantize` makes of the stored bytes (float32,
little-endian), the reference embedscope must match bit for bit.

F32, F16, BF16 and the 32-value types are `gguf.quants.quantize` of a random float32
matrix. gguf-py has no quantizer for the K-quants, so their blocks are random bytes with
each block's f16 scale (and minimum) set to a small positive number: every bit pattern of
the packed scales and values occurs, which tests the layouts harder than a quantizer would.

Files embedscope must refuse: `token_embd.weight` in IQ4_NL and in Q8_1 (random blocks),
and the Q4_K file cut short. OUTDIR/manifest.json lists the files, the tokens, the
refusals with a part of each message, and ggml's type table (ids, names, block sizes).
"""

import json
import sys
from pathlib import Path

import numpy as np
from gguf import GGMLQuantizationType as T
from gguf import GGUFWriter, TokenType, quants
from gguf.constants import GGML_QUANT_SIZES

from byte_level import bytes_to_unicode

ROWS, DIM = 320, 256

READ = [T.F32, T.F16, T.BF16, T.Q8_0, T.Q4_0, T.Q4_1, T.Q5_0, T.Q5_1, T.Q2_K, T.Q3_K, T.Q4_K, T.Q5_K, T.Q6_K]

# Byte offsets of each K-quant block's f16 scale and minimum (ggml-common.h's block_q*_K).
SCALE_AT = {T.Q2_K: [80, 82], T.Q3_K: [108], T.Q4_K: [0, 2], T.Q5_K: [0, 2], T.Q6_K: [208]}


def tokenizer():
    """A gpt2-style vocabulary: the 256 byte tokens, a few merges, an end-of-text token."""
    tokens = bytes_to_unicode()
    merges = [
        ("Ġ", "t"), ("h", "e"), ("Ġt", "he"), ("Ġ", "a"), ("n", "d"), ("Ġa", "nd"), ("Ġ", "k"),
        ("i", "n"), ("Ġk", "in"), ("Ġkin", "g"), ("Ġ", "m"), ("a", "n"), ("Ġm", "an"), ("Ġ", "w"),
        ("o", "m"), ("Ġw", "om"), ("Ġwom", "an"), ("Ġ", "q"), ("u", "e"), ("Ġq", "ue"), ("e", "n"),
        ("Ġque", "en"), ("Ċ", "Ċ"), ("Ġ", "L"), ("O", "R"), ("Ġ", "LORD"), ("L", "ORD"),
    ]
    for a, b in merges:
        if a + b not in tokens:
            tokens.append(a + b)
    tokens.append("<|endoftext|>")
    types = [TokenType.NORMAL] * (len(tokens) - 1) + [TokenType.CONTROL]
    return tokens, types, [f"{a} {b}" for a, b in merges]


def stored_bytes(qtype, matrix, rng):
    """The bytes of `matrix` in `qtype`, as a (rows, row bytes) uint8 array."""
    values, size = GGML_QUANT_SIZES[qtype]
    if qtype in SCALE_AT or qtype in (T.IQ4_NL, T.Q8_1):
        blocks = rng.integers(0, 256, size=(ROWS * DIM // values, size), dtype=np.uint8)
        for at in SCALE_AT.get(qtype, [0]):
            scales = rng.uniform(1e-3, 1e-2, size=len(blocks)).astype(np.float16)
            blocks[:, at : at + 2] = scales.view(np.uint8).reshape(-1, 2)
        return blocks.reshape(ROWS, -1)
    return np.ascontiguousarray(quants.quantize(matrix, qtype)).view(np.uint8).reshape(ROWS, -1)


def write(path, qtype, embd, decoy, tokens, types, merges):
    writer = GGUFWriter(str(path), "llama")
    writer.add_name(f"embedscope fixture {qtype.name}")
    writer.add_tokenizer_model("gpt2")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)
    writer.add_tensor("token_embd.weight", embd, raw_dtype=qtype)
    writer.add_tensor("output.weight", decoy, raw_dtype=qtype)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def main(outdir):
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(27)
    tokens, types, merges = tokenizer()
    manifest = {"rows": ROWS, "dim": DIM, "tokens": tokens, "files": [], "refusals": []}

    for qtype in READ:
        matrix = (rng.standard_normal((ROWS, DIM)) * 0.05).astype(np.float32)
        decoy = (rng.standard_normal((ROWS, DIM)) * 3.0).astype(np.float32)
        embd = stored_bytes(qtype, matrix, rng)
        name = qtype.name.lower()
        write(out / f"{name}.gguf", qtype, embd, stored_bytes(qtype, decoy, rng), tokens, types, merges)
        expected = quants.dequantize(embd, qtype).astype("<f4", copy=False)
        assert expected.shape == (ROWS, DIM), expected.shape
        expected.tofile(out / f"{name}.f32")
        manifest["files"].append({"file": f"{name}.gguf", "type": qtype.name, "expected": f"{name}.f32"})

    for qtype in (T.IQ4_NL, T.Q8_1):
        name = f"unsupported_{qtype.name.lower()}.gguf"
        embd = stored_bytes(qtype, None, rng)
        write(out / name, qtype, embd, embd, tokens, types, merges)
        manifest["refusals"].append({"file": name, "message": f"holds {qtype.name} values, which embedscope does not read"})

    whole = (out / "q4_k.gguf").read_bytes()
    (out / "cut_short.gguf").write_bytes(whole[: len(whole) - 1000])
    manifest["refusals"].append({"file": "cut_short.gguf", "message": "the GGUF file is cut short: the tensor 'output.weight'"})

    manifest["ggml_types"] = [[int(t), t.name, *GGML_QUANT_SIZES[t]] for t in T]
    (out / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"wrote {len(manifest['files'])} GGUF files and {len(manifest['refusals'])} refusals to {out}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
