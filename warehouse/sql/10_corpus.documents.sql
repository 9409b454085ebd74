-- Current version of every document; older versions stay in corpus.document_versions. A document held by two
-- sources (a folder ingested, then a file inside it) appears once: the copy ingested last
-- (corpus.store.current_tables decides the same way).
SELECT doc_id, jurisdiction, act, kind, title, number, date, version, content_hash, source,
       issuer, court, status, file, ingested_at
FROM raw.corpus_documents
WHERE is_current
QUALIFY row_number() OVER (PARTITION BY doc_id ORDER BY coalesce(ingested_at, '') DESC, source DESC) = 1
