-- Units of the current version of every document, in reading order.
SELECT doc_id, act, article, path, text, ord, kind, number, heading, status, context, version
FROM raw.corpus_units
WHERE is_current
