"""Turn untrusted bytes into text, saying how: BOM, then a declared charset, then a measured heuristic.

The portal serves the same page as UTF-8 or windows-1251; a wrong guess would silently store
mojibake that no citation can ever match, so an undecidable file is an error, never a default.
"""

from __future__ import annotations

import codecs
import re

from corpus.model import IngestFailure

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


def _heuristic(data: bytes) -> tuple[str, str]:
    best: tuple[float, str] | None = None
    sample = data[:200_000]
    for enc in ("cp1251", "koi8_r"):
        score = _cyrillic_score(sample.decode(enc, errors="replace"))
        if best is None or score > best[0]:
            best = (score, enc)
    if best is None or best[0] < 0.35:
        raise IngestFailure(
            "encoding_undetermined",
            "no BOM, no declared charset, not UTF-8 and no single-byte Cyrillic encoding fits",
            None,
        )
    name = "windows-1251" if best[1] == "cp1251" else "koi8-r"
    return data.decode(best[1], errors="strict" if best[1] == "koi8_r" else "replace"), f"{name} (heuristic)"


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
    for bom, enc in _BOMS:
        if data.startswith(bom):
            text, how = _strict(data[len(bom) :], enc, "BOM")
            check_not_mojibake(text)
            return text, how
    if markup:
        head = data[:4096]
        m = _XML_DECL.match(head) or _META.search(head)
        if m:
            declared = _charset_name(m.group(1))
            if declared is not None:
                text, how = _strict(data, declared, "meta")
                check_not_mojibake(text)
                return text, how
    try:
        text, how = data.decode("utf-8"), "utf-8 (valid UTF-8)"
    except UnicodeDecodeError:
        text, how = _heuristic(data)
    check_not_mojibake(text)
    return text, how
