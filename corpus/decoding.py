"""Turn untrusted bytes into text, saying how: BOM, then a declared charset, then a measured heuristic.

The portal serves the same page as UTF-8 or windows-1251; a wrong guess would silently store
mojibake that no citation can ever match, so an undecidable file is an error, never a default.

Bytes that are not valid UTF-8 are weighed before any single-byte code page is tried: a UTF-8 text with a
few stray bytes (one ``\xff`` in a Romanian code) is read as UTF-8, the stray bytes shown as U+FFFD and
reported with their offsets, never re-decoded as KOI8-R; a text with a real share of both UTF-8 and other
bytes (windows-1251 pasted into UTF-8) is refused as mixed. A single-byte reading must give words in one
alphabet: Latin letters glued to Cyrillic ones ("Divorеёul") are what a wrong code page makes.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from corpus.model import IngestFailure

MAX_STRAY_BYTES = 8  # "UTF-8 except for a few bytes": more than this and the file is not one encoding
# A valid UTF-8 sequence of two to four bytes. In windows-1251 text a few occur by accident (a capital
# followed by a closing quote: "РФ»" is D0 A4 BB... "Ф»" = DE BB): far fewer than one in fifty of its
# non-ASCII bytes, which is the share below which they are taken for accidents.
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
_WORD = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
_CYR = re.compile(r"[\u0400-\u04ff]")
_MIN_LETTERS = 20  # fewer single-byte "letters" than this do not make a Russian text


@dataclass(frozen=True)
class Decoded:
    """The text, how it was decoded, and the offsets of bytes that were not UTF-8 (each now U+FFFD)."""

    text: str
    how: str
    stray_bytes: tuple[int, ...] = ()

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-:]+)""", re.I)
_XML_DECL = re.compile(rb"""^<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_\-]+)["']""")
# Frequent lower-case Russian letters; in windows-1251 they are bytes 0xE0-0xFF, in KOI8-R
# the same letters land in 0xC0-0xDF, which decode as capitals under windows-1251.
_RU_COMMON = frozenset("оеаинтсрвлкмдпуяыь")
# UTF-8 Cyrillic read as Latin-1 ("Ð¡Ñ") or as windows-1251 ("РЎС‚"): a lead letter, then a
# continuation byte shown as punctuation or a non-Russian Cyrillic letter.
_CONT_1251 = "".join(c for c in bytes(range(0x80, 0xC0)).decode("cp1251", errors="ignore") if c not in "Ёё")
_MOJIBAKE = re.compile("[ÐÑ][\u0080-\u00bf]|[РС][" + re.escape(_CONT_1251) + "]")
_MOJIBAKE_LEADS = ("\u00d0", "\u00d1", "\u0420", "\u0421")  # Ð Ñ Р С: the first letter of every _MOJIBAKE hit
_DISPLAY = {"cp1251": "windows-1251", "koi8-r": "koi8-r", "utf-8": "utf-8"}


def _charset_name(raw: bytes) -> str | None:
    try:
        return codecs.lookup(raw.decode("ascii")).name
    except (LookupError, UnicodeDecodeError):
        return None


def _strict(data: bytes, encoding: str, how: str) -> tuple[str, str]:
    try:
        return data.decode(encoding), f"{_DISPLAY.get(encoding, encoding)} ({how})"
    except UnicodeDecodeError as exc:
        raise IngestFailure(
            "encoding_mismatch",
            f"bytes are not valid {encoding} although {how} says so: {exc.reason}",
            f"byte {exc.start}",
        ) from None


def _cyrillic_score(text: str) -> float:
    letters = [c for c in text if "\u0400" <= c <= "\u04ff"]
    if not letters:
        return 0.0
    return sum(1 for c in letters if c in _RU_COMMON) / len(letters)


def _heuristic(data: bytes) -> tuple[str, str] | None:
    """The single-byte Cyrillic code page the bytes read best in, or None when none reads as Russian text."""
    best: tuple[float, str] | None = None
    sample = data[:200_000]
    for enc in ("cp1251", "koi8_r"):
        score = _cyrillic_score(sample.decode(enc, errors="replace"))
        if best is None or score > best[0]:
            best = (score, enc)
    if best is None or best[0] < 0.35 or not _russian_words(sample.decode(best[1], errors="replace")):
        return None
    name = "windows-1251" if best[1] == "cp1251" else "koi8-r"
    return data.decode(best[1], errors="strict" if best[1] == "koi8_r" else "replace"), f"{name} (heuristic)"


def _russian_words(text: str) -> bool:
    """Whether the Cyrillic letters make words of their own: some twenty letters at least, and hardly ever inside
    a Latin word. Reading Latin-script bytes (UTF-8 Romanian, windows-1250, one stray byte in an ASCII file) in a
    Cyrillic code page glues Cyrillic letters to Latin ones ("Divorеёul"); a Russian text writes its rare Latin
    words apart."""
    letters = cyrillic_words = mixed = 0
    for word in _WORD.findall(text):
        cyrillic = len(_CYR.findall(word))
        if cyrillic:
            letters += cyrillic
            cyrillic_words += 1
            if _LATIN.search(word):
                mixed += 1
    return letters >= _MIN_LETTERS and mixed * 20 <= cyrillic_words


