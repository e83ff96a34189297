// The tool pages' progressive-enhancement layer: sends the form to the API's public endpoint and
// shows the answer. Results are built with textContent only, so nothing in an answer is read as
// HTML. An error naming a field is shown beside that field (WCAG 2.2 SC 3.3.1).
const texts = JSON.parse(document.getElementById("page-texts")?.textContent || "{}");
const t = (key, values = {}) =>
  (texts[key] ?? key).replace(/\{(\w+)\}/g, (_, name) =>
    values[name] === undefined ? "" : String(values[name]),
  );

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const money = new Intl.NumberFormat(texts.locale || "nl-NL", { style: "currency", currency: "EUR" });
const euros = (cents) => money.format(cents / 100);
const percent = (value) =>
  `${new Intl.NumberFormat(texts.locale || "nl-NL", { maximumFractionDigits: 4 }).format(value)}%`;
const date = (iso) =>
  iso
    ? new Intl.DateTimeFormat(texts.locale || "nl-NL", {
        day: "numeric",
        month: "long",
        year: "numeric",
        timeZone: "UTC",
      }).format(new Date(`${iso}T00:00:00Z`))
    : t("unknown");
// Dates in a table in figures (15-01-2024), so six columns fit a desktop column and a phone.
const shortDate = (iso) =>
  iso
    ? new Intl.DateTimeFormat(texts.locale || "nl-NL", {
        day: "2-digit",
        month: "2-digit",
        year: "numeric",
        timeZone: "UTC",
      }).format(new Date(`${iso}T00:00:00Z`))
    : t("unknown");

function clearErrors(form) {
  for (const slot of form.querySelectorAll(".error")) {
    slot.textContent = "";
    slot.hidden = true;
  }
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
}

// Shows each error beside the field the API names (its `field`, the request's field name); one it
// cannot place goes to the form's own error line. Focus moves to the first field in error.
function showErrors(form, errors, fallback) {
  let first;
  const general = [];
  for (const error of errors) {
    const name = String(error.field ?? "").split(/[.[]/)[0];
    const box = name ? form.querySelector(`[data-field="${CSS.escape(name)}"]`) : null;
    if (!box) {
      general.push(error.message ?? "");
      continue;
    }
    const slot = box.querySelector(".error");
    slot.textContent = slot.textContent ? `${slot.textContent} ${error.message}` : error.message;
    slot.hidden = false;
    const input = box.querySelector("input");
    input?.setAttribute("aria-invalid", "true");
    first ??= input;
  }
  const formError = form.querySelector(".form-error");
  const message = [fallback, ...general].filter(Boolean).join(" ");
  if (message) {
    formError.textContent = message;
    formError.hidden = false;
  }
  first?.focus();
}

async function callApi(form, body) {
  const button = form.querySelector("button[type=submit]");
  const label = button.textContent;
  button.disabled = true;
  button.textContent = t("busy");
  try {
    const res = await fetch(form.dataset.endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, application/problem+json" },
      body: JSON.stringify(body),
    });
    const answer = await res.json().catch(() => null);
    return { status: res.status, answer };
  } catch {
    return { status: 0, answer: null };
  } finally {
    button.disabled = false;
    button.textContent = label;
  }
}

// A problem+json answer: per-field errors beside their fields, anything else on the form.
function showProblem(form, status, answer) {
  if (answer && Array.isArray(answer.errors) && answer.errors.length > 0) {
    showErrors(form, answer.errors, t("fixFields"));
  } else showErrors(form, [], answer?.detail || t("failed"));
  return status;
}

function show(section, ...children) {
  section.replaceChildren(...children.flat(Number.POSITIVE_INFINITY).filter(Boolean));
  section.hidden = false;
  section.focus();
}

