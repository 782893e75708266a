// A Response whose body is a string it already holds, and whose body stream is made only if somebody asks for
// it. On Node 20 every `new Response(text)` builds a web ReadableStream (a transferable one, which is costly),
// and writing the answer then reads that stream back: for a small JSON answer that was a quarter of the CPU a
// request cost. The production dispatch (server/api-dispatch.mjs) takes the text through `TextResponse.textOf`,
// which the build hands it (app/http/server-contract.ts), and writes it as it is; anything else (Remix's own
// handler, `remix dev`, a test) reads the body as from any Response, made on first use. See ADR 023 and 035.

export class TextResponse extends Response {
  readonly #text: string;
  #withBody: Response | undefined;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  /** A TextResponse's text while its body is unread, or undefined (any other Response, or a body read). */
  static textOf(response: Response): string | undefined {
    return #text in response && !response.bodyUsed ? response.#text : undefined;
  }

  /** The same answer as an ordinary Response, made once, the first time its body is wanted. */
  #materialized(): Response {
    this.#withBody ??= new Response(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers });
    return this.#withBody;
  }

  override get body() {
    return this.#materialized().body;
  }
  override get bodyUsed() {
    return this.#withBody?.bodyUsed ?? false;
  }
  override text() {
    return this.#materialized().text();
  }
  override json() {
    return this.#materialized().json();
  }
  override arrayBuffer() {
    return this.#materialized().arrayBuffer();
  }
  override blob() {
    return this.#materialized().blob();
  }
  override formData() {
    return this.#materialized().formData();
  }
  override bytes() {
    return this.#materialized().bytes();
  }
  override clone(): Response {
    if (this.bodyUsed) return super.clone(); // throws as any used Response does
    return new TextResponse(this.#text, { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) });
  }
}
