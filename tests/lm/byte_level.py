"""GPT-2's byte-level alphabet, shared by the writers of byte-level vocabularies.

The `tokenizers` package has the alphabet (`pre_tokenizers.ByteLevel.alphabet()`) but not
which byte each character stands for, which a GGUF vocabulary in byte order needs.
"""


def bytes_to_unicode():
    """Each byte's printable character (a list by byte value): the printable bytes `!`..`~`,
    `¡`..`¬` and `®`..`ÿ` stand for themselves, the other 68, in order, for U+0100 onwards."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    others = [b for b in range(256) if b not in printable]
    chars = {b: chr(b) for b in printable} | {b: chr(256 + n) for n, b in enumerate(others)}
    return [chars[b] for b in range(256)]
