"""Text for the human answering Hermes' approval prompt: controls, ANSI escapes, direction overrides and invisible
characters are written as visible escapes, so ``rm -r build/ # \\x1b[2K\\x1b[1Gls -la`` cannot redraw itself as
``ls -la``. The same table as the daemon's (domain/encoding/visibleText.mjs; a spec compares the two), and the same
escapes: ``\\\\`` for a backslash, ``\\n`` ``\\t`` ``\\r``, ``\\xHH`` below U+0100, ``\\uHHHH``, ``\\u{HHHHH}``.

The daemon already sends the call escaped (``prompt_text``); this module is the second line of defence, and the
only one for an older daemon. Standard library only.
"""
from __future__ import annotations

import re
from typing import List, Tuple

# (name, inclusive code point ranges), as in visibleText.mjs. Names are kept so the parity spec can compare rows.
RULES: Tuple[Tuple[str, Tuple[Tuple[int, int], ...]], ...] = (
    ("backslash", ((0x5C, 0x5C),)),
    ("tab", ((0x09, 0x09),)),
    ("newline", ((0x0A, 0x0A),)),
    ("carriage-return", ((0x0D, 0x0D),)),
    ("c0-control", ((0x00, 0x08), (0x0B, 0x0C), (0x0E, 0x1F))),
    ("delete", ((0x7F, 0x7F),)),
    ("c1-control", ((0x80, 0x9F),)),
    ("unusual-space", ((0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000))),
    ("soft-hyphen", ((0xAD, 0xAD),)),
    ("combining-grapheme-joiner", ((0x34F, 0x34F),)),
    ("prepended-format", ((0x600, 0x605), (0x6DD, 0x6DD), (0x70F, 0x70F), (0x890, 0x891), (0x8E2, 0x8E2), (0x110BD, 0x110BD), (0x110CD, 0x110CD))),
    ("bidi-mark", ((0x61C, 0x61C), (0x200E, 0x200F))),
    ("hangul-filler", ((0x115F, 0x1160), (0x3164, 0x3164), (0xFFA0, 0xFFA0))),
    ("braille-blank", ((0x2800, 0x2800),)),
    ("khmer-inherent-vowel", ((0x17B4, 0x17B5),)),
    ("mongolian-selector", ((0x180B, 0x180F),)),
    ("zero-width", ((0x200B, 0x200D),)),
    ("line-separator", ((0x2028, 0x2029),)),
    ("bidi-embedding", ((0x202A, 0x202E),)),
    ("invisible-operator", ((0x2060, 0x2065),)),
    ("bidi-isolate", ((0x2066, 0x2069),)),
    ("deprecated-format", ((0x206A, 0x206F),)),
    ("variation-selector", ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))),
    ("byte-order-mark", ((0xFEFF, 0xFEFF),)),
    ("specials-format", ((0xFFF0, 0xFFFB),)),
    ("egyptian-format", ((0x13430, 0x1343F),)),
    ("shorthand-format", ((0x1BCA0, 0x1BCA3),)),
    ("musical-format", ((0x1D173, 0x1D17A),)),
    ("tag", ((0xE0000, 0xE007F),)),
    ("reserved-ignorable", ((0xE0080, 0xE00FF), (0xE01F0, 0xE0FFF))),
    # Python strings hold a lone surrogate as one code point (a valid pair is one astral character).
    ("lone-surrogate", ((0xD800, 0xDFFF),)),
)


def _class(skip: Tuple[int, ...]) -> "re.Pattern[str]":
    parts: List[str] = []
    for _name, ranges in RULES:
        for low, high in ranges:
            for a, b in _without(low, high, skip):
                parts.append(f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}")
    return re.compile(f"[{''.join(parts)}]")


def _without(low: int, high: int, skip: Tuple[int, ...]) -> List[Tuple[int, int]]:
    out, start = [], low
    for cp in sorted(c for c in skip if low <= c <= high):
        if start < cp:
            out.append((start, cp - 1))
        start = cp + 1
    if start <= high:
        out.append((start, high))
    return out


_SINGLE_LINE = _class(())
_MULTI_LINE = _class((0x0A,))
_ALREADY_ESCAPED = _class((0x0A, 0x5C))
_NAMED = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: "re.Match[str]") -> str:
    ch = match.group(0)
    named = _NAMED.get(ch)
    if named is not None:
        return named
    cp = ord(ch)
    if cp < 0x100:
        return f"\\x{cp:02x}"
    if cp < 0x10000:
        return f"\\u{cp:04x}"
    return f"\\u{{{cp:x}}}"


def visible_text(text: str, multiline: bool = False) -> str:
    """The text with every control, invisible and direction-changing character, and every backslash, escaped.
    ``multiline`` keeps line feeds as line breaks (code shown as code)."""
    pattern = _MULTI_LINE if multiline else _SINGLE_LINE
    return pattern.sub(_escape, text) if pattern.search(text) else text


def still_visible(text: str) -> str:
    """Text the daemon already rendered visible: escapes only what is still raw, leaving its backslashes (and line
    feeds) alone, so a correct rendering passes unchanged and a faulty one cannot reach the terminal raw."""
    return _ALREADY_ESCAPED.sub(_escape, text) if _ALREADY_ESCAPED.search(text) else text


def escaped_code_points() -> List[Tuple[int, int]]:
    """Every escaped range, merged and sorted (what the parity spec compares with the daemon's table)."""
    ranges = sorted(r for _name, rs in RULES for r in rs)
    merged: List[Tuple[int, int]] = []
    for low, high in ranges:
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged

