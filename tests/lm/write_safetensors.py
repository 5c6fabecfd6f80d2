"""Writes the reference files of tests/lm_safetensors.rs with the writers people use.

    .tools/venv/bin/python tests/lm/write_safetensors.py OUTDIR

Tokenizers by Hugging Face's `tokenizers` (a byte-level BPE trained on the KJV, as GPT-2's;
a SentencePiece-style Unigram with byte fallback, as Llama 2's), matrices by `safetensors`
(numpy's `save_file`; BF16, which numpy lacks, through the package's own torch-free
serializer from numpy's uint16 bits). OUTDIR/manifest.json says what each file holds: the
expected rows are written beside it as little-endian float32 (`*.f32`), the stored values as
numpy reads them, and each tokenizer's raw and decoded token by id.
"""

import json
import os
import re
import sys
import unicodedata

import numpy as np
from safetensors import _safetensors_rust as st_rust
from safetensors.numpy import save_file
from tokenizers import ByteLevelBPETokenizer, Tokenizer, decoders, models, pre_tokenizers, trainers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KJV = os.path.join(ROOT, "data", "kjv.txt")
DIM = 64


def bf16_bits(values):
    """float32 to bfloat16 bits, rounded to nearest even (as torch and ml_dtypes do)."""
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def bf16_values(bits):
    """The float32 a bfloat16 holds."""
    return (bits.astype(np.uint32) << 16).view(np.float32)


def save_bf16(tensors, path, metadata=None):
    """A file of BF16 tensors ({name: uint16 bits}) written by safetensors' serializer."""
    specs = {
        name: st_rust.TensorSpec(dtype="bfloat16", shape=list(bits.shape), data_ptr=bits.ctypes.data, data_len=bits.nbytes)
        for name, bits in tensors.items()
    }
    data = bytes(st_rust.serialize(specs, metadata))
    with open(path, "wb") as out:
        out.write(data)


def train_byte_level(outdir):
    """GPT-2's kind of tokenizer, trained on the KJV."""
    tokenizer = ByteLevelBPETokenizer()
    tokenizer.train(
        [KJV], vocab_size=3000, min_frequency=2, special_tokens=["<|endoftext|>", "<|pad|>"], show_progress=False
    )
    tokenizer.add_tokens(["LORD God"])
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, "tokenizer.json")
    tokenizer.save(path)
    return Tokenizer.from_file(path)


def train_sentencepiece(outdir):
    """Llama 2's kind: a Unigram over ▁-spaced words with the 256 byte tokens (<0x0A>) after
    the specials, byte fallback, and Llama's decoder."""
    tokenizer = Tokenizer(models.Unigram())
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    trainer = trainers.UnigramTrainer(
        vocab_size=2000, special_tokens=["<unk>", "<s>", "</s>"], unk_token="<unk>", show_progress=False
    )
    tokenizer.train([KJV], trainer)
    spec = json.loads(tokenizer.to_str())
    vocab = spec["model"]["vocab"]
    specials, rest = vocab[:3], [piece for piece in vocab[3:] if not piece[0].startswith("<0x")]
    spec["model"]["vocab"] = specials + [[f"<0x{b:02X}>", 0.0] for b in range(256)] + rest
    spec["model"]["unk_id"] = 0
    spec["model"]["byte_fallback"] = True
    spec["decoder"] = {
        "type": "Sequence",
        "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"},
            {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0},
        ],
    }
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, "tokenizer.json")
    with open(path, "w", encoding="utf-8") as out:
        json.dump(spec, out, ensure_ascii=False)
    tokenizer = Tokenizer.from_file(path)
    # Byte fallback works: a character the vocabulary lacks becomes its bytes.
    assert any(t.startswith("<0x") for t in tokenizer.encode("☃").tokens), tokenizer.encode("☃").tokens
    return tokenizer


