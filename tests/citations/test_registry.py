"""Every example in the act and court registries maps to its entry; bad registry files say where and what."""

from __future__ import annotations

from pathlib import Path

import pytest

from citations.registry import ActRegistry, default_registry
from citations.text import fold, is_cyrillic_text

REGISTRY = default_registry()
ACT_EXAMPLES = [(key, example) for key, examples in REGISTRY.examples.items() for example in examples]
NUMBERED_EXAMPLES = [(form.key, written, key) for form in REGISTRY.numbered for written, key in form.examples]
COURT_EXAMPLES = [(c.court, example) for c in REGISTRY.courts for example in c.examples]


@pytest.mark.parametrize(("key", "example"), ACT_EXAMPLES)
def test_every_act_example_maps_to_its_key(key: str, example: str) -> None:
    assert REGISTRY.key_for(example, "ru" if is_cyrillic_text(example) else "ro") == key


@pytest.mark.parametrize(("form", "written", "key"), NUMBERED_EXAMPLES)
def test_every_example_of_an_act_known_by_number_maps_to_its_key(form: str, written: str, key: str) -> None:
    assert REGISTRY.key_for(written, "ru" if is_cyrillic_text(written) else "ro") == key


def test_every_act_form_known_by_number_has_examples() -> None:
    assert REGISTRY.numbered and all(form.examples for form in REGISTRY.numbered)


@pytest.mark.parametrize(("court", "example"), COURT_EXAMPLES)
def test_every_court_example_is_recognised_as_its_court(court: str, example: str) -> None:
    assert REGISTRY.court_pattern(court).fullmatch(fold(example))


@pytest.mark.parametrize(
    ("name", "jurisdiction", "key"),
    [
        ("Федеральный закон от 29.12.2012 № 273-ФЗ", "ru", "ru/fz-273"),
        ("ФЗ № 44-ФЗ", "ru", "ru/fz-44"),
        ("Legea nr. 544/2001", "ro", "ro/lege-544-2001"),
        ("O.U.G. nr. 80/2013", "ro", "ro/oug-80-2013"),
        ("H.G. nr. 1.391/2006", "ro", "ro/hg-1391-2006"),
        ("OG 21/1992", "ro", "ro/og-21-1992"),
    ],
)
def test_acts_outside_the_registry_fall_back_to_their_number(name: str, jurisdiction: str, key: str) -> None:
    assert REGISTRY.key_for(name, jurisdiction) == key


@pytest.mark.parametrize(
    ("title", "jurisdiction", "key"),
    [
        ("ГРАЖДАНСКИЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ (часть третья)", "ru", "ru/gk"),
        ("Трудовой кодекс Российской Федерации от 30.12.2001 N 197-ФЗ (ред. от 22.07.2024)", "ru", "ru/tk"),
        (
            'Федеральный закон от 26.10.2002 N 127-ФЗ (ред. от 31.07.2025) "О несостоятельности (банкротстве)"',
            "ru",
            "ru/fz-127",
        ),
        ("CODUL CIVIL din 17 iulie 2009 (Legea nr. 287/2009), republicat", "ro", "ro/cciv"),
        ("LEGE nr. 134 din 1 iulie 2010 privind Codul de procedură civilă", "ro", "ro/cpc"),
    ],
)
def test_corpus_document_titles_map_to_their_act(title: str, jurisdiction: str, key: str) -> None:
    assert REGISTRY.key_for(title, jurisdiction) == key


@pytest.mark.parametrize(
    ("name", "jurisdiction"),
    [("договор купли-продажи", "ru"), ("закон", "ru"), ("contractul", "ro"), ("ГК РФ ст. 5", "ru")],
)
def test_words_that_name_no_act_have_no_key(name: str, jurisdiction: str) -> None:
    assert REGISTRY.key_for(name, jurisdiction) is None


def test_every_contract_key_is_in_the_registry() -> None:
    contract = {"ru/gk", "ru/gpk", "ru/apk", "ru/tk", "ru/sk", "ru/zhk", "ru/zk", "ru/nk", "ru/koap", "ru/uk", "ru/upk",
                "ru/konst", "ru/zpp", "ru/fz-127", "ru/fz-14", "ru/fz-208", "ru/fz-218", "ru/fz-229", "ru/osago",
                "ro/cciv", "ro/cpc", "ro/cmuncii", "ro/cfiscal", "ro/cprfiscala", "ro/cpen", "ro/cpp", "ro/constitutie",
                "ro/og-2-2001", "ro/lege-85-2014", "ro/lege-151-2015", "ro/lege-31-1990", "ro/oug-34-2014",
                "ro/lege-193-2000", "ro/lege-196-2018", "ro/lege-36-1995", "ro/oug-195-2002", "ro/lege-10-2001"}  # fmt: skip
    assert contract <= set(REGISTRY.examples)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("acts:\n  - key: GK\n", "'key' must look like"),
        ("acts:\n  - key: ru/gk\n    names: ГК\n", "'names' must be a list of strings"),
        ("not_acts: []\n", "expected a top-level 'acts:' list"),
    ],
)
def test_a_bad_registry_file_is_refused_naming_the_file_and_field(
    tmp_path: Path, content: str, expected: str
) -> None:
    acts = tmp_path / "acts.yaml"
    acts.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=expected) as err:
        ActRegistry.load(acts=acts)
    assert str(acts) in str(err.value)
