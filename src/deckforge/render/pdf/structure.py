"""Tagged PDF: marked content on the pages and the structure tree that orders it.

A document whose texts carry a :class:`~deckforge.drawing.ops.Tag` is written as a tagged
PDF (ISO 32000-1, 14.7–14.8): every tagged text is a marked-content sequence with its
own MCID, gathered under structure elements (headings, paragraphs, lists, tables) in
reading order; everything else drawn on a page is an /Artifact. Screen readers and
reflowing viewers read the structure tree, not the order things are drawn in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deckforge.drawing.ops import Tag
from deckforge.rl.pdf import Ref


@dataclass(eq=False)
class _Element:
    kind: str
    lang: str = ""
    #: Child elements by their key, which orders them.
    children: dict = field(default_factory=dict)
    #: (page number, MCID) of each of its marked-content sequences, in drawing order.
    content: list = field(default_factory=list)


class Structure:
    """Marks one document's pages as they are drawn and builds its structure tree."""

    def __init__(self) -> None:
        self.root = _Element("Document")
        #: Each finished page's name in the file and the element of each of its MCIDs.
        self.pages: list[tuple[str, list[_Element]]] = []
        self.leaves: list[_Element] = []
        self.open: str | None = None

    def artifact(self, code: list[str], kind: str = "") -> None:
        """Make what is drawn next part of an artifact (of a kind: Pagination, Layout)."""
        if self.open == f"artifact {kind}":
            return
        self.close(code)
        code.append(f"/Artifact <</Type /{kind}>> BDC" if kind else "/Artifact BMC")
        self.open = f"artifact {kind}"

    def tagged(self, code: list[str], tag: Tag) -> None:
        """Start the marked-content sequence of a tagged text (ended by :meth:`close`)."""
        self.close(code)
        element = self.root
        for kind, key in tag.path:
            element = element.children.setdefault(key, _Element(kind))
        if tag.lang:
            element.lang = tag.lang
        mcid = len(self.leaves)
        self.leaves.append(element)
        element.content.append((len(self.pages), mcid))
        code.append(f"/{element.kind} <</MCID {mcid}>> BDC")
        self.open = "content"

    def close(self, code: list[str]) -> None:
        """End the open marked-content sequence, if any (before a Q or the page's end)."""
        if self.open is not None:
            code.append("EMC")
            self.open = None

    def end_page(self, page_name: str) -> int:
        """The page is done: remember its name; returns its /StructParents key."""
        self.pages.append((page_name, self.leaves))
        self.leaves = []
        return len(self.pages) - 1

    def write(self) -> tuple[list[tuple[str, dict]], str]:
        """The structure elements, the parent tree and the /StructTreeRoot as objects of
        the file (name, dictionary of plain values, as :func:`adapter.mark_tagged`
        takes them), and the root's name."""
        names: dict[int, str] = {}

        def name(element: _Element) -> str:
            if id(element) not in names:
                names[id(element)] = f"StructElem{len(names) + 1}"
            return names[id(element)]

        objects: list[tuple[str, dict]] = []
        root_name = "StructTreeRoot"
        stack = [(self.root, root_name)]
        while stack:
            element, parent = stack.pop()
            kids: list = [
                {"Type": "/MCR", "Pg": Ref(self.pages[page][0]), "MCID": mcid}
                for page, mcid in element.content
            ]
            children = [element.children[key] for key in sorted(element.children)]
            kids += [Ref(name(child)) for child in children]
            entries = {"Type": "/StructElem", "S": f"/{element.kind}", "P": Ref(parent), "K": kids}
            if element.lang:
                entries["Lang"] = element.lang
            objects.append((name(element), entries))
            stack.extend((child, name(element)) for child in reversed(children))
        nums: list = []
        for index, (_, leaves) in enumerate(self.pages):
            nums += [index, [Ref(name(leaf)) for leaf in leaves]]
        tree = {
            "Type": "/StructTreeRoot",
            "K": [Ref(name(self.root))],
            "ParentTree": {"Nums": nums},
            "ParentTreeNextKey": len(self.pages),
        }
        objects.append((root_name, tree))
        return objects, root_name
