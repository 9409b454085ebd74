"""Units drafted by the readers and finished in bulk are the same immutable records the constructor makes."""

from __future__ import annotations

import pytest

from corpus.model import IN_FORCE, REPEALED, Unit, amend, draft, finish
from corpus.ru.html import read_portal_html
from corpus.ru.resolution import parse_points, resolution_meta
from corpus.ru.structure import lines_from_text, parse_articles

FIELDS = [
    ("1152", "1152", "article", "1152", "Принятие наследства", "Текст статьи", IN_FORCE, "Глава 64"),
    ("1152", "1152/2", "part", "2", None, "2. Принятие части", REPEALED, None),
]


def _finished() -> tuple[Unit, ...]:
    return finish("ru/gk/part-3", "ru/gk", [draft(*f) for f in FIELDS])


@pytest.mark.parametrize("index", range(len(FIELDS)))
def test_a_finished_unit_equals_the_constructed_one(index: int) -> None:
    article, path, kind, number, heading, text, status, context = FIELDS[index]
    built = _finished()[index]
    expected = Unit("ru/gk/part-3", "ru/gk", article, path, kind, number, heading, text, index, status, context)
    assert (built, hash(built), repr(built)) == (expected, hash(expected), repr(expected))


def test_an_amended_draft_keeps_the_amended_text() -> None:
    unit = draft(*FIELDS[1])
    amend(unit, "text", "2. Принятие части\nпродолжение")
    assert finish("d", None, [unit])[0].text == "2. Принятие части\nпродолжение"


def test_a_finished_unit_cannot_be_changed() -> None:
    with pytest.raises(AttributeError):
        _finished()[0].text = "changed"  # type: ignore[misc]


# ---------------------------------------------------------------- Russian plain-text structure
# Authored in the shape of consultant text exports of codes and laws (not copied from any act).

RU_TEXT = """Глава 3. ВОЗНИКНОВЕНИЕ И ПРЕКРАЩЕНИЕ ОБЯЗАННОСТЕЙ,
ИСПОЛНЕНИЕ И ОТВЕТСТВЕННОСТЬ

Статья 40. Сроки исполнения
Позиции высших судов по ст. 40 ПК РФ >>>

1. Обязанность исполняется в срок, установленный договором.
(п. 1 в ред. Федерального закона от 01.02.2020 N 10-ФЗ)
(см. текст в предыдущей редакции)
КонсультантПлюс: примечание.
О толковании п. 2 ст. 40 см. Постановление КС РФ от 01.03.2021 N 5-П.
2. Срок может быть продлен соглашением сторон.
2.1. Продление срока оформляется письменно.
2.1-1. Устное продление срока не допускается.
(часть 2.1-1 введена Федеральным законом от 01.02.2020 N 10-ФЗ)

КонсультантПлюс: примечание.
Ст. 41 применяется с учетом Постановления КС РФ от 01.03.2021 N 5-П.
Статья 41. Отказ от исполнения (в ред. Федерального закона от 01.02.2020 N 10-ФЗ)
Отказ от исполнения обязанности не допускается.
Исключения из этого правила устанавливаются законом в случаях:
существенного нарушения обязанности другой стороной;
невозможности исполнения; (в ред. Федерального закона от 01.02.2020 N 10-ФЗ)
иных, предусмотренных договором.
Отказ совершается в той же форме, что и договор. (в ред. Федерального закона от 01.02.2020 N 10-ФЗ)

Статья 42. Понятия
Для целей настоящей главы используются следующие понятия:
1) сторона - лицо:
которое приняло на себя обязанность;
которое вправе требовать ее исполнения;
2) третье лицо - иное лицо.

Статья 43. Уведомления
Уведомление направляется в письменной форме.
Часть вторая. - Утратила силу. (в ред. Федерального закона от 01.02.2020 N 10-ФЗ)
Уведомление считается полученным в день его доставки.
Ст. 44 (в ред. ФЗ от 01.02.2020 N 10-ФЗ) применяется к уведомлениям, направленным после 01.03.2020.

Статья 44. Сроки уведомления
1. Срок уведомления составляет десять дней:
1) для сторон;
2 - 3) утратили силу. - Федеральный закон от 01.02.2020 N 10-ФЗ;
4) для третьих лиц.
2 - 3. Утратили силу. - Федеральный закон от 01.02.2020 N 10-ФЗ.
4. Срок может быть сокращен договором.
5. Абзац утратил силу. - Федеральный закон от 01.02.2020 N 10-ФЗ.
В остальном срок определяется договором.

Статья 45. Регистрация
1. Право подлежит регистрации.
2.-3. Части утратили силу. (в ред. Федерального закона от 01.02.2020 N 10-ФЗ)
4. Сторона обязана:
1) направить заявление;
2-3). Пункты утратили силу. (в ред. Федерального закона от 01.02.2020 N 10-ФЗ)
4) передать выписку.

Статьи 46 - 47. Утратили силу. - Федеральный закон от 01.02.2020 N 10-ФЗ.

Статья 48. Заключительные положения
Настоящая глава применяется к отношениям, возникшим после ее вступления в силу.
"""


