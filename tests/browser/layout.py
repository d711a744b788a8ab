"""Layout checks shared by the browser tests."""

# A form control is as wide as about 20 average characters of whatever font the machine picks
# for it, so a layout that fits with one font can overflow with another (a fresh machine's
# fallback font pushed the live join form to 407 px on a 375 px phone).  Making the controls'
# font far larger stands in for every wider font: a layout that lets its controls shrink still
# fits.  Set through the CSSOM, since the site's Content-Security-Policy refuses inline style
# sheets.
_WIDER_CONTROL_FONT = """() => {
    for (const control of document.querySelectorAll("input, select, textarea")) {
        control.style.setProperty("font-size", "2.5rem", "important");
    }
    return document.documentElement.scrollWidth - window.innerWidth;
}"""


def horizontal_overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def overflow_with_wider_control_font(page) -> int:
    """The page's horizontal overflow once its form controls have a much wider font (this
    changes the page: call it last)."""
    return page.evaluate(_WIDER_CONTROL_FONT)
