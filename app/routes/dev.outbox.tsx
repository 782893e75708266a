// Development outbox: the messages sent while no SMTP server is configured and BASE_URL is a localhost URL.
// The page's frame is in the reader's language; each mail is shown as it was sent (in its recipient's language).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/components/page-title";
import { localOutbox, mayReadLocalOutbox } from "~/email/mailer.server";
import { directionOf } from "~/i18n/languages";
import { useT } from "~/i18n/react";

export const meta = pageTitle("outbox.title");

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!mayReadLocalOutbox(request, context.peerAddress)) throw new Response("Not found", { status: 404 });
  return {
    messages: localOutbox().map((m) => ({ to: m.to, subject: m.subject, text: m.text, sentAt: m.sentAt.toISOString(), language: m.language })),
  };
}

export default function Outbox() {
  const { messages } = useLoaderData<typeof loader>();
  const { t, rich, dateTime } = useT();
  return (
    <section>
      <h1>{t("outbox.title")}</h1>
      <p className="muted">{rich("outbox.lead", {}, { code: (chunks) => <code>{chunks}</code> })}</p>
      {messages.length === 0 ? <p>{t("outbox.none")}</p> : null}
      {messages.map((m, i) => (
        // The mail's own words, marked with the language it was sent in (its Content-Language), so they are read and
        // laid out as that language whatever the page's.
        <article key={i} className="outbox-message">
          <h2 lang={m.language} dir={directionOf(m.language)}>
            {m.subject}
          </h2>
          <p className="muted">
            {rich("outbox.to", { to: m.to }, { ltr: (chunks) => <span dir="ltr">{chunks}</span> })}
            {" · "}
            <time dateTime={m.sentAt} title={dateTime(new Date(m.sentAt))}>
              {dateTime(new Date(m.sentAt))}
            </time>
          </p>
          <pre lang={m.language} dir={directionOf(m.language)}>
            {m.text.split(/(https?:\/\/\S+)/).map((part, j) => (j % 2 === 1 ? <a key={j} href={part}>{part}</a> : part))}
          </pre>
        </article>
      ))}
    </section>
  );
}
