"""The floors deckforge is timed against: plain scripts doing the same work with the
bare libraries, run as separate processes in the same benchmark run."""

#: The sheets of the ``pnp-a4`` floors, as script text: ``nine_up(c, cards, W, H, draw)``
#: puts cards 9 to an A4 sheet with crop marks, each sheet of faces followed by its backs
#: (mirrored for long-edge duplex), calling ``draw(side, x, y, n)`` for each card.
NINE_UP = r"""
from reportlab.lib.pagesizes import A4


def nine_up(c, cards, W, H, draw):
    pw, ph = A4
    left, bottom = (pw - 3 * W) / 2, (ph - 3 * H) / 2
    for start in range(0, cards, 9):
        chunk = range(start, min(start + 9, cards))
        for side in ("face", "back"):
            for i, n in enumerate(chunk):
                row, col = divmod(i, 3)
                if side == "back":
                    col = 2 - col
                x, y = left + col * W, bottom + (2 - row) * H
                c.saveState()
                p = c.beginPath()
                p.rect(x, y, W, H)
                c.clipPath(p, stroke=0, fill=0)
                draw(side, x, y, n)
                c.restoreState()
            c.setLineWidth(0.25)
            for k in range(4):
                x = left + k * W
                c.line(x, bottom + 3 * H + 3, x, bottom + 3 * H + 17)
                c.line(x, bottom - 3, x, bottom - 17)
                y = bottom + k * H
                c.line(left - 3, y, left - 17, y)
                c.line(left + 3 * W + 3, y, left + 3 * W + 17, y)
            c.showPage()
"""

#: A minimal ReportLab script drawing ``cards`` plain text cards onto the same sheets
#: (pnp-a4: 9-up A4 with crop marks, faces and backs) or pages (printer) as deckforge.
FLOOR = (
    NINE_UP
    + r"""
import sys
from reportlab.pdfgen import canvas
cards, mode, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
W, H = 63.5 * 72 / 25.4, 88.9 * 72 / 25.4


def name(side, n):
    return "Synthetic" if side == "back" else f"Place number {n}"


def card(side, x, y, n):
    c.setFillColorRGB(0.9, 0.93, 1)
    c.rect(x, y, W, H, fill=1, stroke=0)
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Helvetica-Bold", 16)
    c.drawCentredString(x + W / 2, y + H / 2, name(side, n))


if mode == "printer":
    b = 9.0
    c = canvas.Canvas(path, pagesize=(W + 2 * b, H + 2 * b))
    for n in range(cards):
        for side in ("back", "face"):
            c.setTrimBox((b, b, b + W, b + H))
            c.setBleedBox((0, 0, W + 2 * b, H + 2 * b))
            c.setFillColorRGB(0.2, 0.4, 0.67)
            c.rect(0, 0, W + 2 * b, H + 2 * b, fill=1, stroke=0)
            c.setFillColorRGB(1, 1, 1)
            c.setFont("Helvetica-Bold", 16)
            c.drawCentredString(b + W / 2, b + H / 2, name(side, n))
            c.showPage()
else:
    c = canvas.Canvas(path, pagesize=A4)
    nine_up(c, cards, W, H, card)
c.save()
"""
)

#: A bare loop drawing every page of some PDFs with PDFium and saving each with
#: Pillow's defaults, in one process.
RASTER_FLOOR = r"""
import sys
from pathlib import Path
import pypdfium2 as pdfium
out = Path(sys.argv[1])
out.mkdir(exist_ok=True)
for pdf in sys.argv[2:]:
    document = pdfium.PdfDocument(pdf)
    for index in range(len(document)):
        page = document[index]
        image = page.render(scale=300 / 72, rev_byteorder=True).to_pil()
        image.save(out / f"{Path(pdf).stem}-{index}.png")
"""
