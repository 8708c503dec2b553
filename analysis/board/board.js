// The analysis board's front end: one module for the served page, the self-contained
// HTML file and the JupyterLab widget (anywidget). It draws a state (BoardState.to_json
// in analysis/board/state.py) and sends actions to a backend:
//   backend.state()      -> Promise<state>
//   backend.act(action)  -> Promise<{state, error}>   (action: {action: "play", card} ...)
// Every value drawn comes from the state the backend returned last; while an action is
// on its way the values are hidden, and a refused action redraws the backend's state.

const SUITS = { S: ["\u2660", "black"], H: ["\u2665", "red"], D: ["\u2666", "red"], C: ["\u2663", "black"] };

const CSS = `
.tlb { font-family: system-ui, sans-serif; font-size: 14px; color: #222; max-width: 980px; }
.tlb h3 { margin: 0.2em 0; font-size: 16px; }
.tlb .row { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-start; }
.tlb .panel { border: 1px solid #ccc; border-radius: 6px; padding: 6px 8px; margin: 4px 0; background: #fafafa; }
.tlb .seat.to-move { border-color: #2a7; box-shadow: 0 0 0 2px #2a7 inset; }
.tlb .seat .label { font-weight: bold; }
.tlb .hand { margin: 3px 0; white-space: nowrap; }
.tlb .hand.idle { opacity: 0.55; }
.tlb .hand .kind { display: inline-block; width: 1.2em; color: #666; }
.tlb .suit { display: inline-block; margin-right: 6px; }
.tlb .red { color: #c00; }
.tlb .black { color: #111; }
.tlb button.card { font: inherit; font-weight: bold; min-width: 2.1em; padding: 2px 3px; margin: 1px;
  border: 1px solid #bbb; border-radius: 4px; background: #fff; cursor: pointer; vertical-align: top; }
.tlb button.card.legal { border-color: #2a7; background: #efffef; }
.tlb button.card.best { background: #c8f5c8; }
.tlb button.card .val { display: block; font-size: 11px; font-weight: normal; color: #333; }
.tlb button.card .val.lose { color: #c00; }
.tlb[data-busy="1"] .val, .tlb[data-busy="1"] .num { visibility: hidden; }
.tlb .trick .card, .tlb .pv .card, .tlb .line .card { display: inline-block; font-weight: bold; margin-right: 5px; white-space: nowrap; }
.tlb .who { font-weight: normal; color: #777; font-size: 11px; margin-right: 1px; }
.tlb .controls button { margin: 2px; }
.tlb .error { color: #c00; min-height: 1.2em; }
.tlb code.position { display: inline-block; word-break: break-all; background: #f0f0f0; padding: 2px 4px; }
.tlb table.score td, .tlb table.score th { padding: 1px 8px; text-align: right; }
.tlb .line .trick-row { cursor: pointer; }
.tlb .line .future { opacity: 0.45; }
.tlb .line .lost { color: #c00; }
.tlb .line .here { outline: 2px solid #2a7; }
.tlb .back { color: #446; letter-spacing: 1px; }
.tlb .sd-note { color: #555; font-size: 12px; }
.tlb button.card .spread { display: block; font-size: 10px; font-weight: normal; color: #666; }
.tlb table.deal-table { border-collapse: collapse; font-size: 12px; }
.tlb table.deal-table td, .tlb table.deal-table th { border: 1px solid #ddd; padding: 1px 5px; text-align: right; }
.tlb .tree .node { white-space: nowrap; line-height: 1.5; }
.tlb .tree .toggle { display: inline-block; width: 1.3em; cursor: pointer; color: #357; border: 0; background: none; padding: 0; font: inherit; }
.tlb .tree .go { cursor: pointer; }
.tlb .tree .go:hover { text-decoration: underline; }
.tlb .tree .node.here > .go { outline: 2px solid #2a7; }
.tlb .tree .mark { color: #a60; font-size: 11px; margin-left: 4px; }
`;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function who(seat) { return el("span", { class: "who" }, seat); }
function suitOf(card) { return card[card.length - 1]; }
function rankOf(card) { return card.slice(0, -1); }
function cardText(card) {
  const [sym, colour] = SUITS[suitOf(card)];
  return el("span", { class: colour }, rankOf(card), sym);
}

