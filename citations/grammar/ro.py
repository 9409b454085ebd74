"""Romanian citation grammar over the folded text (lower case, no diacritics, one dash).

Romanian writes the article first and its subdivisions after it (art. 1.272 alin. (2) lit. a) din Codul civil),
with a thousands dot inside article numbers and "^" for inserted articles (art. 2^1).
"""

from __future__ import annotations

import re

from citations.text import MONTH_WORD

ART_WORD = r"(?:art\.|articolul(?:ui)?|articolele|articolelor|art(?=\s*\d))"
# An inserted article's index: "2^1", "2¹" (a superscript) or "2 ind. 1" / "2 indice 1".
INDEX = r"(?:\s*\^\s*\d+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+|\s+ind(?:\.|ice)\s*\d+)"
# A PDF text layer may drop every letter with a diacritic: "Hotrrea Guvernului", "Ordonana Guvernului", "Constituiei"
# (the act words above and the registry's names read those forms too).
# Amending laws number their articles in Roman numerals ("art. I din O.U.G. nr. 11/2026"): I to XCIX, lower
# case in the folded text, never part of a word ("art. vă", "și i-a"); upper case in the answer itself
# (citations.extract checks the original: "art. 5 și i se aplică" lists no article I).
ROMAN_ARTICLE = r"(?<![a-z])(?=[ivxl])(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})(?![a-z0-9-])"
# EU acts insert articles with a letter ("art. 5d" of Regulation 260/2012), kept as written
NUM = rf"(?:\d{{1,3}}(?:\.\d{{3}})+|\d+(?:[a-z](?![a-z0-9(]))?|{ROMAN_ARTICLE}|unic(?![a-z]))(?![\d]){INDEX}?"
_ALIN_VAL = r"(?:\(\d+(?:\^\d+)?\)|\d+)"
ALIN = (
    rf"(?:alin\.|alineatul|alineatele|alineatului|alin(?=\s*[\d(])|al\.(?=\s*[\d(]))\s*{_ALIN_VAL}"  # "al. (2)" too
    rf"(?:\s*(?:,|si|-)\s*{_ALIN_VAL}|\s*\(\d+[a-z]\))*"  # "alin. (1) (1b)": a sub-paragraph EU acts letter
)
# a letter or point inserted later carries an index as an article does: "lit. a^1)", "lit. b¹)", "pct. 20^1"
_SUB_INDEX = r"(?:\s*\^\s*\d+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)"
# "lit. A.d)": a lettered section's letter, as Law 47/1992's art. 11 alin. (1) numbers the Constitutional Court's powers
LIT = (rf"(?:lit\.|litera|literele)\s*(?:[a-z](?:\.[a-z](?=\)))?{_SUB_INDEX}?(?:\)|(?![a-z]))|\([a-z]\))"  # "lit. (b)" too
       rf"(?:\s*(?:,|si|-)\s*[a-z]{_SUB_INDEX}?\))*")
PCT = (rf"(?:pct\.|punctul|punctele)\s*(?:\d+(?:\.\d+)?{_SUB_INDEX}?"
       rf"(?:\s*(?:-|si)\s*\d+(?:\.\d+)?{_SUB_INDEX}?(?![\d.]))*"
       r"|[ivx]+(?:\.\d+)?(?![a-z0-9])(?:\s+poz\.\s*\d+)?(?:\s*(?:,|-|si)\s*(?:[ivx]+\.)?\d+(?![\d.]))*)")
# "art. 1 pct. I poz. 7 din Legea nr. 602/2004", "art. 1 pct. I.5 din Legea nr. 182/2013", "pct. I.3 și 14": an enabling
# law's list of the fields it empowers the Government in
PAR = r"(?:paragraful|par\.|§)\s*\d+"
TEZA = (r"(?:teza|tezele)\s+(?:a\s+)?(?:[ivx]+(?:-a)?(?![a-z])|intai|doua|treia|patra|cincea)|(?:prima|ultima)\s+teza"
        r"|teza\s+(?:intai|finala)")  # "art. 4 alin. (1) teza a doua și art. 5 ... teza întâi din Legea ..."