def describe(tokenizer, kind):
    """Each token's raw form and what Python's decoder makes of it alone, the special ids."""
    n = tokenizer.get_vocab_size(with_added_tokens=True)
    raw = [tokenizer.id_to_token(i) for i in range(n)]
    if kind == "byte-level":
        decoded = [tokenizer.decode([i], skip_special_tokens=False) for i in range(n)]
    else:
        # The decoder drops the first token's leading space; a plain piece before each token
        # keeps it.
        anchor = "a"
        assert anchor in tokenizer.get_vocab()
        decoded = [tokenizer.decoder.decode([anchor, t])[len(anchor):] for t in raw]
    added = tokenizer.get_added_tokens_decoder()
    special = sorted(i for i, token in added.items() if token.special)
    spec = json.loads(tokenizer.to_str())
    merges = spec["model"].get("merges") or []
    vocab = spec["model"]["vocab"] if isinstance(spec["model"]["vocab"], dict) else None
    rank = {}
    if vocab is not None:
        for r, merge in enumerate(merges):
            a, b = merge.split(" ", 1) if isinstance(merge, str) else merge
            rank.setdefault(vocab[a + b], r)
    # Bytes that are no text of their own come after the text's tokens: a byte-level base
    # token (no merge makes it) that Python decodes to U+FFFD or to a control character other
    # than whitespace, a SentencePiece byte-fallback token.
    def no_text(i):
        if kind != "byte-level":
            return re.fullmatch(r"<0x[0-9A-Fa-f]{2}>", raw[i])
        return decoded[i] == "\ufffd" or (len(decoded[i]) == 1 and unicodedata.category(decoded[i]) == "Cc" and decoded[i] not in " \n\t\r")

    off = set(special)
    partial = sorted(i for i in range(n) if i not in off and i not in rank and no_text(i))
    late = off | set(partial)
    base = [i for i in range(n) if i not in late and i not in rank]
    merged = sorted((i for i in range(n) if i not in late and i in rank), key=lambda i: (rank[i], i))
    order = base + merged + partial + sorted(off)
    return {"tokens": n, "raw": raw, "decoded": decoded, "special": special, "order": order}