// Mount a board on a DOM element; returns {set(state), refresh()}.
export function mount(root, backend) {
  let state = null;
  let error = "";
  let busy = false;
  let showLoss = false;
  root.classList.add("tlb");
  root.replaceChildren();
  const style = el("style", {}, CSS);
  const body = el("div");
  root.append(style, body);

  async function act(action) {
    if (busy) return;
    busy = true;
    root.dataset.busy = "1";
    try {
      const answer = await backend.act(action);
      state = answer.state;
      error = answer.error || "";
    } catch (e) {
      error = String((e && e.message) || e);
      try { state = await backend.state(); } catch (e2) { state = null; }
    }
    busy = false;
    root.dataset.busy = "";
    draw();
  }

  function hand(seat, cards, kind, active, idle) {
    const moves = {};
    if (active) for (const m of state.moves) moves[m.card] = m;
    const bySuit = { S: [], H: [], D: [], C: [] };
    for (const c of cards) bySuit[suitOf(c)].push(c);
    const suits = ["S", "H", "D", "C"].map((s) => {
      const [sym, colour] = SUITS[s];
      const buttons = bySuit[s].map((c) => {
        const m = moves[c];
        const cls = ["card", colour, m ? "legal" : "", m && m.best ? "best" : ""].join(" ");
        if (m && state.single_dummy) {
          const rate = m.make_rate === undefined ? "" : `, contract made in ${Math.round(100 * m.make_rate)}% of the worlds`;
          return el(
            "button",
            { class: cls, "data-card": c, "data-seat": seat, onclick: () => act({ action: "play", card: c }),
              title: `${c}: ${m.mean} points for ${state.mover_side} on average over ${state.single_dummy.samples} worlds (${m.min} to ${m.max}), best in ${Math.round(100 * m.best_rate)}%${rate}` },
            rankOf(c),
            el("span", { class: "val", "data-mean": m.mean, "data-min": m.min, "data-max": m.max }, m.mean.toFixed(1)),
            el("span", { class: "spread val" }, `${m.min}\u2013${m.max}`),
            m.make_rate === undefined ? null : el("span", { class: "spread val", "data-make": m.make_rate }, `${Math.round(100 * m.make_rate)}%`),
          );
        }
        const shown = m ? (showLoss ? (m.loss ? "\u2212" + m.loss : "0") : String(m.value)) : null;
        return el(
          "button",
          { class: cls, "data-card": c, "data-seat": seat, title: m ? `${c}: ${m.value} points for ${state.mover_side}, loses ${m.loss}` : c,
            onclick: () => act({ action: "play", card: c }) },
          rankOf(c),
          m ? el("span", { class: "val" + (m.loss ? " lose" : ""), "data-value": m.value, "data-loss": m.loss }, shown) : null,
        );
      });
      return el("span", { class: "suit" }, el("span", { class: colour }, sym), buttons.length ? buttons : "\u2014");
    });
    return el("div", { class: "hand" + (idle ? " idle" : ""), "data-hand": kind || "" },
      kind ? el("span", { class: "kind" }, kind) : null, suits);
  }

  function seats() {
    return el("div", { class: "row seats" }, state.seats.map((s) => {
      const moving = s.seat === state.to_move;
      const kinds = s.hands.length === 2 ? ["L", "R"] : [null];
      const hands = s.hands.map((cards, i) => {
        const kind = kinds[i];
        const active = moving && (kind === null || kind === state.hand);
        if (s.visible === false) {
          return el("div", { class: "hand hidden" + (kind !== null && kind !== state.hand ? " idle" : ""), "data-hand": kind || "" },
            kind ? el("span", { class: "kind" }, kind) : null,
            el("span", { class: "back", title: "hidden from the viewer" }, "\u{1F0A0}".repeat(Math.min(s.counts[i], 9))), ` ${s.counts[i]} hidden`);
        }
        return hand(s.seat, cards, kind, active, kind !== null && kind !== state.hand);
      });
      const bidder = state.bidder === s.seat ? " (bidder)" : "";
      return el("div", { class: "panel seat" + (moving ? " to-move" : ""), "data-seat": s.seat },
        el("div", {}, el("span", { class: "label" }, (state.game === "carabin" ? "seat " : "") + s.seat + bidder),
          (s.side === s.seat ? "" : ` \u00b7 ${s.side}`) + " \u00b7 tricks ", el("span", { class: "tricks" }, s.tricks), moving ? " \u00b7 to play" : ""),
        hands);
    }));
  }

  function trick() {
    const cards = state.trick.map((t) => el("span", { class: "card" }, who(t.seat), cardText(t.card)));
    const parts = [el("b", {}, "Trick: "), cards.length ? cards : "\u2014"];
    if (state.last_trick) {
      const lt = state.last_trick;
      parts.push(el("span", { class: "last" }, " \u00b7 last trick ",
        lt.cards.map((t) => el("span", { class: "card" }, who(t.seat), cardText(t.card))),
        `won by ${lt.won_by} (${lt.points})`));
    }
    return el("div", { class: "panel trick", "data-role": "trick" }, parts);
  }

  function score() {
    const dash = (x) => (x === null || x === undefined ? "\u2014" : x);
    const rows = state.sides.map((s) => el("tr", { "data-side": s }, el("th", {}, s),
      el("td", { class: "num", "data-role": "points" }, state.points[s]),
      el("td", { class: "num", "data-role": "value" }, dash(state.value && state.value[s])),
      el("td", { class: "num", "data-role": "projected" }, dash(state.projected && state.projected[s]))));
    return el("table", { class: "score" },
      el("tr", {}, el("th", {}), el("th", {}, "taken"), el("th", {}, "from here"), el("th", {}, "projected")), rows);
  }

  function controls() {
    const b = (label, action, enabled, role) => el("button", { disabled: !enabled || busy, "data-role": role, onclick: () => act(action) }, label);
    const lineEnd = state.line.length;
    return el("div", { class: "controls" },
      b("\u00ab start", { action: "jump", ply: 0 }, state.ply > 0, "start"),
      b("\u21b6 undo", { action: "undo" }, state.can_undo, "undo"),
      b("\u21b7 redo", { action: "redo" }, state.can_redo, "redo"),
      b("end of line \u00bb", { action: "jump", ply: lineEnd }, state.ply < lineEnd, "end"),
      b("\u2605 play the best card", { action: "best" }, !state.over, "best"),
      el("label", {}, el("input", { type: "checkbox", "data-role": "show-loss", checked: showLoss,
        onclick: (e) => { showLoss = e.target.checked; draw(); } }), " show losses"),
      el("div", {}, singleDummyControl()),
    );
  }

  function singleDummyControl() {
    const options = [el("option", { value: "", selected: state.viewer === null }, "off (double dummy: every hand)")]
      .concat(state.seat_labels.map((s) => el("option", { value: s, selected: state.viewer === s }, `seat ${s}`)));
    const select = el("select", { "data-role": "viewer", disabled: !state.has_deal || busy,
      title: state.has_deal ? "see the deal as one seat: his hands only, sampled values" : "needs a board started from a deal" }, options);
    select.addEventListener("change", () => act({ action: "view", seat: select.value || null }));
    const sd = state.single_dummy;
    let note = "";
    if (state.viewer !== null) {
      const worlds = sd && sd.worlds > 1e6 ? sd.worlds.toPrecision(2) : sd && sd.worlds;
      note = sd && sd.error ? ` ${sd.error}` : sd ? ` PIMC over ${sd.samples} worlds (seed ${sd.seed}, of ${worlds} possible): mean points for ${state.viewer}'s side, min\u2013max${state.game === "carabin" ? ", % of worlds the contract is made" : ""}`
        : (state.over ? "" : ` ${state.to_move} to play, hidden: \u2605 plays his double-dummy best card`);
    }
    return el("label", {}, "Single dummy: ", select, el("span", { class: "sd-note", "data-role": "sd-note" }, note));
  }

  function tablePanel() {
    if (!state.has_deal || state.viewer !== null) return null;
    const t = state.table;
    const head = [el("b", {}, "Deal table "), el("span", { class: "sd-note" }, "(double dummy, every bidder and trump)")];
    if (!t) {
      return el("div", { class: "panel", "data-role": "deal-table" }, head, " ",
        el("button", { "data-role": "show-table", disabled: busy, onclick: () => act({ action: "table" }) }, "make the deal table"));
    }
    const cols = Object.keys(t.records[0] || {});
    const rows = t.records.map((r) => el("tr", {}, cols.map((c) => el("td", { "data-col": c }, Array.isArray(r[c]) ? r[c].join("\u2013") : String(r[c] === null ? "" : r[c])))));
    const extra = t.points_in_play !== undefined ? ` \u00b7 ${t.points_in_play} points in play` : "";
    return el("div", { class: "panel", "data-role": "deal-table" }, head, extra,
      el("table", { class: "deal-table" }, el("tr", {}, cols.map((c) => el("th", {}, c))), rows));
  }

  function treePanel() {
    if (state.viewer !== null) return null;
    const t = state.tree;
    const build = el("button", { "data-role": "build-tree", disabled: busy || state.over, onclick: () => act({ action: "tree" }) },
      t ? "tree from here" : "show the tree of optimal lines from here");
    if (!t) return el("div", { class: "panel tree", "data-role": "tree" }, el("b", {}, "Tree of optimal lines "), build);
    const nodes = t.lines.map((n) => {
      const toggle = n.children
        ? el("button", { class: "toggle", "data-role": n.open ? "collapse" : "expand", "data-path": n.path.join(" "),
            onclick: () => act({ action: n.open ? "collapse" : "expand", path: n.path }) }, n.open ? "\u25be" : "\u25b8")
        : el("span", { class: "toggle" }, "\u00b7");
      const label = n.path.length
        ? [who(n.seat), n.cards.map((c, i) => [i ? "/" : "", cardText(c)])]
        : ["start of the tree (card ", t.ply, ")"];
      const tail = [];
      if (n.won_by) tail.push(` \u2192 ${n.won_by} +${n.points}`);
      tail.push(el("span", { class: "sd-note" }, ` ${state.sides.map((s) => `${s} ${n.value[s]}`).join(" \u00b7 ")}`));
      if (n.critical) tail.push(el("span", { class: "mark", title: "critical: one class of cards keeps the value" }, "! critical"));
      if (n.transposition) tail.push(el("span", { class: "mark", "data-role": "transposition", title: "reached by more than one optimal line" }, "\u21c4 transposition"));
      return el("div", { class: "node" + (n.here ? " here" : ""), "data-path": n.path.join(" "), "data-depth": n.depth, style: `padding-left: ${1.2 * n.depth}em` },
        toggle, el("span", { class: "go", "data-role": "follow", title: "put the board here", onclick: () => act({ action: "follow", path: n.path }) }, label), tail);
    });
    return el("div", { class: "panel tree", "data-role": "tree" }, el("b", {}, "Tree of optimal lines "),
      el("span", { class: "sd-note" }, `(${t.nodes} positions; beside each card the points each side takes from there on; \u25b8 expands a node to its optimal cards, a click on a card puts the board there; \u21c4 a position reached by several lines) `), build,
      el("div", {}, nodes));
  }

  function position() {
    const code = el("code", { class: "position", "data-role": "position" }, state.position);
    const copy = el("button", { "data-role": "copy", onclick: async () => {
      try { await navigator.clipboard.writeText(state.position); copy.textContent = "copied"; }
      catch (e) { const r = document.createRange(); r.selectNodeContents(code); const s = getSelection(); s.removeAllRanges(); s.addRange(r); copy.textContent = "selected: press Ctrl-C"; }
    } }, "copy position");
    return el("div", { class: "panel" }, el("b", {}, state.viewer === null ? "Position: " : "View: "), code, " ", copy);
  }

  function line() {
    const tricks = [];
    for (const p of state.line) {
      if (!tricks[p.trick - 1]) tricks[p.trick - 1] = [];
      tricks[p.trick - 1].push(p);
    }
    const critical = new Set(state.critical.map((c) => c.ply));
    const rows = tricks.filter(Boolean).map((cards) => {
      const first = cards[0].ply - 1;
      const last = cards[cards.length - 1];
      return el("div", { class: "trick-row", "data-trick": cards[0].trick },
        el("a", { href: "#", "data-role": "jump-trick", onclick: (e) => { e.preventDefault(); act({ action: "jump", ply: first }); } }, `${cards[0].trick}.`),
        " ",
        cards.map((p) => el("span", {
          class: "card" + (p.ply > state.ply ? " future" : "") + (p.loss ? " lost" : "") + (p.ply === state.ply ? " here" : ""),
          "data-ply": p.ply, title: p.loss ? `loses ${p.loss}; best ${p.best.join(" ")}` : (p.best ? "optimal" : p.card),
          onclick: () => act({ action: "jump", ply: p.ply }),
        }, who(p.seat), cardText(p.card), p.loss ? ` (\u2212${p.loss})` : "", critical.has(p.ply - 1) ? "!" : "", " ")),
        last.won_by ? ` \u2192 ${last.won_by} +${last.points}` : "");
    });
    return el("div", { class: "panel line", "data-role": "line" }, el("b", {}, "Line played "),
      el("span", {}, `(card ${state.ply} of ${state.line.length}; ! critical decision, \u2212n points lost)`),
      rows.length ? rows : el("div", {}, "no card yet"));
  }

  function pv() {
    return el("div", { class: "panel pv", "data-role": "pv" }, el("b", {}, "Principal variation: "),
      state.pv.length ? state.pv.map((p) => el("span", { class: "card" }, who(p.seat), cardText(p.card))) : "\u2014");
  }

  function criticalPanel() {
    const items = state.critical.map((c) => el("li", { "data-ply": c.ply },
      `card ${c.ply + 1}: ${c.seat} must play ${c.optimal.join("/")} (the next best loses ${c.margin})`,
      c.played ? (c.loss ? ` \u2014 played ${c.played}, lost ${c.loss}` : ` \u2014 played ${c.played}`) : " \u2014 now"));
    return el("div", { class: "panel", "data-role": "critical" }, el("b", {}, "Critical decisions on this line"),
      items.length ? el("ul", {}, items) : el("div", {}, "none so far"));
  }

  function draw() {
    if (!state) {
      body.replaceChildren(el("div", { class: "error", "data-role": "error" }, error || "no board"));
      return;
    }
    const trump = SUITS[state.trump];
    const head = [state.game === "carabin" ? "Carabin" : "Klabberjass", " \u00b7 trump ", el("span", { class: trump[1] }, trump[0])];
    if (state.game === "carabin") head.push(` \u00b7 bidder ${state.bidder} \u00b7 ${state.hand} trick`);
    head.push(state.over ? " \u00b7 the play is over" : ` \u00b7 ${state.to_move} to play (${state.mover_side})`);
    if (state.viewer !== null) head.push(` \u00b7 single dummy: seen by ${state.viewer}`);
    body.replaceChildren(...[
      el("h3", {}, head),
      el("div", { class: "error", "data-role": "error" }, error),
      el("div", { class: "row" }, el("div", { class: "panel" }, score()), controls()),
      seats(), trick(), state.viewer === null ? pv() : null, position(), line(),
      state.viewer === null ? criticalPanel() : null, tablePanel(), treePanel(),
    ].filter(Boolean));
  }

  backend.state().then((s) => { state = s; draw(); }, (e) => { error = String((e && e.message) || e); draw(); });
  return {
    set(s) { state = s; error = ""; draw(); },
  };
}

