/** The little of oidc-provider (which ships no types) that the test identity provider uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface OidcContext {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: {
      new (properties: { clientId: string; accountId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
    proxy: boolean;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
  export type { OidcContext };
}
