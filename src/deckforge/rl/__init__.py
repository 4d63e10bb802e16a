"""Every use of ReportLab's private API in deckforge, in this package and nowhere else.

- :mod:`.pdf`: documents and pages (operators written straight into a canvas, forms,
  pages turned into bytes as soon as they are drawn, what PDF/X and tagging add);
- :mod:`.faces`: font faces made from what ReportLab read of them before, kept beside
  each cached font instance.

ReportLab has no public API for any of these. ``tests/test_reportlab_contract.py``
checks the attributes relied on here, and that no other module names ReportLab's
private names, so that a ReportLab release that moves them fails there first. The
package knows nothing of decks: the text and render stages use it.
"""
