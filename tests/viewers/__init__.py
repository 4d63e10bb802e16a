"""How deckforge's files read in the PDF engines people open them with: PDFium (Chrome,
Edge), pdf.js (Firefox) and poppler (Evince, Okular), each driven as its viewer drives it."""
