-- Current version of every document; older versions stay in corpus.document_versions. A document held by two
-- sources (the official code a person ingested and the embedded sample's abridged copy, a folder and a file
-- inside it) appears once: the copy corpus.copies ranks first (the rule of corpus/precedence.py: the source's
-- priority, then the newer edition, then the file modified last, then the source's name). A source removed from
-- sources.yaml leaves the corpus (its documents stay in corpus.document_versions).
SELECT doc_id, jurisdiction, act, kind, title, number, date, version, content_hash, source,
       issuer, court, status, file, ingested_at, edition, modified, priority
FROM corpus.copies
WHERE rank = 1