def _stray_offsets(data: bytes) -> tuple[str, tuple[int, ...]]:
    """UTF-8 text with each invalid byte sequence replaced by U+FFFD, and where each began."""
    parts: list[str] = []
    offsets: list[int] = []
    pos = 0
    while True:
        try:
            parts.append(data[pos:].decode("utf-8"))
            return "".join(parts), tuple(offsets)
        except UnicodeDecodeError as exc:
            parts.append(data[pos : pos + exc.start].decode("utf-8"))
            parts.append("\ufffd")
            offsets.append(pos + exc.start)
            pos += exc.end


def _not_utf8(data: bytes, error: UnicodeDecodeError) -> Decoded:
    """Bytes that failed as UTF-8: a few stray bytes in UTF-8 text, two encodings mixed, or a code page."""
    non_ascii = len(data) - len(data.translate(None, bytes(range(0x80, 0x100))))
    sequences = _UTF8_SEQUENCE.findall(data)
    stray = non_ascii - sum(map(len, sequences))
    if sequences and stray <= MAX_STRAY_BYTES and len(sequences) >= stray:
        return _with_stray_bytes(data)
    if sequences and len(sequences) * 50 >= stray:
        raise IngestFailure(
            "mixed_encoding",
            f"not one encoding: {len(sequences)} UTF-8 characters and {stray} bytes that are not UTF-8 "
            "(UTF-8 mixed with a single-byte code page such as windows-1251?); save the file in one encoding",
            f"byte {error.start}",
        )
    single = _heuristic(data)
    if single is not None:
        return Decoded(*single)
    if stray <= MAX_STRAY_BYTES:
        return _with_stray_bytes(data)
    raise IngestFailure(
        "encoding_undetermined",
        "no BOM, no declared charset, not UTF-8 and no single-byte Cyrillic encoding fits",
        f"byte {error.start}",
    )


def _with_stray_bytes(data: bytes) -> Decoded:
    text, offsets = _stray_offsets(data)
    shown = ", ".join(map(str, offsets))
    return Decoded(text, f"utf-8 ({len(offsets)} invalid byte sequence(s) at byte {shown} shown as U+FFFD)",
                   offsets)


def check_not_mojibake(text: str) -> None:
    """UTF-8 read as Latin-1/1251 and saved again: decodes fine, reads as garbage."""
    sample = text[:64_000]
    # len(utf-8 bytes) - len(chars) counts the non-ASCII letters (each Cyrillic letter is 2 bytes)
    non_ascii = len(sample.encode("utf-8")) - len(sample)
    # Every hit starts with one of four letters: counting them (in C) bounds the hits, and in a genuine
    # Russian text the capitals Р and С are far too rare for the regex scan to be worth running.
    bound = sum(map(sample.count, _MOJIBAKE_LEADS))
    hits = len(_MOJIBAKE.findall(sample)) if bound > 20 and bound * 10 > non_ascii else 0
    if hits > 20 and hits * 10 > non_ascii:
        m = _MOJIBAKE.search(sample)
        raise IngestFailure(
            "mis_encoded",
            "text looks like UTF-8 decoded with a single-byte code page (mojibake such as 'Ð¡Ñ‚')",
            f"char {m.start() if m else 0}",
        )
    bad = sample.count("\ufffd")
    if bad > 10:
        raise IngestFailure("mis_encoded", f"{bad} replacement characters in the text", f"char {sample.find(chr(0xFFFD))}")


def decode(data: bytes, *, markup: bool) -> tuple[str, str]:
    """Return (text, how). ``markup`` lets an HTML meta / XML declaration name the charset."""
    decoded = decode_bytes(data, markup=markup)
    return decoded.text, decoded.how


def decode_bytes(data: bytes, *, markup: bool) -> Decoded:
    """Like ``decode``, with the offsets of stray bytes in an otherwise UTF-8 text, for the ingest to report."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            text, how = _strict(data[len(bom) :], enc, "BOM")
            check_not_mojibake(text)
            return Decoded(text, how)
    if markup:
        head = data[:4096]
        m = _XML_DECL.match(head) or _META.search(head)
        if m:
            declared = _charset_name(m.group(1))
            if declared is not None:
                text, how = _strict(data, declared, "meta")
                check_not_mojibake(text)
                return Decoded(text, how)
    try:
        decoded = Decoded(data.decode("utf-8"), "utf-8 (valid UTF-8)")
    except UnicodeDecodeError as exc:
        decoded = _not_utf8(data, exc)
    check_not_mojibake(decoded.text)
    return decoded
