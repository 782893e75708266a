// A TCP proxy a test controls, between a server and its database or Redis: `cut()` drops every connection and
// refuses new ones (a restart, a lost network); `stall()` lets nothing through either way on any connection, old
// or new, while they stay open (a hung host); `restore()` forwards again, what a stalled connection held
// included (the host answering again). It keeps its port throughout, so the server's URL stays valid.
import { createServer, connect, type Server, type Socket } from "node:net";

type Mode = "forward" | "cut" | "stall";

export class TcpProxy {
  #server: Server | null = null;
  #mode: Mode = "forward";
  #pairs = new Set<{ client: Socket; upstream: Socket }>();

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** The proxy for a URL's host and port (`postgresql://…@127.0.0.1:5432/db`, `redis://127.0.0.1:6379`). */
  static forUrl(url: string, defaultPort: number): TcpProxy {
    const { hostname, port } = new URL(url);
    return new TcpProxy(hostname, Number(port || defaultPort));
  }

  get port(): number {
    const address = this.#server?.address();
    if (!address || typeof address === "string") throw new Error("the proxy is not listening");
    return address.port;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlThrough(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(this.port);
    return proxied.toString();
  }

  async start(): Promise<this> {
    this.#server = createServer((client) => this.#accept(client));
    await new Promise<void>((resolve) => this.#server!.listen(0, "127.0.0.1", resolve));
    return this;
  }

  /** Drops every open connection, and new ones the moment they arrive. */
  cut(): void {
    this.#mode = "cut";
    for (const { client, upstream } of this.#pairs) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    this.#pairs.clear();
  }

  /** Nothing passes on any connection until `restore()`; new connections are accepted and held too. */
  stall(): void {
    this.#mode = "stall";
    for (const pair of this.#pairs) hold(pair);
  }

  restore(): void {
    this.#mode = "forward";
    for (const pair of this.#pairs) forward(pair);
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
    this.#server = null;
  }

  #accept(client: Socket): void {
    if (this.#mode === "cut") {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    const pair = { client, upstream };
    this.#pairs.add(pair);
    const end = () => {
      this.#pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    if (this.#mode === "forward") forward(pair);
    else hold(pair);
  }
}

function forward({ client, upstream }: { client: Socket; upstream: Socket }): void {
  client.pipe(upstream);
  upstream.pipe(client);
}

function hold({ client, upstream }: { client: Socket; upstream: Socket }): void {
  client.unpipe(upstream);
  upstream.unpipe(client);
  client.pause();
  upstream.pause();
}
