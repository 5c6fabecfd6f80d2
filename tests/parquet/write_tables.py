"""Writes the Parquet tables the page's test opens (tests/browser/parquet.test.js), with
pyarrow: a folder laid out as Spark's Word2VecModel.save lays it out (metadata/, data/ with
three snappy part files of several row groups each, _SUCCESS and .crc files), a table of
many columns, a table compressed with zstd, and rows.json, the words and float32 rows.

Usage: write_tables.py DIR
"""

import json
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq


def main(out):
    rng = np.random.default_rng(7)
    n, dim = 240, 12
    words = [f"w{i}" for i in range(n)]
    rows = rng.standard_normal((n, dim)).astype(np.float32)
    model = os.path.join(out, "model")
    os.makedirs(os.path.join(model, "metadata"))
    os.makedirs(os.path.join(model, "data"))
    metadata = {
        "class": "org.apache.spark.ml.feature.Word2VecModel",
        "sparkVersion": "4.3.0",
        "uid": "Word2Vec_test",
        "paramMap": {"vectorSize": dim},
    }
    with open(os.path.join(model, "metadata", "part-00000"), "w") as f:
        f.write(json.dumps(metadata) + "\n")
    for name in ("metadata/_SUCCESS", "data/_SUCCESS", "data/._SUCCESS.crc"):
        open(os.path.join(model, name), "w").close()
    for p, (lo, hi) in enumerate([(0, 100), (100, 180), (180, n)]):
        table = pa.table({"word": words[lo:hi], "vector": pa.array(list(rows[lo:hi]), pa.list_(pa.float32()))})
        pq.write_table(table, os.path.join(model, "data", f"part-{p:05d}-1f2e-c000.snappy.parquet"), row_group_size=30)
    many = pa.table(
        {
            "id": pa.array(range(n), pa.int64()),
            "token": words,
            "source": ["web"] * n,
            "small": pa.array(list(rows[:, :2]), pa.list_(pa.float32())),
            "embedding": pa.array(list(rows), pa.list_(pa.float32())),
        }
    )
    pq.write_table(many, os.path.join(out, "many.parquet"))
    spark_like = pa.table({"word": words, "vector": pa.array(list(rows), pa.list_(pa.float32()))})
    pq.write_table(spark_like, os.path.join(out, "zstd.parquet"), compression="zstd")
    with open(os.path.join(out, "rows.json"), "w") as f:
        json.dump({"words": words, "rows": rows.astype(float).tolist()}, f)


if __name__ == "__main__":
    main(sys.argv[1])
