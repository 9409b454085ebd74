"""Russian citation grammar: structural words, numbers and connectors, over the folded text.

Built from how Russian legal writing composes a reference (подпункт < пункт < часть < статья, then the act in
the genitive), not from any list of sample answers, so unseen combinations parse the same way.
"""

from __future__ import annotations

import re
from functools import lru_cache

from citations.text import DATE

PART_WORD = r"(?:подпункт[а-я]*|подп\.|пп\.|пункт[а-я]*|п\.|част[а-я]*|ч\.|абзац[а-я]*|абз\.)"
# "частью первой", "части второй и третьей": a part by its ordinal word, as court decisions write it
_ORDINALS = ("перв", "втор", "трет", "четверт", "пят", "шест", "седьм", "восьм", "девят", "десят")
ORDINAL = r"(?:перв|втор|трет|четверт|пят|шест|седьм|восьм|девят|десят)(?:ая|ой|ую|ые|ых|ым|ыми|ья|ьей|ью|ьи|ьих|ое|ого)(?![а-я])"
PART_VAL = rf"(?:\d+(?:\.\d+)*(?![\d.]\d)|\"[а-я]\"|[а-я]\)(?!\w)|{ORDINAL})"
PART_LIST = rf"{PART_VAL}(?:\s*(?:,|и|или)\s*{PART_VAL})*"
PARTS = rf"(?:{PART_WORD}\s*{PART_LIST}\s*,?\s+)*"
# "статей" is the plural genitive of "статья"
ART_WORD = r"(?:ст\.\s*ст\.|стст\.|ст\.|стат(?:ь[яиеюйё][а-я]*|ей)(?![а-я])|ст(?=[ \t]+\d))"
NUM = r"\d+(?:\.\d+)*(?![\d])"
_NOT_ARTICLE = (
    r"(?!\s*(?:%|процент|руб|р\.|коп|год|лет|дн|день|месяц|недел|час(?!т)|минут|тыс|млн|млрд|раз|человек|кв\.|м2|г\.|"
    r"января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря))"
)
_BRACKET_PART = rf"(?:\s*\(\s*(?:част[а-я]*|ч\.|пункт[а-я]*|п\.)\s*{PART_VAL}(?:\s*(?:,|и)\s*{PART_VAL})*\s*\))"
ITEM = rf"{NUM}(?:\s*-\s*{NUM})?{_NOT_ARTICLE}{_BRACKET_PART}?"
# A list may go on over a line break after "," or "и", not after ";": that ends an entry of a numbered list
ITEMS = rf"{ITEM}(?:\s*(?:(?:,|и|или)\s*|;[ \t]*)(?:ст\.\s*)?{ITEM})*"

# ---------------------------------------------------------------- acts known by type and number
ANY_DATE = rf"(?:{DATE}|дата|дд\.мм\.гггг(?:\s*г\.)?)"  # "от дата": a date the publisher anonymised
LAW = (
    r"(?P<lawhead>(?:федеральн[а-я]*\s+(?:конституционн[а-я]*\s+)?(?:закон[а-я]{0,3}|фз)|закон[а-я]{0,3}|фз)(?![а-я])(?:\s+(?:рф|российской\s+федерации|рсфср)(?![а-я]))?)"
    rf"(?:\s+от\s+{ANY_DATE})?(?:\s*(?:№|n|no\.?|-)\s*(?P<num>\d+(?:-(?:\d+|i(?![а-яa-z])))?)(?P<fz>-фк?з)?)?"
    rf"(?:\s+от\s+{ANY_DATE})?"
)
# "постановление Правительства РФ от 18.11.2020 № 1853", "Правила ..., утверждённые постановлением Правительства
# Российской Федерации № 1912": a Government resolution, ru/pp-<number>
GOVERNMENT = re.compile(
    rf"постановлени[а-я]*\s+правительства(?:\s+(?:рф|российской\s+федерации))?(?:\s+от\s+{DATE})?\s*(?:№|n)\s*"
    rf"(?P<num>\d+)(?![\d-])(?:\s+от\s+{DATE})?"
)
# "Распоряжение Правительства РФ от 31.05.2012 N 870-р", "распоряжением Правительства РФ №2042-р от 29.09.2016":
# a Government order, ru/rp-<number>
GOVERNMENT_ORDER = re.compile(
    rf"распоряжени[а-я]*\s+правительства(?:\s+(?:рф|российской\s+федерации))?(?:\s+от\s+{DATE})?\s*(?:№|n)\s*"
    rf"(?P<num>\d+)(?:-р)?(?![\dа-я-])(?:\s+от\s+{DATE})?"
)
# "постановление Государственной Думы ... от 24.04.2020 № 8442-7 ГД": ru/gd-<number>
DUMA = re.compile(
    rf"постановлени[а-я]*\s+государственной\s+думы(?:\s+федерального\s+собрания(?:\s+(?:рф|российской\s+федерации))?)?"
    rf"(?:\s+от\s+{DATE})?\s*(?:№|n)\s*(?P<num>\d+-\d+)\s*гд(?![а-я])"
)
# "Закон г. Москвы от 05.05.2010 № 17", "Закона Московской области № 249/2005-ОЗ": a regional law, which the
# corpus of federal acts cannot hold: ru/region-<region word>-<number>
REGIONAL = re.compile(
    rf"закон[а-я]{{0,3}}\s+(?P<region>(?:г\.\s*|города\s+)?(?:москвы|санкт-петербурга|севастополя)"
    r"|[а-я-]+(?:ской|цкой)\s+(?:области|края)|республики\s+[а-я-]+|[а-я-]+ского\s+края|[а-я-]+ого\s+автономного\s+округа)"
    rf"(?:\s+от\s+{DATE})?\s*(?:№|n)\s*(?P<num>\d+(?:[/-][0-9а-я-]+)?)"
)

