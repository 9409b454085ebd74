"""The report's HTML pages, one module per kind of page, apart from the data and helpers they draw with.

``evaluation.report.pages.index`` draws the main page (a board per benchmark and methodology, then the judge,
the systems, the etalons and the passport), each board by ``evaluation.report.pages.board``;
``evaluation.report.pages.detail`` draws a page per system and per etalon. What they draw with stays in
``evaluation.report``: the boards and number formats the Markdown report reads too (``boards``,
``format``), the page frame and tables (``common``, with ``template.html`` beside it), the plots (``svg``)
and the methodologies' rules (``rules``). ``evaluation.report.render_site`` puts the pages together.
"""
