"""The citation grammars: how each language writes a reference to an article and its act (folded text).

One extractor (``citations.extract``, with ``citations.context`` and ``citations.decisions``) reads every
language; what differs between them lives here, one module per language under the same names (``UNIT``,
``ITEM_RE``, ``PARTS_SCAN``, ``REFERENCE``, ``ACT_GAP``, ...), so the extractor picks a module by the
answer's jurisdiction (``g = ru if j == "ru" else ro``) rather than branch on it. ``citations.grammar.ru``
holds Russian (parts before the article, the act in the genitive), ``citations.grammar.ro`` Romanian (the
article first, its subdivisions after it), and ``citations.grammar.eu`` the European acts both languages
cite, read by ``citations.registry``. What all of them share (folding, dates, month words) is
``citations.text``.
"""
