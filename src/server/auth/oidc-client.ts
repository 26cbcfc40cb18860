/**
 * The service as an OpenID Connect client (openid-client): authorization code with PKCE, `state`
 * and `nonce`, the ID token checked for issuer, audience, expiry and nonce, and its signature
 * against the provider's published keys (the library's non-repudiation checks: the spec lets a
 * client skip the signature on this path, we do not). Claims the ID token leaves out (Okta's groups,
 * say) are read from the UserInfo endpoint. The provider's metadata is discovered at the first
 * sign-in (or at start) and kept; a failed discovery is tried again at the next.
 */
import * as oidc from 'openid-client';
import type { SignInProblem } from '../../contract/session.js';
import { isLoopbackURL, type OidcConfig } from '../config/auth-config.js';

/** A sign-in that did not end in an ID token: the problem the person is shown, and what the log says. */
export class SignInFailure extends Error {
  constructor(
    readonly problem: SignInProblem,
    message: string,
  ) {
    super(message);
  }
}

export interface SignInStart {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface SignedIn {
  claims: Record<string, unknown>;
  idToken: string | undefined;
}

/** How long a request to the identity provider may take. */
const TIMEOUT_SECONDS = 10;

export class OidcClient {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly config: OidcConfig,
    /** Where the identity provider sends the browser back: `<publicURL>/auth/callback`. */
    readonly redirectURI: string,
  ) {}

  private discover(): Promise<oidc.Configuration> {
    this.configuration ??= oidc
      .discovery(
        new URL(this.config.issuer),
        this.config.clientID,
        undefined,
        this.config.clientAuthentication === 'post'
          ? oidc.ClientSecretPost(this.config.clientSecret.reveal())
          : oidc.ClientSecretBasic(this.config.clientSecret.reveal()),
        {
          timeout: TIMEOUT_SECONDS,
          execute: [
            oidc.enableNonRepudiationChecks,
            // Plain http only for an identity provider on this machine (the config refuses any other).
            ...(isLoopbackURL(this.config.issuer) ? [oidc.allowInsecureRequests] : []),
          ],
        },
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw new SignInFailure(
          'provider_unavailable',
          `the identity provider's metadata could not be read from ${this.config.issuer}: ${(error as Error).message}`,
        );
      });
    return this.configuration;
  }

  /** Reads the provider's metadata ahead of the first sign-in; a failure is only told (the next sign-in tries again). */
  async warmUp(): Promise<string | undefined> {
    try {
      await this.discover();
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  async start(): Promise<SignInStart> {
    const configuration = await this.discover();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectURI,
      scope: this.config.scopes.join(' '),
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url, state, nonce, codeVerifier };
  }

  /**
   * Trades the callback's code for tokens, every check made; throws `SignInFailure`. When the ID
   * token lacks a claim of `needed` (top-level names), the UserInfo endpoint's answer fills it in.
   */
  async finish(callbackURL: URL, expected: { state: string; nonce: string; codeVerifier: string }, needed: readonly string[] = []): Promise<SignedIn> {
    const configuration = await this.discover();
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackURL, {
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        pkceCodeVerifier: expected.codeVerifier,
        idTokenExpected: true,
      });
      const claims = tokens.claims() as Record<string, unknown> | undefined;
      if (!claims) throw new SignInFailure('failed', 'the identity provider answered without an ID token');
      const missing = needed.some((name) => claims[name] === undefined);
      if (!missing || !configuration.serverMetadata().userinfo_endpoint) return { claims, idToken: tokens.id_token };
      const userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub as string);
      // The ID token's own claims win: UserInfo only fills in what it left out.
      return { claims: { ...(userInfo as Record<string, unknown>), ...claims }, idToken: tokens.id_token };
    } catch (error) {
      if (error instanceof SignInFailure) throw error;
      if (error instanceof oidc.AuthorizationResponseError)
        throw new SignInFailure(
          error.error === 'access_denied' ? 'denied' : 'failed',
          `the identity provider refused: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`,
        );
      if (
        error instanceof TypeError ||
        (error as { code?: string }).code === 'OAUTH_TIMEOUT' ||
        (error as Error).name === 'TimeoutError'
      )
        throw new SignInFailure(
          'provider_unavailable',
          `the identity provider could not be reached: ${(error as Error).message}`,
        );
      throw new SignInFailure('failed', `the identity provider's answer did not check out: ${(error as Error).message}`);
    }
  }

  /** The identity provider's sign-out page for this person, where it offers one. */
  async endSessionURL(idToken: string | undefined, afterwards: string): Promise<string | undefined> {
    const configuration = await this.discover().catch(() => undefined);
    if (!configuration?.serverMetadata().end_session_endpoint) return undefined;
    return oidc
      .buildEndSessionUrl(configuration, {
        post_logout_redirect_uri: afterwards,
        client_id: this.config.clientID,
        ...(idToken ? { id_token_hint: idToken } : {}),
      })
      .toString();
  }
}
