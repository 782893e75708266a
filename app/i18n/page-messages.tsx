// A language's page messages travel once per document, not with every navigation (ADR 073): the root loader, which
// Remix runs again at each client-side navigation, hands down only the language's name, and the messages are
// written into the document once, as inert JSON the browser reads when it starts. The server keeps the catalogs
// in memory anyway; this registry is how the root's component and `meta` (which hooks cannot reach) find them.
import type { Messages } from "~/i18n/message-types";

export interface LanguageMessages {
  lang: string;
  messages: Messages;
  /** The shipped English "said.*" sentences, to find the code's English by (other languages only). */
  source?: Messages;
}

export const PAGE_MESSAGES_ID = "page-messages";
const known = new Map<string, LanguageMessages>();
let documentRead = false;

/** On the server: the messages a page in `lang` is written with (the root loader and error pages register them). */
export function rememberPageMessages(language: LanguageMessages): void {
  known.set(language.lang, language);
}

/** In the browser, what the document was written with; on the server, what was registered. */
export function pageMessagesFor(lang: string): LanguageMessages | undefined {
  if (!documentRead && typeof document !== "undefined") {
    documentRead = true;
    const text = document.getElementById(PAGE_MESSAGES_ID)?.textContent;
    if (text) {
      try {
        rememberPageMessages(JSON.parse(text) as LanguageMessages);
      } catch {
        // a document without its messages shows the keys; the next document load brings them
      }
    }
  }
  return known.get(lang);
}

/** The one language the browser has messages for (the document's), for a page whose language it lacks. */
export function documentMessages(): LanguageMessages | undefined {
  pageMessagesFor("");
  return known.values().next().value;
}

/**
 * The document's messages as inert JSON, "<" escaped so no text in them can close the script. Never run, but given
 * the page's nonce like every inline script, so the rule stays "no inline script without it".
 */
export function PageMessagesData({ language, nonce }: { language: LanguageMessages; nonce?: string }) {
  const json = JSON.stringify({ lang: language.lang, messages: language.messages, source: language.source });
  return <script type="application/json" id={PAGE_MESSAGES_ID} nonce={nonce} dangerouslySetInnerHTML={{ __html: json.replace(/</g, "\\u003c") }} />;
}
