import { useEffect } from "react";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { BrandMark } from "~/components/brand-mark";
import { LanguagePicker } from "~/components/language-picker";
import { useNonce } from "~/components/nonce";
import { ErrorPageViewerData, useErrorPageViewer } from "~/components/error-page-viewer";
import { ImpersonationBanner } from "~/components/impersonation-banner";
import { SignedInUser } from "~/components/signed-in-user";
import { SIGNED_OUT_ELSEWHERE, sessionEndedElsewhere } from "~/http/page-session.server";
import { viewerOf } from "~/http/viewer.server";
import { uiLocalesWaitingAt } from "~/auth/oidc-provider/interaction.server";
import { translator } from "~/i18n/format";
import { directionOf } from "~/i18n/languages";
import { languageChoice, languageOfRequest, type LanguageChoice, type PageLanguage } from "~/i18n/i18n.server";
import { documentMessages, PageMessagesData, pageMessagesFor } from "~/i18n/page-messages";
import { ErrorPageLanguageData, I18nProvider, useErrorPageLanguage, useT } from "~/i18n/react";
import stylesUrl from "~/styles.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesUrl }];
// A page that failed says so first, in its title too: "Error: Page not found · Latchkey". Without the root's data
// (an error page its loader did not run for) the Layout writes the title in the entry's chosen language.
export const meta: MetaFunction<typeof loader> = ({ error, data }) => {
  if (!error) return [{ title: "Latchkey" }];
  if (!data) return [];
  const t = translator(data.language.lang, pageMessagesFor(data.language.lang)?.messages ?? {});
  return [{ title: `${t.t("common.errorPrefix")}${t.t(failureOf(error).title)} · Latchkey` }];
};

/**
 * Whether a page action on this request answered with errors (pages' titles then start "Error: ", page-title.ts),
 * who is signed in, for the header, and whether this browser's session was ended elsewhere (said once, here).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const [viewer, endedElsewhere, lang] = await Promise.all([
    viewerOf(request, context),
    sessionEndedElsewhere(request, context),
    // An application's ui_locales, for the pages of its sign-in (only looked up when one waits behind the page).
    uiLocalesWaitingAt(new URL(request.url))
      .catch(() => null)
      .then((uiLocales) => languageOfRequest(request, context, { uiLocales })),
  ]);
  const language: LanguageChoice = languageChoice(lang);
  return data(
    { formFailed: context.formFailed === true, viewer, signedOutElsewhere: endedElsewhere ? SIGNED_OUT_ELSEWHERE : null, language },
    // The ended session's cookies are cleared with the page that says so, so the next page does not repeat it.
    endedElsewhere ? { headers: endedElsewhere } : undefined,
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // Absent on an error page the root loader did not run for (404, 405, 413, or the loader itself failed): the
  // server entry then reads who is signed in (error-page-viewer.tsx), so the banner and header stay.
  const root = useRouteLoaderData<typeof loader>("root");
  const errorPageViewer = useErrorPageViewer();
  const viewer = root ? root.viewer : errorPageViewer;
  // The language likewise: the root loader's, or the entry's for an error page it did not run for.
  const errorPageLanguage = useErrorPageLanguage();
  const language = root ? withMessages(root.language) : errorPageLanguage;
  // A client-side navigation into another language (signing in to an account saved in one): this document has no
  // messages for it, so it is loaded whole, as the picker's choice is.
  const languageChanged = root != null && language?.lang !== root.language.lang;
  useEffect(() => {
    if (languageChanged) window.location.reload();
  }, [languageChanged]);
  return (
    <html lang={language?.lang ?? "en"} dir={language?.dir ?? "ltr"}>
      <I18nProvider language={language}>
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          {!root ? <ErrorPageTitle /> : null}
          <Meta />
          <Links />
        </head>
        <body>
          {!root && errorPageViewer ? <ErrorPageViewerData viewer={errorPageViewer} /> : null}
          {!root && errorPageLanguage ? <ErrorPageLanguageData language={errorPageLanguage} /> : null}
          {viewer?.impersonated ? <ImpersonationBanner viewer={viewer} /> : null}
          <header className="site-header">
            <Link to="/" className="brand">
              <BrandMark />
              Latchkey
            </Link>
            <SignedInUser viewer={viewer ?? null} />
          </header>
          <main>
            {root?.signedOutElsewhere ? <SignedOutElsewhere /> : null}
            {children}
          </main>
          <footer className="site-footer">
            <LanguagePicker />
          </footer>
          {/* After the page's content, so it paints first; read when the scripts start. */}
          {root && language ? <PageMessagesData language={language} nonce={nonce} /> : null}
          <ScrollRestoration nonce={nonce} />
          <Scripts nonce={nonce} />
        </body>
      </I18nProvider>
    </html>
  );
}

/** The root's language with the messages the document carries (the document's own language if it lacks them). */
function withMessages(choice: LanguageChoice): PageLanguage | null {
  const known = pageMessagesFor(choice.lang) ?? documentMessages();
  if (!known) return null;
  return { ...choice, ...known, dir: directionOf(known.lang) };
}

function SignedOutElsewhere() {
  const t = useT();
  return (
    <p className="notice" role="status" data-testid="signed-out-elsewhere">
      {t.t("layout.signedOutElsewhere")} <Link to="/sign-in">{t.t("layout.signIn")}</Link>
    </p>
  );
}

/** The title of an error page the root loader did not run for (its `meta` then has no language to use). */
function ErrorPageTitle() {
  const t = useT();
  return <title>{`${t.t("common.errorPrefix")}${t.t(failureOf(useRouteError()).title)} · Latchkey`}</title>;
}

export default function App() {
  return <Outlet />;
}

/**
 * A failed request in words for people: what happened and what to do, by its status (never a bare "413"), as
 * catalog keys ("errors.404.title"), read in the page's language where shown.
 */
export function failureOf(error: unknown): { title: string; text: string; retry: boolean } {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const kind = [400, 403, 404, 405, 413, 429].includes(status) ? String(status) : status >= 500 || !isRouteErrorResponse(error) ? "500" : "other";
  return { title: `errors.${kind}.title`, text: `errors.${kind}.text`, retry: kind === "429" || kind === "500" };
}

export function ErrorBoundary() {
  const { title, text, retry } = failureOf(useRouteError());
  const t = useT();
  return (
    <section className="narrow" aria-labelledby="failure-heading">
      <h1 id="failure-heading">{t.t(title)}</h1>
      <p>{t.t(text)}</p>
      <p className="actions">
        {/* A plain link to this address: the page asked for again (a GET, never a form sent twice). */}
        {retry ? (
          <a href="" className="button-link primary">
            {t.t("errors.tryAgain")}
          </a>
        ) : null}
        <Link to="/">{t.t("errors.home")}</Link>
      </p>
    </section>
  );
}
