// index.html: choose a game, its mode, players, who plays each seat, the screen, the pace, a
// seed and the rules options, for people who do not program. It builds play.html's link (the
// link is the game: it can be bookmarked or shared) and needs no Python: the builder writes
// every game's choices into the page (`<script type="application/json" id="cw-choices">`).

/**
 * The builder's data, from each game's option form (core.spec.option_form), every value also
 * written as the link writes it (`text`: the command line's --option text).
 * @typedef {{text: string, label: string}} Choice
 * @typedef {{name: string, label: string, help: string, input: string, accepts: string, text: string,
 *   default_label: string, choices?: Choice[], min?: number | null, max?: number | null}} OptionChoice
 * @typedef {{name: string, label: string, players: number[], help: string, options: OptionChoice[]}} ModeChoice
 * @typedef {{name: string, title: string, summary: string, modes: ModeChoice[], bots: string[],
 *   default_bot: string}} GameChoice
 */

const PACES = [["Slow (1.5 s a move)", "1.5"], ["Normal (0.7 s)", "0.7"], ["Fast (0.3 s)", "0.3"], ["Instant", "0"]];
const SEATS = "ABCDEFGH";

/**
 * @param {string} tag @param {Record<string, any>} [attrs] @param {(Node | string)[]} [children]
 * @returns {HTMLElement}
 */
function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    if (k === "text") node.textContent = String(v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  node.append(...children);
  return node;
}

/** A labelled field: label, control and a line of help, tied together for screen readers.
 * @param {string} id @param {string} label @param {HTMLElement} control @param {string} [help] */
function field(id, label, control, help) {
  control.id = id;
  const parts = [el("label", { for: id, text: label }), control];
  if (help) {
    parts.push(el("p", { class: "cw-help", id: `${id}-help`, text: help }));
    control.setAttribute("aria-describedby", `${id}-help`);
  }
  return el("div", { class: "cw-field" }, parts);
}

/** @param {[string, string][]} pairs label, value @param {string} [selected] */
function select(pairs, selected) {
  const s = /** @type {HTMLSelectElement} */ (el("select"));
  for (const [label, value] of pairs) s.append(el("option", { value, selected: value === selected, text: label }));
  return s;
}

