"""embedscope's CLI on language models' files written by the writers people use: the
neighbours it lists for a token equal those numpy computes from the same stored values
(cosine over every row, the token itself left out), for safetensors (F32, F16, BF16,
sharded, with tokenizers' tokenizer.json) and GGUF (every type read); `info` names the tensor,
shape and dtype.

Usage: lm_compat.py EMBEDSCOPE SAFETENSORS_DIR GGUF_DIR
  the directories written by tests/lm/write_safetensors.py and tests/lm/write_gguf.py
"""

import json
import os
import subprocess
import sys

import numpy as np

K = 5


def escape(token):
    """A token as the CLI prints it (io::escape_token): whitespace and backslashes escaped."""
    out = []
    for ch in token:
        out.append({"\\": "\\\\", " ": "\\s", "\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(ch, ch))
    return "".join(out)


def run(*args):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)}\n{done.stderr}")
    return done.stdout


def expected_neighbours(rows, query):
    norms = np.linalg.norm(rows, axis=1)
    unit = rows / np.where(norms > 0, norms, 1)[:, None]
    sims = unit @ unit[query]
    sims[query] = -np.inf
    top = np.argsort(-sims, kind="stable")[:K]
    return top, sims[top]


def check(exe, model, rows, query, typed, names=None, extra=()):
    listed = [line.split("\t") for line in run(exe, "neighbours", model, typed, "-k", str(K), *extra).splitlines()]
    top, sims = expected_neighbours(rows, query)
    got = np.array([float(s) for s, _ in listed])
    if len(listed) != K or np.max(np.abs(got - sims)) > 6e-5:
        sys.exit(f"FAIL {model} {typed}: similarities {got} but numpy's are {sims}")
    if names is not None:
        want = [escape(names[i]) for i in top]
        words = [w for _, w in listed]
        if words != want:
            sys.exit(f"FAIL {model} {typed}: neighbours {words} but numpy's are {want}")
    print(f"ok {os.path.basename(os.path.dirname(model))}/{os.path.basename(model)}: the {K} neighbours of {typed} as numpy's")


def main(exe, st_dir, gguf_dir):
    manifest = json.load(open(os.path.join(st_dir, "manifest.json")))
    tokenizers = manifest["tokenizers"]
    for entry in manifest["files"]:
        path = os.path.join(st_dir, entry["path"])
        rows = np.fromfile(os.path.join(st_dir, entry["expected"]), dtype="<f4").reshape(entry["rows"], entry["cols"])
        tok = tokenizers[entry["tokenizer"]]
        query = next(i for i in range(300, tok["tokens"]) if i not in tok["special"] and "\\" not in tok["raw"][i])
        extra = ()
        if os.path.dirname(entry["path"]) != os.path.dirname(entry["tokenizer"]):
            extra = ("--tokenizer", os.path.join(st_dir, entry["tokenizer"]))
        names = tok["decoded"] + [f"<row {i}>" for i in range(tok["tokens"], entry["rows"])]
        check(exe, path, rows, query, tok["raw"][query], None if len(set(names)) < len(names) else names, extra)
    for entry in manifest.get("sharded", []) if isinstance(manifest.get("sharded"), list) else [manifest.get("sharded")]:
        if not entry:
            continue
        path = os.path.join(st_dir, entry["index"])
        rows = np.fromfile(os.path.join(st_dir, entry["expected"]), dtype="<f4").reshape(entry["rows"], entry["cols"])
        tok = tokenizers[entry["tokenizer"]]
        check(exe, path, rows, 400, tok["raw"][400], None, ("--tokenizer", os.path.join(st_dir, entry["tokenizer"])))

    info = dict(line.split("\t", 1) for line in run(exe, "info", os.path.join(st_dir, "gpt2/bf16.safetensors")).splitlines() if "\t" in line)
    for key, want in [("tensor", "transformer.wte.weight"), ("dtype", "BF16")]:
        if not info.get(key, "").startswith(want):
            sys.exit(f"FAIL info: {key} is {info.get(key)!r}, expected {want!r}")
    if "× 64 dimensions" not in info.get("shape", ""):
        sys.exit(f"FAIL info: shape is {info.get('shape')!r}")
    print(f"ok info: {info['tensor']}, {info['shape']}, {info['dtype']}")

    g = json.load(open(os.path.join(gguf_dir, "manifest.json")))
    tokens = g["tokens"]
    for entry in g["files"]:
        rows = np.fromfile(os.path.join(gguf_dir, entry["expected"]), dtype="<f4").reshape(g["rows"], g["dim"])
        query = tokens.index("Ġking")
        check(exe, os.path.join(gguf_dir, entry["file"]), rows, query, "Ġking")
        check(exe, os.path.join(gguf_dir, entry["file"]), rows, query, "\\sking")


if __name__ == "__main__":
    main(*sys.argv[1:])
