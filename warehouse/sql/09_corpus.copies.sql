-- Every source's current copy of every document, ranked: rank 1 is the copy corpus.documents shows, the others are
-- shadowed by it (shadowed_by names its source). The order is corpus/precedence.py's rule: the source's priority
-- (higher first; the embedded sample has -1), then the newer edition (a copy stating its edition before one that
-- does not), then the file modified last, then the source's name and the file's path.
WITH copies AS (
    SELECT d.*, coalesce(s.priority, CASE WHEN d.source = 'sample' THEN -1 ELSE 0 END) AS priority,
           coalesce(d.edition, nullif(regexp_extract(d.version, '^(\d{4}-\d{2}-\d{2})\+', 1), '')) AS edition_
    FROM raw.corpus_documents AS d
    LEFT JOIN raw.corpus_sources AS s ON s.name = d.source
    WHERE d.is_current AND (s.name IS NOT NULL OR NOT EXISTS (SELECT 1 FROM raw.corpus_sources))
), ranked AS (
    SELECT *, row_number() OVER (
        PARTITION BY doc_id
        ORDER BY priority DESC, (edition_ IS NOT NULL) DESC, coalesce(edition_, '') DESC,
                 (modified IS NOT NULL) DESC, coalesce(modified, '') DESC, source DESC, coalesce(file, '') DESC
    ) AS rank
    FROM copies
)
SELECT r.doc_id, r.jurisdiction, r.act, r.kind, r.title, r.number, r.date, r.version, r.content_hash, r.source,
       r.issuer, r.court, r.status, r.file, r.ingested_at, r.edition_ AS edition, r.modified, r.priority, r.rank,
       r.rank = 1 AS is_chosen,
       CASE WHEN r.rank > 1 THEN first_value(r.source) OVER (PARTITION BY r.doc_id ORDER BY r.rank) END AS shadowed_by
FROM ranked AS r
