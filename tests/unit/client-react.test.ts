// The React hooks (app/client/react.ts) on the server: the first render shows the loader's value (no flash,
// and hydration sees the same), and nothing is written to the store — the product's client is one instance per
// server process, so a store written during one request's render would show that user to the next request.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { useQueryStore } from "~/client/react";
import { createQueryStore } from "~/client/store";

function Probe({ store, initialData }: { store: ReturnType<typeof createQueryStore<string>>; initialData?: string }) {
  const { data, isPending } = useQueryStore(store, initialData === undefined ? {} : { initialData });
  return createElement("p", null, `${data ?? "none"} pending=${isPending}`);
}

describe("useQueryStore on the server", () => {
  it("renders initialData as a settled answer, without fetching or writing the store", () => {
    const fetcher = vi.fn(async () => ({ data: "fetched", error: null }));
    const store = createQueryStore(fetcher);
    expect(renderToString(createElement(Probe, { store, initialData: "Ada" }))).toBe("<p>Ada pending=false</p>");
    expect(fetcher).not.toHaveBeenCalled();
    expect(store.getSnapshot()).toMatchObject({ data: null, isPending: true });
    expect(renderToString(createElement(Probe, { store }))).toBe("<p>none pending=true</p>");
  });
});
