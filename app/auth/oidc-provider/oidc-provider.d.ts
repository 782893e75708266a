// oidc-provider 9 ships no types (the DefinitelyTyped package trails it). What this app touches is typed loosely
// here and narrowed where it is used (provider.server.ts, interaction.server.ts).
declare module "oidc-provider" {
  /* eslint-disable @typescript-eslint/no-explicit-any */
  export class Provider {
    constructor(issuer: string, configuration: Record<string, any>);
    proxy: boolean;
    Client: any;
    Grant: any;
    Interaction: any;
    Session: any;
    AccessToken: any;
    RefreshToken: any;
    use(middleware: (ctx: any, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void;
    on(event: string, listener: (...args: any[]) => void): this;
  }
  export default Provider;
  export const errors: Record<string, new (description?: string) => Error & { error: string; status: number }>;
  export const interactionPolicy: {
    base(): any;
    Check: any;
    Prompt: any;
  };
}
