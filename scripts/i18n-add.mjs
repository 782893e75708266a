#!/usr/bin/env node
// Adds, replaces or removes messages in every shipped catalog at once, from one file written key by key:
//   { "orgs.title": { "en": "Organizations", "de": "Organisationen", "fr": "…", "es": "…", "ar": "…", "he": "…" },
//     "orgs.old": null }
// A new key goes after the last key of its group (the part before the first dot), so the catalogs stay grouped and
// every language keeps the same order. Several people (or processes) may run it at once: it takes a lock, and each
// catalog is written whole to a temporary file and renamed into place.
//   node scripts/i18n-add.mjs messages-to-add.json
import { mkdirSync, readFileSync, renameSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const DIRECTORY = path.resolve(import.meta.dirname, "../app/i18n/messages");
const LANGUAGES = ["en", "de", "fr", "es", "ar", "he"];
const LOCK = path.join(DIRECTORY, ".lock");

const input = process.argv[2];
if (!input) {
  console.error("usage: node scripts/i18n-add.mjs <file.json>  ({ key: { en, de, fr, es, ar, he } | null })");
  process.exit(2);
}
const changes = JSON.parse(readFileSync(input, "utf8"));
const problems = [];
for (const [key, messages] of Object.entries(changes)) {
  if (messages === null) continue;
  const missing = LANGUAGES.filter((language) => typeof messages[language] !== "string");
  if (missing.length) problems.push(`${key}: no ${missing.join(", ")}`);
}
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(2);
}

function withLock(work) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${LOCK} held for 30 s: remove it if no one is writing`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  try {
    work();
  } finally {
    rmdirSync(LOCK);
  }
}

const groupOf = (key) => key.split(".")[0];

withLock(() => {
  for (const language of LANGUAGES) {
    const file = path.join(DIRECTORY, `${language}.json`);
    const entries = Object.entries(JSON.parse(readFileSync(file, "utf8")));
    for (const [key, messages] of Object.entries(changes)) {
      const at = entries.findIndex(([existing]) => existing === key);
      if (messages === null) {
        if (at >= 0) entries.splice(at, 1);
      } else if (at >= 0) {
        entries[at] = [key, messages[language]];
      } else {
        const lastOfGroup = entries.findLastIndex(([existing]) => groupOf(existing) === groupOf(key));
        entries.splice(lastOfGroup >= 0 ? lastOfGroup + 1 : entries.length, 0, [key, messages[language]]);
      }
    }
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`);
    renameSync(temporary, file);
  }
});
console.log(`${Object.keys(changes).length} key(s) written to ${LANGUAGES.length} catalogs`);