# The scan starts at the article word (a literal prefix the regex engine skips to in C); the subdivisions
# written before it ("п. 1 ч. 2 ст. 81") are then read backwards from there with PARTS_SCAN.
UNIT = re.compile(rf"(?P<art>{ART_WORD})\s*(?P<items>{ITEMS})")
# Not after a letter or digit, checked on each hit (citations.text.search_back) rather than by a look-behind.
_PART = rf"{PART_WORD}\s*{PART_LIST}\s*,?\s+"
PARTS_SCAN = re.compile(rf"(?P<parts>{_PART}(?:{_PART})*)\Z")
PARTS_NOT_AFTER = frozenset("абвгдежзийклмнопрстуфхцчшщъыьэюяabcdefghijklmnopqrstuvwxyz0123456789")
DOC_WORDS = ("постановлени", "определени", "решени", "разъяснени", "обзор")  # where a decision may begin
ITEM_RE = re.compile(rf"(?P<a>{NUM})(?:\s*-\s*(?P<b>{NUM}))?{_NOT_ARTICLE}(?P<sub>{_BRACKET_PART})?")
PART_RE = re.compile(rf"(?P<word>{PART_WORD})\s*(?P<vals>{PART_LIST})")
PART_VAL_RE = re.compile(PART_VAL)

