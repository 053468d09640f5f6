"""The page's words: every text of the page's HTML marked for the catalog, as Babel's
extraction reads it."""

from __future__ import annotations

import io

from controller.web.html_messages import extract


def test_the_html_extractor_reads_marked_texts_with_their_fields_and_labels():
    html = (
        b'<h2 data-t>The game\n   to <span id="t" data-field="target">500</span></h2>'
        b'<ul aria-label="Seats"><li>not marked</li></ul><input placeholder="no name">'
        b'<p data-t>No password: <code data-field="command">a <b>b</b></code> sets one.</p>'
    )
    found = [(line, message) for line, _, message, _ in extract(io.BytesIO(html), None, None, {})]
    assert found == [
        (1, "The game to {target}"),
        (2, "Seats"),
        (2, "no name"),
        (2, "No password: {command} sets one."),
    ]
