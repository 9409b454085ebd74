"""Keys are scrubbed from the whole message before it is cut, and credential shapes from anywhere."""

from __future__ import annotations

import pytest

from evaluation.redact import safe_message, scrub

KEY = "sk-test-secret-value-4242"


@pytest.mark.parametrize("cut_at", range(270, 300, 3))
def test_a_key_straddling_the_cut_leaves_no_prefix_behind(cut_at: int) -> None:
    message = "x" * (cut_at - 10) + KEY + " and more text after the key" * 5
    stored = safe_message(message, [KEY], limit=cut_at)
    assert KEY[:8] not in stored and "***" in stored and len(stored) <= cut_at + 1


@pytest.mark.parametrize(("text", "gone"), [
    ("Incorrect API key provided: sk-proj-AbCdEf0123456789xyz.", "sk-proj-AbCdEf0123456789xyz"),
    ("Authorization: Bearer eyJhbGciOi.eyJzdWIiOiIxMjM0NTY3.SflKxwRJSMeKKF2QT4fwpM", "eyJzdWIiOiIxMjM0NTY3"),
    ("header was 'Bearer abcdefgh12345678'", "abcdefgh12345678"),
    ('{"api_key": "live_0123456789abcdef"}', "live_0123456789abcdef"),
    ("x-api-key=QWERTYUIOPASDFGH", "QWERTYUIOPASDFGH"),
    ("token hf_abcdefghijklmnopqrstuv expired", "hf_abcdefghijklmnopqrstuv"),
    ("key AIzaSyA1234567890abcdefghijklmnop rejected", "AIzaSyA1234567890abcdefghijklmnop"),
])
def test_anything_shaped_like_a_credential_is_scrubbed_whoever_it_belongs_to(text: str, gone: str) -> None:
    assert gone not in scrub(text)


@pytest.mark.parametrize("text", [
    "HTTP 500: internal server error (after 3 tries)",
    "timed out: the whole call is bounded by timeout_s = 3 s",
    "the endpoint's reply has an unexpected shape: 'usage.prompt_tokens' is a string ('many')",
    "Срок исковой давности составляет три года (ст. 196 ГК РФ).",
])
def test_ordinary_messages_are_left_as_they_are(text: str) -> None:
    assert scrub(text) == text


def test_a_short_placeholder_key_is_not_masked_out_of_ordinary_words() -> None:
    assert scrub("not needed here", ["not"]) == "not needed here"
