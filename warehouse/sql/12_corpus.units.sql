-- Units of the current version of every document, in reading order: of the copy corpus.documents shows, once
-- each even when two sources stored that same version.
SELECT u.doc_id, u.act, u.article, u.path, u.text, u.ord, u.kind, u.number, u.heading, u.status, u.context,
       u.version
FROM raw.corpus_units AS u
SEMI JOIN corpus.documents AS d ON u.doc_id = d.doc_id AND u.version = d.version
WHERE u.is_current
QUALIFY row_number() OVER (PARTITION BY u.doc_id, u.path ORDER BY u.ord) = 1
