"""Help for people writing sources: ``scaffold`` starts an edition or a place deck,
``lint`` advises on content that is valid but could play or read better, ``docs``
writes the field reference from the schemas, and ``watch`` rebuilds on every save."""