def _ru_units() -> dict[str, tuple[str, str | None, str | None]]:
    return {d[1]: (d[5], d[4], d[7]) for d in parse_articles(lines_from_text(RU_TEXT))}


@pytest.mark.parametrize(("path", "text"), [
    # the consultant's comment and its link to case law are not the act's words
    ("40/1", "1. Обязанность исполняется в срок, установленный договором."),
    ("40/2", "2. Срок может быть продлен соглашением сторон."),
    ("40/2.1", "2.1. Продление срока оформляется письменно."),
    # a part inserted after 2.1 is written "2.1-1." and cited as 2.1.1
    ("40/2.1.1", "2.1-1. Устное продление срока не допускается."),
    # a comment standing before the next article is no paragraph of the one before
    ("41/1", "Отказ от исполнения обязанности не допускается."),
    # a list's items are paragraphs of the part that introduces them; a note run into a line is no text
    ("41/2", "Исключения из этого правила устанавливаются законом в случаях:\n"
             "существенного нарушения обязанности другой стороной;\nневозможности исполнения;\n"
             "иных, предусмотренных договором."),
    ("41/3", "Отказ совершается в той же форме, что и договор."),
    # a point that introduces a list keeps the list's paragraphs, up to the next point
    ("42/1/1", "1) сторона - лицо:\nкоторое приняло на себя обязанность;\nкоторое вправе требовать ее исполнения;"),
    ("42/1/2", "2) третье лицо - иное лицо."),
])
def test_a_text_export_part_holds_only_the_acts_words(path: str, text: str) -> None:
    assert _ru_units()[path][0] == text


def test_a_text_export_has_no_part_made_of_a_consultant_line_or_list_item() -> None:
    paths = [p for p in _ru_units() if "/" in p]
    assert paths == ["40/1", "40/2", "40/2.1", "40/2.1.1", "41/1", "41/2", "41/3", "42/1", "42/1/1", "42/1/2",
                     "43/1", "43/2", "43/3", "44/1", "44/1/1", "44/1/2", "44/1/3", "44/1/4", "44/2", "44/3", "44/4", "44/5",
                     "45/1", "45/2", "45/3", "45/4", "45/4/1", "45/4/2", "45/4/3", "45/4/4", "48/1"]


@pytest.mark.parametrize(("path", "status"), [
    ("43/1", IN_FORCE), ("43/2", REPEALED), ("43/3", IN_FORCE),
    ("44/1", IN_FORCE), ("44/1/2", REPEALED), ("44/1/3", REPEALED), ("44/1/4", IN_FORCE),
    ("44/2", REPEALED), ("44/3", REPEALED), ("44/4", IN_FORCE),
    # only its first paragraph was repealed: the part is in force
    ("44/5", IN_FORCE),
    # ranges written without spaces ("2-3)." as a point, "2.-3." as parts) are ranges, not points 2.3 or part 2
    ("45/2", REPEALED), ("45/3", REPEALED), ("45/4/2", REPEALED), ("45/4/3", REPEALED), ("45/4/4", IN_FORCE),
])
def test_a_repealed_placeholder_or_range_is_a_repealed_unit_of_its_own(path: str, status: str) -> None:
    units = {d[1]: d[6] for d in parse_articles(lines_from_text(RU_TEXT))}
    assert units[path] == status


def test_articles_repealed_as_one_range_are_each_a_repealed_article() -> None:
    articles = {d[1]: d[6] for d in parse_articles(lines_from_text(RU_TEXT)) if d[2] == "article"}
    assert {n: articles.get(n) for n in ("45", "46", "47", "48")} == {
        "45": IN_FORCE, "46": REPEALED, "47": REPEALED, "48": IN_FORCE}
    assert _ru_units()["45/4/4"][0] == "4) передать выписку."


def test_a_repealed_range_is_no_text_of_the_part_before_it() -> None:
    assert _ru_units()["44/1"][0].splitlines()[-1] == "4) для третьих лиц."


def test_a_text_export_heading_drops_its_note_and_a_wrapped_chapter_title_is_whole() -> None:
    units = _ru_units()
    assert units["41"][1] == "Отказ от исполнения"
    assert units["40"][2] == ("Глава 3. ВОЗНИКНОВЕНИЕ И ПРЕКРАЩЕНИЕ ОБЯЗАННОСТЕЙ, ИСПОЛНЕНИЕ И ОТВЕТСТВЕННОСТЬ")