# "art. 46(2)": the paragraph written in brackets straight after the number, without "alin."
BRACKET_ALIN = r"(?<=[\d¹²³⁴⁵⁶⁷⁸⁹⁰])\(\d+(?:\^\d+)?\)"
SUB = rf"(?:{BRACKET_ALIN})?(?:\s*,?\s*(?:{ALIN}|{LIT}|{PCT}|{PAR}|{TEZA}))*"
_NOT_ARTICLE = r"(?!\s*(?:%|lei|euro|ron|ani|an\b|zile|luni|ore|de\s+zile|de\s+lei))"
ITEM = rf"{NUM}(?:\s*-\s*{NUM})?{_NOT_ARTICLE}{SUB}(?:\s+si\s+(?:urm\.|urmatoarele))?"
ITEMS = rf"{ITEM}(?:\s*(?:(?:,|si|sau)\s*|;[ \t]*)(?:{ART_WORD}\s*)?{ITEM})*"  # not over ";" and a line break
PRE = rf"(?:{ALIN}|{LIT}|{PCT})(?:\s*,?\s*(?:{LIT}|{PCT}))*\s+(?:al|a|din|de\s+la)\s+"

# ---------------------------------------------------------------- acts known by type and number
ACT_TYPE = (
    r"(?P<rtype>leg(?:ea|ii|e)(?:-cadru)?|l\.|o\.?\s?u\.?\s?g\.?|ordonan\S{0,4}\s+de\s+urgen\S{0,5}(?:\s+a\s+guvernului)?"
    r"|o\.?\s?g\.?|ordonan[a-z]*(?:\s+a)?\s+guvernului|ordonanta(?=\s+nr)|h\.?\s?g\.?"
    r"|hot(?:arar|rr)[a-z]*\s+(?:a\s+)?guvernului|hotarare(?=\s+nr)|hotarar[a-z]*\s+camerei\s+deputatilor"
    r"|h\.\s?c\.\s?m\.?|hcm(?=\s+nr)|hotarar[a-z]*\s+(?:a\s+)?consiliului\s+de\s+ministri"  # the Council of Ministers, before 1990
    r"|hotarar[a-z]*\s+parlamentului(?:\s+romaniei)?|decizi[a-z]*\s+(?:a\s+)?prim(?:ului)?-ministru(?:lui)?"
    r"|decret(?:ul|ului)?(?:-lege)?|decretul-lege|ordin(?:ul(?:ui)?)?(?:\s+comun)?)"
)
# An order names its issuer between the word and the number, at length ("Ordinul ministrului mediului, apelor și
# pădurilor nr. 331/2023", "Ordinul secretarului general al Camerei Deputaților nr. 1.173/2018"); a law at most a
# short name ("Legea apărării naționale nr. 45/1994"): citations.registry.ActRegistry._ro_law refuses a law's longer run. The words
# never run into the next act's type. No group inside the alternation of heads: the regex engine then skips in C to
# the letters an act's type can begin with (a named group there makes the scan four times slower).
ACT_HEAD = rf"{ACT_TYPE}(?:(?![a-z])|(?=nr))(?P<words>(?:,?\s+(?!(?:nr|oug|og|hg|hcm)(?![a-z])|leg|ordin|ordonan|hotar|hotrr|decret)[a-z]+){{0,9}}?)"
ACT_NUMBER = r"\d{1,3}(?:\.\d{3})+|\d+"
_NOT_ABBREVIATION = r"(?<!nr)(?<!art)(?<!alin)(?<!lit)(?<!pct)(?<!ind)"  # "a Legii nr. 227/2015" goes on
# "Hotărârii Parlamentului nr. 5/2020 pentru acordarea încrederii Guvernului și Deciziei prim-ministrului nr. 200/2019":
# a title ends before "și" and another act; "pentru modificarea Legii nr. 1/2011 și a Legii nr. 2/2012" goes on
_NEXT_ACT = (
    r"\s+si\s+(?=(?:legea|legii|ordonan[a-z]*|hot(?:arar|rr)[a-z]*|decizi[a-z]*|decret[a-z]*|ordinul(?:ui)?|o\.?\s?u\.?\s?g\.?"
    r"|h\.?\s?g\.?|o\.?\s?g\.?)\s)"
)
# "pentru aprobarea Normelor ..., precum și a organismelor ...", "... 2021-2022, precum și pentru completarea ...": a
# title goes on over ", precum și" when no act follows it ("..., precum și Legea nr. 2/2012" names another act)
_TITLE_GOES_ON = (
    r",\s*precum\s+si\s+(?!(?:a|al|ale|de|la|cu)?\s*(?:leg|ordin|ordonan|hotar|decret|cod|regulament|directiv"
    r"|o\.?\s?u\.?\s?g|h\.?\s?g|o\.?\s?g|constitut)[a-z.]*(?![a-z]))"
)
ACT_LAW = (
    rf"{ACT_HEAD}\s*(?:nr\.?\s*)?(?P<rnum>{ACT_NUMBER})(?:\s*/\s*(?:{ACT_NUMBER})(?=\s*/))*"  # joint: 1.306/1.883/2016
    rf"(?:\s*/\s*(?P<ryear>\d{{4}})|\s+din\s+(?:\d{{1,2}}\s+{MONTH_WORD}\s+|\d{{1,2}}\.\d{{1,2}}\.)?(?P<ryear2>\d{{4}}))(?!\d)"
    r"(?:\s*-\s*cod(?:ul|ului)\s+[a-z ]+?(?=[,;.()]|$)"
    rf"|(?:\s+|(?<=\d))(?:privind|pentru|cu\s+privire\s+la)\s+(?:[^,;()\n\"]|\((?:ue|ce|cee)\)|{_TITLE_GOES_ON}){{1,400}}?"
    rf"(?=(?!{_TITLE_GOES_ON})[,;()\n\"]|{_NOT_ABBREVIATION}\.(?:\s|$)|{_NEXT_ACT}|$))?"
)

