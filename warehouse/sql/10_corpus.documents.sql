-- Current version of every document; older versions stay in corpus.document_versions.
SELECT doc_id, jurisdiction, act, kind, title, number, date, version, content_hash, source,
       issuer, court, status, file, ingested_at
FROM raw.corpus_documents
WHERE is_current
