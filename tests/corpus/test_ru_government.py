"""A Government resolution and the rules it approves are documents of their own, each with its points.

The texts are authored in the shape of consultant exports of Government resolutions (not copied from any act).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus.ingest import parse_path
from corpus.model import Document, IngestError

DECREE = """Постановление Правительства РФ от 06.05.2011 N 354
(ред. от 01.03.2025)
"О предоставлении коммунальных услуг"
Документ предоставлен КонсультантПлюс

ПРАВИТЕЛЬСТВО РОССИЙСКОЙ ФЕДЕРАЦИИ

ПОСТАНОВЛЕНИЕ
от 6 мая 2011 г. N 354

О ПРЕДОСТАВЛЕНИИ КОММУНАЛЬНЫХ УСЛУГ

В соответствии со статьей 157 Жилищного кодекса Российской Федерации Правительство Российской Федерации постановляет:
1. Утвердить прилагаемые Правила предоставления коммунальных услуг.
2. Настоящее постановление вступает в силу со дня его опубликования.

Председатель Правительства
Российской Федерации
В.ПУТИН

Утверждены
постановлением Правительства
Российской Федерации
от 6 мая 2011 г. N 354

ПРАВИЛА
ПРЕДОСТАВЛЕНИЯ КОММУНАЛЬНЫХ УСЛУГ
Список изменяющих документов
(в ред. Постановления Правительства РФ от 01.03.2025 N 100)

I. Общие положения

1. Настоящие Правила регулируют отношения по предоставлению коммунальных услуг.
2. Понятия, используемые в настоящих Правилах, означают следующее:
"исполнитель" - лицо, предоставляющее коммунальные услуги;
3. Коммунальные услуги предоставляются непрерывно.
"""

RULES = """СОВЕТ МИНИСТРОВ - ПРАВИТЕЛЬСТВО РОССИЙСКОЙ ФЕДЕРАЦИИ

ПОСТАНОВЛЕНИЕ
от 23 октября 1993 г. N 1090

О ПРАВИЛАХ ДОРОЖНОГО ДВИЖЕНИЯ

Утверждены
Постановлением Совета Министров -
Правительства Российской Федерации
от 23 октября 1993 г. N 1090

ПРАВИЛА
ДОРОЖНОГО ДВИЖЕНИЯ РОССИЙСКОЙ ФЕДЕРАЦИИ

1. Общие положения

1.1. Настоящие Правила устанавливают единый порядок дорожного движения.
1.2. В Правилах используются следующие понятия.

2. Общие обязанности водителей

2.1. Водитель механического транспортного средства обязан:
2.1.1. Иметь при себе и по требованию сотрудников полиции передавать им для проверки документы.
2.1.2. При движении на транспортном средстве быть пристегнутым ремнем безопасности.
2.2. Водитель обязан соблюдать дистанцию до движущегося впереди транспортного средства.
"""


def _documents(tmp_path: Path, text: str) -> dict[str, Document]:
    (tmp_path / "decree.txt").write_text(text, encoding="utf-8")
    docs = list(parse_path(tmp_path / "decree.txt", "test"))
    assert all(isinstance(d, Document) for d in docs), docs
    return {d.doc_id: d for d in docs if isinstance(d, Document)}


def test_a_decree_and_its_approved_rules_are_two_documents(tmp_path: Path) -> None:
    docs = _documents(tmp_path, DECREE)
    assert {d: (v.kind, v.issuer, v.number, v.date, v.title) for d, v in docs.items()} == {
        "ru/government/2011-05-06/354": ("resolution", "Правительство Российской Федерации", "354", "2011-05-06",
                                         "О ПРЕДОСТАВЛЕНИИ КОММУНАЛЬНЫХ УСЛУГ"),
        "ru/government/2011-05-06/354/annex-1": ("regulation", "Правительство Российской Федерации", "354",
                                                 "2011-05-06", "ПРАВИЛА ПРЕДОСТАВЛЕНИЯ КОММУНАЛЬНЫХ УСЛУГ"),
    }


@pytest.mark.parametrize(("doc_id", "path", "begins", "ends"), [
    ("ru/government/2011-05-06/354", "1", "1. Утвердить прилагаемые Правила", "коммунальных услуг."),
    # the decree's last point ends before the signature
    ("ru/government/2011-05-06/354", "2", "2. Настоящее постановление", "со дня его опубликования."),
    # the rules number afresh: their point 2 is no text of the decree's point 2
    ("ru/government/2011-05-06/354/annex-1", "2", "2. Понятия, используемые", "предоставляющее коммунальные услуги;"),
    ("ru/government/2011-05-06/354/annex-1", "3", "3. Коммунальные услуги", "непрерывно."),
])
def test_each_document_holds_its_own_points(tmp_path: Path, doc_id: str, path: str, begins: str, ends: str) -> None:
    text = {u.path: u.text for u in _documents(tmp_path, DECREE)[doc_id].units}[path]
    assert text.startswith(begins) and text.endswith(ends)


def test_rules_the_registry_knows_are_filed_under_their_act(tmp_path: Path) -> None:
    docs = _documents(tmp_path, RULES)
    rules = docs["ru/pdd"]
    assert (rules.act, rules.title) == ("ru/pdd", "ПРАВИЛА ДОРОЖНОГО ДВИЖЕНИЯ РОССИЙСКОЙ ФЕДЕРАЦИИ")
    # three levels deep, as "п. 2.1.1 ПДД" cites them
    assert [u.path for u in rules.units] == ["1", "1.1", "1.2", "2", "2.1", "2.1.1", "2.1.2", "2.2"]
    # a decree that numbers nothing of its own is no document: its rules are
    assert list(docs) == ["ru/pdd"]


def test_a_law_that_names_the_government_is_still_a_law(tmp_path: Path) -> None:
    law = ("Федеральный закон от 07.02.2011 N 3-ФЗ\n\"О полиции\"\n\nРОССИЙСКАЯ ФЕДЕРАЦИЯ\n\nФЕДЕРАЛЬНЫЙ ЗАКОН\n\n"
           "О ПОЛИЦИИ\n\nСтатья 1. Назначение полиции\n1. Полиция предназначена для защиты жизни граждан.\n"
           "2. Порядок устанавливается Правительством Российской Федерации.\n")
    [doc] = _documents(tmp_path, law).values()
    assert (doc.doc_id, doc.kind) == ("ru/fz-3", "law")


def test_a_decree_without_any_numbered_point_is_an_error_naming_why(tmp_path: Path) -> None:
    (tmp_path / "decree.txt").write_text("ПРАВИТЕЛЬСТВО РОССИЙСКОЙ ФЕДЕРАЦИИ\n\nПОСТАНОВЛЕНИЕ\nот 1 мая 2020 г. N 1\n\n"
                                         "О ТЕСТЕ\n\nУтвердить прилагаемое положение.\n", encoding="utf-8")
    [err] = parse_path(tmp_path / "decree.txt", "test")
    assert isinstance(err, IngestError)
    assert (err.reason, "Government resolution" in err.detail) == ("no_units", True)
