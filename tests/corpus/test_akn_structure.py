"""How the Akoma Ntoso reader reads shapes that real corpora use beyond the standard's examples.

Each document here is written for the test, in the shape of a corpus seen in the wild: the Italian Senate's
bulk data (a CSD03 draft namespace, parliamentary amendments), Normattiva (``Art. 2-bis``, the work named by a
``urn:nir`` alias, repealed articles kept as "((ARTICOLO ABROGATO ...))"), Laws.Africa (no preface, the title in
``FRBRalias``, inserted sections ``12A``, tables, footnotes) and amending acts that quote the provisions they
insert.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus.ingest import parse_path
from corpus.model import Document, Unit

FINAL = "http://docs.oasis-open.org/legaldocml/ns/akn/3.0"


def _read(tmp_path: Path, xml: str, name: str = "doc.xml") -> Document:
    path = tmp_path / name
    path.write_text(xml, encoding="utf-8")
    docs = list(parse_path(path, "t"))
    assert len(docs) == 1 and isinstance(docs[0], Document), docs
    return docs[0]


def _units(doc: Document) -> dict[str, Unit]:
    return {u.path: u for u in doc.units}


def _act(body: str, work: str = '<FRBRthis value="/akn/xx/act/2020/3/!main"/><FRBRnumber value="3"/>'
         '<FRBRdate date="2020-02-01" name="Generation"/><FRBRcountry value="xx"/>',
         ns: str = FINAL, preface: str = "<preface><p><docTitle>Test Act</docTitle></p></preface>") -> str:
    return (f'<akomaNtoso xmlns="{ns}"><act><meta><identification source="#t"><FRBRWork>{work}</FRBRWork>'
            f"</identification></meta>{preface}<body>{body}</body></act></akomaNtoso>")


def _section(num: str, text: str, tag: str = "section") -> str:
    return f"<{tag}><num>{num}</num><content><p>{text}</p></content></{tag}>"


@pytest.mark.parametrize("ns", [
    "http://docs.oasis-open.org/legaldocml/ns/akn/3.0/CSD03",
    "http://docs.oasis-open.org/legaldocml/ns/akn/3.0/CSD11",
    "http://docs.oasis-open.org/legaldocml/ns/akn/3.0/WD12",
    "",  # no namespace at all
])
def test_a_draft_namespace_of_the_schema_is_read_like_the_final_one(tmp_path: Path, ns: str) -> None:
    doc = _read(tmp_path, _act(_section("1.", "Text one.") + _section("2.", "Text two."), ns=ns))
    assert [u.path for u in doc.units] == ["1", "2"]


def test_an_inserted_article_or_section_is_a_unit_of_its_own(tmp_path: Path) -> None:
    body = (_section("Art. 2.", "Secondo.", "article") + _section("Art. 2-bis.", "Inserito.", "article")
            + _section("Art. 2 ter", "Altro.", "article") + _section("12.", "Twelve.") + _section("12A.", "Inserted.")
            + _section("12B", "Another.") + _section("12ZA", "Between.") + _section("Article 13er", "Thirteen."))
    doc = _read(tmp_path, _act(body))
    assert [(u.path, u.text) for u in doc.units] == [
        ("2", "Secondo."), ("2-bis", "Inserito."), ("2-ter", "Altro."), ("12", "Twelve."), ("12A", "Inserted."),
        ("12B", "Another."), ("12ZA", "Between."), ("13", "Thirteen."),
    ]


AMENDING = """
<section><num>4.</num><heading>Amendment of section 11 of Act 7 of 2001</heading>
  <subsection><num>(1)</num><content><p>Section 11 of the principal Act is amended by inserting after
  subsection (2) the following subsections:</p>
    <p><mod>“<quotedStructure>
      <subsection><num>(2A)</num><content><p>A notice may be served outside the Republic.</p></content></subsection>
      <subsection><num>(2B)</num><intro><p>Service may be effected—</p></intro>
        <paragraph><num>(a)</num><content><p>by post; or</p></content></paragraph>
        <paragraph><num>(b)</num><content><p>by electronic mail.</p></content></paragraph>
      </subsection>
    </quotedStructure>”</mod></p>
  </content></subsection>
  <subsection><num>(2)</num><content><p>Section 12 of the principal Act is repealed.</p></content></subsection>