@pytest.mark.parametrize("quoted", ["“О примерных вопросах практики”", "„О примерных вопросах практики“",
                                    "«О примерных вопросах практики»", '"О примерных вопросах практики"'])
def test_a_resolution_title_in_any_quotes_is_read_from_its_header_line(quoted: str) -> None:
    head = f"Постановление Пленума Верховного Суда РФ от 3 марта 2020 г. № 7 {quoted}\n1. Первый пункт."
    meta = resolution_meta(lines_from_text(head))
    assert (meta.title, meta.number, meta.date) == ("О примерных вопросах практики", "7", "2020-03-03")


LONG_HEADING = ("Особенности рассмотрения дел о нарушениях, выявленных в автоматическом режиме работающими "
                "специальными техническими средствами, имеющими функции фото- и киносъемки, видеозаписи, "
                "или средствами фото- и киносъемки, видеозаписи, установленными на транспортных средствах")


def test_a_long_heading_between_points_is_context_not_text_of_the_point_before() -> None:
    text = (f"Постановление Пленума Верховного Суда РФ от 3 марта 2020 г. № 7 «О примерных вопросах практики»\n"
            f"1. Первый пункт разъяснений.\n{LONG_HEADING}\n2. Второй пункт разъяснений.\n")
    units = {d[1]: (d[5], d[7]) for d in parse_points(lines_from_text(text))}
    assert len(LONG_HEADING) > 200
    assert units == {"1": ("1. Первый пункт разъяснений.", None), "2": ("2. Второй пункт разъяснений.", LONG_HEADING)}


def test_a_consultant_comment_inside_a_point_is_no_text_of_the_point() -> None:
    text = ("Постановление Пленума Верховного Суда РФ от 3 марта 2020 г. № 7 «О примерных вопросах практики»\n"
            "1. Первый пункт разъяснений.\nКонсультантПлюс: примечание.\nП. 2 ст. 5 ПК РФ утратил силу с 01.06.2021.\n"
            "Второй абзац первого пункта.\n2. Второй пункт разъяснений.\n")
    units = {d[1]: (d[5], d[6]) for d in parse_points(lines_from_text(text))}
    assert units == {"1": ("1. Первый пункт разъяснений.\nВторой абзац первого пункта.", IN_FORCE),
                     "2": ("2. Второй пункт разъяснений.", IN_FORCE)}


def test_a_letter_inserted_with_a_superscript_index_is_a_letter_of_its_own() -> None:
    text = ("Статья 83. Полномочия\nПрезидент:\nа) назначает выборы;\nб) вносит предложения;\n"
            "б.1) представляет кандидатуры;\nв) подписывает законы.\n")
    units = {d[1]: d[5] for d in parse_articles(lines_from_text(text))}
    assert [p for p in units if p.count("/") == 2] == ["83/1/а", "83/1/б", "83/1/б.1", "83/1/в"]
    assert units["83/1/б.1"] == "б.1) представляет кандидатуры;"


# A code whose parts are plain paragraphs (ТК), with the consultant's record of a Constitutional Court ruling run
# into the text as a paragraph of its own: it is no part, or the parts after it would be counted one too many.
RU_RULED = """Статья 90. Выплаты при увольнении (в ред. Федерального закона от 01.02.2020 N 10-ФЗ)
Работнику выплачивается пособие.
Части вторая и третья статьи 90 признаны не соответствующими Конституции Российской Федерации, ее статье 37 \
(часть 1), в той мере, в какой они лишают работника выплаты (Постановление Конституционного Суда РФ от \
01.03.2021 N 5-П).
Если работник не трудоустроен, ему выплачивается заработок за второй месяц.
Часть 3 статьи 90 признана не соответствующей Конституции Российской Федерации (Постановление КС РФ от \
01.03.2021 N 5-П).
Выплаты производятся работодателем. (в ред. Федерального закона от 01.02.2020 N 10-ФЗ)
Часть вторая настоящей статьи применяется и к работникам по совместительству.
"""


def test_a_record_of_a_constitutional_court_ruling_is_no_part_of_the_article() -> None:
    units = {d[1]: d[5] for d in parse_articles(lines_from_text(RU_RULED))}
    assert units == {
        "90": "Работнику выплачивается пособие.\nЕсли работник не трудоустроен, ему выплачивается заработок за "
              "второй месяц.\nВыплаты производятся работодателем.\nЧасть вторая настоящей статьи применяется и к "
              "работникам по совместительству.",
        "90/1": "Работнику выплачивается пособие.",
        "90/2": "Если работник не трудоустроен, ему выплачивается заработок за второй месяц.",
        "90/3": "Выплаты производятся работодателем.",
        # the act's own words about its parts stay
        "90/4": "Часть вторая настоящей статьи применяется и к работникам по совместительству.",
    }


