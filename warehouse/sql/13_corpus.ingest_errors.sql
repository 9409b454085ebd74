SELECT source, file, reason, detail, "at", "position" FROM raw.ingest_errors