</section>
<article><num>Art. 5.</num><paragraph><num>1.</num><content><p>L'articolo 3 è sostituito dal seguente:</p>
  <p><mod>«<quotedStructure><article><num>Art. 3.</num><paragraph><num>1.</num><content><p>Nuovo testo.</p>
  </content></paragraph></article></quotedStructure>».</mod></p></content></paragraph></article>
"""


def test_provisions_an_amending_act_quotes_are_its_text_not_its_units(tmp_path: Path) -> None:
    doc = _read(tmp_path, _act(AMENDING))
    units = _units(doc)
    assert list(units) == ["4", "4/1", "4/2", "5", "5/1"]
    quoted = units["4/1"].text
    # the inserted subsections are read once, inside the subsection that inserts them
    assert quoted.count("A notice may be served outside the Republic.") == 1
    assert quoted.count("by electronic mail.") == 1
    assert units["5/1"].text.count("Nuovo testo.") == 1


TABLE_AND_NOTES = """
<section><num>7.</num><heading>Fees</heading>
  <subsection><num>(1)</num><content>
    <p>The fees are set out in the table<authorialNote marker="1" placement="bottom"><p>See Gazette 41 of
    2019.</p></authorialNote>:</p>
    <table><tr><th><p>Service</p></th><th><p>Fee</p></th></tr>
      <tr><td><p>Licence</p><p>(first year)</p></td><td><p>R100</p></td></tr></table>
    <blockContainer><p>The fees include value-added tax.</p></blockContainer>
  </content></subsection>
