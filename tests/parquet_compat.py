"""embedscope's CLI on Parquet tables written by pyarrow: Spark's Word2VecModel layout (a
model folder with metadata/ and data/ part files, snappy), float32 and float64 lists,
Arrow's fixed-size lists, gzip, and a table of many columns whose words and vectors are
chosen with --columns. The neighbours listed equal those numpy computes from the same
values (cosine over every row, the word itself left out). Broken tables (zstd, ragged rows,
nulls, a cut file, no string column) are refused with a message that says so.

With PySpark and a Java runtime (scripts/setup.sh --spark), a real Word2VecModel is trained
on the first lines of the King James Bible, saved, and its folder opened: the CLI's
neighbours equal Spark's own findSynonymsArray.

Usage: parquet_compat.py EMBEDSCOPE [KJV]
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

K = 5
# The CLI prints similarities with 4 decimals.
TOLERANCE = 6e-5


def run(*args, fail=False):
    done = subprocess.run(args, capture_output=True, text=True)
    if fail:
        if done.returncode == 0:
            sys.exit(f"FAIL: {' '.join(args)} succeeded, but should have been refused")
        return done.stderr.strip()
    if done.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)}\n{done.stderr}")
    return done.stdout


def expected(rows, query):
    rows = rows.astype(np.float64)
    unit = rows / np.linalg.norm(rows, axis=1)[:, None]
    sims = unit @ unit[query]
    sims[query] = -np.inf
    top = np.argsort(-sims, kind="stable")[:K]
    return top, sims[top]


def check(exe, path, words, rows, query, extra=()):
    listed = [line.split("\t") for line in run(exe, "neighbours", path, words[query], "-k", str(K), *extra).splitlines()]
    top, sims = expected(rows, query)
    got = np.array([float(s) for s, _ in listed])
    want = [words[i] for i in top]
    if [w for _, w in listed] != want or np.max(np.abs(got - sims)) > TOLERANCE:
        sys.exit(f"FAIL {path} {words[query]}: {listed}, but numpy's are {list(zip(sims, want))}")
    print(f"ok {os.path.basename(path)}: the {K} neighbours of {words[query]} as numpy's ({len(words)} words)")


def vectors_table(words, rows, value_type):
    return pa.table({"word": pa.array(words, pa.string()), "vector": pa.array(list(rows), pa.list_(value_type))})


def spark_folder(root, words, rows, parts, vector_size, compression="snappy"):
    """A folder laid out as Spark's Word2VecModel.save lays it out."""
    os.makedirs(os.path.join(root, "metadata"))
    os.makedirs(os.path.join(root, "data"))
    metadata = {
        "class": "org.apache.spark.ml.feature.Word2VecModel",
        "timestamp": 1,
        "sparkVersion": "4.3.0",
        "uid": "Word2Vec_test",
        "paramMap": {"vectorSize": vector_size, "inputCol": "text"},
        "defaultParamMap": {"vectorSize": 100},
    }
    with open(os.path.join(root, "metadata", "part-00000"), "w") as f:
        f.write(json.dumps(metadata) + "\n")
    for name in ("metadata/_SUCCESS", "data/_SUCCESS", "data/._SUCCESS.crc"):
        open(os.path.join(root, name), "w").close()
    bounds = np.linspace(0, len(words), parts + 1).astype(int)
    for p in range(parts):
        lo, hi = bounds[p], bounds[p + 1]
        table = vectors_table(words[lo:hi], rows[lo:hi], pa.float32())
        name = f"part-{p:05d}-0b5c-c000.{compression}.parquet"
        # Small row groups, so each part holds several.
        pq.write_table(table, os.path.join(root, "data", name), compression=compression, row_group_size=50)
    return root


