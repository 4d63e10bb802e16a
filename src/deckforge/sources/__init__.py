"""Sources: YAML files read with the place of every value, checked by their schemas and
by the rules any source must keep.

``source`` reads YAML with line and column marks, ``load`` finds editions and reads the
files an edition names, ``schema`` checks a source against its JSON Schema (package data
in ``schemas/``), and ``rules`` holds the checks beyond the schemas that do not depend
on a source's kind. What each kind adds is in :mod:`deckforge.kinds`.
"""