UNIT = re.compile(rf"(?P<art>{ART_WORD})\s*(?P<items>{ITEMS})")
# Never empty, and not after a letter or digit, checked on each hit (citations.text.search_back) rather than by a
# look-behind, so the engine skips in C to where a subdivision word begins.
PARTS_SCAN = re.compile(rf"(?P<parts>{PRE})\Z")
PARTS_NOT_AFTER = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
DOC_WORDS = (
    "dec.",
    "decizi",
    "hotarar",
    "sentint",
    "incheier",
    "dcc",
    "d.c.c",
    "ril nr",
    "hp nr",
)  # where a decision citation may begin ("RIL nr. 8/2022": the mechanism stands for the decision word)
ITEM_RE = re.compile(rf"(?P<a>{NUM})(?:\s*-\s*(?P<b>{NUM}))?{_NOT_ARTICLE}(?P<sub>{SUB})")
SUB_RE = re.compile(rf"(?P<alin>{ALIN}|\(\d+(?:\^\d+)?\))|(?P<lit>{LIT})|(?P<pct>{PCT})|(?P<par>{PAR})")
# Between the article and its act: the larger units the article sits in, as amendment notes name them
# ("Articolul LXXIV, Capitolul III din ORDONANȚA ...", "Articolul 39 , Sectiunea  a 3-a , Capitolul IV").
_STRUCTURE = r"(?:\s*,?\s*(?:capitolul|sectiunea|titlul|partea|cartea)\s+(?:a\s+)?(?:[ivxlc]+|\d+(?:-a)?)(?![a-z0-9]))*"
ACT_GAP = re.compile(r"\s*(?:,\s*)?(?:(?:din|al|a|ale|in|conform|potrivit)\s+)?")
# tried only when no act follows the plain gap (most articles name their act right after them)
STRUCTURE_GAP = re.compile(rf"(?=\s*,){_STRUCTURE}\s*(?:,\s*)?(?:(?:din|al|a|ale|in|conform|potrivit)\s+)?")
# "art. 5 din anexa nr. 1 la Ordinul nr. 1120/2013", "Art. VII lit. a din Anexa I Ordinul 1120/2013": an article of an
# act's annex, cited as that act's (as an article of rules approved by an act is); tried only where "anex" follows
ANNEX_GAP = re.compile(
    r"\s*,?\s*(?:din|al|a|ale)\s+anex(?:a|ei|ele|elor)(?:\s+(?:nr\.?\s*)?(?:\d+|[ivxlc]+)(?![a-z0-9]))?\s*,?\s*(?:(?:la|a|al)\s+)?"
)
# "art. IV pct. 40 (cu referire la art. 61^1 din Legea nr. 101/2016) din Ordonanța de urgență ... nr. 45/2018": a
# bracket between the article and its act (the bracket's own article has its own act)
PAREN_GAP = re.compile(r"\s*\([^()\n]{1,200}\)\s*,?\s*(?:din|al|a|ale)\s+")
# "art. 1357 „Condițiile răspunderii” din Codul civil": the article's own title in quotes between it and its act
TITLE_GAP = re.compile(r'\s*(?:"[^"\n]{2,160}"|«[^»\n]{2,160}»|„[^“”"\n]{2,160}[“”"])\s*,?\s*(?:(?:din|al|a|ale)\s+)?')
# "Alineatul (1) , Articolul 39 , Sectiunea a 3-a , Capitolul IV a fost abrogat de ...": the article an amendment
# note of a consolidated text is about, which is the text's own act, not one named around it
NOTED = re.compile(
    rf"{_STRUCTURE}\s*,?\s*(?:a|au)\s+fost\s+(?:modificat|abrogat|introdus|completat|inlocuit|suspendat|republicat)"
)
# "art. 46(2) din Regulamentul de organizare și funcționare a Consiliului Legislativ": an act named by its kind of
# rules, with no number the registry could read; the article is cited, its act unknown (never the act named
# before it). Checked against the original's capital: "din regulamentul intern" is a company's.
UNNAMED_ACT = re.compile(
    r"\s*(?:,\s*)?(?:din|al|ale|a)\s+(?P<w>(?:regulament|norme|normel|metodologi|procedur|statut|instructiun)[a-z]*)"
    r"(?!\s+(?:intern|propri|societatii|asociatiei|de\s+ordine\s+interioara))"
)
UNNAMED_NEEDS_CAPITAL = True  # "din Regulamentul ...", not a company's "din regulamentul intern"
REFERENCE = re.compile(
    r"\s*(?:(?:din|al|a|ale)\s+)?(?:(?P<lege>aceeasi\s+lege|aceleiasi\s+legi|legea\s+(?:mentionata|citata|sus-mentionata|precizata)"
    r"|prezent(?:a|ei)\s+(?:lege|legi)|(?:aceasta|acestei)\s+(?:lege|legi)|lege(?![a-z]))"  # "art. 14 din lege": the law the answer is about
    r"|(?P<cod>acelasi\s+cod|aceluiasi\s+cod|codul\s+(?:mentionat|citat)|(?:prezentul|acest)(?:ui)?\s+cod)"
    r"|(?P<ordin>prezentul(?:ui)?\s+ordin|acelasi\s+ordin|aceluiasi\s+ordin)"
    r"|(?P<conv>conventi(?:a|ei|e)?(?![a-z])(?!\s+(?:de|dintre|partilor|privind|cu|colectiv|civil|nr)))"
    r"|(?P<ord>aceeasi\s+ordonanta|aceleiasi\s+ordonante|ordonanta\s+(?:mentionata|citata)|prezent(?:a|ei)\s+ordonant[ae]"
    r"|ordonanta(?![a-z])(?!\s+(?:de\s+urgenta|a\s+guvernului|guvernului|nr)))"
    r"|(?P<act>acelasi\s+act\s+normativ|aceluiasi\s+act\s+normativ|acest(?:ui)?\s+act\s+normativ))(?![a-z])"
)
# "art. 251 din Regulamentul Camerei Deputaților, aprobat prin Hotărârea ... nr. 8/1994": rules approved by an act
# are cited as that act, which the extractor then reads where this match ends.
APPROVED_RULES = re.compile(
    r"\s*(?:din|al|a|ale)\s+(?:regulament|norme|normel|metodologi|procedur|statut|instructiun)[a-z]*"
    r"(?:\s+(?!aprobat)[a-z-]+){0,15}?\s*,?\s+aprobat[a-z]*\s+prin\s+"
)
# "(Собрание законодательства ..., 1995, N 21, ст. 1929": an issue number right before "ст." is a gazette's
# article, never a citation.
NOT_AN_ACT = re.compile(
    r"\s*(?:(?:din|al|ale)\s+[a-z]|a\s+(?!fost\b|fi\b)[a-z]|(?:contract|actul\s+constitutiv|actului\s+constitutiv|statut|regulamentul\s+intern"
    r"|regulamentului\s+intern|actul\s+aditional|anex|conventia\s+(?:de|dintre|partilor)|acordul\s+(?:de|dintre|partilor)"
    r"|decizi|hotarar|procesul-verbal|oferta|polit))"
)
# "dispozițiile constituționale ale art. 21 alin. (3)": the Constitution, named by its adjective before the article
CONSTITUTIONAL_BEFORE = re.compile(
    r"(?:dispozitii|prevederi|norm[ae]|texte|text)(?:le|lor)?\s+constitutional[ea]\s+(?:ale\s+|de\s+la\s+|din\s+)?\Z"
)
CONSTITUTIONAL_WORD = "constitutional"  # tested for first: the pattern is searched only where it can match
CONSTITUTION = "ro/constitutie"
HEAD_WORD = re.compile(r"[ \t]*(?:(?:din|al|ale|a)\s+)?(?P<w>[a-z]{4,})")  # "art. 6 din Convenție"
CONNECTOR = re.compile(
    r"\s*(?:,|;|si|sau|precum\s+si|respectiv|,\s*si|,\s*precum\s+si)?\s*(?:cu\s+respectarea\s+)?"
    r"(?:(?:raportat|coroborat)[aei]*\s+(?=la|cu)(?:cu\s+)?)?"
    r"(?:(?:prevederilor|dispozitiilor)\s+)?(?:(?:ale|al|a|cele\s+ale|de\s+la|la)\s+)?"
)  # "art. 75 și ale art. 76 din Constituție", "art. 77 alin. (2), cu respectarea prevederilor art. 75 ... din
# Constituția", "art. 11 alin. (1) lit. A.a) raportat la art. 15 alin. (2) din Legea nr. 47/1992", "art. 1.350
# coroborat cu art. 1.357 C. civ.": the list shares the act named after its last member

