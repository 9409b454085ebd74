"""DOCX as paragraphs, with the standard library's zip and lxml only (a DOCX is a zip of XML).

Paragraph text comes from one libxslt pass over the tree (a newline after each ``w:p``, a space for a
tab or break, nothing for field codes and deleted revisions) rather than from Python walking runs or
marking the tree: on the bankruptcy law's 7.7 MB document.xml that is a third of the reading time.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from corpus.limits import Limits, parse_xml, read_zip_member
from corpus.ru_structure import Line, clean

# Field codes and deleted revisions are not text a reader sees. The built-in templates copy every other
# text node, as the text serializer would; the stylesheet reads nothing but the tree it is given.
_TEXT = etree.XSLT(etree.XML(b"""<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
  <xsl:output method="text" encoding="utf-8"/>
  <xsl:template match="w:p"><xsl:apply-templates/><xsl:text>&#10;</xsl:text></xsl:template>
  <xsl:template match="w:tab|w:br|w:cr"><xsl:text> </xsl:text></xsl:template>
  <xsl:template match="w:instrText|w:delText"/>
</xsl:stylesheet>"""), access_control=etree.XSLTAccessControl.DENY_ALL)


def docx_lines(path: Path, limits: Limits) -> list[Line]:
    root = parse_xml(read_zip_member(path, "word/document.xml", limits))
    text = str(_TEXT(root))
    return [Line(t) for t in map(clean, text.split("\n")) if not t.startswith("КонсультантПлюс: примечание")]
