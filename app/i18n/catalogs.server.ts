// The catalogs on offer: the shipped files, with an operator's AUTH_MESSAGES_DIR laid over them (a subset of keys
// for a shipped language, a complete file for an added one). Checked once at start-up with the other settings:
// anything wrong stops the server with the file and the key named (docs/languages.md).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import en from "~/i18n/messages/en.json";
import de from "~/i18n/messages/de.json";
import fr from "~/i18n/messages/fr.json";
import es from "~/i18n/messages/es.json";
import ar from "~/i18n/messages/ar.json";
import he from "~/i18n/messages/he.json";
import { LANGUAGE_TAG, SHIPPED_LANGUAGES, SOURCE_LANGUAGE } from "~/i18n/languages";
import type { Messages } from "~/i18n/format";

export const SHIPPED_CATALOGS: Readonly<Record<string, Messages>> = { en, de, fr, es, ar, he };

export interface Catalogs {
  /** The languages on offer, in the order the picker lists them. */
  languages: string[];
  defaultLanguage: string;
  messages: Record<string, Messages>;
}

/** Each argument a message takes, by name, with its kind ("argument", "number", "plural", "select", "tag"…). */
export function placeholdersOf(message: string, language = SOURCE_LANGUAGE): Map<string, string> {
  const found = new Map<string, string>();
  const kinds = ["literal", "argument", "number", "date", "time", "select", "plural", "pound", "tag"];
  type Element = { type: number; value?: string; options?: Record<string, { value: Element[] }>; children?: Element[] };
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      if (element.type !== 0 && element.type !== 7 && element.value !== undefined) found.set(element.value, kinds[element.type]);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
      if (element.children) walk(element.children);
    }
  };
  walk(new IntlMessageFormat(message, language).getAst() as unknown as Element[]);
  return found;
}

/** What is wrong with one message measured against its English source, or null. */
export function messageProblem(language: string, message: unknown, english: string): string | null {
  if (typeof message !== "string") return "is not a string";
  let own: Map<string, string>;
  try {
    own = placeholdersOf(message, language);
  } catch (error) {
    return `does not parse as ICU MessageFormat (${(error as Error).message})`;
  }
  const source = placeholdersOf(english);
  for (const [name, kind] of own) {
    if (!source.has(name)) return `has the placeholder {${name}}, which the English message lacks`;
    if (source.get(name) !== kind) return `uses {${name}} as ${kind}, the English message as ${source.get(name)}`;
  }
  for (const name of source.keys()) if (!own.has(name)) return `lacks the placeholder {${name}} of the English message`;
  return null;
}

class CatalogError extends Error {
  override name = "ConfigurationError";
}

function readOverrides(directory: string): Map<string, { file: string; entries: Record<string, unknown> }> {
  const files = new Map<string, { file: string; entries: Record<string, unknown> }>();
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => name.endsWith(".json"));
  } catch (error) {
    throw new CatalogError(`Invalid configuration:\n  AUTH_MESSAGES_DIR: cannot read ${directory} (${(error as Error).message})`);
  }
  for (const name of names.sort()) {
    const file = path.join(directory, name);
    const language = name.slice(0, -".json".length);
    if (!LANGUAGE_TAG.test(language)) throw new CatalogError(`Invalid configuration:\n  AUTH_MESSAGES_DIR: ${file}: "${language}" is not a language tag`);
    let entries: unknown;
    try {
      entries = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new CatalogError(`Invalid configuration:\n  AUTH_MESSAGES_DIR: ${file}: not JSON (${(error as Error).message})`);
    }
    if (!entries || typeof entries !== "object" || Array.isArray(entries)) {
      throw new CatalogError(`Invalid configuration:\n  AUTH_MESSAGES_DIR: ${file}: must be one object of keys to messages`);
    }
    files.set(language, { file, entries: entries as Record<string, unknown> });
  }
  return files;
}

/**
 * The catalogs for these settings, or a ConfigurationError naming the variable, the file and the key.
 * `languages` unset: every shipped language and every language a complete file adds.
 */
export function loadCatalogs(settings: { languages?: string[]; defaultLanguage: string; messagesDir?: string }): Catalogs {
  const english = SHIPPED_CATALOGS[SOURCE_LANGUAGE];
  const messages: Record<string, Messages> = { ...SHIPPED_CATALOGS };
  const added: string[] = [];
  if (settings.messagesDir) {
    for (const [language, { file, entries }] of readOverrides(settings.messagesDir)) {
      const shipped = Object.hasOwn(SHIPPED_CATALOGS, language);
      for (const [key, message] of Object.entries(entries)) {
        if (!Object.hasOwn(english, key)) throw new CatalogError(`Invalid configuration:\n  AUTH_MESSAGES_DIR: ${file}: "${key}" is not a key of the catalog`);
        const problem = messageProblem(language, message, english[key]);
        if (problem) throw new CatalogError(`Invalid configuration:\n  AUTH_MESSAGES_DIR: ${file}: "${key}" ${problem}`);
      }
      if (!shipped) {
        const missing = Object.keys(english).find((key) => !Object.hasOwn(entries, key));
        if (missing) {
          throw new CatalogError(
            `Invalid configuration:\n  AUTH_MESSAGES_DIR: ${file}: "${language}" is not shipped, so its file must be complete; "${missing}" is missing`,
          );
        }
        added.push(language);
      }
      messages[language] = { ...(messages[language] ?? {}), ...(entries as Record<string, string>) };
    }
  }
  const languages = settings.languages ?? [...SHIPPED_LANGUAGES, ...added];
  for (const language of languages) {
    if (!Object.hasOwn(messages, language)) {
      throw new CatalogError(
        `Invalid configuration:\n  AUTH_LANGUAGES: "${language}" is neither shipped (${SHIPPED_LANGUAGES.join(", ")}) nor added by a complete file in AUTH_MESSAGES_DIR`,
      );
    }
  }
  if (!languages.includes(settings.defaultLanguage)) {
    throw new CatalogError(`Invalid configuration:\n  AUTH_DEFAULT_LANGUAGE: "${settings.defaultLanguage}" is not one of AUTH_LANGUAGES (${languages.join(", ")})`);
  }
  return { languages: [...new Set(languages)], defaultLanguage: settings.defaultLanguage, messages };
}
