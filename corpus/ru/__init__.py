"""Russian acts: structure read from the numbering conventions of Russian drafting, whatever the container.

``corpus.ru.structure`` turns a flat sequence of paragraphs into articles, parts, points and letters, with
the unit markers and repeal placeholders of ``corpus.ru.markers``; the containers feed it paragraphs (the
official portal's HTML in ``corpus.ru.html``, DOCX and plain text elsewhere in ``corpus``). Documents that
are not articled codes are read by points: Plenum resolutions and other court documents
(``corpus.ru.resolution``) and the Government's resolutions with the rules they approve
(``corpus.ru.government``). ``corpus.ingest`` picks the reader.
"""