// Euros as people type them: "1.250,00", "1250,5", "1250.00" or "1250" (a dot followed by one or
// two digits at the end is a decimal point; other dots group thousands).
function parseEuros(text) {
  let s = text.replace(/[\s€]/g, "");
  if (!s) return undefined;
  if (s.includes(",")) s = s.replace(/\./g, "").replace(",", ".");
  else if (!/\.\d{1,2}$/.test(s)) s = s.replace(/\./g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return undefined;
  const [whole, fraction = ""] = s.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

function figure(label, cents, name, extraClass) {
  return [
    el("dt", { class: extraClass }, label),
    el("dd", { class: extraClass, "data-figure": name, "data-cents": cents }, euros(cents)),
  ];
}

// The explanation of the result in the page's language, from the answer's figures: the API's own
// `basis` is an English sentence for integrators (issue 31: one language per page).
function basisText(r) {
  const i = r.interest;
  const sentences = [t("basisIntro"), t(r.collection_costs_vat_cents > 0 ? "basisCostsVat" : "basisCosts")];
  // Art. 3 of the Besluit: the scale applies to a default from 1 July 2012.
  if (i?.due_date && i.due_date < "2012-06-30") sentences.push(t("basisBefore2012"));
  const law = t(`interestType_${i?.type ?? "wettelijke_rente"}`);
  if (!i?.due_date) sentences.push(t("basisNoInterest"));
  else if (!i.periods?.length)
    sentences.push(t("basisNoInterestYet", { due: date(i.due_date), end: date(i.end_date) }));
  else {
    sentences.push(t("basisInterest", { law, due: date(i.due_date), end: date(i.end_date) }));
    if (i.beyond_rate_table)
      sentences.push(t("basisBeyondTable", { last: date(i.rate_table_last_known_date) }));
    if (i.periods.some((p) => p.rate_confidence !== "high")) sentences.push(t("basisUnconfirmed"));
  }
  sentences.push(t("basisLawful"));
  return sentences.join(" ");
}

// A cell that names its column, for the stacked layout of a narrow screen (tools.css).
const cell = (label, attrs, ...children) => el("td", { ...attrs, "data-label": label }, ...children);

function wikResult(r) {
  const figures = el(
    "dl",
    { class: "figures" },
    figure(t("principal"), r.principal_amount_cents, "principal"),
    figure(t("collectionCosts"), r.collection_costs_cents, "collection_costs"),
    r.collection_costs_vat_cents > 0
      ? figure(t("collectionCostsVat"), r.collection_costs_vat_cents, "collection_costs_vat")
      : [],
    r.interest?.due_date
      ? figure(
          `${t("interest")} (${t(`interestType_${r.interest.type}`)})`,
          r.interest.amount_cents,
          "interest",
        )
      : [],
    figure(t("total"), r.total_amount_cents, "total", "total"),
  );
  const parts = [el("h2", {}, t("resultTitle")), figures];
  if (!r.interest?.due_date) parts.push(el("p", {}, t("interestNone")));
  else if (r.interest.periods.length > 0) {
    const rows = r.interest.periods.map((p, i) =>
      el(
        "tr",
        { "data-period": i },
        cell(t("from"), {}, shortDate(p.from)),
        cell(t("to"), {}, shortDate(p.to)),
        cell(t("days"), { class: "num" }, p.days),
        cell(t("rate"), { class: "num", "data-rate": p.rate_percent }, percent(p.rate_percent)),
        cell(
          t("confidence"),
          {},
          el(
            "span",
            { class: `badge ${p.rate_confidence}`, "data-confidence": p.rate_confidence },
            t(`confidence_${p.rate_confidence}`),
          ),
        ),
        cell(t("amount"), { class: "num", "data-cents": p.amount_cents }, euros(p.amount_cents)),
      ),
    );
    parts.push(
      el(
        "div",
        { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("periodsCaption") },
        el(
          "table",
          { id: "wik-periods", class: "stack" },
          el("caption", {}, t("periodsCaption")),
          el(
            "thead",
            {},
            el(
              "tr",
              {},
              el("th", { scope: "col" }, t("from")),
              el("th", { scope: "col" }, t("to")),
              el("th", { scope: "col", class: "num" }, t("days")),
              el("th", { scope: "col", class: "num" }, t("rate")),
              el("th", { scope: "col" }, t("confidence")),
              el("th", { scope: "col", class: "num" }, t("amount")),
            ),
          ),
          el("tbody", {}, rows),
        ),
      ),
    );
  }
  parts.push(el("h3", {}, t("basis")), el("p", { class: "basis", id: "wik-basis" }, basisText(r)));
  return parts;
}

function setUpWik(form) {
  const section = document.getElementById("wik-result");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const data = new FormData(form);
    const principal = String(data.get("principal") ?? "");
    const cents = parseEuros(principal);
    if (cents === undefined) {
      showErrors(form, [
        { field: "amount_cents", message: principal.trim() ? t("invalidAmount") : t("required") },
      ]);
      return;
    }
    const body = {
      amount_cents: cents,
      debtor_type: data.get("debtor_type") || "consumer",
      include_vat: data.get("include_vat") === "on",
    };
    const due = String(data.get("due_date") ?? "");
    if (due) body.due_date = due;
    const { status, answer } = await callApi(form, body);
    if (status === 200 && answer) show(section, ...wikResult(answer));
    else showProblem(form, status, answer);
  });
}