# "DCC nr. 895/2015", "D.C.C.": a decision of the Constitutional Court, named by its initials
DEC_WORD = (
    r"(?:decizi[a-z]*|hotarar[a-z]*|sentint[a-z]*|incheier[a-z]*|(?P<dcc>d\.?\s?c\.?\s?c\.?(?![a-z]))"
    r"|(?:ril|hp)(?=\s+nr)"  # "HP nr. 24/2021", "RIL nr. 8/2022": the mechanism names the High Court's decision
    r"|dec\.(?=\s*nr))"  # "C.A. Timişoara, s. civ., dec. nr. 1427/2002": a jurisprudence bulletin's abbreviation
)
DEC_NUM = (
    r"(?:nr\.?|numarul)\s*(?P<num>\d{1,3}(?:\.\d{3})+|\d+|[ivxlc]+)"
    rf"(?:\s*/\s*(?P<year>\d{{4}})|\s+din\s+(?:\d{{1,2}}\s+{MONTH_WORD}\s+)?(?P<year2>\d{{4}}))(?!\d)"
)
# "Deciziile ÎCCJ nr. 1/2016 și nr. 2/2017": the next decision of the same court
NEXT_DECISION = re.compile(rf"\s*(?:,|si)\s+(?P<head>{DEC_NUM})")
LOWER = r"(?:curtea\s+de\s+apel|c\.\s?a\.|tribunalul|judecatoria)\s+(?:sectorului\s+\d|[a-z-]+)"
LOWER_GEN = r"(?:curtii\s+de\s+apel|tribunalului|judecatoriei)\s+(?:sectorului\s+\d|[a-z-]+)"