def main(exe, kjv=None):
    rng = np.random.default_rng(29)
    work = tempfile.mkdtemp()
    try:
        n, dim = 300, 16
        words = [f"w{i}" for i in range(n)] + ["naïve", "日本"]
        rows32 = rng.standard_normal((n + 2, dim)).astype(np.float32)

        # Spark's layout, three parts, float32, snappy.
        model = spark_folder(os.path.join(work, "model"), words, rows32, parts=3, vector_size=dim)
        for query in (0, 150, n + 1):
            check(exe, model, words, rows32, query)
        check(exe, os.path.join(model, "data"), words, rows32, 42)
        info = run(exe, "info", model)
        if f"words\t{n + 2}" not in info or f"dimension\t{dim}" not in info or "Word2VecModel" not in info:
            sys.exit(f"FAIL info {model}:\n{info}")
        print("ok info names the words, the dimension and Spark's class")

        # The metadata's vectorSize disagrees with the vectors: refused.
        wrong = spark_folder(os.path.join(work, "wrong"), words, rows32, parts=1, vector_size=dim + 1)
        message = run(exe, "neighbours", wrong, "w0", fail=True)
        assert f"the Spark metadata says the vectors have {dim + 1} values" in message, message
        print("ok a metadata/ of another vector size is refused")

        # float64, one file, gzip.
        rows64 = rng.standard_normal((n, dim))
        path = os.path.join(work, "doubles.parquet")
        pq.write_table(vectors_table(words[:n], rows64, pa.float64()), path, compression="gzip")
        # The store holds f32: numpy's reference rounds the same way.
        check(exe, path, words[:n], rows64.astype(np.float32), 7)

        # Arrow's fixed-size list.
        path = os.path.join(work, "fixed.parquet")
        fixed = pa.FixedSizeListArray.from_arrays(pa.array(rows32[:n].ravel(), pa.float32()), dim)
        pq.write_table(pa.table({"term": pa.array(words[:n]), "emb": fixed}), path)
        check(exe, path, words[:n], rows32[:n], 3)

        # A table of many columns: several candidates, so the person names them.
        path = os.path.join(work, "many.parquet")
        other = rng.standard_normal((n, 4)).astype(np.float32)
        table = pa.table(
            {
                "id": pa.array(range(n), pa.int64()),
                "token": pa.array(words[:n]),
                "lang": pa.array(["en"] * n),
                "small": pa.array(list(other), pa.list_(pa.float32())),
                "embedding": pa.array(list(rows32[:n]), pa.list_(pa.float32())),
                "score": pa.array(rng.random(n)),
            }
        )
        pq.write_table(table, path)
        message = run(exe, "neighbours", path, "w1", fail=True)
        want = "choose the columns: the words from one of 'token', 'lang' and the vectors from one of 'small', 'embedding' (--columns WORD,VECTOR)"
        assert want in message, message
        print("ok several candidates: the CLI lists them and names --columns")
        check(exe, path, words[:n], rows32[:n], 11, extra=("--columns", "token,embedding"))
        message = run(exe, "neighbours", path, "w1", "--columns", "id,embedding", fail=True)
        assert "the column 'id' holds INT64, not strings" in message, message

        refusals = {
            "zstd": (
                lambda p: pq.write_table(vectors_table(words[:n], rows32[:n], pa.float32()), p, compression="zstd"),
                "is compressed with zstd, which embedscope does not read",
            ),
            "ragged": (
                lambda p: pq.write_table(vectors_table(["a", "b", "c"], [[1.0, 2.0], [3.0, 4.0], [5.0]], pa.float32()), p),
                "row 3 ('c'): its vector has 1 values, but the rows before have 2",
            ),
            "null vector": (
                lambda p: pq.write_table(vectors_table(["a", "b"], [[1.0, 2.0], None], pa.float32()), p),
                "row 2 ('b'): its vector is null",
            ),
            "null value": (
                lambda p: pq.write_table(vectors_table(["a", "b"], [[1.0, 2.0], [3.0, None]], pa.float32()), p),
                "row 2 ('b'): value 2 of its vector is null",
            ),
            "null word": (
                lambda p: pq.write_table(vectors_table(["a", None], [[1.0, 2.0], [3.0, 4.0]], pa.float32()), p),
                "row 2: its word is null",
            ),
            "no strings": (
                lambda p: pq.write_table(pa.table({"id": [1, 2], "v": pa.array([[1.0], [2.0]], pa.list_(pa.float32()))}), p),
                "the table has no string column to take the words from; its columns: 'id' (INT64), 'v' (list<float>)",
            ),
            "no vectors": (
                lambda p: pq.write_table(pa.table({"word": ["a", "b"], "n": [1, 2]}), p),
                "the table has no column of lists of floats",
            ),
        }
        for name, (write, want) in refusals.items():
            path = os.path.join(work, name.replace(" ", "-") + ".parquet")
            write(path)
            message = run(exe, "neighbours", path, "a", fail=True)
            assert want in message, f"{name}: {message}"
            print(f"ok {name}: {message}")

        # A part cut short, and a file that only starts as Parquet.
        whole = open(os.path.join(work, "doubles.parquet"), "rb").read()
        for cut in (len(whole) - 3, len(whole) // 2):
            path = os.path.join(work, "cut.parquet")
            open(path, "wb").write(whole[:cut])
            message = run(exe, "neighbours", path, "w0", fail=True)
            assert "cut short" in message, message
        print(f"ok a cut file: {message}")

        if kjv:
            spark_check(exe, kjv, work)
    finally:
        shutil.rmtree(work)


def spark_check(exe, kjv, work):
    """A Word2VecModel trained and saved by Spark itself opens, with Spark's neighbours."""
    try:
        from pyspark.ml.feature import Word2Vec
        from pyspark.sql import SparkSession
    except ImportError:
        sys.exit("FAIL: PySpark is not installed (scripts/setup.sh --spark)")
    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        with open(kjv) as f:
            lines = [line.lower().split() for line in f.read().splitlines()[:4000] if line.strip()]
        frame = spark.createDataFrame([(line,) for line in lines], ["text"])
        model = Word2Vec(vectorSize=24, minCount=5, inputCol="text", outputCol="v", seed=7, maxIter=1).fit(frame)
        folder = os.path.join(work, "spark-model")
        model.write().overwrite().save(folder)
        for word in ("god", "king", "water"):
            synonyms = model.findSynonymsArray(word, K)
            listed = [line.split("\t") for line in run(exe, "neighbours", folder, word, "-k", str(K)).splitlines()]
            if [w for _, w in listed] != [w for w, _ in synonyms] or max(abs(float(s) - sim) for (s, _), (_, sim) in zip(listed, synonyms)) > TOLERANCE:
                sys.exit(f"FAIL Spark's model, {word}: {listed}, but Spark's findSynonymsArray says {synonyms}")
            print(f"ok Spark's own Word2VecModel ({model.getVectors().count()} words): the neighbours of {word} as findSynonymsArray's")
    finally:
        spark.stop()


if __name__ == "__main__":
    main(*sys.argv[1:])
