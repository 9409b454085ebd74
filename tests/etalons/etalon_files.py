"""Etalon files written for the tests: the tests never depend on the sample set's contents."""

from __future__ import annotations

from pathlib import Path

CANARY = "0123456789abcdef0123456789abcdef"

BENCHMARK_YAML = f"""\
name: Тестовый набор (RU)
methodology: lesto
canary: {CANARY}
"""

# Written for these tests; the law is summarised, not quoted.
ETALON_YAML = """\
code: NAS-01
title: Принятие наследства
jurisdiction: ru
branch: inheritance
difficulty: 2
type: application
question: |
  Отец умер пять месяцев назад. Я живу в его квартире и плачу за неё, но к нотариусу не ходил.
  Я уже принял наследство или нужно что-то ещё?
decisive_issue: Фактическое принятие наследства действиями, а не только заявлением нотариусу.
solution_fact: Наследник вступил во владение имуществом и несёт расходы на его содержание.
branches:
  - срок принятия наследства ещё не истёк
  - фактическое принятие подтверждают документами об оплате
reference_answer: |
  Да, наследство принято фактически: наследник вступил во владение и оплачивает содержание квартиры.
  Для свидетельства о праве на наследство всё равно нужно обратиться к нотариусу.
next_steps: Обратиться к нотариусу по месту открытия наследства с квитанциями об оплате.
sources:
  - citation: ст. 1152 ГК РФ
    priority: mandatory
  - citation: ст. 1153 ГК РФ
    priority: mandatory
  - citation: ст. 1154 ГК РФ
    priority: conditional
    condition: наследник спрашивает о сроке
gross_errors:
  - наследство можно принять только заявлением нотариусу
"""


def write_benchmark(
    root: Path, files: dict[str, str], benchmark: str = "ru-test", config: str | None = BENCHMARK_YAML
) -> Path:
    folder = root / benchmark
    folder.mkdir(parents=True, exist_ok=True)
    if config is not None:
        (folder / "benchmark.yaml").write_text(config, encoding="utf-8")
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder
