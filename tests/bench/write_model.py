"""Writes a language model's embedding matrix the size of Llama 3 8B's (128,256 tokens x
4,096 dimensions, BF16, about 1 GB) as a safetensors file, with a tokenizer.json of as many
tokens, for `npm run bench` (scripts/bench-model.mjs). The values are random (seeded); what
is measured is reading and keeping the matrix, not what it means.

Usage: write_model.py DIR   (writes DIR/model.safetensors and DIR/tokenizer.json once)
"""

import json
import os
import sys

import numpy as np
from safetensors.numpy import save_file

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lm"))
from byte_level import bytes_to_unicode  # noqa: E402

ROWS, COLS = 128_256, 4_096
SPECIAL = 256


def main(out):
    os.makedirs(out, exist_ok=True)
    model = os.path.join(out, "model.safetensors")
    if not os.path.exists(model):
        rng = np.random.default_rng(7)
        # BF16 is the top half of an f32; numpy has no bfloat16, so the bits are written as
        # uint16 and the header's dtype says BF16.
        values = (rng.standard_normal((ROWS, COLS), dtype=np.float32) * 0.02).view(np.uint32)
        bits = (values >> 16).astype(np.uint16)
        save_file({"model.embed_tokens.weight": bits}, model + ".tmp")
        patch_dtype(model + ".tmp", "U16", "BF16")
        os.replace(model + ".tmp", model)
    tokenizer = os.path.join(out, "tokenizer.json")
    if not os.path.exists(tokenizer):
        alphabet = bytes_to_unicode()
        vocab = {ch: i for i, ch in enumerate(alphabet)}
        for i in range(len(alphabet), ROWS - SPECIAL):
            vocab[f"Ġtoken{i}"] = i
        added = [
            {"id": ROWS - SPECIAL + k, "content": f"<|reserved_special_token_{k}|>", "special": True}
            for k in range(SPECIAL)
        ]
        spec = {
            "version": "1.0",
            "added_tokens": added,
            "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False},
            "decoder": {"type": "ByteLevel"},
            "model": {"type": "BPE", "vocab": vocab, "merges": []},
        }
        with open(tokenizer, "w", encoding="utf-8") as f:
            json.dump(spec, f, ensure_ascii=False)


def patch_dtype(path, old, new):
    """Rewrites the dtype in a safetensors header in place (same length, padded with spaces)."""
    with open(path, "r+b") as f:
        n = int.from_bytes(f.read(8), "little")
        header = f.read(n).decode()
        patched = header.replace(f'"dtype":"{old}"', f'"dtype":"{new}"')
        patched += " " * (n - len(patched.encode()))
        f.seek(8)
        f.write(patched.encode())


if __name__ == "__main__":
    main(sys.argv[1])
