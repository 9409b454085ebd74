-- Every version of every etalon, with its signature if that version was signed.
SELECT v.benchmark, v.code, v.version, v.title, v.jurisdiction, v.branch, v.difficulty, v.type,
       v.methodology, v.author, v.question_version, v.rubric_version, v.first_seen, v.is_current,
       v.archived, s.signed_by, s.signed_at, v.file, v.shard, v.content
FROM raw.etalon_versions v
LEFT JOIN bench.signatures s USING (benchmark, code, version)
