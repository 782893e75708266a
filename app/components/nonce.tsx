// The per-response nonce that lets Remix's own inline scripts run under the Content-Security-Policy
// (app/entry.server.tsx sets both). In the browser there is none: nothing inline is added after hydration.
import { createContext, useContext } from "react";

export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
