// The part of oidc-provider (a devDependency without type declarations) that the single sign-on test uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface ProviderGrant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export interface ProviderContext {
    oidc: {
      provider: { Grant: new (init: { clientId: string; accountId: string }) => ProviderGrant };
      client?: { clientId: string };
      session?: { accountId: string };
    };
  }
  export interface ProviderAccount {
    accountId: string;
    claims: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  }
  export interface ProviderConfiguration {
    clients?: Array<Record<string, unknown>>;
    pkce?: { required?: (ctx: ProviderContext, client: unknown) => boolean };
    features?: Record<string, unknown>;
    interactions?: { url?: (ctx: ProviderContext, interaction: { uid: string }) => string };
    claims?: Record<string, string[]>;
    cookies?: { keys?: string[] };
    ttl?: Record<string, number>;
    findAccount?: (ctx: ProviderContext, sub: string) => ProviderAccount | undefined | Promise<ProviderAccount | undefined>;
    loadExistingGrant?: (ctx: ProviderContext) => Promise<ProviderGrant | undefined>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