function courtFacts(r) {
  const rows = [];
  const add = (label, value, name) => {
    rows.push(el("dt", {}, label), el("dd", { "data-fact": name }, value ?? t("unknown")));
  };
  add(t("court"), r.rechtbank, "rechtbank");
  add(t("kantonlocatie"), r.kantonlocatie, "kantonlocatie");
  add(t("letter"), r.maatgevende_letter, "maatgevende_letter");
  add(t("gemeente"), r.gemeente ? `${r.gemeente}, ${r.provincie ?? ""}` : undefined, "gemeente");
  add(t("bezoekadres"), r.bezoekadres, "bezoekadres");
  const post = r.correspondentieadres;
  add(
    t("correspondentieadres"),
    post
      ? [
          post.postbus ? `${t("postbus")} ${post.postbus}` : post.straat,
          `${post.postcode ?? ""} ${post.plaats ?? ""}`.trim(),
        ]
          .filter(Boolean)
          .join(", ")
      : undefined,
    "correspondentieadres",
  );
  if (r.betrouwbaarheid) {
    const parts = Object.entries(r.betrouwbaarheid).map(
      ([part, level]) => `${part}: ${level ? t(`reliability_${level}`) : t("unknown")}`,
    );
    add(t("reliability"), parts.join(", "), "betrouwbaarheid");
  }
  return el("dl", { class: "facts" }, rows);
}

function roldagen(r) {
  return (r.roldagen ?? []).map((dag, i) => {
    const heading = dag.letters
      ? t("rolzitting", {
          dag: t(`weekday_${dag.weekdag_naam}`),
          tijd: dag.roltijd ?? t("unknown"),
          van: dag.letters.van,
          tot: dag.letters.tot,
        })
      : t("rolzittingAll", { dag: t(`weekday_${dag.weekdag_naam}`), tijd: dag.roltijd ?? t("unknown") });
    const rows = (dag.komende_roldata ?? []).map((d) =>
      el(
        "tr",
        { "data-date": d.datum },
        cell(t("datum"), {}, date(d.datum)),
        cell(t("days"), { class: "num" }, d.dagen),
        cell(
          t("haalbaarheid"),
          {},
          el(
            "span",
            { class: `badge ${d.haalbaarheid}`, "data-haalbaarheid": d.haalbaarheid },
            t(`haalbaarheid_${d.haalbaarheid}`),
          ),
        ),
      ),
    );
    return el(
      "div",
      { class: "table-wrap", tabindex: "0", role: "region", "aria-label": heading },
      el(
        "table",
        { "data-roldag": i, class: "stack" },
        el("caption", {}, heading),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col" }, t("datum")),
            el("th", { scope: "col", class: "num" }, t("days")),
            el("th", { scope: "col" }, t("haalbaarheid")),
          ),
        ),
        el("tbody", {}, rows),
      ),
      dag.vroegste_roldatum ? el("p", {}, t("earliest", { datum: date(dag.vroegste_roldatum) })) : null,
    );
  });
}

