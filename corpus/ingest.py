"""Files and folders of official texts -> Documents, with every failure kept as an IngestError.

One bad file never stops a batch: each reader raises :class:`IngestFailure` with a reason and a
position, and the generator yields it as a record while the walk goes on. Nothing is written here,
so nothing half-written can reach the warehouse views.
"""

from __future__ import annotations

import gc
import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lxml import etree

from corpus.acts import act_for_name, act_for_ru_law, enacted_in_parts, ro_act_written, ru_law_number
from corpus.akn import KIND_MAP, parse_akn
from corpus.decoding import decode_bytes
from corpus.docx import docx_lines
from corpus.limits import DEFAULT_LIMITS, Limits, parse_xml, read_file
from corpus.model import IN_FORCE, REPEALED, Document, Draft, IngestError, IngestFailure, Unit, finish
from corpus.ro.markdown import parse_markdown
from corpus.ro.records import in_force_date, parse_record
from corpus.ru.government import ISSUER as GOVERNMENT
from corpus.ru.government import looks_like_government_resolution, split_annexes
from corpus.ru.html import read_portal_html
from corpus.ru.resolution import iso_date, looks_like_resolution, parse_points, resolution_meta
from corpus.ru.structure import ARTICLE, Line, clean, lines_from_text, parse_articles

SKIP_NAMES = re.compile(r"^(?:README|SOURCES|LICENSE|CHANGELOG)\b", re.I)
SUFFIXES = frozenset({".html", ".htm", ".txt", ".docx", ".md", ".xml", ".json", ".jsonl"})
_SLUG = re.compile(r"[^0-9a-zа-яё]+")
_RU_TYPE_LINE = re.compile(r"^(ФЕДЕРАЛЬНЫЙ\s+КОНСТИТУЦИОННЫЙ\s+ЗАКОН|ФЕДЕРАЛЬНЫЙ\s+ЗАКОН|ЗАКОН|КОДЕКС.*)$")
_RU_NUMBER = re.compile(r"(?:№|\bN)\s*(\d+(?:-[IVX]+|-ФЗ|-ФКЗ|-\d)?)\b")
_GK_PART = re.compile(r"^ЧАСТЬ\s+(ПЕРВАЯ|ВТОРАЯ|ТРЕТЬЯ|ЧЕТВЕРТАЯ)\s*$", re.I)
_PART_NO = {"первая": "1", "вторая": "2", "третья": "3", "четвертая": "4"}
_SIGNED = re.compile(r"(\d{1,2}\s+[а-я]+\s+\d{4})\s*(?:года|г\.)?\s*(?:№|N)\s*(\d+-ФЗ)")
_REDACTION = re.compile(r"\bот\s+(\d{2})\.(\d{2})\.(\d{4})")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _slug(text: str) -> str:
    return _SLUG.sub("-", text.lower()).strip("-")[:80] or "doc"


