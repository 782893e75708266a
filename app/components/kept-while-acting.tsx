// What an admin acting as someone cannot do (app/auth/admin/impersonation-guard.server.ts isKeptFromImpersonators:
// password, e-mail, profile, passkeys, two-factor, linked accounts, deleting): the forms would only be refused, so
// they are not shown, and one line says why and what to do (issue 41).
import { useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import type { loader as rootLoader } from "~/root";
import { useT } from "~/i18n/react";

/** Whether the page is read by an admin acting as its owner (the root loader's viewer says so). */
export function useActingAsSomeone(): boolean {
  return useRouteLoaderData<typeof rootLoader>("root")?.viewer?.impersonated === true;
}

/** `kept` says what cannot be done: "the password can't be changed". */
export function KeptWhileActingLine({ kept }: { kept: string }) {
  const { said } = useT();
  return (
    <p className="kept-from-impersonators" data-testid="kept-from-impersonators">
      {said(`You are acting as this person, so ${kept} from here. Only they can do that, signed in themselves.`)}
    </p>
  );
}

/** The children, or, while acting as someone, the line that says why they are not there. */
export function KeptWhileActing({ kept, children }: { kept: string; children: ReactNode }) {
  return useActingAsSomeone() ? <KeptWhileActingLine kept={kept} /> : <>{children}</>;
}