// The answer's `opmerkingen` are the API's remarks for integrators, in Dutch and about its data
// (issue 31): the page says what is unknown in its own words instead (`ontbrekend`).
function courtExtras(r) {
  const parts = [];
  parts.push(
    el("p", { class: "notice", lang: "nl" }, el("strong", {}, `${t("disclaimer")}: `), r.disclaimer),
  );
  if (r.bronvermelding?.length) {
    parts.push(
      el(
        "details",
        {},
        el("summary", {}, t("sources")),
        el(
          "ul",
          { lang: "nl" },
          r.bronvermelding.map((b) => el("li", {}, b)),
        ),
      ),
    );
  }
  return parts;
}

function setUpCourt(form) {
  const section = document.getElementById("court-result");
  const input = (name) => form.elements.namedItem(name);
  async function lookUp() {
    clearErrors(form);
    const data = new FormData(form);
    const body = {};
    for (const name of ["woonplaats", "naam", "betekeningsdatum", "gemeente", "provincie"]) {
      const value = String(data.get(name) ?? "").trim();
      if (value) body[name] = value;
    }
    const missing = ["woonplaats", "naam"].filter((name) => !body[name]);
    if (missing.length > 0) {
      showErrors(
        form,
        missing.map((field) => ({ field, message: t("required") })),
      );
      return;
    }
    const { status, answer } = await callApi(form, body);
    if (status !== 200 || !answer) {
      showProblem(form, status, answer);
      return;
    }
    // A choice or suggestion is picked by filling the form and asking again.
    const pick = (option, label) =>
      el(
        "li",
        {},
        Object.assign(el("button", { type: "button", class: "choice" }, label), {
          onclick: () => {
            input("woonplaats").value = option.woonplaats;
            input("gemeente").value = option.gemeente ?? "";
            input("provincie").value = option.provincie ?? "";
            void lookUp();
          },
        }),
      );
    const label = (o) => t("choice", o);
    const heading = el("h2", {}, t("resultTitle"));
    if (answer.status === "ambiguous") {
      show(
        section,
        heading,
        el("p", {}, t("ambiguous", { woonplaats: answer.woonplaats })),
        el(
          "ul",
          { class: "choices" },
          answer.opties.map((o) => pick(o, label(o))),
        ),
        ...courtExtras(answer),
      );
      return;
    }
    if (answer.status === "not_found") {
      const suggestions = answer.suggesties ?? [];
      show(
        section,
        heading,
        el("p", {}, t("notFound", { woonplaats: answer.woonplaats })),
        suggestions.length > 0
          ? [
              el("p", {}, t("suggestions")),
              el(
                "ul",
                { class: "choices" },
                suggestions.map((o) => pick(o, label(o))),
              ),
            ]
          : el("p", {}, t("noSuggestions")),
        ...courtExtras(answer),
      );
      return;
    }
    const parts = [heading];
    if (answer.status === "incomplete") {
      const unknown = (answer.ontbrekend ?? []).map((p) => t(`part_${p}`));
      parts.push(
        el(
          "p",
          { class: "notice", id: "court-incomplete" },
          t("incomplete", { parts: unknown.join(", ") || t("unknown") }),
        ),
      );
    }
    parts.push(courtFacts(answer));
    const days = roldagen(answer);
    if (days.length > 0) parts.push(el("h3", {}, t("roldagen")), ...days);
    parts.push(...courtExtras(answer));
    show(section, ...parts);
  }
  // A place typed anew drops the municipality of an earlier choice.
  input("woonplaats").addEventListener("input", () => {
    input("gemeente").value = "";
    input("provincie").value = "";
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void lookUp();
  });
}

const wikForm = document.getElementById("wik-form");
if (wikForm) setUpWik(wikForm);
const courtForm = document.getElementById("court-form");
if (courtForm) setUpCourt(courtForm);