def decision_pattern(courts: str) -> re.Pattern[str]:
    return re.compile(
        rf"{DEC_WORD}"
        rf"(?:\s+(?:civil[ae]|penal[ae]|definitiv[ae]|ril|hp|\((?:ril|hp)\)))?(?:\s+(?:a\s+)?(?P<pre>{courts}))?"
        r"(?:\s*-\s*[a-z.]{2,8}\s*,)?"  # "Decizia ÎCCJ - SCAF, nr. 2.326": the section's initials
        rf"\s+{DEC_NUM}"
        rf"(?:\s*,?\s*(?:a|al|pronuntata\s+de|data\s+de|emisa\s+de|din)\s+(?:(?P<post>{courts})|(?P<lowgen>{LOWER_GEN})))?"
        r"(?P<tail>(?:\s*(?:,|-)\s*(?:completul\s+pentru\s+dezlegarea\s+unor\s+chestiuni\s+de\s+drept|"
        r"completul\s+competent\s+sa\s+judece\s+recursul\s+in\s+interesul\s+legii|sectia\s+[a-z0-9 -]{1,30}?(?=[,.;)]|$)))*)"
    )


# "paragraful 25 din Decizia CCR nr. ...", "pct. 5 al Deciziei ÎCCJ nr. ...": the paragraph cited, read backwards
# from the decision word (not after a letter: citations.text.search_back).
POINT_BEFORE = re.compile(
    r"(?:paragraf(?:ul|ele)?|par\.|§|punct(?:ul|ele)?|pct\.|considerent(?:ul|ele)?)\s*(?P<point>\d+)"
    r"(?:\s*(?:,|si|-)\s*\d+)*\s*,?\s+(?:din|al|a|ale)\s+\Z"
)
POINT_NOT_AFTER = frozenset("abcdefghijklmnopqrstuvwxyz")
# "Curtea de Apel Cluj, Decizia nr. ...", "C.A. Bucureşti, s. a III-a civ., dec. nr. 213/1999", a heading "Curtea de
# Apel Bacau - Sectia Comerciala, de Contencios ...\nDecizia civila nr. 37": the court written before the decision
# word, and its section, read backwards.
LOWER_BEFORE = re.compile(
    rf"(?<![a-z])(?P<lower>{LOWER})(?:\s*[,-]\s*(?:sectia\s|s\.\s?)[^;\n()]{{1,80}}?)?\s*(?:,|\n)\s*(?:prin\s+|in\s+)?\Z"
)
# From the dash (a literal the scan skips to): the case number is the "c" or "t" before it to the match end.
CASE_NUMBER = re.compile(r"-\d{1,4}/\d{2}(?!\d)")
CJUE_HEAD = re.compile(
    r"(?:(?:hotarar[a-z]*|decizi[a-z]*|cauz[a-z]*)\s+(?:pronuntata\s+de\s+)?)?(?:cjue|curt(?:ea|ii)\s+de\s+justitie\s+a\s+uniunii\s+europene)"
)
ECHR = re.compile(
    r"(?:cedo|curt(?:ea|ii)\s+europe(?:ana|ne)\s+a\s+drepturilor\s+omului)[^;\n]{0,160}?(?:cererea|nr\.|no\.)\s*"
    r"(?P<num>\d{3,6}/\d{2})(?!\d)"
)
# "referitoare la interpretarea și aplicarea unitară a dispozițiilor ...": how the High Court titles a RIL decision
MECHANISM_RIL = re.compile(r"recurs(?:ul|ului)?\s+in\s+interesul\s+legii|\bril\b|interpretarea\s+si\s+aplicarea\s+unitara")
MECHANISM_HP = re.compile(r"dezlegarea\s+unor\s+chestiuni\s+de\s+drept|hotarar[a-z]*\s+prealabil[ae]|\bhp\b")
CCR_HINT = re.compile(r"neconstitutional|curt(?:ea|ii)\s+constitutional[ae]|\bccr\b")