# A reference back names the act by a pointing word ("того же закона", "указанного Кодекса"), or by the bare
# word when no title, date or number of its own follows: "ст. 22 Закона продавец обязан" after "Закон о защите
# прав потребителей (далее — Закон)". A bare "Закона о ..." naming an act we do not know is not one (see
# registry._ru_law), and "Закона Московской области" points back to a law, never to a code.
REFERENCE = re.compile(
    r"\s*(?:(?:указанн|названн|эт|того\s+же|данн|настоящ|вышеуказанн|вышеназванн|упомянут|соответствующ)[а-я]*"
    r"\s+(?P<what>федеральн[а-я]*\s+закон|закон|кодекс|фз)[а-я]*(?![а-я])"
    r"|(?:закон|кодекс|конвенци)[а-я]{0,3}(?=[ \t]*(?:[,.;:)\n]|$)|\s+(?!(?:о|об|обо|от|рф|российской|рсфср)(?![а-я]))[а-я]))"
)
# "пункта 36 Правил ..., утверждённых постановлением Правительства РФ № 1912": rules approved by an act are cited
# as that act, which the extractor then reads where this match ends.
APPROVED_RULES = re.compile(
    r"\s*(?:правил|положени|порядк|регламент|инструкци|требовани)[а-я]*(?:\s+(?!утвержд)[а-я-]+){0,15}?\s*,?\s+"
    r"(?:утв\.|утвержд[её]нн[а-я]*)\s+"
)
# "(Собрание законодательства ..., 1995, N 21, ст. 1929; N 48, ст. 4566)": an issue number right before "ст." is a
# gazette's article, never a citation.
GAZETTE_BEFORE = re.compile(r"(?:№|n)\s*\d+(?:\s*\(ч(?:асть)?\.?\s*[ivx\d]+\))?\s*[,.]\s*\Z")
# "ст. 12.26 кодекса Российской Федерации, содержащего ...": a code or law named by its kind and country only, which
# the registry could not read: the article is cited, its act unknown (never another act named around it). Russian
# rules without a number are cited through their approver (APPROVED_RULES).
UNNAMED_ACT = re.compile(r"\s*(?P<w>кодекс[а-я]*|закон[а-я]*)\s+(?:российской\s+федерации|рф)(?![а-я])(?!\s+(?:о|об)\s)")
UNNAMED_NEEDS_CAPITAL = False
STRUCTURE_GAP: re.Pattern[str] | None = None  # Russian citations name no chapter between the article and its act
ANNEX_GAP: re.Pattern[str] | None = None  # Russian annexes ("Приложения к приказу") are cited as the annex
PAREN_GAP: re.Pattern[str] | None = None  # a Russian bracket after the article holds its part (ACT_GAP reads it)
# "статьи 128.1 "Клевета" УК Российской Федерации": the article's own title in quotes between it and its act
TITLE_GAP = re.compile(r'\s*(?:"[^"\n]{2,160}"|«[^»\n]{2,160}»|„[^“”"\n]{2,160}[“”"])\s*,?\s*')
NOTED: re.Pattern[str] | None = None  # Russian consolidated texts note amendments apart from the article
NOT_AN_ACT = re.compile(
    r"\s*(?:(?:ваш|наш|настоящ|данн|эт|указанн|трудов|кредитн)[а-я]*\s+)*"
    r"(?:договор|контракт|соглашени|устав|положени|регламент|правил|инструкци|приказ|оферт|полис"
    r"|постановлени|определени|решени)"  # "ст.37 Постановления Пленума": a point of the resolution, read there
)
# "конституционные положения статьи 46": the Constitution, named by its adjective before the article
CONSTITUTIONAL_BEFORE = re.compile(r"конституционн[а-я]*\s+(?:положени|норм|предписани|гаранти)[а-я]*\s+\Z")
CONSTITUTIONAL_WORD = "конституционн"  # tested for first: the pattern is searched only where it can match
CONSTITUTION = "ru/konst"
HEAD_WORD = re.compile(r"[ \t]*(?P<w>[а-я]{4,})")  # "ст. 49 Основ": an act named before, by its first word
CONNECTOR = re.compile(r"\s*(?:,|;|и|или|а\s+также|,\s*а\s+также|,\s*и)?\s*")
# Between the article and its act: space, and the subdivisions when written after the article number
# ("ст. 12.9 ч. 2 КоАП РФ", "ст. 81 ч. 1 п. 6 ТК РФ"), which the extractor then reads as the article's part.
# "статьи 17 (часть 3) Конституции": the part in brackets after the number.
ACT_GAP = re.compile(
    rf"\s*(?:(?P<after>(?:,?\s*{PART_WORD}\s*{PART_LIST})+|\(\s*(?:част[а-я]*|ч\.|пункт[а-я]*|п\.)\s*{PART_LIST}\s*\))\s*,?\s*)?"
)

_PART_NAMES = (("подп", "пп."), ("пп", "пп."), ("пункт", "п."), ("п", "п."), ("част", "ч."), ("ч", "ч."),
               ("абз", "абз."))  # fmt: skip

_COURT_BODY = r"(?P<court>{courts})(?:\s+и\s+(?P<court2>{courts}))?"
_DOC = r"(?:постановлени|определени|решени|разъяснени|обзор)[а-я]*"
_TAIL = (
    rf"(?:\s*,?\s*(?:от\s+(?P<d1>{DATE})\s*)?(?:(?:№|n)\s*(?P<num>\d[0-9а-яa-z]*(?:[/-][0-9а-яa-z]+)*))?"
    rf"(?:\s+от\s+(?P<d2>{DATE}))?)"
)
POINT = r"(?:(?:п\.|пп\.|пункт[а-я]*|абз\.\s*\d+\s+п\.)\s*(?P<point>\d+(?:\.\d+)?)(?:\s*(?:,|и|-)\s*\d+(?:\.\d+)?)*\s+)?"


