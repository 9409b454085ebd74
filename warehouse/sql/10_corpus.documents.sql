-- Current version of every document; older versions stay in corpus.document_versions. A document held by two
-- sources (a folder ingested, then a file inside it) appears once: the copy ingested last
-- (corpus.store.current_tables decides the same way). A source removed from sources.yaml leaves the corpus (its
-- documents stay in corpus.document_versions).
SELECT doc_id, jurisdiction, act, kind, title, number, date, version, content_hash, source,
       issuer, court, status, file, ingested_at
FROM raw.corpus_documents
WHERE is_current AND (source IN (SELECT name FROM raw.corpus_sources)
                      OR NOT EXISTS (SELECT 1 FROM raw.corpus_sources))
QUALIFY row_number() OVER (PARTITION BY doc_id ORDER BY coalesce(ingested_at, '') DESC, source DESC) = 1