@contextmanager
def collector_paused() -> Iterator[None]:
    """A parse allocates ~100k acyclic objects (units, strings) that reference counting frees; letting the
    cyclic collector rescan them on every allocation burst costs a third of the ingest time."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _parse_one(path: Path, source: str, limits: Limits) -> list[Document | IngestError]:
    with collector_paused():
        return list(parse_file(path, source, limits=limits))


_ACT_KINDS = frozenset({"code", "law", "constitution", "regulation"})


def unidentified(document: Document, source: str) -> IngestError | None:
    """The report of a stored document nothing can cite: a code, law or rules of Russia or Romania whose act the
    registry does not identify (every citation of it would be unknown_act), or a Russian resolution read without
    the number and date it is cited by. The document is stored all the same: the report says what to fix.
    ``corpus.tables.parse_compact`` (what an ingest runs) adds it to the batch's errors; ``parse_path`` yields
    what the readers read, one record per document or failure."""
    if document.jurisdiction not in ("ru", "ro"):
        return None
    title = document.title
    if document.kind in _ACT_KINDS and document.act is None:
        detail = (f"the act registry identifies no act by the title read, {title!r}: stored as {document.doc_id}, "
                  "its citations will be unknown_act until the registry (citations/data/acts.yaml) lists it")
    elif document.kind == "resolution" and (document.number is None or document.date is None):
        missing = " and ".join(w for w, v in (("number", document.number), ("date", document.date)) if v is None)
        detail = (f"a resolution read without its {missing}, titled {title!r}: stored as {document.doc_id}, "
                  "citations of it cannot be resolved")
    else:
        return None
    return IngestError(source, document.file, "unknown_act", detail, None)


def parse_path(path: Path, source: str, *, limits: Limits = DEFAULT_LIMITS,
               follow_links: bool = False) -> Iterator[Document | IngestError]:
    """Every document under ``path`` (a file or a folder, recursively, in a stable order).

    A symbolic link in a folder that leads out of it is not read unless ``follow_links``: a link to
    /etc/passwd dropped into the inbox becomes an error row naming it, never a document. (A file given as
    the source itself is read wherever it points: the source names it.)"""
    path = Path(path)
    if path.is_dir():
        files, outside = source_files(path, follow_links)
        for link, target in outside:
            yield IngestError(source, str(link), "link_outside_source",
                              f"a symbolic link to {target}, outside the source folder: not followed (give the "
                              "source follow_links: true to read it)", None)
        for f in files:
            if SKIP_NAMES.match(f.name):
                continue
            yield from _parse_one(f, source, limits)
    elif path.exists():
        yield from _parse_one(path, source, limits)
    else:
        yield IngestError(source, str(path), "not_found", "no such file or folder", None)


def source_files(folder: Path, follow_links: bool = False) -> tuple[list[Path], list[tuple[Path, Path]]]:
    """The visible files under ``folder`` in a stable order, and the links leading out of it (link, target)
    that are left unread; with ``follow_links`` every link to a file is read. Folders reached through a link
    are never walked (``rglob`` does not descend into them)."""
    root = folder.resolve()
    files: list[Path] = []
    outside: list[tuple[Path, Path]] = []
    for p in sorted(folder.rglob("*")):
        if p.name.startswith("."):
            continue
        if p.is_symlink():
            target = p.resolve()
            if not follow_links and not target.is_relative_to(root):
                outside.append((p, target))
                continue
        if p.is_file():
            files.append(p)
    return files, outside


def parse_file(path: Path, source: str, *, limits: Limits = DEFAULT_LIMITS) -> Iterator[Document | IngestError]:
    suffix = path.suffix.lower()
    try:
        if suffix not in SUFFIXES:
            raise IngestFailure("unsupported_format", f"unknown extension {suffix or '(none)'}; expected one of "
                                f"{', '.join(sorted(SUFFIXES))}")
        if suffix == ".docx":
            data = read_file(path, limits)
            yield from _ru_documents(docx_lines(path, limits), [], None, path, source, _sha(data), "docx", None)
            return
        data = read_file(path, limits)
        if not data or data.isspace():
            raise IngestFailure("empty", "the file is empty", "byte 0")
        if suffix in (".json", ".jsonl"):
            yield from _records(data, path, source, jsonl=suffix == ".jsonl")
            return
        if suffix == ".xml":
            yield _akn_document(data, path, source)
            return
        decoded = decode_bytes(data, markup=suffix in (".html", ".htm"))
        text, how = decoded.text, decoded.how
        if suffix in (".html", ".htm"):
            enc = how.split(" ", 1)[0]
            direct = "(BOM)" not in how and enc in ("utf-8", "windows-1251", "koi8-r") and not decoded.stray_bytes
            lines, titles, nd = read_portal_html(text, data if direct else None, enc if direct else None)
            yield from _ru_documents(lines, titles, nd, path, source, _sha(data), "portal-html", how)
        elif suffix == ".md" and not _mostly_cyrillic(text):
            yield _ro_markdown_document(text, path, source, _sha(data), how)
        else:
            yield from _ru_documents(lines_from_text(text), [], None, path, source, _sha(data), "text", how)
        if decoded.stray_bytes:
            yield _stray_bytes_error(source, path, decoded.stray_bytes)
    except IngestFailure as exc:
        yield IngestError(source, str(path), exc.reason, exc.detail, exc.position)
    except (OSError, etree.Error, ValueError, RecursionError, MemoryError) as exc:
        yield IngestError(source, str(path), "unreadable", f"{type(exc).__name__}: {exc}", None)


_CYRILLIC = re.compile("[\u0400-\u04ff]")


def _stray_bytes_error(source: str, path: Path, offsets: Sequence[int]) -> IngestError:
    """The report of a document stored with a few bytes that were not UTF-8 (each read as U+FFFD)."""
    shown = ", ".join(map(str, offsets))
    return IngestError(source, str(path), "invalid_utf8",
                       f"{len(offsets)} byte sequence(s) not valid UTF-8, at byte {shown}: read as UTF-8 with each "
                       "shown as U+FFFD (the document is stored; fix the bytes and ingest again)",
                       f"byte {offsets[0]}")


def _mostly_cyrillic(text: str) -> bool:
    sample = text[:20000]
    return len(_CYRILLIC.findall(sample)) > len(sample) * 0.2


def _finish(doc_id: str, act: str | None, raw: Sequence[Draft], file: Path) -> tuple[Unit, ...]:
    if not raw:
        raise IngestFailure("no_units", "no articles or numbered points found: not a document this ingester reads",
                            None)
    return finish(doc_id, act, raw)


# ---------------------------------------------------------------- Russia
def _ru_documents(lines: list[Line], titles: list[str], nd: str | None, path: Path, source: str, digest: str,
                  fmt: str, how: str | None) -> Iterator[Document]:
    """One document, or a Government decree and each set of rules it approves."""
    head = "\n".join([ln.text for ln in lines[:40] if ln.text][:15])
    if looks_like_government_resolution(head):
        yield from _government_documents(lines, path, source, digest, fmt, how)
    else:
        yield _ru_document(lines, head, titles, nd, path, source, digest, fmt, how)


def _government_documents(lines: list[Line], path: Path, source: str, digest: str, fmt: str,
                          how: str | None) -> Iterator[Document]:
    own, annexes = split_annexes(lines)
    meta = resolution_meta(own)
    base = (f"ru/government/{meta.date}/{meta.number}" if meta.date and meta.number
            else f"ru/government/{_slug(path.stem)}")
    version = f"{meta.date}+{digest[:8]}" if meta.date else digest[:16]
    found = 0
    for k, (title, piece) in enumerate([(meta.title, own)] + [(a.title, a.lines) for a in annexes]):
        raw = parse_points(piece)
        if not raw:  # a decree that only approves its annex numbers nothing of its own
            continue
        found += 1
        act = act_for_name(title, "ru") if k and title else None
        doc_id = act or (f"{base}/annex-{k}" if k else base)
        yield Document(doc_id, "ru", act, "regulation" if k else "resolution", GOVERNMENT, None, meta.number,
                       meta.date, title or f"{meta.title}. Приложение {k}", version, IN_FORCE, source, str(path),
                       digest, finish(doc_id, act, raw), how, fmt)
    if not found:
        raise IngestFailure("no_units", "a Government resolution without numbered points in it or its annexes",
                            None)


def _ru_document(lines: list[Line], head: str, titles: list[str], nd: str | None, path: Path, source: str,
                 digest: str, fmt: str, how: str | None) -> Document:
    if looks_like_resolution(head):
        meta = resolution_meta(lines)
        raw = parse_points(lines)
        doc_id = (f"ru/vs-plenum/{meta.date}/{meta.number}" if meta.date and meta.number
                  else f"ru/resolution/{_slug(path.stem)}")
        return Document(doc_id, "ru", None, "resolution", "Пленум Верховного Суда Российской Федерации", meta.court,
                        meta.number, meta.date, meta.title, f"{meta.date}+{digest[:8]}" if meta.date else digest[:16], IN_FORCE, source, str(path),
                        digest, _finish(doc_id, None, raw, path), how, fmt)
    raw = parse_articles(lines)
    # looked for only here: a resolution has no article, and the scan would read every one of its lines
    first_article = next((i for i, ln in enumerate(lines) if ARTICLE.match(ln.text)), None)
    header = [ln.text for ln in (lines[:first_article] if first_article is not None else lines[:80]) if ln.text]
    title, kind_word, number, part = _ru_title(titles or header, header)
    lower = title.lower()
    kind = "constitution" if "конституция" in lower else "code" if "кодекс" in lower else "law"
    # the portal's header lists amending laws ("в редакции ... № 77-ФЗ"): its own number is in the signature
    signed_all = list(_SIGNED.finditer("\n".join(ln.text for ln in lines[-80:])))
    signed = signed_all[-1] if signed_all else None
    date = iso_date(" ".join(header[:6])) if fmt != "portal-html" else None
    if signed and (fmt == "portal-html" or not number):
        number = signed.group(2)
    if signed and date is None:
        date = iso_date(signed.group(1))
    act = act_for_name(title, "ru") if kind != "law" else act_for_ru_law(kind_word, number, title)
    if part and act is not None and not enacted_in_parts(act):
        part = None  # "ЧАСТЬ ПЕРВАЯ" over the Labour Code's first articles is a heading, not a law of its own
    redactions = [f"{y}-{m}-{d}" for d, m, y in _REDACTION.findall(" ".join(header))]
    version = f"{max(redactions)}+{digest[:8]}" if redactions else digest[:16]
    if act is not None:
        doc_id = f"{act}/part-{part}" if part else act
    elif nd:
        doc_id = f"ru/pravo/{nd}"
    else:
        doc_id = f"ru/{kind}/{_slug(path.stem)}"
    display = f"{title}. Часть {part}" if part else title
    # the portal keeps a repealed code's page, headed "Утратил силу - Федеральный закон от ... № 311-ФЗ"
    status = REPEALED if any(_ACT_REPEALED.match(t) for t in header[:8]) else IN_FORCE
    return Document(doc_id, "ru", act, kind, None, None, number, date, display, version, status, source, str(path),
                    digest, _finish(doc_id, act, raw, path), how, fmt)


_ACT_REPEALED = re.compile(r"^\(?\s*(?:Документ\s+|Кодекс\s+|Закон\s+)?утратил[аио]?\s+силу\b", re.I)


def _ru_title(titles: list[str], header: list[str]) -> tuple[str, str, str | None, str | None]:
    """(title, type word, number, Civil Code part) from the title lines before the first article."""
    number = None
    for t in header[:15]:
        # an amendment list ("(В редакции ... № 77-ФЗ)") names other laws' numbers, never the act's own
        m = _RU_NUMBER.search(t) if t[:1] != "(" and "редакц" not in t and "ред." not in t else None
        if m:
            number = m.group(1)
            break
    parts = [t for t in titles if _GK_PART.match(t)]
    part = _PART_NO.get(_GK_PART.match(parts[0]).group(1).lower()) if len(parts) == 1 else None  # type: ignore[union-attr]
    for i, t in enumerate(titles):
        if "кодекс" in t.lower() or "конституция" in t.lower():
            # a text export opens with the act quoted in a sentence ('"Гражданский кодекс ..." от 30.11.1994
            # N 51-ФЗ'); the act's own title line below it is in capitals
            j = next((k for k in range(i, len(titles))
                      if titles[k].isupper() and ("КОДЕКС" in titles[k] or "КОНСТИТУЦИЯ" in titles[k])), i)
            return _title_block(titles, j, code=True), "кодекс", number, part
        m = _RU_TYPE_LINE.match(t)
        if m:
            name = _title_block(titles, i + 1, code=False) if i + 1 < len(titles) else ""
            name = name.capitalize() if name.isupper() else name
            return name or t, t, ru_law_number(number) if number and "-" in number else number, None
    return (clean(titles[0]) if titles else ""), "", number, part


# Lines that end a title: what follows it in every export (adoption, amendment list, dates, numbers, divisions)
_TITLE_END = re.compile(r"^(?:\(|Принят|Одобрен|Список\s+изменяющих|Документ\s+предоставлен|от\s+\d|(?:N|№)\s*\d|"
                        r"\d{1,2}\s+[а-яё]+\s+\d{4}|\d{2}\.\d{2}\.\d{4}|(?:Статья|Глава|Раздел|Часть|Подраздел)\s|"
                        r"(?:ОБЩАЯ|ОСОБЕННАЯ)\s+ЧАСТЬ|РОССИЙСКАЯ\s+ФЕДЕРАЦИЯ$)", re.I)
_TITLE_LINES = 6


def _title_block(titles: list[str], j: int, *, code: bool) -> str:
    """The title that starts on line ``j``, with the lines its format split it over: a DOCX export puts each
    line of a title in capitals in a paragraph of its own ("КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ" / "ОБ АДМИНИСТРАТИВНЫХ
    ПРАВОНАРУШЕНИЯХ", "ГРАЖДАНСКИЙ ПРОЦЕССУАЛЬНЫЙ" / "КОДЕКС ..."), a text file wraps a title in mixed case
    with the next line going on in lower case, the portal splits one over title paragraphs. A title in capitals
    goes on over lines in capitals, one in mixed case over lines opening in lower case, until a line that
    follows every title (adoption, amendments, a date, a number, a division); a code's title stops as soon as
    the registry knows it, so "ЖИЛИЩНЫЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ" never takes in the heading below it."""
    first = titles[j]
    if _TITLE_END.match(first) or _GK_PART.match(first):
        return ""
    block = [first]
    upper = first.isupper()
    if code and upper and first.startswith(("КОДЕКС", "КОНСТИТУЦИЯ")) and j > 0 and _continues(titles[j - 1], True):
        block.insert(0, titles[j - 1])  # the adjectives on the line before: "ГРАЖДАНСКИЙ ПРОЦЕССУАЛЬНЫЙ"
    for nxt in titles[j + 1 : j + _TITLE_LINES]:
        if code and act_for_name(clean(" ".join(block)), "ru") is not None:
            break
        if not _continues(nxt, upper):
            break
        block.append(nxt)
    return clean(" ".join(block))


def _continues(line: str, upper: bool) -> bool:
    """Whether a line can go on a title in capitals (``upper``) or in mixed case."""
    if not line or _TITLE_END.match(line) or _GK_PART.match(line) or _RU_TYPE_LINE.match(line):
        return False
    return line.isupper() if upper else line[0].islower()


# ---------------------------------------------------------------- Romania
def _ro_markdown_document(text: str, path: Path, source: str, digest: str, how: str) -> Document:
    title, raw = parse_markdown(text)
    header = text[:3000]
    own = _ro_own_act(header)
    act = act_for_name(title, "ro") or (own[0] if own else None)
    lower = title.lower()
    kind = "constitution" if "constitu" in lower else "code" if "cod" in lower else "law"
    doc_id = act or f"ro/{kind}/{_slug(path.stem)}"
    date = None
    m = re.search(r"(?:Forma\s+\w+\s+la|din)\s+(\d{1,2}\s+\w+\s+\d{4})", header)
    if m:
        from corpus.ro.records import DATE as RO_DATE

        d = RO_DATE.search("din " + m.group(1))
        if d:
            from corpus.ro.records import _RO_MONTHS

            date = f"{int(d.group(3)):04d}-{_RO_MONTHS[d.group(2).lower()]:02d}-{int(d.group(1)):02d}"
    number = own[1] if own else None
    version = f"{date}+{digest[:8]}" if date else digest[:16]
    return Document(doc_id, "ro", act, kind, None, None, number, date, title, version, IN_FORCE, source, str(path),
                    digest, _finish(doc_id, act, raw, path), how, "markdown")


# lines about a later act: the consolidating, amending or implementing one, never the code's own
_RO_LATER_ACT = re.compile(r"consolidat|actualizat|modificat|completat|republicat|publicat|norme|aprobat|\bprin\b",
                           re.I)


def _ro_own_act(header: str) -> tuple[str, str] | None:
    """(act key, number) of the act a Romanian code or law was adopted as ("OUG nr. 195/2002", "Legea 53 din 2003",
    "Parte integrantă din Ordonanţă de urgenţă 57/2019"), from the lines before its first heading below the title:
    the first act named on a line that is not about a later act."""
    for line in header.splitlines()[1:15]:
        if line.startswith("##"):
            break
        found = ro_act_written(line)
        if found is not None and not _RO_LATER_ACT.search(line[: found[0]]):
            return found[1], found[2]
    return None


def _records(data: bytes, path: Path, source: str, *, jsonl: bool) -> Iterator[Document | IngestError]:
    decoded = decode_bytes(data, markup=False)
    text = decoded.text
    if decoded.stray_bytes:
        yield _stray_bytes_error(source, path, decoded.stray_bytes)
    items: list[tuple[str, Any]] = []
    if jsonl:
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                items.append((f"line {i}", json.loads(line)))
            except json.JSONDecodeError as exc:
                yield IngestError(source, str(path), "malformed_json", exc.msg, f"line {i}")
    else:
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise IngestFailure("malformed_json", exc.msg, f"line {exc.lineno}") from None
        if isinstance(obj, dict) and "Text" in obj:
            items.append(("record 1", obj))
        elif isinstance(obj, list) and obj and all(isinstance(o, dict) and "Text" in o for o in obj):
            items.extend((f"record {i}", o) for i, o in enumerate(obj, 1))
        else:
            raise IngestFailure("unsupported_format", _unsupported_json(obj), "byte 0")
    for position, rec in items:
        try:
            if not isinstance(rec, dict):
                raise IngestFailure("malformed_record", "expected a JSON object", position)
            digest = _sha(json.dumps(rec, sort_keys=True, ensure_ascii=False).encode())
            r = parse_record(rec, position)
            # the edition is the record's date in force: a newer consolidated version of an act is a later one
            edition = in_force_date(rec.get("DataVigoare")) or r.date
            yield Document(r.doc_id, "ro", r.act, r.kind, r.issuer, r.court, r.number, r.date, r.title,
                           f"{edition}+{digest[:8]}" if edition else digest[:16], IN_FORCE, source, f"{path}#{position}",
                           digest, r.units, "utf-8 (JSON)", "legislatie-json")
        except IngestFailure as exc:
            yield IngestError(source, str(path), exc.reason, exc.detail, exc.position or position)


def _unsupported_json(obj: object) -> str:
    """Say what was expected and what the file holds instead, so a user knows which file to drop in.

    A pre-parsed act (``preamble`` / ``sections`` / ``chapters`` / ``articles``, as third parties export the
    portal's codes) is deliberately not read: it carries neither title nor number, so the act it holds
    cannot be identified, and it duplicates the official page it was made from.
    """
    expected = "expected a legislatie.just.ro record (a JSON object with Titlu and Text) or a list of them"
    if isinstance(obj, dict):
        keys = ", ".join(sorted(obj)[:8]) or "none"
        if {"sections", "chapters", "articles"} & set(obj):
            return (f"{expected}; this is a pre-parsed act (keys {keys}) without the act's title or number: "
                    "ingest the official portal HTML it was made from instead")
        return f"{expected}; found an object with keys {keys}"
    return f"{expected}; found a JSON {type(obj).__name__}"


# ---------------------------------------------------------------- Akoma Ntoso
def _akn_document(data: bytes, path: Path, source: str) -> Document:
    root = parse_xml(data)
    d = parse_akn(root)
    jurisdiction = (d.country or "xx").lower()[:8]
    doc_id = f"akn:{d.work_uri}" if d.work_uri else f"akn/{_slug(path.stem)}"
    kind = KIND_MAP.get(d.doc_type, d.doc_type)
    act = act_for_name(d.title, jurisdiction) if jurisdiction in ("ru", "ro") else None
    digest = _sha(data)
    # the expression's date is its edition: of two expressions of a work, the later one is current
    version = f"{d.expression_date}+{digest[:8]}" if d.expression_date else digest[:16]
    return Document(doc_id, jurisdiction, act, kind, None, None, d.number, d.date, d.title, version, IN_FORCE,
                    source, str(path), digest, _finish(doc_id, act, d.units, path), "xml", "akoma-ntoso")
