// Keyboard first, as annotation tools are: j/k move, Enter opens, y/n or 1-3 decide, u undoes, c notes,
// d disagrees, a approves, ? shows the keys. No framework and no build step; the page works without it.
(function () {
  "use strict";
  const page = document.body.dataset.page;
  const typing = (el) => el && (el.tagName === "TEXTAREA" || el.tagName === "INPUT" || el.isContentEditable);

  function submitWith(form, button) {
    if (!form) return;
    if (button && form.requestSubmit) form.requestSubmit(button); else if (button) button.click(); else form.submit();
  }

  // -- queue: a selected row --------------------------------------------------------------------------------
  const rows = Array.from(document.querySelectorAll("tr.row[data-href]"));
  let selected = rows.length ? 0 : -1;
  function select(i) {
    if (!rows.length) return;
    selected = Math.max(0, Math.min(rows.length - 1, i));
    rows.forEach((r, n) => r.classList.toggle("selected", n === selected));
    rows[selected].scrollIntoView({ block: "nearest" });
  }
  if (rows.length) select(0);
  rows.forEach((r, n) => r.addEventListener("click", (ev) => {
    if (ev.target.closest("a, button, input, textarea")) return;
    select(n);
  }));

  function key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) {
      if (ev.key === "Enter" && typing(document.activeElement)) {
        const form = document.activeElement.form;
        if (form && form.id === "decide-form") { ev.preventDefault(); }
      }
      return;
    }
    if (ev.key === "Escape") { if (document.activeElement) document.activeElement.blur(); return; }
    if (typing(document.activeElement)) return;
    const k = ev.key;
    if (k === "?") { const h = document.getElementById("keys-help"); if (h) h.hidden = !h.hidden; return; }
    if (k === "u") {
      const undo = document.getElementById("undo-last");
      if (undo) { ev.preventDefault(); undo.submit(); }
      return;
    }
    if (page === "queue" || page === "etalons" || page === "results" || page === "system") {
      if (k === "j") { ev.preventDefault(); select(selected + 1); }
      else if (k === "k") { ev.preventDefault(); select(selected - 1); }
      else if (k === "Enter" && selected >= 0) { ev.preventDefault(); window.location = rows[selected].dataset.href; }
      else if (selected >= 0) {
        const button = rows[selected].querySelector(`form.quick-decide button[data-key="${CSS.escape(k)}"]`);
        if (button) { ev.preventDefault(); submitWith(button.form, button); }
      }
      return;
    }
    if (page === "item") {
      if (k === "j") { const n = document.getElementById("next"); if (n) { ev.preventDefault(); window.location = n.href; } return; }
      if (k === "k") { const p = document.getElementById("prev"); if (p) { ev.preventDefault(); window.location = p.href; } return; }
      if (k === "c") { const note = document.getElementById("note"); if (note) { ev.preventDefault(); note.focus(); } return; }
      if (k === "d") { const note = document.getElementById("disagree-note"); if (note) { ev.preventDefault(); note.focus(); } return; }
      if (k === "a") { const f = document.getElementById("approve-form"); if (f) { ev.preventDefault(); f.submit(); } return; }
      const button = document.querySelector(`#decide-form button[data-key="${CSS.escape(k)}"]`);
      if (button) { ev.preventDefault(); submitWith(button.form, button); }
    }
  }
  document.addEventListener("keydown", key);

  // Ctrl+Enter in the note decides nothing by itself: the lawyer still picks the value with a key or a button.

  // -- item: a quote in the list lights its passage in the answer --------------------------------------------
  document.querySelectorAll("ul.quotes li[data-q]").forEach((li) => {
    const n = li.dataset.q;
    const marks = Array.from(document.querySelectorAll("mark[data-q]")).filter((m) => m.dataset.q.split(" ").includes(n));
    li.addEventListener("mouseenter", () => marks.forEach((m) => m.classList.add("hot")));
    li.addEventListener("mouseleave", () => marks.forEach((m) => m.classList.remove("hot")));
  });

  // -- while re-scoring: reload once it is done --------------------------------------------------------------
  const banner = document.getElementById("refreshing");
  if (banner) {
    const poll = () => fetch(banner.dataset.status, { credentials: "same-origin" }).then((r) => r.json()).then((s) => {
      if (!s.refreshing) { banner.textContent = "Re-scored. Reloading…"; window.location.reload(); }
      else setTimeout(poll, 1500);
    }).catch(() => setTimeout(poll, 3000));
    setTimeout(poll, 1500);
  }

  // -- edit: a live check of the YAML and its citations ------------------------------------------------------
  const form = document.getElementById("edit-form");
  const area = document.getElementById("yaml");
  const panel = document.getElementById("check");
  if (form && area && panel) {
    let timer = null;
    let seq = 0;
    const csrf = form.querySelector("input[name=csrf]").value;
    const check = () => {
      const mine = ++seq;
      fetch(form.dataset.check, { method: "POST", body: new FormData(form), headers: { "X-CSRF-Token": csrf },
                                  credentials: "same-origin" })
        .then((r) => r.text()).then((html) => { if (mine === seq) { panel.innerHTML = html; wireLines(); } });
    };
    area.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(check, 500); });
    const wireLines = () => panel.querySelectorAll("[data-line]").forEach((el) => {
      const line = parseInt(el.dataset.line, 10);
      if (!line) return;
      el.classList.add("jump");
      el.addEventListener("click", () => {
        const lines = area.value.split("\n");
        const start = lines.slice(0, line - 1).join("\n").length + (line > 1 ? 1 : 0);
        area.focus();
        area.setSelectionRange(start, start + (lines[line - 1] || "").length);
      });
    });
    wireLines();
    if (!panel.textContent.trim()) check();
  }
})();