</section>
"""


def test_table_cells_and_block_containers_are_read_once_and_footnotes_are_no_text(tmp_path: Path) -> None:
    unit = _units(_read(tmp_path, _act(TABLE_AND_NOTES)))["7/1"]
    assert unit.text.split("\n") == [
        "The fees are set out in the table:", "Service", "Fee", "Licence", "(first year)", "R100",
        "The fees include value-added tax.",
    ]


def test_an_act_without_a_preface_takes_its_title_from_the_work_alias_and_its_number_from_the_uri(
        tmp_path: Path) -> None:
    work = ('<FRBRthis value="/akn/za-cpt/act/by-law/2015/parks/!main"/><FRBRuri value="/akn/za-cpt/act/by-law/2015/parks"/>'
            '<FRBRalias value="Parks By-law, 2015" name="title"/><FRBRdate date="2015-03-04" name="Generation"/>'
            '<FRBRcountry value="za"/>')
    doc = _read(tmp_path, _act(_section("1.", "Definitions."), work=work, preface=""))
    assert (doc.doc_id, doc.title, doc.number, doc.date) == (
        "akn:/akn/za-cpt/act/by-law/2015/parks/!main", "Parks By-law, 2015", "parks", "2015-03-04")


def test_a_work_named_only_by_its_urn_gives_its_id_number_and_date(tmp_path: Path) -> None:
    work = '<FRBRalias name="urn:nir" value="urn:nir:stato:decreto.legislativo:2005-09-06;206"/>'
    doc = _read(tmp_path, _act(_section("Art. 1.", "Finalità.", "article"), work=work))
    assert (doc.doc_id, doc.number, doc.date, doc.title) == (
        "akn:urn:nir:stato:decreto.legislativo:2005-09-06;206", "206", "2005-09-06", "Test Act")


@pytest.mark.parametrize("text", [
    "((ARTICOLO ABROGATO DAL D.LGS. 21 FEBBRAIO 2014, N. 21))",
    "[Repealed by section 9 of Act 2 of 2018]",
    "(Abrogat)",
    "Deleted.",
])
def test_a_unit_whose_text_says_it_is_repealed_is_kept_as_repealed(tmp_path: Path, text: str) -> None:
    body = _section("Art. 1.", "In vigore.", "article") + _section("Art. 2.", text, "article")
    units = _units(_read(tmp_path, _act(body)))
    assert (units["1"].status, units["2"].status, units["2"].text) == ("in_force", "repealed", text)


def test_a_long_text_mentioning_a_repeal_stays_in_force(tmp_path: Path) -> None:
    text = "Repealed provisions continue to apply to proceedings instituted before the commencement of this Act."
    assert _units(_read(tmp_path, _act(_section("3.", text))))["3"].status == "in_force"


def test_numbered_levels_are_units(tmp_path: Path) -> None:
    body = ('<level><num>1.</num><content><p>First.</p></content></level>'
            '<level><num>2.</num><level><num>(a)</num><content><p>Second a.</p></content></level></level>')
    assert list(_units(_read(tmp_path, _act(body)))) == ["1", "2", "2/a"]


AMENDMENT = f"""<akomaNtoso xmlns="{FINAL}/CSD03"><amendment><meta><identification source="#s"><FRBRWork>
<FRBRthis value="http://example.org/emend/S/12/1.4/main"/><FRBRdate date="2021-04-01" name="presentazione"/>
<FRBRcountry value="ita"/><FRBRnumber value="1.4"/></FRBRWork></identification></meta>
<preface><p><docNumber>Emendamento n. 1.4</docNumber></p></preface>
<amendmentBody><amendmentContent><p><i>Al comma 2, sopprimere le parole:</i> «entro trenta giorni».</p>
</amendmentContent></amendmentBody></amendment></akomaNtoso>"""


def test_a_document_that_numbers_nothing_is_one_text_unit(tmp_path: Path) -> None:
    doc = _read(tmp_path, AMENDMENT)
    assert (doc.title, doc.number, doc.date) == ("Emendamento n. 1.4", "1.4", "2021-04-01")
    assert [(u.path, u.kind, u.text) for u in doc.units] == [
        ("text", "text", "Al comma 2, sopprimere le parole: «entro trenta giorni».")]


JUDGMENT = f"""<akomaNtoso xmlns="{FINAL}"><judgment name="judgment"><meta><identification source="#tna"><FRBRWork>
<FRBRthis value="ewhc/ch/2022/77"/><FRBRdate date="2022-01-20" name="judgment"/><FRBRcountry value="GB-UKM"/>
<FRBRnumber value="77"/><FRBRname value="Alder Ltd v Birch"/></FRBRWork></identification></meta>
<header><p>Neutral Citation Number: <neutralCitation>[2022] EWHC 77 (Ch)</neutralCitation></p>
<blockContainer><num>-</num><p>- - - - -</p></blockContainer>
<p><docTitle>IN THE MATTER OF THE INSOLVENCY ACT 1986</docTitle></p></header>
<judgmentBody><decision>
<level><content><p class="Heading2">Introduction</p></content></level>
<paragraph><num>1.</num><content><p>This is an application to set aside a statutory demand.</p></content></paragraph>
<level><content><p class="Heading2">Discussion</p></content></level>
<paragraph><num>2.</num><content><p>The demand is set aside.</p></content></paragraph>
</decision></judgmentBody></judgment></akomaNtoso>"""


def test_a_judgment_is_named_by_its_case_and_read_by_its_numbered_paragraphs(tmp_path: Path) -> None:
    doc = _read(tmp_path, JUDGMENT)
    assert (doc.kind, doc.title, doc.number, doc.date) == ("decision", "Alder Ltd v Birch", "77", "2022-01-20")
    assert [(u.path, u.kind, u.text) for u in doc.units] == [
        ("1", "point", "This is an application to set aside a statutory demand."),
        ("2", "point", "The demand is set aside."),
    ]


CROSSHEADINGS = """
<hcontainer name="crossheading"><heading>Retention of data</heading>
  <section><num>1</num><content><p>Retention notices.</p></content></section>
</hcontainer>
<section><num>2</num><content><p>Supplementary.</p></content></section>
<hcontainer name="crossheading"><heading>Enforcement</heading></hcontainer>
<section><num>3</num><content><p>Offences.</p></content></section>
<section><num>4</num><content><p>Penalties<authorialNote marker="*"><p>As amended:</p>
  <paragraph><num>(9)</num><content><p>quoted text</p></content></paragraph></authorialNote>.</p></content></section>
