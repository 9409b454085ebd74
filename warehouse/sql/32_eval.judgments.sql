SELECT system, code, version, attempt, element, run, verdict, quote, quote_found, judge_model,
       raw, detail, error, rubric_version, benchmark
FROM raw.judgments
