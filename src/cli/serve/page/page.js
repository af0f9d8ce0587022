// The setters' page: sends the text to the server as it is edited (the
// "study" request) and shows what comes back. Each new request stops the
// server's work on the last one; replies to older requests are dropped.
"use strict";

const $ = (id) => document.getElementById(id);
const text = $("text");
const address = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/";
let socket = null;
let nonce = 0;
let current = 0;
let timer = null;

$("socket").textContent = "ws://localhost:" + (location.port || "80");

function connect() {
  socket = new WebSocket(address);
  socket.onopen = () => {
    document.body.dataset.connection = "open";
    $("connection").textContent = "connected";
    study();
  };
  socket.onclose = () => {
    document.body.dataset.connection = "closed";
    $("connection").textContent = "not connected: is cagey serve running? Trying again…";
    setTimeout(connect, 1500);
  };
  socket.onmessage = (event) => handle(JSON.parse(event.data));
}

function send(request) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(request));
}

function setStatus(words, busy) {
  $("status").textContent = words;
  $("cancel").disabled = !busy;
  document.body.dataset.busy = busy ? "yes" : "no";
}

function study() {
  current = ++nonce;
  const limit = Math.max(1, parseInt($("limit").value, 10) || 100000);
  for (const id of ["verdict", "count", "puzzle", "analysis", "suggestions"]) $(id).classList.add("stale");
  delete $("verdict").dataset.verdict;
  send({ nonce: current, command: "study", text: text.value, limit });
  setStatus("reading…", true);
}

function clearResults() {
  for (const id of ["verdict", "count", "puzzle", "analysis"]) {
    $(id).innerHTML = "";
    $(id).classList.remove("stale");
  }
  $("open").textContent = "Open cells are shaded, with the values they may take";
  $("suggestions").hidden = true;
}

// The message, and where it points: the line of the text with a caret
// under the column. A click on it selects that place in the text.
function showError(message, line, column) {
  const error = $("error");
  error.textContent = message;
  error.hidden = !message;
  error.onclick = null;
  text.setAttribute("aria-invalid", message ? "true" : "false");
  const lines = text.value.split("\n");
  if (!line || line > lines.length) return;
  const number = String(line);
  const gutter = " ".repeat(number.length);
  const caret = " ".repeat(Math.max(0, Array.from(lines[line - 1]).slice(0, column - 1).length));
  error.textContent += "\n" + number + " | " + lines[line - 1] + "\n" + gutter + " | " + caret + "^";
  error.onclick = () => {
    const start = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0) + column - 1;
    text.focus();
    text.setSelectionRange(start, start + 1);
  };
}

function fresh(id) {
  $(id).classList.remove("stale");
  return $(id);
}

const plural = (n, word) => n.toLocaleString("en") + " " + word + (n === 1 ? "" : "s");

function handle(reply) {
  if (reply.nonce !== current) return;
  switch (reply.type) {
    case "error":
    case "invalid":
      showError(reply.message, reply.line, reply.column);
      if (reply.line) clearResults();
      setStatus("", false);
      break;
    case "empty":
      showError("");
      clearResults();
      $("notes").textContent = "";
      setStatus("", false);
      break;
    case "puzzle": {
      showError("");
      fresh("puzzle").innerHTML = reply.svg;
      const format = {
        kenken: "KenKen text",
        sudoku: "Sudoku",
        keen: "Keen game ID",
        killer: "killer string",
        fpuzzles: "f-puzzles or SudokuPad",
      }[reply.format];
      const ignored = reply.ignored.length ? "; ignored: " + reply.ignored.join(", ") : "";
      const warnings = reply.warnings.map((w) => "\nwarning: " + w).join("");
      $("notes").textContent = reply.size + "×" + reply.size + ", read as " + format + ignored + warnings;
      setStatus("deciding whether it is unique…", true);
      break;
    }
    case "verdict": {
      const verdict = fresh("verdict");
      verdict.dataset.verdict = reply.verdict;
      verdict.textContent = {
        unique: "Unique: exactly one solution.",
        none: "No solution.",
        multiple: "Not unique: two solutions differ at " + (reply.differ || []).join(", ") + ".",
        unknown: "Not decided: " + reply.message + ".",
      }[reply.verdict];
      if (reply.verdict !== "multiple") {
        fresh("count").textContent = "";
        fresh("suggestions").hidden = true;
      }
      if (reply.verdict === "none") fresh("analysis").innerHTML = "";
      setStatus(reply.verdict === "multiple" ? "counting…" : "analysing…", true);
      break;
    }
    case "count": {
      const count = fresh("count");
      if (reply.inProgress) {
        count.textContent = "Counting: " + plural(reply.count, "solution") + " so far…";
      } else if (reply.complete) {
        count.textContent = plural(reply.count, "solution") + ".";
      } else {
        count.textContent = "More than " + plural(reply.count, "solution") + (reply.message ? " (" + reply.message + ")." : " (the count stops at the limit).");
      }
      count.dataset.count = reply.count;
      if (!reply.inProgress) setStatus("analysing…", true);
      break;
    }
    case "analysis": {
      fresh("analysis").innerHTML = reply.svg;
      const open = reply.open.map((o) => o.cell + " " + o.values.join("/"));
      $("open").textContent = open.length
        ? plural(open.length, "cell") + " open (shaded): " + open.join(", ")
        : "Every cell is fixed.";
      $("analysis").dataset.open = open.length;
      if (!reply.complete) $("open").textContent += " (" + reply.message + ")";
      setStatus("looking for what would make it unique…", true);
      break;
    }
    case "suggestions": {
      const list = $("suggestions").querySelector("ul");
      list.innerHTML = "";
      for (const item of reply.items) {
        const li = document.createElement("li");
        const apply = document.createElement("button");
        apply.type = "button";
        apply.textContent = "Apply";
        apply.addEventListener("click", () => {
          text.value = item.text;
          study();
        });
        const label = document.createElement("span");
        label.textContent = item.label;
        li.append(apply, label);
        list.append(li);
      }
      fresh("suggestions").hidden = reply.items.length === 0;
      break;
    }
    case "done":
      for (const id of ["verdict", "count", "puzzle", "analysis", "suggestions"]) {
        if ($(id).classList.contains("stale")) {
          $(id).classList.remove("stale");
          if (id === "suggestions") $(id).hidden = true;
          else if (id !== "puzzle") $(id).innerHTML = "";
        }
      }
      setStatus("done in " + (reply.elapsed_ms / 1000).toFixed(2) + " s", false);
      break;
    case "canceled":
      setStatus("stopped", false);
      break;
  }
}

// Typing waits for a pause; a paste or a drop is read at once.
text.addEventListener("input", (event) => {
  clearTimeout(timer);
  const whole = event.inputType === "insertFromPaste" || event.inputType === "insertFromDrop";
  timer = setTimeout(study, whole ? 0 : 250);
});
$("limit").addEventListener("change", study);
$("cancel").addEventListener("click", () => {
  current = ++nonce;
  send({ nonce: current, command: "cancel" });
  setStatus("stopped", false);
});
text.addEventListener("dragover", (event) => {
  event.preventDefault();
  text.classList.add("dropping");
});
text.addEventListener("dragleave", () => text.classList.remove("dropping"));
text.addEventListener("drop", (event) => {
  event.preventDefault();
  text.classList.remove("dropping");
  const file = event.dataTransfer.files[0];
  const put = (content) => {
    text.value = content;
    study();
  };
  if (file) file.text().then(put);
  else put(event.dataTransfer.getData("text/plain"));
});

connect();