// The served page: a JSON API on the same origin, with the page's token on every request.
export function httpBackend(token) {
  async function call(path, init) {
    const r = await fetch(path, { ...init, headers: { "X-Tricklab-Token": token, "Content-Type": "application/json" } });
    const data = await r.json();
    if (!data.state && data.error) throw new Error(data.error);
    return data;
  }
  return {
    state: async () => (await call("api/state", { method: "GET" })).state,
    act: (action) => call("api/act", { method: "POST", body: JSON.stringify(action) }),
  };
}

// The self-contained file: the states of one line, played back without a server.
export function staticBackend(states) {
  let i = 0;
  const answer = (error) => Promise.resolve({ state: states[i], error: error || "" });
  return {
    state: () => Promise.resolve(states[i]),
    act(a) {
      const s = states[i];
      if (a.action === "play") {
        const next = s.line[s.ply];
        if (next && next.card === a.card && i + 1 < states.length) { i += 1; return answer(); }
        const legal = s.moves.map((m) => m.card);
        if (!legal.includes(a.card)) return answer(`'${a.card}' may not be played (legal: ${legal.join(" ") || "none"})`);
        return answer(`${a.card} leaves the analysed line: this file holds the optimal line only (tricklab board serves every line)`);
      }
      if (a.action === "undo" && i > 0) { i -= 1; return answer(); }
      if ((a.action === "redo" || a.action === "best") && i + 1 < states.length) { i += 1; return answer(); }
      if (a.action === "jump" && a.ply >= 0 && a.ply < states.length) { i = a.ply; return answer(); }
      if (!["undo", "redo", "best", "jump"].includes(a.action)) return answer(`${a.action}: only the served board (tricklab board) does this`);
      return answer(`nothing to ${a.action} here`);
    },
  };
}

// The JupyterLab widget (anywidget): the state is a JSON string trait; actions go to
// Python as custom messages and come back as {id, state, error}.
function widgetBackend(model) {
  let next = 0;
  const waiting = new Map();
  model.on("msg:custom", (msg) => {
    const done = waiting.get(msg.id);
    if (done) { waiting.delete(msg.id); done({ state: JSON.parse(msg.state), error: msg.error || "" }); }
  });
  return {
    state: () => Promise.resolve(JSON.parse(model.get("state"))),
    act(action) {
      const id = ++next;
      return new Promise((resolve) => { waiting.set(id, resolve); model.send({ ...action, id }); });
    },
  };
}

export default {
  render({ model, el: root }) {
    const board = mount(root, widgetBackend(model));
    const changed = () => board.set(JSON.parse(model.get("state")));
    model.on("change:state", changed);
    return () => model.off("change:state", changed);
  },
};
