// Development outbox: the messages sent while no SMTP server is configured and BASE_URL is a localhost URL.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { localOutbox, mayReadLocalOutbox } from "~/email/mailer.server";

export const meta: MetaFunction = () => [{ title: "Outbox · Latchkey" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!mayReadLocalOutbox(request, context.peerAddress)) throw new Response("Not found", { status: 404 });
  return {
    messages: localOutbox().map((m) => ({ to: m.to, subject: m.subject, text: m.text, sentAt: m.sentAt.toISOString() })),
  };
}

export default function Outbox() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>Outbox</h1>
      <p className="muted">Messages this server would have emailed (no SMTP_URL is set). Newest first; kept in memory.</p>
      {messages.length === 0 ? <p>No messages yet.</p> : null}
      {messages.map((m, i) => (
        <article key={i} className="outbox-message">
          <h2>{m.subject}</h2>
          <p className="muted">
            To {m.to} · {m.sentAt}
          </p>
          <pre>
            {m.text.split(/(https?:\/\/\S+)/).map((part, j) => (j % 2 === 1 ? <a key={j} href={part}>{part}</a> : part))}
          </pre>
        </article>
      ))}
    </section>
  );
}