def write_expected(outdir, name, values):
    path = os.path.join(outdir, name + ".f32")
    np.ascontiguousarray(values, dtype="<f4").tofile(path)
    return name + ".f32"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: write_safetensors.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(2027)

    gpt2_tok = train_byte_level(os.path.join(out, "gpt2"))
    llama_tok = train_sentencepiece(os.path.join(out, "llama"))
    tokenizers = {
        "gpt2/tokenizer.json": dict(describe(gpt2_tok, "byte-level"), scheme="byte-level BPE"),
        "llama/tokenizer.json": dict(describe(llama_tok, "sentencepiece"), scheme="SentencePiece"),
    }
    gpt2_n = tokenizers["gpt2/tokenizer.json"]["tokens"]
    llama_n = tokenizers["llama/tokenizer.json"]["tokens"]
    # GPT-2's matrix rounds its vocabulary up to a multiple of 64, as many models do.
    gpt2_rows = -(-gpt2_n // 64) * 64
    assert gpt2_rows > gpt2_n

    def matrix(rows, scale=0.02):
        values = rng.standard_normal((rows, DIM)).astype(np.float32) * np.float32(scale)
        values[0, :4] = [0.0, -0.0, 1e-30, 65504.0]  # a zero, a subnormal in F32, F16's largest
        return values

    files = []

    def model(path, tensor, dtype, expected, tokenizer, rows):
        files.append(
            {"path": path, "tensor": tensor, "dtype": dtype, "rows": rows, "cols": DIM, "tokenizer": tokenizer,
             "expected": write_expected(out, path.replace("/", "_"), expected)}
        )

    wte = matrix(gpt2_rows)
    others = {"lm_head.weight": matrix(gpt2_rows), "transformer.h.0.mlp.c_fc.weight": matrix(DIM, 1.0)[:, :48].T.copy()}
    os.makedirs(os.path.join(out, "gpt2"), exist_ok=True)
    save_file({"transformer.wte.weight": wte, **others}, os.path.join(out, "gpt2/f32.safetensors"), {"format": "np"})
    model("gpt2/f32.safetensors", "transformer.wte.weight", "F32", wte, "gpt2/tokenizer.json", gpt2_rows)

    half = wte.astype(np.float16)
    save_file(
        {"transformer.wte.weight": half, **{k: v.astype(np.float16) for k, v in others.items()}},
        os.path.join(out, "gpt2/f16.safetensors"),
    )
    model("gpt2/f16.safetensors", "transformer.wte.weight", "F16", half.astype(np.float32), "gpt2/tokenizer.json", gpt2_rows)

    bits = bf16_bits(wte)
    save_bf16({"transformer.wte.weight": bits, **{k: bf16_bits(v) for k, v in others.items()}},
              os.path.join(out, "gpt2/bf16.safetensors"), {"format": "pt"})
    model("gpt2/bf16.safetensors", "transformer.wte.weight", "BF16", bf16_values(bits), "gpt2/tokenizer.json", gpt2_rows)

    # Llama's names, the matrix the tokenizer's size exactly.
    embed = matrix(llama_n)
    save_file(
        {"model.embed_tokens.weight": embed, "lm_head.weight": matrix(llama_n), "model.norm.weight": np.ones(DIM, np.float32)},
        os.path.join(out, "llama/f32.safetensors"),
    )
    model("llama/f32.safetensors", "model.embed_tokens.weight", "F32", embed, "llama/tokenizer.json", llama_n)

    # A sharded model: the embedding, in BF16, in the second shard.
    shard_dir = os.path.join(out, "sharded")
    os.makedirs(shard_dir, exist_ok=True)
    first = {"lm_head.weight": bf16_bits(matrix(llama_n)), "model.layers.0.mlp.up_proj.weight": bf16_bits(matrix(DIM))}
    second = {"model.embed_tokens.weight": bf16_bits(embed), "model.norm.weight": bf16_bits(np.ones(DIM, np.float32))}
    names = ["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"]
    save_bf16(first, os.path.join(shard_dir, names[0]))
    save_bf16(second, os.path.join(shard_dir, names[1]))
    weight_map = {**{k: names[0] for k in first}, **{k: names[1] for k in second}}
    with open(os.path.join(shard_dir, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": 0}, "weight_map": weight_map}, f, indent=2)
    sharded = {
        "index": "sharded/model.safetensors.index.json",
        "shard": "sharded/" + names[1],
        "tensor": "model.embed_tokens.weight",
        "dtype": "BF16",
        "rows": llama_n,
        "cols": DIM,
        "tokenizer": "llama/tokenizer.json",
        "expected": write_expected(out, "sharded", bf16_values(bf16_bits(embed))),
    }

    # Refusals: an I8 embedding, a file cut short, a header that lies.
    bad = os.path.join(out, "bad")
    os.makedirs(bad, exist_ok=True)
    save_file(
        {"model.embed_tokens.weight": rng.integers(-128, 127, (llama_n, DIM), dtype=np.int8)},
        os.path.join(bad, "i8.safetensors"),
    )
    with open(os.path.join(out, "gpt2/f32.safetensors"), "rb") as f:
        whole = f.read()
    with open(os.path.join(bad, "cut.safetensors"), "wb") as f:
        f.write(whole[: len(whole) - 1000])
    n = int.from_bytes(whole[:8], "little")
    header = json.loads(whole[8 : 8 + n])
    # The first tensor, in the order of the data, that the cut file lacks bytes of.
    cut_end, cut_name = min(
        (8 + n + info["data_offsets"][1], name)
        for name, info in header.items()
        if name != "__metadata__" and 8 + n + info["data_offsets"][1] > len(whole) - 1000
    )
    header["transformer.wte.weight"]["shape"] = [gpt2_rows, DIM + 1]
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(bad, "lies.safetensors"), "wb") as f:
        f.write(len(text).to_bytes(8, "little") + text + whole[8 + n :])
    refusals = [
        {"path": "bad/i8.safetensors", "message": "the tensor 'model.embed_tokens.weight' holds I8 values"},
        {"path": "bad/cut.safetensors",
         "message": f"the file is cut short: the tensor '{cut_name}' ends at byte {cut_end:,} but the file has "
                    f"{len(whole) - 1000:,} bytes"},
        {"path": "bad/lies.safetensors",
         "message": f"the safetensors header lies: the tensor 'transformer.wte.weight', [{gpt2_rows:,} × {DIM + 1}] of F32"
                    .replace(f"{gpt2_rows:,}", str(gpt2_rows))},
    ]
    assert llama_n + 64 < gpt2_rows
    mismatch = [
        {"tokenizer": "llama/tokenizer.json", "rows": gpt2_rows,
         "message": f"tokenizer.json has {llama_n:,} tokens but the matrix {gpt2_rows:,} rows, more than a model pads: "
                    "it is another model's tokenizer"},
        {"tokenizer": "gpt2/tokenizer.json", "rows": llama_n,
         "message": f"tokenizer.json has {gpt2_n:,} tokens but the matrix {llama_n:,} rows: it is another model's tokenizer"},
    ]

    manifest = {
        "dim": DIM,
        "files": files,
        "sharded": sharded,
        "tokenizers": tokenizers,
        "refusals": refusals,
        "mismatch": mismatch,
    }
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
    print(f"wrote {len(files)} models, a sharded one, 2 tokenizers ({gpt2_n}, {llama_n} tokens) and 3 refusals to {out}")


if __name__ == "__main__":
    main()
