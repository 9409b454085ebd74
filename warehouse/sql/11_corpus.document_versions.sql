SELECT * FROM raw.corpus_documents
