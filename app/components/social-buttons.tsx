// "Continue with …" buttons: each a plain form, so they work without JavaScript (the server answers with a
// redirect to the provider). A refusal comes back as `?error=`, which the page shows in its own error summary.
import { Form } from "@remix-run/react";
import type { ProviderButton } from "~/auth/social/provider-ids";
import { useT } from "~/i18n/react";

export function SocialButtons({ providers, redirectTo }: { providers: ProviderButton[]; redirectTo?: string | null }) {
  const { t } = useT();
  if (providers.length === 0) return null;
  return (
    <section className="social narrow" aria-labelledby="social-heading">
      <h2 id="social-heading" className="social-heading">
        {t("social.heading")}
      </h2>
      {providers.map((provider) => (
        <Form key={provider.id} method="post" action="/sign-in/social" reloadDocument>
          <input type="hidden" name="provider" value={provider.id} />
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <button type="submit" className="secondary social-button">
            {t("social.continueWith", { provider: provider.name })}
          </button>
        </Form>
      ))}
    </section>
  );
}
