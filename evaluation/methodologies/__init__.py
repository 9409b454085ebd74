"""The three scoring methodologies, chosen per etalon; each is pure code over resolved records."""

from evaluation.methodologies.config import MethodologyConfig, config_for
from evaluation.methodologies.inputs import AnswerCitation, ElementState, ExpectedSource
from evaluation.methodologies.irac import irac_system_figure

__all__ = [
    "AnswerCitation",
    "ElementState",
    "ExpectedSource",
    "MethodologyConfig",
    "config_for",
    "irac_system_figure",
]