export function chooser() {
  /** @type {{games: GameChoice[]}} */
  const data = JSON.parse(document.getElementById("cw-choices")?.textContent || "{}");
  const form = /** @type {HTMLFormElement} */ (document.getElementById("cw-chooser"));
  if (!form || !data.games?.length) return;
  const games = Object.fromEntries(data.games.map((g) => [g.name, g]));

  const game = select(data.games.map((g) => [g.title, g.name]));
  const mode = select([]);
  const players = select([]);
  const screen = select([]);
  const pace = select(PACES.map(([a, b]) => [a, b]), "0.7");
  const seed = /** @type {HTMLInputElement} */ (el("input", { type: "text", inputmode: "numeric", autocomplete: "off",
    placeholder: "any" }));
  const seats = el("fieldset", { class: "cw-seats" });
  const options = el("fieldset", { class: "cw-options" });
  const link = /** @type {HTMLAnchorElement} */ (el("a", { id: "cw-link", class: "cw-link" }));
  const start = el("button", { type: "submit", class: "cw-start", text: "Play" });
  /** @type {{name: HTMLInputElement, who: HTMLSelectElement}[]} */
  let seatFields = [];

  form.replaceChildren(
    field("cw-game", "Game", game),
    field("cw-mode", "Mode", mode),
    field("cw-players", "Players", players),
    seats,
    field("cw-screen", "Screen", screen, "Your own seat: the table shows your cards. Hot seat: people share "
      + "this screen, and a curtain hides each hand between turns. Teacher view: every hand face up."),
    field("cw-pace", "Pace of the computer's moves", pace),
    field("cw-seed", "Seed", seed, "A whole number deals the same cards again; leave it empty for a new deal."),
    options,
    el("div", { class: "cw-go" }, [start, el("p", { class: "cw-help" }, ["Link to this game: ", link])]),
  );

  const current = () => games[game.value];
  const currentMode = () => current().modes.find((m) => m.name === mode.value) || current().modes[0];

  function fillModes() {
    const g = current();
    mode.replaceChildren(...g.modes.map((m) => el("option", { value: m.name, text: m.label })));
    /** @type {HTMLElement} */ (mode.parentElement).hidden = g.modes.length < 2;
    fillPlayers();
    fillOptions();
  }

  function fillPlayers() {
    const counts = currentMode().players;
    const was = players.value;
    players.replaceChildren(...counts.map((n) => el("option", { value: String(n), text: String(n),
      selected: String(n) === was })));
    fillSeats();
  }

  function fillSeats() {
    const g = current();
    const n = Number(players.value);
    const old = seatFields;
    seatFields = [];
    const rows = [el("legend", { text: "Who plays each seat" })];
    for (let s = 0; s < n; s++) {
      const name = /** @type {HTMLInputElement} */ (el("input", { type: "text", maxlength: 20, autocomplete: "off",
        placeholder: SEATS[s], id: `cw-seat-${s}-name` }));
      const who = select([["a person", ""], ...g.bots.map((b) => [`the computer (${b})`, b])],
        s === 0 ? "" : g.default_bot);
      who.id = `cw-seat-${s}-who`;
      if (old[s]) {
        name.value = old[s].name.value;
        if ([...who.options].some((o) => o.value === old[s].who.value)) who.value = old[s].who.value;
      }
      seatFields.push({ name, who });
      rows.push(el("div", { class: "cw-seat" }, [
        el("label", { for: name.id, text: `Seat ${SEATS[s]}: name` }), name,
        el("label", { for: who.id, text: "played by" }), who,
      ]));
    }
    seats.replaceChildren(...rows);
    fillScreens();
  }

  function fillScreens() {
    const was = screen.value;
    const people = seatFields.map((f, s) => [f, s]).filter(([f]) => /** @type {any} */ (f).who.value === "");
    const pairs = /** @type {[string, string][]} */ (people.map(([f, s]) => [
      `${/** @type {any} */ (f).name.value.trim() || SEATS[/** @type {number} */ (s)]}'s own seat`, `seat:${s}`]));
    if (people.length) pairs.push(["Hot seat (people take turns at this screen)", "hotseat"]);
    pairs.push(["Teacher view (every hand face up)", "teacher"]);
    screen.replaceChildren(...pairs.map(([label, value]) => el("option", { value, text: label })));
    // One person: their seat; several: they share the screen; nobody: the bots play it out.
    const fallback = people.length === 1 ? pairs[0][1] : people.length > 1 ? "hotseat" : "teacher";
    // A choice made stays while the people stay; another person (or one less) starts again.
    const same = screen.dataset.people === String(people.length) && pairs.some(([, v]) => v === was);
    screen.value = same ? was : fallback;
    screen.dataset.people = String(people.length);
    update();
  }

  function fillOptions() {
    const rows = [el("legend", { text: "Rules options" })];
    for (const o of currentMode().options) {
      const id = `cw-opt-${o.name}`;
      const help = [o.help, o.accepts && `Allowed: ${o.accepts}.`, `Default: ${o.default_label}.`].filter(Boolean).join(" ");
      if (o.input === "fixed") {  // a table of numbers: set from code, not in a form
        rows.push(el("div", { class: "cw-field" }, [el("span", { class: "cw-label", text: o.label }),
          el("p", { class: "cw-help", text: `${help} Set from Python code only.` })]));
        continue;
      }
      /** @type {HTMLInputElement | HTMLSelectElement} */
      let control;
      if (o.choices) {
        control = select(o.choices.map((c) => [c.label, c.text]), o.text);
      } else {
        control = /** @type {HTMLInputElement} */ (el("input", { type: "text", autocomplete: "off",
          inputmode: o.input === "number" ? "numeric" : null, placeholder: o.text }));
      }
      control.dataset.option = o.name;
      control.dataset.default = o.text;
      rows.push(field(id, o.label, control, help));
    }
    options.replaceChildren(...rows);
    update();
  }

  /** The query of play.html for the choices made (the link is the game). */
  function query() {
    const q = new URLSearchParams();
    const g = current();
    q.set("game", g.name);
    if (g.modes.length > 1) q.set("mode", mode.value);
    q.set("players", players.value);
    const names = seatFields.map((f) => f.name.value.trim().replaceAll(",", " "));
    if (names.some(Boolean)) q.set("names", names.map((n, s) => n || SEATS[s]).join(","));
    const bots = seatFields.map((f) => f.who.value);
    if (bots.some(Boolean)) q.set("bots", bots.join(","));
    if (screen.value === "hotseat") q.set("hotseat", "true");
    else if (screen.value.startsWith("seat:")) q.set("seat", screen.value.slice(5));
    q.set("bot_delay", pace.value);
    if (seed.value.trim()) q.set("seed", seed.value.trim());
    for (const c of /** @type {NodeListOf<HTMLInputElement>} */ (options.querySelectorAll("[data-option]"))) {
      const v = c.value.trim();
      if (v && v !== c.dataset.default) q.set(/** @type {string} */ (c.dataset.option), v);
    }
    return q.toString();
  }

  function update() {
    const href = `play.html?${query()}`;
    link.href = href;
    link.textContent = href;
  }

  game.addEventListener("change", fillModes);
  mode.addEventListener("change", () => { fillPlayers(); fillOptions(); });
  players.addEventListener("change", fillSeats);
  seats.addEventListener("change", fillScreens);
  seats.addEventListener("input", fillScreens);
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.href = `play.html?${query()}`;
  });
  fillModes();
}
