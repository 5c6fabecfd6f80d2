//! What a Spark `Word2VecModel` folder's metadata says, read beside its Parquet tables.

use crate::error::{Error, Result};

/// What a Spark `Word2VecModel` folder's `metadata/part-00000` says: the class that saved
/// it and, when it says, the vector size and the number of words.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SparkMetadata {
    pub class: String,
    pub vector_size: Option<usize>,
    pub num_words: Option<usize>,
}

impl SparkMetadata {
    /// Reads a Spark model's metadata (one JSON object a line; the first is the model's):
    /// `spark.ml`'s keeps `vectorSize` in `paramMap`, `spark.mllib`'s beside `numWords`.
    pub fn read(text: &str) -> Result<SparkMetadata> {
        let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let value: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| Error::Parquet(format!("the Spark metadata is not JSON: {e}")))?;
        let class = value.get("class").and_then(|c| c.as_str()).ok_or_else(|| {
            Error::Parquet("the Spark metadata names no class: this is not a saved Spark model".into())
        })?;
        let number =
            |v: Option<&serde_json::Value>| v.and_then(|n| n.as_u64()).and_then(|n| usize::try_from(n).ok());
        let vector_size =
            number(value.get("vectorSize")).or_else(|| number(value.pointer("/paramMap/vectorSize")));
        Ok(SparkMetadata { class: class.to_string(), vector_size, num_words: number(value.get("numWords")) })
    }

    /// Whether `head`, a file's first bytes, starts as a Spark model's metadata does: a JSON
    /// object whose first key is `class`, naming a class of Spark's (whitespace aside).
    pub fn sniff(head: &[u8]) -> bool {
        const START: &[u8] = br#"{"class":"org.apache.spark."#;
        let mut bytes = head.iter().take(4 * START.len()).filter(|b| !b.is_ascii_whitespace());
        START.iter().all(|want| bytes.next() == Some(want))
    }

    /// Whether it is a word2vec model's (spark.ml's or spark.mllib's `Word2VecModel`).
    pub fn is_word2vec(&self) -> bool {
        self.class.ends_with(".Word2VecModel")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spark_metadata_is_read_and_recognised() {
        let ml = r#"{"class":"org.apache.spark.ml.feature.Word2VecModel","timestamp":1,"sparkVersion":"4.0.0","uid":"w2v","paramMap":{"vectorSize":3,"minCount":5},"defaultParamMap":{"vectorSize":100}}"#;
        let mllib = r#"{"class":"org.apache.spark.mllib.feature.Word2VecModel","version":"1.0","vectorSize":3,"numWords":5}"#;
        let ml = SparkMetadata::read(ml).unwrap();
        assert_eq!((ml.vector_size, ml.num_words, ml.is_word2vec()), (Some(3), None, true));
        let mllib = SparkMetadata::read(mllib).unwrap();
        assert_eq!((mllib.vector_size, mllib.num_words), (Some(3), Some(5)));
        assert!(SparkMetadata::read("not json").is_err());
        assert!(SparkMetadata::sniff(br#"{"class":"org.apache.spark.ml.feature.Word2VecModel","#));
        assert!(SparkMetadata::sniff(b"{\"class\": \"org.apache.spark.mllib.feature.Word2VecModel\""));
        assert!(!SparkMetadata::sniff(br#"{"class":"gensim.models.Word2Vec"}"#));
        assert!(!SparkMetadata::sniff(br#"{"class":"org.apache"#));
    }
}