# A paragraph (§) title in ordinary case wrapped over lines, as the text exports of the Civil Code print it.
RU_WRAPPED = """§ 2. Передача прав на программы,
базы данных и иные результаты
интеллектуальной деятельности

Статья 70. Договор о передаче прав
1. Права передаются по договору.
"""


def test_a_paragraph_title_wrapped_in_ordinary_case_is_one_context() -> None:
    units = {d[1]: d[7] for d in parse_articles(lines_from_text(RU_WRAPPED))}
    assert units == {"70": "§ 2. Передача прав на программы, базы данных и иные результаты интеллектуальной деятельности",
                     "70/1": "§ 2. Передача прав на программы, базы данных и иные результаты интеллектуальной деятельности"}


def test_an_amendment_note_in_a_resolution_is_no_text_of_its_point() -> None:
    text = ("Постановление Пленума Верховного Суда РФ от 3 марта 2020 г. № 7 «О примерных вопросах практики»\n"
            "1. Первый пункт разъяснений.\nВторой абзац первого пункта.\n"
            "(абзац введен Постановлением Пленума Верховного Суда РФ от 01.02.2022 N 3)\n"
            "2. Второй пункт разъяснений.\n(п. 2 в ред. Постановления Пленума Верховного Суда РФ от 01.02.2022 N 3)\n"
            "(см. текст в предыдущей редакции)\n"
            "3. Третий пункт разъяснений. (в ред. Постановления Пленума Верховного Суда РФ от 01.02.2022 N 3)\n"
            "4. Четвертый пункт со ссылкой на статью 1 ПК РФ (в редакции, действовавшей до 1 января 2020 г.).\n")
    units = {d[1]: d[5] for d in parse_points(lines_from_text(text))}
    assert units == {"1": "1. Первый пункт разъяснений.\nВторой абзац первого пункта.",
                     "2": "2. Второй пункт разъяснений.", "3": "3. Третий пункт разъяснений.",
                     # the court's own words about a wording stay
                     "4": "4. Четвертый пункт со ссылкой на статью 1 ПК РФ (в редакции, действовавшей до 1 января "
                          "2020 г.)."}


# An older act as the portal serves it: one preformatted block (class M) of lines wrapped at about 70 characters.
PRE_PAGE = """<html><head><meta charset="utf-8"></head><body>
<p class="M">
</p>
<p class="M">&nbsp; Примерный кодекс Российской Федерации

    (в ред. Федерального закона от 1 февраля 2005 г. N 10-ФЗ -
    Собрание законодательства Российской Федерации, 2005, N 6, ст.
    400)

    Глава 1. ОБЩИЕ ПОЛОЖЕНИЯ

    Статья 1. Отношения, регулируемые
    настоящим Кодексом

    1. Настоящий Кодекс регулирует отношения по примерному
    делу на территории Российской Федерации.
    Примерное дело ведется в порядке, установленном
    Правительством Российской Федерации.
    (Пункт 1 в ред. Федерального закона от 1 февраля 2005 г. N
    10-ФЗ - Собрание законодательства Российской Федерации, 2005, N
    6, ст. 400)
    2. Порядок ведения дела определяется в случаях, если:
    1) дело ведется впервые;
    2) дело ведется повторно, начиная с 1 января 2005 г.
    N 10-ФЗ не применяется.

    Статья 2. Сроки

    Сроки исчисляются в днях.

    Президент Российской Федерации
    В.ПРИМЕРОВ

    Москва, Кремль
    3 марта 2003 года
    N 99-ФЗ
</p>
</body></html>"""


def test_a_preformatted_portal_page_is_read_as_paragraphs() -> None:
    lines, titles, _ = read_portal_html(PRE_PAGE)
    assert titles == ["Примерный кодекс Российской Федерации"]
    units = {d[1]: (d[4], d[5]) for d in parse_articles(lines)}
    assert units["1"][0] == "Отношения, регулируемые настоящим Кодексом"
    assert units["1/1"][1] == ("1. Настоящий Кодекс регулирует отношения по примерному делу на территории Российской "
                               "Федерации.\nПримерное дело ведется в порядке, установленном Правительством Российской "
                               "Федерации.")
    assert units["1/2/2"][1] == "2) дело ведется повторно, начиная с 1 января 2005 г. N 10-ФЗ не применяется."
    assert units["2/1"][1] == "Сроки исчисляются в днях."
    assert [p for p in units if "/" in p] == ["1/1", "1/2", "1/2/1", "1/2/2", "2/1"]
