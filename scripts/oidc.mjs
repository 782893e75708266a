// `npm run oidc -- <command>`: the OpenID provider's operator commands (docs/openid-provider.md). They run the
// app's own modules from the build (building first if the sources changed) against DATABASE_URL, after bringing
// the database up to date, as `npm start` does.
//
//   add-client --name <name> --redirect-uri <uri> [--redirect-uri <uri>…] [--post-logout-redirect-uri <uri>…]
//              [--public] [--trusted] [--homepage <url>]
//   list-clients
//   remove-client <client id>
//   rotate-keys
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { projectRoot } from "./lib/database-url.mjs";
import { ensureBuilt } from "./lib/build.mjs";
import { migrate } from "./lib/migrate.mjs";

const USAGE = `usage: npm run oidc -- add-client --name <name> --redirect-uri <uri> [--redirect-uri <uri>…]
                              [--post-logout-redirect-uri <uri>…] [--public] [--trusted] [--homepage <url>]
       npm run oidc -- list-clients
       npm run oidc -- remove-client <client id>
       npm run oidc -- rotate-keys`;

function fail(message) {
  console.error(message);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      name: { type: "string" },
      "redirect-uri": { type: "string", multiple: true },
      "post-logout-redirect-uri": { type: "string", multiple: true },
      public: { type: "boolean" },
      trusted: { type: "boolean" },
      homepage: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
} catch (error) {
  fail(`${error.message}\n${USAGE}`);
}
const { values, positionals } = parsed;
const [command, ...rest] = positionals;
if (values.help || !command) fail(USAGE);

process.chdir(projectRoot);
process.env.NODE_ENV ??= "production";
ensureBuilt({ log: () => {} });
let app;
try {
  app = (await import(pathToFileURL(path.join(projectRoot, "build", "index.js")).href)).entry.module;
} catch (error) {
  fail(error?.name === "ConfigurationError" ? `[latchkey] ${error.message}` : String(error?.stack ?? error));
}
await migrate(process.env.DATABASE_URL);

try {
  switch (command) {
    case "add-client": {
      const { clientId, clientSecret } = await app.addClient({
        name: values.name ?? "",
        redirectUris: values["redirect-uri"] ?? [],
        postLogoutRedirectUris: values["post-logout-redirect-uri"] ?? [],
        public: values.public === true,
        trusted: values.trusted === true,
        homepageUrl: values.homepage,
      });
      console.log(`client_id:     ${clientId}`);
      if (clientSecret) {
        console.log(`client_secret: ${clientSecret}`);
        console.log("The secret is shown this once and stored only as a hash: keep it now.");
      } else {
        console.log("A public client: no secret; it must use PKCE (S256).");
      }
      break;
    }
    case "list-clients": {
      const clients = await app.listClients();
      if (clients.length === 0) console.log("No clients registered.");
      for (const client of clients) {
        const kind = [client.public ? "public" : "confidential", client.trusted ? "trusted" : null].filter(Boolean).join(", ");
        console.log(`${client.clientId}  ${client.name}  (${kind})`);
        for (const uri of client.redirectUris) console.log(`    redirect: ${uri}`);
        for (const uri of client.postLogoutRedirectUris) console.log(`    after logout: ${uri}`);
      }
      break;
    }
    case "remove-client": {
      if (rest.length !== 1) fail(USAGE);
      console.log((await app.removeClient(rest[0])) ? `Removed ${rest[0]}, its consents and its tokens.` : `No client ${rest[0]}.`);
      break;
    }
    case "rotate-keys": {
      const added = await app.rotateSigningKeys();
      console.log(`New signing keys: ${added.join(", ")}. The previous keys stay published for the overlap, then are deleted.`);
      break;
    }
    default:
      fail(`unknown command "${command}"\n${USAGE}`);
  }
} catch (error) {
  if (error?.name === "ClientRegistrationError") fail(`[latchkey] ${error.message}`);
  throw error;
}
process.exit(0);