def decision_patterns(courts: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Decisions are read from their document word ("постановления", "определении") onwards; what may stand
    before it (a point, or the court in "КС РФ в постановлении ...") is read backwards from there.

    Returns (court after the word, court before the word [search backwards], the rest after the word).
    """
    body = _COURT_BODY.format(courts=courts)
    return (
        re.compile(rf"{_DOC}\s+(?:(?!{_DOC})[а-я]+\s+){{0,3}}?{body}{_TAIL}"),  # the nearest document word
        re.compile(
            rf"(?<![а-яa-z]){body}\s*(?:,?\s*(?:изложенн|выраженн|сформулированн|закрепленн)[а-я]*\s+)?(?:в\s+(?:сво[её]м\s+)?)?\Z"
        ),
        re.compile(rf"{_DOC}{_TAIL}"),
    )


# "постановлениях Пленума ВС РФ от 23.06.2015 № 25 и от 24.03.2016 № 7": the next decision of the same court
NEXT_DECISION = re.compile(
    rf"\s*(?:,|и|а\s+также)\s+(?P<head>(?:от\s+(?P<d1>{DATE})\s*)?(?:№|n)\s*"
    rf"(?P<num>\d[0-9а-яa-z]*(?:[/-][0-9а-яa-z]+)*)(?:\s+от\s+(?P<d2>{DATE}))?)"
)
# "постановления Пленума от 29.05.2012 № 9": the Plenum without its court, which the answer named before (if at all)
PLENUM_ALONE = re.compile(rf"{_DOC}\s+пленум[а-я]*(?!\s+(?:верховн|высш|вс\b|вас\b)){_TAIL}(?<=\d)")
# "ППВС РФ № 9", "ППВАС от 23.12.2010 № 63": a Plenum resolution by its initials (document word and court in one)
PLENUM_INITIALS = re.compile(rf"п?пв(?P<vas>а)?с(?:\s+рф)?(?![а-я]){_TAIL}(?<=\d)")
SUPREME_COURT_NAMED = re.compile(r"(?P<vas>вас\s+рф|высш[а-я]*\s+арбитражн)|вс\s+рф|верховн[а-я]*\s+суд")
POINT_BEFORE = re.compile(rf"{POINT[:-1]}\Z")  # not after a letter: see citations.text.search_back
POINT_NOT_AFTER = frozenset("абвгдежзийклмнопрстуфхцчшщъыьэюяabcdefghijklmnopqrstuvwxyz")
LOWER_PREFIX = re.compile(r"(?<![а-яa-z])(?:апелляционн[а-я]*|кассационн[а-я]*)\s+\Z")
LOWER_COURT = re.compile(
    rf"{_DOC}\s+"
    r"(?P<court>(?:[а-я-]+\s+){0,4}?(?:районн|городск|областн|краев|арбитражн|апелляционн|кассационн|мирово|окружн)"
    r"[а-я]*\s+(?:[а-я-]+\s+){0,3}?суд[а-я]*(?:\s+(?!от\b|по\b)[а-я.-]+){0,3}?)"
    rf"\s+(?:по\s+делу\s+)?(?:от\s+{DATE}\s*)?(?:по\s+делу\s+)?(?:№|n)\s*(?P<num>[0-9а-яa-z]+(?:[/-][0-9а-яa-z]+)*)"
)
ECHR = re.compile(
    r"(?:еспч|европейск[а-я]*\s+суд[а-я]*\s+по\s+правам\s+человека)[^.;\n]{0,160}?(?:жалоб[а-я]*|no\.|№|n)\s*"
    r"(?P<num>\d{3,6}/\d{2})(?!\d)"
)


@lru_cache(maxsize=256)
def part_name(word: str) -> str:
    w = word.rstrip(".")
    for prefix, name in _PART_NAMES:
        if w.startswith(prefix) and (prefix not in ("п", "ч", "пп") or w == prefix):
            return name
    return word


def part_value(value: str) -> str:
    if value[0].isdigit():
        return value
    if len(value) > 3:  # an ordinal word: "второй" -> "2"
        return str(next(i for i, stem in enumerate(_ORDINALS, 1) if value.startswith(stem)))
    return value.strip('"').rstrip(")")


POINT_AFTER = re.compile(
    r'(?:\s*"[^"\n]{3,250}")?\s*\(\s*(?:п\.|пункт[а-я]*)\s*(?P<point>\d+(?:\.\d+)?)[^)]{0,20}\)'
)
TITLE_AFTER = re.compile(r'(?:\s+от\s+(?:дата|дд\.мм\.гггг)(?:\s*г\.)?)?\s*"[^"\n]{3,300}"')  # "от дата": anonymised
# on the original text, where the folded one made every quote '"': a title in guillemets holding another act's title
# («О внесении изменений в постановление ... «О практике ...» (с изменениями, внесенными постановлениями ...)»)
NESTED_TITLE_AFTER = re.compile(r"\s*«(?:[^«»\n]|«[^«»\n]{0,300}»){3,500}»")

# The words of a case's own course (claims granted, appeals dismissed): a lower court's ruling in such a sentence is
# the history of the case being decided, not practice it cites.
OWN_CASE = re.compile(
    r"исков[а-я]*\s+требовани|оставлен[а-я]*\s+без\s+(?:изменени|удовлетворени)"
    r"|истц|ответчик|(?:апелляционн|кассационн|частн)[а-я]*\s+жалоб|по\s+настоящему\s+делу"
)
