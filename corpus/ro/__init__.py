"""Romanian acts: the readers of the formats Romanian law is published in, and what they share.

Romanian codes come as PDF converted to Markdown (``corpus.ro.markdown``, with the superscript indexes the
conversion flattened put back by ``corpus.ro.superscripts``) and as records of the Ministry of Justice web
service, legislatie.just.ro (``corpus.ro.records``). Both need the same repairs of the text (two spellings of
ș/ț, diacritics the service printed as '?') and the same reading of alineats, letters and points inside an
article (``corpus.ro.text``), so the family lives together; ``corpus.ingest`` picks the reader.
"""