_DIGITS = re.compile(r"\d+")
_ALIN_NUMBER = re.compile(r"\d+(?:\^\d+)?")
_LIT_WORD = re.compile(r"^(?:lit\.|litera|literele)\s*")
_FIRST_LETTER = re.compile(rf"([a-z])({_SUB_INDEX})?")
_FIRST_POINT = re.compile(rf"(\d+(?:\.\d+)?|(?<=\s)[ivx]+(?:\.\d+)?(?![a-z]))({_SUB_INDEX})?")
ROMAN = re.compile(r"[ivxlc]+")


def sub_parts(sub: str) -> str | None:
    """'alin.1 lit. a' -> 'alin. (1) lit. a)'."""
    out: list[str] = []
    for m in SUB_RE.finditer(sub):
        text = m.group()
        if m.group("alin"):
            nums = _ALIN_NUMBER.findall(text)
            out.append(f"alin. ({nums[0]})")
        elif m.group("lit"):
            first = _FIRST_LETTER.search(_LIT_WORD.sub("", text))
            out.append(f"lit. {first.group(1)}{_index(first.group(2))})" if first else "lit.")
        elif m.group("pct"):
            first = _FIRST_POINT.search(text)
            number = first.group(1) if first else ""
            number = number.upper() if number[:1].isalpha() else number  # "pct. I", "pct. I.5": a Roman point
            out.append(f"pct. {number}{_index(first.group(2))}" if first else "pct.")
        else:
            out.append("par. " + _DIGITS.findall(text)[0])
    return " ".join(out) or None


