//! Learned vectors and the questions asked of them.
//!
//! - [`Embeddings`] (`embeddings.rs`): a vocabulary with one vector per word, kept as `f32`
//!   rows with a unit-normalised copy, or in half precision ([`Half`]) with a norm a row;
//!   the store every other room reads.
//! - Queries (`query.rs`): nearest neighbours, word similarity and analogies by 3CosAdd and
//!   3CosMul (Levy & Goldberg 2014), all by cosine over the unit vectors.
//! - [`Subwords`] (`subword.rs`): a fastText model's character n-grams, hashed into buckets
//!   as fastText hashes them; a word the vocabulary lacks is queried by the average of its
//!   n-grams' rows.
//!
//! **Architecture Invariant:** words are ordered by descending corpus frequency, so "the N
//! most frequent words" is the prefix `0..N`; every query is deterministic (ties go to the
//! more frequent word).

mod embeddings;
mod query;
mod subword;

pub use embeddings::{Embeddings, Half, f16_to_f32};
pub(crate) use query::Candidate;
pub use query::{AnalogyMethod, Neighbour};
pub use subword::{Subwords, fasttext_hash, ngram_buckets};
