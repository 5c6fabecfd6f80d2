//! Markup: telling a text that is XML or HTML (a Wikipedia dump, a saved web page), and
//! keeping only its text, so that tag names, attributes and escaped markup are not trained
//! as words.
//!
//! # How markup is told
//!
//! A *tag* is `<` followed by a letter, `/`, `!` or `?`, up to the next `>` with no `<`
//! between (at most [`MAX_TAG_BYTES`]), so `a < b` in prose is not one. A text is markup when
//! the bytes inside tags are at least [`MARKUP_FRACTION`] of it (a web page's are a third to
//! two thirds; prose has none), or when it is a whole document: its first non-blank
//! character opens a tag and its last closes one. The second rule is needed for a Wikipedia
//! dump: its articles are long, so its tags are 1 % of its bytes, yet each page's
//! `timestamp`, `sha1` and `parentid` and the escaped markup of the articles (`&lt;ref&gt;`:
//! `lt`, `gt` and `quot` are among its ten most frequent words) swamp the vocabulary.
//!
//! # What is kept
//!
//! [`Markup::strip`] reads the text with `quick-xml` (a pull reader: no tree is built, and
//! unmatched or unclosed tags, as HTML has, are read on). Entities are decoded: the five of
//! XML (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`), numeric ones (`&#39;`, `&#x2019;`) and
//! `&nbsp;`; another named entity stays as written.
//!
//! - **MediaWiki XML** (a Wikipedia dump): the contents of the `<text>` elements, the
//!   articles, each ending a line; the page's metadata is dropped. Their wiki markup is
//!   simplified: templates `{{…}}`, tables, comments, `<ref>` notes and tags are dropped,
//!   links keep their label (`[[Paris|the capital]]` is `the capital`), categories and
//!   files are dropped, and the quotes of bold and italics and the `=` of headings go.
//! - **HTML**: the text of the page without `<script>`, `<style>` and `<head>` (its title
//!   stays); a block element (a paragraph, a heading, a list item) ends a line, an inline one
//!   (a link, emphasis) does not.
//! - **Other XML**: the text of every element, each ending a line.

use std::borrow::Cow;

use quick_xml::Reader;
use quick_xml::escape::resolve_xml_entity;
use quick_xml::events::{BytesRef, Event};

/// The share of a text's bytes inside tags from which it is markup.
pub const MARKUP_FRACTION: f64 = 0.2;

/// The longest tag counted: a `<` with no `>` within this many bytes is not a tag.
pub const MAX_TAG_BYTES: usize = 4096;

/// What kind of markup a text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkupKind {
    /// A MediaWiki export, as Wikipedia's dumps are.
    MediaWiki,
    Html,
    Xml,
}

impl MarkupKind {
    /// A name for people: "MediaWiki XML (a Wikipedia dump)", "HTML", "XML".
    pub fn name(self) -> &'static str {
        match self {
            MarkupKind::MediaWiki => "MediaWiki XML (a Wikipedia dump)",
            MarkupKind::Html => "HTML",
            MarkupKind::Xml => "XML",
        }
    }
}

/// A text found to be markup: its kind and the share of its bytes inside tags.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Markup {
    pub kind: MarkupKind,
    /// Bytes inside tags over all bytes.
    pub tag_fraction: f64,
}

impl Markup {
    /// Whether `text` is markup (see the module documentation); `None` for plain text.
    pub fn detect(text: &str) -> Option<Markup> {
        let (tag_bytes, first, last) = scan_tags(text.as_bytes());
        let tag_fraction = if text.is_empty() { 0.0 } else { tag_bytes as f64 / text.len() as f64 };
        let trimmed = text.trim();
        let document = first == Some(text.len() - text.trim_start().len())
            && last == Some(text.trim_end().len())
            && !trimmed.is_empty();
        if tag_fraction < MARKUP_FRACTION && !document {
            return None;
        }
        Some(Markup { kind: kind_of(text), tag_fraction })
    }

    /// One line for people: what the text is and what training it as it is would do.
    pub fn describe(&self) -> String {
        format!(
            "this text looks like {} ({:.0} % of it inside tags): its tag names, attributes and escaped \
             markup would be trained as words",
            self.kind.name(),
            self.tag_fraction * 100.0
        )
    }

