"""An OpenAI-compatible system's own confidence, end to end over real HTTP to the loopback server: read from the
reply's token logprobs (`confidence: logprobs`) or from a JSON reply (`confidence: json`), stored with the
answer, carried into eval.scores and eval.calibration once the etalons are signed."""

from __future__ import annotations

import json
import math

import pytest
import yaml

from evaluation.testserver import Rule, TestServer

from .conftest import CODES, KEY_ENV, Project

SIGNER = "Пётр Ильич Рябов"
ANSWER = "Согласно ст. 1152 ГК РФ наследство принимается."


def _systems(project: Project, url: str, late: str = "none") -> None:
    common = {"kind": "openai", "base_url": url, "api_key_env": KEY_ENV, "attempts": 1, "retries": 1,
              "timeout_s": 10}
    project.systems.write_text(yaml.safe_dump({"systems": [
        {"id": "by-logprobs", "model": "lp-model", "confidence": "logprobs", **common},
        {"id": "by-json", "model": "json-model", "confidence": "json", **common},
        {"id": "silent", "model": "plain-model", **common},
        # Replies in JSON from the start, but its entry says so only later: the stored reply is read anew.
        {"id": "late", "model": "json-model", "confidence": late, **common},
    ]}, allow_unicode=True), encoding="utf-8")


@pytest.mark.slow
def test_each_systems_stated_confidence_reaches_scores_and_calibration(project: Project) -> None:
    rules = [Rule(model="lp-model", reply=ANSWER, logprob=-0.25),
             Rule(model="json-model", reply=json.dumps({"answer": ANSWER, "confidence": 0.65}, ensure_ascii=False)),
             Rule(model="plain-model", reply=ANSWER)]
    with TestServer(rules=rules) as server:
        _systems(project, server.base_url)
        done = project.update(timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        for code in CODES:
            signed = project.etalon("sign", code, "--by", SIGNER)
            assert signed.returncode == 0, signed.stderr[-2000:]
        before = project.query("SELECT text, confidence FROM eval.answers WHERE system = 'late'")
        _systems(project, server.base_url, late="json")
        again = project.update(timeout=300)
        assert again.returncode == 0, again.stderr[-2000:]
    stated = {(s, round(c, 6) if c is not None else None)
              for s, c in project.query("SELECT system, confidence FROM eval.scores WHERE is_current")}
    assert stated == {("by-logprobs", round(math.exp(-0.25), 6)), ("by-json", 0.65), ("silent", None),
                      ("late", 0.65)}
    assert {c for _, c in before} == {None} and ANSWER not in {t for t, _ in before}
    texts = {t for (t,) in project.query("SELECT text FROM eval.answers WHERE system IN ('by-json', 'late')")}
    assert texts == {ANSWER}  # the JSON wrapper is not the answer
    calibrated = {(s, n) for s, n in project.query("SELECT DISTINCT system, n FROM eval.calibration")}
    assert calibrated == {("by-logprobs", len(CODES)), ("by-json", len(CODES)), ("late", len(CODES))}