_SUPERSCRIPT = str.maketrans("¹²³⁴⁵⁶⁷⁸⁹⁰", "1234567890")


def _index(raw: str | None) -> str:
    """'^ 1', '¹' -> '^1' (the corpus writes lit. a^1) and pct. 20^1 so); '' without one."""
    return "^" + raw.translate(_SUPERSCRIPT).replace("^", "").strip() if raw else ""
_INDEX_WORD = re.compile(r"\s+ind(?:\.|ice)\s*")


def article_number(raw: str) -> str:
    """'1.272' -> '1272', '2 ^ 1', '2¹' and '2 ind. 1' -> '2^1', 'iv' -> 'IV'."""
    if "ind" in raw:
        raw = _INDEX_WORD.sub("^", raw)
    number = raw.replace(" ", "").replace(".", "")
    if number == "unic":
        return number  # "ARTICOLUL UNIC", "art. unic": the act's one article
    if number[:1].isalpha():
        return number.upper()  # a Roman article, as the corpus writes it: "I", "IV^1"
    if number.isascii():
        return number
    digits = number.rstrip("¹²³⁴⁵⁶⁷⁸⁹⁰")
    return f"{digits}^{number[len(digits) :].translate(_SUPERSCRIPT)}" if digits != number else number

# The words of a case's own course (an appeal lodged, a claim admitted): a lower court's ruling in such a sentence is
# the history of the case being decided, not practice it cites.
OWN_CASE = re.compile(
    r"(?:apel(?:ul)?|recurs(?:ul)?)\s+(?:declarat|formulat|introdus|a\s+fost)|dosar(?:ul)?\s+nr"
    r"|reclamant|parat|instanta\s+de\s+fond|prima\s+instanta"
    r"|hotararea\s+(?:atacata|apelata|recurata)|sentint[a-z]*\s+(?:atacata|apelata|recurata)|prezenta\s+cauza|prezentul\s+dosar"
)