    /// `text` with only its text kept (see the module documentation), to be tokenized as any
    /// text is. Markup that does not parse is read on from the next tag.
    pub fn strip(&self, text: &str) -> String {
        let mut out = Extractor::new(self.kind);
        // A script's or a style's `<` and `&` are not markup: they are dropped before reading.
        let text = if self.kind == MarkupKind::Html { drop_raw_elements(text) } else { Cow::Borrowed(text) };
        let mut reader = Reader::from_str(&text);
        let config = reader.config_mut();
        config.check_end_names = false;
        config.allow_unmatched_ends = true;
        config.expand_empty_elements = false;
        loop {
            let before = reader.buffer_position();
            match reader.read_event() {
                Ok(Event::Eof) => break,
                Ok(event) => out.event(event),
                // Ill-formed markup (a stray `<` in HTML): what follows is read on, unless
                // the reader cannot move past it.
                Err(_) if reader.buffer_position() > before => {}
                Err(_) => break,
            }
        }
        out.finish()
    }
}

/// The bytes inside tags, and where the first tag starts and the last one ends.
fn scan_tags(bytes: &[u8]) -> (usize, Option<usize>, Option<usize>) {
    let (mut inside, mut first, mut last) = (0, None, None);
    let mut i = 0;
    while let Some(offset) = bytes[i..].iter().position(|&b| b == b'<') {
        let start = i + offset;
        let opens = bytes.get(start + 1).is_some_and(|&b| b.is_ascii_alphabetic() || b"/!?".contains(&b));
        let window = &bytes[start + 1..bytes.len().min(start + MAX_TAG_BYTES)];
        let end = window.iter().position(|&b| b == b'>' || b == b'<');
        match end {
            Some(len) if opens && window[len] == b'>' => {
                let end = start + 1 + len + 1;
                inside += end - start;
                first.get_or_insert(start);
                last = Some(end);
                i = end;
            }
            _ => i = start + 1,
        }
    }
    (inside, first, last)
}

