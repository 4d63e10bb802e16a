"""Text: fonts, shaping and bidi for right-to-left scripts, measuring, wrapping, fitting.

This package is the only place that touches arabic-reshaper, python-bidi or font files.
"""
