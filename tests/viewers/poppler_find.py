#!/usr/bin/python3
"""poppler's find as Evince calls it: poppler_page_find_text_with_options with MULTILINE
(and case-insensitive, the default). Runs under Debian's /usr/bin/python3, which has the
GObject binding (python3-gi, gir1.2-poppler-0.18).

usage: poppler_find.py JOB.json OUT.json; JOB = [{pdf, queries}], OUT = {pdf: {query: hit}}
"""

import json
import sys

import gi

gi.require_version("Poppler", "0.18")
from gi.repository import Gio, Poppler  # noqa: E402

jobs = json.load(open(sys.argv[1], encoding="utf-8"))
out = {}
for job in jobs:
    doc = Poppler.Document.new_from_file(Gio.File.new_for_path(job["pdf"]).get_uri(), None)
    pages = [doc.get_page(i) for i in range(doc.get_n_pages())]
    flags = Poppler.FindFlags.MULTILINE
    out[job["pdf"]] = {
        query: any(page.find_text_with_options(query, flags) for page in pages)
        for query in job["queries"]
    }
json.dump(out, open(sys.argv[2], "w", encoding="utf-8"))