<crossHeading>General</crossHeading>
<section><num>5</num><content><p>Short title.</p></content></section>
"""


def test_a_crossheading_around_or_before_sections_is_their_context(tmp_path: Path) -> None:
    units = _units(_read(tmp_path, _act(CROSSHEADINGS)))
    assert [(p, u.context, u.text) for p, u in units.items()] == [
        ("1", "Retention of data", "Retention notices."),
        ("2", None, "Supplementary."),
        ("3", "Enforcement", "Offences."),
        ("4", "Enforcement", "Penalties."),  # the footnote's quoted paragraph is neither text nor a unit
        ("5", "General", "Short title."),
    ]


DEBATE = """<akomaNtoso><debate><meta><references source="#s">
<TLCPerson eId="speaker" href="/person/speaker" showAs="MADAM SPEAKER"/>
<TLCPerson eId="member-1" href="/person/m1" showAs="Hon. A. Member"/></references></meta>
<debateBody><debateSection name="questions"><heading>ORAL QUESTIONS</heading>
<speech by="#member-1"><p>Question 12, Madam Speaker.</p></speech>
<speech by="#speaker"><from>The Speaker:</from><p>Minister.</p></speech>
</debateSection></debateBody></debate></akomaNtoso>"""


def test_a_speech_without_a_from_line_is_headed_by_the_person_it_is_by(tmp_path: Path) -> None:
    units = _units(_read(tmp_path, DEBATE))
    assert [(p, u.heading, u.text) for p, u in units.items() if u.kind == "speech"] == [
        ("1/1", "Hon. A. Member", "Question 12, Madam Speaker."),
        ("1/2", "The Speaker:", "Minister."),
    ]


SCHEDULED = """
<section><num>1</num><content><p>Enforcement orders are made under Schedule 1.</p></content></section>
<section><num>2</num><content><p>Schedule 2 has effect.</p></content></section>
<hcontainer name="schedules"><heading>SCHEDULES</heading>
  <hcontainer name="schedule"><num>SCHEDULE 1</num><heading>Enforcement orders</heading>
    <paragraph><num>1</num><content><p>The responsible officer must keep records.</p></content></paragraph>
    <paragraph><num>2</num><subparagraph><num>(1)</num><content><p>Work is unpaid.</p></content></subparagraph>
    </paragraph>
  </hcontainer>
  <hcontainer name="schedule"><num>SCHEDULE 2</num><heading>Repeals</heading>
    <paragraph><num>1</num><content><p>Section 3 of the 1990 Act is repealed.</p></content></paragraph>
  </hcontainer>
</hcontainer>
"""


def test_an_acts_schedules_number_their_own_paragraphs(tmp_path: Path) -> None:
    units = _units(_read(tmp_path, _act(SCHEDULED)))
    assert [(p, u.article, u.kind) for p, u in units.items()] == [
        ("1", "1", "article"), ("2", "2", "article"),
        ("schedule-1/1", "schedule-1/1", "paragraph"), ("schedule-1/2", "schedule-1/2", "paragraph"),
        ("schedule-1/2/1", "schedule-1/2", "subparagraph"), ("schedule-2/1", "schedule-2/1", "paragraph"),
    ]
    assert units["schedule-2/1"].context == "SCHEDULES / SCHEDULE 2 Repeals"


ATTACHED = f"""<akomaNtoso xmlns="{FINAL}"><act><meta><identification source="#t"><FRBRWork>
<FRBRthis value="/akn/za/act/2020/7/!main"/><FRBRnumber value="7"/><FRBRcountry value="za"/></FRBRWork></identification>
</meta><preface><p><docTitle>Test Act</docTitle></p></preface><body>
<section><num>1.</num><content><p>The Schedules apply.</p></content></section></body>
<attachments>
  <attachment eId="att_1"><heading>Schedule 1</heading><subheading>Fees</subheading><doc name="schedule">
    <meta><identification source="#t"><FRBRWork><FRBRthis value="/akn/za/act/2020/7/!schedule_1"/></FRBRWork>
    </identification></meta>
    <mainBody><paragraph><num>1.</num><content><p>A licence costs R100.</p></content></paragraph>
    <paragraph><num>2.</num><content><p>A renewal costs R50.</p></content></paragraph></mainBody></doc></attachment>
  <attachment eId="att_2"><doc name="annexure"><mainBody><p>Form A</p>
    <paragraph><num>1.</num><content><p>Name of applicant.</p></content></paragraph></mainBody></doc></attachment>
</attachments></act></akomaNtoso>"""


def test_the_paragraphs_of_an_attached_schedule_are_units_under_it(tmp_path: Path) -> None:
    units = _units(_read(tmp_path, ATTACHED))
    assert [(p, u.kind, u.context, u.text) for p, u in units.items()] == [
        ("1", "article", None, "The Schedules apply."),
        ("schedule-1/1", "paragraph", "Schedule 1 Fees", "A licence costs R100."),
        ("schedule-1/2", "paragraph", "Schedule 1 Fees", "A renewal costs R50."),
        ("annexure-2/1", "paragraph", None, "Name of applicant."),
    ]
