(only) => {
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "DATALIST", "OPTION", "svg"]);
  const BLOCK = new Set([
    "ADDRESS", "ARTICLE", "ASIDE", "BLOCKQUOTE", "BR", "CAPTION", "DIV", "DL", "FIELDSET",
    "FIGCAPTION", "FIGURE", "FOOTER", "FORM", "H1", "H2", "H3", "H4", "H5", "H6", "HEADER", "HR", "LI",
    "MAIN", "NAV", "OL", "P", "PRE", "SECTION", "TABLE", "TR", "UL",
  ]);
  const BUTTON_TYPES = new Set(["submit", "button", "reset", "image"]);
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();

  const labelOf = (el) => {
    for (const label of el.labels || []) {
      const copy = label.cloneNode(true);
      copy.querySelectorAll("input, select, textarea, button").forEach((c) => c.remove());
      const text = squash(copy.textContent);
      if (text) return text;
    }
    return squash(el.getAttribute("aria-label") || el.getAttribute("placeholder") || el.getAttribute("title"));
  };

  const describe = (el, ref) => {
    const tag = el.tagName;
    const parts = [];
    const type = (el.getAttribute("type") || "text").toLowerCase();
    if (tag === "SELECT") parts.push("select");
    else if (tag === "TEXTAREA") parts.push("textarea");
    else if (type === "checkbox" || type === "radio") parts.push(type);
    else parts.push(type === "text" ? "input" : `input type=${type}`);
    if (el.name) parts.push(`name=${el.name}`);
    const label = labelOf(el);
    if (label) parts.push(`label=${JSON.stringify(label)}`);
    if (tag === "SELECT") {
      const options = Array.from(el.options).map((o) => squash(o.textContent));
      const chosen = el.selectedIndex >= 0 ? options[el.selectedIndex] : "";
      parts.push(`selected=${JSON.stringify(chosen)}`);
      parts.push(`options=${JSON.stringify(options)}`);
    } else if (type === "checkbox" || type === "radio") {
      parts.push(el.checked ? "checked" : "unchecked");
      if (el.value && el.value !== "on") parts.push(`value=${JSON.stringify(el.value)}`);
    } else {
      parts.push(`value=${JSON.stringify(el.value)}`);
    }
    if (el.required) parts.push("required");
    if (el.disabled) parts.push("disabled");
    if (el.readOnly) parts.push("readonly");
    return `{${ref}: ${parts.join(" ")}}`;
  };

  if (only !== null && only !== undefined) {
    const el = document.querySelector(`[data-sc-ref="${only}"]`);
    return el ? describe(el, only) : null;
  }

  document.querySelectorAll("[data-sc-ref]").forEach((el) => el.removeAttribute("data-sc-ref"));
  const out = [];
  const clickables = [];
  let n = 0;
  const mark = (el) => {
    n += 1;
    el.setAttribute("data-sc-ref", String(n));
    return n;
  };
  const hidden = (el) => {
    if (el.hidden) return true;
    const style = getComputedStyle(el);
    return style.display === "none" || style.visibility === "hidden";
  };

  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      out.push(node.data.replace(/\s+/g, " "));
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const el = node;
    const tag = el.tagName;
    if (SKIP.has(tag) || hidden(el)) return;
    if (tag === "A" && el.hasAttribute("href")) {
      const text = squash(el.innerText) || squash(el.getAttribute("aria-label") || el.getAttribute("title"));
      const ref = mark(el);
      clickables.push([ref, text]);
      out.push(` [${ref}] ${text} `);
      return;
    }
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "BUTTON" || (tag === "INPUT" && BUTTON_TYPES.has(type))) {
      const text = squash(el.innerText || el.value) || labelOf(el);
      const ref = mark(el);
      clickables.push([ref, text]);
      out.push(` [${ref}] ${text}${el.disabled ? " (disabled)" : ""} `);
      return;
    }
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      if (type === "hidden") return;
      out.push(` ${describe(el, mark(el))} `);
      return;
    }
    if (tag === "LABEL" && el.control) {
      // The label's words are part of its field's description; only the field itself is shown.
      if (el.contains(el.control)) walk(el.control);
      return;
    }
    const block = BLOCK.has(tag);
    if (block) out.push("\n");
    if (/^H[1-6]$/.test(tag)) out.push("#".repeat(Number(tag[1])) + " ");
    if (tag === "LI") out.push("- ");
    if ((tag === "TD" || tag === "TH") && el.cellIndex > 0) out.push(" | ");
    if (tag === "DT") out.push("\n");
    if (tag === "DD") out.push(": ");
    for (const child of el.childNodes) walk(child);
    if (block || tag === "DD") out.push("\n");
  };

  if (document.body) walk(document.body);
  const lines = out
    .join("")
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .filter((line) => line.length > 0);
  return { title: document.title, text: lines.join("\n"), clickables };
}
