import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Account deleted · Latchkey" }];

export default function AccountDeleted() {
  return (
    <section>
      <h1>Your account is deleted</h1>
      <p>Your account, its sessions and its sign-in methods are gone.</p>
      <p>
        <Link to="/">Return to the home page</Link>
      </p>
    </section>
  );
}
