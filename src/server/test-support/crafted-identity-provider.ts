/**
 * An identity provider whose token endpoint answers an ID token made to order (jose): a good one,
 * or one wrong in a single way (issuer, audience, expiry, nonce, signing key), to prove the service's client
 * refuses each. Discovery and keys are served as a real provider serves them; the service never
 * sees its sign-in page, since a test goes straight to the callback with any code.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

export type IdTokenFlaw = 'none' | 'other-issuer' | 'other-audience' | 'expired' | 'other-nonce' | 'other-key';

export interface CraftedIdentityProvider {
  readonly issuer: string;
  /** What the next ID token gets wrong, and the nonce it should carry (from the authorization URL). */
  next(flaw: IdTokenFlaw, nonce: string, claims: Record<string, unknown>): void;
  close(): Promise<void>;
}

export const startCraftedIdentityProvider = async (clientID: string): Promise<CraftedIdentityProvider> => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  // Signs under the published key's ID, but is not that key: a forged token.
  const forger = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let planned: { flaw: IdTokenFlaw; nonce: string; claims: Record<string, unknown> } | undefined;
  const server: Server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    if (request.url === '/.well-known/openid-configuration')
      return send(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      });
    if (request.url === '/jwks') return send(200, { keys: [jwk] });
    if (request.url === '/token' && request.method === 'POST') {
      request.resume();
      request.on('end', () => {
        const plan = planned;
        if (!plan) return send(400, { error: 'invalid_grant' });
        planned = undefined;
        const now = Math.floor(Date.now() / 1000);
        const expired = plan.flaw === 'expired';
        void new SignJWT({ ...plan.claims, nonce: plan.flaw === 'other-nonce' ? 'a-nonce-of-another-sign-in' : plan.nonce })
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setIssuer(plan.flaw === 'other-issuer' ? 'https://login.elsewhere.example' : issuer)
          .setAudience(plan.flaw === 'other-audience' ? 'another-client' : clientID)
          .setIssuedAt(expired ? now - 7200 : now)
          .setExpirationTime(expired ? now - 3600 : now + 600)
          .sign(plan.flaw === 'other-key' ? forger.privateKey : privateKey)
          .then((idToken) =>
            send(200, { access_token: 'crafted-access', token_type: 'Bearer', expires_in: 600, id_token: idToken }),
          );
      });
      return undefined;
    }
    return send(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    next: (flaw, nonce, claims) => {
      planned = { flaw, nonce, claims };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
