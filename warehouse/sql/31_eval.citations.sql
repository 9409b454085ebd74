SELECT system, code, version, attempt, "start", "end", text, kind, act, article, status, in_text,
       jurisdiction, act_text, article_to, part, court, number, date, year, point, other_acts, benchmark,
       doc_id, unit_path, reason
FROM raw.citations
