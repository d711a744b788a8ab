// Tutorial keyboard: right arrow or space = next step, left arrow = previous step.
// The links are real links (htmx swaps the stage when it is loaded; without JS they navigate).
(function () {
  "use strict";
  var busy = false;   // an htmx request or swap is under way
  var pending = null; // a key pressed meanwhile, carried out once the new step has settled

  function inControl(el) {
    return el && el.closest && el.closest("input, textarea, select, button, summary, [contenteditable]");
  }
  function follow(id) {
    var link = document.getElementById(id);
    if (link) link.click();
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!document.getElementById("tutorial-stage") || inControl(event.target)) return;
    var id = null;
    if (event.key === "ArrowRight" || event.key === " " || event.key === "Spacebar") id = "tutorial-next";
    else if (event.key === "ArrowLeft") id = "tutorial-back";
    if (!id) return;
    event.preventDefault();
    if (busy) { pending = id; return; }
    follow(id);
  });
  document.addEventListener("htmx:beforeRequest", function () { busy = true; });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail || !event.detail.successful) { busy = false; pending = null; }
  });

  // Addresses outside the stage that name the step (the language switcher, the alternates in
  // the head, the page to come back to after the deck preference): the server leaves them out
  // of Next/Back answers that only carry swaps, as they differ only in the step number.
  function syncStepAddresses() {
    var bar = document.getElementById("tutorial-progressbar");
    if (!bar) return;
    var n = bar.getAttribute("value");
    if (!/^\d+$/.test(n)) return;
    var step = /\/\d+\/$/;
    document.querySelectorAll('.language-switcher a[href], link[rel="alternate"][hreflang]').forEach(function (a) {
      var href = a.getAttribute("href");
      if (step.test(href)) a.setAttribute("href", href.replace(step, "/" + n + "/"));
    });
    document.querySelectorAll('.deck-form input[name="next"]').forEach(function (input) {
      if (step.test(input.value)) input.setAttribute("value", input.value.replace(step, "/" + n + "/"));
    });
  }

  // After a swap, keep the keyboard where it was: htmx restores focus to an element with the
  // same id; when that element is gone (first or last step), focus the other link.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target || event.target.id !== "tutorial-stage") return;
    busy = false;
    syncStepAddresses();
    var active = document.activeElement;
    if (!active || active === document.body || !document.contains(active)) {
      var fallback = document.getElementById("tutorial-next") || document.getElementById("tutorial-back") ||
        document.getElementById("tutorial-done");
      if (fallback) fallback.focus();
    }
    if (pending) { var id = pending; pending = null; follow(id); }
  });
  document.addEventListener("htmx:historyRestore", syncStepAddresses);

  // The "attrs" swap (hx-ext="tutorial" on the tutorial): <i hx-swap-oob="attrs:SELECTOR"
  // class="…" data-remove="checked"> sets the attributes given on the element SELECTOR matches
  // and removes those named in data-remove, keeping its content.  Next/Back answers use it for
  // an element whose attributes alone changed (a card no longer highlighted); the page says it
  // has it (X-Tutorial-Swaps), so a page without this script never gets it.
  //
  // "patch": Next/Back answers may come in the compact form of tutorials/wire.py (header
  // X-Tutorial-Patch), one line per swap and cards as tokens; expand() turns it back into the
  // out-of-band markup the server checked, before htmx reads it.  It must stay a faithful copy
  // of wire.decode (tests/browser/test_tutorial_wire.py compares the two).
  var MOVE_FORM = "tutorial-move";
  var BACK = '<span class="card card--back" aria-hidden="true"></span>';
  var SNIPPETS = [
    "<form id=\"tutorial-move\" class=\"tutorial-move\" method=\"post\" action=\"move/\" hx-post=\"move/\"><input type=\"hidden\" name=\"csrfmiddlewaretoken\" value=\"",
    "</div></form><form class=\"tutorial-hint-form\" method=\"get\" action=\"./\" hx-get=\"./\"><input type=\"hidden\" name=\"hint\" value=\"1\"><button type=\"submit\" class=\"button-secondary\">",
    "<a id=\"tutorial-back\" href=\"?go=prev\" hx-get=\"?go=prev\" rel=\"prev\">",
    "<a id=\"tutorial-next\" href=\"?go=next\" hx-get=\"?go=next\" rel=\"next\">",
    "<button type=\"submit\" name=\"action\" value=\"",
    "\"><div class=\"tutorial-buttons\">",
    "<p class=\"tutorial-move__who\"><strong>",
    "<div role=\"radiogroup\" aria-label=\"",
    "<span class=\"visually-hidden\">",
    "<span class=\"badge badge--",
    "\" class=\"hand game-hand\" aria-label=\"",
    "<ul class=\"game-pairs\">",
    "<ul id=\"hand-",
    "<li class=\"game-pair\">",
    "<p class=\"game-note\">",
    "</button>",
    "</li><li>"
  ];
  var STYLES = { i: "innerHTML", e: "afterend", b: "afterbegin" };
  var TOKEN = /\{\{|\{#\}|\{[-+]\}|\{([a-z])\}|\{([2-9TJQKA][CDHS])(\*?)([pq]?)(!?)(f?)\}/g;

  function escapeValue(value) {
    return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  }
  // What the answer is expanded against: the page before the swaps.
  function currentPage() {
    var names = {};
    var stage = document.getElementById("tutorial-stage");
    if (stage) stage.querySelectorAll("[data-card]").forEach(function (el) {
      var code = el.getAttribute("data-card");
      if (names[code] || !el.hasAttribute("aria-label") || !el.hasAttribute("data-r")) return;
      names[code] = [escapeValue(el.getAttribute("aria-label")), escapeValue(el.getAttribute("data-r"))];
    });
    var back = stage && stage.querySelector('span.card.card--back[role="img"][aria-label]');
    return {
      names: names,
      back: back ? escapeValue(back.getAttribute("aria-label")) : null,
      title: document.title,
      text: function (selector) {
        var el = document.querySelector(selector);
        if (!el) throw new Error("no element " + selector);
        return el.textContent;
      }
    };
  }
  function cardHtml(code, flags, names) {
    var known = names[code];
    if (!known) throw new Error("unknown card " + code);
    var suit = code.charAt(1).toLowerCase();
    var cls = "card card--" + suit + (suit === "d" || suit === "h" ? " card--red" : "") +
      (flags.indexOf("*") >= 0 ? " card--highlight" : "");
    var span = '<span class="' + cls + '" role="img" aria-label="' + known[0] + '" data-card="' + code +
      '" data-r="' + known[1] + '"></span>';
    var p = flags.indexOf("p") >= 0, q = flags.indexOf("q") >= 0;
    if (p || q) {
      span = '<label class="pick"><input class="pick__box" type="' + (p ? "checkbox" : "radio") +
        '" name="' + (p ? "card" : "target") + '" value="' + code + '"' +
        (flags.indexOf("!") >= 0 ? " checked" : "") + (flags.indexOf("f") >= 0 ? ' form="' + MOVE_FORM + '"' : "") +
        ">" + span + "</label>";
    }
    return span;
  }
  function longSelector(sel) { return "#" + sel.replace(/>(\d+)/g, ">:nth-child($1)"); }
  function split(rest) {
    var i = rest.indexOf(" ");
    return i < 0 ? [rest, "", ""] : [rest.slice(0, i), " ", rest.slice(i + 1)];
  }
  function spliced(old, splice) {
    var m = /^(\d+),(\d+),/.exec(splice);
    if (!m) throw new Error("bad splice");
    return old.slice(0, +m[1]) + splice.slice(m[0].length) + old.slice(old.length - +m[2]);
  }
  function expandLine(line, names, page) {
    var kind = line.charAt(0), rest = line.slice(1), parts, markup, cut, value;
    if (kind === "B") {
      names.back = rest;
      return "";
    }
    if (kind === "N") {
      var previous = "";
      rest.split("|").forEach(function (entry) {
        var code = entry.slice(0, 2), label = entry.slice(2), end;
        var rank = code.charAt(0) === "T" ? "10" : code.charAt(0);
        if (label.charAt(0) === "^") {
          end = label.indexOf("^", 1);
          rank = label.slice(1, end);
          label = label.slice(end + 1);
        }
        if (label.charAt(0) === "~") label = spliced(previous, label.slice(1));
        names[code] = [label, rank];
        previous = label;
      });
      return "";
    }
    if (kind === "T") return "<title>" + rest + "</title>";
    if (kind === "U") return "<title>" + escapeValue(spliced(page.title, rest)) + "</title>";
    if (kind === "d") return '<i hx-swap-oob="delete:' + longSelector(rest) + '"></i>';
    parts = split(rest);
    if (kind === "a") return '<i hx-swap-oob="attrs:' + longSelector(parts[0]) + '"' + parts[1] + parts[2] + "></i>";
    if (kind === "x") {
      return '<div hx-swap-oob="innerHTML:' + longSelector(parts[0]) + '">' +
        escapeValue(spliced(page.text(longSelector(parts[0])), parts[2])) + "</div>";
    }
    if (!STYLES[kind] && kind !== "o" && kind !== "t") throw new Error("bad line " + kind);
    markup = parts[2].replace(TOKEN, function (whole, snippet, code, star, pick, checked, form) {
      if (whole === "{{") return "{";
      if (whole === "{#}") return BACK;
      if (whole === "{-}" || whole === "{+}") {
        if (names.back == null) throw new Error("no label for face-down cards");
        return '<span class="card card--back' + (whole === "{+}" ? " card--crosswise" : "") +
          '" role="img" aria-label="' + names.back + '"></span>';
      }
      if (snippet) return SNIPPETS[snippet.charCodeAt(0) - 97];
      return cardHtml(code, star + pick + checked + form, names);
    });
    if (kind === "o" || kind === "t") {
      value = kind === "t" ? "true" : "outerHTML:" + longSelector(parts[0]);
      cut = markup.indexOf(">");
      if (markup.charAt(cut - 1) === "/") cut -= 1;
      return markup.slice(0, cut) + ' hx-swap-oob="' + value + '"' + markup.slice(cut);
    }
    return '<div hx-swap-oob="' + STYLES[kind] + ":" + longSelector(parts[0]) + '">' + markup + "</div>";
  }
  function expand(text, page) {
    var names = {}, code;
    for (code in page.names) names[code] = page.names[code];
    names.back = page.back;
    return text.split("\n").map(function (line) { return expandLine(line, names, page); }).join("");
  }
  // For the browser test that compares them with tutorials/wire.py.
  window.damTutorialWire = { expand: expand, currentPage: currentPage, snippets: SNIPPETS };

  function defineExtension() {
    if (!window.htmx || !htmx.defineExtension) return;
    htmx.defineExtension("tutorial", {
      onEvent: function (name, event) {
        if (name === "htmx:configRequest" && event.detail && event.detail.headers) {
          event.detail.headers["X-Tutorial-Swaps"] = "attrs patch";
        }
        return true;
      },
      transformResponse: function (text, xhr) {
        if (!xhr || !xhr.getResponseHeader("X-Tutorial-Patch")) return text;
        try {
          // The swaps turn the step as rendered into the next: boxes the learner ticked
          // (not sent, as the move was not made) are first put back as rendered.
          var stage = document.getElementById("tutorial-stage");
          if (stage) stage.querySelectorAll("input[type=checkbox], input[type=radio]").forEach(function (box) {
            box.checked = box.defaultChecked;
          });
          return expand(text, currentPage());
        } catch (error) {
          // Should never happen (the server checks what it sends): load the step instead.
          window.location.assign(xhr.getResponseHeader("HX-Push-Url") || window.location.href);
          return "";
        }
      },
      handleSwap: function (style, target, fragment) {
        if (style !== "attrs") return false;
        var source = fragment.nodeType === 11 ? fragment.firstElementChild : fragment;
        if (!source) return true;
        var remove = source.getAttribute("data-remove");
        Array.prototype.forEach.call(source.attributes, function (attr) {
          if (attr.name !== "data-remove") target.setAttribute(attr.name, attr.value);
        });
        if (remove) remove.split(" ").forEach(function (name) { if (name) target.removeAttribute(name); });
        return true;
      }
    });
  }
  // htmx's script comes after this one (both deferred): it has run by DOMContentLoaded.
  if (window.htmx) defineExtension();
  else document.addEventListener("DOMContentLoaded", defineExtension);
})();