/// The kind of markup, from the start of the text.
fn kind_of(text: &str) -> MarkupKind {
    let head = text[..floor_char_boundary(text, 8192)].to_ascii_lowercase();
    if head.contains("<mediawiki") {
        MarkupKind::MediaWiki
    } else if ["<!doctype html", "<html", "<body", "<head", "<p>", "<div", "<br"]
        .iter()
        .any(|t| head.contains(t))
    {
        MarkupKind::Html
    } else {
        MarkupKind::Xml
    }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// HTML elements that flow within a line: their tags end no line.
const INLINE: &[&str] = &[
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd", "mark", "q",
    "s", "samp", "small", "span", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
];

/// HTML elements whose contents are not text to read.
const SKIPPED: &[&str] = &["script", "style", "noscript", "template", "svg", "head"];

/// Collects the text of the events of one document.
struct Extractor {
    kind: MarkupKind,
    out: String,
    /// MediaWiki: inside a `<text>` element. Other kinds: always.
    keep: bool,
    /// HTML: inside a skipped element (`<script>`), by depth; `<title>` inside `<head>` is kept.
    skipped: usize,
    in_title: bool,
}

impl Extractor {
    fn new(kind: MarkupKind) -> Extractor {
        Extractor {
            kind,
            out: String::new(),
            keep: kind != MarkupKind::MediaWiki,
            skipped: 0,
            in_title: false,
        }
    }

    fn keeping(&self) -> bool {
        self.keep && (self.skipped == 0 || self.in_title)
    }

    fn line_end(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.tag(&tag.local_name().into_inner().to_ascii_lowercase(), true),
            Event::End(tag) => self.tag(&tag.local_name().into_inner().to_ascii_lowercase(), false),
            Event::Empty(tag) => {
                let name = tag.local_name().into_inner().to_ascii_lowercase();
                if self.kind != MarkupKind::MediaWiki && !INLINE.contains(&name.as_str()) {
                    self.line_end();
                }
            }
            Event::Text(text) if self.keeping() => self.out.push_str(&text.xml10_content()),
            Event::CData(data) if self.keeping() => self.out.push_str(&data.xml10_content()),
            Event::GeneralRef(entity) if self.keeping() => self.out.push_str(&resolve(&entity)),
            _ => {}
        }
    }

    fn tag(&mut self, name: &str, start: bool) {
        match self.kind {
            MarkupKind::MediaWiki => {
                if name == "text" {
                    self.keep = start;
                    self.line_end();
                }
            }
            MarkupKind::Html => {
                if SKIPPED.contains(&name) {
                    self.skipped = if start { self.skipped + 1 } else { self.skipped.saturating_sub(1) };
                } else if name == "title" {
                    self.in_title = start;
                }
                if !INLINE.contains(&name) {
                    self.line_end();
                }
            }
            MarkupKind::Xml => self.line_end(),
        }
    }

    /// The text collected, each line trimmed, blank ones dropped.
    fn finish(self) -> String {
        let text = if self.kind == MarkupKind::MediaWiki { simplify_wikitext(&self.out) } else { self.out };
        let mut out = String::with_capacity(text.len());
        for line in text.lines().map(str::trim).filter(|line| !line.is_empty()) {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

/// HTML without its `<script>` and `<style>` elements, whose contents are not markup.
fn drop_raw_elements(text: &str) -> Cow<'_, str> {
    // ASCII lowercasing keeps every byte offset.
    let lower = text.to_ascii_lowercase();
    let mut out = String::new();
    let (mut kept, mut i) = (0, 0);
    loop {
        let next = ["script", "style"]
            .iter()
            .filter_map(|name| lower[i..].find(&format!("<{name}")).map(|at| (i + at, *name)))
            .min();
        let Some((start, name)) = next else { break };
        let close = format!("</{name}");
        let end = match lower[start..].find(&close) {
            Some(at) => lower[start + at..].find('>').map_or(text.len(), |gt| start + at + gt + 1),
            None => text.len(),
        };
        out.push_str(&text[kept..start]);
        kept = end;
        i = end;
    }
    if kept == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[kept..]);
    Cow::Owned(out)
}

/// An entity's character: XML's five, a numeric reference, `&nbsp;`; another stays as written.
fn resolve(entity: &BytesRef<'_>) -> Cow<'static, str> {
    if let Ok(Some(c)) = entity.resolve_char_ref() {
        return Cow::Owned(c.to_string());
    }
    match resolve_xml_entity(entity) {
        Some(resolved) => Cow::Borrowed(resolved),
        None if &**entity == "nbsp" => Cow::Borrowed(" "),
        None => Cow::Owned(format!("&{};", &**entity)),
    }
}

/// Wiki markup made plain (see the module documentation): what a reader of the article sees,
/// give or take.
fn simplify_wikitext(text: &str) -> String {
    let text = drop_nested(text, "{{", "}}");
    let text = drop_between(&text, "<!--", "-->");
    let text = drop_refs(&text);
    let text = drop_tags(&text);
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let line = line.trim();
        // Table rows and cells, and what is left of a table.
        if ["{|", "|", "!"].iter().any(|start| line.starts_with(start)) {
            continue;
        }
        let line = line.trim_matches('=').trim();
        let line = links_to_labels(line).replace("'''", "").replace("''", "");
        if !line.trim().is_empty() {
            out.push_str(line.trim());
            out.push('\n');
        }
    }
    out
}

/// `text` without the spans from `open` to the matching `close`, nested ones included; an
/// unclosed span runs to the end.
fn drop_nested(text: &str, open: &str, close: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut depth, mut i) = (0usize, 0);
    while i < text.len() {
        let rest = &text[i..];
        if rest.starts_with(open) {
            depth += 1;
            i += open.len();
        } else if depth > 0 && rest.starts_with(close) {
            depth -= 1;
            i += close.len();
        } else {
            let c = rest.chars().next().expect("i < len");
            if depth == 0 {
                out.push(c);
            }
            i += c.len_utf8();
        }
    }
    out
}

