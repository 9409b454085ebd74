"""Legal citations in answers: extraction, normalisation against the act registry, and resolution.

Pure Python over the standard library, PyYAML and pyarrow: no Dagster, no network.
"""

from citations.extract import extract
from citations.model import Citation, Resolution
from citations.resolve import Lookup, SetLookup, resolve

__all__ = ["Citation", "Lookup", "Resolution", "SetLookup", "extract", "resolve"]
