SELECT system, benchmark, code, version, attempt, text, status, error, tokens_in, tokens_out, latency_ms,
       cost, created_at, question_version, sources, passport, confidence
FROM raw.answers