/// `text` without the spans from `open` to the next `close`.
fn drop_between(text: &str, open: &str, close: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(open) {
        out.push_str(&rest[..start]);
        rest = match rest[start + open.len()..].find(close) {
            Some(end) => &rest[start + open.len() + end + close.len()..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// `text` without its `<ref>…</ref>` notes (a `<ref name="x" />` is a tag, dropped later).
fn drop_refs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<ref") {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let tag_end = after.find('>').map_or(after.len(), |e| e + 1);
        rest = if after[..tag_end].ends_with("/>") {
            &after[tag_end..]
        } else {
            match after.find("</ref>") {
                Some(end) => &after[end + "</ref>".len()..],
                None => &after[tag_end..],
            }
        };
    }
    out.push_str(rest);
    out
}

/// `text` with its tags removed and their contents kept.
fn drop_tags(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut kept = 0;
    let mut i = 0;
    while let Some(offset) = bytes[i..].iter().position(|&b| b == b'<') {
        let start = i + offset;
        let opens = bytes.get(start + 1).is_some_and(|&b| b.is_ascii_alphabetic() || b == b'/');
        match text[start + 1..].find(['>', '<']) {
            Some(len) if opens && bytes[start + 1 + len] == b'>' => {
                out.push_str(&text[kept..start]);
                kept = start + 1 + len + 1;
                i = kept;
            }
            _ => i = start + 1,
        }
    }
    out.push_str(&text[kept..]);
    out
}

/// `[[target|label]]` to `label`, `[[target]]` to `target`, `[url label]` to `label`;
/// categories, files and images dropped.
fn links_to_labels(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find('[') {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let (inner, len) = if let Some(inner) = after.strip_prefix("[[") {
            match inner.find("]]") {
                Some(end) => (&inner[..end], end + 4),
                None => (inner, after.len()),
            }
        } else {
            match after[1..].find(']') {
                Some(end) => {
                    let inner = &after[1..1 + end];
                    // An external link: its label, after the address.
                    let label = if inner.contains("://") {
                        inner.split_once(' ').map_or("", |(_, l)| l)
                    } else {
                        inner
                    };
                    out.push_str(label);
                    rest = &after[end + 2..];
                    continue;
                }
                None => (&after[1..], after.len()),
            }
        };
        let target = inner.split('|').next().unwrap_or("").trim_start_matches(':');
        let namespace = target.split_once(':').map(|(ns, _)| ns.to_ascii_lowercase());
        if !matches!(namespace.as_deref(), Some("category" | "file" | "image")) {
            out.push_str(inner.rsplit('|').next().unwrap_or(""));
        }
        rest = &after[len.min(after.len())..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::random_unicode;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    /// A shortened MediaWiki export, as Wikipedia's dumps are written (gensim's test dump has
    /// the same shape), with the markup an article holds.
    pub(crate) const WIKI: &str = r#"<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <namespaces>
      <namespace key="0" case="first-letter" />
    </namespaces>
  </siteinfo>
  <page>
    <title>Anarchism</title>
    <ns>0</ns>
    <id>12</id>
    <revision>
      <id>766348469</id>
      <parentid>766047928</parentid>
      <timestamp>2017-02-19T18:08:07Z</timestamp>
      <contributor><username>GreenC bot</username><id>27823944</id></contributor>
      <model>wikitext</model>
      <format>text/x-wiki</format>
      <text xml:space="preserve">{{Redirect2|Anarchist|Anarchists|the fictional character|Anarchist (comics)}}
{{Anarchism sidebar}}
'''Anarchism''' is a [[political philosophy]] that advocates [[self-governance|self-governed]] societies.&lt;ref&gt;{{cite web|url=http://example.org|title=IAF}}&lt;/ref&gt; It holds the state to be &quot;undesirable&quot;.
&lt;!-- a comment --&gt;
== History ==
Its name comes from the Greek &#39;anarchos&#39; &amp; its [http://example.org roots] go back far.&lt;ref name=&quot;x&quot; /&gt;
{| class="wikitable"
| cell || other cell
|}
[[Category:Anarchism| ]]
[[File:Flag.svg|thumb|A flag]]</text>
      <sha1>t0ijswlk6ii5cj8oh6hnbng4rdqmhv9</sha1>
    </revision>
  </page>
</mediawiki>
"#;

    #[test]
    fn a_wikipedia_dump_is_told_and_keeps_only_its_articles() {
        let markup = Markup::detect(WIKI).expect("markup");
        assert_eq!(markup.kind, MarkupKind::MediaWiki);
        assert_eq!(
            markup.strip(WIKI),
            "Anarchism is a political philosophy that advocates self-governed societies. It holds the state to \
             be \"undesirable\".\nHistory\nIts name comes from the Greek 'anarchos' & its roots go back far.\n"
        );
        assert!(markup.describe().starts_with("this text looks like MediaWiki XML (a Wikipedia dump) ("));
    }

    #[test]
    fn a_long_dump_is_told_by_its_shape_though_few_of_its_bytes_are_tags() {
        let article =
            "Anarchism is a political philosophy that advocates self-governed societies. ".repeat(400);
        let dump = WIKI.replace("{{Anarchism sidebar}}", &article);
        let markup = Markup::detect(&dump).expect("a whole document");
        assert!(markup.tag_fraction < MARKUP_FRACTION, "{}", markup.tag_fraction);
    }

    #[test]
    fn html_keeps_its_text_without_scripts_and_styles() {
        let page = "<!DOCTYPE html>\n<html><head><title>A &amp; B</title><style>p { color: red }</style>\
                    <script>if (a < b) alert(1)</script></head>\n<body><h1>Heading</h1><p>One <b>bold</b> \
                    word&nbsp;and&#x2019;s <a href=x>link</a>.<br>Next line</p><ul><li>item</li></ul></body></html>";
        let markup = Markup::detect(page).expect("markup");
        assert_eq!(markup.kind, MarkupKind::Html);
        assert_eq!(markup.strip(page), "A & B\nHeading\nOne bold word and\u{2019}s link.\nNext line\nitem\n");
    }

    #[test]
    fn other_xml_keeps_every_element_s_text_and_decodes_entities() {
        let xml = "<?xml version=\"1.0\"?>\n<notes><note id=\"1\">a &lt; b &gt; c</note><note>&quot;d&quot; \
                   &#39;e&#39; &#65; &unknown;</note><![CDATA[raw <text>]]></notes>";
        let markup = Markup::detect(xml).expect("markup");
        assert_eq!(markup.kind, MarkupKind::Xml);
        assert_eq!(markup.strip(xml), "a < b > c\n\"d\" 'e' A &unknown;\nraw <text>\n");
    }

    #[test]
    fn prose_is_not_markup() {
        let cases = [
            "In the beginning God created the heaven and the earth.\n",
            "if a < b and c > d then <b> is less than 3 > 2\n",
            "Use <Enter> to confirm, then <Tab>.\nMore prose here, and more of it, on and on.\n",
            "",
            "   \n",
        ];
        for text in cases {
            assert_eq!(Markup::detect(text), None, "{text:?}");
        }
        // A text with some tags in it, under the fraction and not a whole document.
        let mixed = format!("{}<b>bold</b> {}", "plain words ".repeat(20), "more words ".repeat(20));
        assert_eq!(Markup::detect(&mixed), None);
    }

    #[test]
    fn random_text_and_broken_markup_never_panic() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(26);
        let pieces = [
            "<",
            ">",
            "</",
            "<a>",
            "</a>",
            "<!--",
            "-->",
            "&",
            ";",
            "&#",
            "<![CDATA[",
            "]]>",
            "<?",
            "?>",
            "[[",
            "]]",
            "{{",
            "}}",
            "|",
            "<text>",
            "</text>",
            "<mediawiki>",
            "\"",
            "x",
        ];
        for _ in 0..3_000 {
            let mut text = String::new();
            for _ in 0..rng.random_range(0..40) {
                if rng.random_range(0..3) == 0 {
                    text.push_str(&random_unicode(&mut rng, 3));
                } else {
                    text.push_str(pieces[rng.random_range(0..pieces.len())]);
                }
            }
            if let Some(markup) = Markup::detect(&text) {
                markup.strip(&text);
            }
            for kind in [MarkupKind::MediaWiki, MarkupKind::Html, MarkupKind::Xml] {
                Markup { kind, tag_fraction: 1.0 }.strip(&text);
            }
        }
    }
}
