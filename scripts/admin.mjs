// `npm run admin -- grant EMAIL` / `npm run admin -- revoke EMAIL`: an operator makes an account an admin or
// takes the role away (docs/operations.md, ADR 049). It reaches the database the way the server does, through
// the built app (the same domain code and DATABASE_URL), after bringing the database up to date like `npm start`.
// Prints what it did; warns when the address is unverified; exits 1 for an unknown address, 2 for bad usage.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBuilt } from "./lib/build.mjs";
import { projectRoot } from "./lib/database-url.mjs";
import { migrate } from "./lib/migrate.mjs";

process.chdir(projectRoot);
process.env.NODE_ENV ??= "production";
const [command, email, ...rest] = process.argv.slice(2);
if (!["grant", "revoke"].includes(command) || !email || rest.length) {
  console.error("usage: npm run admin -- grant EMAIL | revoke EMAIL");
  process.exit(2);
}

ensureBuilt({ log: () => {} });
let build;
try {
  build = await import(pathToFileURL(path.join(projectRoot, "build", "index.js")).href);
} catch (error) {
  console.error(error?.name === "ConfigurationError" ? `[latchkey] ${error.message}` : error);
  process.exit(1);
}
await migrate(process.env.DATABASE_URL);

const outcome = await build.entry.module.adminCommands.setAdminByEmail(email, command === "grant");
if (!outcome.found) {
  console.error(`No account has the address ${email.trim().toLowerCase()}: nothing changed.`);
  process.exit(1);
}
const address = email.trim().toLowerCase();
if (!outcome.changed) console.log(`${address} ${command === "grant" ? "is already an admin" : "is not an admin"} (role: ${outcome.role}); nothing changed.`);
else console.log(`${address} ${command === "grant" ? "is now an admin" : "is no longer an admin"} (role: ${outcome.role}).`);
if (command === "grant" && !outcome.emailVerified) {
  console.warn(`Warning: ${address} is not verified. Anyone can sign up with any address: make sure this account is the person you mean.`);
}
process.exit(0);
