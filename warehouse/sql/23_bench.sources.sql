-- The sources of the current version of every etalon, resolved against the corpus.
SELECT s.benchmark, s.code, s.version, s.citation, s.priority, s.act, s.article, s.status,
       s.idx, s.condition, s.kind, s.article_to, s.part, s.court, s.number, s.point, s.reason, s.corpus_version,
       s.doc_id, s.unit_path
FROM raw.etalon_sources s
JOIN bench.etalons e USING (benchmark, code, version)
