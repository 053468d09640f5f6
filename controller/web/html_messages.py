"""The messages of the page's HTML, for Babel's extraction (the `web` domain): the content of
every element marked `data-t`, each child element in it a `{field}` named by its
`data-field`, spaces run together as the page's words.js reads them; and every `aria-label`
and `placeholder`. A Babel extractor: `[extractors] html = controller.web.html_messages:extract`
in the extraction map."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from typing import IO

Found = tuple[int, str, str, list[str]]  # line, keyword, message, comments: Babel's shape
ATTRIBUTES = ("aria-label", "placeholder")
VOID = frozenset({"meta", "link", "input", "br", "img", "hr", "source", "wbr"})


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Found] = []
        self._open: list[tuple[str, int]] = []  # a data-t element's tag and line, while in it
        self._text: list[str] = []
        self._inner = 0  # elements open inside a field (their text is the field's)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        line = self.getpos()[0]
        for name in ATTRIBUTES:
            if named.get(name):
                self.found.append((line, "_", str(named[name]), []))
        if tag in VOID:
            return
        if self._open:
            if self._inner == 0:
                self._text.append(f"{{{named.get('data-field')}}}")
            self._inner += 1
        elif "data-t" in named:
            self._open.append((tag, line))
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if not self._open:
            return
        if self._inner:
            self._inner -= 1
            return
        _, line = self._open.pop()
        self.found.append((line, "_", " ".join("".join(self._text).split()), []))

    def handle_data(self, data: str) -> None:
        if self._open and self._inner == 0:
            self._text.append(data)


def extract(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: dict[str, str]
) -> Iterator[Found]:
    """Babel's extractor interface: each message of one HTML file."""
    reader = _Reader()
    reader.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    reader.close()
    yield from reader.found
