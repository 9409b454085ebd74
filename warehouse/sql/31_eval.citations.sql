SELECT system, code, version, attempt, "start", "end", text, kind, act, article, status, in_text,
       jurisdiction, act_text, article_to, part, court, number, date, year, point, other_acts
FROM raw.citations
