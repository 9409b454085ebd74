-- Units a signed etalon cites whose text changed (or was repealed, or is gone) since the version was signed.
SELECT c.benchmark, c.code, c.version, c.citation, c.doc_id, c.unit_path, c.change, c.old_text, c.new_text,
       c.signed_by, c.signed_at
FROM raw.corpus_changes c
JOIN bench.signatures s USING (benchmark, code, version, signed_at)
