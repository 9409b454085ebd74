"""European acts as Romanian and Russian texts write them: EU regulations and directives, the European Convention
on Human Rights and its protocols. Over the folded text (lower case, no diacritics, one dash).

The corpus holds none of them (they resolve as `unverifiable`), but an article of the GDPR must not be read as an
article of the Romanian law that cites it, so they are acts like any other for the extractor. Keys:
`eu/reg-<number>-<year>`, `eu/dir-<number>-<year>`, `eu/dec-<number>-<year>`, `echr/convention`, `echr/protocol-<n>`.

An EU act's number is written two ways: since 2015 year first ("(UE) 2016/679"), before that number first
("(CE) nr. 1.037/2001", "(UE) nr. 260/2012"); directives always year first ("2011/83/UE", "95/46/CE").
"""

from __future__ import annotations

import re

from citations.text import MONTH_WORD

# "Regulamentul (UE) 2016/679", "Regulamentului de punere în aplicare (UE) 2019/947", "Regulamentul (CE) nr.
# 1.037/2001 al Consiliului", "Регламент (ЕС) 2016/679", "Регламента (ЕС) № 1037/2001"
_REG_WORD = (
    r"(?:regulament(?:ul(?:ui)?|ele|elor)?(?:\s+(?:delegat|de\s+punere\s+in\s+aplicare|de\s+executare))?"
    r"|регламент[а-я]{0,3}(?:\s+(?:делегированн|исполнительн)[а-я]*)?)"
)
_UNION = r"\(\s*(?:ue|ce|cee|euratom|ес|еэс)(?:\s*,\s*(?:ue|ce|euratom|ес))?\s*\)"
_NUMBER = r"\d{1,3}(?:\.\d{3})+|\d+"
# "al Parlamentului European și al Consiliului din 27 aprilie 2016", "Европейского парламента и Совета от 27
# апреля 2016 года": who adopted it and when, part of the act's name
_TAIL = (
    r"(?:\s+(?:al|a)\s+(?:parlamentului\s+european\s+si\s+al\s+consiliului|consiliului|comisiei)"
    r"|\s+(?:европейского\s+парламента\s+и\s+совета|совета|комиссии)(?:\s+европейского\s+союза)?)?"
    rf"(?:\s+(?:din|от)\s+\d{{1,2}}\s+{MONTH_WORD}\s+\d{{4}}(?:\s+(?:г\.|года))?)?"
    # its title: an act named inside it ("de abrogare a Directivei 95/46/CE") is not cited on its own
    r"(?:\s+(?:privind|de\s+stabilire|de\s+modificare|de\s+abrogare|de\s+completare|referitoare\s+la|cu\s+privire\s+la"
    r"|о|об)\s+(?:[^,;()\n\"]|\((?:ue|ce|cee|ес)\))+?(?=[,;()\n\"]|\.(?:\s|$)|$))?"
)
REGULATION = re.compile(
    rf"{_REG_WORD}\s*{_UNION}\s*(?:(?:nr\.?|№|n)\s*)?"
    rf"(?P<a>{_NUMBER})\s*/\s*(?P<b>{_NUMBER})(?![\d/]){_TAIL}"
)
# "Directiva 2011/83/UE", "Directivei (UE) 2019/1937", "Directiva 95/46/CE a Parlamentului European", "Директива
# 2011/83/ЕС"
DIRECTIVE = re.compile(
    rf"(?:directiv(?:a|ei|ele|elor)|директив[а-я]{{0,3}})\s*(?:{_UNION}\s*)?(?:(?:nr\.?|№|n)\s*)?"
    rf"(?P<year>\d{{2}}|\d{{4}})\s*/\s*(?P<num>\d+)(?:\s*/\s*(?:ue|ce|cee|ес|еэс))?(?![\d/]){_TAIL}"
)
# "Decizia 2009/287/CE", "Decizia (UE) 2015/1502 a Comisiei", "Deciziei de punere în aplicare (UE) 2019/1795",
# "Решение 2009/287/ЕС": an EU decision, year first; the union is written before or after the number, which tells
# it from a court's "Decizia 287/2009"
DECISION = re.compile(
    rf"(?:decizi(?:a|ei|ile|ilor)(?:\s+de\s+punere\s+in\s+aplicare|\s+delegate)?|решени[а-я]{{0,3}})\s*"
    rf"(?:{_UNION}\s*(?:(?:nr\.?|№|n)\s*)?(?P<year>\d{{4}})\s*/\s*(?P<num>\d+)(?:\s*/\s*(?:ue|ce|pesc|ес))?"
    rf"|(?P<year2>\d{{4}}|\d{{2}})\s*/\s*(?P<num2>\d+)\s*/\s*(?:ue|ce|cee|pesc|ес|еэс))(?![\d/]){_TAIL}"
)
# "Protocolul nr. 1 la Convenție", "Protocolului adițional nr. 1", "Протокола № 1 к Конвенции"
PROTOCOL = re.compile(
    r"(?:protocol(?:ul(?:ui)?)?|протокол[а-я]{0,3})(?:\s+(?:aditional|дополнительн[а-я]*))?\s*"
    r"(?:nr\.?|№|n)\s*(?P<num>\d+)"
    r"\s+(?:aditional\s+)?(?:la|к)\s+(?:conventi[a-z]*|конвенци[а-я]*)(?![a-zа-я])"
    r"(?:\s+(?:europeana\s+)?(?:pentru\s+apararea\s+|a\s+)drepturilor\s+omului(?:\s+si\s+a\s+libertatilor\s+fundamentale)?"
    r"|\s+о\s+защите\s+прав\s+человека\s+и\s+основных\s+свобод)?"
)
# the GDPR by the short names texts give it
GDPR_NAME = re.compile(
    r"regulament(?:ul(?:ui)?)?\s+general\s+privind\s+protectia\s+datelor|общ(?:ий|его|ему|им|ем)\s+регламент[а-я]{0,3}"
    r"\s+(?:по|о)\s+защите\s+(?:персональных\s+)?данных|gdpr(?![a-z])"
)
GDPR = "eu/reg-679-2016"


def _year(raw: str) -> str:
    """'95' -> '1995', '07' -> '2007': directives before 2015 wrote the year in two digits."""
    if len(raw) == 4:
        return raw
    return ("19" if int(raw) > 50 else "20") + raw


def regulation_key(m: re.Match[str]) -> str | None:
    """eu/reg-<number>-<year> from either way of writing the number; None when neither reads as a year."""
    a, b = m.group("a").replace(".", ""), m.group("b").replace(".", "")
    if len(b) == 4 and 1950 <= int(b) <= 2100 and not (len(a) == 4 and int(a) >= 2015):
        return f"eu/reg-{a}-{b}"  # "(CE) nr. 1037/2001", "(UE) nr. 260/2012": number first
    if len(a) == 4 and 1950 <= int(a) <= 2100:
        return f"eu/reg-{b}-{a}"  # "(UE) 2016/679": year first
    return None


def directive_key(m: re.Match[str]) -> str:
    return f"eu/dir-{m.group('num')}-{_year(m.group('year'))}"


def decision_key(m: re.Match[str]) -> str:
    year, num = (m.group("year"), m.group("num")) if m.group("num") else (m.group("year2"), m.group("num2"))
    return f"eu/dec-{num}-{_year(year)}"


def protocol_key(m: re.Match[str]) -> str:
    return f"echr/protocol-{m.group('num')}"
