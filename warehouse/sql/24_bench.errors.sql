SELECT file, line, field, message, "at" FROM raw.etalon_errors
